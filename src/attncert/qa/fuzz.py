"""Byte- and structure-level mutations of certificate files, for fuzzing the checker (tests and
benchmarks/fuzz_checker.py). ``check_one`` runs the checker on one mutated file and reports whether the
outcome is clean: VERIFIED or REJECTED with a reason, no exception escaping, within the time bound, and
never VERIFIED for a file whose claim or verdict differs from the original's."""

from __future__ import annotations

import io
import json
import os
import random
import time

KINDS = ("truncate", "bitflip", "swap", "huge", "deep", "utf8", "dupkey", "nan", "number", "verdict")


def mutate(raw: bytes, kind: str, rng: random.Random) -> bytes:
    text = raw.decode("utf-8")
    if kind == "truncate":
        return raw[: rng.randrange(0, len(raw))]
    if kind == "bitflip":
        b = bytearray(raw)
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
        return bytes(b)
    if kind == "swap":
        lines = text.split("\n")
        body = [i for i, ln in enumerate(lines) if ln.startswith(' "')]
        if len(body) >= 2:
            i, j = rng.sample(body, 2)
            ki, vi = lines[i].split(":", 1)
            kj, vj = lines[j].split(":", 1)
            lines[i], lines[j] = ki + ":" + vj.rstrip(",") + ("," if vi.endswith(",") else ""), \
                kj + ":" + vi.rstrip(",") + ("," if vj.endswith(",") else "")
        return "\n".join(lines).encode()
    if kind == "huge":
        return text.replace('["num","', '["num","' + "9" * rng.choice((6000, 100000)), 1).encode()
    if kind == "deep":
        depth = rng.choice((300, 5000, 100000))
        return text.replace('"goal":', '"goal":' + '["neg",' * depth + '["num","1"]' + "]" * depth + ',"x":', 1).encode()
    if kind == "utf8":
        i = rng.randrange(len(raw))
        return raw[:i] + b"\xff\xfe" + raw[i:]
    if kind == "dupkey":
        lines = text.split("\n")
        i = rng.randrange(1, max(2, len(lines) - 1))
        return "\n".join(lines[:i] + [lines[i]] + lines[i:]).encode()
    if kind == "nan":
        return text.replace('["num","', '["num",NaN,"', 1).replace('"verdict": "', '"verdict": Infinity, "v": "', 1).encode()
    if kind == "number":
        # change one digit inside a number of the claim (a changed constant)
        idx = [i for i in range(len(text) - 1) if text[i].isdigit() and text.rfind('"num"', 0, i) > text.rfind("]", 0, i)]
        if idx:
            i = rng.choice(idx)
            d = str((int(text[i]) + rng.randrange(1, 10)) % 10)
            return (text[:i] + d + text[i + 1:]).encode()
        return raw
    if kind == "verdict":
        for a, b in (('"PROVED"', '"REFUTED"'), ('"REFUTED"', '"PROVED"')):
            if a in text:
                return text.replace('"verdict": ' + a, '"verdict": ' + b, 1).encode()
        return raw
    raise ValueError(kind)


def _claim_and_verdict(raw: bytes):
    try:
        obj = json.loads(raw.decode("utf-8"))
        return json.dumps(obj.get("claim"), sort_keys=True), obj.get("verdict")
    except Exception:
        return None


def check_one(original: bytes, mutated: bytes, tmpdir: str, timeout: float = 20.0) -> tuple[bool, str, float]:
    """(clean, outcome, seconds) for the checker on ``mutated``."""
    from attncert.checker.verify import verify_paths

    p = os.path.join(tmpdir, "fuzz.json")
    with open(p, "wb") as fh:
        fh.write(mutated)
    t = time.perf_counter()
    buf = io.StringIO()
    try:
        # one file alone: its links cannot be checked here (CONDITIONAL); the fuzzer is about its evidence
        code = verify_paths([p], buf, solver_timeout=5.0, allow_conditional=True)
    except BaseException as e:  # noqa: BLE001 - an escaping exception is exactly what fuzzing looks for
        return False, f"exception {e.__class__.__name__}: {str(e)[:200]}", time.perf_counter() - t
    dt = time.perf_counter() - t
    out = buf.getvalue()
    if dt > timeout:
        return False, f"took {dt:.1f}s > {timeout}s", dt
    if code == 0:
        if _claim_and_verdict(mutated) != _claim_and_verdict(original):
            return False, "VERIFIED a file whose claim or verdict changed", dt
        return True, "VERIFIED (claim and verdict unchanged)", dt
    line = out.strip().splitlines()[0] if out.strip() else ""
    if not line.startswith("REJECTED"):
        return False, f"non-zero exit without a rejection line: {out[:200]}", dt
    return True, "REJECTED", dt

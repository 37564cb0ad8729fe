"""Forging certificates as an attacker would: any claim, any evidence, both hashes recomputed.

Nothing here imports the checker: the hashes are recomputed from the published format (sha256 of the
canonical JSON), so a test that passes shows the checker rejects the file on its merits, not because
the forger used the checker's own helpers wrongly."""

from __future__ import annotations

import hashlib
import json
import random
from fractions import Fraction
from pathlib import Path

SCHEMA = "attncert.cert/2"


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sha(obj) -> str:
    return hashlib.sha256(canonical(obj).encode()).hexdigest()


def num(q) -> list:
    q = Fraction(q)
    return ["num", str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"]


def var(name: str) -> list:
    return ["var", name]


def op(name: str, *args) -> list:
    return [name, *args]


def claim(vars_: list, hyps: list, goal: list) -> dict:
    """vars_: names, or (name, domain[, lo, hi]); hyps: expressions or (expression, by)."""
    vs = []
    for v in vars_:
        if isinstance(v, str):
            vs.append({"name": v, "domain": "real"})
        else:
            d = {"name": v[0], "domain": v[1]}
            if len(v) > 2:
                d["lo"], d["hi"] = str(v[2]), str(v[3])
            vs.append(d)
    hs = [{"expr": h[0], "by": h[1]} if isinstance(h, tuple) else {"expr": h} for h in hyps]
    return {"vars": vs, "hyps": hs, "goal": goal}


def cert(cid: str, c: dict, evidence: dict, verdict: str = "PROVED", *, uses: list | None = None,
         schema: str = SCHEMA, **extra) -> dict:
    body = {
        "schema": schema, "id": cid, "family": "forged", "paper": "ks", "ref": "forged", "statement": "forged",
        "claim": c, "claim_sha256": sha(c), "verdict": verdict, "expected": None, "finding": None,
        "repairs": None, "method": evidence.get("kind", "x"), "evidence": evidence,
        "uses": sorted({one for h in c["hyps"] if "by" in h and not h["by"].startswith(("fact:", "axiom:"))
                        for one in (h["by"][6:].split(",") if h["by"].startswith("cases:")
                                    else [h["by"][4:] if h["by"].startswith("mvt:") else
                                          h["by"][5:].partition(":")[2] if h["by"].startswith("each:") else h["by"]])})
        if uses is None else uses,
        "trust": [], "tools": {"python": "3.11"},
    }
    body.update(extra)
    body["cert_sha256"] = sha(body)
    return body


def write(d: Path, c: dict, name: str | None = None) -> Path:
    p = d / f"{name or c['id']}.json"
    p.write_text(json.dumps(c, indent=1, sort_keys=True))
    return p


def old_sz_standins(seed: int = 12345, trials: int = 4) -> list[Fraction]:
    """The values the old checker's zero test (fixed seed 12345, 4 trials) gave the one exp/log atom of a
    closed claim, trial by trial: a polynomial with these roots vanished at every trial."""
    rng = random.Random(seed)
    return [Fraction(rng.randrange(1, 1 << 62), rng.randrange(1, 1 << 20)) for _ in range(trials)]

"""Fuzz the independent checker on every committed certificate: N mutated files (kinds from
attncert.qa.fuzz), each must end in a clean verdict. Updates the fuzzing section of docs/soundness.md.

    python benchmarks/fuzz_checker.py [--n 3000] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections
import glob
import os
import random
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- fuzz -->", "<!-- /fuzz -->"


def main():
    from attncert.qa.fuzz import KINDS, check_one, mutate

    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    certs = sorted(glob.glob(os.path.join(ROOT, "certificates", "**", "*.json"), recursive=True))
    rng = random.Random(a.seed)
    outcomes = collections.Counter()
    per_kind = collections.Counter()
    bad, times = [], []
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(a.n):
            path, kind = rng.choice(certs), rng.choice(KINDS)
            raw = open(path, "rb").read()
            m = mutate(raw, kind, rng)
            clean, outcome, dt = check_one(raw, m, tmp)
            times.append(dt)
            per_kind[kind] += 1
            tag = outcome.split(" (")[0] if clean else "NOT CLEAN"
            outcomes[tag + (" (file unchanged: the mutation did not apply)" if m == raw else " (file changed)")] += 1
            if not clean:
                bad.append((os.path.relpath(path, ROOT), kind, outcome))
    wall = time.perf_counter() - t0
    lines = [BEGIN, "## Checker fuzzing", "",
             f"`python benchmarks/fuzz_checker.py --n {a.n} --seed {a.seed}`: {a.n} mutated certificates, drawn from all "
             f"{len(certs)} committed ones, across the mutation kinds {', '.join(KINDS)} "
             f"({', '.join(f'{k} {per_kind[k]}' for k in KINDS)}).", "",
             f"- Outcomes: {', '.join(f'{k}: {v}' for k, v in sorted(outcomes.items()))}.",
             f"- Not clean (an exception, a hang over 20 s, or a changed claim or verdict VERIFIED): **{len(bad)}**.",
             f"- Time: {wall:.1f} s in all; per file median {statistics.median(times) * 1000:.1f} ms, max {max(times):.2f} s.",
             "- Every changed file was REJECTED with a one-line reason: changed constants, swapped fields, "
             "truncations, NaN/Infinity literals, duplicate keys, non-UTF-8 bytes, huge numbers and deep nesting. "
             "A file is VERIFIED only when the mutation did not apply and the file is unchanged, e.g. 'verdict' "
             "on a CONFIRMED certificate. Most rejections are fast because the hashes are checked first.", ""]
    lines += [f"- NOT CLEAN `{p}` ({k}): {o}" for p, k, o in bad]
    lines.append(END)
    doc = os.path.join(ROOT, "docs", "soundness.md")
    text = open(doc, encoding="utf-8").read() if os.path.exists(doc) else "# Soundness\n"
    if BEGIN in text:
        text = text[: text.index(BEGIN)] + "\n".join(lines) + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
    tmpf = doc + ".tmp"
    with open(tmpf, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmpf, doc)
    print("\n".join(lines))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

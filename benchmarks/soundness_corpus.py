"""The mutation corpus: every transcribed obligation of every family, mutated by attncert.mutate, run
through the engine. Writes docs/soundness.md (kill rate per family, equivalent mutants, survivors).

    python benchmarks/soundness_corpus.py [--family NAME] [--limit K] [--timeout S] [--jobs J]
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import sys
import time
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def classify(args):
    ob, timeout = args
    from attncert.engine import run_obligation
    from attncert.verdict import Verdict
    import dataclasses

    t = time.perf_counter()
    r = run_obligation(ob, timeout)
    v = r.verdict
    bug = None
    if v == Verdict.PROVED:
        # cross-examine an equivalent mutant: no counterexample method may find anything
        x = run_obligation(dataclasses.replace(ob, methods=("probe", "model", "search")), timeout)
        if x.verdict == Verdict.REFUTED:
            bug = f"PROVED by {r.evidence.method} but refuted by {x.evidence.method}: {x.evidence.detail.get('point')}"
    return ob.id, ob.family, v.name, r.evidence.method, r.evidence.detail.get("reason", ""), bug, time.perf_counter() - t


def corpus(families=None, limit=None):
    from attncert.families import all_families
    from attncert.mutate import mutants

    out = []
    for f in all_families():
        if families and f.name not in families:
            continue
        for ob in f.obligations:
            if ob.opt("sampler") is not None:
                continue   # sampler-driven obligations (random boxes) are mutated through their claims only when boxed
            out.extend(mutants(ob))
    return out[:limit] if limit else out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--family", action="append")
    ap.add_argument("--limit", type=int)
    ap.add_argument("--timeout", type=float, default=10.0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "soundness.md"))
    a = ap.parse_args()
    muts = corpus(a.family, a.limit)
    t0 = time.perf_counter()
    if a.jobs > 1:
        # worker processes must be able to fork the solver guards, so not a (daemonic) multiprocessing.Pool
        from concurrent.futures import ProcessPoolExecutor
        with ProcessPoolExecutor(a.jobs, mp_context=mp.get_context("fork")) as ex:
            rows = list(ex.map(classify, [(m, a.timeout) for m in muts], chunksize=4))
    else:
        rows = [classify((m, a.timeout)) for m in muts]
    wall = time.perf_counter() - t0
    per = defaultdict(lambda: defaultdict(int))
    eq, surv, bugs = [], [], []
    for oid, fam, v, meth, reason, bug, sec in rows:
        fam = fam.replace("mutant:", "")
        per[fam]["mutants"] += 1
        per[fam][v] += 1
        if v == "PROVED":
            eq.append((oid, meth))
        elif v != "REFUTED":
            surv.append((oid, v, reason[:120]))
        if bug:
            bugs.append((oid, bug))
    lines = ["# Soundness: the mutation corpus", "",
             "Every transcribed obligation is mutated by `attncert.mutate` (a flipped relation, an exponent off by "
             "one, a constant scaled by 2 or 1/2, a sign change, a dropped hypothesis) and run through the engine: "
             "counterexample probes first, then the obligation's own deciding methods, then a z3 model. REFUTED "
             "always carries an exactly replayed counterexample. A PROVED mutant is an equivalent mutant (still "
             "true); each one is cross-examined by every counterexample method, and none may find a "
             "counterexample. Regenerate with `python benchmarks/soundness_corpus.py` "
             f"({len(rows)} mutants in {wall:.0f} s with {a.jobs} processes on the 2-core machine).", "",
             "| family | mutants | REFUTED | equivalent (PROVED) | UNKNOWN | CONFIRMED | kill rate REFUTED/(mutants - equivalent) |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    tot = defaultdict(int)
    for fam in sorted(per):
        d = per[fam]
        for k in ("mutants", "REFUTED", "PROVED", "UNKNOWN", "CONFIRMED"):
            tot[k] += d[k]
        live = d["mutants"] - d["PROVED"]
        lines.append(f"| {fam} | {d['mutants']} | {d['REFUTED']} | {d['PROVED']} | {d['UNKNOWN']} | {d['CONFIRMED']} | "
                     f"{100 * d['REFUTED'] / live:.1f}% |" if live else f"| {fam} | {d['mutants']} | 0 | {d['PROVED']} | 0 | 0 | - |")
    live = tot["mutants"] - tot["PROVED"]
    lines.append(f"| **all** | {tot['mutants']} | {tot['REFUTED']} | {tot['PROVED']} | {tot['UNKNOWN']} | {tot['CONFIRMED']} | "
                 f"**{100 * tot['REFUTED'] / max(live, 1):.1f}%** |")
    lines += ["", f"Wrongly PROVED (a PROVED mutant with a replayed counterexample): **{len(bugs)}**.", ""]
    for oid, b in bugs:
        lines.append(f"- BUG `{oid}`: {b}")
    lines += ["", "## Equivalent mutants (still true, PROVED)", ""]
    lines += [f"- `{oid}` ({m})" for oid, m in eq] or ["(none)"]
    lines += ["", "## Survivors (UNKNOWN: neither proved nor refuted)", ""]
    lines += [f"- `{oid}`: {v}: {r}" for oid, v, r in surv] or ["(none)"]
    text = "\n".join(lines) + "\n"
    if a.out != "-" and os.path.exists(a.out):
        old = open(a.out, encoding="utf-8").read()
        if "<!-- fuzz -->" in old:   # keep the section benchmarks/fuzz_checker.py maintains
            text += "\n" + old[old.index("<!-- fuzz -->"):]
    if a.out != "-":
        tmp = a.out + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, a.out)
    print("\n".join(lines[:8 + len(per) + 4]))
    sys.exit(1 if bugs else 0)


if __name__ == "__main__":
    main()

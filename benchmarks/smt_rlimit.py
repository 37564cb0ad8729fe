"""Calibrate the deterministic solver resource limits (docs/soundness.md, "Resource limits").

Runs every SMT query of every obligation that uses the smt or identity method (main query and
definedness side queries) on z3 and cvc5 in this process, with no resource limit but a generous wall
clock, and records the resources each needed (z3 "rlimit count", cvc5 "resource::resourceUnitsUsed")
and the time. Prints the largest ones and the ratio of the configured limits to the largest need.

    python benchmarks/smt_rlimit.py [--json FILE] [SELECTOR]
"""

from __future__ import annotations

import argparse
import json
import time

from attncert import api
from attncert.backends.smt import smt_queries
from attncert.checker import smtlib


def z3_need(text: str) -> tuple[str, int, float]:
    import z3

    s = z3.Solver(ctx=z3.Context())  # a fresh context: its "rlimit count" starts at 0
    s.set("timeout", 300_000)
    s.from_string(text.replace("(check-sat)\n", ""))
    t0 = time.perf_counter()
    r = str(s.check())
    st = s.statistics()
    used = st.get_key_value("rlimit count") if "rlimit count" in st.keys() else -1
    return r, int(used), time.perf_counter() - t0


def cvc5_need(text: str) -> tuple[str, int, float]:
    t0 = time.perf_counter()
    answer, used = smtlib.cvc5_solve(text, 300.0, 0)
    return answer, used, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("selector", nargs="?", default="all")
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    for ob in api.select(args.selector):
        if not ({"smt", "identity"} & set(ob.methods)):
            continue
        try:
            main_q, sides, _ = smt_queries(ob)
        except Exception as e:  # noqa: BLE001 - a claim the translation refuses
            print(f"skip {ob.id}: {e}")
            continue
        texts = ([main_q] if "smt" in ob.methods else []) + sides
        for i, text in enumerate(texts):
            a1, z, tz = z3_need(text)
            a2, c, tc = cvc5_need(text)
            rows.append({"id": ob.id, "query": i, "z3": a1, "z3_rlimit": z, "z3_s": round(tz, 3),
                         "cvc5": a2, "cvc5_rlimit": c, "cvc5_s": round(tc, 3)})
    unsat = [r for r in rows if r["z3"] == "unsat" and r["cvc5"] == "unsat"]
    for key in ("z3_rlimit", "cvc5_rlimit"):
        top = sorted(unsat, key=lambda r: -r[key])[:5]
        print(f"largest {key} among {len(unsat)} queries unsat on both:")
        for r in top:
            print(f"  {r[key]:>12,}  {r['z3_s']:7.2f}s z3 {r['cvc5_s']:7.2f}s cvc5  {r['id']} (query {r['query']})")
    mz = max(r["z3_rlimit"] for r in unsat)
    mc = max(r["cvc5_rlimit"] for r in unsat)
    print(f"configured Z3_RLIMIT = {smtlib.Z3_RLIMIT:,} ({smtlib.Z3_RLIMIT / mz:.1f}x the largest need {mz:,})")
    print(f"configured CVC5_RLIMIT = {smtlib.CVC5_RLIMIT:,} ({smtlib.CVC5_RLIMIT / mc:.1f}x the largest need {mc:,})")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()

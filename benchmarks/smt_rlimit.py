"""Calibrate the deterministic solver resource limits (docs/soundness.md, "Resource limits").

Runs every SMT query of every obligation that uses the smt or identity method (main queries and
definedness side queries), in both translations (the checker's SMT-LIB text, attncert.checker.smtlib;
the prover's API terms, attncert.backends.solver_terms), on z3 and cvc5 in this process, with no resource
limit but a generous wall clock, and records the resources each needed (z3 "rlimit count", cvc5
"resource::resourceUnitsUsed") and the time. Prints the largest ones and the ratio of each configured
limit to the largest need.

    python benchmarks/smt_rlimit.py [--json FILE] [SELECTOR]
"""

from __future__ import annotations

import argparse
import json
import time

from attncert import api
from attncert.backends import solver_terms
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


def prover_needs(domains, hyps, goal, with_goal: bool):
    """(z3 answer, z3 units, z3 s, cvc5 answer, cvc5 units, cvc5 s) per query of the prover's translation."""
    out = []
    n = None
    for solver in ("z3", "cvc5"):
        tr = solver_terms.Translation(solver_terms.BUILDERS[solver](), domains, hyps, goal)
        qs = tr.queries(mains=with_goal)
        nra = "int" not in domains.values()
        for i, facts in enumerate(qs):
            t0 = time.perf_counter()
            if solver == "z3":
                z3 = tr.b.z3
                s = z3.SolverFor("QF_NRA", ctx=tr.b.ctx) if nra else z3.Solver(ctx=tr.b.ctx)
                s.set("timeout", 300_000)
                s.add(*facts)
                before = s.statistics().get_key_value("rlimit count") if "rlimit count" in s.statistics().keys() else 0
                r = str(s.check())
                used = s.statistics().get_key_value("rlimit count") - before
                out.append([r, int(used), time.perf_counter() - t0])
            else:
                cv = tr.b.cvc5.Solver(tr.b.tm)
                cv.setOption("tlimit-per", "300000")
                cv.setLogic("QF_NRA" if nra else "ALL")
                for f in facts:
                    cv.assertFormula(f)
                res = cv.checkSat()
                r = "unsat" if res.isUnsat() else ("sat" if res.isSat() else "unknown")
                used = next((int(v["value"]) for k, v in cv.getStatistics() if k == "resource::resourceUnitsUsed"), -1)
                out[i].extend([r, used, time.perf_counter() - t0])
        n = len(qs)
    return out[:n]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("selector", nargs="?", default="all")
    ap.add_argument("--json")
    args = ap.parse_args()
    rows = []
    for ob in api.select(args.selector):
        if not ({"smt", "identity"} & set(ob.methods)):
            continue
        domains = {v.name: v.domain for v in ob.claim.vars}
        hyps = [h.expr for h in ob.claim.hyps]
        try:
            mains, sides, _, _ = smtlib.plan(domains, hyps, ob.claim.goal)
        except Exception as e:  # noqa: BLE001 - a claim the translation refuses
            print(f"skip {ob.id}: {e}")
            continue
        with_goal = "smt" in ob.methods
        texts = (mains if with_goal else []) + sides
        for i, text in enumerate(texts):
            a1, z, tz = z3_need(text)
            a2, c, tc = cvc5_need(text)
            rows.append({"id": ob.id, "translation": "checker", "query": i, "z3": a1, "z3_rlimit": z,
                         "z3_s": round(tz, 3), "cvc5": a2, "cvc5_rlimit": c, "cvc5_s": round(tc, 3)})
        for i, (a1, z, tz, a2, c, tc) in enumerate(prover_needs(domains, hyps, ob.claim.goal, with_goal)):
            rows.append({"id": ob.id, "translation": "prover", "query": i, "z3": a1, "z3_rlimit": z,
                         "z3_s": round(tz, 3), "cvc5": a2, "cvc5_rlimit": c, "cvc5_s": round(tc, 3)})
    for tr in ("checker", "prover"):
        unsat = [r for r in rows if r["translation"] == tr and r["z3"] == "unsat" and r["cvc5"] == "unsat"]
        for key, limit in (("z3_rlimit", smtlib.Z3_RLIMIT), ("cvc5_rlimit", smtlib.CVC5_RLIMIT)):
            top = sorted(unsat, key=lambda r: -r[key])[:3]
            print(f"{tr} translation, largest {key} among {len(unsat)} queries unsat on both:")
            for r in top:
                print(f"  {r[key]:>12,}  {r['z3_s']:7.2f}s z3 {r['cvc5_s']:7.2f}s cvc5  {r['id']} (query {r['query']})")
            need = max(r[key] for r in unsat)
            print(f"  limit {limit:,} = {limit / need:.1f}x the largest need {need:,}")
    assert solver_terms.RLIMITS == {"z3": smtlib.Z3_RLIMIT, "cvc5": smtlib.CVC5_RLIMIT}, "the two sides' limits differ"
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(rows, fh, indent=1)


if __name__ == "__main__":
    main()

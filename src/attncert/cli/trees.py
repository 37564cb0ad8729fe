"""`attncert trees`: the exact minimum of a comparison-tree lower-bound abstraction (docs/trees.md)
against the paper's bounds, with certificates. Hooked into cli.py by ``add_parser``."""

from __future__ import annotations

import json
from math import comb

from attncert.cli.common import write_json
from attncert.core.errors import UsageError
from attncert.papers.infoflow import trees_backend  # noqa: F401  (registers the treemin method)

SCHEMA = "attncert.trees/1"
# the names `attncert infoflow` uses for the same targets
ALIASES = {"d-retrieval": "dretrieval", "triangle-center": "triangle"}


def add_parser(sub, epilog: str = "") -> None:
    c = sub.add_parser("trees", help="exact minimum of the Trees-of-Comparison lower-bound abstraction, "
                       "e.g. `trees --target dretrieval --T 8 --D 3`", epilog=epilog)
    c.add_argument("--target", required=True, choices=("dretrieval", "pairwise", "triangle", *ALIASES),
                   help="dretrieval (App. D.1), pairwise (target (6), B.1) or triangle (target (7), D.1: distinct "
                   "triples); the names of `attncert infoflow` work too: d-retrieval, triangle-center")
    c.add_argument("--T", type=int, required=True, help="sequence length")
    c.add_argument("--D", type=int, help="number of maxima (dretrieval, pairwise); triangle: 3 (the default)")
    c.add_argument("--timeout", type=float, default=60.0, help="solver budget in seconds (default 60)")
    c.add_argument("--out", metavar="DIR", help="write the certificates here")
    c.add_argument("--json", metavar="FILE", help="write the result as JSON to FILE ('-': stdout)")
    c.set_defaults(fn=cmd_trees)


def obligations(target: str, T: int, D: int):
    """The CLI's two claims: the paper's lower bound, and that it is the exact minimum."""
    from attncert.core.claims import Obligation, Var, claim
    from attncert.core.expr import var
    from attncert.papers.infoflow.treesat import paper_bounds

    lo, _ = paper_bounds(target, T, D)
    what = {"dretrieval": "sum_j (|I_j| - 1) of D trees covering every D-set", "pairwise": "leaves covering every pair",
            "triangle": "leaves covering every triple of distinct indices"}[target]
    ref = "infoflow:B.1" if target == "pairwise" else "infoflow:D.1"
    from attncert.papers.infoflow.treesat import ENCODING, defined_name

    opts = (("target", target), ("T", T), ("D", D), ("encoding", ENCODING))
    name = defined_name("treemin", target, T, D)
    n = var(name)
    base = f"infoflow.trees.cli.{target}.T{T}D{D}"
    return [Obligation(f"{base}.lower", "infoflow", ref, f"{target}, T = {T}, D = {D}: least {what} >= {lo} (as printed)",
                       claim([Var(name, "defined")], [], n >= lo), ("treemin",), options=opts, family="infoflow_trees_cli"),
            Obligation(f"{base}.tight", "infoflow", ref, f"{target}, T = {T}, D = {D}: least {what} == {lo}",
                       claim([Var(name, "defined")], [], n.eq(lo)), ("treemin",), options=opts, family="infoflow_trees_cli")]


def cmd_trees(args, out, err) -> int:
    from attncert.api import write_certificates
    from attncert.core.engine import run_obligation
    from attncert.papers.infoflow.treesat import paper_bounds, params, solve

    args.target = ALIASES.get(args.target, args.target)
    D = args.D if args.D is not None else (3 if args.target.startswith("triangle") else None)
    if D is None:
        raise UsageError(f"--target {args.target} needs --D")
    if not 0 < args.timeout <= 3600:
        raise UsageError(f"--timeout {args.timeout!r}: must be in (0, 3600] seconds")
    target, T, D = params(args.target, args.T, D)
    r = solve(target, T, D, args.timeout)
    lo, up = paper_bounds(target, T, D)
    unit = "comparisons" if target == "dretrieval" else "leaves"
    out.write(f"trees {target} T={T} D={D}: abstraction of {'D.1' if target != 'pairwise' else 'B.1'} "
              f"(docs/trees.md), {r.seconds:.2f}s\n")
    verdicts = {}
    if r.minimum is None:
        out.write(f"  minimum: UNKNOWN ({r.reason})\n")
        verdicts = {"lower": "UNKNOWN", "upper": "UNKNOWN", "tight": "UNKNOWN"}
    else:
        out.write(f"  minimum: {r.minimum} {unit} (unsat at {r.minimum - 1} on z3 and cvc5; witness replayed)\n"
                  if r.minimum else f"  minimum: 0 {unit} (witness replayed)\n")
        out.write(f"  witness: {json.dumps(r.witness)}\n")
        verdicts = {"lower": "PROVED" if r.minimum >= lo else "REFUTED",
                    # the abstraction bounds from below only: an upper bound under its minimum is refuted,
                    # one above it is merely consistent
                    "upper": "UNKNOWN" if r.minimum <= up else "REFUTED",
                    "tight": "PROVED" if r.minimum == lo else "REFUTED"}
    extra = f" (= {comb(T, 3) - 3} comparisons with 3 trees)" if target.startswith("triangle") else ""
    out.write(f"  paper lower {lo} {unit}{extra}: {verdicts['lower']}"
              + (" for the abstraction (the leaf premise assumed)" if target != "dretrieval" and
                 verdicts["lower"] == "PROVED" else "") + "\n")
    out.write(f"  paper upper {up} {unit}: {verdicts['upper']} (" + ("consistent: the abstraction's minimum is at "
              "most it; the abstraction gives lower bounds only)\n" if verdicts["upper"] == "UNKNOWN" else
              "the abstraction's minimum, a lower bound, exceeds it)\n"))
    if target != "dretrieval":
        out.write("  these verdicts are about the abstraction: it assumes the leaf premise of "
                  f"{'B.1' if target == 'pairwise' else 'D.1'} (every {'pair' if target == 'pairwise' else 'triple'} "
                  "must be a leaf of some tree), which does not follow from Definitions 1-2 with several trees; "
                  "the bound for trees themselves is OPEN (docs/trees.md, `attncert theorems`)\n")
    out.write(f"  lower bound is the exact minimum: {verdicts['tight']}\n")
    paths = []
    if args.out and r.minimum is not None:
        results = [run_obligation(o, args.timeout) for o in obligations(target, T, D)]
        paths = write_certificates(results, args.out)
        for p in paths:
            out.write(f"  certificate: {p}\n")
    if args.json:
        rec = {"schema": SCHEMA, "target": target, "T": T, "D": D, "minimum": r.minimum, "unit": unit,
               "paper_lower": lo, "paper_upper": up, "verdicts": verdicts, "witness": r.witness,
               "solvers": r.solvers, "reason": r.reason, "certificates": paths}
        write_json(args.json, rec)
    return 0 if verdicts["lower"] == "PROVED" else 1

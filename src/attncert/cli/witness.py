"""`attncert witness`: pigeonhole witnesses for Theorems 5 and 6 as certificates."""

from __future__ import annotations



from attncert.core.errors import UsageError
from attncert.cli.common import write_json


def _require(args, name: str, opts, verb: str = "witness") -> None:
    for opt in opts:
        if getattr(args, opt) is None:
            raise UsageError(f"{verb} {name} needs --{opt}")


def _certify_one(obligation, out_dir: str):
    """Decide one witness obligation and write its certificate: (result, path)."""
    from attncert.api import write_certificates
    from attncert.core.engine import run_obligation

    r = run_obligation(obligation, 60.0)
    return r, write_certificates([r], out_dir)[0]


def cmd_witness(args, out, err) -> int:
    from attncert.papers.infoflow import witness

    if args.name == "thm6":
        return _witness_thm6(args, out)
    if args.name != "thm5":
        raise UsageError(f"unknown witness {args.name!r}; available: thm5, thm6")
    _require(args, "thm5", ("T", "k"))
    w = witness.thm5(T=args.T, k=args.k, n=args.n, eps=args.eps, seed=args.seed, beta=args.rho,
                     hidden=args.hidden, backend=args.backend)
    r, path = _certify_one(w.obligation, args.out)
    out.write(f"Theorem 5 witness: T={args.T} k={args.k} n={args.n} eps={args.eps} seed={args.seed} rho(x)={args.rho} x, "
              f"f1 hidden width {args.hidden}\n")
    out.write(f"  searched {w.candidates} grid sequences in {w.seconds:.2f}s ({args.backend}); closest pair "
              f"||S(z)-S(z')||_inf = {w.distance_float:.3g}{' (same eta-cube)' if w.same_cube else ''}\n")
    out.write(f"  z  = {[str(v) for v in w.z]}\n  z' = {[str(v) for v in w.zprime]}\n")
    out.write(f"  X  = {[str(v) for v in w.X]}\n  Y  = {[str(v) for v in w.Y]}\n")
    if r.verdict.name == "PROVED":
        out.write(f"  PROVED: any f2 (weights <= 1) that eps-approximates F_k on this f1 and rho has width p >= "
                  f"{w.width_bound}\n  certificate: {path}\n")
    else:
        out.write(f"  {r.verdict.name}: the witness claim could not be certified "
                  f"({r.evidence.detail.get('reason', '')}); no width bound is claimed\n  certificate: {path}\n")
    if args.json:
        write_json(args.json, {"schema": "attncert.witness/1", "verdict": r.verdict.name, "width_bound": w.width_bound,
                                "z": [str(v) for v in w.z], "zprime": [str(v) for v in w.zprime],
                                "X": [str(v) for v in w.X], "Y": [str(v) for v in w.Y],
                                "distance_float": w.distance_float, "candidates": w.candidates,
                                "seconds": w.seconds, "certificate": path})
    return 0 if r.verdict.name == "PROVED" else 1


def _witness_thm6(args, out) -> int:
    from attncert.papers.infoflow import witness

    _require(args, "thm6", ("T0", "d"))
    w = witness.thm6(T0=args.T0, d=args.d, n=args.n, eps=args.eps, seed=args.seed, hidden=args.hidden,
                     backend=args.backend)
    r, path = _certify_one(w.obligation, args.out)
    out.write(f"Theorem 6 packing witness: T0={args.T0} d={args.d} n={args.n} eps={args.eps} seed={args.seed}, "
              f"f1 hidden width {args.hidden}\n")
    out.write(f"  searched {w.candidates} grid points (spacing 4 eps) in {w.seconds:.2f}s; closest pair "
              f"||f1(V1) - f1(V2)||_inf = {w.distance_float:.3g}\n")
    out.write(f"  V1 = {[str(v) for v in w.V1]}\n  V2 = {[str(v) for v in w.V2]}\n")
    # The certified claim (two grid points, an inequality) is a true arithmetic fact. What it implies, "any f2 with
    # L-inf round-trip error <= eps needs width p >= P", is vacuous when T0 d > n: every eps here is <= 1/4 < 1/2,
    # and then no continuous f2 has that error (docs/theorem6.md: bullet 2 is vacuous). The verdict line says so.
    m = args.T0 * args.d
    vacuous = None
    if m > args.n:
        vacuous = (f"T0 d = {m} > n = {args.n} and eps < 1/2: no continuous f1, f2 reach L-inf round-trip error <= eps, "
                   + ("by the IVT, machine-checked in infoflow.thm6.bullet2_vacuous_n1" if args.n == 1
                      else "by Borsuk-Ulam, cited, not checked") + ", so this bound applies to no network")
    if r.verdict.name == "PROVED":
        tag = "PROVED" if vacuous is None else f"PROVED (vacuous: {vacuous})"
        out.write(f"  {tag}: any f2 (weights <= 1) with L-inf round-trip error <= eps on this f1 needs width p >= "
                  f"{w.width_bound}\n  certificate: {path}\n")
    else:
        out.write(f"  {r.verdict.name}: not certified ({r.evidence.detail.get('reason', '')})\n")
    if args.json:
        write_json(args.json, {"schema": "attncert.witness/1", "verdict": r.verdict.name, "width_bound": w.width_bound,
                                "vacuous": vacuous is not None, "vacuous_reason": vacuous,
                                "V1": [str(v) for v in w.V1], "V2": [str(v) for v in w.V2],
                                "distance_float": w.distance_float, "candidates": w.candidates, "certificate": path})
    return 0 if r.verdict.name == "PROVED" else 1

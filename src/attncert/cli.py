"""The attncert command line. Each command is ``(args, stdout, stderr) -> int``; only ``main`` exits.

Exit codes: 0 all proved, confirmed or as expected; 1 something refuted, unknown or failed to
verify; 2 usage error (unknown selector, bad parameter, unreadable file)."""

from __future__ import annotations

import argparse
import json
import os
import sys

from fractions import Fraction

from .engine import WALL_TIMEOUT_S
from .errors import AttncertError, InvalidParameter, UsageError

EPILOG = """exit codes: 0 all proved, confirmed or as expected; 1 something refuted, unknown or not
verified (verify: REJECTED, CANNOT CHECK, or CONDITIONAL without --allow-conditional); 2 usage error.
Selectors: all (default), a paper (ks, infoflow), a family, an obligation id, or a glob over ids such as
'ks.boltz.lemma7.*'."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def _write_json(path: str, obj) -> None:
    from .certificate import atomic_write

    atomic_write(path, json.dumps(obj, indent=1, sort_keys=True) + "\n")


def _fmt_line(res) -> str:
    ob = res.obligation
    tag = res.verdict.name
    if ob.expect is not None and res.verdict == ob.expect and ob.expect.name == "REFUTED":
        tag += " (as expected: erratum)" if ob.finding is not None else " (as expected)"
    elif not res.as_expected:
        tag += " (UNEXPECTED)"
    stmt = ob.statement if len(ob.statement) <= 110 else ob.statement[:107] + "..."
    extra = ""
    if res.verdict.name == "UNKNOWN":
        extra = f" [{res.evidence.detail.get('reason', '')}]"
    return f"{ob.ref}: {tag}: {stmt} ({res.evidence.method}, {res.seconds:.2f}s){extra}"


def _run_all(obs, timeout, stderr, label="checking", on_result=None, jobs=1, use_cache=False, executor="local"):
    """Run obligations (in ``jobs`` processes, through the result cache unless disabled) and report them
    in transcription order. Without a terminal, each result is reported as soon as it and all before it
    are known (``on_result``); with one, a progress bar runs on stderr and results are reported at the end."""
    from .runner import ResultCache, run_many

    use_cache = use_cache and not os.environ.get("ATTNCERT_NO_CACHE")
    cache = ResultCache(os.environ.get("ATTNCERT_CACHE_DIR") or ".attncert-cache") if use_cache else None
    use_bar = stderr.isatty() if hasattr(stderr, "isatty") else False
    if executor != "local":
        from .runner import run_dask

        addr = executor.split("dask", 1)[1].lstrip(":") or None
        results = run_dask(obs, timeout, address=addr, workers=max(jobs, 2), cache=cache, on_result=on_result)
    elif use_bar:
        from rich.progress import Progress

        with Progress(transient=True, console=_console(stderr)) as prog:
            task = prog.add_task(label, total=len(obs))
            results = run_many(obs, timeout, jobs, cache, on_result=lambda r: prog.advance(task),
                               on_start=lambda ob: prog.update(task, description=f"{label} {ob.id}"))
        if on_result:
            for r in results:
                on_result(r)
    else:
        results = run_many(obs, timeout, jobs, cache, on_result=on_result)
    if cache is not None and cache.hits:
        stderr.write(f"attncert: {cache.hits} of {len(obs)} results from the cache ({cache.root}; --no-cache to recompute)\n")
    return results


def _console(stream):
    from rich.console import Console

    return Console(file=stream)


def _summary(results, out) -> None:
    from collections import Counter

    from .verdict import Verdict

    by_fam: dict[str, Counter] = {}
    for r in results:
        by_fam.setdefault(r.obligation.family, Counter())[r.verdict] += 1
    names = [v.name for v in Verdict]
    out.write("\n" + f"{'family':<28}" + "".join(f"{n:>10}" for n in names) + f"{'total':>8}\n")
    for fam, c in by_fam.items():
        out.write(f"{fam:<28}" + "".join(f"{c[v]:>10}" for v in Verdict) + f"{sum(c.values()):>8}\n")
    bad = [r for r in results if not r.as_expected]
    errata = sum(1 for r in results if r.as_expected and r.verdict.name == "REFUTED" and r.obligation.finding)
    other = sum(1 for r in results if r.as_expected and r.verdict.name == "REFUTED" and not r.obligation.finding)
    out.write(f"\n{len(results)} obligations; {errata} steps refuted as printed (errata, see `attncert audit`); "
              f"{other} other expected refutations (counterexamples below a hypothesis); {len(bad)} not as expected\n")


def cmd_check(args, out, err) -> int:
    from . import api

    obs = api.select(args.selector)

    def show(r):
        out.write(_fmt_line(r) + "\n")
        out.flush()

    results = _run_all(obs, args.timeout, err, on_result=show, jobs=args.jobs, use_cache=not args.no_cache,
                       executor=args.executor)
    _summary(results, out)
    if args.json:
        _write_json(args.json, api.check_json(results))
    if args.junit:
        from .junit import junit_xml
        from .certificate import atomic_write
        atomic_write(args.junit, junit_xml(results))
    return 0 if all(r.as_expected for r in results) else 1


def cmd_certify(args, out, err) -> int:
    from . import api

    results = _run_all(api.select(args.selector), args.timeout, err, "certifying", jobs=args.jobs,
                       use_cache=not args.no_cache, executor=args.executor)
    paths = api.write_certificates(results, args.out)
    for r, p in zip(results, paths):
        out.write(f"{r.verdict.name:<9} {p}\n")
    out.write(f"wrote {len(paths)} certificates under {args.out}\n")
    return 0 if all(r.as_expected for r in results) else 1


def cmd_verify(args, out, err) -> int:
    from .checker.verify import verify_paths

    for p in args.paths:
        if not os.path.exists(p):
            raise UsageError(f"{p}: no such file or directory")
    from .checker.verify import set_limits
    set_limits(digits=args.max_digits, nodes=args.max_nodes, prec=args.max_prec, file_mb=args.max_file_mb)
    report: list = []
    code = verify_paths(args.paths, out, solver_timeout=args.timeout, quiet=args.quiet, report=report,
                        allow_conditional=args.allow_conditional)
    if args.json:
        _write_json(args.json, {"schema": "attncert.verify/2", "results": report})
    return code


def cmd_report(args, out, err) -> int:
    from . import api, report

    results = _run_all(api.select(args.selector), args.timeout, err, "checking", jobs=args.jobs,
                       use_cache=not args.no_cache)
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    docs = next((d for d in (os.path.join(os.getcwd(), "docs"), os.path.join(here, "docs")) if os.path.isdir(d)), "docs")
    path = report.write(results, args.out, docs)
    out.write(f"wrote {path} ({len(results)} obligations)\n")
    return 0 if all(r.as_expected for r in results) else 1


def cmd_list(args, out, err) -> int:
    from .families import all_families, select

    chosen = {o.id for o in select(args.selector)}
    for fam in all_families():
        obs = [o for o in fam.obligations if o.id in chosen]
        if not obs:
            continue
        out.write(f"{fam.name} ({fam.paper}): {fam.title} -- {len(obs)} obligations\n")
        for o in obs:
            exp = f" [expect {o.expect.name}]" if o.expect is not None else ""
            out.write(f"  {o.id:<48} {o.ref:<28} {'/'.join(o.methods)}{exp}\n")
    return 0


def cmd_audit(args, out, err) -> int:
    from . import api
    from .audit import audit, to_markdown

    results = _run_all(api.select(args.selector), args.timeout, err, "auditing")
    report = audit(results)
    md = to_markdown(report)
    out.write(md)
    if args.json:
        _write_json(args.json, report)
    if args.md:
        from .certificate import atomic_write

        atomic_write(args.md, md)
    unexpected = [r for r in results if not r.as_expected]
    return 0 if not unexpected else 1


def _dec(x, up: bool) -> str:
    """A 7-significant-digit decimal rounded outward (down for lower ends, up for upper ends)."""
    from decimal import ROUND_CEILING, ROUND_FLOOR, Context, Decimal

    ctx = Context(prec=7, rounding=ROUND_CEILING if up else ROUND_FLOOR)
    return str(ctx.divide(Decimal(x.numerator), Decimal(x.denominator)))


def _iv(i) -> str:
    return f"[{_dec(i.lo, False)}, {_dec(i.hi, True)}]"


def _bound_tail(b, args, out) -> int:
    """The lines every `bound` ends with: the steps it rests on, and the JSON record."""
    out.write("  enclosures are rigorous (rational interval arithmetic); steps: " + ", ".join(b.uses) + "\n")
    if args.json:
        _write_json(args.json, b.to_json())
    return 0


def _bound_thm4(args, out) -> int:
    from .bounds import thm4

    _require(args, "thm4", ("H",), "bound")
    b = thm4(T=args.T, H=args.H, n=args.n, eps=args.eps)
    out.write(f"Theorem 4, first part (InfoFlow A.1): T={b.T} H={b.H} n={b.n} eps={b.eps}  (T0 = T - H - 1 = {b.T0})\n")
    out.write(f"  exponent (Thm 4):           k = T0/(H(n+1)+1) - 1 = {b.k}   (informal Thm 1: {b.k_informal})\n")
    out.write(f"  points b_i (10):            L = C/H = {b.L} with C = {b.C} (exact points: attncert.depth.b_points)\n")
    out.write(f"  |U_j| (12):                 m = floor(L^2/(4 T0 eps)) = {b.m}"
              + ("" if b.m else f"  (U_j empty: needs eps <= L^2/(4 T0) = {b.eps_U})") + "\n")
    big = lambda v: str(v) if v < 10 ** 30 else f"{str(v)[:7]}... ({len(str(v))} digits)"  # noqa: E731
    out.write(f"  cells, average (L408):      cube side {_dec(b.s_cell, False)} -> {big(b.cells_average)} cells per head\n")
    out.write(f"  cells, ratio of sums:       ratio 1 + {_dec(b.delta_cell, False)} -> {big(b.cells_ratio)} cells per head\n")
    out.write(f"  pigeonhole (13):            choices m^T0 has {b.choices_digits} digits, cells {b.cells_digits} digits: "
              f"{'APPLIES' if b.pigeonhole_applies else 'does not apply at this eps'}\n")
    out.write(f"  threshold:                  the pigeonhole applies for every eps < eps0, eps0 in {_iv(b.eps0)}\n")
    out.write(f"  lower bound (Lemma 4):      params = Omega(B/(A sqrt E)), B/(A sqrt E) in {_iv(b.lemma4_ratio)} "
              f"(= 4 eps^(-k)/(E^(3/2) sqrt H); Lemma 4's constant is cited, not derived)\n")
    return _bound_tail(b, args, out)


def cmd_bound(args, out, err) -> int:
    from .bounds import thm5

    if args.name == "thm4":
        return _bound_thm4(args, out)
    if args.name != "thm5":
        raise UsageError(f"unknown bound {args.name!r}; available: thm4, thm5")
    _require(args, "thm5", ("k",), "bound")
    b = thm5(T=args.T, k=args.k, n=args.n, eps=args.eps)
    out.write(f"Theorem 5 (InfoFlow A.2): T={b.T} k={b.k} n={b.n} eps={b.eps}  (m = T - k + 1 = {b.m})\n")
    out.write(f"  eps range (L609):           0 < eps < 1/(64 m) = {b.eps_max}: ok\n")
    out.write(f"  grid (L613):                N = floor(1/(16 m eps)) = {b.N}, Delta = 4 eps = {b.Delta}\n")
    out.write(f"  'N large enough' (L647):    printed cube count needs N >= N0 = {b.N0_printed_count}: "
              f"{'holds' if b.printed_count_applies else 'FAILS (use the exact count, which needs no threshold)'}\n")
    out.write(f"  cube side (L641):           eta = 4 m N^(-m/(n+1)) in {_iv(b.eta)}\n")
    out.write(f"  width of f2 (L766):         p >= (k-1) eps / (n eta) in {_iv(b.width_lower)}, so p >= {b.width_lower_int}\n")
    out.write(f"  explicit bound (L786):      p >= C * (1/eps)^({b.exponent}), C = (k-1)/(4mn) (3/(64m))^(m/(n+1)) in {_iv(b.C)}\n")
    out.write(f"                              at this eps: C * eps^(1 - m/(n+1)) in {_iv(b.C_eps_bound)}\n")
    out.write(f"  exponent of 1/eps:          proof {b.exponent}; Theorem 5 as stated {b.exponent_formal}; "
              f"Theorem 2 as stated {b.exponent_informal}\n")
    return _bound_tail(b, args, out)


def _require(args, name: str, opts, verb: str = "witness") -> None:
    for opt in opts:
        if getattr(args, opt) is None:
            raise UsageError(f"{verb} {name} needs --{opt}")


def _certify_one(obligation, out_dir: str):
    """Decide one witness obligation and write its certificate: (result, path)."""
    from .api import write_certificates
    from .engine import run_obligation

    r = run_obligation(obligation, 60.0)
    return r, write_certificates([r], out_dir)[0]


def cmd_witness(args, out, err) -> int:
    from . import witness

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
        _write_json(args.json, {"schema": "attncert.witness/1", "verdict": r.verdict.name, "width_bound": w.width_bound,
                                "z": [str(v) for v in w.z], "zprime": [str(v) for v in w.zprime],
                                "X": [str(v) for v in w.X], "Y": [str(v) for v in w.Y],
                                "distance_float": w.distance_float, "candidates": w.candidates,
                                "seconds": w.seconds, "certificate": path})
    return 0 if r.verdict.name == "PROVED" else 1


def _witness_thm6(args, out) -> int:
    from . import witness

    _require(args, "thm6", ("T0", "d"))
    w = witness.thm6(T0=args.T0, d=args.d, n=args.n, eps=args.eps, seed=args.seed, hidden=args.hidden,
                     backend=args.backend)
    r, path = _certify_one(w.obligation, args.out)
    out.write(f"Theorem 6 packing witness: T0={args.T0} d={args.d} n={args.n} eps={args.eps} seed={args.seed}, "
              f"f1 hidden width {args.hidden}\n")
    out.write(f"  searched {w.candidates} grid points (spacing 4 eps) in {w.seconds:.2f}s; closest pair "
              f"||f1(V1) - f1(V2)||_inf = {w.distance_float:.3g}\n")
    out.write(f"  V1 = {[str(v) for v in w.V1]}\n  V2 = {[str(v) for v in w.V2]}\n")
    if r.verdict.name == "PROVED":
        out.write(f"  PROVED: any f2 (weights <= 1) with L-inf round-trip error <= eps on this f1 needs width p >= "
                  f"{w.width_bound}\n  (conditional: for continuous f1, f2 and T0 d > n that error bound cannot hold "
                  f"when eps < 1/2; see docs/theorem6.md)\n  certificate: {path}\n")
    else:
        out.write(f"  {r.verdict.name}: not certified ({r.evidence.detail.get('reason', '')})\n")
    if args.json:
        _write_json(args.json, {"schema": "attncert.witness/1", "verdict": r.verdict.name, "width_bound": w.width_bound,
                                "V1": [str(v) for v in w.V1], "V2": [str(v) for v in w.V2],
                                "distance_float": w.distance_float, "candidates": w.candidates, "certificate": path})
    return 0 if r.verdict.name == "PROVED" else 1


def cmd_construct(args, out, err) -> int:
    from .construct import MAX_CELLS, exhaustive_roundtrip, sweep, thm6

    if args.name == "ks-thm2":
        return _construct_ks(args, out)
    if args.name == "thm4":
        return _construct_thm4(args, out)
    if args.name != "thm6":
        raise UsageError(f"unknown construction {args.name!r}; available: thm4, thm6, ks-thm2")
    for opt in ("T0", "d", "n", "eps"):
        if getattr(args, opt) is None:
            raise UsageError(f"construct thm6 needs --{opt}")
    c = thm6(T0=args.T0, d=args.d, n=args.n, eps=args.eps)
    if args.p is not None:
        from .replace import as_p
        as_p(args.p)  # refuse a bad p before any work
    out.write(f"Theorem 6 upper bound (InfoFlow A.3), Heaviside construction: T0={c.T0} d={c.d} n={c.n} eps={c.eps}\n")
    out.write(f"  m = T0 d = {c.m}, L = ceil(log2(2m/eps)) = {c.L} (L831), q = ceil(mL/n) = {c.q} (L868)\n")
    out.write(f"  encoder: {c.enc_hidden} Heaviside units; decoder: {c.dec_hidden} units\n")
    out.write(f"  parameters: {c.params_nonzero} nonzero ({c.params_dense} as dense layers)\n")
    cells = (1 << c.L) ** c.m
    rt = None
    if cells <= MAX_CELLS:
        rt = exhaustive_roundtrip(c)
        out.write(f"  round trip: exact on all {rt['cells']} dyadic cells and the boundary V_j = 1; sup error "
                  f"{rt['worst_sup_error']} <= eps/(2m) = {rt['bound_eps_over_2m']}: "
                  f"{'PROVED (exhaustive, exact arithmetic)' if rt['ok'] else 'FAILED'}\n")
    else:
        out.write(f"  round trip: NOT checked ({cells} cells > {MAX_CELLS}); use a larger eps for the exhaustive check\n")
    sw = sweep(c.T0, c.d, c.n)
    out.write(f"  sweep eps = 2^-3 .. 2^-16: fitted exponent of 1/eps in the parameter count {sw['fitted_exponent']:.3f}, "
              f"predicted T0 d/n = {sw['predicted_exponent']:.3f}\n")
    reps, ok = _tanh_replacements(c, args, out)
    if args.json:
        _write_json(args.json, {"schema": "attncert.construct/1", "T0": c.T0, "d": c.d, "n": c.n, "eps": str(c.eps),
                                "m": c.m, "L": c.L, "q": c.q, "params_nonzero": c.params_nonzero,
                                "params_dense": c.params_dense,
                                "roundtrip": None if rt is None else {k: str(v) for k, v in rt.items()}, "sweep": sw,
                                "tanh": reps})
    return 0 if ((rt is None or rt["ok"]) and ok) else 1


def _construct_ks(args, out) -> int:
    from . import ks_construct as ks

    if (args.dataset is None) == (args.random is None):
        raise UsageError("construct ks-thm2 needs exactly one of --dataset FILE or --random N,n,d,seed")
    if args.dataset is not None:
        ds = ks.load_dataset(args.dataset)
        src = args.dataset
    else:
        try:
            N, n, d, seed = (int(x) for x in args.random.split(","))
        except ValueError:
            raise UsageError(f"--random {args.random!r}: expected four integers N,n,d,seed") from None
        ds = ks.random_dataset(N, n, d, seed, vocab_size=args.vocab)
        src = f"random N={N} n={n} d={d} seed={seed} |V|<={args.vocab}"
    r = ks.run(ds, seed=args.seed)
    L = r.layer
    out.write(f"Kajitsuka-Sato Theorem 2, built (rank-1 softmax attention, s = 1): {src}\n")
    out.write(f"  N={ds.N} n={ds.n} d={ds.d} |V|={len(ds.vocab)}; r_min={ds.r_min} r_max={ds.r_max} eps={ds.eps}\n")
    out.write(f"  Lemma 2/3: v = {[str(x) for x in L.v]} (||v|| <= 1, seeded try {L.v_attempt}); (72)/(75) exact: "
              f"{'PROVED' if r.lemma3['eq75'] else 'FAILED'}; (74) min |.| = {float(r.lemma3['eq74_min']):.6g} > delta = "
              f"2 log n + 3 <= {float(r.lemma3['delta_hi']):.6g}: {'PROVED' if r.lemma3['eq74'] else 'FAILED'}\n")
    out.write(f"  weights (29)-(32): W_K = K v^T with K = {float(L.K):.8g}, W_Q = W_V = v^T, W_O = eps/(4 r_max) e_1 = {L.wo}\n")
    out.write(f"  r = r_max + eps/4 = {L.r} (7); delta (8) = 10^{r.arb['log10_delta_up']:.6g} (pi -> 333/106, an upper bound)\n")
    a = r.arb
    verdict = "PROVED" if (a["norms_ok"] and a["separated"] and not a["undecided"] and r.lemma3["eq74"]
                           and r.lemma3["eq75"]) else ("UNKNOWN" if a["undecided"] else "REFUTED")
    out.write(f"  arb at {a['bits']} bits (chosen from delta): {a['pairs']} pairs, norms < r and separations > delta: "
              f"{verdict} ({a['seconds']:.3f}s)\n")
    if r.mpmath:
        m = r.mpmath
        out.write(f"  mpmath reference at {m['dps']} digits: min separation 10^{m['log10_min_separation']:.8g} "
                  f"({m['seconds']:.3f}s; arb {m['seconds'] / max(a['seconds'], 1e-9):.1f}x faster)\n")
    sep = a["log10_min_separation"]
    out.write(f"  achieved min separation 10^{sep:.8g} vs delta 10^{a['log10_delta_up']:.8g}: "
              f"log10 ratio {sep - a['log10_delta_up']:.6g}\n")
    out.write(f"  float64: {r.float64['verdict']}: {r.float64['reason']}\n")
    rec = {"schema": "attncert.construct-ks/1", "dataset": ds.to_json(), "v": [str(x) for x in L.v], "K": str(L.K),
           "weights": L.params, "r": str(L.r), "log10_delta_up": a["log10_delta_up"], "bits": a["bits"],
           "verdict": verdict, "arb": a, "mpmath": r.mpmath, "float64": r.float64,
           "lemma3": {k: str(v) for k, v in r.lemma3.items()}}
    code = 0 if verdict == "PROVED" else 1
    if args.out:
        res, path = _certify_one(ks.certify_layer(L, r.cert_bits), args.out)
        out.write(f"  certificate ({r.cert_bits} bits): {res.verdict.name}: {path}\n")
        rec["certificate"] = path
        code = code or (0 if res.verdict.name == "PROVED" else 1)
    if args.json:
        _write_json(args.json, rec)
    return code


def _construct_thm4(args, out) -> int:
    """Theorem 4's two-layer network: build, audit the constraints, certify, evaluate."""
    import os

    from . import thm4net
    from .certificate import atomic_write
    from .engine import run_obligation

    if args.direct_verify:
        return _direct_verify(args, out)
    if args.T is None or args.eps is None:
        raise UsageError("construct thm4 needs --T and --eps")
    if args.box_budget < 1 or args.jobs < 1:
        raise UsageError("--box-budget and --jobs must be >= 1")
    if args.direct and not 2 <= args.T <= 3:
        raise UsageError(f"--direct runs for T = 2 or 3 (3T input dimensions), not T = {args.T}")
    if args.samples < 1:
        raise UsageError("--samples must be >= 1")
    variants = thm4net.VARIANTS if args.variant == "both" else (args.variant,)
    nets = [thm4net.build(args.T, args.eps, v) for v in variants]   # refuse bad input before any work
    code, recs = 0, []
    for net in nets:
        pc = net.params()
        out.write(f"Theorem 4, second part (InfoFlow A.1), {net.variant} network: T={net.T} eps={net.eps}\n")
        out.write(f"  softmax scale beta = {net.beta} (= ceil({54 if net.variant == 'printed' else 72} ln T / eps); "
                  "a fixed scale of sigma, not a weight)\n")
        out.write(f"  F1: {net.F1.width} tanh units in 12 groups, theta = {net.theta}, b = {thm4net.B_UNIT}, "
                  f"K = N alpha = {float(net.K):.6g}; error budget e2 = {net.e2_budget}\n")
        if net.out_ffn is not None:
            out.write(f"  output block: tanh FFN of width {net.out_ffn.width} (linear regime, theta_o = {net.theta_o}) "
                      f"plus bias 1; error budget e4 = {net.e4_budget}\n")
        else:
            out.write("  output block: y = 2 + 18 (c2')_4, as printed\n")
        out.write(f"  parameters: {pc['total_nonzero']} nonzero ({pc['total_dense']} as dense layers); F1 {pc['F1']['nonzero']}, "
                  f"output {pc['output']['nonzero']}, attention and embedding {pc['attention_and_embedding']['nonzero']}\n")
        mw = net.max_weight()
        out.write(f"  constraints (A.1): embedding norm <= sqrt(3)/3 <= 1: yes; max |weight| = {mw}: "
                  f"{'ok' if mw <= 1 else 'VIOLATES |w| <= 1'}; beta unconstrained by A.1\n")
        ob = thm4net.certificate_obligation(net)
        if args.out:
            r, path = _certify_one(ob, args.out)
            npath = os.path.join(args.out, f"thm4-{net.variant}-T{net.T}-eps{str(net.eps).replace('/', '_')}.network")
            atomic_write(npath, json.dumps(net.to_json(), sort_keys=True, indent=1) + "\n")
        else:
            r, path, npath = run_obligation(ob, 60.0), None, None
        ok = r.verdict.name == "PROVED"
        code = code or (0 if ok else 1)
        bound = thm4net.certified_bound(net)
        out.write(f"  compositional certificate: sup |M2 - F| <= {bound:.4g} <= eps: {r.verdict.name} (rigorous intervals)"
                  + (f"; certificate: {path}; network: {npath}" if path else "") + "\n")
        ev = thm4net.evaluate(net, random=args.samples, adversarial=max(4, args.samples // 5), seed=args.seed)
        worst = max(ev["worst_random"], ev["worst_adversarial"])
        out.write(f"  float64 on {ev['random']} random + {ev['adversarial']} adversarial inputs (seed {args.seed}): worst "
                  f"|M2 - F| = {ev['worst_random']:.3g} (random), {ev['worst_adversarial']:.3g} (adversarial) -- "
                  "CONFIRMED numerically, not a proof\n")
        mp = []
        for name, X in sorted(ev["worst_inputs"].items()):
            y, Fv = thm4net.forward_mp(net, X, dps=40)
            mp.append({"input": name, "M2": float(y), "F": float(Fv), "error": float(abs(y - Fv))})
        if mp:
            out.write("  mpmath (40 digits) at the worst inputs: " + ", ".join(f"{m['input']} {m['error']:.3g}" for m in mp) + "\n")
        recs.append({"variant": net.variant, "T": net.T, "eps": str(net.eps), "beta": net.beta, "params": pc,
                     "max_abs_weight": str(mw), "certificate": {"verdict": r.verdict.name, "path": path, "bound": bound},
                     "network": npath, "float64": ev, "mpmath": mp, "worst_found": worst})
        if args.direct:
            d = _direct_thm4(net, args, out)
            recs[-1]["direct"] = d
            code = code or (0 if d["verdict"] == "PROVED" else 1)
    if args.json:
        _write_json(args.json, {"schema": "attncert.construct.thm4/1", "results": recs})
    return code


def _direct_thm4(net, args, out) -> dict:
    """The direct interval branch-and-bound of the whole network (attncert.thm4direct)."""
    import os
    import sys
    import time

    from . import thm4direct
    from .certificate import atomic_write

    out.write(f"  direct check (interval branch-and-bound of the whole network against F, {3 * net.T} dimensions, "
              f"box budget {args.box_budget} per sub-box, {args.jobs} job(s)) ...\n")
    out.flush()
    t0 = time.perf_counter()
    tty = sys.stderr.isatty()

    def progress(done, total):
        if tty:
            sys.stderr.write(f"\r  sub-boxes {done}/{total}  {time.perf_counter() - t0:.0f}s")
            sys.stderr.flush()

    d = thm4direct.direct_check(net, box_budget=args.box_budget, jobs=args.jobs, progress=progress)
    if tty:
        sys.stderr.write("\n")
    d["seconds"] = round(time.perf_counter() - t0, 1)
    if d["verdict"] == "REFUTED":
        d["replay_mpmath"] = thm4direct.replay(net, d["counterexample"])
    line = (f"  direct check: {d['verdict']}: {d['boxes_evaluated']} boxes, {d['leaves']} leaves, "
            f"{d['volume_proved']:.2%} of the root box proved, {d['volume_outside_domain']:.2%} outside the fundamental "
            f"domain, {d['seconds']}s")
    if d["verdict"] == "PROVED":
        line += f"; on every leaf {d['inf_bound']:.4f} <= M2 - F <= {d['sup_bound']:.4f} (bounds, not attained values)"
    elif d["verdict"] == "REFUTED":
        rp = d["replay_mpmath"]
        line += (f"; counterexample {d['counterexample']}: M2 - F = {d['centre_value']}; replayed in mpmath (50 digits): "
                 f"|M2 - F| = {rp['error']:.6g} {'>' if rp['exceeds_eps'] else '<='} eps")
    else:
        line += f" [{d['reason']}]"
    out.write(line + "\n")
    if args.out and d["verdict"] == "PROVED":
        path = os.path.join(args.out, f"thm4-direct-{net.variant}-T{net.T}-eps{str(net.eps).replace('/', '_')}.json")
        atomic_write(path, json.dumps(d, sort_keys=True) + "\n")
        out.write(f"  split tree written to {path} (re-check: attncert construct thm4 --direct-verify {path})\n")
        d = {k: v for k, v in d.items() if k != "tree"} | {"tree_file": path}
    else:
        d = {k: v for k, v in d.items() if k != "tree"}
    return d


def _direct_verify(args, out) -> int:
    """Re-check a stored direct-check record from its split tree alone."""
    from . import thm4direct, thm4net

    try:
        with open(args.direct_verify, encoding="utf-8") as fh:
            d = json.load(fh)
        T, eps, variant, tree = d["T"], d["eps"], d["variant"], d["tree"]
        if not (isinstance(T, int) and isinstance(eps, str) and isinstance(variant, str)):
            raise TypeError("T must be an integer, eps an exact rational string such as \"9/10\", variant a string")
        eps = Fraction(eps)
    except FileNotFoundError:
        raise UsageError(f"{args.direct_verify}: no such file") from None
    except (ValueError, KeyError, TypeError) as e:
        raise UsageError(f"{args.direct_verify}: not a direct-check record ({type(e).__name__}: {e})") from None
    if not isinstance(tree, str):
        raise UsageError(f"{args.direct_verify}: the split tree must be a string")
    net = thm4net.build(T, eps, variant)
    r = thm4direct.check_tree(net, tree)
    out.write(f"direct-check record {args.direct_verify} (T={T}, eps={eps}, {variant}): {r['leaves_checked']} leaves "
              f"re-checked, {r['failed']} failed: {'VERIFIED' if r['ok'] else 'NOT VERIFIED'}\n")
    return 0 if r["ok"] else 1


def _writable(*paths) -> None:
    """Refuse an output path whose folder is missing or read-only before a long run, not after it."""
    import os

    for p in paths:
        if p is None:
            continue
        d = os.path.dirname(os.path.abspath(p))
        if not os.path.isdir(d) or not os.access(d, os.W_OK):
            raise UsageError(f"cannot write {p}: folder {d} is missing or not writable")


def cmd_gpu_check(args, out, err) -> int:
    """The constructed networks over large batches (CONFIRMED evidence, never PROVED)."""
    from . import gpucheck

    _writable(args.json)
    rec = gpucheck.run(args.device, batch=args.batch, budget_seconds=args.budget_seconds, seed=args.seed,
                       log=(lambda s: err.write(s + "\n")) if args.verbose else None,
                       search_restarts=args.search_restarts, search_steps=args.search_steps)
    out.write(gpucheck.table(rec) + "\n")
    if args.json:
        _write_json(args.json, rec)
    return gpucheck.exit_code(rec)


def cmd_train(args, out, err) -> int:
    """InfoFlow's Section 6 experiments at a small scale (C.4-C.5), seeded."""
    from . import train

    _writable(args.json, args.plot)
    Ds = None
    if args.D is not None:
        try:
            Ds = [int(x) for x in args.D.split(",")]
        except ValueError:
            raise UsageError(f"--D {args.D!r}: expected integers such as 2,3") from None
    rec = train.run_experiment(args.experiment, device=args.device, steps=args.steps, seeds=args.seeds, T=args.T,
                               batch=args.batch, budget_seconds=args.budget_seconds, seed=args.seed, Ds=Ds,
                               log=(lambda s: err.write(s + "\n")) if args.verbose else None)
    out.write(train.table(rec) + "\n")
    if args.plot:
        from .certificate import atomic_write
        atomic_write(args.plot, train.plot_svg(rec))
        out.write(f"plot: {args.plot}\n")
    if args.json:
        _write_json(args.json, rec)
    return 0


def _tanh_replacements(c, args, out):
    """Lemma 1 replacement for p = 2 and the user's p: constants, the certified L_p bound, and (on small
    instances) the independent exhaustive cell bound."""
    from .errors import BackendUnavailable
    from .replace import as_p, cell_bound, tanh_replace

    ps = [Fraction(2)]
    if args.p is not None and as_p(args.p) != 2:
        ps.append(as_p(args.p))
    reps, ok = [], True
    for p in ps:
        rep = tanh_replace(c, p)
        out.write(f"  tanh replacement, p = {p} (Lemma 1, A = D = 1/2; V uniform on [0,1]^{c.m}):\n")
        for L in (rep.decoder, rep.encoder):
            out.write(f"    {L.name}: {L.units} units, B = {L.B}, C = {L.C}, R = {L.R}, eta = {L.eta}, "
                      f"Lambda = {L.lipschitz} (unit bias = C - B * threshold)\n")
        if args.out:
            r, path = _certify_one(rep.obligation, args.out)
        else:
            from .engine import run_obligation
            r, path = run_obligation(rep.obligation, 60.0), None
        verdict = r.verdict.name
        ok = ok and verdict == "PROVED"
        out.write(f"    ||V - f2(f1(V))||_Lp <= m^(1/p) 2^-L + tanh part = {rep.total_float:.4g} <= eps, tanh part "
                  f"{rep.bound_float:.4g} <= eps/2: {verdict} (rigorous intervals)" + (f"; certificate: {path}" if path else "") + "\n")
        rec = {"p": str(p), "verdict": verdict, "certificate": path, "layers": [rep.decoder.to_json(), rep.encoder.to_json()],
               "bound_float": rep.bound_float, "total_float": rep.total_float}
        try:
            cb = cell_bound(rep)
            ok = ok and cb["ok"]
            out.write(f"    independent check, exhaustive interval cells ({cb['cells']} cells, arb): ||V^(L) - f2(f1(V))||_Lp "
                      f"<= {cb['tanh_error_Lp_upper']:.4g} <= eps/2: {'PROVED' if cb['ok'] else 'FAILED'}\n")
            rec["cells"] = cb
        except (InvalidParameter, BackendUnavailable) as e:
            out.write(f"    independent cell check skipped: {e}\n")
        reps.append(rec)
    return reps, ok


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="attncert", description="Prover companion for InfoFlow (Yu et al. 2026) and "
                "Kajitsuka-Sato (ICLR 2024): check proof steps, write and verify certificates.", epilog=EPILOG)
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    c = sub.add_parser("check", help="discharge obligations and print one verdict per line", epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all")
    c.add_argument("--json", metavar="FILE", help="write attncert.check/1 JSON results to FILE")
    c.add_argument("--timeout", type=_positive_float, default=WALL_TIMEOUT_S, metavar="S",
                   help="safety kill per solver call (seconds; verdicts use deterministic resource limits, a kill gives UNKNOWN)")
    c.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="run obligations in N processes (output order unchanged)")
    c.add_argument("--no-cache", action="store_true", help="ignore and do not update .attncert-cache/")
    c.add_argument("--junit", metavar="FILE", help="write JUnit XML (one test case per obligation) to FILE")
    c.add_argument("--executor", type=_executor, default="local", metavar="E",
                   help="local (default), dask (a local Dask cluster of --jobs workers) or dask:tcp://HOST:PORT")
    c.set_defaults(fn=cmd_check)
    c = sub.add_parser("certify", help="write certificates (deterministic JSON)", epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all")
    c.add_argument("--out", required=True, metavar="DIR")
    c.add_argument("--timeout", type=_positive_float, default=WALL_TIMEOUT_S, metavar="S")
    c.add_argument("--jobs", type=_jobs, default=1, metavar="N", help="run obligations in N processes")
    c.add_argument("--no-cache", action="store_true", help="ignore and do not update .attncert-cache/")
    c.add_argument("--executor", type=_executor, default="local", metavar="E", help="local, dask or dask:ADDRESS")
    c.set_defaults(fn=cmd_certify)
    c = sub.add_parser("verify", help="independently re-check certificate files", epilog=EPILOG)
    c.add_argument("paths", nargs="+", metavar="PATH")
    c.add_argument("--timeout", type=_positive_float, default=WALL_TIMEOUT_S, metavar="S", help="safety kill per solver call (seconds)")
    c.add_argument("--quiet", action="store_true", help="print only rejections and the summary")
    c.add_argument("--allow-conditional", action="store_true",
                   help="exit 0 even when a PROVED certificate rests on a source that is not a verified, PROVED "
                        "certificate of this set (such certificates are still reported as CONDITIONAL)")
    c.add_argument("--json", metavar="FILE", help="write attncert.verify/1 JSON (one record per file) to FILE")
    c.add_argument("--max-digits", type=_limit, metavar="N", help="refuse numbers with more digits (default 5000)")
    c.add_argument("--max-nodes", type=_limit, metavar="N", help="refuse larger expression trees (default 200000)")
    c.add_argument("--max-prec", type=_limit, metavar="BITS", help="refuse higher working precision (default 131072)")
    c.add_argument("--max-file-mb", type=_positive_float, metavar="MB", help="refuse larger files (default 8)")
    c.set_defaults(fn=cmd_verify)
    c = sub.add_parser("report", help="a static HTML report (index.html): verdicts, errata, bounds, plots",
                       epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all")
    c.add_argument("--out", required=True, metavar="DIR")
    c.add_argument("--timeout", type=_positive_float, default=WALL_TIMEOUT_S, metavar="S")
    c.add_argument("--jobs", type=_jobs, default=1, metavar="N")
    c.add_argument("--no-cache", action="store_true")
    c.set_defaults(fn=cmd_report)
    c = sub.add_parser("list", help="show what can be checked", epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all")
    c.set_defaults(fn=cmd_list)
    c = sub.add_parser("audit", help="errata report: steps refuted as printed, statement mismatches", epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all")
    c.add_argument("--json", metavar="FILE", help="write attncert.audit/1 JSON to FILE")
    c.add_argument("--md", metavar="FILE", help="write the Markdown report to FILE")
    c.add_argument("--timeout", type=_positive_float, default=WALL_TIMEOUT_S, metavar="S")
    c.set_defaults(fn=cmd_audit)
    c = sub.add_parser("bound", help="explicit certified bounds, e.g. `bound thm5 --T 8 --k 3 --n 2 --eps 1/1000`",
                       epilog=EPILOG)
    c.add_argument("name", help="thm4 (needs --T --H --n --eps) or thm5 (needs --T --k --n --eps)")
    c.add_argument("--T", type=int, required=True)
    c.add_argument("--k", type=int)
    c.add_argument("--H", type=int)
    c.add_argument("--n", type=int, required=True)
    c.add_argument("--eps", required=True, help="exact: 1/1000 or 0.001")
    c.add_argument("--json", metavar="FILE")
    c.set_defaults(fn=cmd_bound)
    c = sub.add_parser("witness", help="constructive pigeonhole witness with a certificate, e.g. "
                       "`witness thm5 --T 6 --k 2 --n 1 --eps 1/1000 --seed 0 --out DIR`", epilog=EPILOG)
    c.add_argument("name", help="thm5 (needs --T --k) or thm6 (needs --T0 --d)")
    c.add_argument("--T", type=int)
    c.add_argument("--k", type=int)
    c.add_argument("--T0", type=int)
    c.add_argument("--d", type=int)
    c.add_argument("--n", type=int, required=True)
    c.add_argument("--eps", required=True)
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--rho", default="1", metavar="BETA", help="rho(x) = BETA x (BETA >= 0, exact)")
    c.add_argument("--hidden", type=int, default=4, help="hidden width of the seeded f1")
    c.add_argument("--backend", choices=("numpy", "torch"), default="numpy")
    c.add_argument("--out", required=True, metavar="DIR")
    c.add_argument("--json", metavar="FILE")
    c.set_defaults(fn=cmd_witness)
    c = sub.add_parser("construct", help="built upper bounds, e.g. `construct thm6 --T0 2 --d 1 --n 1 --eps 1/8`",
                       epilog=EPILOG)
    c.add_argument("name", help="thm4 (needs --T --eps), thm6 (needs --T0 --d --n --eps) or ks-thm2 (needs --dataset or --random)")
    c.add_argument("--T", type=int, help="thm4: sequence length")
    c.add_argument("--variant", choices=("printed", "repaired", "both"), default="both", help="thm4: which network (default both)")
    c.add_argument("--samples", type=int, default=2000, help="thm4: random float64 inputs (default 2000; adversarial: a fifth)")
    c.add_argument("--direct", action="store_true", help="thm4, T <= 3: also run the direct interval branch-and-bound "
                   "of the whole network against F (docs/theorem4.md; minutes)")
    c.add_argument("--box-budget", type=int, default=200_000, help="thm4 --direct: boxes per sub-box (default 200000)")
    c.add_argument("--jobs", type=int, default=1, help="thm4 --direct: worker processes (default 1)")
    c.add_argument("--direct-verify", metavar="FILE", help="thm4: re-check a stored direct-check record")
    c.add_argument("--T0", type=int)
    c.add_argument("--d", type=int)
    c.add_argument("--n", type=int)
    c.add_argument("--eps")
    c.add_argument("--dataset", metavar="FILE", help="ks-thm2: JSON {sequences: N x n x d, optional r_min, r_max, eps}")
    c.add_argument("--random", metavar="N,n,d,SEED", help="ks-thm2: a seeded random dataset")
    c.add_argument("--vocab", type=int, default=6, help="ks-thm2 --random: vocabulary size (default 6)")
    c.add_argument("--seed", type=int, default=0, help="ks-thm2: seed of the Lemma 2 vector search")
    c.add_argument("--p", metavar="P", help="also certify the tanh replacement's L_p error for this p >= 1 "
                   "(exact rational; p = 2 is always done)")
    c.add_argument("--out", metavar="DIR", help="write the certificates here")
    c.add_argument("--json", metavar="FILE")
    c.set_defaults(fn=cmd_construct)
    c = sub.add_parser("gpu-check", help="run the constructed networks over large batches (GPU or CPU): CONFIRMED "
                       "evidence, never PROVED", epilog=EPILOG)
    c.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    c.add_argument("--batch", type=_limit, default=None, help="inputs per batch (default 8192 on cuda, 64 on cpu)")
    c.add_argument("--budget-seconds", type=_positive_float, default=60.0, help="total time to spend (default 60)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--search-restarts", type=int, default=None, help="Theorem 4 gradient-ascent restarts "
                   "(default 16384 on cuda, 64 on cpu; 0: no search)")
    c.add_argument("--search-steps", type=int, default=None, help="Adam steps per restart (default 400 on cuda, 60 on cpu)")
    c.add_argument("--verbose", action="store_true", help="progress on stderr")
    c.add_argument("--json", metavar="FILE", help="write every row and the worst inputs found")
    c.set_defaults(fn=cmd_gpu_check)
    c = sub.add_parser("train", help="InfoFlow Section 6 experiments at a small scale: intrinsic-dim (target (6)), "
                       "triangle-center (target (7)), or tiny (the CPU smoke run)", epilog=EPILOG)
    c.add_argument("experiment", help="intrinsic-dim, triangle-center or tiny")
    c.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    c.add_argument("--steps", type=_limit, default=None, help="optimizer steps per run (default: the experiment's)")
    c.add_argument("--seeds", type=_limit, default=None, help="independent runs per configuration")
    c.add_argument("--T", type=_limit, default=None, help="sequence length (intrinsic-dim, tiny)")
    c.add_argument("--D", default=None, help="intrinsic dimensions, e.g. 2 or 2,3 (intrinsic-dim; default 2,3)")
    c.add_argument("--batch", type=_limit, default=None, help="minibatch size")
    c.add_argument("--budget-seconds", type=_positive_float, default=None, help="stop starting new runs after this")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--plot", metavar="FILE.svg", help="write the NMSE plot (SVG)")
    c.add_argument("--verbose", action="store_true", help="progress on stderr")
    c.add_argument("--json", metavar="FILE")
    c.set_defaults(fn=cmd_train)
    from .cli_infoflow import add_parser as _add_infoflow  # attncert infoflow (InfoFlow model, 5.3)
    _add_infoflow(sub)
    from .cli_trees import add_parser as add_trees_parser
    add_trees_parser(sub, EPILOG)
    return p


def _limit(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r} is not an integer") from None
    if not 1 <= v <= 10 ** 9:
        raise argparse.ArgumentTypeError(f"{s!r} must be between 1 and 10^9")
    return v


def _executor(s: str) -> str:
    if s == "local" or s == "dask" or s.startswith("dask:"):
        return s
    raise argparse.ArgumentTypeError(f"{s!r}: use local, dask or dask:tcp://HOST:PORT")


def _jobs(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r} is not an integer") from None
    if not 1 <= v <= 64:
        raise argparse.ArgumentTypeError(f"{s!r} must be between 1 and 64")
    return v


def _positive_float(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r} is not a number") from None
    if not (v > 0 and v < 1e6):
        raise argparse.ArgumentTypeError(f"{s!r} must be a positive number of seconds")
    return v


def run(argv, out=None, err=None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        args = build_parser().parse_args(argv)
        if not getattr(args, "fn", None):
            build_parser().print_help(out)
            return 2
        return args.fn(args, out, err)
    except UsageError as e:
        err.write(f"attncert: error: {e}\n")
        return 2
    except AttncertError as e:
        err.write(f"attncert: {e}\n")
        return 1
    except KeyboardInterrupt:
        err.write("attncert: interrupted\n")
        return 130


def main() -> None:
    try:
        code = run(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `attncert list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)


if __name__ == "__main__":
    main()

"""`attncert construct`: the built networks of InfoFlow Theorems 4 and 6 and Kajitsuka-Sato Theorem 2, checked."""

from __future__ import annotations

import json

from fractions import Fraction

from attncert.core.errors import InvalidParameter, UsageError
from attncert.cli.common import write_json
from attncert.cli.witness import _certify_one


def cmd_construct(args, out, err) -> int:
    from attncert.papers.infoflow.construct import MAX_CELLS, exhaustive_roundtrip, sweep, thm6

    if args.name == "ks-thm2":
        return _construct_ks(args, out)
    if args.name == "ks-cor1":
        return _construct_ks(args, out, memorise=True)
    if args.name == "thm4":
        return _construct_thm4(args, out, err)
    if args.name != "thm6":
        raise UsageError(f"unknown construction {args.name!r}; available: thm4, thm6, ks-thm2, ks-cor1")
    for opt in ("T0", "d", "n", "eps"):
        if getattr(args, opt) is None:
            raise UsageError(f"construct thm6 needs --{opt}")
    c = thm6(T0=args.T0, d=args.d, n=args.n, eps=args.eps)   # refuses a bit assignment above MAX_BITS entries
    from attncert.papers.infoflow.replace import as_p, check_decoder_size
    check_decoder_size(c)  # the tanh replacement (p = 2) always runs: refuse a decoder it cannot take, before any work
    if args.p is not None:
        as_p(args.p)  # refuse a bad p before any work
    out.write(f"Theorem 6 upper bound (InfoFlow A.3), Heaviside construction: T0={c.T0} d={c.d} n={c.n} eps={c.eps}\n")
    out.write(f"  m = T0 d = {c.m}, L = ceil(log2(2m/eps)) = {c.L} (L831), q = ceil(mL/n) = {c.q} (L868)\n")
    out.write(f"  encoder: {c.enc_hidden} Heaviside units; decoder: {c.dec_hidden} units\n")
    out.write(f"  parameters: {c.params_nonzero} nonzero ({c.params_dense} as dense layers)\n")
    rt = None
    if c.L * c.m <= MAX_CELLS.bit_length() - 1:     # 2^(L m) cells, compared by the exponent
        rt = exhaustive_roundtrip(c)
        out.write(f"  round trip: exact on all {rt['cells']} dyadic cells and the boundary V_j = 1; sup error "
                  f"{rt['worst_sup_error']} <= eps/(2m) = {rt['bound_eps_over_2m']}: "
                  f"{'PROVED (exhaustive, exact arithmetic)' if rt['ok'] else 'FAILED'}\n")
    else:
        out.write(f"  round trip: NOT checked (2^(L m) = 2^{c.L * c.m} cells > {MAX_CELLS}); use a larger eps for the "
                  "exhaustive check\n")
    sw = sweep(c.T0, c.d, c.n)
    out.write(f"  sweep eps = 2^-3 .. 2^-16: fitted exponent of 1/eps in the parameter count {sw['fitted_exponent']:.3f}, "
              f"predicted T0 d/n = {sw['predicted_exponent']:.3f}\n")
    reps, ok = _tanh_replacements(c, args, out)
    if args.json:
        write_json(args.json, {"schema": "attncert.construct/1", "T0": c.T0, "d": c.d, "n": c.n, "eps": str(c.eps),
                                "m": c.m, "L": c.L, "q": c.q, "params_nonzero": c.params_nonzero,
                                "params_dense": c.params_dense,
                                "roundtrip": None if rt is None else {k: str(v) for k, v in rt.items()}, "sweep": sw,
                                "tanh": reps})
    return 0 if ((rt is None or rt["ok"]) and ok) else 1


def _construct_ks(args, out, memorise: bool = False) -> int:
    from attncert.papers.ks import construct as ks

    if (args.dataset is None) == (args.random is None):
        raise UsageError(f"construct {args.name} needs exactly one of --dataset FILE or --random N,n,d,seed")
    if memorise and not (isinstance(args.classes, int) and 1 <= args.classes <= 1000):
        raise UsageError(f"--classes {args.classes!r}: expected an integer C in 1..1000 (labels in [C])")
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
    if memorise:
        code = _memorise(args, out, r, verdict, rec) or code
    if args.json:
        write_json(args.json, rec)
    return code


def _memorise(args, out, r, thm2_verdict: str, rec: dict) -> int:
    """Corollary 1 on the built layer: the memorising block with rational weights, (17) checked exactly."""
    from attncert import api
    from attncert.papers.ks import memorise as mem

    L, ds = r.layer, r.layer.ds
    lemmas = api.check("ks.thm.cor1.r*")
    lem_ok = bool(lemmas) and all(x.verdict.name == "PROVED" for x in lemmas)
    out.write(f"Kajitsuka-Sato Corollary 1, built: labels in [{args.classes}]^d, consistent (one per context id), "
              f"seed {args.seed}\n")
    out.write("  lemmas " + ", ".join(f"{x.obligation.id}: {x.verdict.name}" for x in lemmas) + "\n")
    m: dict = {"classes": args.classes, "lemmas": {x.obligation.id: x.verdict.name for x in lemmas}}
    rec["memorise"] = m
    if thm2_verdict != "PROVED":
        m["verdict"] = "UNKNOWN"
        out.write("  (17): UNKNOWN: the layer is not proved a contextual mapping on this dataset\n")
        return 1
    net, info = mem.build(L, args.classes, args.seed, r.bits)
    if net is None:
        m["verdict"] = "UNKNOWN"
        m["reason"] = info["reason"]
        out.write(f"  (17): UNKNOWN: {info['reason']}\n")
        return 1
    sides = mem.check_sides_arb(L, net, info["rep"], r.bits)
    problems = mem.check_structure(net)
    exact = mem.outputs_exact(net, ds, info["rep"]) if not problems else {}
    wrong = [(i, k) for (i, k), y in exact.items() if y != info["labels"][mem.context_key(ds, i, k)]]
    worst = mem.mpmath_outputs(L, net, info["rep"], int(r.bits * 0.30103) + 10) if r.mpmath else None
    reasons = ([] if lem_ok else ["a lemma of the block is not PROVED"]) + problems \
        + ([] if sides["all"] else [f"{sides['checks'] - sides['ok']} of {sides['checks']} sides not established"]) \
        + ([f"{len(wrong)} tokens get another label"] if wrong else []) \
        + ([f"the mpmath reference differs by {worst:.3g}"] if worst is not None and worst > 1e-9 else [])
    # (17) is an existence claim: a block that fails is UNKNOWN (this block does not show it), never REFUTED
    verdict = "PROVED" if not reasons else "UNKNOWN"
    ffn, att = net.param_count(), mem.attention_param_count(L)
    paper_att, paper_ffn = mem.paper_param_counts(ds)
    out.write(f"  {info['ids']} context ids along p = ({', '.join(map(str, net.p))}); {len(net.live)} label steps"
              + (f" (ramp widths 2^-{min(net.k[j] for j in net.live)} to 2^-{max(net.k[j] for j in net.live)})"
                 if net.live else "") + f"; {sides['ok']}/{sides['checks']} sides certain in arb at {r.bits} bits\n")
    out.write(f"  (17) F(X^(i)) = Y^(i) exactly for all {ds.N * ds.n} tokens: {verdict}"
              + (f" ({'; '.join(reasons)})" if reasons else "")
              + (f"; mpmath reference max |F - Y| = {worst:.3g}" if worst is not None else "") + "\n")
    out.write(f"  parameters (nonzero): attention {att} (the paper's 4(s + d) = {paper_att}), block {ffn} with "
              f"{2 * ds.d + 2 * len(net.live)} hidden units (the paper's d(2nN + d) = {paper_ffn}, with real weights "
              f"after Zhang et al.; this block has rational weights, cancels the skip connection and uses two units "
              f"per label step)\n")
    W1, b1, cols, b2 = net.weights()
    lab = info["labels"]
    m.update({"verdict": verdict, "reasons": reasons, "ids": info["ids"], "p": [str(x) for x in net.p],
              "b": "b_j = (z_j + z_(j+1)) / 2, the midpoint of the projections of consecutive context ids",
              "h_log2": [-k for k in net.k], "live_ramps": list(net.live),
              "Y": [[list(lab[mem.context_key(ds, i, k)]) for k in range(ds.n)] for i in range(ds.N)],
              "sides": sides, "wrong_tokens": len(wrong), "mpmath_max_error": worst,
              "params": {"attention": att, "block": ffn, "paper_attention": paper_att, "paper_block": paper_ffn},
              "hidden_units": len(W1)})
    code = 0 if verdict == "PROVED" else 1
    if args.out:
        bits = mem.cert_bits(net, L)
        if bits > 131072:
            out.write(f"  certificate of the sides: not written: it needs {bits} bits, above the checker's 131072\n")
            return 1
        res, path = _certify_one(mem.certify_sides(L, net, info["rep"], bits, tag=f"_s{args.seed}_C{args.classes}"),
                                 args.out)
        out.write(f"  certificate of the sides ({bits} bits): {res.verdict.name}: {path}\n")
        m["certificate"] = path
        code = code or (0 if res.verdict.name == "PROVED" else 1)
    return code


def _construct_thm4(args, out, err=None) -> int:
    """Theorem 4's two-layer network: build, audit the constraints, certify, evaluate."""
    import os

    from attncert.papers.infoflow import thm4net
    from attncert.core.certificate import atomic_write
    from attncert.core.engine import run_obligation

    if args.direct_verify:
        return _direct_verify(args, out)
    if args.T is None or args.eps is None:
        raise UsageError("construct thm4 needs --T and --eps")
    if args.box_budget < 1 or args.jobs < 1:
        raise UsageError("--box-budget and --jobs must be >= 1")
    if args.jobs > 64:
        raise UsageError(f"--jobs {args.jobs}: at most 64 worker processes")
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
            d = _direct_thm4(net, args, out, err)
            recs[-1]["direct"] = d
            code = code or (0 if d["verdict"] == "PROVED" else 1)
    if args.json:
        write_json(args.json, {"schema": "attncert.construct.thm4/1", "results": recs})
    return code


def _duration(seconds: float) -> str:
    for unit, size in (("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:.2g} {unit}"
    return f"{seconds:.2g} s"


DIRECT_PROGRESS_S = 30.0   # without a terminal, a progress line on stderr at most this often during --direct


def _direct_thm4(net, args, out, err=None) -> dict:
    """The direct interval branch-and-bound of the whole network (attncert.papers.infoflow.thm4direct).

    --box-budget is per sub-box: the run evaluates at most (number of sub-boxes) x (box budget) boxes, and
    that total, with a rough time, is printed before it starts."""
    import os
    import sys
    import time

    from attncert.core.params import sci
    from attncert.papers.infoflow import thm4direct
    from attncert.core.certificate import atomic_write

    err = err or sys.stderr
    subs = thm4direct.sub_box_count(net.T)
    total = subs * args.box_budget
    hours = total * thm4direct.SECONDS_PER_BOX / args.jobs / 3600
    out.write(f"  direct check (interval branch-and-bound of the whole network against F, {3 * net.T} dimensions, "
              f"{args.jobs} job(s)): box budget {args.box_budget} per sub-box x {subs} sub-boxes = at most "
              f"{sci(total)} boxes (about {thm4direct.SECONDS_PER_BOX * 1e3:g} ms each: up to about "
              f"{_duration(hours * 3600)}; a run stops earlier when every sub-box is decided) ...\n")
    out.flush()
    t0 = time.perf_counter()
    import logging

    log = logging.getLogger("attncert.cli")
    tty = (err.isatty() if hasattr(err, "isatty") else False) and log.isEnabledFor(logging.INFO)
    last = [t0]

    def progress(done, total):
        now = time.perf_counter()
        if tty:
            err.write(f"\r  sub-boxes {done}/{total}  {now - t0:.0f}s")
            err.flush()
        elif now - last[0] >= DIRECT_PROGRESS_S or done == total:   # periodic lines when stderr is a file or pipe
            last[0] = now
            log.info("direct check %s T=%d: sub-boxes %d/%d done, %.0fs", net.variant, net.T, done, total, now - t0)

    d = thm4direct.direct_check(net, box_budget=args.box_budget, jobs=args.jobs, progress=progress)
    if tty:
        err.write("\n")
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
    from attncert.papers.infoflow import thm4direct
    from attncert.papers.infoflow import thm4net

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


def _tanh_replacements(c, args, out):
    """Lemma 1 replacement for p = 2 and the user's p: constants, the certified L_p bound, and (on small
    instances) the independent exhaustive cell bound."""
    from attncert.core.errors import BackendUnavailable
    from attncert.papers.infoflow.replace import as_p, cell_bound, tanh_replace

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
            from attncert.core.engine import run_obligation
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

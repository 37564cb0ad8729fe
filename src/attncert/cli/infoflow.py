"""``attncert infoflow``: InfoFlow's two-step estimation procedure (5.3) as one command.

    attncert infoflow --target NAME --T T --heads h1,h2,... --emb E1,E2,... [--input SPEC] [--dot FILE]

It prints the information sets I(t, l) on one input, the active index set I_F(X) and whether the model
learns the target there and on a sample (or a grid) of inputs, the model's Number of Comparison (5),
the target's (where known), the lower bound on M = max |I(t,l)| (step 1) and the cost law's total cost
and dominant exponent (step 2). Exit codes: 0 the plan learns the target on every input checked; 1 it
fails on some input with strict comparisons (hence on a set of positive measure), or no input was checked
(--samples 0, or every input a tie: UNKNOWN); 2 usage error."""

from __future__ import annotations

from fractions import Fraction

from attncert.cli.common import write_json
from attncert.core.errors import InvalidParameter, UsageError

HELP = ("InfoFlow's two-step estimation (5.3): information sets, I_F, Number of Comparison, cost exponent; "
        "e.g. `infoflow --target min-inner-product --T 4 --heads 1,1 --emb 8,8`")


def _ints(name):
    def parse(s: str):
        try:
            vals = tuple(int(v) for v in s.split(","))
        except ValueError:
            raise UsageError(f"{name} {s!r}: expected comma-separated integers such as 2,2") from None
        return vals
    return parse


def add_parser(sub) -> None:
    from attncert.papers.infoflow.targets import TARGETS

    import argparse

    c = sub.add_parser("infoflow", help=HELP, description=__doc__.split("\n\n", 1)[1],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("--target", required=True, metavar="NAME", help="one of: " + ", ".join(sorted(TARGETS)) +
                   ", or one registered by --load")
    c.add_argument("--load", metavar="FILE.py", help="import this Python file first (it may call "
                   "attncert.papers.infoflow.targets.register_target to add your own targets)")
    c.add_argument("--T", type=int, required=True, help="sequence length")
    c.add_argument("--heads", type=_ints("--heads"), required=True, metavar="h1,h2,...", help="heads per layer")
    c.add_argument("--emb", type=_ints("--emb"), required=True, metavar="E1,E2,...", help="embedding dimension per layer")
    c.add_argument("--d", type=int, help="token dimension (default: the target's)")
    c.add_argument("--D", type=int, help="d-retrieval, pairwise: number of terms D (default 2)")
    c.add_argument("--input", metavar="SPEC", help="'appendix-e' (the input of Figure 5), 'random' (seeded), or "
                   "tokens such as '0,-1;7/10,7/10;0,1;-1/5,-9/10' (default: appendix-e for min-inner-product "
                   "with T=4, else random)")
    c.add_argument("--seed", type=int, default=0, help="seed of the random input and sample")
    c.add_argument("--samples", type=int, default=200, help="random inputs for the learns check (default 200)")
    c.add_argument("--grid", metavar="V1,V2,...", help="check every input with coordinates in this set instead (write --grid=-1,0,1 when "
                   "the first value is negative)")
    c.add_argument("--variant", choices=("repaired", "printed"), default="repaired",
                   help="min-inner-product: the score functions of Appendix E as printed or with the sign repaired")
    c.add_argument("--dot", metavar="FILE", help="write the information-flow graph (graphviz dot)")
    c.add_argument("--svg", metavar="FILE", help="write the graph as a standalone SVG")
    c.add_argument("--png", metavar="FILE", help="write the graph as PNG (needs matplotlib)")
    c.add_argument("--json", metavar="FILE", help="write the machine-readable result")
    c.set_defaults(fn=cmd_infoflow)


def _frac(s: str) -> Fraction:
    try:
        return Fraction(s.strip())
    except (ValueError, ZeroDivisionError):
        raise InvalidParameter(f"--input: {s!r} is not an exact number") from None


def parse_input(spec: str, T: int, d: int) -> list[tuple]:
    toks = [t for t in spec.split(";")]
    X = [tuple(_frac(v) for v in tok.split(",")) for tok in toks]
    if len(X) != T or any(len(x) != d for x in X):
        raise InvalidParameter(f"--input has {len(X)} tokens of dimensions {sorted({len(x) for x in X})}; "
                               f"need T={T} tokens of d={d} numbers, tokens separated by ';'")
    return X


def load_user_file(path: str) -> None:
    """Import a user's Python file (their own code, run as any imported module would be)."""
    import importlib.util
    import os

    if not os.path.isfile(path) or not path.endswith(".py"):
        raise InvalidParameter(f"--load {path!r}: not a readable .py file")
    name = "attncert_user_" + os.path.splitext(os.path.basename(path))[0].replace("-", "_")
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(mod)
    except UsageError:
        raise
    except Exception as e:
        raise InvalidParameter(f"--load {path!r}: importing it failed: {e.__class__.__name__}: {e}") from None


def _fmt_vec(x) -> str:
    return "(" + ",".join(str(v) for v in x) + ")"


def run_infoflow(args) -> dict:
    """The whole procedure as data (the command prints it; tests and the API use it directly)."""
    from attncert.papers.infoflow import model as inf
    from attncert.papers.infoflow.graph import fmt_set
    from attncert.papers.infoflow.targets import APPENDIX_E_INPUT, get_target

    if getattr(args, "load", None):
        load_user_file(args.load)
    tgt = get_target(args.target)
    T = args.T
    if not 2 <= T <= 64:
        raise InvalidParameter(f"--T {T}: must be in 2..64 (one token makes no comparison)")
    heads, embs = tuple(args.heads), tuple(args.emb)
    if len(heads) != len(embs):
        raise InvalidParameter(f"--heads has {len(heads)} layers, --emb has {len(embs)}: give one value per layer each")
    if any(h < 1 for h in heads) or any(e < 1 for e in embs):
        raise InvalidParameter(f"--heads {heads} / --emb {embs}: every layer needs >= 1 head (each rule attends) "
                               "and an embedding dimension >= 1")
    if args.variant == "printed" and tgt.name != "min-inner-product":
        raise InvalidParameter("--variant printed: only min-inner-product (Appendix E) has a printed variant")
    if tgt.name == "sum-first-three" and T < 3:
        raise InvalidParameter(f"--T {T}: sum-first-three needs T >= 3 tokens")
    params = dict(tgt.params)
    if args.d is not None:
        if args.d < 1:
            raise InvalidParameter(f"--d {args.d}: must be >= 1")
        params["d"] = args.d
    if args.D is not None:
        if "D" not in params:
            raise InvalidParameter(f"--D: target {tgt.name} has no parameter D")
        if args.D < 1:
            raise InvalidParameter(f"--D {args.D}: must be >= 1")
        params["D"] = args.D
    if tgt.name == "triangle-center" and T > 16:
        raise InvalidParameter(f"--T {T}: triangle-center enumerates T^3 triples per input; use T <= 16")
    d = params["d"]
    if args.samples < 0 or args.samples > 100000:
        raise InvalidParameter(f"--samples {args.samples}: must be in 0..100000")
    spec = args.input or ("appendix-e" if (tgt.name == "min-inner-product" and T == 4 and d == 2) else "random")
    if spec == "appendix-e":
        if T != 4 or d != 2:
            raise InvalidParameter("--input appendix-e: the Figure 5 input has T=4 tokens of dimension d=2")
        X = list(APPENDIX_E_INPUT)
    elif spec == "random":
        X = next(inf.random_inputs(T, d, 1, seed=args.seed))
    else:
        X = parse_input(spec, T, d)
    model = tgt.plan(T, heads, embs, params, args.variant)
    Fn = tgt.F(params)
    tr = model.run(X)
    act = inf.active_index_set(Fn, X)
    final = tr.I(T + 1, model.L)
    learns_here = act.indices <= final
    if args.grid:
        vals = [_frac(v) for v in args.grid.split(",")]
        count = len(vals) ** (T * d)
        if count > 200000:
            raise InvalidParameter(f"--grid: {len(vals)}^{T * d} = {count} inputs is too many (at most 200000)")
        inputs, how = inf.grid_inputs(T, d, vals), f"every input of the grid {{{args.grid}}}^{T * d}"
    else:
        inputs, how = inf.random_inputs(T, d, args.samples, seed=args.seed + 1), \
            f"{args.samples} seeded random dyadic inputs in [-1,1]^{T * d} (seed {args.seed + 1})"
    progress = getattr(args, "_progress", None)
    if progress is not None:
        inputs = progress(inputs, count if args.grid else args.samples)
    lc = inf.check_learns(model, Fn, inputs)
    noc = inf.number_of_comparison(model, tr, tgt.beta1)
    up = tgt.upper(T, params) if tgt.upper else None
    lo = tgt.lower(T, params) if tgt.lower else None
    step1 = None
    if lo is not None:
        M = inf.min_M(T, heads, tgt.beta1, lo.value)
        Emax = max(embs)
        step1 = {"target_lower": lo.value, "M_min": M,
                 "cost_exponent_lower": None if M is None else str(inf.cost_exponent(M, d, Emax)),
                 "E_used": Emax}
    expr, dom = inf.total_cost(model, tr)
    sets = {f"I({t},{l})": sorted(tr.I(t, l)) for l in range(model.L + 1) for t in range(1, T + 2)}
    return {
        "schema": "attncert.infoflow/1", "target": tgt.name, "description": tgt.description, "ref": tgt.ref,
        "T": T, "d": d, "heads": list(heads), "emb": list(embs), "variant": args.variant, "params": params,
        "input": [[str(v) for v in x] for x in X], "sets": sets,
        "rules": [[None] + tr.rules[l][1:] for l in range(1, model.L + 1)],
        "picks": [[None] + [list(p) if p else None for p in tr.picks[l][1:]] for l in range(1, model.L + 1)],
        "ties": [list(t) for t in tr.ties],
        "active": sorted(act.indices), "active_method": act.method, "differentiable": act.differentiable,
        "final": sorted(final), "learns_on_input": learns_here,
        "learn_check": {"inputs": how, "checked": lc.checked, "skipped": lc.skipped,
                        "failures": len(lc.failures), "method": lc.method,
                        "first_failure": [[str(v) for v in x] for x in lc.failures[0]] if lc.failures else None},
        "beta1": tgt.beta1, "noc_model": noc,
        "noc_target_upper": None if up is None else {"value": up.value, "source": up.source},
        "noc_target_lower": None if lo is None else {"value": lo.value, "source": lo.source},
        "step1": step1, "total_cost": str(expr), "dominant_exponent": None if dom is None else str(dom),
        "_model": model, "_trace": tr, "_active": act.indices, "_fmt": fmt_set,
    }


def cmd_infoflow(args, out, err) -> int:
    from attncert.core.certificate import atomic_write
    from attncert.papers.infoflow.graph import fmt_set, to_dot, to_png, to_svg

    if args.png:  # fail before the work, not after it
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise UsageError("--png needs matplotlib, which is not installed (pip install matplotlib); "
                             "--dot and --svg need nothing") from None
    import logging

    if hasattr(err, "isatty") and err.isatty() and logging.getLogger("attncert.cli").isEnabledFor(logging.INFO):
        def _progress(it, total):
            from rich.progress import track

            from attncert.cli.common import console

            return track(it, total=total, description="learns check", console=console(err), transient=True)

        args._progress = _progress
    res = run_infoflow(args)
    model, tr = res["_model"], res["_trace"]
    T = res["T"]
    out.write(f"InfoFlow (5.3): target {res['target']}: {res['description']}\n")
    out.write(f"  architecture: L={model.L} layers, heads={tuple(res['heads'])}, E={tuple(res['emb'])}, T={T}, "
              f"d={res['d']}" + (f", variant={res['variant']}" if res["target"] == "min-inner-product" else "") + "\n")
    out.write("  input: " + " ".join(f"x({t})={_fmt_vec(x)}" for t, x in enumerate(res["input"], 1)) + "\n")
    out.write("information sets I(t,l) (position T+1 = CLS):\n")
    for l in range(model.L + 1):
        cells = []
        for t in range(1, T + 2):
            c = f"I({t},{l})={fmt_set(tr.I(t, l))}"
            if l >= 1 and tr.rules[l][t] == "max-retrieval":
                c += "[s=" + ",".join(map(str, tr.picks[l][t])) + "]"
            elif l >= 1 and tr.rules[l][t] in ("global", "specific"):
                c += f"[{tr.rules[l][t]}]"
            cells.append(c)
        out.write(f"  layer {l}: " + " ".join(cells) + "\n")
    if res["ties"]:
        out.write(f"  ties in an argmax (smallest position taken): {res['ties']}\n")
    meth = {"exact-ad": "exact rational forward-mode differentiation",
            "finite-difference": "mpmath finite differences, 50 digits: numerical evidence",
            "finite-difference-float64": "float64 finite differences: numerical evidence"}[res["active_method"]]
    out.write(f"active index set I_F(X) = {fmt_set(res['active'])} ({meth}"
              + ("" if res["differentiable"] else "; X is NOT shown to be a differentiable point") + ")\n")
    out.write(f"learns on this input: {'yes' if res['learns_on_input'] else 'NO'}: I_F(X) = {fmt_set(res['active'])} "
              f"{'is' if res['learns_on_input'] else 'is not'} contained in I({T + 1},{model.L}) = {fmt_set(res['final'])}\n")
    lc = res["learn_check"]
    if lc["failures"]:
        out.write(f"learns (a.e.): REFUTED: fails on {lc['failures']} of {lc['checked']} inputs with strict comparisons "
                  f"({lc['inputs']}; {lc['skipped']} tie inputs skipped); first: "
                  + " ".join(_fmt_vec(x) for x in lc["first_failure"]) + " (all comparisons strict there, so it "
                  "fails on an open neighbourhood)\n")
    elif lc["checked"] == 0:   # nothing was checked, so nothing is confirmed (--samples 0, or every input a tie)
        out.write(f"learns (a.e.): UNKNOWN: no input checked ({lc['inputs']}; {lc['skipped']} tie inputs skipped): "
                  "0 inputs confirm nothing; use --samples N >= 1 or another --grid\n")
    else:
        out.write(f"learns (a.e.): CONFIRMED on {lc['checked']} inputs ({lc['inputs']}; {lc['skipped']} tie inputs "
                  f"skipped; exact arithmetic at each input; evidence, not a proof of the a.e. statement)\n")
    out.write(f"Number of Comparison (5) of the model on this input: {res['noc_model']} (beta_1 = {res['beta1']})\n")
    for key, lab in (("noc_target_upper", "upper"), ("noc_target_lower", "lower")):
        b = res[key]
        out.write(f"Number of Comparison of the target, {lab} bound: "
                  + (f"{b['value']} ({b['source']})\n" if b else "not known\n"))
    s1 = res["step1"]
    if s1 is None:
        out.write("step 1 (lower bound): skipped, the target's Number of Comparison has no known lower bound\n")
    elif s1["M_min"] is None:
        out.write(f"step 1 (lower bound): no M <= T+1 makes (5) reach {s1['target_lower']}: this architecture cannot "
                  "match the target's Number of Comparison\n")
    else:
        out.write(f"step 1 (lower bound): (5) with every |I(t,l)| <= M reaches {s1['target_lower']} first at M = "
                  f"{s1['M_min']}; cost >= eps^({s1['cost_exponent_lower']}) (law 1 with M d/E, E = {s1['E_used']})\n")
    fails = bool(res["learn_check"]["failures"]) or not res["learns_on_input"]
    out.write(f"step 2 ({'cost of the plan, NOT an upper bound: the plan fails to learn the target' if fails else 'upper bound, the plan' + chr(39) + 's update rules'}): "
              f"total cost = {res['total_cost']}\n")
    if res["dominant_exponent"] is not None:
        de = Fraction(res["dominant_exponent"])
        out.write(f"predicted cost exponent: O(eps^({de})), i.e. (1/eps)^({-de}) as eps -> 0 (law of 5.2 as printed)"
                  + ("" if de <= 0 else "; with Theorem 6's min(., 0) the cost is O(1): the law binds only when "
                     "|I| d > E") + "\n")
    title = f"{res['target']}, T={T}, heads={tuple(res['heads'])}" + (
        ", printed score (Appendix E)" if res["target"] == "min-inner-product" and res["variant"] == "printed" else "")
    if args.dot:
        atomic_write(args.dot, to_dot(model, tr, res["_active"], title))
        out.write(f"wrote {args.dot}\n")
    if args.svg:
        atomic_write(args.svg, to_svg(model, tr, res["_active"], title))
        out.write(f"wrote {args.svg}\n")
    if args.png:
        to_png(model, tr, args.png, res["_active"], title)
        out.write(f"wrote {args.png}\n")
    if args.json:
        data = {k: v for k, v in res.items() if not k.startswith("_")}
        write_json(args.json, data, default=str)
    if lc["checked"] == 0:
        return 1          # UNKNOWN: no input of the learns check was checked
    return 1 if lc["failures"] or not (res["learns_on_input"] or tr.ties or not res["differentiable"]) else 0

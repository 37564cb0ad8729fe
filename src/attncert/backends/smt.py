"""z3 and cvc5 on the same SMT-LIB text. PROVED needs `unsat` from both (cross-check); a timeout,
`unknown` or a missing solver gives UNKNOWN, never PROVED."""

from __future__ import annotations


from ..checker import smtlib
from ..claims import Evidence, Obligation
from ..verdict import Verdict
from . import handles

REQUIRED = ("z3", "cvc5")


def smt_queries(ob: Obligation):
    domains = {v.name: v.domain for v in ob.claim.vars}
    return smtlib.queries(domains, [h.expr for h in ob.claim.hyps], ob.claim.goal)


def both_unsat(texts: list, timeout: float) -> tuple[dict, str | None]:
    """Run every text on z3 and on cvc5: ({solver: 'unsat' or its first other answer}, reason or None).
    A missing solver, a crash, 'unknown' (the deterministic resource limit) or a wall-clock kill is a
    reason, never unsat."""
    have = smtlib.available()
    missing = [s for s in REQUIRED if s not in have]
    if missing:
        return {}, f"{' and '.join(missing)} not installed: PROVED needs both solvers to agree"
    answers = {}
    for name in REQUIRED:
        worst = "unsat"
        for i, text in enumerate(texts):
            try:
                ans = smtlib.SOLVERS[name](text, timeout)
            except Exception as e:  # a crash is not an answer
                ans = f"error ({e.__class__.__name__})"
            if ans != "unsat":
                worst = ans if len(texts) == 1 else f"{ans} on query {i + 1} of {len(texts)}"
                break
        answers[name] = worst
    if all(a == "unsat" for a in answers.values()):
        return answers, None
    return answers, "not unsat on both solvers (" + ", ".join(f"{k}: {v}" for k, v in answers.items()) + ")"


@handles("smt")
def smt(ob: Obligation, timeout: float) -> Evidence:
    domains = {v.name: v.domain for v in ob.claim.vars}
    mains, sides, atoms = smtlib.plan(domains, [h.expr for h in ob.claim.hyps], ob.claim.goal)
    answers, reason = both_unsat(mains + sides, timeout)
    if reason is None:
        trust = tuple(f"{n} unsat" for n in REQUIRED)
        if atoms:
            trust += ("exp/log/derivative terms abstracted as free reals (over-approximation)",)
        return Evidence(Verdict.PROVED, "smt", {"kind": "smt", "solvers": answers, "atoms": atoms,
                                                "side_queries": len(sides)}, trust)
    return Evidence(Verdict.UNKNOWN, "smt", {"kind": "none", "reason": reason})


# --------------------------------------------------------------------------- counterexamples from models

def run_z3_model(text: str, timeout_s: float, scale: int = 1):
    """A model of the main query (hypotheses and the negated goal) as {name: rational string}, or the
    solver's answer when there is no model. Algebraic values are approximated by rationals; the point
    only counts after an exact replay."""
    import z3

    s = z3.Solver()
    s.set("rlimit", smtlib.Z3_RLIMIT * scale)
    s.set("timeout", max(1, int(timeout_s * 1000)))
    s.from_string(text.replace("(check-sat)\n", ""))
    r = s.check()
    if r != z3.sat:
        return str(r)
    m = s.model()
    out = {}
    for dcl in m.decls():
        v = m[dcl]
        try:
            if z3.is_int_value(v):
                out[dcl.name()] = str(v.as_long())
            elif z3.is_rational_value(v):
                out[dcl.name()] = f"{v.numerator_as_long()}/{v.denominator_as_long()}"
            elif z3.is_algebraic_value(v):
                out[dcl.name()] = str(v.approx(30).as_fraction())
        except (z3.Z3Exception, AttributeError):
            continue
    return out


smtlib._RAW.setdefault("z3model", run_z3_model)


@handles("model")
def model(ob: Obligation, timeout: float) -> Evidence:
    """REFUTED when z3 finds a model of hypotheses and negated goal whose point replays exactly (arb);
    otherwise UNKNOWN. Exp/log terms are free in the model, so a model may not replay."""
    from fractions import Fraction

    from .arb import replay

    if not ob.claim.vars:
        return Evidence(Verdict.UNKNOWN, "model", {"kind": "none", "reason": "closed claim: nothing to search"})
    try:
        import z3  # noqa: F401
    except ImportError:
        return Evidence(Verdict.UNKNOWN, "model", {"kind": "none", "reason": "z3 not installed"})
    main, _, _ = smt_queries(ob)
    sym = smtlib.symbols({v.name: v.domain for v in ob.claim.vars})
    ans = smtlib.run_guarded("z3model", main, timeout)
    if not isinstance(ans, dict):
        return Evidence(Verdict.UNKNOWN, "model", {"kind": "none", "reason": f"z3: {ans}"})
    point = {}
    for v in ob.claim.vars:
        try:
            point[v.name] = Fraction(ans.get(sym[v.name], "0"))
        except (ValueError, ZeroDivisionError):
            point[v.name] = Fraction(0)
    ev = replay(ob, point, exact_zero=False)
    if ev is None:
        return Evidence(Verdict.UNKNOWN, "model", {"kind": "none", "reason": "the z3 model did not replay exactly"})
    return Evidence(Verdict.REFUTED, "model", ev.detail, ev.trust + ("point found by a z3 model",))


PROBE_VALUES = ("1/3", "2/5", "3/2", "7/4", "-1/2", "5/7", "2", "-3/4", "11/8", "1/9", "3", "-2")


@handles("probe")
def probe(ob: Obligation, timeout: float) -> Evidence:
    """Deterministic small rational points (each variable cycles through PROBE_VALUES at its own offset);
    the first point that satisfies the hypotheses and falsifies the goal is replayed exactly."""
    import itertools
    from fractions import Fraction

    from .arb import replay

    vs = ob.claim.vars
    if not vs:
        return Evidence(Verdict.UNKNOWN, "probe", {"kind": "none", "reason": "closed claim"})
    vals = [Fraction(x) for x in PROBE_VALUES]
    # a claim "lhs != rhs" is refuted by any point where both sides are equal, which only the exact zero
    # test can show: allow it (sympy) for the first few points of such a claim
    zero_tries = 3 if ob.claim.goal[0] == "ne" else 0
    for trial in itertools.islice(itertools.count(), 60):
        point = {}
        for idx, v in enumerate(vs):
            x = vals[(trial * (idx + 1) + idx * 5) % len(vals)]
            point[v.name] = Fraction(round(x * 3)) if v.domain == "int" else x
        try:
            ev = replay(ob, point, exact_zero=trial < zero_tries)
        except Exception:  # an expression undefined at the point (log of a negative, 0 division)
            ev = None
        if ev is not None:
            return Evidence(Verdict.REFUTED, "probe", ev.detail, ev.trust)
    # then seeded random dyadic points: a box [-8, 8] per variable (its own box when it has one), with a
    # cheap float pre-filter on the hypotheses so that only promising points are replayed exactly
    import hashlib
    import random

    rng = random.Random(int(hashlib.sha256(ob.id.encode()).hexdigest()[:12], 16))
    for _ in range(400):
        point = {}
        for v in vs:
            lo = Fraction(v.lo) if v.lo is not None else Fraction(-8)
            hi = Fraction(v.hi) if v.hi is not None else Fraction(8)
            if v.domain == "int":
                point[v.name] = Fraction(rng.randint(int(lo), int(hi)))
            else:
                point[v.name] = lo + (hi - lo) * Fraction(rng.randrange(1 << 12), 1 << 12)
        if not _float_hyps_hold(ob, point):
            continue
        try:
            ev = replay(ob, point, exact_zero=False)
        except Exception:
            ev = None
        if ev is not None:
            return Evidence(Verdict.REFUTED, "probe", ev.detail, ev.trust)
    return Evidence(Verdict.UNKNOWN, "probe", {"kind": "none", "reason": "no probe point falsified the claim"})


def _float_hyps_hold(ob: Obligation, point) -> bool:
    """A quick float look at the hypotheses (never a verdict: the exact replay decides)."""
    import mpmath

    from ..numeric import MpNumbers, evaluate

    nums = MpNumbers(20)
    try:
        with mpmath.workdps(20):
            env = {k: nums.const(x) for k, x in point.items()}
            return all(evaluate(h.expr, env, nums) is not False for h in ob.claim.hyps)
    except Exception:
        return True

"""z3 and cvc5 on the prover's own translation of the claim (backends/solver_terms.py, built through
the solvers' Python APIs; the checker prints its own SMT-LIB and re-runs it). PROVED needs `unsat` from
both solvers on every query: one per conjunct of the goal, one per definedness condition. A resource
limit ('unknown'), a wall-clock kill, a crash or a missing solver gives UNKNOWN, never PROVED."""

from __future__ import annotations

from attncert.core.claims import Evidence, Obligation
from attncert.core.errors import ExprError
from attncert.core.verdict import Verdict
from attncert.core.registry import handles
from attncert.backends.solver_terms import run_isolated, shape

REQUIRED = ("z3", "cvc5")


def _claim_parts(ob: Obligation):
    return {v.name: v.domain for v in ob.claim.vars}, [h.expr for h in ob.claim.hyps], ob.claim.goal


def installed() -> list[str]:
    out = []
    for name in REQUIRED:
        try:
            __import__(name)
            out.append(name)
        except ImportError:
            pass
    return out


def both_unsat(ob: Obligation, timeout: float, goal: bool = True) -> tuple[dict, str | None]:
    """Every query of the claim (``goal=False``: only the definedness conditions) on z3 and on cvc5:
    ({solver: 'unsat' or its first other answer}, reason or None)."""
    missing = [s for s in REQUIRED if s not in installed()]
    if missing:
        return {}, f"{' and '.join(missing)} not installed: PROVED needs both solvers to agree"
    domains, hyps, g = _claim_parts(ob)
    answers = {}
    for name in REQUIRED:
        ans, at, n, _ = run_isolated(name, domains, hyps, g, timeout, mains=goal)
        answers[name] = ans if ans == "unsat" or n <= 1 else f"{ans} on query {at + 1} of {n}"
    if all(a == "unsat" for a in answers.values()):
        return answers, None
    return answers, "not unsat on both solvers (" + ", ".join(f"{k}: {v}" for k, v in answers.items()) + ")"


# what the solvers were not told about each kind of atom (keyed by the atom's head, as the certificate lists it)
_ATOM_KINDS = (
    (("('norm',", "('lpnorm',", "('dot',"), "norm, L^p norm and dot terms of opaque vectors abstracted as free reals, "
                                            "norms >= 0 (over-approximation)"),
    (("('sum',", "('bmax',", "('bmin',", "('at',", "('forall',"),
     "sums, maxima, minima and values of opaque sequences abstracted as free reals, forall formulas as free "
     "Booleans (over-approximation)"),
    (("('card',", "('subset',"), "cardinalities of opaque finite sets abstracted as free reals, subset formulas as "
                                 "free Booleans (over-approximation)"),
    (("('dim',)", "('pi',)"), "dim and pi abstracted as free reals (over-approximation)"),
)

_OPAQUE_HEADS = tuple(h for heads, _ in _ATOM_KINDS for h in heads)


def atom_trust(atoms) -> tuple:
    """The trust entries for the abstracted atoms of an smt proof, one per kind present."""
    kinds = [text for heads, text in _ATOM_KINDS if any(a.startswith(heads) for a in atoms)]
    if any(not a.startswith(_OPAQUE_HEADS) for a in atoms):
        kinds.insert(0, "exp/log/derivative terms abstracted as free reals (over-approximation)")
    return tuple(kinds)


@handles("smt")
def smt(ob: Obligation, timeout: float) -> Evidence:
    answers, reason = both_unsat(ob, timeout)
    atoms, n_sides = shape(*_claim_parts(ob))
    if reason is None:
        trust = tuple(f"{n} unsat" for n in REQUIRED) + atom_trust(atoms)
        return Evidence(Verdict.PROVED, "smt", {"kind": "smt", "solvers": answers, "atoms": atoms,
                                                "side_queries": n_sides}, trust)
    return Evidence(Verdict.UNKNOWN, "smt", {"kind": "none", "reason": reason})


# --------------------------------------------------------------------------- counterexamples from models

@handles("model")
def model(ob: Obligation, timeout: float) -> Evidence:
    """REFUTED when z3 finds a model of hypotheses and negated goal whose point replays exactly (arb);
    otherwise UNKNOWN. Exp/log terms are free in the model, so a model may not replay."""
    from fractions import Fraction

    from attncert.backends.arb import replay

    if not ob.claim.vars:
        return Evidence(Verdict.UNKNOWN, "model", {"kind": "none", "reason": "closed claim: nothing to search"})
    if "z3" not in installed():
        return Evidence(Verdict.UNKNOWN, "model", {"kind": "none", "reason": "z3 not installed"})
    domains, hyps, goal = _claim_parts(ob)
    try:
        ans, _, _, values = run_isolated("z3", domains, hyps, goal, timeout, want_model=True)
    except ExprError as e:
        return Evidence(Verdict.UNKNOWN, "model", {"kind": "none", "reason": f"z3: {e}"})
    if ans != "sat" or values is None:
        return Evidence(Verdict.UNKNOWN, "model", {"kind": "none", "reason": f"z3: {ans}"})
    point = {v.name: Fraction(values.get(v.name, 0)) for v in ob.claim.vars}
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

    from attncert.backends.arb import replay

    vs = ob.claim.vars
    if not vs:
        return Evidence(Verdict.UNKNOWN, "probe", {"kind": "none", "reason": "closed claim"})
    vals = [Fraction(x) for x in PROBE_VALUES]
    # a claim "lhs != rhs" is refuted by any point where both sides are equal, which only the exact zero
    # test can show: allow it (sympy) for the first few points of such a claim
    zero_tries = 3 if ob.claim.goal[0] == "ne" else 0
    # equations between exp/log terms among the hypotheses (axiom instances such as log(exp(a)) = a, links
    # to identities) hold at a rational point only by the exact zero test: allow it for a few points
    from attncert.core.expr import contains
    transcendental_eq = any(h.expr[0] == "eq" and contains(h.expr, ("exp", "log")) for h in ob.claim.hyps)
    zero_tries = max(zero_tries, 6 if transcendental_eq else 0)
    random_zero_tries = 6 if transcendental_eq else 0
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
            if ev is None and random_zero_tries > 0:
                random_zero_tries -= 1
                ev = replay(ob, point, exact_zero=True)
        except Exception:
            ev = None
        if ev is not None:
            return Evidence(Verdict.REFUTED, "probe", ev.detail, ev.trust)
    return Evidence(Verdict.UNKNOWN, "probe", {"kind": "none", "reason": "no probe point falsified the claim"})


def _float_hyps_hold(ob: Obligation, point) -> bool:
    """A quick float look at the hypotheses (never a verdict: the exact replay decides)."""
    import mpmath

    from attncert.numeric.evaluate import MpNumbers, evaluate

    nums = MpNumbers(20)
    try:
        with mpmath.workdps(20):
            env = {k: nums.const(x) for k, x in point.items()}
            return all(evaluate(h.expr, env, nums) is not False for h in ob.claim.hyps)
    except Exception:
        return True

"""One table of small claims with known truth, shared by every backend test (engine, z3/cvc5 agreement,
certificate round trip). Each case names the methods that should decide it and the verdict expected."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction as F

from attncert.core.claims import Claim, Obligation, Var, claim
from attncert.core.expr import abs_, and_, diff, exp, implies, log, max_, num, var
from attncert.core.verdict import Verdict


@dataclass(frozen=True)
class Case:
    name: str
    claim: Claim
    expected_verdict: Verdict
    methods: tuple[str, ...]
    hint: tuple | None = None
    # a reason when a correct backend is known to miss this case (the test is xfail, with a short timeout)
    known_gap: str | None = None

    def obligation(self, methods: tuple[str, ...] | None = None) -> Obligation:
        return Obligation(id=f"test.{self.name}", paper="ks", ref="test", statement=self.name, claim=self.claim,
                          methods=tuple(methods or self.methods), hint=self.hint, family="test")


x, y, z, t = var("x"), var("y"), var("z"), var("t")


def bx(name, lo=-4, hi=4, domain="real"):
    return Var(name, domain, F(lo), F(hi))


P, R, D = Verdict.PROVED, Verdict.REFUTED, Verdict.UNKNOWN

CASES: list[Case] = [
    # ---- true polynomial (in)equalities: PROVED by smt
    Case("sq_plus_one_pos", claim(["x"], [], x * x + 1 > 0), P, ("smt",)),
    Case("two_xy_le_sq", claim(["x", "y"], [], 2 * x * y <= x ** 2 + y ** 2), P, ("smt",)),
    Case("amgm_4xy", claim(["x", "y"], [x >= 0, y >= 0], 4 * x * y <= (x + y) ** 2), P, ("smt",)),
    Case("pos_times_pos", claim(["x", "y"], [x > 0, y > 0], x * y > 0), P, ("smt",)),
    Case("transitivity", claim(["x", "y", "z"], [x < y, y < z], x < z), P, ("smt",)),
    Case("cubic_monotone", claim(["x", "y"], [x < y], x ** 3 < y ** 3), P, ("smt",)),
    Case("quotient_pos", claim(["x", "y"], [x > 0, y > 0], x / y > 0), P, ("smt",)),
    Case("div_cancel_with_hyp", claim(["x", "y"], [y.ne(0)], (x / y * y).eq(x)), P, ("smt",)),
    Case("abs_triangle", claim(["x", "y"], [], abs_(x + y) <= abs_(x) + abs_(y)), P, ("smt",)),
    Case("max_ge_each", claim(["x", "y"], [], and_(max_(x, y) >= x, max_(x, y) >= y)), P, ("smt",)),
    Case("exp_atoms_monotone", claim(["x", "y"], [implies(x < y, exp(x) < exp(y)), x < y], exp(x) < exp(y)),
         P, ("smt",)),
    Case("int_parity", claim([Var("n", "int")], [], (var("n") ** 2 + var("n")).ne(1)), P, ("smt",),
         known_gap="cvc5 answers unknown on this nonlinear integer goal (z3 answers unsat)"),
    # ---- false ones, refuted only through a replayed rational point
    Case("sq_gt_self", claim([bx("x", -2, 2)], [], x * x > x), R, ("search",)),
    Case("pos_times_any", claim([bx("x"), bx("y")], [x > 0], x * y > 0), R, ("replay",), (("x", F(1)), ("y", F(-1)))),
    Case("cubic_wrong_dir", claim([bx("x"), bx("y")], [x < y], x ** 3 > y ** 3), R, ("replay", "search"),
         (("x", F(0)), ("y", F(1, 2)))),
    Case("sqrt2_bound", claim([bx("x", 0, 2)], [x > 0], x * x > 2), R, ("search",)),
    Case("exp_gt_quadratic", claim([bx("x", -1, 1)], [], exp(x) > 1 + x + x * x), R, ("replay",),
         (("x", F(1, 2)),)),
    Case("exp_zero_strict", claim([bx("x", -1, 1)], [], exp(x) < 1 + x + x * x), R, ("replay",),
         (("x", F(0)),)),  # equality at x = 0: the strict goal fails exactly
    # ---- identities
    Case("binomial", claim(["x", "y"], [], ((x + y) ** 2).eq(x ** 2 + 2 * x * y + y ** 2)), P, ("identity",)),
    Case("log_exp", claim(["x"], [], log(exp(x)).eq(x)), P, ("identity",)),
    Case("exp_add", claim(["x", "y"], [], exp(x + y).eq(exp(x) * exp(y))), P, ("identity",)),
    Case("softmax_sums_to_one", claim(["x", "y"], [], (exp(x) / (exp(x) + exp(y)) + exp(y) / (exp(x) + exp(y))).eq(1)),
         P, ("identity",)),
    Case("diff_of_cube", claim(["x"], [], diff(x ** 3, x).eq(3 * x ** 2)), P, ("identity",)),
    Case("diff_of_exp_sq", claim(["x"], [], diff(exp(x * x), x).eq(2 * x * exp(x * x))), P, ("identity",)),
    # ---- closed transcendental claims: rigorous intervals
    Case("e_gt_2718", claim([], [], exp(num(1)) > F(2718, 1000)), P, ("interval",)),
    Case("e_gt_2719", claim([], [], exp(num(1)) > F(2719, 1000)), R, ("interval",)),
    Case("log2_lt_0.7", claim([], [], log(num(2)) < F(7, 10)), P, ("interval",)),
    Case("log2_gt_0.7", claim([], [], log(num(2)) > F(7, 10)), R, ("interval",)),
    Case("exp_minus3_le_quarter", claim([], [], exp(num(-3)) <= F(1, 4)), P, ("interval",)),
    Case("exp_1000_big", claim([], [], exp(num(1000)) > F(10) ** 434), P, ("interval",)),
]

BY_NAME = {c.name: c for c in CASES}
SMT_CASES = [c for c in CASES if "smt" in c.methods]
# false claims that SMT can state: z3 and cvc5 must both answer sat on them
SMT_FALSE = [c for c in CASES if c.expected_verdict == R and c.claim.vars]

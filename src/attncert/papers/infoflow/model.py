"""The InfoFlow model of Section 5 (Yu, Jiang, Bao, Li 2026): information sets, update rules, the
active index set (4), the parameter cost law of 5.2 and the Number of Comparison (5).

Positions are 1..T; position T+1 is the classification token (CLS). ``I(t, 0) = {t}`` for t <= T and
``I(T+1, 0) = {}`` (equation (3)). A model is a list of layers; each layer gives every position one
update rule:

- ``MaxRetrieval(scores)``: rule (1). Head i selects s_i(t) = argmax_{s in 1..T} A_i(X[I(t,l)], X[I(s,l)]),
  and I(t, l+1) = union_i I(s_i(t), l) | I(t, l). The paper writes "subset of"; attncert takes the
  largest set the rule allows (learning is monotone in the set, so this is the most favourable reading).
- ``GlobalAggregation()``: rule (2), I(t, l+1) = {1, ..., T}.
- ``SpecificPositions(select)``: rule (3), I(t, l+1) = union over j in I'(t, l+1) of I(j, l), where
  I'(t, l+1) = select(t, l+1) depends on the position and the layer only (positional encoding).
- ``Keep()``: I(t, l+1) = I(t, l) (a position that does not update; a subset that rule (1) allows with
  no head, used for example for the CLS token at layer 1 of Appendix E).

Ties in an argmax are resolved to the smallest position and recorded; a tie means the selection is not
locally constant, so results at such inputs are never used to REFUTE an "a.e." statement.

The active index set is computed by exact forward-mode automatic differentiation over the rationals
(``Dual``) when the target is built from + - * / ** and comparisons (min, max, sorted); otherwise by a
documented central finite difference in mpmath at 50 digits, which is numerical evidence only."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable, Sequence

from attncert.core.errors import InvalidParameter, UsageError


class ModelError(UsageError):
    """An InfoFlow model or target that cannot be run as given (bad positions, a score that fails)."""


# ------------------------------------------------------------------------------------------------
# exact forward-mode differentiation


class TieRecorder:
    """Collects the comparisons a target makes that are not strict (equal values)."""

    __slots__ = ("ties", "bad_ties")

    def __init__(self):
        self.ties = 0       # equal values with equal gradients: harmless for min/max/sorted selections
        self.bad_ties = 0   # equal values with different gradients: not a differentiable point


class Dual:
    """A value with its exact gradient: ``val`` a Fraction, ``grad`` a dict {(t, j): Fraction}.

    Comparisons compare values. A comparison of equal values is recorded: with equal gradients it is a
    first-order tie (the min or max of the two compared pieces is still differentiable there, with that
    gradient); with different gradients the point is not a differentiable point of a min/max and is
    flagged. This is exact for targets whose comparisons only select among the compared values."""

    __slots__ = ("val", "grad", "rec")

    def __init__(self, val, grad=None, rec=None):
        self.val = Fraction(val)
        self.grad = grad or {}
        self.rec = rec

    @staticmethod
    def _lift(o, rec):
        if isinstance(o, Dual):
            return o
        if isinstance(o, (int, Fraction)) and not isinstance(o, bool):
            return Dual(o, {}, rec)
        raise TypeError(f"Dual arithmetic with {type(o).__name__} is not exact")

    def _r(self, o):
        return self.rec if self.rec is not None else getattr(o, "rec", None)

    def __add__(self, o):
        o = Dual._lift(o, self.rec)
        g = dict(self.grad)
        for k, v in o.grad.items():
            g[k] = g.get(k, 0) + v
        return Dual(self.val + o.val, g, self._r(o))

    __radd__ = __add__

    def __neg__(self):
        return Dual(-self.val, {k: -v for k, v in self.grad.items()}, self.rec)

    def __sub__(self, o):
        return self + (-Dual._lift(o, self.rec))

    def __rsub__(self, o):
        return Dual._lift(o, self.rec) - self

    def __mul__(self, o):
        o = Dual._lift(o, self.rec)
        g = {k: v * o.val for k, v in self.grad.items()}
        for k, v in o.grad.items():
            g[k] = g.get(k, 0) + v * self.val
        return Dual(self.val * o.val, g, self._r(o))

    __rmul__ = __mul__

    def __truediv__(self, o):
        o = Dual._lift(o, self.rec)
        if o.val == 0:
            raise ZeroDivisionError("Dual division by zero")
        inv = Dual(1 / o.val, {k: -v / (o.val * o.val) for k, v in o.grad.items()}, o.rec)
        return self * inv

    def __rtruediv__(self, o):
        return Dual._lift(o, self.rec) / self

    def __pow__(self, k):
        if not isinstance(k, int) or isinstance(k, bool):
            raise TypeError("Dual powers must be integers")
        if k < 0:
            return Dual(1, {}, self.rec) / (self ** (-k))
        out = Dual(1, {}, self.rec)
        for _ in range(k):
            out = out * self
        return out

    def __abs__(self):
        if self.val == 0:
            self._note(Dual(0, {}, self.rec))
        return -self if self.val < 0 else self

    def _grads_equal(self, o) -> bool:
        keys = set(self.grad) | set(o.grad)
        return all(self.grad.get(k, 0) == o.grad.get(k, 0) for k in keys)

    def _note(self, o):
        rec = self._r(o)
        if rec is not None:
            if self._grads_equal(o):
                rec.ties += 1
            else:
                rec.bad_ties += 1

    def _cmp(self, o):
        o = Dual._lift(o, self.rec)
        if self.val == o.val:
            self._note(o)
        return o

    def __lt__(self, o): o = self._cmp(o); return self.val < o.val
    def __le__(self, o): o = self._cmp(o); return self.val <= o.val
    def __gt__(self, o): o = self._cmp(o); return self.val > o.val
    def __ge__(self, o): o = self._cmp(o); return self.val >= o.val

    def __eq__(self, o):  # noqa: D105 - structural use is not intended
        o = self._cmp(o)
        return self.val == o.val

    __hash__ = None

    def __repr__(self):
        return f"Dual({self.val}, {self.grad})"


@dataclass(slots=True, frozen=True)
class Active:
    """The active index set I_F(X) of (4) at one input, with how it was obtained.

    ``method`` is "exact-ad" (exact rational forward-mode differentiation) or "finite-difference"
    (mpmath central differences: numerical evidence only). ``differentiable`` is False when the exact
    path met a comparison of equal values with different gradients (X is then in the measure-zero set
    the definition excludes, or at least not shown to be outside it)."""

    indices: frozenset
    method: str
    differentiable: bool
    value: Fraction | None = None
    first_order_ties: int = 0


def _as_vectors(X) -> list[tuple]:
    out = []
    for x in X:
        if isinstance(x, (list, tuple)):
            out.append(tuple(Fraction(v) for v in x))
        else:
            out.append((Fraction(x),))
    return out


def active_index_set(F: Callable, X, fd_dps: int = 50) -> Active:
    """I_F(X) = {t : dF/dx(t) != 0 at X} (equation (4)); positions are 1-based."""
    Xv = _as_vectors(X)
    rec = TieRecorder()
    duals = [tuple(Dual(v, {(t, j): Fraction(1)}, rec) for j, v in enumerate(x)) for t, x in enumerate(Xv, 1)]
    try:
        y = F(duals)
        if isinstance(y, Dual):
            idx = frozenset(t for (t, _j), g in y.grad.items() if g != 0)
            return Active(idx, "exact-ad", rec.bad_ties == 0, y.val, rec.ties)
        if isinstance(y, (int, Fraction)) and not isinstance(y, bool):  # constant target
            return Active(frozenset(), "exact-ad", True, Fraction(y), rec.ties)
    except TypeError:
        pass
    return _finite_difference(F, Xv, fd_dps)


FD_STEP_DIGITS = 20      # h = 10^-20 at 50 significant digits
FD_THRESHOLD_DIGITS = 10  # |central difference| > 10^-10 counts as a non-zero partial derivative


def _finite_difference(F, Xv, dps: int) -> Active:
    """Central differences (F(x + h e) - F(x - h e)) / (2h) in mpmath at ``dps`` digits, h = 10^-20,
    threshold 10^-10: a non-zero partial of size > 10^-10 is found, truncation error is O(h^2 F''')
    and rounding O(10^-dps / h) = 10^-30, both far below the threshold. Numerical evidence only."""
    import mpmath

    with mpmath.workdps(dps):
        base = [[mpmath.mpf(v.numerator) / v.denominator for v in x] for x in Xv]
        h = mpmath.mpf(10) ** (-FD_STEP_DIGITS)
        thr = mpmath.mpf(10) ** (-FD_THRESHOLD_DIGITS)
        method = "finite-difference"
        if isinstance(F(base), float):
            # the target drops to float64 (e.g. math.exp): a 10^-20 step would vanish; use the float64
            # step 2^-20 and threshold 10^-6 instead, and say so (use mpmath functions for 50 digits)
            h, thr, method = mpmath.mpf(2) ** -20, mpmath.mpf(10) ** -6, "finite-difference-float64"
        idx = set()
        for t, x in enumerate(base, 1):
            for j in range(len(x)):
                up = [list(r) for r in base]
                dn = [list(r) for r in base]
                up[t - 1][j] += h
                dn[t - 1][j] -= h
                try:
                    dfx = (F(up) - F(dn)) / (2 * h)
                except Exception as e:
                    raise ModelError(f"target failed under finite differences: {e.__class__.__name__}: {e}") from None
                if abs(dfx) > thr:
                    idx.add(t)
        return Active(frozenset(idx), method, True, None, 0)


# ------------------------------------------------------------------------------------------------
# update rules


class Sub(tuple):
    """A subsequence X[I]: the vectors x(i) for i in I, in increasing i. ``.indices`` holds I."""

    indices: tuple

    def __new__(cls, items, indices):
        obj = super().__new__(cls, items)
        obj.indices = tuple(indices)
        return obj


@dataclass(slots=True, frozen=True)
class MaxRetrieval:
    """Rule (1): one score function A(X[I(t,l)], X[I(s,l)]) per head; residual connection kept."""

    scores: tuple
    name = "max-retrieval"


@dataclass(slots=True, frozen=True)
class GlobalAggregation:
    """Rule (2): I(t, l+1) = {1, ..., T}."""

    name = "global"


@dataclass(slots=True, frozen=True)
class SpecificPositions:
    """Rule (3): I(t, l+1) = union of I(j, l) over j in I'(t, l+1) = select(t, l+1)."""

    select: Callable
    name = "specific"


@dataclass(slots=True, frozen=True)
class Keep:
    """No update: I(t, l+1) = I(t, l)."""

    name = "keep"


@dataclass(slots=True)
class Layer:
    """One layer: ``heads`` h_l, embedding dimension ``emb`` E_l, and a rule for each position
    (``rules[t]``, 1..T+1), with ``default`` for positions not listed."""

    heads: int
    emb: int
    default: object = field(default_factory=Keep)
    rules: dict = field(default_factory=dict)

    def rule(self, t: int):
        return self.rules.get(t, self.default)


@dataclass(slots=True)
class Trace:
    """The information sets of one run: ``sets[l][t]`` for l = 0..L, t = 1..T+1 (index 0 unused), and
    for every (t, l+1) the rule used and, for rule (1), the selected positions ``picks[l+1][t]``."""

    T: int
    sets: list
    rules: list
    picks: list
    ties: list

    def I(self, t: int, l: int) -> frozenset:  # noqa: E743 - the paper's name
        return self.sets[l][t]

    @property
    def L(self) -> int:
        return len(self.sets) - 1

    @property
    def any_tie(self) -> bool:
        return any(self.ties)


@dataclass(slots=True)
class InfoFlowModel:
    """An InfoFlow model: sequence length T, token dimension d, and layers."""

    T: int
    d: int
    layers: list

    def __post_init__(self):
        if not isinstance(self.T, int) or self.T < 1:
            raise InvalidParameter(f"T={self.T!r}: must be a positive integer")
        if not isinstance(self.d, int) or self.d < 1:
            raise InvalidParameter(f"d={self.d!r}: must be a positive integer")
        for i, lay in enumerate(self.layers, 1):
            if lay.heads < 0 or lay.emb < 1:
                raise InvalidParameter(f"layer {i}: heads={lay.heads!r}, emb={lay.emb!r}: need heads >= 0, emb >= 1")
            for t, r in list(lay.rules.items()) + [(None, lay.default)]:
                if isinstance(r, MaxRetrieval) and len(r.scores) > lay.heads:
                    raise InvalidParameter(f"layer {i}: rule for position {t or 'default'} uses {len(r.scores)} heads, "
                                           f"but the layer has h={lay.heads}")
                if isinstance(r, GlobalAggregation) and lay.heads < 1:
                    raise InvalidParameter(f"layer {i}: global aggregation needs a head, the layer has h=0")

    @property
    def L(self) -> int:
        return len(self.layers)

    @property
    def heads(self) -> tuple:
        return tuple(lay.heads for lay in self.layers)

    @property
    def embs(self) -> tuple:
        return tuple(lay.emb for lay in self.layers)

    def run(self, X, choices: Sequence[int] = ()) -> Trace:
        """Information sets I(t, l) for the input X (T vectors of dimension d, exact rationals).

        At a tie between argmax candidates whose sets differ, the k-th tie takes candidate number
        ``choices[k]`` (default 0, the smallest position); ``Trace.ties`` lists (t, l+1, head, options)."""
        Xv = _as_vectors(X)
        pending = list(choices)
        T = self.T
        if len(Xv) != T or any(len(x) != self.d for x in Xv):
            raise ModelError(f"input has {len(Xv)} tokens of dimensions {sorted({len(x) for x in Xv})}; "
                             f"the model needs T={T} tokens of dimension d={self.d}")
        cur = [frozenset()] + [frozenset({t}) for t in range(1, T + 1)] + [frozenset()]   # (3)
        sets, rules, picks, ties = [cur], [None], [None], []
        for l, lay in enumerate(self.layers):
            new = [frozenset()] * (T + 2)
            rl = [None] * (T + 2)
            pk = [None] * (T + 2)
            for t in range(1, T + 2):
                r = lay.rule(t)
                rl[t] = r.name
                if isinstance(r, Keep):
                    new[t] = cur[t]
                elif isinstance(r, GlobalAggregation):
                    new[t] = frozenset(range(1, T + 1))
                elif isinstance(r, SpecificPositions):
                    sel = frozenset(r.select(t, l + 1))
                    if not sel <= set(range(1, T + 2)):
                        raise ModelError(f"I'({t},{l + 1}) = {sorted(sel)}: positions must lie in 1..{T + 1}")
                    pk[t] = tuple(sorted(sel))
                    new[t] = frozenset().union(*(cur[j] for j in sel)) if sel else frozenset()
                elif isinstance(r, MaxRetrieval):
                    chosen = []
                    for i, A in enumerate(r.scores, 1):
                        cands = _argmax(A, Xv, cur, t, T, l, i)
                        k = 0
                        if len({cur[c] for c in cands}) > 1:  # a tie that matters
                            k = pending.pop(0) if pending else 0
                            ties.append((t, l + 1, i, len(cands)))
                        chosen.append(cands[k])
                    pk[t] = tuple(chosen)
                    new[t] = frozenset().union(cur[t], *(cur[s] for s in chosen))
                else:
                    raise ModelError(f"unknown update rule {r!r}")
            sets.append(new)
            rules.append(rl)
            picks.append(pk)
            cur = new
        return Trace(T, sets, rules, picks, ties)


def _sub(Xv, I) -> Sub:
    idx = sorted(I)
    return Sub([Xv[i - 1] for i in idx], idx)


def _argmax(A, Xv, cur, t, T, l, head) -> list[int]:
    """All s in 1..T attaining max A(X[I(t,l)], X[I(s,l)]) (s_{i,l}(t) of rule (1)), increasing."""
    best, best_s = None, []
    mine = _sub(Xv, cur[t])
    for s in range(1, T + 1):
        try:
            v = A(mine, _sub(Xv, cur[s]))
        except ValueError as e:
            raise ModelError(f"score of head {head} at layer {l + 1} fails for position {t} against {s} "
                             f"(I({t},{l}) = {sorted(cur[t])}): {e}") from None
        if best is None or v > best:
            best, best_s = v, [s]
        elif v == best:
            best_s.append(s)
    return best_s


# ------------------------------------------------------------------------------------------------
# learning, Number of Comparison, cost law


@dataclass(slots=True, frozen=True)
class LearnCheck:
    """Outcome of checking I_F(X) subset of I(T+1, L) on many inputs.

    ``failures`` holds inputs where it fails with strict comparisons everywhere (model and target):
    then every selection is locally constant, so it fails on an open set, i.e. with positive measure,
    and the a.e. statement is refuted. ``skipped`` counts inputs with a tie (measure-zero set)."""

    checked: int
    skipped: int
    failures: tuple
    method: str

    @property
    def learns(self) -> bool:
        return not self.failures


MAX_BRANCHES = 256


def branches(model: InfoFlowModel, X) -> list[Trace]:
    """The runs of the model for every way of breaking the ties that matter (at most MAX_BRANCHES):
    a depth-first walk over choice sequences, each run taking the default candidate after its prefix."""
    out, seen, stack = [], set(), [()]
    while stack:
        ch = stack.pop()
        tr = model.run(X, ch)
        full = tuple(ch) + (0,) * (len(tr.ties) - len(ch))
        if full in seen:
            continue
        seen.add(full)
        out.append(tr)
        if len(out) > MAX_BRANCHES:
            raise ModelError(f"more than {MAX_BRANCHES} tie-breaking branches at one input")
        for k in range(len(ch), len(tr.ties)):
            for c in range(1, tr.ties[k][3]):
                stack.append(full[:k] + (c,))
    return out


def learns_at(model: InfoFlowModel, F: Callable, X) -> tuple[bool, Trace, Active]:
    """(I_F(X) subset of I(T+1, L), the default run, the active set) at one input."""
    tr = model.run(X)
    act = active_index_set(F, X)
    return act.indices <= tr.I(model.T + 1, model.L), tr, act


def check_learns(model: InfoFlowModel, F: Callable, inputs: Iterable) -> LearnCheck:
    """At each input, every tie-breaking branch is run. All branches learn: the input counts as
    learned. All fail (and the target is differentiable there): a failure, which holds on an open
    neighbourhood, provided the score functions and the target's compared pieces are continuous (as
    the paper's are): then every strict comparison, hence every selection and I_F, is locally
    constant. Mixed, a non-differentiable target point, or more than MAX_BRANCHES tie-breaking branches
    (many exact ties, as on the diagonal of a grid): skipped (a measure-zero situation)."""
    checked = skipped = 0
    fails = []
    method = "exact-ad"
    for X in inputs:
        act = active_index_set(F, X)
        if act.method != "exact-ad":
            method = act.method
        try:
            oks = {act.indices <= tr.I(model.T + 1, model.L) for tr in branches(model, X)}
        except ModelError:      # too many ties (e.g. all tokens equal on a grid): a measure-zero input
            skipped += 1
            continue
        if not act.differentiable or len(oks) > 1:
            skipped += 1
            continue
        checked += 1
        if oks == {False}:
            fails.append(tuple(tuple(x) for x in _as_vectors(X)))
    return LearnCheck(checked, skipped, tuple(fails), method)


def grid_inputs(T: int, d: int, values: Sequence) -> Iterable[list]:
    """Every input whose coordinates lie in ``values`` (|values|^(T d) inputs)."""
    from itertools import product

    vals = [Fraction(v) for v in values]
    for flat in product(vals, repeat=T * d):
        yield [tuple(flat[t * d:(t + 1) * d]) for t in range(T)]


def random_inputs(T: int, d: int, count: int, seed: int = 0, lo=-1, hi=1, bits: int = 10) -> Iterable[list]:
    """Seeded dyadic inputs in [lo, hi]^(T d) (exact rationals)."""
    rng = random.Random(seed)
    lo, hi = Fraction(lo), Fraction(hi)
    for _ in range(count):
        yield [tuple(lo + (hi - lo) * Fraction(rng.randrange(0, (1 << bits) + 1), 1 << bits) for _ in range(d))
               for _ in range(T)]


def number_of_comparison(model: InfoFlowModel, trace: Trace, beta1: int) -> int:
    """Formula (5): sum_{t<=T} sum_{l=1}^{L-1} (|I(t,l)|^b - 1 + h_l (T-1))
    + sum_{l=1}^{L} (|I(T+1,l)|^b - 1 + h_l (T-1)), exactly as printed (an empty set contributes -1)."""
    T, L, h = model.T, model.L, model.heads
    tot = 0
    for t in range(1, T + 1):
        for l in range(1, L):
            tot += len(trace.I(t, l)) ** beta1 - 1 + h[l - 1] * (T - 1)
    for l in range(1, L + 1):
        tot += len(trace.I(T + 1, l)) ** beta1 - 1 + h[l - 1] * (T - 1)
    return tot


def number_of_comparison_bound(T: int, heads: Sequence[int], M: int, beta1: int) -> int:
    """Formula (5) with every |I(t,l)| replaced by M (its largest value when all sets have size <= M)."""
    L = len(heads)
    per = M ** beta1 - 1
    return T * (L - 1) * per + L * per + (T - 1) * (T * sum(heads[:-1]) + sum(heads))


def min_M(T: int, heads: Sequence[int], beta1: int, target_lower: int, cap: int | None = None) -> int | None:
    """Step 1 of 5.3: the smallest M with (5) at |I| = M at least the target's Number of Comparison
    (None if even M = cap, default T+1 positions, is not enough)."""
    cap = cap or (T + 1)
    for M in range(1, cap + 1):
        if number_of_comparison_bound(T, heads, M, beta1) >= target_lower:
            return M
    return None


def cost_exponent(size, d, emb) -> Fraction:
    """The cost law of 5.2: an update whose (effective) set size is ``size`` costs O(eps^(1 - size d/E))."""
    return 1 - Fraction(size * d, emb)


def update_costs(model: InfoFlowModel, trace: Trace) -> list[tuple[int, int, str, Fraction]]:
    """(t, l+1, rule, exponent) for every update with a non-trivial cost law (Keep costs nothing):
    1. max retrieval: 1 - |I(t,l+1)| d / E_{l+1};  2. global: 1 - T d / E_{l+1};
    3. specific positions: 1 - |I'(t,l+1)| max_s |I(s,l)| d / E_{l+1}."""
    out = []
    d = model.d
    for l, lay in enumerate(model.layers):
        for t in range(1, model.T + 2):
            r = trace.rules[l + 1][t]
            if r == "max-retrieval":
                out.append((t, l + 1, r, cost_exponent(len(trace.I(t, l + 1)), d, lay.emb)))
            elif r == "global":
                out.append((t, l + 1, r, cost_exponent(model.T, d, lay.emb)))
            elif r == "specific":
                k = len(trace.picks[l + 1][t]) * max(len(trace.I(s, l)) for s in range(1, model.T + 2))
                out.append((t, l + 1, r, cost_exponent(k, d, lay.emb)))
    return out


def total_cost(model: InfoFlowModel, trace: Trace):
    """The total parameter cost, a sympy expression in eps: the sum over all (t, l) of eps^(exponent)
    (each O(.) with constant 1), and the dominant exponent (the smallest one; cost = O(eps^that))."""
    import sympy

    eps = sympy.Symbol("eps", positive=True)
    terms = update_costs(model, trace)
    expr = sympy.Add(*[eps ** sympy.Rational(e.numerator, e.denominator) for _t, _l, _r, e in terms])
    dom = min((e for *_, e in terms), default=None)
    return expr, dom


COST_MODES = ("max-retrieval", "global", "specific")


def cost_law(mode: str, size=None, d=None, E=None, T=None, n_select=None, max_prev=None):
    """The cost law of 5.2 for one update as a sympy expression in eps; any argument left out stays a
    symbol (|I|, d, E, T, |I'|, max_s |I(s,l)|):

    1. max-position retrieval: eps^(1 - |I(t,l+1)| d / E_{l+1})
    2. global aggregation:     eps^(1 - T d / E_{l+1})
    3. specific positions:     eps^(1 - |I'(t,l+1)| max_s |I(s,l)| d / E_{l+1})"""
    import sympy

    if mode not in COST_MODES:
        raise InvalidParameter(f"mode={mode!r}: must be one of {COST_MODES}")

    def val(x, name):
        if x is None:
            return sympy.Symbol(name, positive=True)
        return sympy.Rational(Fraction(x).numerator, Fraction(x).denominator)

    eps = sympy.Symbol("eps", positive=True)
    d_, E_ = val(d, "d"), val(E, "E")
    if mode == "max-retrieval":
        k = val(size, "I")
    elif mode == "global":
        k = val(T, "T")
    else:
        k = val(n_select, "Iprime") * val(max_prev, "maxI")
    return eps ** (1 - k * d_ / E_)

"""Exact minima of the comparison-tree lower-bound abstractions (docs/trees.md) by SAT/SMT.

The problems are the checker's own SMT-LIB text (checker/treecover.py). The minimum m is decided by
descending from a known family: z3 finds a family with quantity <= K (its model is replayed), until
'<= m - 1' is unsat; that last query is re-run on cvc5, and the minimum counts only when both solvers
answer unsat. z3 and cvc5 are imported lazily."""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations, permutations

from .checker import smtlib, treecover
from .checker.trees import Reject
from .errors import InvalidParameter

REQUIRED = ("z3", "cvc5")


@dataclass(slots=True, frozen=True)
class TreeMin:
    """The outcome for one (target, T, D). ``minimum`` is None unless both solvers said unsat at
    minimum - 1 (or minimum is 0) and the witness replays."""

    target: str
    T: int
    D: int
    minimum: int | None
    witness: list
    problem_below: str | None
    solvers: dict
    seconds: float
    reason: str = ""


def paper_bounds(target: str, T: int, D: int) -> tuple[int, int | None]:
    """(lower, upper) as printed: D-retrieval D(T-D) and D(T-1) (Sec. 5.3, App. D); pairwise C(T,2)
    leaves (B.1: every pair is a leaf) and T^2 leaves per tree for D trees (B.1); triangle C(T,3) leaves,
    i.e. C(T,3) - 3 comparisons (D.1), and T^3 leaves, i.e. T^3 - 1 comparisons (D.1)."""
    from math import comb

    if target == "dretrieval":
        return D * (T - D), D * (T - 1)
    if target == "pairwise":
        return comb(T, 2), D * T * T
    return comb(T, 3), T ** 3


def params(target, T, D) -> tuple[str, int, int]:
    try:
        return treecover.params(target, T, D)
    except Reject as e:
        raise InvalidParameter(str(e)) from None


def _z3_model(text: str, timeout_s: float):
    """z3's model of ``text`` as {name: value}, or its answer when there is none. A fresh context per
    query, so that the model (and so the certificate) does not depend on earlier queries."""
    import z3

    ctx = z3.Context()
    solver = z3.Solver(ctx=ctx)
    solver.set("rlimit", smtlib.Z3_RLIMIT * smtlib.TREE_SCALE)  # the verdict's limit (deterministic)
    solver.set("timeout", max(1, int(timeout_s * 1000)))  # a safety kill only
    solver.add(z3.parse_smt2_string(text, ctx=ctx))
    answer = solver.check()
    if answer != z3.sat:
        return str(answer)
    model = solver.model()
    return {d.name(): model[d] for d in model.decls()}


def _family_from_model(target: str, T: int, D: int, model: dict) -> list:
    import z3

    def true(name):
        v = model.get(name)
        if v is None:
            return False
        return z3.is_true(v) if z3.is_bool(v) else (v.as_fraction() == 1 if z3.is_rational_value(v) else False)

    if target == "dretrieval":
        return [[t for t in range(1, T + 1) if true(f"x_{j}_{t}")] for j in range(1, D + 1)]
    U = treecover.universe(target, T)
    return [[list(u) for u in U if true(f"c_{j}_{'_'.join(map(str, u))}")]
            for j in range(1, treecover.n_trees(target, D) + 1)]


def start_family(target: str, T: int, D: int) -> list:
    """A family that covers by construction: D.1's D full trees; every pair/triple once, dealt round
    robin over the allowed number of trees."""
    if target == "dretrieval":
        return [list(range(1, T + 1)) for _ in range(D)]
    k = treecover.n_trees(target, D)
    fam: list = [[] for _ in range(k)]
    for i, u in enumerate(treecover.universe(target, T)):
        fam[i % k].append(list(u))
    return fam


def canonical(target: str, fam: list) -> list:
    """Sorted trees (trees are unordered), so a certificate does not depend on tree order."""
    return sorted(fam) if target == "dretrieval" else sorted(sorted(t) for t in fam)


def solve(target: str, T: int, D: int, timeout: float = 60.0) -> TreeMin:
    """The exact minimum of the abstraction for (target, T, D)."""
    target, T, D = params(target, T, D)
    t0 = time.perf_counter()
    have = smtlib.available()
    missing = [s for s in REQUIRED if s not in have]
    fam = start_family(target, T, D)
    best = treecover.replay(target, T, D, fam)
    if missing:
        return TreeMin(target, T, D, None, canonical(target, fam), None, {}, time.perf_counter() - t0,
                       f"{' and '.join(missing)} not installed: the minimum needs both solvers")
    while best > 0:
        left = timeout - (time.perf_counter() - t0)
        if left <= 0:
            return TreeMin(target, T, D, None, canonical(target, fam), None, {}, time.perf_counter() - t0,
                           f"timeout after {timeout:g}s with a family of {best}")
        text = treecover.problem(target, T, D, best - 1)
        model = _z3_model(text, left)
        if isinstance(model, str):
            if model != "unsat":
                return TreeMin(target, T, D, None, canonical(target, fam), None, {"z3": model},
                               time.perf_counter() - t0, f"z3 answered {model} at K = {best - 1}")
            break
        cand = _family_from_model(target, T, D, model)
        q = treecover.replay(target, T, D, cand)  # a model is used only after the replay
        if q >= best:
            raise RuntimeError("z3 model does not improve the family")  # cannot happen: K = best - 1
        fam, best = cand, q
    if best == 0:
        return TreeMin(target, T, D, 0, canonical(target, fam), None, {}, time.perf_counter() - t0)
    text = treecover.problem(target, T, D, best - 1)
    answers = {"z3": "unsat"}
    left = max(1.0, timeout - (time.perf_counter() - t0))
    answers["cvc5"] = smtlib.SOLVERS["cvc5"](text, left, smtlib.TREE_SCALE)
    seconds = time.perf_counter() - t0
    if answers["cvc5"] != "unsat":
        return TreeMin(target, T, D, None, canonical(target, fam), None, answers, seconds,
                       f"cvc5 answered {answers['cvc5']} at K = {best - 1} (z3: unsat)")
    return TreeMin(target, T, D, best, canonical(target, fam), text, answers, seconds)


# ------------------------------------------------------------------------------------ brute force

def brute_force(T: int, D: int, deadline: float | None = None) -> int | None:
    """The D-retrieval minimum by enumerating every family of D non-empty leaf sets (as multisets of
    bitmasks) and testing every D-subset for a one-to-one matching. None past ``deadline``."""
    from itertools import combinations_with_replacement

    subsets = list(combinations(range(T), D))
    best = D * (T - 1)
    masks = range(1, 1 << T)
    for n, fam in enumerate(combinations_with_replacement(masks, D)):
        if deadline is not None and n % 4096 == 0 and time.perf_counter() > deadline:
            return None
        q = sum(bin(m).count("1") - 1 for m in fam)
        if q >= best:
            continue
        if all(any(all(fam[j] >> p[j] & 1 for j in range(D)) for p in permutations(s)) for s in subsets):
            best = q
    return best

"""Exact minima of the comparison-tree lower-bound abstractions (docs/trees.md) by SAT/SMT.

The prover's own encoding, built through z3's and cvc5's Python APIs (``encode``); the checker writes
its own SMT-LIB text of the same abstraction (checker/treecover.py) and re-runs it, so the two
encodings have to agree. The minimum m is decided by descending from a known family: z3 finds a
family with quantity <= K (its model is replayed), until '<= m - 1' is unsat; that query is re-run on
cvc5, and the minimum counts only when both solvers answer unsat. Each query runs in a child process
under the solvers' deterministic resource limits (a wall clock is only a safety kill). z3 and cvc5 are
imported lazily.

Abstractions (the quantity each problem bounds by K):
  dretrieval  D trees, leaf union I_j of tree j a subset of [T]; every D-subset of [T] must be matched
              one-to-one to trees j with t in I_j. Quantity: sum_j (|I_j| - 1).
  pairwise    at most 2D trees; every pair {s,t} is a leaf (B.1). Quantity: the number of leaves.
  triangle    at most 3 trees; every triple of distinct indices is a leaf (D.1). Quantity: leaves.
For the last two the problem is the linear relaxation (a cover variable in [0, 1]): its unsat implies
the 0/1 problem's."""

from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import combinations, permutations
from math import comb

from attncert.core.errors import InvalidParameter

REQUIRED = ("z3", "cvc5")
TARGETS = ("dretrieval", "pairwise", "triangle")
MAX_T = {"dretrieval": 24, "pairwise": 10, "triangle": 8}
# names the encodings; obligations carry it in their options, so the result cache misses when it changes
ENCODING = "dretrieval: matching + cardinality (z3 AtMost, cvc5 totalizer); leaves: linear relaxation (v4)"
MAX_MATCHING = 100_000  # C(T, D) D^2 matching variables, the checker's limit too
TREE_SCALE = 20  # the tree problems get 20x the solvers' resource limits


@dataclass(slots=True, frozen=True)
class TreeMin:
    """The outcome for one (target, T, D). ``minimum`` is None unless both solvers said unsat at
    minimum - 1 (or minimum is 0) and the witness replays."""

    target: str
    T: int
    D: int
    minimum: int | None
    witness: list
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
    """Validate (target, T, D); raises InvalidParameter naming the bad value."""
    if target not in TARGETS:
        raise InvalidParameter(f"target {str(target)[:30]!r}: must be one of {', '.join(TARGETS)}")
    if type(T) is not int or type(D) is not int:
        raise InvalidParameter("T and D must be integers")
    ok = {"dretrieval": 1 <= D <= T <= MAX_T[target], "pairwise": 2 <= T <= MAX_T[target] and 1 <= D <= 3,
          "triangle": 3 <= T <= MAX_T[target] and D == 3}[target]
    if ok and target == "dretrieval" and comb(T, D) * D * D > MAX_MATCHING:
        raise InvalidParameter(f"T={T}, D={D}: C(T, D) D^2 = {comb(T, D) * D * D:,} matching variables, more than "
                               f"{MAX_MATCHING:,} (the checker's limit)")
    if not ok:
        need = {"dretrieval": f"1 <= D <= T <= {MAX_T[target]}", "pairwise": f"2 <= T <= {MAX_T[target]}, 1 <= D <= 3",
                "triangle": f"3 <= T <= {MAX_T[target]} and D = D_0 = 3"}[target]
        raise InvalidParameter(f"T={T}, D={D}: {target} needs {need}")
    return target, T, D


def defined_name(kind: str, target: str, T: int, D: int, g: int | None = None) -> str:
    """The name of the claim's defined variable; it spells out the problem (a format the checker reads)."""
    return f"failures[{target},T={T},D={D},g={g}]" if kind == "treegrid" else f"nmin[{target},T={T},D={D}]"


def n_trees(target: str, D: int) -> int:
    return 2 * D if target == "pairwise" else D


def universe(target: str, T: int) -> list[tuple[int, ...]]:
    """The index sets every family must have as leaves (pairwise: pairs, triangle: triples)."""
    return list(combinations(range(1, T + 1), 2 if target == "pairwise" else 3))


def replay(target: str, T: int, D: int, fam: list) -> int:
    """The family's quantity, after checking that it covers (raises ValueError if it does not)."""
    if len(fam) != n_trees(target, D):
        raise ValueError(f"a family has {n_trees(target, D)} trees")
    if target == "dretrieval":
        sets = [frozenset(t) for t in fam]
        if not all(sets) or any(not 1 <= t <= T for s in sets for t in s):
            raise ValueError("every tree needs leaves in [1, T]")
        for s in combinations(range(1, T + 1), D):
            if not any(all(p[j] in sets[j] for j in range(D)) for p in permutations(s)):
                raise ValueError(f"the family misses the active set {list(s)}")
        return sum(len(x) - 1 for x in sets)
    leaves = {tuple(leaf) for tree in fam for leaf in tree}
    if not set(universe(target, T)) <= leaves:
        raise ValueError("the family misses a leaf")
    return sum(len(tree) for tree in fam)


def _at_most(B, xs: list, k: int, tag: str) -> list:
    """'at most k of xs' as clauses: z3's AtMost where the builder has it, else a totalizer (Bailleux
    and Boufkhad 2003): a binary tree whose node o_i means 'at least i inputs below are true'."""
    if k >= len(xs):
        return []
    if hasattr(B, "z3"):
        return [B.z3.AtMost(*xs, k)]
    out, count = [], [0]

    def node(ys):
        if len(ys) == 1:
            return ys
        a, b = node(ys[: len(ys) // 2]), node(ys[len(ys) // 2:])
        m = min(len(a) + len(b), k + 1)
        count[0] += 1
        o = [B.boolean(f"tot{tag}_{count[0]}_{i}") for i in range(1, m + 1)]
        for i in range(len(a) + 1):  # i of a's and j of b's true => i + j of o's true
            for j in range(len(b) + 1):
                if 0 < i + j <= m:
                    lhs = ([a[i - 1]] if i else []) + ([b[j - 1]] if j else [])
                    out.append(B.implies(B.and_(lhs), o[i + j - 1]))
        return o

    top = node(list(xs))
    out.append(B.not_(top[k]))
    return out


def encode(B, target: str, T: int, D: int, K: int) -> tuple[list, dict]:
    """The facts 'a family with quantity <= K exists' in builder B, and {name: term} of the family."""
    if target == "dretrieval":
        x = {(j, t): B.boolean(f"x_{j}_{t}") for j in range(1, D + 1) for t in range(1, T + 1)}
        facts = []
        for s in combinations(range(1, T + 1), D):
            m = {(t, j): B.boolean(f"m_{'_'.join(map(str, s))}_{t}_{j}") for t in s for j in range(1, D + 1)}
            facts += [B.implies(m[t, j], x[j, t]) for (t, j) in m]
            facts += [B.or_([m[t, j] for j in range(1, D + 1)]) for t in s]
            facts += [B.not_(B.and_([m[a, j], m[b, j]])) for j in range(1, D + 1) for a, b in combinations(s, 2)]
        facts += _at_most(B, list(x.values()), K + D, "")  # sum |I_j| <= K + D
        return facts, {f"x_{j}_{t}": v for (j, t), v in x.items()}
    zero, one = B.num(0), B.num(1)
    c = {(j, u): B.real(f"c_{j}_{'_'.join(map(str, u))}") for j in range(1, n_trees(target, D) + 1)
         for u in universe(target, T)}
    facts = [B.and_([B.rel("le", zero, v), B.rel("le", v, one)]) for v in c.values()]
    facts += [B.rel("ge", B.add([c[j, u] for j in range(1, n_trees(target, D) + 1)]), one) for u in universe(target, T)]
    facts.append(B.rel("le", B.add(list(c.values())), B.num(K)))
    return facts, {f"c_{j}_{'_'.join(map(str, u))}": v for (j, u), v in c.items()}


def query(solver: str, target: str, T: int, D: int, K: int, timeout_s: float, want_model: bool):
    """(answer, model or None) of one solver on 'quantity <= K', under the deterministic resource
    limit times TREE_SCALE. Runs in the solver's worker process (``in_worker``)."""
    from attncert.backends.solver_terms import BUILDERS

    B = BUILDERS[solver]()
    facts, names = encode(B, target, T, D, K)
    return B.solve(facts, timeout_s, TREE_SCALE, model_of=names if want_model else None)


def _query(solver: str, target: str, T: int, D: int, K: int, timeout_s: float, want_model: bool = False):
    from attncert.backends.solver_terms import in_worker

    tag, out = in_worker(solver, query, (solver, target, T, D, K, timeout_s, want_model), timeout_s + 2.0)
    return out if tag == "ok" else (str(out), None)


def _family_from_model(target: str, T: int, D: int, model: dict) -> list:
    if target == "dretrieval":
        return [[t for t in range(1, T + 1) if model.get(f"x_{j}_{t}") is True] for j in range(1, D + 1)]
    # a relaxation's model may be fractional: every leaf goes to the tree where it is largest, so the
    # family covers; it counts only after the replay and only if it improves
    fam: list = [[] for _ in range(n_trees(target, D))]
    for u in universe(target, T):
        vals = [model.get(f"c_{j}_{'_'.join(map(str, u))}", 0) for j in range(1, n_trees(target, D) + 1)]
        fam[vals.index(max(vals))].append(list(u))
    return fam


def start_family(target: str, T: int, D: int) -> list:
    """A family that covers by construction: D.1's D full trees; every pair/triple once, dealt round
    robin over the allowed number of trees."""
    if target == "dretrieval":
        return [list(range(1, T + 1)) for _ in range(D)]
    k = n_trees(target, D)
    fam: list = [[] for _ in range(k)]
    for i, u in enumerate(universe(target, T)):
        fam[i % k].append(list(u))
    return fam


def canonical(target: str, fam: list) -> list:
    """Sorted trees (trees are unordered), so a certificate does not depend on tree order."""
    return sorted(fam) if target == "dretrieval" else sorted(sorted(t) for t in fam)


def solve(target: str, T: int, D: int, timeout: float = 60.0) -> TreeMin:
    """The exact minimum of the abstraction for (target, T, D)."""
    import importlib.util

    target, T, D = params(target, T, D)
    t0 = time.perf_counter()

    def out(minimum, solvers, reason=""):
        return TreeMin(target, T, D, minimum, canonical(target, fam), solvers, time.perf_counter() - t0, reason)

    missing = [s for s in REQUIRED if importlib.util.find_spec(s) is None]
    fam = start_family(target, T, D)
    best = replay(target, T, D, fam)
    if missing:
        return out(None, {}, f"{' and '.join(missing)} not installed: the minimum needs both solvers")
    while best > 0:
        left = timeout - (time.perf_counter() - t0)
        if left <= 0:
            return out(None, {}, f"timeout after {timeout:g}s with a family of {best}")
        answer, model = _query("z3", target, T, D, best - 1, left, want_model=True)
        if answer == "unsat":
            break
        if answer != "sat" or model is None:
            return out(None, {"z3": answer}, f"z3 answered {answer} at K = {best - 1}")
        cand = _family_from_model(target, T, D, model)
        q = replay(target, T, D, cand)  # a model is used only after the replay
        if q >= best:  # a fractional relaxation model need not round to a better family
            return out(None, {"z3": "sat"}, f"z3's model at K = {best - 1} does not round to a family below {best}")
        fam, best = cand, q
    if best == 0:
        return out(0, {})
    answers = {"z3": "unsat"}
    answers["cvc5"] = _query("cvc5", target, T, D, best - 1, max(1.0, timeout - (time.perf_counter() - t0)))[0]
    if answers["cvc5"] != "unsat":
        return out(None, answers, f"cvc5 answered {answers['cvc5']} at K = {best - 1} (z3: unsat)")
    return out(best, answers)


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

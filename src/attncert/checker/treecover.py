"""Trees of Comparison, the checker's side (InfoFlow Definitions 1-2, Appendix D.1, B.1).

The finite problems behind the lower-bound arguments, written as SMT-LIB text, and direct replays of
witness families and of the Appendix D upper-bound trees on exact grids. Standard library and
fractions only. The prover (attncert.treesat) builds its own encoding through the solvers' APIs; a
certificate carries no problem text: the checker writes the problem at minimum - 1 itself and re-runs
it, so the two encodings have to agree. See docs/trees.md.

Abstractions (the quantity each problem bounds by K):
  dretrieval  D trees, leaf union I_j of tree j a subset of [T] (leaves are singletons, beta_1 = 1);
              every D-subset S of [T] (the adversary puts the D maximisers anywhere, D.1 step 4)
              must be matched one-to-one to trees j with t in I_j (each root returns one index).
              Quantity: sum_j (|I_j| - 1), the Number of Comparison.
  pairwise    at most 2D trees (D_0 = 2D for target (6)); every pair {s,t}, s != t, is a leaf (B.1).
  triangle    at most 3 trees (D_0 = 3 for target (7)); every triple of distinct indices is a leaf (D.1).
              Quantity for the last two: the total number of leaves. "Every pair/triple is a leaf" is the
              premise of B.1/D.1, an assumption the certificates name (docs/trees.md, finding 3).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, permutations, product
from math import comb

from . import smtlib
from .trees import NO_SOLVER, CannotCheck, Reject

# names the encodings of ``problem``; obligations carry it in their options, so the result cache
# (keyed on options) misses when an encoding changes
ENCODING = "dretrieval: matching + sequential counter; leaves: linear relaxation; triangle grid: perturbed (v3)"
TARGETS = ("dretrieval", "pairwise", "triangle")
MAX_T = {"dretrieval": 24, "pairwise": 10, "triangle": 8}
MAX_MATCHING = 100_000  # C(T, D) D^2, the matching variables of a dretrieval problem (and the replay's work)
PREMISE_TEXT = {"pairwise": "every pair {s, t} must be a leaf of some tree",
                "triangle": "every triple of distinct indices must be a leaf of some tree"}


def defined_name(kind: str, target: str, T: int, D: int, g: int | None = None) -> str:
    """The name of the claim's defined variable. It spells out the problem the variable is defined by, so
    the claim (and its hash) is bound to one (target, T, D[, g]): evidence cannot move between claims."""
    if kind == "treegrid":
        return f"failures[{target},T={T},D={D},g={g}]"
    return f"nmin[{target},T={T},D={D}]"


def params(target, T, D) -> tuple[str, int, int]:
    """Validate (target, T, D); raises Reject naming the bad value."""
    if target not in TARGETS:
        raise Reject(f"target {str(target)[:30]!r}: must be one of {', '.join(TARGETS)}")
    if type(T) is not int or type(D) is not int:
        raise Reject("T and D must be integers")
    if target == "dretrieval" and not 1 <= D <= T <= MAX_T[target]:
        raise Reject(f"T={T}, D={D}: dretrieval needs 1 <= D <= T <= {MAX_T[target]}")
    if target == "dretrieval" and comb(T, D) * D * D > MAX_MATCHING:
        raise Reject(f"T={T}, D={D}: C(T, D) D^2 = {comb(T, D) * D * D:,} matching variables, more than "
                     f"{MAX_MATCHING:,}: too large for the checker")
    if target == "pairwise" and not (2 <= T <= MAX_T[target] and 1 <= D <= 3):
        raise Reject(f"T={T}, D={D}: pairwise needs 2 <= T <= {MAX_T[target]}, 1 <= D <= 3")
    if target.startswith("triangle") and not (3 <= T <= MAX_T[target] and D == 3):
        raise Reject(f"T={T}, D={D}: {target} needs 3 <= T <= {MAX_T[target]} and D = D_0 = 3")
    return target, T, D


def n_trees(target: str, D: int) -> int:
    return 2 * D if target == "pairwise" else D


def universe(target: str, T: int) -> list[tuple[int, ...]]:
    """The index sets that must appear as leaves (pairwise, triangle) or the admissible active sets
    (dretrieval: every D-subset is handled in ``problem``)."""
    return list(combinations(range(1, T + 1), 2 if target == "pairwise" else 3))


def problem(target: str, T: int, D: int, K: int) -> str:
    """SMT-LIB text: 'a family with quantity <= K exists'. unsat proves the minimum > K."""
    target, T, D = params(target, T, D)
    if type(K) is not int or K < 0:
        raise Reject(f"K={K!r}: must be an integer >= 0")
    lines = [f"(set-logic {'QF_UF' if target == 'dretrieval' else 'QF_LRA'})",
             f"; attncert trees: target={target} T={T} D={D} K={K}"]
    body: list[str] = []
    if target == "dretrieval":
        # pure Boolean: the matching per active set, and sum_j |I_j| <= K + D (<=> sum_j (|I_j| - 1) <= K)
        # as a sequential counter (Sinz 2005); cvc5 needs 65 s at T = 12 on the same bound as a sum of ites
        x = [f"x_{j}_{t}" for j in range(1, D + 1) for t in range(1, T + 1)]
        bools = list(x)
        for s in combinations(range(1, T + 1), D):
            tag = "_".join(map(str, s))
            m = {(t, j): f"m_{tag}_{t}_{j}" for t in s for j in range(1, D + 1)}
            bools += m.values()
            body += [f"(=> {m[t, j]} x_{j}_{t})" for t in s for j in range(1, D + 1)]
            body += [f"(or {' '.join(m[t, j] for j in range(1, D + 1))})" for t in s]
            body += [f"(not (and {m[a, j]} {m[c, j]}))" for j in range(1, D + 1) for a, c in combinations(s, 2)]
        counter, clauses = at_most(x, K + D)
        lines += [f"(declare-const {v} Bool)" for v in bools + counter]
        lines += [f"(assert {a})" for a in body + clauses]
    else:
        # the linear relaxation (0 <= c <= 1 real): its unsat implies the 0/1 problem's (z3 times out
        # on the 0/1 pigeonhole)
        U = universe(target, T)
        J = range(1, n_trees(target, D) + 1)
        c = {(j, u): f"c_{j}_{'_'.join(map(str, u))}" for j in J for u in U}
        lines += [f"(declare-const {v} Real)" for v in c.values()]
        lines += [f"(assert (and (<= 0.0 {v}) (<= {v} 1.0)))" for v in c.values()]
        lines += [f"(assert (>= (+ 0.0 {' '.join(c[j, u] for j in J)}) 1.0))" for u in U]
        lines += [f"(assert (<= (+ 0.0 {' '.join(c.values())}) {K}.0))"]
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def at_most(xs: list[str], k: int) -> tuple[list[str], list[str]]:
    """'at most k of xs are true' as a sequential counter (Sinz 2005): s_i_j means 'at least j of
    x_1..x_i are true'. Exact: every assignment with <= k true xs extends to the counter, and none with
    more does. Returns (counter variables, assertions)."""
    n = len(xs)
    if k >= n:
        return [], []
    if k <= 0:
        return [], [f"(not {x})" for x in xs]
    s = {(i, j): f"s_{i}_{j}" for i in range(1, n + 1) for j in range(1, k + 1)}
    out = [f"(=> {xs[0]} {s[1, 1]})"] + [f"(not {s[1, j]})" for j in range(2, k + 1)]
    for i in range(2, n + 1):
        x = xs[i - 1]
        out += [f"(=> {x} {s[i, 1]})", f"(=> {s[i - 1, 1]} {s[i, 1]})"]
        out += [f"(=> (and {x} {s[i - 1, j - 1]}) {s[i, j]})" for j in range(2, k + 1)]
        out += [f"(=> {s[i - 1, j]} {s[i, j]})" for j in range(2, k + 1)]
        out.append(f"(not (and {x} {s[i - 1, k]}))")
    return list(s.values()), out


def _ints(obj, T: int, size: int | None = None) -> tuple[int, ...]:
    if not isinstance(obj, list) or not all(type(t) is int and 1 <= t <= T for t in obj):
        raise Reject("witness index set must be a list of integers in [1, T]")
    if list(obj) != sorted(set(obj)) or (size is not None and len(obj) != size):
        raise Reject("witness index set must be sorted, without repeats, of the right size")
    return tuple(obj)


def replay(target: str, T: int, D: int, witness) -> int:
    """Check a witness family by direct enumeration; return its quantity (comparisons or leaves)."""
    target, T, D = params(target, T, D)
    if not isinstance(witness, list) or len(witness) != n_trees(target, D):
        raise Reject(f"witness must list {n_trees(target, D)} trees")
    if target == "dretrieval":
        sets = [set(_ints(w, T)) for w in witness]
        if not all(sets):
            raise Reject("a tree without leaves")
        for s in combinations(range(1, T + 1), D):
            if not any(all(p[j] in sets[j] for j in range(D)) for p in permutations(s)):
                raise Reject(f"witness family does not cover the active set {list(s)}")
        return sum(len(x) - 1 for x in sets)
    if not all(isinstance(w, list) for w in witness):
        raise Reject("each tree must be a list of leaves")
    k = 2 if target == "pairwise" else 3
    leaves = [_ints(leaf, T, k) for w in witness for leaf in w]
    missing = set(universe(target, T)) - set(leaves)
    if missing:
        raise Reject(f"witness family has no leaf {list(min(missing))}")
    return len(leaves)


# ----------------------------------------------------------------------------------- grids (App. D trees)

def grid(g: int) -> list[Fraction]:
    return [Fraction(i, g) for i in range(g + 1)]


def tournament(leaves: list, key) -> tuple:
    """The root of the balanced Tree of Comparison over ``leaves`` (adjacent pairs, left to right; an
    odd last node is carried up); each internal node keeps argmax key, the left child on a tie."""
    level = list(leaves)
    while len(level) > 1:
        nxt = [a if key(a) >= key(b) else b for a, b in zip(level[::2], level[1::2])]
        level = nxt + ([level[-1]] if len(level) % 2 else [])
    return level[0]


def grid_cover(target: str, T: int, D: int, g: int) -> tuple[int, int, int]:
    """Replay the Appendix D upper-bound trees on every point of an exact grid.
    dretrieval: x(t) in {0, 1/g, .., 1}, f_j(z) = -(z - z_j)^2 with z_j = (2j - 1)/(2D) (distinct
    maximisers, D.1); D trees of T leaves {t}. triangle (d = 1): x(t) = (i - g)/(g + 1) + i^2/(100 g^2),
    i = 0..2g (in [-1, 1]), one tree of T^3 ordered leaves, f_in = -(sum x)^2. A point where the maximiser of the target is not
    unique (a null set) is skipped. Returns (points, skipped, failures)."""
    params(target, T, D)
    if type(g) is not int or not 1 <= g <= 12:
        raise Reject("grid parameter g must be an integer in [1, 12]")
    if target == "dretrieval":
        exact, L = grid(g), 2 * g * D
    elif target == "triangle":  # a perturbed grid in [-1, 1]: uniform steps make most sums tie
        exact = [Fraction(i - g, g + 1) + Fraction(i * i, 100 * g * g) for i in range(2 * g + 1)]
        L = 100 * g * g * (g + 1)
    else:
        raise Reject("grid replay is defined for dretrieval and triangle")
    if len(exact) ** T > 200_000:
        raise Reject("grid too large for the checker (more than 200,000 points)")
    # exact integer arithmetic: the grid values and the z_j times L, so every key below is L^2 times the
    # exact one; keys are only compared with each other and with 0, so every decision is the exact one
    zs = [Fraction(2 * j - 1, 2 * D) for j in range(1, D + 1)] if target == "dretrieval" else []
    scaled = [v * L for v in exact + zs]
    if any(v.denominator != 1 for v in scaled):
        raise Reject("grid scaling is not integral")  # cannot happen (x L = 2Di, z_j L = (2j-1)g)
    values, zs = [int(v) for v in scaled[:len(exact)]], [int(v) for v in scaled[len(exact):]]
    tuples = list(product(range(1, T + 1), repeat=3))
    points = skipped = failures = 0
    for x in product(values, repeat=T):
        points += 1
        if target == "dretrieval":
            active, roots = set(), set()
            for zj in zs:
                vals = [-(x[t - 1] - zj) ** 2 for t in range(1, T + 1)]
                best = max(vals)
                if vals.count(best) > 1:
                    break
                active.add(vals.index(best) + 1)
                roots.add(tournament(list(range(1, T + 1)), lambda t, vals=vals: vals[t - 1]))
            else:
                failures += not active <= roots
                continue
            skipped += 1
        else:
            f = {u: -(x[u[0] - 1] + x[u[1] - 1] + x[u[2] - 1]) ** 2 for u in tuples}
            best = max(f.values())
            winners = {tuple(sorted(u)) for u in tuples if f[u] == best}
            if len(winners) > 1 or best == 0:  # several minimising multisets, or a zero gradient
                skipped += 1
                continue
            active = set(next(iter(winners)))
            failures += not active <= set(tournament(tuples, f.__getitem__))
    return points, skipped, failures


# ----------------------------------------------------------------------------------- evidence (verify)

def check_evidence(ev: dict, solvers: dict, timeout: float) -> tuple[str, int, list[str], list[str]]:
    """Re-check ``treemin`` / ``treegrid`` evidence. Returns (variable, value, checked, trusted): the
    value of the claim's one integer variable that the evidence establishes."""
    target, T, D = params(ev["target"], ev["T"], ev["D"])
    if ev["kind"] == "treegrid":
        if not all(type(ev[k]) is int for k in ("points", "skipped", "failures")):
            raise Reject("grid counts must be integers")
        got = grid_cover(target, T, D, ev["g"])
        if got != (ev["points"], ev["skipped"], ev["failures"]):
            raise Reject(f"grid replay gives (points, skipped, failures) = {got}, not the recorded values")
        if got[1] >= got[0]:
            raise Reject("every grid point was skipped: the grid checks nothing")
        return defined_name("treegrid", target, T, D, ev["g"]), got[2], [f"App. D trees replayed on all {got[0]} grid points (g = {ev['g']}, "
                                    f"{got[1]} with a non-unique maximiser skipped): {got[2]} failures"], []
    m = ev["minimum"]
    if type(m) is not int or m < 0:
        raise Reject("minimum must be an integer >= 0")
    if replay(target, T, D, ev["witness"]) != m:
        raise Reject("witness family does not have the recorded minimum")
    checked = [f"witness family replayed by enumeration: covers, quantity {m}"]
    if m == 0:
        if ev["solvers"] != {}:
            raise Reject("minimum 0 needs no solver evidence")
        return defined_name("treemin", target, T, D), 0, checked + _abstraction(target), []
    if ev["solvers"] != {"cvc5": "unsat", "z3": "unsat"}:
        raise Reject("treemin evidence must record unsat from z3 and cvc5")
    if not solvers:
        raise CannotCheck(f"cannot re-run the tree problem: {NO_SOLVER}")
    text = problem(target, T, D, m - 1)  # the checker's own encoding, never a stored text
    for name, run in solvers.items():
        ans = run(text, timeout, smtlib.TREE_SCALE)
        if ans != "unsat":
            raise Reject(f"{name} answered {ans} (not unsat) on the checker's problem at K = {m - 1}")
    checked.append(f"'quantity <= {m - 1}' unsat on re-run by {', '.join(solvers)}")
    trust = [f"{n} unsat" for n in solvers] + ["SMT-LIB encoding of the tree abstraction (checker/treecover.py, docs/trees.md)"]
    return defined_name("treemin", target, T, D), m, checked + _abstraction(target), trust


def _abstraction(target: str) -> list[str]:
    """What the quantity is: the minimum of the abstraction, not of trees in general. For targets (6) and
    (7) the abstraction is the leaf premise of B.1/D.1, an assumption that the theorem-level records of
    those bounds keep open (docs/trees.md, finding 7); it is not trusted here, because nothing here uses it."""
    if target == "dretrieval":
        return []
    return [f"the quantity is the least number of leaves when {PREMISE_TEXT[target]} (the leaf premise of "
            "B.1/D.1, not derived from Definitions 1-2: the bound on trees themselves stays open)"]

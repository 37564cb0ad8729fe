"""Trees of Comparison (InfoFlow, Definitions 1-2, Appendix D, Figure 2): an executable model.

A Tree of Comparison is a full binary tree. Each leaf holds an ordered index set (repetition allowed);
each internal node holds a function f_in of the input restricted to an index set, and keeps the index
set of the child with the larger f_in value (Definition 1; on a tie the left child, a convention: ties
are a null set for the targets here). Values are exact Fractions (or tuples of Fractions for vectors).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, product
from typing import Callable, Sequence

from attncert.core.errors import InvalidParameter

Index = tuple[int, ...]


@dataclass(slots=True, frozen=True)
class Leaf:
    """A leaf V_l with its ordered index set I_l (1-based positions, repetition allowed)."""

    index: Index


@dataclass(slots=True, frozen=True)
class Node:
    """An internal node V_in: children and the node function f_in(X[I]) (a list of token values)."""

    left: "Leaf | Node"
    right: "Leaf | Node"
    f: Callable[[list], Fraction]


@dataclass(slots=True, frozen=True)
class Tree:
    root: Leaf | Node

    def leaves(self) -> list[Index]:
        out: list[Index] = []
        stack = [self.root]
        while stack:
            n = stack.pop()
            if isinstance(n, Leaf):
                out.append(n.index)
            else:
                stack += [n.right, n.left]
        return out

    @property
    def size(self) -> int:
        """N_leaf(T): the number of leaves."""
        return len(self.leaves())

    @property
    def dimension(self) -> int:
        """max_l |I_l|."""
        return max(len(i) for i in self.leaves())

    def evaluate(self, X: Sequence) -> tuple[Index, list[Index]]:
        """(I_final(X, T), the index sets of the internal nodes in post-order: left subtree, right
        subtree, node)."""
        trace: list[Index] = []

        def go(n) -> Index:
            if isinstance(n, Leaf):
                return n.index
            a, b = go(n.left), go(n.right)
            win = a if n.f(restrict(X, a)) >= n.f(restrict(X, b)) else b
            trace.append(win)
            return win

        return go(self.root), trace

    def final(self, X: Sequence) -> Index:
        return self.evaluate(X)[0]


def restrict(X: Sequence, index: Index) -> list:
    """X[I]: the subsequence at the (1-based) indices of I, in order, repeats kept."""
    return [X[t - 1] for t in index]


def balanced(leaves: Sequence[Index], f: Callable) -> Tree:
    """The full binary tree that pairs adjacent nodes left to right, level by level (an odd last node
    goes up unpaired), with the same f_in at every internal node: ((1,2),(3,4)) for four leaves."""
    if not leaves:
        raise InvalidParameter("a Tree of Comparison needs at least one leaf")
    level: list = [Leaf(tuple(i)) for i in leaves]
    while len(level) > 1:
        nxt = [Node(a, b, f) for a, b in zip(level[::2], level[1::2])]
        level = nxt + ([level[-1]] if len(level) % 2 else [])
    return Tree(level[0])


def number_of_comparison(trees: Sequence[Tree]) -> int:
    """N' = sum_j (N_leaf(T_j) - 1) (Definition 2)."""
    return sum(t.size - 1 for t in trees)


def finals(trees: Sequence[Tree], X: Sequence) -> set[int]:
    return {t for tr in trees for t in tr.final(X)}


# --------------------------------------------------------------------------------------- Figure 2

FIG2_X = (Fraction(1, 10), Fraction(3, 10), Fraction(2, 5), Fraction(1, 5))
# printed internal values in post-order (left pair, right pair, root), panels (a) and (b)
FIG2_PRINTED = {"a": [(2,), (3,), (3,)], "b": [(1,), (4,), (1,)]}
FIG2_RULE = {"a": lambda xs: xs[0], "b": lambda xs: -xs[0]}  # f_in(x) = x and f_in(x) = -x


def figure2_tree(panel: str) -> Tree:
    return balanced([(1,), (2,), (3,), (4,)], FIG2_RULE[panel])


def figure2_comparisons(panel: str) -> list[tuple[Fraction, Fraction]]:
    """For each printed internal node: (f_in of the printed winner, f_in of the other child, both
    children as printed). The printed value follows from the rule iff the first is >= the second."""
    pr = FIG2_PRINTED[panel]
    f = FIG2_RULE[panel]
    children = [((1,), (2,)), ((3,), (4,)), (pr[0], pr[1])]
    out = []
    for (a, b), w in zip(children, pr):
        if w not in (a, b):
            raise InvalidParameter(f"printed node {w} is not one of its children {a}, {b}")
        loser = b if w == a else a
        out.append((f(restrict(FIG2_X, w)), f(restrict(FIG2_X, loser))))
    return out


# --------------------------------------------------------------------------------------- Appendix D

def z_star(j: int, D: int) -> Fraction:
    """The maximiser z_j = (2j - 1)/(2D) of f_j(z) = -(z - z_j)^2: distinct for distinct j (D.1)."""
    return Fraction(2 * j - 1, 2 * D)


def dretrieval_fs(D: int) -> list[Callable]:
    return [lambda xs, z=z_star(j, D): -(xs[0] - z) ** 2 for j in range(1, D + 1)]


def dretrieval_trees(T: int, D: int) -> list[Tree]:
    """D.1 upper bound: D trees, tree j has the T leaves {1}, .., {T} and f_in = f_j everywhere."""
    return [balanced([(t,) for t in range(1, T + 1)], f) for f in dretrieval_fs(D)]


def dretrieval_active(X: Sequence, D: int) -> set[int] | None:
    """I_F for F = F_0(max_t f_1(x(t)) (+) .. (+) max_t f_D(x(t))) with F_0 of non-zero partials:
    the argmax positions; None where an argmax is not unique (a null set)."""
    out = set()
    for f in dretrieval_fs(D):
        vals = [f([x]) for x in X]
        best = max(vals)
        if vals.count(best) > 1:
            return None
        out.add(vals.index(best) + 1)
    return out


def sqnorm(vs) -> Fraction:
    """||sum of the vectors||^2; a scalar token is a vector of dimension 1."""
    vs = [v if isinstance(v, tuple) else (v,) for v in vs]
    return sum((sum(c) ** 2 for c in zip(*vs)), Fraction(0))


def triangle_tree(T: int) -> Tree:
    """D.1 upper bound for (7): one tree whose T^3 leaves are all ordered triples (repetition allowed),
    f_in(X[I]) = -||sum_{t in I} x(t)||^2."""
    return balanced(list(product(range(1, T + 1), repeat=3)), lambda xs: -sqnorm(xs))


def triangle_active(X: Sequence) -> set[int] | None:
    """I_F of F = min_{t1,t2,t3} ||x(t1) + x(t2) + x(t3)||^2: the distinct indices of the minimising
    multiset (dF/dx(t) = 2 mult(t) (sum), non-zero when the minimum is not 0); None where the
    minimising multiset is not unique or the minimum is 0 (null sets)."""
    T = len(X)
    vals = {m: sqnorm([X[t - 1] for t in m]) for m in combinations_rep(T)}
    best = min(vals.values())
    win = [m for m, v in vals.items() if v == best]
    if len(win) > 1 or best == 0:
        return None
    return set(win[0])


def combinations_rep(T: int) -> list[Index]:
    from itertools import combinations_with_replacement

    return list(combinations_with_replacement(range(1, T + 1), 3))


def triangle_printed_argmax(X: Sequence) -> set[int]:
    """The printed D.1 formula argmax_{I subset [T], |I| = 3} ||sum_{t in I} x(t)||^2 (as printed: argmax
    of the norm, over subsets of three distinct indices)."""
    T = len(X)
    vals = {I: sqnorm([X[t - 1] for t in I]) for I in combinations(range(1, T + 1), 3)}
    best = max(vals.values())
    return set(min(I for I, v in vals.items() if v == best))


def cover_grid(target: str, T: int, D: int, g: int) -> tuple[int, int, int]:
    """The covering property I_F(X) subset of U_j I_final(X, T_j) of the App. D trees at every point of
    an exact grid (the same grid as checker.treecover.grid_cover): (points, skipped, failures)."""
    if target == "dretrieval":
        values = [Fraction(i, g) for i in range(g + 1)]
        trees = dretrieval_trees(T, D)
    elif target == "triangle":
        values = [Fraction(i - g, g + 1) + Fraction(i * i, 100 * g * g) for i in range(2 * g + 1)]
        trees = [triangle_tree(T)]
    else:
        raise InvalidParameter(f"target {target!r}: grids exist for dretrieval and triangle")
    points = skipped = failures = 0
    for X in product(values, repeat=T):
        points += 1
        act = dretrieval_active(X, D) if target == "dretrieval" else triangle_active(X)
        if act is None:
            skipped += 1
            continue
        failures += not act <= finals(trees, X)
    return points, skipped, failures

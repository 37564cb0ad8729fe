"""Symbolic differentiation of expression trees, with light constant folding.

Used to evaluate ``diff`` nodes numerically at points (the sympy backend differentiates on its own;
the checker has its own copy of these rules, so the two are independent)."""

from __future__ import annotations

from fractions import Fraction

from attncert.core.errors import ExprError

ZERO = ("num", Fraction(0))
ONE = ("num", Fraction(1))


def _add(*xs):
    xs = [x for x in xs if x != ZERO]
    if not xs:
        return ZERO
    return xs[0] if len(xs) == 1 else ("add",) + tuple(xs)


def _mul(*xs):
    if any(x == ZERO for x in xs):
        return ZERO
    xs = [x for x in xs if x != ONE]
    if not xs:
        return ONE
    return xs[0] if len(xs) == 1 else ("mul",) + tuple(xs)


def _neg(x):
    return ZERO if x == ZERO else ("neg", x)


def d(node: tuple, x: str) -> tuple:
    """The derivative of ``node`` with respect to the variable ``x``."""
    op = node[0]
    if op == "num":
        return ZERO
    if op == "var":
        return ONE if node[1] == x else ZERO
    if op == "add":
        return _add(*(d(c, x) for c in node[1:]))
    if op == "neg":
        return _neg(d(node[1], x))
    if op == "mul":
        cs = node[1:]
        terms = []
        for i, c in enumerate(cs):
            dc = d(c, x)
            if dc != ZERO:
                terms.append(_mul(*(cs[:i] + (dc,) + cs[i + 1:])))
        return _add(*terms)
    if op == "div":
        u, v = node[1], node[2]
        du, dv = d(u, x), d(v, x)
        if dv == ZERO:
            return ZERO if du == ZERO else ("div", du, v)
        return ("div", _add(_mul(du, v), _neg(_mul(u, dv))), ("pow", v, 2))
    if op == "pow":
        b, k = node[1], node[2]
        db = d(b, x)
        if db == ZERO or k == 0:
            return ZERO
        return _mul(("num", Fraction(k)), ("pow", b, k - 1) if k != 2 else b, db)
    if op == "exp":
        da = d(node[1], x)
        return ZERO if da == ZERO else _mul(node, da)
    if op == "log":
        da = d(node[1], x)
        return ZERO if da == ZERO else ("div", da, node[1])
    if op == "diff":
        return d(d(node[1], node[2]), x)
    raise ExprError(f"cannot differentiate {op!r} (piecewise or logical)")


def expand_diffs(node: tuple) -> tuple:
    """Replace every ``diff`` node by its derivative."""
    op = node[0]
    if op in ("num", "var"):
        return node
    if op == "diff":
        return d(expand_diffs(node[1]), node[2])
    return (op,) + tuple(expand_diffs(c) if isinstance(c, tuple) else c for c in node[1:])

"""A claim tree's value at concrete numbers and finite sequences, in mpmath: the semantics docs/axioms.md states
for indexed families (sums, maxima and foralls over the integers 1..N, ["idx", k] the index of the k-th big
operator outside the innermost). A sequence is read only at an integer inside it."""

from __future__ import annotations

import mpmath


def value(n, env, ix=()):
    """``n``'s value; ``env`` maps names to mpmath numbers or 1-indexed lists, ``ix`` holds the indices of the big
    operators around ``n``, innermost last."""
    op = n[0]
    if op == "num":
        return mpmath.mpf(n[1].numerator) / n[1].denominator
    if op == "var":
        return env[n[1]]
    if op == "idx":
        return ix[-1 - (n[1] if len(n) > 1 else 0)]
    if op == "at":
        j = value(n[2], env, ix)
        assert j == int(j) and 1 <= j <= len(env[n[1][1]]), "read outside the sequence"
        return env[n[1][1]][int(j) - 1]
    if op in ("sum", "bmax", "forall"):
        vals = [value(n[2], env, ix + (k,)) for k in range(1, int(value(n[1], env, ix)) + 1)]
        return mpmath.fsum(vals) if op == "sum" else all(vals) if op == "forall" else max(vals)
    a = [value(c, env, ix) for c in n[1:] if isinstance(c, tuple)]
    return {"add": lambda: mpmath.fsum(a), "mul": lambda: mpmath.fprod(a), "neg": lambda: -a[0],
            "div": lambda: a[0] / a[1], "exp": lambda: mpmath.exp(a[0]), "log": lambda: mpmath.log(a[0]),
            "max": lambda: max(a), "abs": lambda: abs(a[0]), "pow": lambda: a[0] ** n[2], "and": lambda: all(a),
            "or": lambda: any(a), "not": lambda: not a[0], "lt": lambda: a[0] < a[1], "le": lambda: a[0] <= a[1],
            "gt": lambda: a[0] > a[1], "ge": lambda: a[0] >= a[1], "eq": lambda: a[0] == a[1],
            "ne": lambda: a[0] != a[1]}[op]()

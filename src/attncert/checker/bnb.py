"""Interval branch-and-bound evidence (kind "bnb"): a split tree over a box, every leaf re-checked here
with the checker's own dyadic interval arithmetic. Standard library only.

The claim must be: real variables, hypotheses that are exactly the box (for each variable one lower
and one upper bound by a rational), and a goal ``lhs REL rhs`` with REL one of < <= > >=. With
h = lhs - rhs (or rhs - lhs for > >=) the goal is h < 0 (or h <= 0) on the box. The tree is

    {"split": VAR, "at": "p/q", "lo": TREE, "hi": TREE}      VAR's interval cut at p/q (strictly inside)
    {"leaf": "interval"}                                      h's interval enclosure on the box decides it
    {"leaf": "mono", "ends": {VAR: "lo" | "hi", ...}}         for each listed VAR, dh/dVAR is >= 0 ("hi") or
                                                              <= 0 ("lo") on the whole box, so h's maximum
                                                              is on the face VAR = that end; the goal is
                                                              decided on that face (exactly at a vertex when
                                                              every variable is listed)

Every term of the goal must be defined on every leaf box (each denominator's enclosure excludes 0, each
log argument's is positive); for a "mono" leaf the derivative is taken here (checker/trees.deriv), and a
goal with abs, max or min (not differentiable) cannot use it."""

from __future__ import annotations

from fractions import Fraction

from .qarith import I, Undecided
from .trees import Reject, _cmp, defined_at, deriv, ival, parse_rational

MAX_LEAVES = 50_000
MAX_DEPTH = 200
MAX_VARS = 8
MAX_EDGES = 200_000  # the goal and each derivative, counted as a DAG (node references)


def edges(n: tuple) -> int:
    """Node references in the DAG of ``n`` (each distinct node once): what one evaluation costs."""
    seen, todo, out = set(), [n], 0
    while todo:
        m = todo.pop()
        if id(m) in seen:
            continue
        seen.add(id(m))
        kids = [c for c in m[1:] if isinstance(c, tuple)]
        out += 1 + len(kids)
        todo.extend(kids)
    return out


def _has_diff(n: tuple) -> bool:
    return n[0] == "diff" or any(_has_diff(c) for c in n[1:] if isinstance(c, tuple))


def box_of(domains: dict, hyps: list) -> dict:
    """{var: (lo, hi)} read from hypotheses that are exactly one lower and one upper rational bound per
    variable; raises Reject otherwise."""
    lo: dict = {}
    hi: dict = {}
    for h in hyps:
        op, a, b = h[0], h[1], h[2] if len(h) == 3 else None
        if op not in ("le", "ge") or b is None:
            raise Reject("bnb: every hypothesis must be a bound x <= q or x >= q (q rational)")
        if a[0] == "num" and b[0] == "var":  # q <= x  is  x >= q
            op, a, b = ("ge" if op == "le" else "le"), b, a
        if a[0] != "var" or b[0] != "num":
            raise Reject("bnb: every hypothesis must be a bound x <= q or x >= q (q rational)")
        side = lo if op == "ge" else hi
        if a[1] in side:
            raise Reject(f"bnb: two {'lower' if op == 'ge' else 'upper'} bounds for {a[1]}")
        side[a[1]] = b[1]
    if set(lo) != set(domains) or set(hi) != set(domains):
        raise Reject("bnb: every variable needs one lower and one upper bound among the hypotheses")
    if any(d != "real" for d in domains.values()):
        raise Reject("bnb: variables must be real")
    if len(domains) > MAX_VARS:
        raise Reject(f"bnb: more than {MAX_VARS} variables")
    if any(lo[v] > hi[v] for v in domains):
        raise Reject("bnb: an empty box")
    return {v: (lo[v], hi[v]) for v in domains}


def target(goal: tuple) -> tuple[tuple, bool]:
    """(h, strict): the goal is h < 0 (strict) or h <= 0."""
    if goal[0] not in ("lt", "le", "gt", "ge"):
        raise Reject("bnb: the goal must be one inequality (<, <=, >, >=)")
    a, b = goal[1], goal[2]
    h = ("add", a, ("neg", b)) if goal[0] in ("lt", "le") else ("add", b, ("neg", a))
    return h, goal[0] in ("lt", "gt")


def _env(box: dict, prec: int) -> dict:
    return {v: (lo if lo == hi else I(lo, hi, prec, exact=True)) for v, (lo, hi) in box.items()}


def check(domains: dict, hyps: list, goal: tuple, ev: dict, work) -> tuple[list[str], int]:
    """Re-check the split tree; returns (what was checked, number of leaves). ``work(n)`` charges the
    checker's work budget for every leaf, by the size of what it evaluates. ``goal`` must not contain
    derivative nodes (their expansion drops parts that do not depend on the variable, and with them
    the conditions under which the derivative exists)."""
    if any(_has_diff(n) for n in hyps + [goal]):
        raise Reject("bnb: the claim must not contain derivative nodes (write the derivative out)")
    bits = ev["bits"]
    if type(bits) is not int or not 32 <= bits <= 4096:
        raise Reject("bnb: bits must be an integer in [32, 4096]")
    box = box_of(domains, hyps)
    h, strict = target(goal)
    rel = "lt" if strict else "le"
    cost = {"h": edges(h)}
    if cost["h"] > MAX_EDGES:
        raise Reject(f"bnb: the goal has more than {MAX_EDGES:,} node references")
    scale = max(1, bits // 256)
    derivs: dict = {}
    count = {"interval": 0, "mono": 0}
    stack = [(ev["tree"], box, 0)]
    while stack:
        node, b, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise Reject("bnb: split tree deeper than 200")
        if not isinstance(node, dict):
            raise Reject("bnb: malformed split tree")
        if "split" in node:
            if set(node) != {"split", "at", "lo", "hi"} or node["split"] not in b:
                raise Reject("bnb: a split names one variable of the claim, a point and two subtrees")
            v = node["split"]
            at = parse_rational(node["at"])
            lo, hi = b[v]
            if not lo < at < hi:
                raise Reject(f"bnb: split point of {v} is not strictly inside its interval")
            stack.append((node["lo"], {**b, v: (lo, at)}, depth + 1))
            stack.append((node["hi"], {**b, v: (at, hi)}, depth + 1))
            continue
        kind = node.get("leaf")
        if kind not in ("interval", "mono") or set(node) != ({"leaf"} if kind == "interval" else {"leaf", "ends"}):
            raise Reject("bnb: a leaf is {'leaf': 'interval'} or {'leaf': 'mono', 'ends': {...}}")
        if sum(count.values()) >= MAX_LEAVES:
            raise Reject(f"bnb: more than {MAX_LEAVES} leaves")
        count[kind] += 1
        work(1 + cost["h"] * scale // 64)
        env = _env(b, bits)
        try:
            if not defined_at(h, env, bits):
                raise Reject("bnb: a term of the goal is not shown defined on a leaf box")
            if kind == "mono":
                ends = node["ends"]
                if not isinstance(ends, dict) or not ends or not set(ends) <= set(b) or \
                        not all(e in ("lo", "hi") for e in ends.values()):
                    raise Reject("bnb: 'ends' maps variables of the claim to 'lo' or 'hi'")
                face = dict(b)
                for v, e in sorted(ends.items()):
                    if v not in derivs:
                        derivs[v] = deriv(h, v)
                        cost[v] = edges(derivs[v])
                        if cost[v] > MAX_EDGES:
                            raise Reject(f"bnb: d/d{v} of the goal has more than {MAX_EDGES:,} node references")
                    work(1 + cost[v] * scale // 64)
                    sign = ival(derivs[v], env, bits)
                    want = _cmp("ge" if e == "hi" else "le", sign, Fraction(0))
                    if want is not True:
                        raise Reject(f"bnb: d/d{v} of the goal is not shown {'>= 0' if e == 'hi' else '<= 0'} "
                                     "on a leaf box")
                    end = b[v][1] if e == "hi" else b[v][0]
                    face[v] = (end, end)
                env = _env(face, bits)
            ok = _cmp(rel, ival(h, env, bits), Fraction(0))
        except Undecided:
            raise Reject("bnb: a leaf cannot be evaluated (division by an interval containing 0, or log of "
                         "a non-positive interval)") from None
        if ok is not True:
            raise Reject(f"bnb: the goal is not shown on a leaf box ({kind} leaf)")
    return [f"branch and bound: {count['interval'] + count['mono']} leaf boxes of the split tree re-checked in "
            f"interval arithmetic ({bits} bits): {count['interval']} by enclosure, {count['mono']} by "
            f"monotonicity (derivative sign on the box, goal on the face)"], count["interval"] + count["mono"]

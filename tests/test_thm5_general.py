"""Theorem 5's L755-766 for every width p and dimension n (proofs/infoflow_thm5.py, docs/theorems.md, "The
free-text premises left"): the transcription is evaluated at random tanh networks (every plain hypothesis of the
Lipschitz chain holds there, and so does its conclusion), and planted wrong constants are not PROVED."""

from __future__ import annotations

import dataclasses
import random

import mpmath as mp
import pytest
from hypothesis import given, settings, strategies as st

from attncert.api import run_obligation
from attncert.core.claims import Claim
from attncert.core.expr import var
from attncert.core.verdict import Verdict

mp.mp.dps = 40
TOL = mp.mpf(10) ** -30


def _ob(suffix: str):
    from attncert.core.families import all_families

    return next(o for f in all_families() for o in f.obligations if o.id == "infoflow.thm5." + suffix)


def _val(n, env, stack=()):
    """A claim tree's value at concrete numbers and sequences (mpmath, 1-indexed lists); ``stack`` holds the
    indices of the big operators around it, innermost last."""
    op = n[0]
    if op == "num":
        return mp.mpf(n[1].numerator) / n[1].denominator
    if op == "var":
        return env[n[1]]
    if op == "idx":
        return stack[-1 - (n[1] if len(n) > 1 else 0)]
    if op == "at":
        return env[n[1][1]][int(_val(n[2], env, stack)) - 1]
    if op in ("sum", "forall"):
        vals = [_val(n[2], env, stack + (mp.mpf(k),)) for k in range(1, int(_val(n[1], env, stack)) + 1)]
        return all(vals) if op == "forall" else mp.fsum(vals)
    if op == "pow":
        return _val(n[1], env, stack) ** n[2]
    a = [_val(c, env, stack) for c in n[1:] if isinstance(c, tuple)]
    if op == "add":
        return mp.fsum(a)
    if op == "mul":
        out = mp.mpf(1)
        for x in a:
            out *= x
        return out
    if op == "neg":
        return -a[0]
    if op == "div":
        return a[0] / a[1]
    if op == "abs":
        return abs(a[0])
    if op == "and":
        return all(a)
    return {"le": lambda: a[0] <= a[1] + TOL, "ge": lambda: a[0] + TOL >= a[1], "lt": lambda: a[0] < a[1] + TOL,
            "gt": lambda: a[0] + TOL > a[1], "eq": lambda: abs(a[0] - a[1]) <= TOL}[op]()


def _network(p: int, n: int, rng: random.Random) -> dict:
    """A two-layer tanh network f2 with every weight in [-1, 1] (Theorem 5's f2) at two points u, v of [0,1]^n,
    as the sequences the chain names: th(n(r-1) + l) = theta_r(l), zu(r) = theta_r^T u + beta_r, tu(r) = tanh zu(r),
    Th(r) = ||theta_r||_2, G = ||u - v||_2, S = sqrt(n), Mx = f2(u), My = f2(v)."""
    w = lambda: mp.mpf(rng.uniform(-1, 1))  # noqa: E731
    th = [w() for _ in range(p * n)]
    u = [mp.mpf(rng.random()) for _ in range(n)]
    v = [mp.mpf(rng.random()) for _ in range(n)]
    b, al, gam = [w() for _ in range(p)], [w() for _ in range(p)], w()
    row = lambda r: th[n * r:n * (r + 1)]  # noqa: E731
    zu = [mp.fsum(t * x for t, x in zip(row(r), u)) + b[r] for r in range(p)]
    zv = [mp.fsum(t * x for t, x in zip(row(r), v)) + b[r] for r in range(p)]
    tu, tv = [mp.tanh(z) for z in zu], [mp.tanh(z) for z in zv]
    return {"p": mp.mpf(p), "n": mp.mpf(n), "th": th, "u": u, "v": v, "b": b, "zu": zu, "zv": zv, "tu": tu, "tv": tv,
            "al": al, "gam": gam, "Th": [mp.sqrt(mp.fsum(t * t for t in row(r))) for r in range(p)],
            "G": mp.sqrt(mp.fsum((x - y) ** 2 for x, y in zip(u, v))), "S": mp.sqrt(n),
            "Mx": mp.fsum(a * t for a, t in zip(al, tu)) + gam, "My": mp.fsum(a * t for a, t in zip(al, tv)) + gam}


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 4), st.integers(0, 10 ** 6))
def test_the_lipschitz_chain_holds_on_tanh_networks(p, n, seed):
    """At a random network with weights in [-1, 1] every plain hypothesis of lipschitz_758_general (the model:
    f2's form, bounded weights, tanh 1-Lipschitz at each row, the pre-activations, the norms) holds, and so does
    |f2(u) - f2(v)| <= p sqrt(n) ||u - v||; the row steps' plain hypotheses and goals hold at every row."""
    env = _network(p, n, random.Random(seed))
    ob = _ob("lipschitz_758_general")
    for h in ob.claim.hyps:
        if h.by is None or h.by.startswith("each:"):
            assert _val(h.expr, env), (h.expr, p, n, seed)
    assert _val(ob.claim.goal, env)
    for row in ("row_cauchy_schwarz_757", "row_norm_758"):
        rob = _ob(row)
        for r in range(1, p + 1):
            e = dict(env, r=mp.mpf(r))
            assert all(_val(h.expr, e) for h in rob.claim.hyps if h.by is None)
            assert _val(rob.claim.goal, e)


def _planted(ob, goal=None, drop=None):
    hyps = tuple(h for h in ob.claim.hyps if h.expr != drop) if drop is not None else ob.claim.hyps
    cl = Claim(ob.claim.vars, hyps, goal if goal is not None else ob.claim.goal)
    return run_obligation(dataclasses.replace(ob, id=ob.id + ".planted", claim=cl)).evidence.verdict


def test_planted_constants_are_not_proved():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    p, S, G, Mx, My = (var(s).node for s in ("p", "S", "G", "Mx", "My"))
    lip = _ob("lipschitz_758_general")
    assert run_obligation(lip).evidence.verdict == Verdict.PROVED
    # p sqrt(n) ||u - v|| / 2: false (p = n = 1, f2 = tanh near 0)
    half = ("le", ("abs", ("add", Mx, ("neg", My))), ("div", ("mul", p, S, G), ("num", 2)))
    assert _planted(lip, goal=half) != Verdict.PROVED
    # without tanh's 1-Lipschitz property nothing bounds the activations' differences
    lips = next(h.expr for h in lip.claim.hyps if h.by is None and "tu" in repr(h.expr) and h.expr[0] == "forall")
    assert _planted(lip, drop=lips) != Verdict.PROVED
    # the width bound with n in place of n^2 under the root: 2 eps <= p sqrt(n) 2 sqrt(n) eta/(k-1) gives
    # p >= (k-1) eps/(n eta), not (k-1) eps/eta
    core = _ob("width_766.core")
    k, eps, eta = (var(s).node for s in ("k", "eps", "eta"))
    strong = ("ge", p, ("div", ("mul", ("add", k, ("neg", ("num", 1))), eps), eta))
    assert run_obligation(core).evidence.verdict == Verdict.PROVED
    assert _planted(core, goal=strong) != Verdict.PROVED


def test_the_root_assumes_no_conclusion_of_the_chain():
    """Attack round 29: a core step's plain premise that is another step's conclusion must arrive with its source.
    The root's plain premises are the pair, the model and the definitions: none bounds |M(X) - M(Y)| or relates
    ||A(X) - A(Y)|| to eta, and the separation, the sum (L726) and the Lipschitz chain reach it as links."""
    from attncert.core.expr import free_vars

    root = _ob("final_bound_786")
    for h in root.claim.hyps:
        if h.by is None:
            names = free_vars(h.expr)
            assert not ({"Mx", "My"} <= names and h.expr[0] != "eq"), h.expr       # only f2's definition at u, v
            assert not ({"G", "eta"} <= names), h.expr
            assert not ({"G", "p"} <= names and h.expr[0] != "forall"), h.expr   # (G >= 0 carried at every row)
    width = _ob("width_bound_766")
    sources = {h.by for h in width.claim.hyps if h.by}
    assert {"infoflow.thm5.separation_735", "infoflow.thm5.lipschitz_758_general", "infoflow.thm5.l2_726",
            "infoflow.thm5.width_766.core"} <= sources


def test_the_norms_are_witnesses_not_premises():
    """The root obtains G = ||A(X) - A(Y)||_2, S = sqrt(n) and Th(r) = ||theta_r||_2 from existence axioms, and no
    plain premise and not the goal mentions them (docs/axioms.md, "Existence"); eta > 0 is shown, not assumed."""
    from attncert.core.axioms import witness_gap
    from attncert.core.expr import free_vars, show

    root = _ob("final_bound_786")
    cites = sorted(h.by for h in root.claim.hyps if (h.by or "").startswith("axiom:exists"))
    assert cites == ["axiom:exists_seq_sqrt", "axiom:exists_sqrt", "axiom:exists_sqrt"]
    assert witness_gap(root.claim) is None
    for h in root.claim.hyps:
        if h.by is None:
            assert not {"G", "S", "Th"} & free_vars(h.expr), show(h.expr)
    assert not {"G", "S", "Th"} & free_vars(root.claim.goal)
    assert "eta > 0" not in [show(h.expr) for h in root.claim.hyps if h.by is None]


def test_nested_indices_print_by_depth():
    from attncert.core.expr import IDX, at, bsum, idx, seq, show

    a, T, h = seq("a"), var("T"), var("h")
    assert show(bsum(T, bsum(h, at(a, idx(1) * h + IDX))).node) == "sum_{i=1..T} [sum_{i2=1..h} [a((i*h + i2))]]"

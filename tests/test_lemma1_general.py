"""Kajitsuka-Sato Lemma 1 for every n (proofs/ks_general.py, "Lemma 1 (16) for every n, for sorted vectors";
docs/theorems.md, "General n"):

- at random sorted, separated a, b in R^n (n = 1..6, drawn from one common decreasing grid with gaps above delta,
  so that (115) holds, with delta just above 2 log n + 3): every plain premise of ks.general.lemma1.sorted_16
  holds, its goal's two quotients are the paper's boltz(a), boltz(b), and the goal, (16), holds; (15) likewise;
- a planted wrong constant in (113) is REFUTED by a replayed point, and the top step with (14) dropped does not
  verify as a closed proof (the case it links needs (14)): the checker says CONDITIONAL."""

from __future__ import annotations

import shutil
from pathlib import Path

import mpmath
import pytest
from forging import verify_dir
from treeval import value
from hypothesis import assume, given, settings, strategies as st

from attncert.api import run_obligation
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Obligation, claim
from attncert.core.expr import E, show, var
from attncert.core.verdict import Verdict

pytestmark = pytest.mark.filterwarnings("ignore")
ROOT = Path(__file__).resolve().parents[1]


def _obs():
    from attncert.core.families import all_families
    return {o.id: o for f in all_families() if f.name == "ks_general" for o in f.obligations}


def _boltz(v):
    w = [mpmath.exp(x) for x in v]
    return mpmath.fsum(x * e for x, e in zip(v, w)) / mpmath.fsum(w)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 6).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.fractions(0, 3, max_denominator=4), min_size=2 * n, max_size=2 * n),   # gaps above delta
    st.sets(st.integers(0, 2 * n - 1), min_size=n, max_size=n),                     # a's entries in the grid
    st.sets(st.integers(0, 2 * n - 1), min_size=n, max_size=n),                     # b's
    st.fractions(-4, 4, max_denominator=4), st.fractions(0, 2, max_denominator=4))))
def test_sorted_16_states_16_for_the_papers_boltzmann_operator(data):
    n, gaps, ia, ib, top, extra = data
    assume(ia != ib)
    mpmath.mp.dps = 40
    q = lambda f: mpmath.mpf(f.numerator) / f.denominator  # noqa: E731
    delta = 2 * mpmath.log(n) + 3 + q(extra) + mpmath.mpf(1) / 8
    grid = [q(top)]
    for g in gaps[1:]:
        grid.append(grid[-1] - delta - q(g) - mpmath.mpf(1) / 16)
    a, b = [grid[i] for i in sorted(ia)], [grid[i] for i in sorted(ib)]
    r = max(abs(x) for x in a + b) + mpmath.mpf(1) / 32
    env = {"n": mpmath.mpf(n), "a": a, "b": b, "r": r, "delta": delta}
    obs = _obs()
    top16 = obs["ks.general.lemma1.sorted_16"]
    for h in top16.claim.hyps:
        if h.by is None:
            assert value(h.expr, env), (show(h.expr), n, a, b)
    goal = top16.claim.goal
    lhs = goal[1][1]
    assert mpmath.almosteq(value(lhs[1], env), _boltz(a), 1e-25) and mpmath.almosteq(value(lhs[2][1], env), _boltz(b), 1e-25)
    assert value(goal, env), (n, a, b)
    assert abs(_boltz(a) - _boltz(b)) > mpmath.log(n) ** 2 * mpmath.exp(-2 * r)   # (16), on the paper's operator
    c15 = obs["ks.general.lemma1.conclusion_15"]
    assert all(value(h.expr, env) for h in c15.claim.hyps if h.by is None) and value(c15.claim.goal, env)
    assert mpmath.almosteq(value(c15.claim.goal[1][1], env), _boltz(a), 1e-25)


def _run(id_, cl):
    return run_obligation(Obligation(id_, "mine", "t", "t", cl, ("smt", "model")), 120)


def test_a_planted_constant_in_113_is_refuted():
    """(113) with (log n)^2 e^{-2r} doubled: false over plain reals, refuted by a replayed point."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    core = _obs()["ks.general.lemma1.core_113"]
    g = core.claim.goal
    wrong = claim(core.claim.vars, core.claim.hyps, E(g[1]) > 2 * E(g[2]))
    r = _run("planted.core_113", wrong)
    assert r.evidence.verdict == Verdict.REFUTED, r.evidence.detail


def test_the_top_step_without_14_does_not_verify_as_closed(tmp_path):
    """sorted_16 with delta > 2 log n + 3 dropped: as a step it still follows from its case split, but the cases
    need (14) (Lemma 7 does), so the link carries a hypothesis the step no longer has: CONDITIONAL, not
    VERIFIED, next to the committed certificates of everything it rests on."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    top16 = _obs()["ks.general.lemma1.sorted_16"]
    hd = show((var("delta") > 2 * E(("log", ("var", "n"))) + 3).node)
    hyps = [h for h in top16.claim.hyps if not (h.by is None and show(h.expr) == hd)]
    assert len(hyps) == len(top16.claim.hyps) - 1
    ob = Obligation(top16.id, top16.paper, top16.ref, top16.statement, claim(top16.claim.vars, hyps, top16.claim.goal),
                    top16.methods, family=top16.family)
    src = ROOT / "certificates" / "ks" / "ks_general"
    for f in src.glob("*.json"):
        if f.name != f"{top16.id}.json":
            shutil.copy(f, tmp_path / f.name)
    r = run_obligation(ob)
    assert r.evidence.verdict == Verdict.PROVED, r.evidence   # as a step, from its hypotheses
    (tmp_path / "mine").mkdir()
    atomic_write(path_for(str(tmp_path / "mine"), r), dumps(build(r)))
    code, text, rep = verify_dir(tmp_path)
    mine = next(x for x in rep if x.get("id") == top16.id)
    assert code == 1 and mine["status"] == "CONDITIONAL", text
    assert "is not another hypothesis of ks.general.lemma1.sorted_16" in mine["conditions"][0], mine

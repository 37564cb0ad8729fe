"""Theorem 4's repaired value bound for every n and E (InfoFlow L408; `bound thm4` uses it): v = W_V P with an n x E
matrix of entries |w| <= 1 and ||P||_2 <= 1 has ||v||_2^2 <= n E (infoflow.thm4.values_norm_row, linked at every row
by values_norm_repaired_general), and two points of one cube of side s in R^n are within s sqrt(n)
(cube_cell_diameter). The steps are proved by the engine; a planted smaller constant is not; the bounds hold
exactly at random rational instances and are attained."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.filterwarnings("ignore")


def _ob(id_):
    from attncert.core.families import all_families

    return next(o for f in all_families() for o in f.obligations if o.id == f"infoflow.thm4.{id_}")


@pytest.mark.parametrize("id_", ["values_norm_row", "values_norm_repaired_general", "cube_cell_diameter"])
def test_general_steps_proved(id_):
    from attncert.api import run_obligation

    assert run_obligation(_ob(id_)).evidence.verdict.name == "PROVED"


def test_planted_half_constant_not_proved():
    from attncert.api import run_obligation
    from attncert.core.claims import Claim

    ob = _ob("values_norm_repaired_general")
    rel, lhs, rhs = ob.claim.goal
    assert rel == "le" and rhs == ("mul", ("var", "n"), ("var", "E"))
    planted = dataclasses.replace(ob, id="t.planted", claim=Claim(ob.claim.vars, ob.claim.hyps,
                                                                  ("le", lhs, ("div", rhs, ("num", Fraction(2))))))
    assert run_obligation(planted).evidence.verdict.name != "PROVED"


fractions = st.fractions(min_value=-1, max_value=1, max_denominator=50)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(1, 6), st.data())
def test_value_bound_at_random_instances(n, e, data):
    w = [[data.draw(fractions) for _ in range(e)] for _ in range(n)]
    p = [data.draw(fractions) for _ in range(e)]
    s = sum(x * x for x in p)
    if s > 1:   # scale P into the unit ball, exactly (a rational factor below 1/sqrt(s))
        k = Fraction(1, int(s) + 1)
        p = [x * k for x in p]
    assert sum(x * x for x in p) <= 1
    rows = [sum(a * b for a, b in zip(r, p)) for r in w]
    assert all(v * v <= e for v in rows)                 # values_norm_row
    assert sum(v * v for v in rows) <= n * e             # values_norm_repaired_general


@pytest.mark.parametrize("n,k", [(1, 1), (2, 2), (3, 3), (4, 2)])
def test_value_bound_attained(n, k):
    # E = k^2, every weight 1, P_j = 1/k (||P|| = 1): each row is E/k = k, so ||v||^2 = n k^2 = n E exactly
    e = k * k
    rows = [sum(Fraction(1, k) for _ in range(e)) for _ in range(n)]
    assert sum(v * v for v in rows) == n * e


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 6), st.fractions(min_value=0, max_value=3, max_denominator=20), st.data())
def test_cube_diameter_at_random_points(n, side, data):
    d = [data.draw(st.fractions(min_value=-side, max_value=side, max_denominator=40)) for _ in range(n)]
    assert sum(x * x for x in d) <= n * side * side
    assert sum(side * side for _ in range(n)) == n * side * side   # attained at a corner

"""Park et al.'s Lemma 13 as cited axioms (docs/axioms.md, "Cited results"; axiom list v10): vector families,
dim, pi and the Skolem vector park(X, M). Kajitsuka-Sato's Lemma 3 is proved at v = park(X, M); here

- the root is PROVED by the engine and its certificate verifies, and planted wrong constants are not proved;
- each misuse of the new axioms (a condition that fails, an index outside the family, a family given by a
  term, pi and dim left out of the constant) is UNKNOWN for the engine and REJECTED by `verify` when forged;
- a claim mixing park and lpnorm is refused by both sides;
- the cited statement itself is checked on random instances: for random families in R^d a random unit vector
  meets the bound of park_lemma13 with c = sqrt(8/(pi d)) (so such a v exists, as the lemma says), and at such a
  v every plain hypothesis and the goal of Lemma 3's root hold."""

from __future__ import annotations

import io
import json
import math
from fractions import Fraction

import numpy as np
import pytest
from forging import accepted_by_both, refused_by_both, reseal
from hypothesis import given, settings
from hypothesis import strategies as st

from attncert.core.axioms import axiom
from attncert.core.claims import Obligation, Var, claim
from attncert.core.errors import ExprError
from attncert.core.expr import DIM, PI, abs_, dot, lpnorm, norm, park, var, vat, vseq, vsub, vvar

pytestmark = pytest.mark.filterwarnings("ignore")

X, M, a, b, c, s = vseq("X"), var("M"), var("a"), var("b"), var("c"), var("s")
V0 = [Var("X", "vecs"), Var("M", "int"), Var("a", "int"), Var("b", "int"), "s"]
PV = park(X, M)
DAB = vsub(vat(X, a), vat(X, b))
GOOD_HYPS = [M >= 1, a >= 1, a <= M, b >= 1, b <= M, s > 0, s * s * PI * DIM <= 8]


def ob(id_, cl):
    return Obligation(id=f"p.{id_}", paper="mine", ref="t", statement=id_, claim=cl, methods=("smt",), family="fam")


def _root():
    from attncert.core.families import all_families

    return next(o for f in all_families() for o in f.obligations if o.id == "ks.thm.lemma3.statement_74_75")


def test_good_citation_accepted_by_both(tmp_path):
    cl = claim(V0, GOOD_HYPS + [axiom("park_lemma13", X=X, M=M, i=a, j=b, c=s), axiom("park_unit", X=X, M=M)],
               s * norm(DAB) <= M * M * abs_(dot(PV, DAB)))
    accepted_by_both(ob("good", cl), tmp_path)


BAD = {
    # c^2 pi d <= 32 does not give c <= sqrt(8/(pi d))
    "constant": (GOOD_HYPS[:-1] + [s * s * PI * DIM <= 32], dict(i=a, j=b, c=s), "park_lemma13"),
    # an index outside the family: X_{M+1} is no point of the set Park's v is chosen for
    "outside": (GOOD_HYPS, dict(i=a, j=M + 1, c=s), "park_lemma13"),
    # pi and dim left out: c^2 <= 8 alone
    "no_pi_dim": (GOOD_HYPS[:-1] + [s * s <= 8], dict(i=a, j=b, c=s), "park_lemma13"),
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_citation_refused_by_both(name, tmp_path, monkeypatch):
    hyps, terms, ax = BAD[name]
    j = terms["j"]
    d = vsub(vat(X, a), vat(X, j))
    cl = claim(V0, hyps + [axiom(ax, X=X, M=M, **terms)], s * norm(d) <= M * M * abs_(dot(PV, d)))
    refused_by_both(ob(f"bad.{name}", cl), "park_lemma13", tmp_path, monkeypatch)


def test_empty_family_refused_by_both(tmp_path, monkeypatch):
    # park_unit is stated for M >= 1 (Park's lemma needs a non-empty family); its condition is checked even where
    # the conclusion would happen to hold (park(X, M) is some unit vector for every M, by its definition)
    cl = claim(V0, [M >= 0, axiom("park_unit", X=X, M=M)], norm(PV).eq(1))
    refused_by_both(ob("bad.empty", cl), "park_unit", tmp_path, monkeypatch)


def test_family_only_by_name():
    # a vecs axiom variable takes a family of the claim, never a vector or a vector term
    with pytest.raises(ExprError):
        claim(V0 + [Var("x", "vec")], [axiom("park_unit", X=vvar("x"), M=M)], norm(park(vvar("x"), M)).eq(1))


def test_park_with_lpnorm_refused_by_both(tmp_path):
    from attncert.checker.verify import verify_paths

    with pytest.raises(ExprError, match="lpnorm"):
        claim(V0 + [Var("y", "vec")], [M >= 1], lpnorm(vvar("y")) + norm(PV) >= 0)
    # the checker, on a hand-written certificate of that claim (the prover cannot build it)
    good = tmp_path / "g"
    good.mkdir()
    cl = claim(V0, [M >= 1, axiom("park_unit", X=X, M=M)], norm(PV).eq(1))
    accepted_by_both(ob("unit", cl), good)
    path = next(good.rglob("*.json"))
    obj = json.loads(path.read_text())
    obj["claim"]["vars"].append({"name": "y", "domain": "vec"})
    obj["claim"]["goal"] = ["and", obj["claim"]["goal"], ["ge", ["lpnorm", ["vvar", "y"]], ["num", "0"]]]
    bad = tmp_path / "b"
    bad.mkdir()
    (bad / "x.json").write_text(json.dumps(reseal(obj)))
    rep: list = []
    code = verify_paths([str(bad)], io.StringIO(), report=rep, allow_conditional=False)
    assert code == 1 and rep[0]["status"] == "REJECTED" and "lpnorm" in rep[0]["reason"], rep


def test_lemma3_planted_constant_refuted():
    """A planted wrong constant in (73), |u^T u'| divided by 16 more, makes the arithmetic of (79) false: the engine
    REFUTES the chain with a replayed counterexample (the root over vectors could only be UNKNOWN)."""
    from attncert.api import run_obligation
    from attncert.core.families import all_families

    chain = next(o for f in all_families() for o in f.obligations if o.id == "ks.thm.lemma3.chain_79")
    hyps = list(chain.claim.hyps)
    i = next(k for k, h in enumerate(hyps) if h.expr[0] == "eq" and h.expr[1] == ("var", "K"))
    lhs, rhs = hyps[i].expr[1], hyps[i].expr[2]
    assert rhs[0] == "div"
    hyps[i] = type(hyps[i])(("eq", lhs, ("div", rhs[1], ("mul", ("num", Fraction(16)), rhs[2]))))
    planted = Obligation(id="p.planted", paper="mine", ref="t", statement="planted", family="fam",
                         methods=("replay", "smt"),
                         claim=type(chain.claim)(chain.claim.vars, tuple(hyps), chain.claim.goal),
                         # Sq = P = 2 (Sq^2 P = 8), W2 = dl = eps = rmin = 1, ||v_a - v_b|| = ||v_c|| = 2 and x1 = x2 = 4
                         # meet (76) and (77); the planted K = 1/64 gives x1 K x2 = 1/4, not > delta = 1
                         hint=tuple((k, Fraction(v)) for k, v in dict(
                             Sq=2, P=2, W2=1, dl=1, eps=1, rmin=1, ga=2, hc=2, x1=4, x2=4, K=Fraction(1, 64)).items()))
    assert run_obligation(chain).evidence.verdict.name == "PROVED"
    assert run_obligation(planted).evidence.verdict.name == "REFUTED"


def _unit(rng, d):
    v = rng.standard_normal(d)
    return v / np.linalg.norm(v)


def _park_vector(xs, rng, tries=400):
    """A unit vector with (1/M^2) sqrt(8/(pi d)) ||x_i - x_j|| <= |v . (x_i - x_j)| for all pairs, by random
    search: Park et al.'s proof shows a uniform random unit vector works with probability >= 1 - 2/pi."""
    m, d = xs.shape
    cst = math.sqrt(8 / (math.pi * d)) / m ** 2
    diffs = [xs[i] - xs[j] for i in range(m) for j in range(i + 1, m)]
    for _ in range(tries):
        v = _unit(rng, d)
        if all(cst * np.linalg.norm(u) <= abs(v @ u) for u in diffs):
            return v
    return None


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(1, 8), st.integers(0, 2 ** 32 - 1))
def test_park_bound_attainable_on_random_families(d, m, seed):
    rng = np.random.default_rng(seed)
    xs = rng.standard_normal((m, d)) * rng.uniform(0.1, 10)
    v = _park_vector(xs, rng)
    assert v is not None, (d, m)   # fails with probability < (2/pi)^400


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(1, 6), st.integers(0, 2 ** 32 - 1))
def test_lemma3_root_holds_at_park_vectors(d, nv, seed):
    """Random separated vocabularies V in R^d: at a Park vector for V u {0}, every plain hypothesis of the root
    can be met and then the four conjuncts of the goal hold (floating point with a relative margin)."""
    rng = np.random.default_rng(seed)
    vocab = rng.standard_normal((nv, d)) * 3
    xs = np.vstack([vocab, np.zeros(d)])
    m = nv + 1
    v = _park_vector(xs, rng)
    assert v is not None
    dists = [np.linalg.norm(vocab[i] - vocab[j]) for i in range(nv) for j in range(nv) if i != j]
    eps = 0.9 * min(dists) if dists else 1.0
    rmin = 0.9 * min(np.linalg.norm(x) for x in vocab)
    dl = float(rng.uniform(0.1, 5))
    sq = math.sqrt(8 / (math.pi * d))
    w2, p = m * m, math.pi * d
    k = w2 * w2 * p * dl / (8 * eps * rmin) * (1 if rng.random() < 0.5 else -1)
    assert abs(sq * sq * p - 8) < 1e-9
    for ia in range(nv):
        for ib in range(nv):
            if ia == ib:
                continue
            for ic in range(nv):
                xa, xb, xc = vocab[ia], vocab[ib], vocab[ic]
                assert np.linalg.norm(xa - xb) > eps and np.linalg.norm(xc) > rmin
                lhs = abs((v @ xa) * k * (v @ xc) - (v @ xb) * k * (v @ xc))
                assert lhs > dl * (1 - 1e-9)
                assert sq * np.linalg.norm(xc) <= w2 * abs(v @ xc) * (1 + 1e-9)
                assert abs(v @ xc) <= np.linalg.norm(xc) * (1 + 1e-9)
    assert abs(np.linalg.norm(v) - 1) < 1e-12


def test_cited_results_are_marked_on_both_sides():
    """The two Park entries are the list's only cited results, read alike by the prover and the checker, and a theorem
    resting on them says so: the checker's line for Lemma 3's theorem certificate and the prover's table."""
    from pathlib import Path

    from attncert.checker import axioms as checker_axioms
    from attncert.checker.verify import verify_paths
    from attncert.core.axioms import axiom_list, cited
    from attncert.core.theorems import axioms_text

    assert checker_axioms.cited() == {"park_unit", "park_lemma13"}
    assert set(cited(axiom_list()[1])) == {"park_unit", "park_lemma13"}
    assert axioms_text(["cauchy_schwarz", "park_unit"]) == "cauchy_schwarz, park_unit (cited, not proved here)"
    root = Path(__file__).resolve().parents[1] / "certificates" / "ks"
    steps = [root / "ks_theorems" / f"ks.thm.lemma3.{s}.json" for s in ("statement_74_75", "statement_75", "chain_79")]
    buf = io.StringIO()
    code = verify_paths([str(root / "theorems" / "ks.lemma3.json")] + [str(p) for p in steps], buf, report=[],
                        allow_conditional=False)
    line = next(ln for ln in buf.getvalue().splitlines() if "theorem ks.lemma3 " in ln)
    assert code == 0 and "rests on cited results, not proved here: park_lemma13, park_unit" in line, line

"""Attack round 35 (adversarial review of axiom list v10: vector families, dim, pi, park).

Hole found: the prover's link/closure code (attncert.core.theorems._subst, line ~78) substitutes only the leaves
("var", "vvar", "seq", "fset", "fsets") and leaves ("vseq", X) untouched. So when a link sends a cited family X to
a citing family Y, the cited claim's carried plain hypotheses are looked up *about X*, not about Y. The prover's
closure (Closure / theorem_verdict, also engine._source_deps) then establishes a link whose premise is not
there, and calls a false theorem PROVED. The checker (checker.verify._subst uses trees.NAMED, which has vseq)
correctly reports the citing certificate CONDITIONAL, so `attncert verify` is not fooled.

These tests assert the correct behaviour: the first fails until core/theorems._subst renames vseq leaves."""

from __future__ import annotations

import io

import pytest

from attncert.core.claims import Obligation, Var, claim, fact
from attncert.core.expr import norm, show, vat, vseq

pytestmark = pytest.mark.filterwarnings("ignore")

X, Y = vseq("X"), vseq("Y")
# A: ||X_1|| = 0 => ||X_1|| <= 0 (true, PROVED by smt)
A = Obligation(id="p.att35.A", paper="mine", ref="t", statement="A", family="fam", methods=("smt",),
               claim=claim([Var("X", "vecs")], [norm(vat(X, 1)).eq(0)], norm(vat(X, 1)) <= 0))
# B: ||X_1|| = 0 (plain), ||Y_1|| <= 0 (link to A at X := Y)  =>  ||Y_1|| = 0. The link needs ||Y_1|| = 0 as a
# premise, which B does not have: B's only plain premise is about the *other* family X. "||X_1|| = 0 => ||Y_1|| = 0
# for all families X, Y" is false (X_1 = 0, Y_1 = e_1).
B = Obligation(id="p.att35.B", paper="mine", ref="t", statement="B", family="fam", methods=("smt",),
               claim=claim([Var("X", "vecs"), Var("Y", "vecs")],
                           [norm(vat(X, 1)).eq(0), fact(norm(vat(Y, 1)) <= 0, A.id)],
                           norm(vat(Y, 1)).eq(0)))


def test_prover_link_gap_renames_families():
    from attncert.core.theorems import link_gap

    reason, carried = link_gap(B, 1, A)
    # correct: the instantiated premise ||Y_1|| = 0 is not a hypothesis of B -> a reason, nothing carried
    assert reason is not None, f"prover accepted the link, carrying hypothesis {carried} ({show(B.claim.hyps[0].expr)})"


def test_prover_closure_does_not_prove_a_false_theorem():
    from attncert.core.theorems import Closure, theorem, theorem_verdict

    clo = Closure({A.id: A, B.id: B}, {A.id: "PROVED", B.id: "PROVED"})
    th = theorem("p.att35.thm", "mine", "Thm", "t", "||X_1|| = 0 => ||Y_1|| = 0", roots=[B.id],
                 hypotheses={show(B.claim.hyps[0].expr): "premise"})
    verdict, blocking, _ = theorem_verdict(th, clo)
    assert verdict != "PROVED", "the prover's closure calls '||X_1|| = 0 => ||Y_1|| = 0 for all X, Y' PROVED"


def test_checker_is_not_fooled(tmp_path):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    from attncert.api import run_obligation
    from attncert.checker.verify import verify_paths
    from attncert.core.certificate import atomic_write, build, dumps, path_for

    for ob in (A, B):
        r = run_obligation(ob)
        assert r.evidence.verdict.name == "PROVED"   # each implication is true as stated
        atomic_write(path_for(str(tmp_path), r), dumps(build(r)))
    rep: list = []
    code = verify_paths([str(tmp_path)], io.StringIO(), report=rep, allow_conditional=False)
    status = {r["id"]: r["status"] for r in rep}
    assert code == 1 and status == {A.id: "VERIFIED", B.id: "CONDITIONAL"}, rep
    why = next(r for r in rep if r["id"] == B.id)["conditions"][0]
    assert "is not another hypothesis" in why

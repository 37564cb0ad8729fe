"""Theorem-level results (issue 16): the prover's closure walk and the checker's recomputation agree on
small step graphs, and a theorem certificate that records more than its step graph establishes is not
accepted (CONDITIONAL), nor one that was edited (REJECTED)."""

from __future__ import annotations

import io
import json

import pytest

from attncert.api import run_obligation
from attncert.checker.verify import verify_paths
from attncert.core.axioms import axiom
from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Hyp, Obligation, claim
from attncert.core.expr import exp, show, var
from attncert.core.theorems import Closure, build_theorem_cert, theorem, theorem_verdict

pytestmark = pytest.mark.filterwarnings("ignore")
a, b, c = var("a"), var("b"), var("c")


def ob(id_, cl, methods=("smt",), **kw):
    return Obligation(id=f"t.{id_}", paper="mine", ref="t", statement=id_, claim=cl, methods=methods,
                      family="fam", **kw)


def graph():
    """lemma: a < b => exp(a) < exp(b) (from the axiom); root: a < b, c > 0 => c exp(a) < c exp(b),
    citing the lemma; a second root citing it with a hypothesis that is not an instance; a root with a
    free-text premise; a false printed statement (refuted) and its repair."""
    lemma = ob("lemma", claim(["a", "b"], [a < b, axiom("exp_lt", x=a, y=b)], exp(a) < exp(b) + 1))
    # the root carries the lemma's hypotheses (a < b, and the axiom instance) as its own
    root = ob("root", claim(["a", "b", "c"], [a < b, c > 0, axiom("exp_lt", x=a, y=b),
                                              Hyp((exp(a) < exp(b) + 1).node, by="t.lemma")],
                            c * exp(a) < c * (exp(b) + 1)))
    askew = ob("askew", claim(["a", "b", "c"], [a < b, c > 0, axiom("exp_lt", x=a, y=b),
                                                Hyp((exp(a) <= exp(b) + 1).node, by="t.lemma")],
                              c * exp(a) <= c * (exp(b) + 1)))
    fact = ob("fact", claim(["a", "b"], [Hyp((exp(a) < exp(b)).node, by="fact:exp is increasing")],
                            exp(a) - exp(b) < 0))
    printed = ob("printed", claim(["a", "b"], [a < b], a * a < b * b), methods=("model",))
    return [lemma, root, askew, fact, printed]


NAMES = {show((a < b).node): "a < b (hypothesis)", show((c > 0).node): "c > 0 (hypothesis)"}


def theorems():
    return [
        theorem("t.thm_closed", "mine", "Theorem 1", "t", "c exp(a) < c exp(b)", roots=["t.root"], hypotheses=NAMES),
        theorem("t.thm_unnamed", "mine", "Theorem 2", "t", "same, c > 0 not named", roots=["t.root"],
                hypotheses={show((a < b).node): "a < b"}),
        theorem("t.thm_askew", "mine", "Theorem 3", "t", "a link that is not an instance", roots=["t.askew"],
                hypotheses=NAMES),
        theorem("t.thm_fact", "mine", "Theorem 4", "t", "a free-text premise", roots=["t.fact"]),
        theorem("t.thm_printed", "mine", "Theorem 5", "t", "a < b => a^2 < b^2", printed="t.printed",
                repaired="t.thm_closed"),
        theorem("t.thm_none", "mine", "Theorem 6", "t", "not transcribed", blocking="not transcribed: test"),
    ]


@pytest.fixture(scope="module")
def run():
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    results = [run_obligation(o) for o in graph()]
    return results


def test_prover_verdicts(run):
    clo = Closure({r.obligation.id: r.obligation for r in run}, {r.obligation.id: r.evidence.verdict.name for r in run})
    got = {t.id: theorem_verdict(t, clo) for t in theorems()}
    assert got["t.thm_closed"] == ("PROVED", [], ["exp_lt"])
    assert got["t.thm_unnamed"][0] == "OPEN" and "not named" in got["t.thm_unnamed"][1][0]
    assert got["t.thm_askew"][0] == "OPEN" and "not an instance" in got["t.thm_askew"][1][0]
    assert got["t.thm_fact"][0] == "OPEN" and "unchecked premise" in got["t.thm_fact"][1][0]
    assert got["t.thm_printed"][0] == "REFUTED AS PRINTED"
    assert got["t.thm_none"] == ("OPEN", ["not transcribed: test"], [])


def _write(tmp_path, run, ths, edit=None):
    clo = Closure({r.obligation.id: r.obligation for r in run}, {r.obligation.id: r.evidence.verdict.name for r in run})
    for r in run:
        atomic_write(path_for(str(tmp_path), r), dumps(build(r)))
    for t in ths:
        body = build_theorem_cert(t, clo)
        if edit and t.id in edit:
            body = edit[t.id](body)
        atomic_write(str(tmp_path / "mine" / "theorems" / f"{t.id}.json"), dumps(body))
    return clo


def _verify(tmp_path):
    buf, rep = io.StringIO(), []
    code = verify_paths([str(tmp_path)], buf, report=rep, allow_conditional=False)
    return code, buf.getvalue(), {r["id"]: r for r in rep if r.get("theorem")}


def test_checker_recomputes_the_same_verdicts(run, tmp_path):
    clo = _write(tmp_path, run, theorems())
    code, text, th = _verify(tmp_path)
    for t in theorems():
        assert th[t.id]["computed"] == theorem_verdict(t, clo)[0], (t.id, th[t.id])
        assert th[t.id]["status"] == "VERIFIED", text
    assert th["t.thm_closed"]["axioms"] == ["exp_lt"]
    # the step certificates with free-text or askew sources are CONDITIONAL themselves: exit 1
    assert code == 1 and "OK " in text and "PROVED theorem t.thm_closed (Theorem 1)" in text


def _resign(body):
    from attncert.core.expr import sha256
    body = {k: v for k, v in body.items() if k != "cert_sha256"}
    body["cert_sha256"] = sha256(body)
    return body


@pytest.mark.parametrize("tid,edit,why", [
    ("t.thm_unnamed", lambda b: _resign({**b, "verdict": "PROVED", "axioms": ["exp_lt"]}), "establishes only OPEN"),
    ("t.thm_askew", lambda b: _resign({**b, "verdict": "PROVED", "blocking": []}), "establishes only OPEN"),
    ("t.thm_fact", lambda b: _resign({**b, "verdict": "PROVED FOR INSTANCES", "instances": "all"}), "only OPEN"),
    ("t.thm_closed", lambda b: _resign({**b, "axioms": []}), "records the axioms"),
    ("t.thm_none", lambda b: _resign({**b, "verdict": "REFUTED AS PRINTED"}), "records REFUTED AS PRINTED"),
    # naming the unnamed premise in the certificate (with a name) is fine only if it IS a hypothesis of the root
    ("t.thm_closed", lambda b: _resign({**b, "hypotheses": b["hypotheses"] + [
        {"root": "t.root", "expr": ["lt", ["var", "b"], ["var", "a"]], "name": "smuggled"}]}), "not a hypothesis of the root"),
])
def test_an_overclaiming_theorem_certificate_is_conditional(run, tmp_path, tid, edit, why):
    _write(tmp_path, run, theorems(), {tid: edit})
    code, text, th = _verify(tmp_path)
    assert code == 1 and th[tid]["status"] == "CONDITIONAL" and why in " ".join(th[tid]["conditions"]), th[tid]


def test_an_edited_theorem_certificate_is_rejected(run, tmp_path):
    _write(tmp_path, run, theorems(), {"t.thm_none": lambda b: {**b, "verdict": "PROVED"}})
    code, text, _ = _verify(tmp_path)
    assert code == 1 and "REJECTED" in text and "cert_sha256 mismatch" in text


def test_a_missing_root_makes_a_proved_theorem_conditional(run, tmp_path):
    _write(tmp_path, run, theorems())
    (tmp_path / "mine" / "fam" / "t.lemma.json").unlink()
    code, text, th = _verify(tmp_path)
    assert th["t.thm_closed"]["status"] == "CONDITIONAL"
    json.dumps(th)  # the report is JSON-able


NUMBERED = {
    "infoflow": {"Lemma 1", "Proposition 1", "Proposition 2"} | {f"Theorem {i}" for i in range(1, 7)},
    "ks": {f"Lemma {i}" for i in range(1, 8)} | {"Proposition 1", "Theorem 1", "Theorem 2", "Corollary 1",
                                                 "Corollary 2"},
}


def test_every_numbered_result_has_a_record():
    from attncert.core.theorems import all_theorems

    labels: dict = {}
    for t in all_theorems():
        labels.setdefault(t.paper, set()).add(t.label.split(" (")[0])
    for paper, want in NUMBERED.items():
        assert want <= labels.get(paper, set()), (paper, sorted(want - labels.get(paper, set())))


def test_theorems_command_lists_every_numbered_result(tmp_path, certified_all, session_cache, monkeypatch):
    """Through the session cache that ``certified_all`` filled: every verdict was computed there once."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    from attncert.cli import run

    monkeypatch.delenv("ATTNCERT_NO_CACHE", raising=False)
    monkeypatch.setenv("ATTNCERT_CACHE_DIR", str(session_cache))
    out = tmp_path / "th.json"
    md = tmp_path / "th.md"
    buf, err = io.StringIO(), io.StringIO()
    code = run(["theorems", "--jobs", "2", "--json", str(out), "--md", str(md)], buf, err)
    text = buf.getvalue()
    assert code == 0, text
    rows = json.loads(out.read_text())["theorems"]
    assert {r["verdict"] for r in rows} <= {"PROVED", "PROVED FOR INSTANCES", "CONFIRMED", "REFUTED AS PRINTED", "OPEN"}
    for paper, want in NUMBERED.items():
        assert want <= {r["label"].split(" (")[0] for r in rows if r["paper"] == paper}
    # every row that is not PROVED says why; every PROVED one names no blocking step
    assert all(bool(r["blocking"]) == (r["verdict"] not in ("PROVED", "PROVED FOR INSTANCES", "REFUTED AS PRINTED"))
               for r in rows), [r["id"] for r in rows]
    assert f"{len(rows)} numbered results" in text and md.read_text().count("\n| ") >= len(rows)

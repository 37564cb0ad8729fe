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


# ----------------------------------------------------------------------------- cases (an optional record field)
# Two roots that are the cases of a proof: PROVED when both are closed; the field is checked for its form, and a
# record without it reads as before (several roots need instances or cases)

def _cases_theorems(root2="t.lemma"):
    return [theorem("t.thm_cases", "mine", "Theorem 7", "t", "by cases", roots=["t.root", root2],
                    hypotheses=NAMES, cases="two cases (a test)")]


def test_a_theorem_by_cases_is_proved_when_every_case_is_closed(run, tmp_path):
    clo = _write(tmp_path, run, _cases_theorems() + theorems()[:1])
    assert theorem_verdict(_cases_theorems()[0], clo)[0] == "PROVED"
    code, text, th = _verify(tmp_path)
    assert th["t.thm_cases"]["status"] == "VERIFIED" and th["t.thm_cases"]["computed"] == "PROVED", th["t.thm_cases"]
    # not a released result: verify says that the cases covering the statement is its author's word (attack
    # round 27: two roots x >= 1 and x <= -1 'cover' x^2 >= 1 only by that word)
    line = next(ln for ln in text.splitlines() if "theorem t.thm_cases" in ln)
    assert "its cases cover the statement is its author's word, not checked" in line, line


def test_a_theorem_by_cases_with_an_open_case_is_open(run, tmp_path):
    clo = _write(tmp_path, run, _cases_theorems("t.askew"))
    assert theorem_verdict(_cases_theorems("t.askew")[0], clo)[0] == "OPEN"
    # recorded PROVED anyway: the checker's own computation says OPEN
    _write(tmp_path, run, _cases_theorems("t.askew"),
           {"t.thm_cases": lambda b: _resign({**b, "verdict": "PROVED", "blocking": [], "axioms": ["exp_lt"]})})
    code, text, th = _verify(tmp_path)
    assert th["t.thm_cases"]["status"] == "CONDITIONAL" and "establishes only OPEN" in " ".join(th["t.thm_cases"]["conditions"])


@pytest.mark.parametrize("edit,why", [
    (lambda b: _resign({k: v for k, v in b.items() if k != "cases"}), "several roots are instances or cases"),
    (lambda b: _resign({**b, "instances": "n = 2"}), "cases must be a non-empty string"),
    (lambda b: _resign({**b, "cases": ""}), "cases must be a non-empty string"),
    (lambda b: _resign({**b, "roots": ["t.root"], "root_claims": {"t.root": b["root_claims"]["t.root"]}}),
     "cases must be a non-empty string, for two or more roots"),
    (lambda b: _resign({**b, "casez": "x"}), "fields differ"),
])
def test_a_malformed_cases_record_is_rejected(run, tmp_path, edit, why):
    _write(tmp_path, run, _cases_theorems(), {"t.thm_cases": edit})
    code, text, _ = _verify(tmp_path)
    assert code == 1 and "REJECTED" in text and why in text, text


def test_the_prover_refuses_cases_with_instances_or_one_root():
    with pytest.raises(ValueError):
        theorem("t.x", "mine", "Theorem 8", "t", "s", roots=["t.root"], cases="one root")
    with pytest.raises(ValueError):
        theorem("t.x", "mine", "Theorem 8", "t", "s", roots=["t.root", "t.askew"], cases="c", instances="i")
    with pytest.raises(ValueError):
        theorem("t.x", "mine", "Theorem 8", "t", "s", roots=["t.root", "t.askew"])


# ----------------------------------------------------------------------------- links carry plain hypotheses only

def test_a_link_carries_the_cited_plain_hypotheses_only(run, tmp_path):
    """t.root2 cites t.lemma and holds its plain hypothesis a < b but not its axiom instance: the link checks
    (the lemma is verified with its sources, so its instance holds wherever a < b does). Without a < b it does
    not, and a lemma whose source is unchecked makes the citing step CONDITIONAL."""
    lean = ob("root2", claim(["a", "b", "c"], [a < b, c > 0, Hyp((exp(a) < exp(b) + 1).node, by="t.lemma")],
                             c * exp(a) < c * (exp(b) + 1)))
    bare = ob("root3", claim(["a", "b", "c"], [c > 0, Hyp((exp(a) < exp(b) + 1).node, by="t.lemma")],
                             c * exp(a) < c * (exp(b) + 1)))
    via_fact = ob("root4", claim(["a", "b"], [Hyp((exp(a) - exp(b) < 0).node, by="t.fact")], exp(a) < exp(b)))
    extra = [run_obligation(o) for o in (lean, bare, via_fact)]
    assert all(r.evidence.verdict.name == "PROVED" for r in extra)
    clo = _write(tmp_path, run + extra, [])
    assert not clo.why("t.root2") and clo.why("t.root3") and clo.why("t.root4")
    code, text, _ = _verify(tmp_path)
    lines = {ln.split(": ")[0].rsplit("/", 1)[-1]: ln for ln in text.splitlines() if ln.startswith(("OK", "CONDITIONAL"))}
    assert lines["t.root2.json"].startswith("OK"), lines["t.root2.json"]
    assert lines["t.root3.json"].startswith("CONDITIONAL") and "is not another hypothesis" in lines["t.root3.json"]
    assert lines["t.root4.json"].startswith("CONDITIONAL") and "not verified itself" in lines["t.root4.json"]


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


def test_no_root_assumes_a_goal_of_its_own_graph():
    """Attack round 29: an arithmetic core linked with its plain premises carried can turn a step's conclusion
    into a premise of the root (the step it came from then idles). No root of a numbered result has a plain
    premise that is the goal of a step below it, with a >= b and b <= a read as one (the orientation was the
    round's second case)."""
    from attncert.core.families import all_families
    from attncert.core.theorems import CASES, EACH, MVT, all_theorems

    obs = {o.id: o for f in all_families() for o in f.obligations}
    flip = {"ge": "le", "gt": "lt"}
    norm = lambda e: (flip[e[0]], e[2], e[1]) if e[0] in flip else e  # noqa: E731

    def below(root):
        seen, todo = set(), [root]
        while todo:
            c = todo.pop()
            if c in seen or c not in obs:
                continue
            seen.add(c)
            for h in obs[c].claim.hyps:
                b = h.by or ""
                if not b or b.startswith(("fact:", "axiom:")):
                    continue
                todo.extend(b[len(CASES):].split(",") if b.startswith(CASES) else
                            [b[len(MVT):] if b.startswith(MVT) else b[len(EACH):].partition(":")[2]
                             if b.startswith(EACH) else b])
        return seen - {root}

    checked = 0
    for th in all_theorems():
        for r in th.roots:
            goals = {norm(obs[x].claim.goal): x for x in below(r)}
            for h in obs[r].claim.hyps:
                if h.by is None:
                    checked += 1
                    assert norm(h.expr) not in goals, (th.id, r, h.expr, goals.get(norm(h.expr)))
    assert checked > 100

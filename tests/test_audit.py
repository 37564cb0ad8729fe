"""The errata catalogue and `attncert audit` (issue 17, item 2).

- Every obligation that carries a finding is the evidence of exactly one catalogue entry, and every entry
  names real obligations.
- Every quote is verbatim at its lines: against tests/data/paper_excerpts.json (the cited lines of both
  papers), which is itself compared with the papers' text files where they are present (the shared folder
  next to the repository, or ATTNCERT_PAPERS). ATTNCERT_WRITE_EXCERPTS=1 rewrites the excerpts from the papers.
- The report ranks errata by severity, keeps conventions and remarks apart, never confirms an erratum whose
  evidence did not get its expected verdict, and lists a finding outside the catalogue (exit 1).
- The letter quotes the paper and shows counterexamples in mathematical notation, never a Python repr."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from pathlib import Path

import pytest

from attncert.core.families import all_families
from attncert.integrations import audit as A

ROOT = Path(__file__).resolve().parents[1]
EXCERPTS = ROOT / "tests" / "data" / "paper_excerpts.json"


def _papers_dir() -> Path | None:
    for d in (os.environ.get("ATTNCERT_PAPERS"), ROOT.parent / "shared" / "papers", "/work/shared/papers"):
        if d and (Path(d) / A.PAPER_FILES["ks"]).is_file():
            return Path(d)
    return None


def _needed_lines(e, text: list[str]) -> set[int]:
    """The lines of the paper that hold the quote's segments (the smallest window of lines for each)."""
    import re

    norm = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    out: set = set()
    lo, hi = e.lines
    for seg in e.quote.split(A.ELIDE):
        for i in range(lo, hi + 1):
            j = next((j for j in range(i, min(hi, i + 8) + 1) if norm(seg) in norm(" ".join(text[i - 1:j]))), None)
            if j is not None:
                out.update(range(i, j + 1))
                break
    return out


def test_every_finding_is_in_exactly_one_entry():
    obs = {o.id: o for f in all_families() for o in f.obligations}
    cat = A.catalogue()
    seen: dict = {}
    for e in cat:
        for oid in e.obligations:
            assert oid in obs, f"{e.id}: {oid} is not an obligation"
            assert obs[oid].paper == e.paper, f"{e.id}: {oid} is of the other paper"
            assert oid not in seen, f"{oid} is in both {seen[oid]} and {e.id}"
            seen[oid] = e.id
    missing = [o for o in obs.values() if o.finding is not None and o.id not in seen]
    assert not missing, [o.id for o in missing]
    # one entry per erratum: the instances of (58) (one per D) and Figure 5's sign (five nodes) are one each
    by = {e.id: e for e in cat}
    assert len(by["ks-prop1-58"].obligations) == 3 and len(by["infoflow-fig5-score-sign"].obligations) == 5
    assert [e.id for e in cat if e.severity == "conclusion"] == ["infoflow-b1-h1-ge-d"]


def test_quotes_are_verbatim_at_their_lines():
    ex = json.loads(EXCERPTS.read_text(encoding="utf-8"))
    for e in A.catalogue():
        lines = ex[e.paper]["lines"]
        text = [lines.get(str(i), "") for i in range(1, e.lines[1] + 1)]
        assert A.quote_found(e.quote, text, e.lines), f"{e.id}: quote not found at {e.line_text}"


def test_excerpts_are_the_papers_lines():
    d = _papers_dir()
    if d is None:
        pytest.skip("the papers' text files are not here: the excerpts were checked against them where they are")
    want: dict = {}
    for e in A.catalogue():
        raw = (d / A.PAPER_FILES[e.paper]).read_bytes()
        text = raw.decode("utf-8").split("\n")
        w = want.setdefault(e.paper, {"file": A.PAPER_FILES[e.paper], "sha256": hashlib.sha256(raw).hexdigest(),
                                      "lines": {}})
        for i in sorted(_needed_lines(e, text)):
            w["lines"][str(i)] = text[i - 1]
    for w in want.values():
        w["lines"] = dict(sorted(w["lines"].items(), key=lambda kv: int(kv[0])))
    if os.environ.get("ATTNCERT_WRITE_EXCERPTS"):
        EXCERPTS.write_text(json.dumps(want, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert json.loads(EXCERPTS.read_text(encoding="utf-8")) == want, \
        "tests/data/paper_excerpts.json differs from the papers (ATTNCERT_WRITE_EXCERPTS=1 rewrites it)"


@pytest.mark.parametrize("quote, ok", [
    ("alpha beta", True), ("alpha [...] delta", True), ("delta [...] alpha", False), ("alpha  beta\ngamma", True),
    ("beta gamma delta epsilon", False), ("", False),
])
def test_quote_found(quote, ok):
    lines = ["zero", "alpha beta", "gamma   delta", "epsilon"]
    assert A.quote_found(quote, lines, (2, 3)) is ok


def test_catalogue_refuses_malformed_entries(monkeypatch):
    import attncert_proofs.errata as E

    good = dict(E.ERRATA["ks"][0])
    for bad in ({**good, "severity": "minor"}, {**good, "lines": (5, 2)}, {**good, "obligations": []},
                {k: v for k, v in good.items() if k != "quote"}, {**good, "id": "Bad Id"}):
        monkeypatch.setattr(E, "ERRATA", {"ks": [bad]})
        with pytest.raises(ValueError):
            A.catalogue()
    monkeypatch.setattr(E, "ERRATA", {"ks": [good, dict(good)]})
    with pytest.raises(ValueError, match="repeated"):
        A.catalogue()


def test_audit_ranks_and_separates(all_results):
    rep = A.audit(all_results)
    assert not rep["uncatalogued"]
    rank = {s: i for i, s in enumerate(A.ERRATA_SEVERITIES)}
    for paper in A.PAPER_TITLES:
        ranks = [rank[x["severity"]] for x in rep["errata"] if x["paper"] == paper]
        assert ranks == sorted(ranks) and ranks, paper
    assert all(x["severity"] in A.ERRATA_SEVERITIES for x in rep["errata"])
    assert all(x["severity"] in A.NOTE_SEVERITIES for x in rep["notes"])
    assert all(x["confirmed"] for x in rep["errata"] + rep["notes"])
    assert rep["errata"][0]["paper"] == "ks" or rep["errata"][0]["severity"] == "conclusion"
    inf = [x for x in rep["errata"] if x["paper"] == "infoflow"]
    assert inf[0]["id"] == "infoflow-b1-h1-ge-d" and inf[0]["affects_conclusion"]
    # a refuted step shows its replayed counterexample in mathematical notation, and its repair's verdict
    b1 = inf[0]
    assert b1["evidence"][0]["verdict"] == "REFUTED" and " = " in b1["evidence"][0]["counterexample"]
    assert not b1["repairs"]           # its repair is a reformulation, stated but not a checked step
    l7 = next(x for x in rep["errata"] if x["id"] == "ks-lemma7-114")
    assert l7["repairs"] and all(r["verdict"] == "PROVED" for r in l7["repairs"])
    md = A.to_markdown(rep)
    assert "*Repair (not checked as a separate step).* " + b1["repair"] in md
    assert "*The repair, checked.* `" + l7["repairs"][0]["obligation"] + "` proved (" in md
    # the schema's sums
    assert sum(sum(v.values()) for v in rep["summary"].values()) == len(rep["errata"]) + len(rep["notes"])


def test_an_erratum_whose_evidence_fails_is_not_confirmed(all_results):
    from attncert.core.verdict import Verdict

    victim = "infoflow.model.p1.h1_ge_D_as_printed"
    changed = [dataclasses.replace(r, evidence=dataclasses.replace(r.evidence, verdict=Verdict.UNKNOWN, detail={},
                                                                     reason="planted"))
               if r.obligation.id == victim else r for r in all_results]
    rep = A.audit(changed)
    x = next(x for x in rep["errata"] if x["id"] == "infoflow-b1-h1-ge-d")
    assert not x["confirmed"] and x["evidence"][0]["reason"] == "planted"
    assert "NOT CONFIRMED" in A.to_markdown(rep) and "NOT CONFIRMED" in A.text_summary(rep)


def test_a_finding_outside_the_catalogue_is_listed(all_results, monkeypatch):
    import attncert_proofs.errata as E

    monkeypatch.setattr(E, "ERRATA", {"ks": [x for x in E.ERRATA["ks"] if x["id"] != "ks-lemma7-114"],
                                      "infoflow": E.ERRATA["infoflow"]})
    rep = A.audit(all_results)
    assert [u["obligation"] for u in rep["uncatalogued"]] == ["ks.boltz.lemma7.hyp_114_as_printed"]
    assert "uncatalogued" in A.headline(rep)


def test_letter(all_results):
    rep = A.audit(all_results)
    md = A.to_markdown(rep, {"attncert": "0.1.0"})
    assert md.count("Dear ") == 2 and "Dear Yu, Jiang, Bao and Li," in md and "Dear Kajitsuka and Sato," in md
    inf = md[md.index("InfoFlow: A Framework"):]
    heads = [h for h in ("Changes a conclusion", "Changes a constant", "A false step", "Typos", "Notes (not errata)",
                         "Implicit conventions", "Remarks on correct steps") if f"#### {h}" in inf or f"### {h}" in inf]
    assert heads == sorted(heads, key=inf.index) and len(heads) == 7
    for x in rep["errata"]:
        assert A.md_escape(x["quote"]) in md and x["title"] in md
    assert "{'" not in md and "Fraction(" not in md
    assert md.startswith("# Errata found by attncert\n\n" + A.headline(rep))


def test_cli_audit_json_and_letter(tmp_path, all_results, session_cache, monkeypatch):
    import io

    from attncert.cli import run

    monkeypatch.delenv("ATTNCERT_NO_CACHE", raising=False)
    monkeypatch.setenv("ATTNCERT_CACHE_DIR", str(session_cache))
    out, err = io.StringIO(), io.StringIO()
    assert run(["audit", "ks", "--json", str(tmp_path / "a.json"), "--md", str(tmp_path / "a.md"), "-q"], out, err) == 0
    data = json.loads((tmp_path / "a.json").read_text())
    assert data["schema"] == "attncert.audit/2" and all(x["paper"] == "ks" for x in data["errata"])
    assert out.getvalue().startswith(A.headline(data))
    assert "Dear Kajitsuka and Sato," in (tmp_path / "a.md").read_text() and "z3" in (tmp_path / "a.md").read_text()


# ----------------------------------------------------------------- attack round 9 (docs/soundness.md)


def test_quote_may_not_stop_inside_a_formula():
    lines = ["this number is strictly smaller than N^{m}."]
    assert not A.quote_found("strictly smaller than N", lines, (1, 1))
    assert A.quote_found("strictly smaller than N^{m}", lines, (1, 1))
    assert A.quote_found("strictly smaller than N^{m}.", lines, (1, 1))


def test_letter_escapes_the_papers_latex():
    assert A.md_escape(r"\|v\|_2 \leq 1 [...] a_1 * b") == r"\\\|v\\\|\_2 \\leq 1 \[...\] a\_1 \* b"


def test_numerical_evidence_never_confirms(all_results):
    from attncert.core.verdict import Verdict

    victim = "infoflow.thm5.exponent_proof_vs_formal"      # a mismatch, proved; planted: only sampled
    changed = [dataclasses.replace(r, evidence=dataclasses.replace(r.evidence, verdict=Verdict.CONFIRMED))
               if r.obligation.id == victim else r for r in all_results]
    rep = A.audit(changed)
    x = next(x for x in rep["errata"] if victim in [e["obligation"] for e in x["evidence"]])
    assert not x["confirmed"] and "numerical" in x["evidence"][0]["reason"]


def test_a_user_claim_reusing_a_paper_id_is_not_evidence(all_results):
    from attncert.core.claims import Claim, Obligation, Var
    from attncert.core.expr import var

    victim = next(r for r in all_results if r.obligation.id == "infoflow.thm5.exponent_proof_vs_formal")
    x = var("x")
    fake_ob = Obligation(victim.obligation.id, "infoflow", "mine", "x^2 >= 0", Claim((Var("x"),), (), (x * x >= 0).node),
                         ("smt",), family="mine")
    fake = dataclasses.replace(victim, obligation=fake_ob)
    rep = A.audit([fake])
    e = next(e for x in rep["errata"] for e in x["evidence"])
    assert not e["as_expected"] and "not the transcribed obligation" in e["reason"]
    assert not rep["errata"][0]["confirmed"]


def test_partial_runs_say_so(all_results):
    rs = [r for r in all_results if r.obligation.id == "infoflow.model.fig5.s65_t1_as_printed"]
    rep = A.audit(rs)
    x = rep["errata"][0]
    assert (x["obligations_run"], x["obligations_total"]) == (1, 5)
    assert "1 of 5 steps run" in A.text_summary(rep) and "Only 1 of the 5 steps" in A.to_markdown(rep)


def test_docs_errata_is_todays_letter(all_results):
    """docs/errata.md is what `attncert audit --md` writes today (the provenance line, which names the installed
    solver versions, aside)."""
    doc = (ROOT / "docs" / "errata.md").read_text(encoding="utf-8")
    drop = lambda t: [ln for ln in t.splitlines() if not ln.startswith("Checked with ")]  # noqa: E731
    assert drop(doc) == drop(A.to_markdown(A.audit(all_results), {"attncert": "x"})), \
        "docs/errata.md is stale: regenerate it with `attncert audit --md docs/errata.md`"

"""The coverage table (issue 17, item 1): the inventory's shape, its link to the obligations, the fractions,
the JSON schema and docs/coverage.md being today's table."""

from __future__ import annotations

import fnmatch
import io
import json
from pathlib import Path

import pytest

from attncert.core.families import all_families
from attncert.integrations import coverage

ROOT = Path(__file__).resolve().parents[1]


def _obligations():
    return [o for f in all_families() for o in f.obligations]


def test_inventory_shape_and_reading_order():
    its = coverage.items()
    assert {it.paper for it in its} == {"ks", "infoflow"}
    for p in ("ks", "infoflow"):
        mine = [it for it in its if it.paper == p]
        lines = [it.line for it in mine]
        assert lines == sorted(lines), f"{p}: items not in reading order"
        keys = [(it.kind, it.label) for it in mine]
        assert len(keys) == len(set(keys)), f"{p}: an item is listed twice"
        displays = [int(it.label.strip("()")) for it in mine if it.kind == "display"]
        assert displays == list(range(1, len(displays) + 1)), f"{p}: numbered displays missing or out of order"
    # every numbered theorem-like result of docs/theorems.md is an item
    from attncert.core.theorems import all_theorems

    labels = {(it.paper, it.label) for it in its}
    for t in all_theorems():
        base = t.label.split(" (")[0].split(",")[0]
        if base.split()[0] in ("Lemma", "Theorem", "Proposition", "Corollary"):
            assert (t.paper, base) in labels, (t.paper, t.label)


def test_every_glob_matches_an_obligation_of_its_paper():
    obs = _obligations()
    for it in coverage.items():
        ids = [o.id for o in obs if o.paper == it.paper]
        for g in it.globs:
            assert any(fnmatch.fnmatchcase(i, g) for i in ids), f"{it.paper} {it.label}: {g} matches nothing"


def test_bad_inventory_is_refused(monkeypatch):
    import attncert_proofs.coverage as data

    monkeypatch.setitem(data.ITEMS, "ks", data.KS + [("display", "(999)", 10 ** 6, "transcribed", ["ks.nothing.*"], "")])
    with pytest.raises(ValueError, match="match no obligation"):
        coverage.table(_obligations(), {}, "ks")
    monkeypatch.setitem(data.ITEMS, "ks", data.KS + [("display", "(999)", 10 ** 6, "not transcribed", [], "")])
    with pytest.raises(ValueError, match="needs globs, any other a note"):
        coverage.items("ks")
    monkeypatch.setitem(data.ITEMS, "ks", data.KS + [("lemma", "Lemma 9", 10 ** 6, "proved", ["ks.*"], "")])
    with pytest.raises(ValueError, match="bad kind, status or line"):
        coverage.items("ks")


def test_fractions_and_verdict_counts():
    obs = _obligations()
    ks = [o for o in obs if o.paper == "ks"]
    verdicts = {o.id: ("PROVED", False) for o in ks}
    erratum = next(o for o in ks if o.expect is not None and o.expect.name == "REFUTED" and o.finding is not None)
    verdicts[erratum.id] = ("REFUTED", True)
    rec = coverage.table(obs, verdicts, "ks")
    s = rec["summary"]["ks"]
    rows = rec["items"]
    assert s["numbered_items"] == len(rows) == s["transcribed"] + s["cited"] + s["claim_free"] + s["not_yet_transcribed"]
    assert s["fraction_of_numbered"] == round(s["transcribed"] / s["numbered_items"], 4)
    assert s["items_with_claims"] == s["transcribed"] + s["not_yet_transcribed"]
    # every obligation is counted once per item that names it, with its verdict
    for r in rows:
        assert sum(r["verdicts"].values()) == len(r["obligations"])
        if erratum.id in r["obligations"]:
            assert r["verdicts"].get("REFUTED as printed", 0) >= 1
    assert any(erratum.id in r["obligations"] for r in rows)
    # obligations attached to no item are named, never silently dropped
    attached = {i for r in rows for i in r["obligations"]}
    assert set(s["obligations_on_unnumbered_text"]) == {o.id for o in ks} - attached


def test_cli_no_run_and_bad_paper(tmp_path):
    import importlib

    from test_schemas import assert_valid

    run = importlib.import_module("attncert.cli.main").run
    out, err = io.StringIO(), io.StringIO()
    js = tmp_path / "cov.json"
    assert run(["coverage", "ks", "--no-run", "--json", str(js)], out, err) == 0
    assert "numbered items transcribed" in out.getvalue()
    rec = json.loads(js.read_text())
    assert_valid(rec, "attncert coverage --json")
    assert set(rec["summary"]) == {"ks"}
    assert all(set(r["verdicts"]) <= {"NOT RUN"} for r in rec["items"])
    err = io.StringIO()
    assert run(["coverage", "mine"], io.StringIO(), err) == 2 and "unknown paper" in err.getvalue()


def test_docs_coverage_table_is_current(certified_all):
    """docs/coverage.md carries the table `attncert coverage --md` writes, with today's verdicts (read from a
    fresh `certify all`)."""
    from test_schemas import assert_valid

    verdicts = {}
    for f in certified_all.rglob("*.json"):
        c = json.loads(f.read_text())
        if "claim" not in c:
            continue   # theorem certificates
        erratum = c["verdict"] == "REFUTED" and c.get("expected") == "REFUTED" and c.get("finding") is not None
        verdicts[c["id"]] = (c["verdict"], erratum)
    rec = coverage.table(_obligations(), verdicts)
    assert_valid(rec, "coverage table")
    assert all("NOT RUN" not in r["verdicts"] for r in rec["items"])
    doc = (ROOT / "docs" / "coverage.md").read_text()
    start, end = "<!-- coverage-table -->\n", "<!-- /coverage-table -->"
    assert doc[doc.index(start) + len(start):doc.index(end)] == coverage.markdown(rec), \
        "re-run `attncert coverage --md FILE` and paste it into docs/coverage.md"

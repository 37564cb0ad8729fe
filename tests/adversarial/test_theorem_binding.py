"""Theorem certificates are bound to their roots' claims and to attncert's released records (attack round 14,
docs/soundness.md). Each forgery below was accepted by the format attncert.theorem/1:

- F1: the committed ks.lemma1 theorem certificate, unchanged, over a root step certificate with the same id
  that proves another claim (r > 0 under the same hypotheses);
- F2: ks.lemma1 re-recorded with one root and no instance range, so that it reads PROVED (in the paper's
  generality);
- F3: ks.lemma4 recorded as REFUTED AS PRINTED, its 'printed statement' a sharpness probe of Lemma 1.

Now F1 is CONDITIONAL (the root states another claim), F2 and F3 are CONDITIONAL (the record differs from the
released one), the retired format is REJECTED, and a user's own theorem is checked and marked as its
author's."""

from __future__ import annotations

import copy
import dataclasses
import io
import json
import shutil
from pathlib import Path

import pytest

from attncert.checker.verify import digest, verify_paths

ROOT = Path(__file__).resolve().parents[2]
KS = ROOT / "certificates" / "ks"


def _load(p: Path) -> dict:
    return json.loads(p.read_text(encoding="utf-8"))


def _write(p: Path, obj: dict) -> Path:
    obj = dict(obj)
    obj.pop("cert_sha256", None)
    obj["cert_sha256"] = digest(obj)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(obj), encoding="utf-8")
    return p


def _verify(paths) -> dict:
    report: list = []
    verify_paths([str(p) for p in paths], io.StringIO(), quiet=True, report=report, allow_conditional=True, jobs=2)
    return {r.get("id", r["path"]): r for r in report}


@pytest.fixture(scope="module")
def steps(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    d = tmp_path_factory.mktemp("steps") / "ks_boltzmann"
    shutil.copytree(KS / "ks_boltzmann", d)
    return d


def test_a_swapped_root_does_not_count(steps, tmp_path):
    from attncert import api
    from attncert.core.certificate import build
    from attncert.core.engine import run_obligation
    from attncert.core.expr import var

    (root,) = api.select("ks.boltz.lemma1.conclusion_16.n2")
    plain = tuple(h for h in root.claim.hyps if h.by is None)
    other = dataclasses.replace(root, claim=dataclasses.replace(root.claim, hyps=plain, goal=(var("r") > 0).node),
                                repairs=None)
    res = run_obligation(other, 30)
    assert res.verdict.name == "PROVED"
    forged = tmp_path / "ks_boltzmann"
    shutil.copytree(steps, forged)
    (forged / "ks.boltz.lemma1.conclusion_16.n2.json").write_text(json.dumps(build(res)), encoding="utf-8")
    got = _verify([forged, KS / "theorems" / "ks.lemma1.json"])
    assert got["ks.boltz.lemma1.conclusion_16.n2"]["status"] == "VERIFIED"   # a true step, of another claim
    th = got["ks.lemma1"]
    assert th["status"] == "CONDITIONAL" and th["computed"] == "OPEN", th
    assert "states another claim than the root this theorem names" in " ".join(th["blocking"])


def test_edited_records_differ_from_the_released_ones(steps, tmp_path):
    lemma1 = _load(KS / "theorems" / "ks.lemma1.json")
    f2 = copy.deepcopy(lemma1)
    keep = "ks.boltz.lemma1.conclusion_16.n2"
    f2.update(roots=[keep], root_claims={keep: lemma1["root_claims"][keep]}, instances=None, verdict="PROVED",
              hypotheses=[h for h in lemma1["hypotheses"] if h["root"] == keep])
    lemma4 = _load(KS / "theorems" / "ks.lemma4.json")
    sharp = _load(steps / "ks.boltz.lemma1.sharpness.n2.json")
    f3 = copy.deepcopy(lemma4)
    f3.update(roots=[], root_claims={}, instances=None, hypotheses=[], verdict="REFUTED AS PRINTED", axioms=[],
              printed=sharp["id"], printed_claim=sharp["claim_sha256"], repaired="ks.lemma1", declared=None)
    f3.pop("definitions", None)   # they name the roots removed here
    d = tmp_path / "theorems"
    retired = copy.deepcopy(lemma1)
    retired["schema"] = "attncert.theorem/1"
    for k in ("root_claims", "printed_claim"):
        retired.pop(k)
    # the released record's n = 2 roots (its roots for every n are certificates of ks_general, not in this set)
    n2 = [r for r in lemma1["roots"] if r.startswith("ks.boltz.")]
    mine = copy.deepcopy(lemma1)
    mine.update(id="mine.lemma1_n2", label="Lemma 1, n 2", roots=n2,
                root_claims={r: lemma1["root_claims"][r] for r in n2},
                hypotheses=[h for h in lemma1["hypotheses"] if h["root"] in n2],
                axioms=["exp_add", "exp_le", "exp_log", "exp_lt", "exp_neg", "exp_pos", "exp_zero", "log_exp", "log_le",
                        "log_lt", "log_mul", "log_one", "log_tangent"])
    paths = [_write(d / "ks.lemma1.json", f2), _write(d / "ks.lemma4.json", f3), _write(d / "mine.json", mine)]
    old = _write(tmp_path / "old" / "ks.lemma1.json", retired)
    got = _verify([steps, *paths, old])
    for tid, wrote in (("ks.lemma1", "PROVED"), ("ks.lemma4", "REFUTED AS PRINTED")):
        r = got[tid]
        assert r["status"] == "CONDITIONAL" and r["verdict"] == wrote, r
        assert any("differs from the released " + tid in c for c in r["conditions"]), r["conditions"]
    # the same record under an id attncert did not release: checked, and marked as its author's
    r = got["mine.lemma1_n2"]
    assert r["status"] == "VERIFIED" and r["computed"] == "PROVED FOR INSTANCES" and r["released"] is False, \
        r.get("conditions")
    r = got[str(old)]
    assert r["status"] == "REJECTED" and "retired" in r["reason"], r


def test_the_committed_theorems_are_the_released_ones():
    from attncert.checker.theorems import record_digest, released

    files = sorted(ROOT.glob("certificates/*/theorems/*.json"))
    got = {(o := _load(f))["id"]: record_digest(o, digest) for f in files}
    assert got == released(), "re-run `attncert certify all --out certificates --manifest src/attncert/checker/theorems.json`"


def test_a_confirmed_root_is_bound_too(tmp_path):
    """Attack round 15: a single CONFIRMED root made a released OPEN theorem print CONFIRMED, whatever claim
    the root stated and whatever the release declares missing (ks.lemma3: the premises (76), (77))."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    d = tmp_path / "ks_theorems"
    shutil.copytree(KS / "ks_theorems", d)
    sampled = _load(KS / "ks_boltzmann" / "ks.boltz.lemma6.conclusion_103.n2.sampled.json")
    assert sampled["verdict"] == "CONFIRMED"
    root = _load(KS / "theorems" / "ks.lemma3.json")["roots"][0]
    _write(d / f"{root}.json", {**sampled, "id": root})          # F1a: another claim, under the root's id
    got = _verify([d, KS / "theorems" / "ks.lemma3.json"])
    th = got["ks.lemma3"]
    assert th["computed"] == "OPEN" and "states another claim" in " ".join(th["blocking"]), th
    # a theorem id is visible ASCII: a look-alike of a released id is refused
    lemma3 = _load(KS / "theorems" / "ks.lemma3.json")
    fake = _write(tmp_path / "fake" / "t.json", {**lemma3, "id": "ks.l\u0435mma3"})
    got = _verify([fake])
    (r,) = got.values()
    assert r["status"] == "REJECTED" and "visible ASCII" in r["reason"], r


@pytest.mark.parametrize("case, why", [
    ("mvt", "cites the mean value theorem on infoflow.model.fig5.learns, whose conditions are checked only in a PROVED"),
    ("plain", "a plain hypothesis is not named as a hypothesis of the theorem"),
])
def test_a_confirmed_root_passes_the_checks_of_a_proved_one(case, why):
    """Attack round 16 (files as the reviewer forged them): a user's theorem recorded CONFIRMED over one CONFIRMED
    root that cites `mvt:` (never checked outside a PROVED certificate) or has an unnamed plain premise."""
    got = _verify([Path(__file__).parent / "data" / "round16" / case])
    (th,) = [r for r in got.values() if r.get("theorem")]
    assert th["status"] == "CONDITIONAL" and th["computed"] == "OPEN" and th["released"] is False, th
    assert any(why in b for b in th["blocking"]), th["blocking"]

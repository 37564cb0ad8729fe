"""--jobs (deterministic order, same verdicts), the result cache (hits give identical evidence, a changed
claim or tool version misses, UNKNOWN is never cached, a damaged entry is ignored), --junit, and the pytest
plugin in a fresh project."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from attncert.core.claims import claim
from attncert.core.expr import var
from attncert.core.families import select
from attncert.core.runner import ResultCache, run_many
from attncert.core.verdict import Verdict

pytest.importorskip("z3")
pytest.importorskip("cvc5")

SEL = "infoflow_thm6"


def _sig(results):
    return [(r.obligation.id, r.verdict.name, r.evidence.method, json.dumps(r.evidence.detail, sort_keys=True))
            for r in results]


def test_jobs_same_results_same_order():
    obs = select(SEL)
    one = run_many(obs, 30, jobs=1)
    two = run_many(obs, 30, jobs=2)
    assert _sig(one) == _sig(two)
    seen = []
    run_many(obs, 30, jobs=2, on_result=lambda r: seen.append(r.obligation.id))
    assert seen == [o.id for o in obs]


def test_cache_hits_are_identical_and_keyed(tmp_path):
    obs = select(SEL)
    c1 = ResultCache(str(tmp_path / "c"))
    fresh = run_many(obs, 30, cache=c1)
    assert c1.hits == 0
    c2 = ResultCache(str(tmp_path / "c"))
    cached = run_many(obs, 30, cache=c2)
    assert c2.hits == len(obs) and _sig(fresh) == _sig(cached)
    # the same timeout written as an int or a float is the same run (`certify` passes 300.0, a caller 300);
    # another timeout is another run
    assert c2.key(obs[0], 30) == c2.key(obs[0], 30.0) and c2.key(obs[0], 30) != c2.key(obs[0], 31)
    assert ResultCache(str(tmp_path / "c")).get(obs[0], 30.0) is not None
    # a changed claim misses
    ob = obs[0]
    changed = dataclasses.replace(ob, claim=claim(["x"], [], var("x") * 0 <= 1))
    assert c2.key(changed, 30) != c2.key(ob, 30)
    # another tool version misses
    c3 = ResultCache(str(tmp_path / "c"))
    c3.tools = dict(c3.tools, z3="0.0.0")
    assert c3.get(ob, 30) is None
    # a damaged entry is ignored
    p = c2._path(c2.key(ob, 30))
    with open(p, "w") as fh:
        fh.write("{not json")
    assert ResultCache(str(tmp_path / "c")).get(ob, 30) is None


def test_unknown_is_not_cached(tmp_path):
    ob = select(SEL)[0]
    unk = dataclasses.replace(ob, claim=claim(["x"], [], var("x") * var("x") > 5), methods=("smt",), id="t.unknown")
    c = ResultCache(str(tmp_path))
    r = run_many([unk], 5, cache=c)[0]
    assert r.verdict == Verdict.UNKNOWN
    assert c.get(unk, 5) is None


def test_cli_cache_and_junit(tmp_path, monkeypatch):
    from attncert.cli import run

    monkeypatch.delenv("ATTNCERT_NO_CACHE", raising=False)
    monkeypatch.setenv("ATTNCERT_CACHE_DIR", str(tmp_path / "cache"))
    out1, err1 = io.StringIO(), io.StringIO()
    assert run(["check", SEL, "--junit", str(tmp_path / "j.xml")], out1, err1) == 0
    out2, err2 = io.StringIO(), io.StringIO()
    assert run(["check", SEL, "--jobs", "2"], out2, err2) == 0
    assert "from the cache" in err2.getvalue()
    strip = lambda s: [ln.rsplit("(", 1)[0] for ln in s.splitlines()]  # noqa: E731 - drop the timings
    assert strip(out1.getvalue()) == strip(out2.getvalue())
    root = ET.parse(tmp_path / "j.xml").getroot()
    assert root.tag == "testsuites" and int(root.get("tests")) == len(select(SEL)) and root.get("failures") == "0"
    assert run(["check", SEL, "--jobs", "0"], io.StringIO(), io.StringIO()) == 2


def test_junit_failure_and_skip():
    from attncert.core.claims import Result, Evidence
    from attncert.integrations.junit import junit_xml

    ob = select(SEL)[0]
    bad = Result(ob, Evidence(Verdict.REFUTED, "probe", {"kind": "counterexample", "point": {"n": "3", "a": "-1/2"}}), 0.1)
    unk = Result(dataclasses.replace(ob, id="x.unk"), Evidence(Verdict.UNKNOWN, "smt", {"kind": "none", "reason": "timeout"}), 0.1)
    root = ET.fromstring(junit_xml([bad, unk]))
    assert root.get("failures") == "1" and root.get("skipped") == "1"
    cases = root.findall(".//testcase")
    assert cases[0].find("failure") is not None and cases[1].find("skipped").get("message") == "timeout"
    assert "counterexample: a = -1/2, n = 3" in cases[0].find("failure").text  # exact, in the failure body
    assert cases[0].get("classname") == ob.family


def test_pytest_plugin_in_a_fresh_project(tmp_path):
    import shutil

    certs = os.path.join(os.path.dirname(os.path.dirname(__file__)), "certificates", "infoflow", "infoflow_thm6")
    cmd = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--attncert", "infoflow.thm6.lemma1*",
           "--attncert-certs"]
    # the whole folder: every certificate verifies, none is conditional
    r = subprocess.run(cmd + [certs], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    n_cert = len([f for f in os.listdir(certs) if f.endswith(".json")])
    assert f"{len(select('infoflow.thm6.lemma1*')) + n_cert} passed" in r.stdout
    # without the certificate that lemma1_conclusion_943 links (lemma1_sum_934), that one is CONDITIONAL: it fails
    # unless allowed
    part = tmp_path / "part"
    shutil.copytree(certs, part)
    (part / "infoflow.thm6.lemma1_sum_934.json").unlink()
    r = subprocess.run(cmd + [str(part)], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1 and "CONDITIONAL" in r.stdout, r.stdout[-2000:]
    r = subprocess.run(cmd + [str(part), "--attncert-allow-conditional"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout[-2000:]
    # a tampered certificate fails its test
    bad = tmp_path / "bad.json"
    src = open(os.path.join(certs, sorted(os.listdir(certs))[0])).read()
    bad.write_text(src.replace('"PROVED"', '"REFUTED"', 1))
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--attncert-certs", str(bad)],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 1 and "1 failed" in r.stdout
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--attncert", "no.such.*"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode != 0


def test_dask_executor_matches_local(tmp_path):
    pytest.importorskip("distributed")
    from attncert.cli import run

    out_l, out_d = io.StringIO(), io.StringIO()
    assert run(["check", SEL, "--no-cache"], out_l, io.StringIO()) == 0
    err = io.StringIO()
    assert run(["check", SEL, "--no-cache", "--executor", "dask", "--jobs", "2"], out_d, err) == 0, err.getvalue()
    strip = lambda s: [ln.rsplit("(", 1)[0] for ln in s.splitlines()]  # noqa: E731
    assert strip(out_l.getvalue()) == strip(out_d.getvalue())
    assert run(["check", SEL, "--executor", "spark"], io.StringIO(), io.StringIO()) == 2

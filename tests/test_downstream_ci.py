"""docs/ci.md followed literally in a new repository (issue 18, item 9).

The page marks its blocks: ``<!-- file: PATH -->`` before a fenced block is a file of the downstream
project, ``<!-- run -->`` before one is a list of shell commands run there. This test builds a throw-away
project from exactly those blocks, runs the local commands (certify, git add, git commit), then every
``run:`` step of the workflow file in order, and checks each outcome. The one step it cannot take
literally is ``pip install -r requirements.txt`` (no network): it checks that the requirement names
attncert with extras that exist, and runs the rest with the attncert installed here."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ci.md"
BLOCK = re.compile(r"<!-- (file: (?P<path>\S+)|run) -->\n```[a-z]*\n(?P<body>.*?)```", re.S)


def _blocks():
    files, runs = {}, []
    for m in BLOCK.finditer(DOC.read_text()):
        if m["path"]:
            files[m["path"]] = m["body"]
        else:
            runs += [ln for ln in m["body"].splitlines() if ln.strip()]
    return files, runs


def test_the_page_has_the_recipe():
    files, runs = _blocks()
    assert set(files) == {"requirements.txt", "claims.py", ".github/workflows/attncert.yml"}
    assert any(r.startswith("attncert certify ") for r in runs), "where the certificates come from"


def test_requirement_names_attncert_with_real_extras():
    from packaging.requirements import Requirement

    files, _ = _blocks()
    lines = [ln for ln in files["requirements.txt"].splitlines() if ln.strip() and not ln.startswith("#")]
    assert len(lines) == 1
    req = Requirement(lines[0])
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert req.name == "attncert" and req.extras and set(req.extras) <= set(extras)
    assert req.url and re.search(r"@[0-9a-f]{40}$", req.url), "pinned to a commit"
    ci = " ".join(extras["ci"])
    assert "solvers" in ci and "pytest" in ci


def _workflow():
    yaml = pytest.importorskip("yaml")
    files, _ = _blocks()
    wf = yaml.safe_load(files[".github/workflows/attncert.yml"])
    (job,) = wf["jobs"].values()
    return job["steps"]


def test_workflow_cache_and_upload():
    steps = _workflow()
    cache = next(s for s in steps if s.get("uses", "").startswith("actions/cache@"))
    assert cache["with"]["path"] == ".attncert-cache"
    assert "hashFiles(" in cache["with"]["key"] and cache["with"]["restore-keys"].strip()
    assert cache["with"]["key"].startswith(cache["with"]["restore-keys"].strip())
    up = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact@"))
    assert up.get("if") == "always()", "the JUnit files are uploaded when a step failed too"
    order = [s.get("uses", s.get("run", "")).split("@")[0] for s in steps]
    assert order.index("actions/cache") < min(i for i, s in enumerate(steps) if "attncert check" in s.get("run", ""))


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    d = tmp_path_factory.mktemp("my-paper")
    files, runs = _blocks()
    for rel, body in files.items():
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(body)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.org"}
    for k in ("ATTNCERT_CACHE_DIR", "ATTNCERT_NO_CACHE"):   # the project's own .attncert-cache, as in CI
        env.pop(k, None)
    subprocess.run(["git", "init", "-q", str(d)], check=True, env=env)
    local = [subprocess.run(["bash", "-c", r], cwd=d, env=env, capture_output=True, text=True, timeout=600)
             for r in runs]
    return d, env, runs, local


def test_local_commands_write_and_commit_the_certificates(project):
    d, env, runs, local = project
    for r, p in zip(runs, local):
        assert p.returncode == 0, (r, p.stdout[-2000:], p.stderr[-2000:])
    certs = sorted((d / "certificates").rglob("*.json"))
    assert [c.name for c in certs] == ["mine.log.json", "mine.lse.json"]
    tracked = subprocess.run(["git", "ls-files", "certificates"], cwd=d, capture_output=True, text=True,
                             env=env).stdout.split()
    assert len(tracked) == 2


def test_every_workflow_step_passes(project):
    d, env, _, _ = project
    ran = 0
    for step in _workflow():
        cmd = step.get("run")
        if cmd is None:
            continue
        if cmd.startswith("python -m pip install"):
            assert cmd == "python -m pip install -r requirements.txt"
            continue
        p = subprocess.run(["bash", "-c", cmd], cwd=d, env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, (cmd, p.stdout[-3000:], p.stderr[-3000:])
        ran += 1
    assert ran >= 4
    assert (d / ".attncert-cache").is_dir(), "the folder the cache step saves"
    up = next(s for s in _workflow() if s.get("uses", "").startswith("actions/upload-artifact@"))
    junit = sorted(d.glob(up["with"]["path"]))
    assert [j.name for j in junit] == ["attncert-claims.xml", "attncert-infoflow.xml", "attncert-pytest.xml"]
    for j in junit:
        root = ET.parse(j).getroot()
        cases = root.findall(".//testcase")
        assert cases and not root.findall(".//failure") and not root.findall(".//error"), j.name
    pytest_cases = ET.parse(d / "attncert-pytest.xml").getroot().findall(".//testcase")
    assert len(pytest_cases) == 4  # two claims and two certificates


def test_a_tampered_certificate_fails_the_verify_step(project):
    """The recipe is not vacuous: the verify step fails on an edited certificate, and the check step on a
    claim that no longer holds."""
    d, env, _, _ = project
    verify = next(s["run"] for s in _workflow() if s.get("run", "").startswith("attncert verify"))
    check = next(s["run"] for s in _workflow() if s.get("run", "").startswith("attncert check claims.py"))
    cert = next((d / "certificates").rglob("mine.lse.json"))
    original = cert.read_text()
    try:
        cert.write_text(original.replace('"3/4"', '"1/2"', 1) if '"3/4"' in original else original.replace("3", "2", 1))
        p = subprocess.run(["bash", "-c", verify], cwd=d, env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == 1 and "REJECTED" in p.stdout, p.stdout[-2000:]
    finally:
        cert.write_text(original)
    claims = (d / "claims.py").read_text()
    try:
        (d / "claims.py").write_text(claims.replace("ac.Q(3, 4)", "ac.Q(1, 4)"))
        p = subprocess.run(["bash", "-c", check], cwd=d, env=env, capture_output=True, text=True, timeout=600)
        assert p.returncode == 1, p.stdout[-2000:]
    finally:
        (d / "claims.py").write_text(claims)

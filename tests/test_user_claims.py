"""A user's own claims (issue 18, item 2, first part): a Python file that defines FAMILY goes through
check, certify, verify, report and the pytest plugin unchanged; the checker accepts any paper name of
the name grammar; the papers' own families register through the same entry-point group."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CLAIMS = ROOT / "tests" / "data" / "user_claims.py"


def run(*argv, cwd):
    return subprocess.run([sys.executable, "-m", "attncert", *argv], capture_output=True, text=True, timeout=300,
                          cwd=cwd)


@pytest.fixture
def project(tmp_path):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    shutil.copy(CLAIMS, tmp_path / "mine.py")
    return tmp_path


def test_a_claim_file_goes_through_check_certify_verify_report(project):
    p = run("check", "mine.py", "--json", "-", cwd=project)
    assert p.returncode == 0, p.stderr  # 2 PROVED, 1 UNKNOWN (no sampling box): UNKNOWN fails only with --strict
    got = {r["id"]: r["verdict"] for r in json.loads(p.stdout)["results"]}
    assert got == {"mine.square": "UNKNOWN", "mine.amgm": "PROVED", "mine.explog": "PROVED"}
    assert run("check", "mine.py", "--strict", cwd=project).returncode == 1
    p = run("certify", "mine.py", "--out", "certs", cwd=project)
    assert p.returncode == 0 and "wrote 3 certificates" in p.stdout, p.stdout + p.stderr
    p = run("verify", "certs", cwd=project)
    assert p.returncode == 0 and "verified 3/3" in p.stdout and "mypaper" in p.stdout, p.stdout + p.stderr
    p = run("report", "mine.py", "--out", "rep", cwd=project)
    assert p.returncode == 0 and (project / "rep" / "index.html").exists(), p.stdout + p.stderr


def test_a_claim_file_runs_under_pytest(project):
    p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--attncert", "mine.py"],
                       capture_output=True, text=True, timeout=300, cwd=project)
    assert p.returncode == 0 and "2 passed, 1 skipped" in p.stdout, p.stdout + p.stderr


def test_a_claims_list_file_in_under_15_lines(tmp_path):
    """The short form: CLAIMS = [attncert.Claim(...), ...] (tests/data/my_claims.py, 11 lines, 3 claims):
    check, certify, verify, report and pytest --attncert all work on it, with the expected verdicts."""
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    src = ROOT / "tests" / "data" / "my_claims.py"
    assert len(src.read_text().splitlines()) < 15
    shutil.copy(src, tmp_path / "my_claims.py")
    p = run("check", "my_claims.py", "--json", "-", cwd=tmp_path)
    got = {r["id"]: r["verdict"] for r in json.loads(p.stdout)["results"]}
    assert got == {"mine.log": "PROVED", "mine.square": "REFUTED", "mine.lse": "PROVED"}, p.stderr
    assert p.returncode == 1  # a refutation fails check
    p = run("certify", "my_claims.py", "--out", "certs", cwd=tmp_path)
    assert "wrote 3 certificates" in p.stdout, p.stdout + p.stderr
    p = run("verify", "certs", cwd=tmp_path)
    assert p.returncode == 0 and "verified 3/3" in p.stdout and "REFUTED mine.square" in p.stdout, p.stdout
    p = run("report", "my_claims.py", "--out", "rep", cwd=tmp_path)
    assert (tmp_path / "rep" / "index.html").exists(), p.stdout + p.stderr
    p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--attncert", "my_claims.py"],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert "2 passed" in p.stdout and "1 failed" in p.stdout and "x = 1/2" in p.stdout.replace("'", ""), p.stdout


@pytest.mark.parametrize("text,msg", [(None, "no such file"), ("x = (\n", "SyntaxError"),
                                      ("X = 1\n", "defines neither CLAIMS")])
def test_a_bad_claim_file_is_one_line_and_exit_2(tmp_path, text, msg):
    if text is not None:
        (tmp_path / "bad.py").write_text(text)
    p = run("check", "bad.py", cwd=tmp_path)
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert p.returncode == 2 and len(lines) == 1 and msg in lines[0] and "Traceback" not in p.stderr, p.stderr


def test_the_papers_register_through_the_entry_point_group():
    from importlib.metadata import entry_points

    import attncert_proofs
    from attncert.core.families import ENTRY_POINTS, all_families

    names = {ep.name for ep in entry_points(group=ENTRY_POINTS)}
    assert set(attncert_proofs.FAMILIES) <= names
    assert [f.name for f in all_families()][:len(attncert_proofs.FAMILIES)] == attncert_proofs.FAMILIES


@pytest.mark.parametrize("paper,ok", [("mypaper", True), ("arXiv.2605-17930_v2", True), ("", False),
                                      ("a b", False), ("x" * 65, False), ("é", True)])
def test_checker_paper_names(tmp_path, paper, ok):
    """Any paper name of letters, digits, '_', '-', '.' verifies; the two-paper allow-list is gone."""
    sys.path.insert(0, str(ROOT / "tests" / "adversarial"))
    try:
        from forge import cert, claim, num, op, write
    finally:
        sys.path.pop(0)
    from attncert.checker.verify import check_cert, load
    from attncert.checker.trees import Reject

    c = cert("user.paper", claim([], [], op("lt", num(1), num(2))), {"kind": "none", "reason": "x"}, "UNKNOWN",
             paper=paper)
    p = write(tmp_path, c, name="p")
    if ok:
        assert check_cert(load(str(p)))[0] == "UNKNOWN"
    else:
        with pytest.raises(Reject, match="paper"):
            check_cert(load(str(p)))


def test_pytest_node_ids_select_and_junit_classname_is_the_family(tmp_path):
    """Items are FAMILY::ID: --deselect and -k select them, and JUnit's classname is the family (item 7)."""
    pytest.importorskip("z3")
    pytest.importorskip("flint")
    shutil.copy(ROOT / "tests" / "data" / "my_claims.py", tmp_path / "my_claims.py")
    p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--attncert", "my_claims.py",
                        "--junitxml", "j.xml", "--deselect", "my_claims::mine.lse", "-k", "not square"],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert "1 passed, 2 deselected" in p.stdout, p.stdout + p.stderr
    xml = (tmp_path / "j.xml").read_text()
    assert 'classname="my_claims" name="mine.log"' in xml and "mine.lse" not in xml
    p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--attncert", "my_claims.py"],
                       capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert "FAILED my_claims::mine.square" in p.stdout, p.stdout

"""The command line as a user meets it: help, list, check/audit JSON, exit codes and error messages."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LINE = re.compile(r"^ks:.*: (PROVED|REFUTED|CONFIRMED|UNKNOWN).*\((\w+), [0-9.]+s\)")


def attncert(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "attncert.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def _one_line_error(p):
    assert "Traceback" not in p.stderr + p.stdout
    lines = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith("attncert"), lines[0]
    return lines[0]


def test_console_script_exists():
    exe = Path(sys.executable).parent / "attncert"
    assert exe.exists()
    p = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["verify", "--help"], ["certify", "--help"],
                                  ["audit", "--help"], ["list", "--help"]])
def test_help_mentions_exit_codes(argv):
    p = attncert(*argv)
    assert p.returncode == 0, p.stderr
    assert "exit codes" in p.stdout
    assert "usage: attncert" in p.stdout


def test_no_command_prints_help_and_exits_2():
    p = attncert()
    assert p.returncode == 2
    assert "usage" in p.stdout


def test_list():
    p = attncert("list")
    assert p.returncode == 0, p.stderr
    assert "ks.boltz.identity_85.n3" in p.stdout
    p = attncert("list", "ks.boltz.lemma5.*")
    assert p.returncode == 0
    ids = [ln.split()[0] for ln in p.stdout.splitlines() if ln.startswith("  ")]
    assert ids and all(i.startswith("ks.boltz.lemma5.") for i in ids)


@pytest.mark.parametrize("argv", [
    ["check", "no.such.obligation"], ["list", "nope*"], ["certify", "zzz", "--out", "/tmp/never-written"],
    ["audit", "zzz"],
])
def test_unknown_selector_exit_2(argv):
    p = attncert(*argv)
    assert p.returncode == 2, (p.stdout, p.stderr)
    line = _one_line_error(p)
    assert "matches nothing" in line
    assert not Path("/tmp/never-written").exists()


def test_verify_nonexistent_exit_2():
    p = attncert("verify", "/nonexistent/certs")
    assert p.returncode == 2
    assert "/nonexistent/certs" in _one_line_error(p)


@pytest.mark.parametrize("value", ["abc", "-1", "0", "nan", "inf", "1e9", ""])
@pytest.mark.parametrize("cmd", ["check", "verify", "audit"])
def test_bad_timeout_exit_2(cmd, value, tmp_path):
    extra = [str(tmp_path)] if cmd == "verify" else ["ks.boltz.lemma5.step_100c"]
    p = attncert(cmd, *extra, "--timeout", value)
    assert p.returncode == 2, (cmd, value, p.stdout, p.stderr)
    _one_line_error(p)


def test_unknown_option_and_command_exit_2():
    for argv in (["check", "--frobnicate"], ["frobnicate"], ["certify", "ks"]):  # certify needs --out
        p = attncert(*argv)
        assert p.returncode == 2, argv
        _one_line_error(p)


def test_check_lemma5_json(tmp_path):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    f = tmp_path / "out" / "check.json"
    p = attncert("check", "ks.boltz.lemma5.*", "--json", str(f))
    assert p.returncode == 0, p.stdout + p.stderr
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("ks:")]
    assert lines
    for ln in lines:
        assert LINE.match(ln), ln
    data = json.loads(f.read_text())
    assert data["schema"] == "attncert.check/1"
    assert len(data["results"]) == len(lines)
    for r in data["results"]:
        assert {"id", "paper", "ref", "statement", "verdict", "method", "seconds", "evidence"} <= set(r)
        assert r["verdict"] in ("PROVED", "REFUTED", "CONFIRMED", "UNKNOWN")
        assert r["paper"] == "ks" and r["id"].startswith("ks.boltz.lemma5.")
        assert isinstance(r["seconds"], (int, float)) and r["seconds"] >= 0
        assert isinstance(r["evidence"], dict) and "kind" in r["evidence"]
    assert "obligations;" in p.stdout  # the summary


def test_check_unexpected_verdict_exit_1(tmp_path):
    """A proof that does not go through (here: a planted wrong constant) makes check exit 1."""
    code = ("import sys, io; from attncert import cli, api;"
            "import attncert_proofs.ks_boltzmann as K;"
            "from dataclasses import replace;"
            "obs=[replace(o, expect=None, family='planted') for o in K.planted()][:1];"
            "api.select=lambda s: obs;"
            "sys.exit(cli.run(['check','x']))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert p.returncode == 1, p.stdout + p.stderr
    assert re.search(r"^ks:B.2 \(84\) planted: REFUTED", p.stdout, re.M), p.stdout
    assert "1 not as expected" in p.stdout


def test_audit_json(tmp_path):
    pytest.importorskip("z3")
    pytest.importorskip("flint")
    from attncert.integrations.audit import md_escape

    f = tmp_path / "audit.json"
    md = tmp_path / "audit.md"
    # Lemma 7's printed steps (its three errata); the whole family would add 25 s of SMT (conclusion_117.n3k0)
    p = attncert("audit", "ks.boltz.lemma7.*as_printed*", "--json", str(f), "--md", str(md))
    assert p.returncode == 0, p.stdout + p.stderr
    data = json.loads(f.read_text())
    assert data["schema"] == "attncert.audit/2"
    ids = {x["id"] for x in data["errata"]}
    assert ids == {"ks-lemma7-114", "ks-lemma7-120", "ks-lemma7-128"}, ids   # Lemma 7's three errata, one entry each
    for x in data["errata"]:
        assert x["confirmed"] and x["evidence"] and all(e["verdict"] == "REFUTED" for e in x["evidence"])
        assert md_escape(x["quote"]) in md.read_text() and x["title"] in p.stdout
    assert p.stdout.startswith("3 errata (2 false steps with a harmless repair, 1 typo)")
    assert "Dear Kajitsuka and Sato," in md.read_text()


def test_json_output_to_unwritable_path_is_an_error_not_a_traceback(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    p = attncert("check", "ks.boltz.lemma5.step_100c", "--json", str(blocker / "sub" / "out.json"))
    assert p.returncode in (1, 2)
    assert "Traceback" not in p.stderr


@pytest.mark.parametrize("value", ["", "yices", "z3,", "z3,foo"])
def test_verify_bad_solvers_exit_2(value, tmp_path):
    p = attncert("verify", str(tmp_path), "--solvers", value)
    if value == "z3,":  # a trailing comma is harmless
        return
    assert p.returncode == 2, (value, p.stdout, p.stderr)
    _one_line_error(p)


def test_verify_jobs_and_solvers_give_the_same_verdicts(tmp_path):
    """Worker processes change nothing but the time: the same lines in the same order for 1 and 2 jobs,
    including a rejected (tampered) file and CONDITIONAL ones; --solvers z3 names what it did not re-run."""
    import shutil

    pytest.importorskip("z3")
    src = ROOT / "certificates" / "ks" / "ks_boltzmann"
    names = sorted(p.name for p in src.glob("ks.boltz.lemma4*.json"))[:6] + ["ks.boltz.lemma5.step_100c.json"]
    for n in names:
        shutil.copy(src / n, tmp_path / n)
    bad = tmp_path / names[0]
    bad.write_text(bad.read_text().replace('"verdict": "PROVED"', '"verdict": "REFUTED"'))
    runs = [attncert("verify", str(tmp_path), "--jobs", j, "--allow-conditional") for j in ("1", "2")]
    assert runs[0].stdout == runs[1].stdout and runs[0].returncode == runs[1].returncode == 1
    assert "REJECTED" in runs[0].stdout and "verified " in runs[0].stdout
    one = attncert("verify", str(tmp_path), "--jobs", "2", "--allow-conditional", "--solvers", "z3")
    assert "re-run on z3 only" in one.stdout and "not re-run: cvc5" in one.stdout
    assert [ln.split(":")[0] for ln in one.stdout.splitlines() if ln.startswith(("OK", "REJ", "COND"))] == \
        [ln.split(":")[0] for ln in runs[0].stdout.splitlines() if ln.startswith(("OK", "REJ", "COND"))]


def test_version_and_python_dash_m():
    from attncert import __version__

    for argv in ([sys.executable, "-m", "attncert", "--version"], [sys.executable, "-m", "attncert.cli", "--version"]):
        p = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=ROOT)
        assert p.returncode == 0 and p.stdout.strip() == f"attncert {__version__}", p.stdout + p.stderr


@pytest.mark.parametrize("argv", [["list", "ks.boltz.lemma5.*"], ["audit", "ks.boltz.lemma7.*as_printed*"]])
def test_json_dash_writes_only_json_to_stdout(argv):
    """--json -: the JSON alone on stdout (parseable), the usual lines on stderr."""
    p = attncert(*argv, "--json", "-")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    assert data["schema"].startswith(("attncert.list/", "attncert.audit/")) and p.stderr.strip()
    if argv[0] == "list":
        ids = [o["id"] for f in data["families"] for o in f["obligations"]]
        assert ids and all(i.startswith("ks.boltz.lemma5.") for i in ids)


def _planted_unknown_code(argv):
    return ("import sys; from attncert import cli, api;"
            "import attncert_proofs.ks_boltzmann as K;"
            "from dataclasses import replace;"
            "obs=[replace(o, expect=None, family='planted', methods=('nosuchmethod',)) for o in K.planted()][:1];"
            f"api.select=lambda s: obs; sys.exit(cli.run({argv!r}))")


@pytest.mark.parametrize("cmd", ["check", "report"])
def test_one_unknown_policy_strict_fails(cmd, tmp_path):
    """UNKNOWN is reported and counted but is not a failure, unless --strict (the pytest plugin agrees:
    test_pytest_plugin_unknown_policy)."""
    extra = ["--out", str(tmp_path)] if cmd == "report" else []
    for strict, want in ((False, 0), (True, 1)):
        argv = [cmd, "x", *extra] + (["--strict"] if strict else [])
        p = subprocess.run([sys.executable, "-c", _planted_unknown_code(argv)], capture_output=True, text=True,
                           timeout=300, cwd=ROOT)
        assert p.returncode == want, (strict, p.stdout, p.stderr)
        if cmd == "check":
            assert "UNKNOWN" in p.stdout and "1 UNKNOWN (a failure only with --strict)" in p.stdout, p.stdout


def test_pytest_plugin_unknown_policy(tmp_path):
    """The plugin skips an UNKNOWN obligation, and fails it with --attncert-strict."""
    (tmp_path / "conftest.py").write_text(
        "import attncert_proofs.ks_boltzmann as K\n"
        "from dataclasses import replace\n"
        "import attncert.core.families as F\n"
        "obs = [replace(o, expect=None, family='planted', methods=('nosuchmethod',)) for o in K.planted()][:1]\n"
        "F.select = lambda s: obs\n")
    base = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--attncert", "x"]
    p = subprocess.run(base, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 0 and "1 skipped" in p.stdout, p.stdout + p.stderr
    p = subprocess.run(base + ["--attncert-strict"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert p.returncode == 1 and "1 failed" in p.stdout, p.stdout + p.stderr

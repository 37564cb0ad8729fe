"""Shared pytest hooks: tests may add summary lines (e.g. the smallest ratio seen by a property test)
with ``summary_line(config, text)``; they are printed in the terminal summary, even under capture."""

from __future__ import annotations

import os

import pytest

# tests are hermetic: no result cache unless a test asks for one (tests/test_runner.py)
os.environ.setdefault("ATTNCERT_NO_CACHE", "1")

_KEY = pytest.StashKey[list]()


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory):
    """One result cache for the tests that run whole commands as a user does (the README's examples):
    ``certified_all`` fills it, so each obligation is computed once per session."""
    return tmp_path_factory.mktemp("attncert-cache")


@pytest.fixture(scope="session")
def certified_all(tmp_path_factory, session_cache):
    """``attncert certify all --jobs 2`` once per session, into a fresh folder, through the session cache
    (which is empty when it starts: every verdict is computed here)."""
    import importlib
    import io

    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    out = tmp_path_factory.mktemp("fresh")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("ATTNCERT_NO_CACHE", raising=False)
        mp.setenv("ATTNCERT_CACHE_DIR", str(session_cache))
        err = io.StringIO()
        code = importlib.import_module("attncert.cli.main").run(
            ["certify", "all", "--out", str(out), "--jobs", "2", "-q"], io.StringIO(), err)
    assert code == 0, err.getvalue()[-2000:]
    return out


@pytest.fixture(scope="session")
def all_results(certified_all, session_cache):
    """The results of every obligation, read through the session cache that ``certified_all`` filled (for the
    audit and the report)."""
    import io

    from attncert import api
    from attncert.cli.common import run_all
    from attncert.core.engine import WALL_TIMEOUT_S

    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("ATTNCERT_NO_CACHE", raising=False)
        mp.setenv("ATTNCERT_CACHE_DIR", str(session_cache))
        return run_all(api.select("all"), WALL_TIMEOUT_S, io.StringIO(), "checking", use_cache=True)


# the README's whole-folder check, which .ci/run also runs: one subprocess per session serves both the README
# test (its printed lines) and tests/test_committed_certificates.py (its --json records)
VERIFY_ALL = ("verify", "certificates", "--quiet", "--allow-conditional")


@pytest.fixture(scope="session")
def committed_verify(tmp_path_factory):
    """``attncert verify certificates --quiet --allow-conditional --json FILE`` over the committed folder, run
    once per session as a user runs it (a subprocess in the repository root, default jobs): the finished
    process and the parsed records of its --json file (which changes nothing on stdout)."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    out = tmp_path_factory.mktemp("verify") / "verify.json"
    p = subprocess.run([sys.executable, "-m", "attncert", *VERIFY_ALL, "--json", str(out)],
                       cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=1800)
    records = json.loads(out.read_text())["results"] if out.is_file() else None
    return p, records


def summary_line(config, text: str) -> None:
    config.stash.setdefault(_KEY, []).append(text)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    lines = config.stash.get(_KEY, [])
    if lines:
        terminalreporter.section("attncert test notes")
        for ln in lines:
            terminalreporter.write_line(ln)

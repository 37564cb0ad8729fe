"""Shared pytest hooks: tests may add summary lines (e.g. the smallest ratio seen by a property test)
with ``summary_line(config, text)``; they are printed in the terminal summary, even under capture."""

from __future__ import annotations

import os

import pytest

# tests are hermetic: no result cache unless a test asks for one (tests/test_runner.py)
os.environ.setdefault("ATTNCERT_NO_CACHE", "1")

_KEY = pytest.StashKey[list]()


# The two whole-repository runs (``attncert certify all`` into a fresh folder, and ``attncert verify`` over the
# committed certificates) are the suite's costliest fixtures. When the collected tests need them, they start in
# the background right after collection, each a subprocess with one job, and the modules that
# use them run last: the rest of the suite is mostly one process, so the second core does this work meanwhile
# (the suite's wall time, not what is checked, changes; the verdicts rest on deterministic solver limits, not on
# load: tests/test_load_independence.py). The fixtures wait for them and fail with their output if they fail.
HEAVY = {"certified_all", "all_results", "committed_verify"}
_BG: dict = {}
_BASE = pytest.StashKey[object]()   # the session's folder for the background runs (cache, fresh certificates)
_ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def _solvers_installed(*mods) -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in mods)


def _start(name: str, argv: list, env: dict, out) -> None:
    import subprocess
    import sys

    log = open(out / f"{name}.log", "w+")   # noqa: SIM115 - read back by the fixture, closed at session end
    # at the normal priority: at nice 10 a query of a few seconds was starved past the solvers' 300 s safety kill
    # while tests/test_load_independence.py loaded both cores (z3 then answers unknown, and verify rejects)
    proc = subprocess.Popen([sys.executable, "-m", "attncert", *argv], cwd=_ROOT, env=env, stdout=log,
                            stderr=subprocess.STDOUT)
    _BG[name] = (proc, log)


def _wait(name: str) -> tuple[int, str]:
    proc, log = _BG[name]
    rc = proc.wait(timeout=3600)
    log.seek(0)
    return rc, log.read()


def pytest_collection_modifyitems(session, config, items):
    """Move the modules that use the whole-repository fixtures to the end, and start those runs now."""
    import tempfile
    from pathlib import Path

    heavy = {it.module for it in items if HEAVY & set(getattr(it, "fixturenames", ()))}
    if not heavy or config.option.collectonly:
        return
    items[:] = [it for it in items if it.module not in heavy] + [it for it in items if it.module in heavy]
    if not _solvers_installed("z3", "cvc5", "flint"):
        return   # the fixtures skip
    base = Path(tempfile.mkdtemp(prefix="attncert-suite-"))
    config.stash[_BASE] = base
    (base / "cache").mkdir()
    env = {**os.environ, "ATTNCERT_CACHE_DIR": str(base / "cache")}
    env.pop("ATTNCERT_NO_CACHE", None)
    if {"certified_all", "all_results"} & {f for it in items for f in getattr(it, "fixturenames", ())}:
        _start("certify", ["certify", "all", "--out", str(base / "fresh"), "--jobs", "1", "-q"], env, base)
    if any("committed_verify" in getattr(it, "fixturenames", ()) for it in items):
        _start("verify", [*VERIFY_ALL, "--jobs", "1", "--json", str(base / "verify.json")], dict(os.environ), base)


def pytest_sessionfinish(session, exitstatus):
    import shutil

    for proc, log in _BG.values():
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        log.close()
    base = session.config.stash.get(_BASE, None)
    if base is not None:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture(scope="session")
def session_cache(request, tmp_path_factory):
    """One result cache for the tests that run whole commands as a user does (the README's examples):
    ``certified_all`` fills it, so each obligation is computed once per session."""
    base = request.config.stash.get(_BASE, None)
    return base / "cache" if base is not None else tmp_path_factory.mktemp("attncert-cache")


@pytest.fixture(scope="session")
def certified_all(request, tmp_path_factory, session_cache):
    """``attncert certify all`` once per session, into a fresh folder, through the session cache (which is empty
    when it starts: every verdict is computed here): the background run started after collection, or (when it
    was not started) ``--jobs 2`` in this process."""
    import importlib
    import io

    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    if "certify" in _BG:
        rc, text = _wait("certify")
        assert rc == 0, text[-2000:]
        return request.config.stash[_BASE] / "fresh"
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
def committed_verify(request, tmp_path_factory):
    """``attncert verify certificates --quiet --allow-conditional --json FILE`` over the committed folder, run
    once per session as a user runs it (a subprocess in the repository root; in the background with --jobs 1
    when started after collection, which changes neither its output nor its order): the finished process (its
    returncode, stdout and stderr, the two streams together in the background case) and the parsed records of
    its --json file (which changes nothing on stdout)."""
    import json
    import subprocess
    import sys

    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    if "verify" in _BG:
        rc, text = _wait("verify")
        out = request.config.stash[_BASE] / "verify.json"
        p = subprocess.CompletedProcess(_BG["verify"][0].args, rc, text, "")
    else:
        out = tmp_path_factory.mktemp("verify") / "verify.json"
        p = subprocess.run([sys.executable, "-m", "attncert", *VERIFY_ALL, "--json", str(out)],
                           cwd=_ROOT, capture_output=True, text=True, timeout=1800)
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

"""Shared pytest hooks: tests may add summary lines (e.g. the smallest ratio seen by a property test)
with ``summary_line(config, text)``; they are printed in the terminal summary, even under capture."""

from __future__ import annotations

import os

import pytest

# tests are hermetic: no result cache unless a test asks for one (tests/test_runner.py)
os.environ.setdefault("ATTNCERT_NO_CACHE", "1")

_KEY = pytest.StashKey[list]()


def summary_line(config, text: str) -> None:
    config.stash.setdefault(_KEY, []).append(text)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    lines = config.stash.get(_KEY, [])
    if lines:
        terminalreporter.section("attncert test notes")
        for ln in lines:
            terminalreporter.write_line(ln)

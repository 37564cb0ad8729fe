"""Shared pytest hooks: tests may add summary lines (e.g. the smallest ratio seen by a property test)
with ``summary_line(config, text)``; they are printed in the terminal summary, even under capture."""

from __future__ import annotations

import pytest

_KEY = pytest.StashKey[list]()


def summary_line(config, text: str) -> None:
    config.stash.setdefault(_KEY, []).append(text)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    lines = config.stash.get(_KEY, [])
    if lines:
        terminalreporter.section("attncert test notes")
        for ln in lines:
            terminalreporter.write_line(ln)

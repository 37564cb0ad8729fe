"""Diagnostics and progress through the standard ``logging`` module, never bare writes to stderr.

Every module logs under the ``attncert`` logger (``logging.getLogger(__name__)``). A library user sees
nothing unless they configure logging: the package logger has a ``NullHandler``. The command line
attaches one handler to standard error (``attncert.cli.main``): INFO by default (progress and notes),
WARNING with ``-q``, DEBUG with ``-v``.

Progress of a long loop is a ``Ticker``: it logs nothing for a short run (under ``after`` seconds), then
one line every ``every`` seconds, so a run off a terminal (CI logs, ``nohup``) shows that it is alive and
how far it got. ``ATTNCERT_PROGRESS_EVERY`` (seconds) changes the period; the first line still waits for
``after`` seconds."""

from __future__ import annotations

import logging
import os
import time

logging.getLogger("attncert").addHandler(logging.NullHandler())

AFTER_S = 3.0     # a run shorter than this prints no progress at all
EVERY_S = 10.0    # then one line per period
BEAT_AFTER_S = 4.0  # the command line's heartbeat (a command without a count of its own) starts after this


def _every() -> float:
    try:
        v = float(os.environ.get("ATTNCERT_PROGRESS_EVERY", ""))
    except ValueError:
        return EVERY_S
    return v if v > 0 else EVERY_S


class Ticker:
    """``tick(done)`` in a loop; a line ``LABEL: done/total (p%), S s`` at most once per period, at INFO on
    ``logger``. ``total`` may be None (an open-ended search)."""

    def __init__(self, logger: logging.Logger, label: str, total: int | None = None,
                 every: float | None = None, after: float = AFTER_S):
        self.logger, self.label, self.total = logger, label, total
        self.every = _every() if every is None else every
        self.after = after
        self.t0 = self.last = time.monotonic()
        self.lines = 0

    def __call__(self, done: int, note: str = "") -> None:
        now = time.monotonic()
        if now - self.t0 < self.after or (self.lines and now - self.last < self.every):
            return
        self.last = now
        self.lines += 1
        of = f"/{self.total} ({100 * done // max(self.total, 1)}%)" if self.total else ""
        self.logger.info("%s: %d%s, %.0f s%s", self.label, done, of, now - self.t0, f", {note}" if note else "")

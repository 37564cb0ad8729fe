"""docs/your-own-claims.md is a test (issue 18, item 4): every ``python`` block runs (in order, one shared
namespace, in a temporary folder) and must print exactly the ``text`` block that follows it; every
``console`` block's commands run, and each shown output line must appear in order ('...' matches anything)."""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[1] / "docs" / "your-own-claims.md"


def blocks(text: str) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in re.finditer(r"```(\w+)\n(.*?)```", text, re.S)]


def test_the_tutorial_runs_as_written(tmp_path, monkeypatch):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ATTNCERT_NO_CACHE", "1")
    bs = blocks(DOC.read_text())
    assert sum(1 for k, _ in bs if k == "python") >= 4 and any(k == "console" for k, _ in bs)
    ns: dict = {}
    for i, (kind, body) in enumerate(bs):
        if kind == "python":
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(body, f"{DOC.name} block {i}", "exec"), ns)  # noqa: S102 - our own docs
            nxt = bs[i + 1] if i + 1 < len(bs) else None
            if nxt and nxt[0] == "text":
                assert out.getvalue().strip().splitlines() == nxt[1].strip().splitlines(), (i, out.getvalue())
        elif kind == "console":
            _console(body)


def _console(body: str) -> None:
    cmds: list = []
    for line in body.strip().splitlines():
        if line.startswith("$ "):
            cmds.append((line[2:], []))
        else:
            cmds[-1][1].append(line)
    for cmd, want in cmds:
        argv = shlex.split(cmd)
        assert argv[0] == "attncert"
        p = subprocess.run([sys.executable, "-m", "attncert", *argv[1:]], capture_output=True, text=True,
                           timeout=600, env={**os.environ})
        got = p.stdout.splitlines()
        k = 0
        for w in want:
            pat = re.compile(".*".join(re.escape(part) for part in w.split("...")) + r"\Z")
            while k < len(got) and not pat.match(got[k]):
                k += 1
            assert k < len(got), (cmd, w, p.stdout, p.stderr)
            k += 1

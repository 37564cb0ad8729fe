"""The README's example outputs are today's real outputs (issue 18, item 11).

Every ``$ COMMAND`` line in a README code block is run, and the lines shown under it must appear in the
command's real output, in order. The README abridges, and says so; the rules of abridging are:
- a shown line that is ``...`` stands for omitted lines;
- ``...`` inside or at the end of a shown line stands for any text;
- seconds such as ``0.37s`` or ``(smt, 1.39s)`` are not compared (they vary run to run);
- a comment after the command (``  # 46 findings ...``) is not run, but each count ``N findings`` or
  ``N obligations`` (``N errata``, ``N notes``) in it must be the real count.
``make check`` and ``make test`` are the set-up, not examples: CI runs ``make test`` itself (.ci/run),
and ``make check`` is ``attncert check`` in a fresh .venv; they are not run here.

Commands run in a scratch folder that sees the repository's ``certificates/``, with one result cache for
the whole session (conftest.py, ``session_cache``), so obligations computed once are not recomputed."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import VERIFY_ALL

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"```[a-z]*\n(.*?)```", re.S)


def examples() -> list[tuple[str, str, list[str]]]:
    """(command, comment, shown lines) for every ``$`` line of the README's code blocks."""
    out = []
    for block in FENCE.findall(README.read_text()):
        cur = None
        for line in block.splitlines():
            if line.startswith("$ "):
                m = re.fullmatch(r"(.*?)(?:\s{2,}#\s*(.*))?", line[2:])
                cur = (m[1].strip(), (m[2] or "").strip(), [])
                out.append(cur)
            elif cur is not None and line.strip():
                cur[2].append(line.rstrip())
    return out


def _pattern(shown: str) -> re.Pattern:
    parts = [re.escape(p) for p in shown.split("...")]
    rx = ".*".join(parts)
    rx = re.sub(r"(?<![0-9.])[0-9]+\\\.[0-9]+s(?![a-z])", "[0-9.]+s", rx)   # seconds: 0.37s, (smt, 1.39s)
    return re.compile(rx)


def _matches(shown: list[str], actual: list[str]) -> list[str]:
    """The shown lines not found, in order, among the actual lines."""
    missing, i = [], 0
    for s in shown:
        if s.strip() == "...":
            continue
        rx = _pattern(s)
        j = next((k for k in range(i, len(actual)) if rx.fullmatch(actual[k].rstrip())), None)
        if j is None:
            missing.append(s)
        else:
            i = j + 1
    return missing


def test_the_readme_has_examples():
    ex = examples()
    assert len(ex) >= 8
    assert {c.split()[0] for c, _, _ in ex} <= {"make", ".venv/bin/attncert", "attncert"}


def test_pattern_rules():
    assert _matches(["a: PROVED: x (smt, 1.39s)"], ["a: PROVED: x (smt, 0.02s)"]) == []
    assert _matches(["trees T=8, 0.37s"], ["trees T=8, 12.5s"]) == [] and _matches(["p 0.37"], ["p 0.38"]) == ["p 0.37"]
    assert _matches(["a ... c"], ["a b c"]) == [] and _matches(["a ... c"], ["a b d"]) == ["a ... c"]
    assert _matches(["x", "...", "y"], ["y", "x", "z", "y"]) == []
    assert _matches(["y", "x"], ["x", "y"]) == ["x"]          # order counts
    assert _matches(["verified 3/3"], ["verified 3/3 certificates"]) == ["verified 3/3"]   # whole lines


@pytest.fixture(scope="module")
def scratch(tmp_path_factory, session_cache, certified_all):
    d = tmp_path_factory.mktemp("readme")
    (d / "certificates").symlink_to(ROOT / "certificates", target_is_directory=True)
    env = {**os.environ, "ATTNCERT_CACHE_DIR": str(session_cache)}
    env.pop("ATTNCERT_NO_CACHE", None)
    return d, env


RUN = [e for e in examples() if not e[0].startswith("make ")]


@pytest.mark.parametrize("cmd,comment,shown", RUN, ids=[e[0][:60] for e in RUN])
def test_readme_command_output(cmd, comment, shown, scratch, request):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    d, env = scratch
    argv = shlex.split(cmd)
    if argv[0] == ".venv/bin/attncert" or argv[0] == "attncert":
        argv = [sys.executable, "-m", "attncert", *argv[1:]]
    if tuple(argv[3:]) == VERIFY_ALL:
        # the same command over the same folder, already run once this session (conftest.py)
        p = request.getfixturevalue("committed_verify")[0]
    else:
        p = subprocess.run(argv, cwd=d, env=env, capture_output=True, text=True, timeout=900)
    assert "Traceback" not in p.stderr, p.stderr[-3000:]
    assert p.returncode == 0, (cmd, p.stdout[-2000:], p.stderr[-2000:])
    actual = (p.stdout + "\n" + p.stderr).splitlines()
    missing = _matches(shown, actual)
    assert not missing, f"README shows lines that `{cmd}` does not print today: {missing}"
    for n, what in re.findall(r"(\d+) (findings|obligations|errata|notes)", comment):
        assert re.search(rf"\b{n} {what}\b", p.stdout), f"README says '{n} {what}' for `{cmd}`"


def test_soundness_doc_keeps_every_attack_round():
    """The corpus splice (benchmarks/soundness_corpus.py --write) replaces only what lies between its markers:
    the attack rounds, numbered without a gap, stand before the opening marker (a misplaced marker once
    deleted rounds 4-18)."""
    import re

    text = (ROOT / "docs" / "soundness.md").read_text(encoding="utf-8")
    head, _, _ = text.partition("<!-- corpus -->")
    rounds = sorted({int(n) for n in re.findall(r"^### Round (\d+)", head, flags=re.M)})
    assert rounds == list(range(len(rounds))) and len(rounds) >= 20, rounds
    assert not re.findall(r"^### Round", text.partition("<!-- /corpus -->")[0].partition("<!-- corpus -->")[2], flags=re.M)

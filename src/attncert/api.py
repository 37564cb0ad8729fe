"""The Python API behind the command line: ``check``, ``certify``, ``verify``, ``audit``."""

from __future__ import annotations

import io
import os

from .certificate import atomic_write, build, dumps, path_for
from .claims import Result
from .engine import run_obligation
from .families import select

CHECK_SCHEMA = "attncert.check/1"


def check(selector: str | None = None, timeout: float = 30.0) -> list[Result]:
    """Discharge the selected obligations; one Result each, in transcription order."""
    return [run_obligation(o, timeout) for o in select(selector)]


def check_json(results) -> dict:
    return {"schema": CHECK_SCHEMA, "results": [{
        "id": r.obligation.id, "paper": r.obligation.paper, "ref": r.obligation.ref,
        "statement": r.obligation.statement, "verdict": r.verdict.name, "method": r.evidence.method,
        "seconds": round(r.seconds, 4), "evidence": r.evidence.detail,
        "expected": r.obligation.expect.name if r.obligation.expect else None,
        "as_expected": r.as_expected} for r in results]}


def write_certificates(results, out_dir: str) -> list[str]:
    """Write one certificate per result (atomically); remove stale ones in the families written."""
    from .backends import versions

    tools = versions()
    paths = []
    for r in results:
        p = path_for(out_dir, r)
        atomic_write(p, dumps(build(r, tools)))
        paths.append(p)
    fams = {(r.obligation.paper, r.obligation.family) for r in results}
    if len(results) == len(select(None)) or all(True for _ in fams):
        wanted = set(os.path.abspath(p) for p in paths)
        selected_all = {o.id for o in select(None)}
        for paper, fam in fams:
            d = os.path.join(out_dir, paper, fam)
            for f in os.listdir(d):
                full = os.path.abspath(os.path.join(d, f))
                if f.endswith(".json") and full not in wanted and f[:-5] not in selected_all:
                    os.remove(full)
    return paths


def certify(selector: str | None, out_dir: str, timeout: float = 30.0) -> list[str]:
    return write_certificates(check(selector, timeout), out_dir)


def verify(*paths: str) -> tuple[int, str]:
    """Run the independent checker; returns (exit code, its report)."""
    from .checker.verify import verify_paths

    buf = io.StringIO()
    code = verify_paths(list(paths), buf)
    return code, buf.getvalue()

"""The Python API behind the command line: ``check``, ``certify``, ``verify``, ``audit``."""

from __future__ import annotations

import io
import os

from attncert.core.certificate import atomic_write, build, dumps, path_for
from attncert.core.claims import Result
from attncert.core.engine import run_obligation
from attncert.core.families import select

CHECK_SCHEMA = "attncert.check/1"


def check(selector: str | None = None, timeout: float = 300.0) -> list[Result]:
    """Discharge the selected obligations; one Result each, in transcription order."""
    return [run_obligation(o, timeout) for o in select(selector)]


def failing(results, strict: bool = False) -> list[Result]:
    """The one UNKNOWN policy (check, certify, report and the pytest plugin): a result fails when it is
    not as expected, except an UNKNOWN, which fails only when ``strict`` (``--strict``). Without it an
    UNKNOWN is reported, counted and skipped, never passed off as a success."""
    return [r for r in results if not r.as_expected and (strict or r.verdict.name != "UNKNOWN")]


def check_json(results) -> dict:
    return {"schema": CHECK_SCHEMA, "results": [{
        "id": r.obligation.id, "paper": r.obligation.paper, "ref": r.obligation.ref,
        "statement": r.obligation.statement, "verdict": r.verdict.name, "method": r.evidence.method,
        "seconds": round(r.seconds, 4), "evidence": r.evidence.detail,
        "expected": r.obligation.expect.name if r.obligation.expect else None,
        "as_expected": r.as_expected} for r in results]}


def write_certificates(results, out_dir: str) -> list[str]:
    """Write one certificate per result (atomically). In each family folder written, certificates
    of obligations that no longer exist are removed, so the folder mirrors the transcription."""
    from attncert.core.versions import versions
    from attncert.core.families import all_families

    tools = versions()
    paths = []
    for r in results:
        p = path_for(out_dir, r)
        atomic_write(p, dumps(build(r, tools)))
        paths.append(p)
    current = {f.name: {o.id for o in f.obligations} for f in all_families()}
    for paper, fam in {(r.obligation.paper, r.obligation.family) for r in results}:
        if fam not in current:  # obligations built outside the registry (tests, planted errors)
            continue
        d = os.path.join(out_dir, paper, fam)
        for f in os.listdir(d):
            if f.endswith(".json") and f[:-5] not in current.get(fam, set()):
                os.remove(os.path.join(d, f))
    return paths + write_theorem_certificates(results, out_dir)


def write_theorem_certificates(results, out_dir: str) -> list[str]:
    """One theorem certificate per numbered result (``<out>/<paper>/theorems/<id>.json``), written only when
    ``results`` cover every registered obligation (a theorem's verdict depends on its whole step graph);
    stale ones are removed."""
    from attncert.core.families import all_families
    from attncert.core.theorems import Closure, all_theorems, build_theorem_cert

    everything = {o.id for f in all_families() for o in f.obligations}
    ran = {r.obligation.id for r in results}
    if not everything <= ran:
        return []
    clo = Closure({r.obligation.id: r.obligation for r in results},
                  {r.obligation.id: r.evidence.verdict.name for r in results})
    paths, want = [], {}
    for th in all_theorems():
        p = os.path.join(out_dir, th.paper, "theorems", f"{th.id}.json")
        atomic_write(p, dumps(build_theorem_cert(th, clo)))
        paths.append(p)
        want.setdefault(th.paper, set()).add(f"{th.id}.json")
    for paper in {f.paper for f in all_families()}:
        d = os.path.join(out_dir, paper, "theorems")
        if os.path.isdir(d):
            for f in os.listdir(d):
                if f.endswith(".json") and f not in want.get(paper, set()):
                    os.remove(os.path.join(d, f))
    return paths


def certify(selector: str | None, out_dir: str, timeout: float = 300.0) -> list[str]:
    return write_certificates(check(selector, timeout), out_dir)


def verify(*paths: str, allow_conditional: bool = False) -> tuple[int, str]:
    """Run the independent checker; returns (exit code, its report). A PROVED certificate whose cited
    sources are not all verified, PROVED certificates of the same set is CONDITIONAL: exit 1 unless
    ``allow_conditional``."""
    from attncert.checker.verify import verify_paths

    buf = io.StringIO()
    code = verify_paths(list(paths), buf, allow_conditional=allow_conditional)
    return code, buf.getvalue()

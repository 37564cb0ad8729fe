"""Helpers of the forgery tests (tests/test_vectors.py, tests/test_families.py): re-seal an edited certificate
as a careful forger would, and verify a folder in process."""

from __future__ import annotations

import copy
import io

from attncert.checker.verify import verify_paths
from attncert.core.certificate import dumps
from attncert.core.expr import sha256


def reseal(obj: dict) -> dict:
    """A careful forger fixes both digests."""
    body = {k: v for k, v in obj.items() if k != "cert_sha256"}
    body["claim_sha256"] = sha256(body["claim"])
    body["cert_sha256"] = sha256(body)
    return body


def verify_dir(path) -> tuple[int, str, list]:
    """(exit code, printed text, per-file report) of ``attncert verify PATH`` without --allow-conditional."""
    buf, rep = io.StringIO(), []
    code = verify_paths([str(path)], buf, report=rep, allow_conditional=False)
    return code, buf.getvalue(), rep


# a forged certificate's sample evidence (CONFIRMED by one point): never acceptable for an opaque claim
SAMPLE_EVIDENCE = {"verdict": "CONFIRMED", "method": "sample", "evidence": {
    "kind": "sample", "samples": 1, "seed": 0, "dps": 30, "box": {}, "worst_point": {}, "worst_margin": "1"}}


def verify_forged(obj: dict, edit, folder, rel: str) -> tuple[int, str, list]:
    """Apply ``edit`` to a copy of the certificate ``obj``, re-seal it, write it at ``folder/rel`` and verify
    ``folder``: (exit code, printed text, per-file report)."""
    forged = copy.deepcopy(obj)
    edit(forged)
    q_ = folder / rel
    q_.parent.mkdir(parents=True)
    q_.write_text(dumps(reseal(forged)))
    return verify_dir(folder)


def accepted_by_both(ob, folder) -> None:
    """The engine proves ``ob`` and ``verify`` accepts the certificate it writes."""
    from attncert.api import run_obligation
    from attncert.core.certificate import atomic_write, build, path_for

    r = run_obligation(ob)
    assert r.evidence.verdict.name == "PROVED", r.evidence
    atomic_write(path_for(str(folder), r), dumps(build(r)))
    code, text, rep = verify_dir(folder)
    assert code == 0 and rep[0]["status"] == "VERIFIED", text


def refused_by_both(ob, why: str, folder, monkeypatch) -> None:
    """The engine answers UNKNOWN for ``ob`` with ``why`` in its reason; with the engine's axiom check switched off
    it would write a PROVED certificate, which ``verify`` must reject with ``why`` in its reason."""
    from attncert.api import run_obligation
    from attncert.core import engine
    from attncert.core.certificate import atomic_write, build, path_for

    r = run_obligation(ob)
    assert r.evidence.verdict.name == "UNKNOWN" and why in r.evidence.detail["reason"], r.evidence
    monkeypatch.setattr(engine, "axiom_gap", lambda ob_, t: None)
    forged = run_obligation(ob)
    assert forged.evidence.verdict.name == "PROVED", forged.evidence
    atomic_write(path_for(str(folder), forged), dumps(build(forged)))
    code, text, rep = verify_dir(folder)
    assert code == 1 and rep[0]["status"] == "REJECTED" and why in rep[0]["reason"], text

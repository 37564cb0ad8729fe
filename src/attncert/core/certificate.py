"""Certificates: JSON data written deterministically and atomically.

The body holds the claim as an expression tree with exact rationals, its sha256, the verdict, the
evidence, the trust list and the tool versions; ``cert_sha256`` covers everything else. No timings
or dates go in, so two runs give byte-identical files."""

from __future__ import annotations

import json
import os
import tempfile

from attncert.core.versions import versions
from attncert.core.claims import Result
from attncert.core.errors import CertificateError
from attncert.core.expr import sha256

SCHEMA = "attncert.cert/2"


def build(res: Result, tools: dict | None = None) -> dict:
    from attncert.core.theorems import source_id

    ob, ev = res.obligation, res.evidence
    claim = ob.claim.to_json()
    # uses: exactly the sources the hypotheses cite (the checker requires it)
    uses = sorted({one for h in ob.claim.hyps if h.by and not h.by.startswith(("fact:", "axiom:"))
                   for one in (h.by[6:].split(",") if h.by.startswith("cases:")
                               else [source_id(h.by)])})
    body = {
        "schema": SCHEMA,
        "id": ob.id,
        "family": ob.family,
        "paper": ob.paper,
        "ref": ob.ref,
        "statement": ob.statement,
        "claim": claim,
        "claim_sha256": sha256(claim),
        "verdict": ev.verdict.name,
        "expected": ob.expect.name if ob.expect is not None else None,
        "finding": None if ob.finding is None else {
            "kind": ob.finding.kind, "repair": ob.finding.repair,
            "affects_conclusion": ob.finding.affects_conclusion, "note": ob.finding.note},
        "repairs": ob.repairs,
        "method": ev.method,
        "evidence": ev.detail,
        "uses": uses,
        # the tools the prover relied on; a free-text 'fact:' premise is not trust: it stays a hypothesis,
        # and `verify` reports the certificate CONDITIONAL on it
        "trust": sorted(set(ev.trust)),
        "tools": tools if tools is not None else versions(),
    }
    body["cert_sha256"] = sha256(body)
    return body


def dumps(cert: dict) -> str:
    """The file text: one sorted top-level key per line, each value in compact canonical JSON (so an
    expression tree stays on one line and a diff shows which field changed)."""
    lines = [f" {json.dumps(k)}: {json.dumps(cert[k], sort_keys=True, separators=(',', ':'), ensure_ascii=True)}"
             for k in sorted(cert)]
    return "{\n" + ",\n".join(lines) + "\n}\n"


def atomic_write(path: str, text: str) -> None:
    """Write to a temporary file in the same folder, then rename: never a half-written file."""
    d = os.path.dirname(os.path.abspath(path))
    try:
        os.makedirs(d, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=d)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)      # mkstemp makes 0600; a written file gets the usual permissions
        os.replace(tmp, path)
    except OSError as e:
        raise CertificateError(f"cannot write {path}: {e.strerror or e}") from None


def path_for(out_dir: str, res: Result) -> str:
    return os.path.join(out_dir, res.obligation.paper, res.obligation.family, f"{res.obligation.id}.json")

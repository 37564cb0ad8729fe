"""Helpers of the forgery tests (tests/test_vectors.py, tests/test_families.py): re-seal an edited certificate
as a careful forger would, and verify a folder in process."""

from __future__ import annotations

import io

from attncert.checker.verify import verify_paths
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

"""The committed certificates are what `certify` produces now: nobody changed a proof file and forgot
to re-certify. Tool versions (and so cert_sha256) may differ between machines and are not compared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from attncert.api import certify

ROOT = Path(__file__).resolve().parents[1]


def _strip(p: Path) -> dict:
    obj = json.loads(p.read_text())
    obj.pop("tools")
    obj.pop("cert_sha256")
    return obj


def test_committed_certificates_are_current(tmp_path):
    pytest.importorskip("z3")
    pytest.importorskip("cvc5")
    pytest.importorskip("flint")
    certify("all", str(tmp_path))
    fresh = {p.relative_to(tmp_path): p for p in tmp_path.rglob("*.json")}
    committed = {p.relative_to(ROOT / "certificates"): p for p in (ROOT / "certificates").rglob("*.json")}
    assert sorted(fresh) == sorted(committed), "re-run `make certify` and commit certificates/"
    stale = [str(k) for k in fresh if _strip(fresh[k]) != _strip(committed[k])]
    assert not stale, f"stale certificates (re-run `make certify`): {stale[:5]}"

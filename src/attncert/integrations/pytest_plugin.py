"""pytest plugin (entry point ``pytest11``): ``pytest --attncert [SELECTOR]`` collects the selected
obligations as test items, and ``--attncert-certs PATH`` (repeatable) collects certificate files.

Verdict mapping: as expected (PROVED, CONFIRMED, or the expected REFUTED of an erratum) -> pass;
UNKNOWN -> skipped with the reason (failed with ``--attncert-strict``: the same policy as `attncert check
--strict`, attncert.api.failing); anything else -> failed with the verdict and evidence. A certificate
passes only when the independent checker verifies it. Without these options the plugin does nothing."""

from __future__ import annotations

import io
import os

import pytest

from attncert.core.claims import point_text


def pytest_addoption(parser):
    g = parser.getgroup("attncert", "attncert proof obligations and certificates")
    g.addoption("--attncert", nargs="?", const="all", default=None, metavar="SELECTOR",
                help="collect attncert obligations (a paper, family, id or glob; default all) as tests")
    g.addoption("--attncert-certs", action="append", default=[], metavar="PATH",
                help="collect certificate files (or folders of them) as tests verified by the checker")
    g.addoption("--attncert-timeout", type=float, default=300.0, metavar="S", help="safety kill per solver call (seconds)")
    g.addoption("--attncert-strict", action="store_true",
                help="an UNKNOWN obligation fails instead of being skipped (as `attncert check --strict`)")
    g.addoption("--attncert-allow-conditional", action="store_true",
                help="pass a certificate whose own evidence checks but whose cited sources are not all verified "
                     "(CONDITIONAL), as `attncert verify --allow-conditional` does")


class ObligationFailed(Exception):
    pass


_RECORDS = pytest.StashKey[dict]()


class _Item(pytest.Item):
    """An attncert test item: a failure is reported as its one message, without a Python traceback."""

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ObligationFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class FamilyNode(pytest.Collector):
    """The parent of a family's obligations: node ids are ``FAMILY::ID`` (so ``--deselect FAMILY::ID``
    and ``-k`` select them, and JUnit's classname is the family)."""

    def collect(self):
        return []


class ObligationItem(_Item):
    def __init__(self, *, obligation, timeout, **kw):
        super().__init__(**kw)
        self.obligation, self.timeout = obligation, timeout
        self.add_marker("attncert")

    def runtest(self):
        from attncert.core.engine import run_obligation

        from attncert.api import failing

        r = run_obligation(self.obligation, self.timeout)
        if r.as_expected:
            return
        if not failing([r], self.config.getoption("--attncert-strict")):  # UNKNOWN, not strict
            pytest.skip(f"UNKNOWN: {r.evidence.detail.get('reason', '')}")
        exp = self.obligation.expect.name if self.obligation.expect else "PROVED or CONFIRMED"
        point = r.evidence.detail.get("point") if isinstance(r.evidence.detail, dict) else None
        why = ("counterexample: " + point_text(point) if point else
               r.evidence.detail.get("reason") or r.evidence.detail.get("kind", ""))
        raise ObligationFailed(f"{self.obligation.id} ({self.obligation.ref}): {self.obligation.statement}: expected "
                               f"{exp}, got {r.verdict.name} by {r.evidence.method}; {why}")

    def reportinfo(self):
        return self.obligation.family or "attncert", None, self.obligation.id


class CertificateItem(_Item):
    """One certificate file. The checker runs once over every collected file together (links between
    certificates are checked in the set), and each item reports its own file's line."""

    def __init__(self, *, path, timeout, paths, **kw):
        super().__init__(**kw)
        self.path, self.timeout, self.paths = path, timeout, paths

    def _records(self) -> dict:
        cache = self.config.stash.setdefault(_RECORDS, {})
        if not cache:
            from attncert.checker.verify import verify_paths

            report: list = []
            verify_paths(self.paths, io.StringIO(), solver_timeout=self.timeout, quiet=True, report=report)
            cache.update({r["path"]: r for r in report})
        return cache

    def runtest(self):
        rec = self._records().get(self.path, {"status": "REJECTED", "reason": "not reached by the checker"})
        status = rec["status"]
        if status == "VERIFIED":
            return
        if status == "CONDITIONAL" and self.config.getoption("attncert_allow_conditional"):
            return
        why = rec.get("reason") or "; ".join(rec.get("conditions", []))
        raise ObligationFailed(f"certificate {self.path}: {status}: {why}")

    def reportinfo(self):
        return self.path, None, os.path.basename(self.path)


@pytest.hookimpl(tryfirst=True)  # before --deselect and -k look at the items
def pytest_collection_modifyitems(session, config, items):
    sel = config.getoption("attncert")
    certs = config.getoption("attncert_certs")
    timeout = config.getoption("attncert_timeout")
    if sel is not None:
        from attncert.core.errors import AttncertError
        from attncert.core.families import select

        try:
            obs = select(sel)
        except AttncertError as e:
            raise pytest.UsageError(f"--attncert {sel}: {e}") from None
        parents: dict = {}
        for ob in obs:
            fam = ob.family or "attncert"
            if fam not in parents:
                parents[fam] = FamilyNode.from_parent(session, name=fam, nodeid=fam)
            items.append(ObligationItem.from_parent(parents[fam], name=ob.id, obligation=ob, timeout=timeout))
    if certs:
        from attncert.checker.verify import collect

        for p in certs:
            if not os.path.exists(p):
                raise pytest.UsageError(f"--attncert-certs {p}: no such file or directory")
        paths = collect(certs)
        for path in paths:
            items.append(CertificateItem.from_parent(session, name=os.path.relpath(path), path=path, timeout=timeout,
                                                     paths=paths))


def pytest_configure(config):
    config.addinivalue_line("markers", "attncert: an attncert proof obligation collected by --attncert")

"""pytest plugin (entry point ``pytest11``): ``pytest --attncert [SELECTOR]`` collects the selected
obligations as test items, and ``--attncert-certs PATH`` (repeatable) collects certificate files.

Verdict mapping: as expected (PROVED, CONFIRMED, or the expected REFUTED of an erratum) -> pass;
UNKNOWN -> skipped with the reason; anything else -> failed with the verdict and evidence. A certificate
passes only when the independent checker verifies it. Without these options the plugin does nothing."""

from __future__ import annotations

import io
import os

import pytest


def pytest_addoption(parser):
    g = parser.getgroup("attncert", "attncert proof obligations and certificates")
    g.addoption("--attncert", nargs="?", const="all", default=None, metavar="SELECTOR",
                help="collect attncert obligations (a paper, family, id or glob; default all) as tests")
    g.addoption("--attncert-certs", action="append", default=[], metavar="PATH",
                help="collect certificate files (or folders of them) as tests verified by the checker")
    g.addoption("--attncert-timeout", type=float, default=30.0, metavar="S", help="per solver call")


class ObligationFailed(Exception):
    pass


class _Item(pytest.Item):
    """An attncert test item: a failure is reported as its one message, without a Python traceback."""

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ObligationFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class ObligationItem(_Item):
    def __init__(self, *, obligation, timeout, **kw):
        super().__init__(**kw)
        self.obligation, self.timeout = obligation, timeout
        self.add_marker("attncert")

    def runtest(self):
        from .engine import run_obligation

        r = run_obligation(self.obligation, self.timeout)
        if r.as_expected:
            return
        if r.verdict.name == "UNKNOWN":
            pytest.skip(f"UNKNOWN: {r.evidence.detail.get('reason', '')}")
        exp = self.obligation.expect.name if self.obligation.expect else "PROVED or CONFIRMED"
        raise ObligationFailed(f"{self.obligation.id} ({self.obligation.ref}): expected {exp}, got {r.verdict.name} "
                               f"by {r.evidence.method}: {r.evidence.detail}")

    def reportinfo(self):
        return self.obligation.family or "attncert", None, self.obligation.id


class CertificateItem(_Item):
    def __init__(self, *, path, timeout, **kw):
        super().__init__(**kw)
        self.path, self.timeout = path, timeout

    def runtest(self):
        from .checker.verify import verify_paths

        buf = io.StringIO()
        if verify_paths([self.path], buf, solver_timeout=self.timeout) != 0:
            raise ObligationFailed(f"certificate {self.path} not verified:\n{buf.getvalue().strip()}")

    def reportinfo(self):
        return self.path, None, os.path.basename(self.path)


def pytest_collection_modifyitems(session, config, items):
    sel = config.getoption("attncert")
    certs = config.getoption("attncert_certs")
    timeout = config.getoption("attncert_timeout")
    if sel is not None:
        from .errors import AttncertError
        from .families import select

        try:
            obs = select(sel)
        except AttncertError as e:
            raise pytest.UsageError(f"--attncert {sel}: {e}") from None
        items.extend(ObligationItem.from_parent(session, name=ob.id, obligation=ob, timeout=timeout) for ob in obs)
    if certs:
        from .checker.verify import collect

        for p in certs:
            if not os.path.exists(p):
                raise pytest.UsageError(f"--attncert-certs {p}: no such file or directory")
        for path in collect(certs):
            items.append(CertificateItem.from_parent(session, name=os.path.relpath(path), path=path, timeout=timeout))


def pytest_configure(config):
    config.addinivalue_line("markers", "attncert: an attncert proof obligation collected by --attncert")

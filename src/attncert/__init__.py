"""attncert: a prover companion for two papers on transformer approximation.

Public API: ``check``, ``certify``, ``verify``, ``select`` and the ``Verdict`` enum. Backends and
solvers are imported lazily."""

from attncert.papers.infoflow import bounds
from attncert.core.verdict import Verdict
from attncert.core.versions import ATTNCERT_VERSION

__version__ = ATTNCERT_VERSION
__all__ = ["Verdict", "bounds", "check", "certify", "verify", "select", "__version__"]


def check(selector=None, timeout=300.0):
    from attncert.api import check as _check

    return _check(selector, timeout)


def certify(selector, out_dir, timeout=300.0):
    from attncert.api import certify as _certify

    return _certify(selector, out_dir, timeout)


def verify(*paths, allow_conditional=False):
    from attncert.api import verify as _verify

    return _verify(*paths, allow_conditional=allow_conditional)


def select(selector=None):
    from attncert.core.families import select as _select

    return _select(selector)

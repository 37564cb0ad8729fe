"""attncert: a prover companion for two papers on transformer approximation.

Public API:
- your own claims: ``var``, ``exp``, ``log``, ``abs_``, ``max_``, ``min_``, ``Q`` (exact rationals),
  ``prove(goal, given=..., box=...)`` -> ``Outcome`` (verdict, counterexample, certificate(path)), and
  ``Claim(id, goal, ...)`` for claim files (``CLAIMS = [...]``, run by ``attncert check FILE``);
- the transcribed papers: ``check``, ``certify``, ``select``;
- the independent checker: ``verify(*paths)``;
- the ``Verdict`` enum and ``bounds`` (the papers' explicit bounds).

Backends and solvers are imported lazily."""

from attncert.papers.infoflow import bounds
from attncert.core.verdict import Verdict
from attncert.core.versions import ATTNCERT_VERSION
from attncert.user import DIM, IDX, PI, Q, Claim, Outcome, abs_, and_, at, axiom, bmax, bmin, bsum, bunion, card, dot, exp, forall, fset, fsets, idx, implies, log, lpnorm, max_, min_, norm, not_, num, or_, park, prove, sat, seq, subset, union, var, vadd, vat, vscale, vseq, vsub, vvar

__version__ = ATTNCERT_VERSION
__all__ = ["Verdict", "bounds", "check", "certify", "verify", "select", "__version__", "Q", "Claim", "Outcome",
           "abs_", "axiom", "dot", "exp", "log", "lpnorm", "max_", "min_", "norm", "prove", "var", "vadd", "vscale", "vsub", "vvar",
           "seq", "at", "IDX", "idx", "bsum", "bmax", "bmin", "forall", "fset", "fsets", "sat", "union", "bunion", "card",
           "subset", "num", "and_", "or_", "not_", "implies", "vseq", "vat", "park", "DIM", "PI"]


def check(selector=None, timeout=300.0):
    from attncert.api import check as _check

    return _check(selector, timeout)


def certify(selector, out_dir, timeout=300.0):
    from attncert.api import certify as _certify

    return _certify(selector, out_dir, timeout)


def verify(*paths: str, allow_conditional: bool = False) -> tuple[int, str]:
    """Re-check certificate files with the independent checker: (exit code, its report)."""
    from attncert.api import verify as _verify

    return _verify(*paths, allow_conditional=allow_conditional)


def select(selector=None):
    from attncert.core.families import select as _select

    return _select(selector)

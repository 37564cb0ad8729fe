"""Backend registry. A backend is a function ``(obligation, timeout_s) -> Evidence`` registered for a
method name with ``@handles(name)``. Backend modules import their solver lazily, so the package and
``attncert --help`` work without z3, cvc5, python-flint or torch."""

from __future__ import annotations

import importlib
from typing import Callable

from ..errors import AttncertError

BACKENDS: dict[str, Callable] = {}
MODULES = ("sympy_backend", "smt", "arb", "sampling", "trees_backend")
_loaded = False


def handles(method: str):
    def deco(fn):
        if method in BACKENDS:
            raise AttncertError(f"method {method!r} is already handled by {BACKENDS[method].__module__}")
        BACKENDS[method] = fn
        return fn
    return deco


def backend(method: str) -> Callable:
    global _loaded
    if not _loaded:
        for m in MODULES:
            importlib.import_module(f"{__name__}.{m}")
        _loaded = True
    try:
        return BACKENDS[method]
    except KeyError:
        raise AttncertError(f"no backend handles method {method!r}") from None


def versions() -> dict[str, str]:
    """Versions of the tools that are installed (for certificates)."""
    import platform

    out = {"python": platform.python_version()}
    for name, mod, attr in (("sympy", "sympy", "__version__"), ("mpmath", "mpmath", "__version__"),
                            ("python-flint", "flint", "__version__"), ("cvc5", "cvc5", "__version__")):
        try:
            out[name] = str(getattr(importlib.import_module(mod), attr))
        except Exception:
            pass
    try:
        import z3

        out["z3"] = z3.get_version_string()
    except Exception:
        pass
    return out

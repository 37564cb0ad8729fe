"""Versions of the installed tools, written into certificates."""

from __future__ import annotations

import importlib

ATTNCERT_VERSION = "0.1.0"  # attncert.__version__


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

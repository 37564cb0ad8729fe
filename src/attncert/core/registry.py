"""The method registry. A method is a function ``(obligation, timeout_s) -> Evidence`` registered for
a name with ``@handles(name)``. The standard methods live in the package attncert.backends, which is
loaded by name on first use (a plug-in load: the core does not import the backends). A paper or a
user's family registers its own methods the same way, by importing the module that holds them
(attncert.papers.infoflow.trees_backend is the example). Method modules import their solver lazily,
so the package and ``attncert --help`` work without z3, cvc5, python-flint or torch."""

from __future__ import annotations

import importlib
from typing import Callable

from attncert.core.errors import AttncertError

BACKENDS: dict[str, Callable] = {}
STANDARD = "attncert.backends"  # the package of standard methods, loaded on first use
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
        importlib.import_module(STANDARD)
        _loaded = True
    try:
        return BACKENDS[method]
    except KeyError:
        raise AttncertError(f"no backend handles method {method!r}") from None

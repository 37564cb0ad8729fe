"""Validation of user parameters: one-line InvalidParameter messages that name the value and the bound."""

from __future__ import annotations

import numbers
from fractions import Fraction

from attncert.core.errors import InvalidParameter


def as_int(name: str, v, lo: int) -> int:
    """An integer >= lo (bools refused)."""
    if isinstance(v, bool) or not isinstance(v, numbers.Integral):
        raise InvalidParameter(f"{name}={v!r}: must be an integer")
    if v < lo:
        raise InvalidParameter(f"{name}={v!r}: must be >= {lo}")
    return int(v)


def as_fraction(name: str, v) -> Fraction:
    """An exact rational from an int, Fraction, decimal string ('0.001', '1e-3') or fraction string ('1/1000');
    floats go through their shortest decimal repr, so 0.1 means 1/10."""
    try:
        return Fraction(str(v)) if isinstance(v, float) else Fraction(v)
    except (ValueError, ZeroDivisionError, TypeError):
        raise InvalidParameter(f"{name}={v!r}: not a number") from None

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
    if isinstance(v, str):
        _check_decimal_size(name, v)
    try:
        return Fraction(str(v)) if isinstance(v, float) else Fraction(v)
    except (ValueError, ZeroDivisionError, TypeError):
        raise InvalidParameter(f"{name}={v!r}: not a number") from None


def _check_decimal_size(name: str, s: str) -> None:
    """Refuse a number string whose exact value would be huge to build: '1e-999999999' means 10^999999999."""
    import re

    if len(s) > MAX_EXPONENT:
        raise InvalidParameter(f"{name}: a number of {len(s)} characters; at most {MAX_EXPONENT}")
    m = re.search(r"[eE]\s*([+-]?\d+)\s*$", s)
    if m and abs(int(m.group(1))) > MAX_EXPONENT:
        raise InvalidParameter(f"{name}={s!r}: exponent {m.group(1)} is beyond +-{MAX_EXPONENT}")


# ------------------------------------------------------------------------------------------ size limits
#
# Big inputs are refused before anything is allocated or computed: a command estimates what it is about to
# build (candidates, bytes, digits, seconds) and ``check_limit`` turns an estimate above its limit into one
# InvalidParameter line (exit code 2) that names the estimate and the limit. Estimates of astronomically
# large counts are passed as log10 values, so they are never computed as integers.

MAX_DIGITS = 4000   # exact integers that are printed or stored in JSON (Python refuses str() above 4300 digits)
MAX_EXPONENT = 100_000   # |exponent| of a decimal string such as '1e-400' (Fraction would build 10^exponent)


def log10_of(x) -> float:
    """log10 |x| for an int, Fraction or float of any size (-inf for 0), without converting it to a float."""
    import math

    if isinstance(x, Fraction):
        if x == 0:
            return -math.inf
        return math.log10(abs(x.numerator)) - math.log10(x.denominator)
    if x == 0:
        return -math.inf
    return math.log10(abs(x))


def sci(x=None, *, log10: float | None = None, digits: int = 2) -> str:
    """A number in scientific form, '4.2e+18', from its value (int, Fraction, float: any size) or from its
    log10; never a long integer."""
    import math

    if log10 is None:
        if isinstance(x, float) and (math.isnan(x) or math.isinf(x)):
            return str(x)
        if isinstance(x, int) and abs(x) < 10 ** 7:
            return str(x)
        if isinstance(x, float) and (x == 0 or 1e-3 <= abs(x) < 1e6):
            return f"{x:.3g}"
        if isinstance(x, (int, float)) and abs(x) < 1e300:
            return f"{float(x):.{digits - 1}e}"
        log10 = log10_of(x)
        neg = x < 0
    else:
        neg = False
    if log10 == -math.inf:
        return "0"
    if math.isinf(log10) or math.isnan(log10):
        return "inf" if log10 > 0 else "nan"
    e = math.floor(log10)
    mant = 10 ** (log10 - e)
    if round(mant, digits - 1) >= 10:
        mant, e = mant / 10, e + 1
    return f"{'-' if neg else ''}{mant:.{digits - 1}f}e{'+' if e >= 0 else '-'}{abs(e):02d}"


def check_limit(what: str, limit, *, estimate=None, log10: float | None = None, unit: str = "",
                hint: str = "") -> None:
    """Refuse (InvalidParameter, one line) a job whose estimated size is above ``limit``, before it starts.

    The message is "{what} about {estimate} {unit}, over the limit of {limit} {unit}; {hint}", so ``what``
    ends with a verb: "witness thm5: the grid has", "one batch needs". ``estimate`` is the size (int,
    Fraction or float), or give ``log10``, its base-10 logarithm, when the size itself is too large to
    compute. The message names the estimate and the limit in scientific form (``sci``)."""
    import math

    if log10 is None:
        if estimate is None:
            raise TypeError("check_limit needs estimate or log10")
        over = estimate > limit
        est = sci(estimate)
    else:
        over = log10 > math.log10(limit) + 1e-9  # float slack: a caller that needs the exact boundary checks it after
        est = sci(round(10 ** log10)) if log10 < 15 else sci(log10=log10)
    if over:
        u = f" {unit}" if unit else ""
        raise InvalidParameter(f"{what} about {est}{u}, over the limit of {sci(limit)}{u}"
                               + (f"; {hint}" if hint else ""))

"""The checker's own view of expression trees: strict parsing, derivatives, interval evaluation,
exact evaluation and the Schwartz-Zippel zero test. Standard library and fractions only."""

from __future__ import annotations

import random
import re
from fractions import Fraction

from .qarith import I, Undecided

MAX_DEPTH = 200
MAX_NODES = 200_000
MAX_DIGITS = 5_000

_NUM = re.compile(r"-?[0-9]+(/[0-9]+)?\Z")
NARY = {"add", "mul", "max", "min", "and", "or"}
UNARY = {"neg", "exp", "log", "abs", "not"}
BINARY = {"div", "lt", "le", "gt", "ge", "eq", "ne", "implies"}
RELS = {"lt", "le", "gt", "ge", "eq", "ne"}


class Reject(Exception):
    """The certificate is not acceptable; the message says why in one line."""


def parse_rational(s) -> Fraction:
    if not isinstance(s, str) or not _NUM.match(s):
        raise Reject(f"not an exact rational: {str(s)[:40]!r}")
    if len(s) > MAX_DIGITS:
        raise Reject(f"number with more than {MAX_DIGITS} digits")
    q = Fraction(s)
    return q


def parse(obj, depth: int = 0, count: list | None = None, table: dict | None = None) -> tuple:
    """Validate a JSON expression tree and return it as nested tuples. Equal subtrees are shared
    (hash-consed through ``table``), so evaluation can memoise by identity."""
    table = {} if table is None else table
    node = _parse(obj, depth, [0] if count is None else count, table)
    return node


def _intern(node: tuple, table: dict) -> tuple:
    key = tuple(id(c) if isinstance(c, tuple) else (type(c).__name__, c) for c in node)
    return table.setdefault(key, node)


def _parse(obj, depth: int, count: list, table: dict) -> tuple:
    count[0] += 1
    if depth > MAX_DEPTH or count[0] > MAX_NODES:
        raise Reject("expression tree too deep or too large")
    if not isinstance(obj, list) or not obj or not isinstance(obj[0], str):
        raise Reject(f"malformed expression node {str(obj)[:40]}")
    op, args = obj[0], obj[1:]
    if op == "num":
        if len(args) != 1:
            raise Reject("num takes one value")
        return _intern(("num", parse_rational(args[0])), table)
    if op == "var":
        if len(args) != 1 or not isinstance(args[0], str):
            raise Reject("var takes one name")
        return _intern(("var", args[0]), table)
    if op in ("pow", "diff"):
        if len(args) != 2:
            raise Reject(f"{op} takes two arguments")
        k = args[1]
        if op == "pow" and (not isinstance(k, int) or isinstance(k, bool) or abs(k) > 10_000):
            raise Reject("pow needs a small integer exponent")
        if op == "diff" and not isinstance(k, str):
            raise Reject("diff needs a variable name")
        return _intern((op, _parse(args[0], depth + 1, count, table), k), table)
    if op in NARY:
        if len(args) < 1:
            raise Reject(f"{op} needs arguments")
    elif op in UNARY:
        if len(args) != 1:
            raise Reject(f"{op} takes one argument")
    elif op in BINARY:
        if len(args) != 2:
            raise Reject(f"{op} takes two arguments")
    else:
        raise Reject(f"unknown operator {op!r}")
    return _intern((op,) + tuple(_parse(a, depth + 1, count, table) for a in args), table)


# -------------------------------------------------------------------------------- derivatives

Z = ("num", Fraction(0))
ONE = ("num", Fraction(1))


def _sum(*xs):
    xs = [x for x in xs if x != Z]
    return Z if not xs else (xs[0] if len(xs) == 1 else ("add",) + tuple(xs))


def _prod(*xs):
    if any(x == Z for x in xs):
        return Z
    xs = [x for x in xs if x != ONE]
    return ONE if not xs else (xs[0] if len(xs) == 1 else ("mul",) + tuple(xs))


def deriv(n: tuple, x: str) -> tuple:
    """Derivative of a tree in the variable x (sum, product, quotient, power, exp, log rules), with
    zero terms dropped so that sparse dependence stays small."""
    op = n[0]
    if op == "num":
        return Z
    if op == "var":
        return ONE if n[1] == x else Z
    if op == "add":
        return _sum(*(deriv(c, x) for c in n[1:]))
    if op == "neg":
        d = deriv(n[1], x)
        return Z if d == Z else ("neg", d)
    if op == "mul":
        cs = n[1:]
        return _sum(*(_prod(*(cs[:i] + (deriv(c, x),) + cs[i + 1:])) for i, c in enumerate(cs)))
    if op == "div":
        u, v = n[1], n[2]
        du, dv = deriv(u, x), deriv(v, x)
        if du == Z and dv == Z:
            return Z
        return ("div", _sum(_prod(du, v), ("neg", _prod(u, dv))), ("pow", v, 2))
    if op == "pow":
        return _prod(("num", Fraction(n[2])), ("pow", n[1], n[2] - 1), deriv(n[1], x))
    if op == "exp":
        return _prod(n, deriv(n[1], x))
    if op == "log":
        d = deriv(n[1], x)
        return Z if d == Z else ("div", d, n[1])
    if op == "diff":
        return deriv(deriv(n[1], n[2]), x)
    raise Reject(f"cannot differentiate {op!r}")


def no_diff(n: tuple, memo: dict | None = None) -> tuple:
    """Replace derivative nodes by their expansion; untouched subtrees keep their identity (sharing)."""
    memo = {} if memo is None else memo
    key = id(n)
    if key in memo:
        return memo[key][1]
    if n[0] in ("num", "var"):
        out = n
    elif n[0] == "diff":
        out = deriv(no_diff(n[1], memo), n[2])
    else:
        kids = tuple(no_diff(c, memo) if isinstance(c, tuple) else c for c in n[1:])
        out = n if all(a is b for a, b in zip(kids, n[1:])) else (n[0],) + kids
    memo[key] = (n, out)
    return out


# -------------------------------------------------------------------------------- evaluation


def _cmp(op, a, b):
    """Three-valued comparison for intervals (I) or exact Fractions."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[op]
    a = a if isinstance(a, I) else I(a, exact=True)
    b = b if isinstance(b, I) else I(b, exact=True)
    d_lo, d_hi = a.lo - b.hi, a.hi - b.lo  # a - b lies in [d_lo, d_hi]
    if op == "lt":
        return True if d_hi < 0 else (False if d_lo >= 0 else None)
    if op == "le":
        return True if d_hi <= 0 else (False if d_lo > 0 else None)
    if op == "gt":
        return True if d_lo > 0 else (False if d_hi <= 0 else None)
    if op == "ge":
        return True if d_lo >= 0 else (False if d_hi < 0 else None)
    if op == "eq":
        return False if (d_lo > 0 or d_hi < 0) else (True if d_lo == d_hi == 0 else None)
    if op == "ne":
        return True if (d_lo > 0 or d_hi < 0) else (False if d_lo == d_hi == 0 else None)
    raise Reject(f"unknown relation {op!r}")


def ival(n: tuple, env: dict, prec: int, memo: dict | None = None):
    """Interval value (or three-valued truth) of a diff-free tree; Fractions stay exact where possible.
    Shared subtrees are evaluated once (memo keyed by node identity)."""
    memo = {} if memo is None else memo
    key = id(n)
    if key in memo:
        return memo[key][1]
    v = _ival(n, env, prec, memo)
    memo[key] = (n, v)  # keep n alive so its id stays unique
    return v


def _ival(n: tuple, env: dict, prec: int, memo: dict):
    op = n[0]
    ival_ = lambda c, e, p: ival(c, e, p, memo)  # noqa: E731
    if op == "num":
        return n[1]
    if op == "var":
        if n[1] not in env:
            raise Reject(f"variable {n[1]!r} has no value")
        return env[n[1]]
    if op in RELS:
        return _cmp(op, ival_(n[1], env, prec), ival_(n[2], env, prec))
    if op in ("and", "or", "not", "implies"):
        vals = [ival_(c, env, prec) for c in n[1:]]
        if op == "and":
            return False if False in vals else (True if all(v is True for v in vals) else None)
        if op == "or":
            return True if True in vals else (False if all(v is False for v in vals) else None)
        if op == "not":
            return None if vals[0] is None else not vals[0]
        a, b = vals
        return True if (a is False or b is True) else (False if (a is True and b is False) else None)
    vals = [ival_(c, env, prec) if isinstance(c, tuple) else c for c in n[1:]]
    if all(isinstance(v, Fraction) for v in vals if not isinstance(v, (int, str))) and op in (
            "add", "mul", "neg", "div", "pow", "abs", "max", "min"):
        return _exact_op(op, vals)
    iv = [v if isinstance(v, I) else (I(v, exact=True, prec=prec) if isinstance(v, Fraction) else v) for v in vals]
    for v in iv:
        if isinstance(v, I):
            v.prec = prec
    if op == "add":
        out = iv[0]
        for v in iv[1:]:
            out = out + v
        return out
    if op == "mul":
        out = iv[0]
        for v in iv[1:]:
            out = out * v
        return out
    if op == "neg":
        return -iv[0]
    if op == "div":
        return iv[0] / iv[1]
    if op == "pow":
        return iv[0].pow(iv[1])
    if op == "abs":
        return iv[0].abs()
    if op == "exp":
        if vals[0] == 0:
            return Fraction(1)
        return iv[0].exp()
    if op == "log":
        if vals[0] == 1:
            return Fraction(0)
        return iv[0].log()
    if op in ("max", "min"):
        best = iv[0]
        for v in iv[1:]:
            c = _cmp("gt" if op == "max" else "lt", v, best)
            best = v if c else (best if c is False else best.hull(v))
        return best
    raise Reject(f"operator {op!r} cannot be evaluated")


def _exact_op(op, vals):
    if op == "add":
        return sum(vals, Fraction(0))
    if op == "mul":
        out = Fraction(1)
        for v in vals:
            out *= v
        return out
    if op == "neg":
        return -vals[0]
    if op == "div":
        if vals[1] == 0:
            raise Undecided("division by zero")
        return vals[0] / vals[1]
    if op == "pow":
        if vals[0] == 0 and vals[1] < 0:
            raise Undecided("division by zero")
        return vals[0] ** vals[1]
    if op == "abs":
        return abs(vals[0])
    if op == "max":
        return max(vals)
    if op == "min":
        return min(vals)
    raise Reject(op)


# -------------------------------------------------------------------------------- Schwartz-Zippel


def _positive(n: tuple) -> bool:
    """Syntactic positivity: exp, positive constants, and sums/products/quotients/powers of these."""
    op = n[0]
    if op == "num":
        return n[1] > 0
    if op == "exp":
        return True
    if op in ("add", "mul"):
        return all(_positive(c) for c in n[1:])
    if op == "div":
        return _positive(n[1]) and _positive(n[2])
    if op == "pow":
        return _positive(n[1])
    return False


def log_rewrite(n: tuple) -> tuple:
    """Apply log(x*y) = log x + log y, log(x/y) = log x - log y, log(x^k) = k log x (x, y syntactically
    positive), log(exp t) = t, exp(x + y) = exp x exp y, exp(-x) = 1/exp x and exp(log x) = x (x > 0),
    bottom-up. These are the only transcendental laws the checker uses."""
    if n[0] in ("num", "var"):
        return n
    n = (n[0],) + tuple(log_rewrite(c) if isinstance(c, tuple) else c for c in n[1:])
    if n[0] == "exp":
        # exp(x + y) = exp(x) exp(y), exp(-x) = 1/exp(x), exp(log x) = x for x > 0
        t = n[1]
        if t[0] == "add":
            return ("mul",) + tuple(log_rewrite(("exp", c)) for c in t[1:])
        if t[0] == "neg":
            return ("div", ONE, log_rewrite(("exp", t[1])))
        if t[0] == "log" and _positive(t[1]):
            return t[1]
        return n
    if n[0] != "log":
        return n
    a = n[1]
    if a[0] == "exp":
        return a[1]
    if a[0] == "mul" and all(_positive(c) for c in a[1:]):
        return ("add",) + tuple(log_rewrite(("log", c)) for c in a[1:])
    if a[0] == "div" and _positive(a[1]) and _positive(a[2]):
        return ("add", log_rewrite(("log", a[1])), ("neg", log_rewrite(("log", a[2]))))
    if a[0] == "pow" and _positive(a[1]):
        return ("mul", ("num", Fraction(a[2])), log_rewrite(("log", a[1])))
    return n


def sz_eval(n: tuple, env: dict, atoms: dict, rng: random.Random):
    """Exact value where every exp(.) and log(.) is an independent random rational, keyed by the
    value of its argument (so equal arguments share an atom)."""
    op = n[0]
    if op == "num":
        return n[1]
    if op == "var":
        return env[n[1]]
    if op in ("exp", "log"):
        a = sz_eval(n[1], env, atoms, rng)
        if op == "exp" and a == 0:
            return Fraction(1)
        if op == "log" and a == 1:
            return Fraction(0)
        key = (op, a)
        if key not in atoms:
            atoms[key] = Fraction(rng.randrange(1, 1 << 62), rng.randrange(1, 1 << 20))
        return atoms[key]
    if op in ("add", "mul", "neg", "div", "pow"):
        vals = [sz_eval(c, env, atoms, rng) if isinstance(c, tuple) else c for c in n[1:]]
        return _exact_op(op, vals)
    raise Reject(f"operator {op!r} is not allowed in an identity")


def identically_zero(expr: tuple, var_names, seed: int, trials: int = 4, fixed: dict | None = None) -> bool:
    """Schwartz-Zippel: ``expr`` (diff-free, log-rewritten) vanishes at ``trials`` random points.
    Variables in ``fixed`` keep their values; the others and every exp/log atom are random."""
    rng = random.Random(seed)
    fixed = fixed or {}
    done = 0
    attempts = 0
    while done < trials:
        attempts += 1
        if attempts > 10 * trials:
            raise Reject("identity check hit a pole at every random point")
        env = {v: Fraction(rng.randrange(-(1 << 40), 1 << 40), rng.randrange(1, 1 << 20)) for v in var_names}
        env.update(fixed)
        try:
            val = sz_eval(expr, env, {}, rng)
        except Undecided:
            continue
        if val != 0:
            return False
        done += 1
    return True

"""The checker's own view of expression trees: strict parsing, derivatives, interval evaluation,
exact evaluation and the Schwartz-Zippel zero test. Standard library and fractions only."""

from __future__ import annotations

import random
import re
from fractions import Fraction

from .qarith import I, Undecided, charge_exact, exp_of, log_of, sub_signs

MAX_DEPTH = 200
MAX_NODES = 200_000
MAX_DIGITS = 5_000

_NUM = re.compile(r"-?[0-9]+(/[0-9]+)?\Z")
# variable names: a plain identifier, optionally with one bracketed parameter list (the defined
# quantities of tree certificates, e.g. nmin[dretrieval,T=8,D=3]); nothing else is ever accepted, so a
# name can never carry solver text
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}(\[[A-Za-z0-9_,=]{1,60}\])?\Z")
NARY = {"add", "mul", "max", "min", "and", "or", "vadd", "union"}
UNARY = {"neg", "exp", "log", "abs", "not", "norm", "lpnorm", "card"}
BINARY = {"div", "lt", "le", "gt", "ge", "eq", "ne", "implies", "vscale", "dot", "at", "sum", "bmax", "bmin", "forall",
          "sat", "bunion", "subset", "vat", "park"}
# constants (docs/notes/vector_families.md): ["dim"], the dimension d of the R^d that every vector of the claim lies
# in, and ["pi"], the number pi; exactly zero arguments. Opaque reals: only the SMT re-run decides a claim with them
NULLARY = {"dim", "pi"}
# vectors (docs/axioms.md, "Vectors"): vvar names a vector variable (declared 'vec'), vadd sums vectors,
# vscale multiplies a real and a vector; norm and dot make reals of them. Vectors are opaque to every
# evaluation: only the SMT re-run decides a claim with them, where norm and dot terms are atoms.
# vector families (docs/notes/vector_families.md): vseq names a family of vectors (declared 'vecs'), vat its vector
# at a real index, park(F, M) the unit vector of Park et al.'s Lemma 13 for F_1..F_M (a Skolem function); both
# vectors, as opaque as the others
VECTOR_OPS = {"vvar", "vadd", "vscale", "vat", "park"}
# indexed families (docs/axioms.md, "Indexed families"): seq names a real sequence (declared 'seq'), at its
# value at a real index; sum, bmax, bmin and forall range over the integers 1..N, and ["idx"] in a body is
# the index of the innermost of them. Opaque like vectors: the SMT re-run sees each as an atom.
# finite sets (docs/axioms.md, "Finite sets"): fset names a finite set (declared 'set'), fsets a sequence of
# them (declared 'sets') and sat its set at a real index; union, bunion (the union over 1..N, a big
# operator), card (a real) and subset (a formula). Opaque: the SMT re-run sees each card and subset as an atom.
BINDERS = {"sum", "bmax", "bmin", "forall", "bunion"}
SET_OPS = {"fset", "fsets", "sat", "union", "bunion", "card", "subset"}
FAMILY_OPS = BINDERS | SET_OPS | {"seq", "at", "idx"}
NAMED = ("var", "vvar", "seq", "fset", "fsets", "vseq")
# each kind of axiom (or cited) variable: the leaf it is written with and the sort of the term it takes. body,
# pred and setbody terms may use the index of the big operator they stand under; the others may not
KINDS = {"real": ("var", "real"), "int": ("var", "real"), "defined": ("var", "real"), "body": ("var", "real"),
         "pred": ("var", "formula"), "vec": ("vvar", "vec"), "seq": ("seq", "seq"), "set": ("fset", "set"),
         "setbody": ("fset", "set"), "sets": ("fsets", "sets"), "vecs": ("vseq", "vecs")}
RELS = {"lt", "le", "gt", "ge", "eq", "ne"}


MAX_LEVEL = 8   # the deepest nesting an ["idx", k] may reach out of (k enclosing big operators outside the innermost)
MAX_EXACT_BITS = 1 << 20  # an exact power with a larger result is evaluated as an interval instead


class Reject(Exception):
    """The certificate is not acceptable; the message says why in one line."""


class CannotCheck(Reject):
    """The certificate may be fine, but this machine cannot check it (no solver to re-run its queries)."""


NO_SOLVER = "no solver to re-run them here (neither z3 nor cvc5 installed, or excluded by --solvers)"


def check_name(name) -> str:
    """``name`` if it is a valid variable name, else Reject."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise Reject(f"bad variable name {str(name)[:40]!r}: must match [A-Za-z_][A-Za-z0-9_]* (at most 64 "
                     "characters), optionally followed by [params]")
    return name


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
    if op in NAMED:
        if len(args) != 1:
            raise Reject(f"{op} takes one name")
        return _intern((op, check_name(args[0])), table)
    if op in NULLARY:
        if args:
            raise Reject(f"{op} takes no argument")
        return _intern((op,), table)
    if op == "idx":
        # ["idx"]: the index of the innermost enclosing big operator; ["idx", k], 1 <= k <= MAX_LEVEL: of the
        # k-th one outside it (de Bruijn levels; docs/axioms.md, "Nested big operators"). One spelling each:
        # ["idx", 0] is refused
        if not args:
            return _intern(("idx",), table)
        k = args[0]
        if len(args) != 1 or type(k) is not int or not 1 <= k <= MAX_LEVEL:
            raise Reject(f"idx takes no argument or one level 1..{MAX_LEVEL}")
        return _intern(("idx", k), table)
    if op in ("pow", "diff"):
        if len(args) != 2:
            raise Reject(f"{op} takes two arguments")
        k = args[1]
        if op == "pow" and (not isinstance(k, int) or isinstance(k, bool) or abs(k) > 10_000):
            raise Reject("pow needs a small integer exponent")
        if op == "diff":
            check_name(k)
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


def free_names(n, acc=None) -> set:
    """The variable names of a parsed tree, a derivative's variable included."""
    acc = set() if acc is None else acc
    if n[0] in NAMED:
        acc.add(n[1])
    elif n[0] == "diff":
        acc.add(n[2])
    if n[0] not in ("num",) + NAMED:
        for c in n[1:]:
            if isinstance(c, tuple):
                free_names(c, acc)
    return acc


FORMULA_OPS = RELS | {"and", "or", "not", "implies"}


def check_sorts(n: tuple, formula: bool) -> None:
    """Terms and formulas are kept apart, and real terms and vectors: a hypothesis or goal is a formula,
    the arguments of a relation and of every arithmetic operator are real terms, the arguments of a
    connective are formulas, vadd's and norm's are vectors, dot's two vectors, vscale's a real then a
    vector, vat's and park's a family of vectors (vseq) then a real."""
    if (_sort(n) == "formula") != formula:
        raise Reject(f"{'a formula' if formula else 'a term'} was expected, found {n[0]!r}")


def sort_of(n: tuple) -> str:
    """'real', 'vec', 'vecs', 'seq', 'set', 'sets' or 'formula'; Reject on a mixed-up tree."""
    return _sort(n)


_SORT_WHAT = {"formula": "a formula", "vecs": "a family of vectors (vseq)"}


def _sort(n: tuple) -> str:
    op = n[0]
    if op in ("num", "var", "idx") or op in NULLARY:
        return "real"
    if op == "vvar":
        return "vec"
    if op == "vseq":
        return "vecs"
    if op in ("seq", "fset", "fsets"):
        return {"seq": "seq", "fset": "set", "fsets": "sets"}[op]
    kids = [c for c in n[1:] if isinstance(c, tuple)]
    if op == "vscale":
        want = ["real", "vec"]
    elif op == "at":
        want = ["seq", "real"]
    elif op in ("vat", "park"):
        want = ["vecs", "real"]
    elif op == "sat":
        want = ["sets", "real"]
    elif op == "forall":
        want = ["real", "formula"]
    elif op == "bunion":
        want = ["real", "set"]
    else:
        w = ("formula" if op in ("and", "or", "not", "implies") else "vec" if op in ("vadd", "norm", "lpnorm", "dot")
             else "set" if op in ("union", "card", "subset") else "real")
        want = [w] * len(kids)
    for c, w in zip(kids, want):
        got = _sort(c)
        if got != w:
            raise Reject(f"{op}: an argument must be {_SORT_WHAT.get(w, 'a ' + w + ' term')}, "
                         f"found {'a formula' if got == 'formula' else repr(c[0])}")
    if op in FORMULA_OPS or op in ("forall", "subset"):
        return "formula"
    if op in ("sat", "union", "bunion"):
        return "set"
    return "vec" if op in VECTOR_OPS else "real"


# a big operator's body is total (so its atom needs no definedness condition): no log, derivative or vector,
# division only by a non-zero number, powers only with exponents >= 0
_NOT_IN_BODY = {"log", "diff", "vvar", "vadd", "vscale", "norm", "lpnorm", "dot", "vseq", "vat", "park", "dim", "pi"}


def idx_level(n: tuple) -> int:
    """The level of an index node: 0 for ["idx"], k for ["idx", k]."""
    return n[1] if len(n) > 1 else 0


def check_binders(n: tuple, depth: int = 0) -> None:
    """Every ["idx", k] stands inside at least k + 1 big operators (``depth`` of them enclose ``n``), a bound N
    has no idx, and bodies are total; Reject otherwise. (The instantiated conditions of the pointwise axioms
    are the only trees with a free idx, and they are built by the checker, never read.)"""
    op = n[0]
    if op == "idx" and idx_level(n) >= depth:
        raise Reject("idx outside a big operator (sum, bmax, bmin, forall, bunion)" if depth == 0 else
                     f"idx level {idx_level(n)} under only {depth} big operators")
    if depth:
        if op in _NOT_IN_BODY:
            raise Reject(f"{op} inside a big operator's body (only total operators)")
        if op == "div" and not (n[2][0] == "num" and n[2][1] != 0):
            raise Reject("a division inside a big operator's body must be by a non-zero number")
        if op == "pow" and n[2] < 0:
            raise Reject("a negative power inside a big operator's body")
    if op in BINDERS:
        if has_idx(n[1]):
            raise Reject(f"{op}: its bound may not contain idx")
        check_binders(n[1], depth)
        check_binders(n[2], depth + 1)
        return
    for c in n[1:]:
        if isinstance(c, tuple):
            check_binders(c, depth)


def has_idx(n: tuple) -> bool:
    return n[0] == "idx" or any(isinstance(c, tuple) and has_idx(c) for c in n[1:])


def free_idx(n: tuple, depth: int = 0) -> bool:
    """Does an index of ``n`` point outside it: ["idx", k] under fewer than k + 1 of n's own big operators
    (``depth``: those already entered)?"""
    if n[0] == "idx":
        return idx_level(n) >= depth
    if n[0] in BINDERS:
        return free_idx(n[1], depth) or free_idx(n[2], depth + 1)
    return any(isinstance(c, tuple) and free_idx(c, depth) for c in n[1:])


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


def deriv(n: tuple, x: str, memo: dict | None = None) -> tuple:
    """Derivative of a tree in the variable x (sum, product, quotient, power, exp, log rules), with
    zero terms dropped so that sparse dependence stays small. A shared subtree is differentiated once
    (memo by identity), so repeated derivatives stay a DAG of polynomial size."""
    memo = {} if memo is None else memo
    key = id(n)
    if key in memo:
        return memo[key][1]
    out = _deriv(n, x, memo)
    memo[key] = (n, out)  # keep n alive so its id stays unique
    return out


def _deriv(n: tuple, x: str, memo: dict) -> tuple:
    deriv_ = lambda c, v: deriv(c, v, memo) if v == x else deriv(c, v)  # noqa: E731
    op = n[0]
    if op == "num":
        return Z
    if op == "var":
        return ONE if n[1] == x else Z
    if op == "add":
        return _sum(*(deriv_(c, x) for c in n[1:]))
    if op == "neg":
        d = deriv_(n[1], x)
        return Z if d == Z else ("neg", d)
    if op == "mul":
        cs = n[1:]
        return _sum(*(_prod(*(cs[:i] + (deriv_(c, x),) + cs[i + 1:])) for i, c in enumerate(cs)))
    if op == "div":
        u, v = n[1], n[2]
        du, dv = deriv_(u, x), deriv_(v, x)
        if du == Z and dv == Z:
            return Z
        return ("div", _sum(_prod(du, v), ("neg", _prod(u, dv))), ("pow", v, 2))
    if op == "pow":
        return _prod(("num", Fraction(n[2])), ("pow", n[1], n[2] - 1), deriv_(n[1], x))
    if op == "exp":
        return _prod(n, deriv_(n[1], x))
    if op == "log":
        d = deriv_(n[1], x)
        return Z if d == Z else ("div", d, n[1])
    if op == "diff":
        return deriv_(deriv(n[1], n[2]), x)
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
    d_lo, d_hi = sub_signs(a, b)  # exact signs of lo(a) - hi(b) and hi(a) - lo(b): a - b lies between them
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
            return False if any(v is False for v in vals) else (True if all(v is True for v in vals) else None)
        if op == "or":
            return True if any(v is True for v in vals) else (False if all(v is False for v in vals) else None)
        if op == "not":
            return None if vals[0] is None else not vals[0]
        a, b = vals
        return True if (a is False or b is True) else (False if (a is True and b is False) else None)
    vals = [ival_(c, env, prec) if isinstance(c, tuple) else c for c in n[1:]]
    if all(isinstance(v, Fraction) for v in vals if not isinstance(v, (int, str))) and op in (
            "add", "mul", "neg", "div", "pow", "abs", "max", "min"):
        exact = _exact_op(op, vals)
        if exact is not None:
            return exact
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
        return exp_of(vals[0], prec)  # a rational argument is used exactly
    if op == "log":
        if vals[0] == 1:
            return Fraction(0)
        return log_of(vals[0], prec)
    if op in ("max", "min"):
        best = iv[0]
        for v in iv[1:]:  # max([a, b], [c, d]) = [max(a, c), max(b, d)] (and min likewise)
            best = best.imax(v) if op == "max" else best.imin(v)
        return best
    raise Reject(f"operator {op!r} cannot be evaluated")


def _bits(v) -> int:
    return max(v.numerator.bit_length(), v.denominator.bit_length()) if isinstance(v, Fraction) else 64


def _exact_op(op, vals):
    """The exact value, or None when the result could exceed MAX_EXACT_BITS (the caller then uses
    intervals). Large exact work is charged to the per-certificate budget (qarith.charge_exact)."""
    if op in ("add", "mul", "div"):
        size = sum(_bits(v) for v in vals)  # bounds the result's numerator and denominator
        if size > MAX_EXACT_BITS:
            return None
        charge_exact(size)
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
        size = max(vals[0].numerator.bit_length(), vals[0].denominator.bit_length())
        if abs(vals[1]) * size > MAX_EXACT_BITS:
            return None  # too large to keep exact: the caller evaluates it as an interval
        charge_exact(abs(vals[1]) * size)
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
    """Exact value where every exp(.) and log(.) is an independent random integer in [1, 2^62), keyed by
    the value of its argument (so equal arguments share an atom)."""
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
            atoms[key] = Fraction(rng.randrange(1, 1 << 62))
        return atoms[key]
    if op in ("add", "mul", "neg", "div", "pow"):
        vals = [sz_eval(c, env, atoms, rng) if isinstance(c, tuple) else c for c in n[1:]]
        out = _exact_op(op, vals)
        if out is None:
            raise Undecided("an exact power too large for the zero test")
        return out
    raise Reject(f"operator {op!r} is not allowed in an identity")


def degree_bound(n: tuple) -> tuple[int, int, int]:
    """(D, A, Dmax): D bounds the degrees of the numerator and the denominator of ``n`` together, as a
    rational function of its variables and exp/log atoms (each atom an indeterminate): the chance that
    either vanishes at a random point is at most D p. A counts the distinct atom nodes; Dmax bounds the
    numerator degree of the difference of two atom arguments."""
    memo: dict = {}
    atoms: dict = {}

    def rat(n):  # (numerator degree, denominator degree)
        key = id(n)
        if key in memo:
            return memo[key][1]
        op = n[0]
        if op == "num":
            out = (0, 0)
        elif op == "var":
            out = (1, 0)
        elif op in ("exp", "log"):
            a, b = rat(n[1])
            atoms[id(n)] = (n, a + b)
            out = (1, 0)
        elif op == "neg":
            out = rat(n[1])
        elif op == "add":
            parts = [rat(c) for c in n[1:]]
            den = sum(b for _, b in parts)
            out = (max(a + den - b for a, b in parts), den)
        elif op == "mul":
            parts = [rat(c) for c in n[1:]]
            out = (sum(a for a, _ in parts), sum(b for _, b in parts))
        elif op == "div":
            (a1, b1), (a2, b2) = rat(n[1]), rat(n[2])
            out = (a1 + b2, b1 + a2)
        elif op == "pow":
            a, b = rat(n[1])
            k = n[2]
            out = (k * a, k * b) if k >= 0 else (-k * b, -k * a)
        else:
            raise Reject(f"operator {op!r} is not allowed in an identity")
        memo[key] = (n, out)
        return out

    d, den = rat(n)
    dmax = 2 * max((s for _, s in atoms.values()), default=0)
    return d + den, len(atoms), dmax


# every random value has point mass at most 2^-61: variables are N/d with N uniform in [-2^62, 2^62),
# atoms are uniform integers in [1, 2^62)
_P_LOG2 = -61
TARGET_LOG2 = -128


def zero_test_plan(expr: tuple) -> tuple[int, int]:
    """(trials, k): the number of independent random points that makes the probability that a non-zero
    ``expr`` passes at most 2^-k with k >= 128. Per point, a false pass needs the numerator to vanish
    (at most D p), two distinct atom arguments to collide or an argument to hit exp(0)/log(1) (at most
    A(A+1) Dmax p), or the resampling after a pole to bias it: a pole has probability at most D p (D
    counts the denominator's degree too), so conditioning on no pole costs a factor 1/(1 - D p) < 2."""
    d, a, dmax = degree_bound(expr)
    per = 2 * (d + a * (a + 1) * dmax + 1)  # times p
    lg = per.bit_length() + _P_LOG2  # log2 of the per-point bound, rounded up
    if lg > -8:
        raise Reject(f"zero test: degree bound {d} with {a} atoms is too high for a meaningful error bound")
    trials = max(2, -(TARGET_LOG2 // -lg))  # ceil(128 / -lg)
    return trials, -lg * trials


def identically_zero(expr: tuple, var_names, seed: int, fixed: dict | None = None) -> tuple[bool, int]:
    """Schwartz-Zippel: does ``expr`` (diff-free, log-rewritten) vanish at random points? Variables in
    ``fixed`` keep their values; the others and every exp/log atom are random, drawn from ``seed`` (the
    caller derives it from the claim's hash). Returns (vanishes at every point, k): a non-zero ``expr``
    passes with probability at most 2^-k."""
    trials, k = zero_test_plan(expr)
    rng = random.Random(seed)
    fixed = fixed or {}
    done = 0
    attempts = 0
    while done < trials:
        attempts += 1
        if attempts > 4 * trials + 8:
            raise Reject("identity check hit a pole at almost every random point")
        env = {v: Fraction(rng.randrange(-(1 << 62), 1 << 62), rng.randrange(1, 1 << 20)) for v in var_names}
        env.update(fixed)
        try:
            val = sz_eval(expr, env, {}, rng)
        except Undecided:
            continue
        if val != 0:
            return False, k
        done += 1
    return True, k


def defined_at(n: tuple, env: dict, prec: int) -> bool:
    """Every denominator of ``n`` is non-zero and every log argument positive at the point, rigorously
    (interval evaluation), including inside the body of every derivative (whose operators have open
    domains, so defined at the point means differentiable near it). Nothing is evaluated at a point
    where a term of the claim is undefined. ``n`` may contain derivative nodes."""
    memo: dict = {}
    seen: set = set()

    def value(m):
        return ival(no_diff(m), env, prec, memo)

    def walk(m) -> bool:
        if id(m) in seen or m[0] in ("num", "var"):
            return True
        seen.add(id(m))
        kids = [c for c in m[1:] if isinstance(c, tuple)]
        if not all(walk(c) for c in kids):
            return False
        try:
            if m[0] == "div" or (m[0] == "pow" and m[2] < 0):
                return _cmp("ne", value(m[2] if m[0] == "div" else m[1]), Fraction(0)) is True
            if m[0] == "log":
                return _cmp("gt", value(m[1]), Fraction(0)) is True
        except Undecided:
            return False
        return True

    return walk(n)

"""Expression trees: the claims of attncert as data.

A node is a plain tuple ``(op, *children)``; constants are exact ``Fraction``s, never floats.
``E`` wraps a node so that proofs can be written with Python operators (``a + 2*b < exp(c)``).
The JSON form is nested lists (``["add", ["var", "x"], ["num", "1/2"]]``) and is what certificates
store; nothing is ever evaluated from a string.

Operators
  num var                      leaves (num holds a Fraction, var a name)
  add mul (n-ary) neg div      field operations
  pow                          integer exponent: ("pow", base, k) with k a Python int
  exp log                      the only transcendental functions
  max min abs                  piecewise
  diff                         ("diff", f, "x"): derivative of f in the variable x
  vvar vadd vscale             vectors: ("vvar", name) a vector variable (domain "vec"), vadd (n-ary sum
                               of vectors), ("vscale", c, u) the real c times the vector u
  norm dot                     the real numbers ||u|| and u.v (Euclidean) of vectors
  vseq vat park dim pi         vector families (docs/notes/vector_families.md): ("vseq", name) a family of vectors
                               (domain "vecs"), ("vat", X, i) its vector at the real term i, ("park", X, M) the
                               unit vector of Park et al.'s Lemma 13 for X_1..X_M (a Skolem function), ("dim",) the
                               dimension d of the R^d all of a claim's vectors lie in, ("pi",) the number pi
  seq at                       indexed families: ("seq", name) a real sequence (domain "seq"), ("at", s, i)
                               its value at the real term i
  sum bmax bmin forall         big operators over the integers 1..N: ("sum", N, body) and the others;
                               ("idx",) in a body is the index of the innermost enclosing one
                               (docs/axioms.md, "Indexed families")
  fset fsets sat union bunion  finite sets (docs/axioms.md, "Finite sets"): ("fset", name) a finite set (domain
  card subset                  "set"), ("fsets", name) a sequence of finite sets (domain "sets") with ("sat", S, i)
                               its set at i, union (n-ary), ("bunion", N, body) the union over 1..N (a big
                               operator), ("card", A) the number of elements, ("subset", A, B) the formula
  lt le gt ge eq ne            relations
  and or not implies           connectives
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

from attncert.core.errors import ExprError, NotExact

ARITH = {"add", "mul", "neg", "div", "pow", "exp", "log", "max", "min", "abs", "diff", "norm", "lpnorm", "dot"}
RELATIONS = {"lt", "le", "gt", "ge", "eq", "ne"}
LOGIC = {"and", "or", "not", "implies"}
LEAVES = {"num", "var", "vvar", "vseq", "seq", "idx", "fset", "fsets"}
VECTOR = {"vvar", "vadd", "vscale", "vat", "park"}  # the vector-valued nodes; norm and dot turn vectors into reals
CONSTS = {"dim", "pi"}   # nullary: the dimension of the claim's R^d and the number pi (opaque reals)
BINDERS = {"sum", "bmax", "bmin", "forall", "bunion"}  # over the integers 1..N; ("idx",) is the innermost one's index
SETS = {"fset", "fsets", "sat", "union", "bunion", "card", "subset"}   # finite sets and their cardinalities
FAMILY = BINDERS | SETS | {"seq", "at", "idx"}   # opaque like vectors: only SMT with cited axioms decides them
NAMED = ("var", "vvar", "vseq", "seq", "fset", "fsets")  # the leaves that carry a variable name
ALL_OPS = ARITH | RELATIONS | LOGIC | LEAVES | VECTOR | FAMILY | CONSTS
SYMBOL = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}


def _const(x) -> tuple:
    if isinstance(x, bool):
        raise ExprError(f"boolean {x!r} is not a number")
    if isinstance(x, (int, Fraction)):
        return ("num", Fraction(x))
    if isinstance(x, E):
        return x.node
    if isinstance(x, tuple) and x and x[0] in ALL_OPS:
        return x
    raise ExprError(f"{x!r}: only int, Fraction or expressions are allowed (floats are inexact)")


@dataclass(slots=True, frozen=True)
class E:
    """An expression node with operator overloading. ``==`` is structural; use ``.eq()`` for the relation."""

    node: tuple

    # arithmetic -------------------------------------------------------------------------
    def __add__(self, o): return E(("add", self.node, _const(o)))
    def __radd__(self, o): return E(("add", _const(o), self.node))
    def __sub__(self, o): return E(("add", self.node, ("neg", _const(o))))
    def __rsub__(self, o): return E(("add", _const(o), ("neg", self.node)))
    def __mul__(self, o): return E(("mul", self.node, _const(o)))
    def __rmul__(self, o): return E(("mul", _const(o), self.node))
    def __truediv__(self, o):
        b = _const(o)
        if self.node[0] == "num" and b[0] == "num" and b[1] != 0:
            return E(("num", self.node[1] / b[1]))  # fold constant fractions such as num(1)/4
        return E(("div", self.node, b))
    def __rtruediv__(self, o): return E(("div", _const(o), self.node))
    def __neg__(self): return E(("neg", self.node))

    def __pow__(self, k):
        if not isinstance(k, int) or isinstance(k, bool):
            raise ExprError(f"exponent {k!r}: only integer powers are supported")
        return E(("pow", self.node, k))

    # relations --------------------------------------------------------------------------
    def __lt__(self, o): return E(("lt", self.node, _const(o)))
    def __le__(self, o): return E(("le", self.node, _const(o)))
    def __gt__(self, o): return E(("gt", self.node, _const(o)))
    def __ge__(self, o): return E(("ge", self.node, _const(o)))
    def eq(self, o): return E(("eq", self.node, _const(o)))
    def ne(self, o): return E(("ne", self.node, _const(o)))

    def __bool__(self):
        raise ExprError("an expression has no truth value; use attncert's backends to decide it")

    def __repr__(self):
        return f"E({show(self.node)})"


def num(x) -> E:
    return E(_const(x))


def var(name: str) -> E:
    return E(("var", name))


def vars_(*names: str) -> list[E]:
    return [var(n) for n in names]


def vvar(name: str) -> E:
    """A vector variable (declare it with domain "vec"). Vectors are opaque: nothing is known of them but
    what the axioms about norm and dot say (docs/axioms.md, "Vectors")."""
    return E(("vvar", name))


def vadd(*xs) -> E:
    return E(("vadd",) + tuple(_const(x) for x in xs))


def vscale(c, u) -> E:
    return E(("vscale", _const(c), _const(u)))


def vsub(u, w) -> E:
    """u - w, written u + (-1) w."""
    return vadd(u, vscale(-1, w))


def vseq(name: str) -> E:
    """A family of vectors X_1, X_2, ... (declare it with domain "vecs"); ``vat(X, i)`` is its vector at i."""
    return E(("vseq", name))


def vat(x, i) -> E: return E(("vat", _const(x), _const(i)))


def park(x, m) -> E:
    """The unit vector that Park et al.'s Lemma 13 gives for the vectors X_1, ..., X_M of the family x (a Skolem
    function: the axioms park_unit and park_lemma13 say what is known of it)."""
    return E(("park", _const(x), _const(m)))


DIM = E(("dim",))   # d: every vector of a claim lies in R^d, d >= 1 (an opaque real)
PI = E(("pi",))     # the number pi (an opaque real: nothing is known of it but what a cited axiom says)


def norm(u) -> E: return E(("norm", _const(u)))
def lpnorm(u) -> E: return E(("lpnorm", _const(u)))   # an L^p(nu) norm (docs/axioms.md, "L^p norms")
def dot(u, w) -> E: return E(("dot", _const(u), _const(w)))


def seq(name: str) -> E:
    """A real sequence (declare it with domain "seq"); ``at(seq("a"), i)`` is its value at i. Sequences are
    opaque: only the axioms about big operators say anything of them (docs/axioms.md, "Indexed families")."""
    return E(("seq", name))


def at(s, i) -> E: return E(("at", _const(s), _const(i)))


IDX = E(("idx",))   # the index of the innermost enclosing big operator
MAX_LEVEL = 8       # idx(k) names at most the 8th big operator outside the innermost


def idx(k: int = 0) -> E:
    """The index of the big operator k levels outside the innermost one around it: idx(0) is ``IDX``, idx(1)
    the next one out (de Bruijn levels; docs/axioms.md, "Nested big operators")."""
    if type(k) is not int or not 0 <= k <= MAX_LEVEL:
        raise ExprError(f"idx takes a level 0..{MAX_LEVEL}")
    return E(("idx",) if k == 0 else ("idx", k))


def bsum(n, body) -> E: return E(("sum", _const(n), _const(body)))
def bmax(n, body) -> E: return E(("bmax", _const(n), _const(body)))
def bmin(n, body) -> E: return E(("bmin", _const(n), _const(body)))
def forall(n, body) -> E: return E(("forall", _const(n), _const(body)))


def fset(name: str) -> E:
    """A finite set (declare it with domain "set"). Sets are opaque: only the axioms about card, union and
    subset say anything of them (docs/axioms.md, "Finite sets")."""
    return E(("fset", name))


def fsets(name: str) -> E:
    """A sequence of finite sets (declare it with domain "sets"); ``sat(fsets("J"), i)`` is its set at i."""
    return E(("fsets", name))


def sat(s, i) -> E: return E(("sat", _const(s), _const(i)))
def union(*xs) -> E: return E(("union",) + tuple(_const(x) for x in xs)) if len(xs) > 1 else E(_const(xs[0]))
def bunion(n, body) -> E: return E(("bunion", _const(n), _const(body)))
def card(a) -> E: return E(("card", _const(a)))
def subset(a, b) -> E: return E(("subset", _const(a), _const(b)))


def exp(x) -> E: return E(("exp", _const(x)))
def log(x) -> E: return E(("log", _const(x)))
def abs_(x) -> E: return E(("abs", _const(x)))
def diff(f, x: E) -> E: return E(("diff", _const(f), x.node[1]))


def max_(*xs) -> E:
    return E(("max",) + tuple(_const(x) for x in xs)) if len(xs) > 1 else E(_const(xs[0]))


def min_(*xs) -> E:
    return E(("min",) + tuple(_const(x) for x in xs)) if len(xs) > 1 else E(_const(xs[0]))


def add(*xs) -> E:
    if not xs:
        return num(0)
    return E(("add",) + tuple(_const(x) for x in xs)) if len(xs) > 1 else E(_const(xs[0]))


def mul(*xs) -> E:
    if not xs:
        return num(1)
    return E(("mul",) + tuple(_const(x) for x in xs)) if len(xs) > 1 else E(_const(xs[0]))


def and_(*xs) -> E: return E(("and",) + tuple(_const(x) for x in xs))
def or_(*xs) -> E: return E(("or",) + tuple(_const(x) for x in xs))
def not_(x) -> E: return E(("not", _const(x)))
def implies(a, b) -> E: return E(("implies", _const(a), _const(b)))


def node_of(x) -> tuple:
    return _const(x)


# ---------------------------------------------------------------------------------------
# JSON form


def to_json(node: tuple):
    op = node[0]
    if op == "num":
        q: Fraction = node[1]
        return ["num", str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"]
    if op in NAMED:
        return [op, node[1]]
    if op == "idx":
        return ["idx"] + list(node[1:])
    if op == "pow":
        return ["pow", to_json(node[1]), node[2]]
    if op == "diff":
        return ["diff", to_json(node[1]), node[2]]
    return [op] + [to_json(c) for c in node[1:]]


def from_json(obj) -> tuple:
    if not isinstance(obj, list) or not obj or not isinstance(obj[0], str) or obj[0] not in ALL_OPS:
        raise ExprError(f"not an expression node: {str(obj)[:60]}")
    op = obj[0]
    if op == "num":
        if len(obj) != 2 or not isinstance(obj[1], str):
            raise ExprError("num needs one string")
        return ("num", Fraction(obj[1]))
    if op in NAMED:
        if len(obj) != 2 or not isinstance(obj[1], str):
            raise ExprError(f"{op} needs one name")
        return (op, obj[1])
    if op == "idx":
        if len(obj) == 1:
            return ("idx",)
        if len(obj) != 2 or type(obj[1]) is not int or not 1 <= obj[1] <= MAX_LEVEL:
            raise ExprError(f"idx takes no argument or one level 1..{MAX_LEVEL}")
        return ("idx", obj[1])
    if op == "pow":
        if len(obj) != 3 or not isinstance(obj[2], int) or isinstance(obj[2], bool):
            raise ExprError("pow needs an integer exponent")
        return ("pow", from_json(obj[1]), obj[2])
    if op == "diff":
        if len(obj) != 3 or not isinstance(obj[2], str):
            raise ExprError("diff needs a variable name")
        return ("diff", from_json(obj[1]), obj[2])
    return (op,) + tuple(from_json(c) for c in obj[1:])


def canonical(obj) -> str:
    """Canonical JSON text: sorted keys, no spaces, ASCII. Hashes and files use this."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sha256(obj) -> str:
    return hashlib.sha256(canonical(obj).encode()).hexdigest()


# ---------------------------------------------------------------------------------------
# traversal


def free_vars(node: tuple, acc: set | None = None) -> set:
    """Names of the variables of ``node``, including the variable of each derivative."""
    acc = set() if acc is None else acc
    if node[0] in NAMED:
        acc.add(node[1])
    elif node[0] == "diff":
        acc.add(node[2])
        free_vars(node[1], acc)
    elif node[0] != "num":
        for c in node[1:]:
            if isinstance(c, tuple):
                free_vars(c, acc)
    return acc


def substitute(node: tuple, env: Mapping[str, tuple]) -> tuple:
    """Replace each variable (real, integer, vector or sequence) named in ``env`` by its term. A replacing
    term never contains a free ("idx",) (claims have none), so nothing is captured by a big operator."""
    op = node[0]
    if op in NAMED:
        return env.get(node[1], node)
    if op in ("num", "idx"):
        return node
    return (op,) + tuple(substitute(c, env) if isinstance(c, tuple) else c for c in node[1:])


def contains(node: tuple, ops: Iterable[str]) -> bool:
    ops = set(ops)
    if node[0] in ops:
        return True
    return any(isinstance(c, tuple) and contains(c, ops) for c in node[1:])


def eval_exact(node: tuple, env: Mapping[str, Fraction]):
    """Exact value over Q (Fraction for terms, bool for formulas). Raises NotExact on exp/log."""
    op = node[0]
    ev = lambda c: eval_exact(c, env)  # noqa: E731
    if op == "num":
        return node[1]
    if op == "var":
        try:
            return Fraction(env[node[1]])
        except KeyError:
            raise NotExact(f"variable {node[1]!r} has no value") from None
    if op == "add":
        return sum((ev(c) for c in node[1:]), Fraction(0))
    if op == "mul":
        out = Fraction(1)
        for c in node[1:]:
            out *= ev(c)
        return out
    if op == "neg":
        return -ev(node[1])
    if op == "div":
        d = ev(node[2])
        if d == 0:
            raise NotExact("division by zero")
        return ev(node[1]) / d
    if op == "pow":
        b = ev(node[1])
        if b == 0 and node[2] < 0:
            raise NotExact("division by zero")
        return b ** node[2]
    if op == "exp":
        x = ev(node[1])
        if x == 0:
            return Fraction(1)
        raise NotExact("exp of a non-zero rational is irrational")
    if op == "log":
        x = ev(node[1])
        if x == 1:
            return Fraction(0)
        raise NotExact("log of a rational other than 1 is irrational")
    if op == "max":
        return max(ev(c) for c in node[1:])
    if op == "min":
        return min(ev(c) for c in node[1:])
    if op == "abs":
        return abs(ev(node[1]))
    if op in RELATIONS:
        a, b = ev(node[1]), ev(node[2])
        return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[op]
    if op == "and":
        return all(ev(c) for c in node[1:])
    if op == "or":
        return any(ev(c) for c in node[1:])
    if op == "not":
        return not ev(node[1])
    if op == "implies":
        return (not ev(node[1])) or ev(node[2])
    raise NotExact(f"operator {op!r} has no exact evaluation")


def sort_of(node: tuple) -> str:
    """'formula', 'real', 'vec', 'seq', 'set' or 'sets', checking the sorts of every argument: relations
    and arithmetic take reals, connectives formulas, vadd vectors, vscale a real and a vector, norm a vector
    and dot two; at a sequence and a real, sat a sequence of sets and a real; sum, bmax and bmin a real
    bound and a real body, forall a real bound and a formula body, bunion a real bound and a set body;
    union, card and subset sets. Raises ExprError on a mixed-up tree. (Where ("idx",) may stand:
    ``check_binders``.)"""
    op = node[0]
    if op in ("num", "var", "idx"):
        return "real"
    if op == "vvar":
        return "vec"
    if op == "vseq":
        return "vecs"
    if op in ("seq", "fsets"):
        return "seq" if op == "seq" else "sets"
    if op == "fset":
        return "set"
    want = {"and": "formula", "or": "formula", "not": "formula", "implies": "formula", "vadd": "vec",
            "norm": "vec", "lpnorm": "vec", "dot": "vec", "union": "set", "card": "set", "subset": "set"}.get(op, "real")
    kids = [c for c in node[1:] if isinstance(c, tuple)]
    for i, c in enumerate(kids):
        if op == "vscale":
            w = "real" if i == 0 else "vec"
        elif op in ("at", "sat", "vat", "park"):
            w = {"at": "seq", "sat": "sets"}.get(op, "vecs") if i == 0 else "real"
        elif op in ("forall", "bunion"):
            w = "real" if i == 0 else ("formula" if op == "forall" else "set")
        else:
            w = want
        got = sort_of(c)
        if got != w:
            raise ExprError(f"{op}: argument {i + 1} must be {'a ' + w if w != 'formula' else 'a formula'}, "
                            f"found {'a ' + got if got != 'formula' else 'a formula'}")
    if op in RELATIONS or op in LOGIC or op in ("forall", "subset"):
        return "formula"
    if op in ("sat", "union", "bunion"):
        return "set"
    return "vec" if op in VECTOR else "real"


# the number of children of each operator (the prover's own table; the checker's parser has its own): an
# n-ary operator at least one, the others exactly so many. Leaves (num, var, vvar, seq, fset, fsets) hold one
# value, idx none, pow a term and an int, diff a term and a name
_NARY = {"add", "mul", "max", "min", "and", "or", "vadd", "union"}
_ARITY = {"neg": 1, "exp": 1, "log": 1, "abs": 1, "not": 1, "norm": 1, "lpnorm": 1, "card": 1, "div": 2, "implies": 2,
          "vscale": 2, "dot": 2, "vat": 2, "park": 2, "dim": 0, "pi": 0, "at": 2, "sat": 2, "subset": 2, "sum": 2, "bmax": 2, "bmin": 2, "forall": 2,
          "bunion": 2, "pow": 2, "diff": 2, **{r: 2 for r in RELATIONS}}


def check_arity(node) -> None:
    """Every node is a tuple with a known operator and the right number of children; raises ExprError
    otherwise (a claim built directly, as a Claim of tuples, gets this check from ``claims.check_claim``)."""
    # exact types, not subclasses: solver atoms are keyed by the tree's repr, so a subclass with its own repr
    # or equality could make two different terms one atom (attack round 22)
    if type(node) is not tuple or not node or type(node[0]) is not str or node[0] not in ALL_OPS:
        raise ExprError(f"not an expression node: {str(node)[:60]}")
    op, kids = node[0], node[1:]
    if op == "num":
        if len(kids) != 1 or type(kids[0]) is not Fraction:
            raise ExprError("num holds one Fraction")
        return
    if op == "idx":
        if kids and (len(kids) != 1 or type(kids[0]) is not int or not 1 <= kids[0] <= MAX_LEVEL):
            raise ExprError(f"idx holds nothing or one level 1..{MAX_LEVEL}")
        return
    if op in NAMED:
        if len(kids) != 1 or type(kids[0]) is not str:
            raise ExprError(f"{op} holds one name")
        return
    if op in _NARY:
        if not kids:
            raise ExprError(f"{op} needs arguments")
    elif len(kids) != _ARITY[op]:
        raise ExprError(f"{op} takes {_ARITY[op]} argument{'s' if _ARITY[op] > 1 else ''}, not {len(kids)}")
    if op == "pow":
        if type(kids[1]) is not int:
            raise ExprError("pow needs an integer exponent")
        check_arity(kids[0])
        return
    if op == "diff":
        if type(kids[1]) is not str:
            raise ExprError("diff needs a variable name")
        check_arity(kids[0])
        return
    for c in kids:
        check_arity(c)


# inside a big operator's body only total operators (so a body is defined at every index, and the opaque
# atom that stands for the big operator needs no definedness condition): no log, no derivative, no vectors,
# a division only by a non-zero number, a power only with an exponent >= 0
_BODY_FORBIDDEN = {"log", "diff", "vvar", "vadd", "vscale", "norm", "lpnorm", "dot", "vseq", "vat", "park", "dim", "pi"}


def level(node: tuple) -> int:
    """The level of an index node: 0 for ("idx",), k for ("idx", k)."""
    return node[1] if len(node) > 1 else 0


def check_binders(node: tuple, depth: int = 0) -> None:
    """Each ("idx", k) inside at least k + 1 big operators (``depth`` of them around ``node``); a bound N without
    any idx; bodies built from total operators only. Raises ExprError otherwise."""
    op = node[0]
    if op == "idx" and level(node) >= depth:
        raise ExprError("idx outside a big operator (sum, bmax, bmin, forall, bunion)" if depth == 0 else
                        f"idx level {level(node)} under only {depth} big operators")
    if depth:
        if op in _BODY_FORBIDDEN:
            raise ExprError(f"{op} inside a big operator's body (bodies use total operators only)")
        if op == "div" and not (node[2][0] == "num" and node[2][1] != 0):
            raise ExprError("a division inside a big operator's body must be by a non-zero number")
        if op == "pow" and node[2] < 0:
            raise ExprError("a negative power inside a big operator's body")
    if op in BINDERS:
        if contains(node[1], {"idx"}):
            raise ExprError(f"{op}: its bound N may not contain idx")
        check_binders(node[1], depth)
        check_binders(node[2], depth + 1)
        return
    for c in node[1:]:
        if isinstance(c, tuple):
            check_binders(c, depth)


def free_idx(node: tuple, depth: int = 0) -> bool:
    """Does an index of ``node`` name a big operator outside it (level >= the operators of node around it)?"""
    if node[0] == "idx":
        return level(node) >= depth
    if node[0] in BINDERS:
        return free_idx(node[1], depth) or free_idx(node[2], depth + 1)
    return any(isinstance(c, tuple) and free_idx(c, depth) for c in node[1:])


def shift_idx(node: tuple, d: int, depth: int = 0) -> tuple:
    """``node`` with each index naming an operator outside it moved d levels out (d < 0: in), so that it keeps
    naming that operator under d more (fewer) big operators. ExprError when an index would name one of the
    operators moved out of, or nest past MAX_LEVEL."""
    if node[0] == "idx":
        k = level(node)
        if k < depth:
            return node
        if k + d < depth or k + d > MAX_LEVEL:
            raise ExprError("an index term depends on a big operator it is moved out of, or nests too deep")
        return ("idx",) if k + d == 0 else ("idx", k + d)
    if node[0] in BINDERS:
        return (node[0], shift_idx(node[1], d, depth), shift_idx(node[2], d, depth + 1))
    if node[0] in ("num",) + NAMED:
        return node
    return (node[0],) + tuple(shift_idx(c, d, depth) if isinstance(c, tuple) else c for c in node[1:])


def swap_idx(node: tuple, depth: int = 0) -> tuple:
    """``node``, the body of two nested big operators, with their indices exchanged: ("idx", depth) (the inner
    one's, under depth of node's own operators) and ("idx", depth + 1) (the outer one's) trade places
    (forall_swap, docs/axioms.md). An index naming an operator outside both: ExprError."""
    if node[0] == "idx":
        k = level(node)
        if k > depth + 1:
            raise ExprError("an index names an operator outside the two whose indices are exchanged")
        if k < depth:
            return node
        k = depth + 1 if k == depth else depth
        return ("idx",) if k == 0 else ("idx", k)
    if node[0] in BINDERS:
        return (node[0], swap_idx(node[1], depth), swap_idx(node[2], depth + 1))
    if node[0] in ("num",) + NAMED:
        return node
    return (node[0],) + tuple(swap_idx(c, depth) if isinstance(c, tuple) else c for c in node[1:])


def subst_idx(node: tuple, term: tuple, depth: int = 0) -> tuple:
    """``node`` with its free index (("idx",) outside every big operator of node, ("idx", d) under d of them)
    replaced by ``term``, moved d levels out there. An index naming an operator further out: ExprError."""
    if node[0] == "idx":
        k = level(node)
        if k > depth:
            raise ExprError("an index names an operator outside the one it is instantiated for")
        return shift_idx(term, depth) if k == depth else node
    if node[0] in BINDERS:
        return (node[0], subst_idx(node[1], term, depth), subst_idx(node[2], term, depth + 1))
    if node[0] in ("num",) + NAMED:
        return node
    return (node[0],) + tuple(subst_idx(c, term, depth) if isinstance(c, tuple) else c for c in node[1:])


def var_to_idx(node: tuple, name: str, depth: int = 0) -> tuple:
    """``node`` with the variable ``name`` replaced by the index of a big operator around it (("idx", d) under d
    of node's own): node read at every index (a link at every index, docs/axioms.md). ExprError when the
    variable is in a bound or is a derivative's variable."""
    if node[0] == "var" and node[1] == name:
        if depth > MAX_LEVEL:
            raise ExprError("the index would nest too deep")
        return ("idx",) if depth == 0 else ("idx", depth)
    if node[0] in ("num", "idx") + NAMED:
        return node
    if node[0] == "diff":
        if node[2] == name:
            raise ExprError(f"{name} is a derivative's variable")
        return ("diff", var_to_idx(node[1], name, depth), node[2])
    if node[0] in BINDERS:
        if name in free_vars(node[1]):
            raise ExprError(f"{name} occurs in the bound of a big operator")
        return (node[0], node[1], var_to_idx(node[2], name, depth + 1))
    return (node[0],) + tuple(var_to_idx(c, name, depth) if isinstance(c, tuple) else c for c in node[1:])


def typed_leaves(node: tuple, acc: dict | None = None) -> dict:
    """{name: domain} for the vector variables (vvar), sequences (seq), finite sets (fset) and sequences of
    sets (fsets) of ``node``: the domains a claim must declare them with."""
    acc = {} if acc is None else acc
    if node[0] in LEAF_DOMAIN:
        acc[node[1]] = LEAF_DOMAIN[node[0]]
    for c in node[1:]:
        if isinstance(c, tuple):
            typed_leaves(c, acc)
    return acc


LEAF_DOMAIN = {"vvar": "vec", "vseq": "vecs", "seq": "seq", "fset": "set", "fsets": "sets"}   # the named leaves that are not reals


def contains_opaque(node: tuple) -> bool:
    """Vectors or indexed families: only SMT with cited axioms decides such a claim."""
    return contains(node, VECTOR | {"norm", "lpnorm", "dot", "vseq"} | FAMILY | CONSTS)


# ---------------------------------------------------------------------------------------
# printing


def show(node: tuple, depth: int = 0) -> str:
    """Plain text; a big operator's index is i (the outermost), i2 under it, i3, ... by nesting depth."""
    s = lambda c: show(c, depth)  # noqa: E731
    op = node[0]
    if op == "num":
        q = node[1]
        return str(q.numerator) if q.denominator == 1 else f"{q.numerator}/{q.denominator}"
    if op in NAMED:
        return node[1]
    if op == "idx":
        b = depth - 1 - (node[1] if len(node) > 1 else 0)   # the nesting depth of the operator it names
        return "i" if b <= 0 else f"i{b + 1}"
    if op in ("at", "sat"):
        return f"{s(node[1])}({s(node[2])})"
    if op == "vat":
        return f"{s(node[1])}[{s(node[2])}]"
    if op == "park":
        return f"park({s(node[1])}, {s(node[2])})"
    if op in CONSTS:   # written as a call, so that a variable named pi or dim never reads the same
        return f"{op}()"
    if op == "union":
        return "(" + " u ".join(s(c) for c in node[1:]) + ")"
    if op == "card":
        return f"|{s(node[1])}|"
    if op == "subset":
        return f"{s(node[1])} subset of {s(node[2])}"
    if op in BINDERS:
        name = {"sum": "sum", "bmax": "max", "bmin": "min", "forall": "forall", "bunion": "union"}[op]
        ix = "i" if depth == 0 else f"i{depth + 1}"
        return f"{name}_{{{ix}=1..{s(node[1])}}} [{show(node[2], depth + 1)}]"
    if op == "vadd":
        return "(" + " + ".join(s(c) for c in node[1:]) + ")"
    if op == "vscale":
        return f"{s(node[1])}*{s(node[2])}"
    if op == "norm":
        return f"||{s(node[1])}||"
    if op == "lpnorm":
        return f"||{s(node[1])}||_p"
    if op == "dot":
        return f"<{s(node[1])}, {s(node[2])}>"
    if op == "add":
        parts = [s(node[1])]
        for c in node[2:]:
            parts.append(f"- {s(c[1])}" if c[0] == "neg" else f"+ {s(c)}")
        return "(" + " ".join(parts) + ")"
    if op == "mul":
        return "*".join(s(c) for c in node[1:])
    if op == "neg":
        return f"-{s(node[1])}"
    if op == "div":   # a product or quotient below the bar is bracketed: 1/(16*m), not 1/16*m
        den = s(node[2])
        return f"{s(node[1])}/({den})" if node[2][0] in ("mul", "div", "neg") else f"{s(node[1])}/{den}"
    if op == "pow":   # a product, quotient, negation or power as the base is bracketed: (a*b)^2, not a*b^2
        base = s(node[1])
        return f"({base})^{node[2]}" if node[1][0] in ("mul", "div", "neg", "pow") else f"{base}^{node[2]}"
    if op in ("exp", "log", "abs"):
        return f"{op}({s(node[1])})"
    if op in ("max", "min"):
        return f"{op}(" + ", ".join(s(c) for c in node[1:]) + ")"
    if op == "diff":
        return f"d/d{node[2]} {s(node[1])}"
    if op in RELATIONS:
        return f"{s(node[1])} {SYMBOL[op]} {s(node[2])}"
    if op in ("and", "or"):
        return f" {op} ".join(f"({s(c)})" for c in node[1:])
    if op == "not":
        return f"not ({s(node[1])})"
    if op == "implies":
        return f"({s(node[1])}) => ({s(node[2])})"
    raise ExprError(f"unknown operator {op!r}")

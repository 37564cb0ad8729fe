"""Expression trees as MathML Core (rendered natively by browsers, offline, no scripts): the report shows each
claim as mathematics, built from the same tree that the certificate stores."""

from __future__ import annotations

import html
import re
from fractions import Fraction

REL = {"lt": "&lt;", "le": "&le;", "gt": "&gt;", "ge": "&ge;", "eq": "=", "ne": "&ne;"}
GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
         "nu", "xi", "pi", "rho", "sigma", "tau", "phi", "chi", "psi", "omega", "Gamma", "Delta", "Theta",
         "Lambda", "Xi", "Pi", "Sigma", "Phi", "Psi", "Omega"}
GREEK_ENT = {"epsilon": "&epsilon;", "eps": "&epsilon;", "lambda": "&lambda;"}
# binding strength: higher binds tighter
_LITERAL = False
PREC = {"or": 1, "implies": 0, "and": 2, "not": 3, "rel": 4, "add": 5, "neg": 6, "mul": 7, "div": 7, "pow": 9, "vadd": 5, "vscale": 7, "dot": 7}


def _mi(name: str, literal: bool = False) -> str:
    """A variable name: a Greek word becomes its letter; ``x_1``, ``x_ij`` and ``x1`` get a subscript; a bracketed
    parameter list (``nmin[T=8]``) is kept as text. ``literal``: the name exactly as written (used when two
    names of one claim would otherwise look the same, see ``names_collide``)."""
    if literal:
        return f'<mi mathvariant="normal">{html.escape(name)}</mi>'
    base, params = (name.split("[", 1)[0], "[" + name.split("[", 1)[1]) if "[" in name else (name, "")
    sub = ""
    if "_" in base.strip("_"):
        base, sub = base.split("_", 1)
    else:
        m = re.fullmatch(r"([A-Za-z]+)(\d+)", base)
        if m:
            base, sub = m.group(1), m.group(2)
    if not base:
        return _mi(name, literal=True)

    def letter(b: str) -> str:
        if b in GREEK_ENT:
            return GREEK_ENT[b]
        if b in GREEK:
            return f"&{b};"
        return html.escape(b)
    core = f"<mi>{letter(base)}</mi>"
    if sub:
        inner = f"<mn>{sub}</mn>" if sub.isdigit() else f"<mi>{html.escape(sub)}</mi>"
        core = f"<msub>{core}{inner}</msub>"
    if params:
        core = f"<mrow>{core}<mtext>{html.escape(params)}</mtext></mrow>"
    return core


def names_collide(names) -> bool:
    """Whether two of the names render the same (x_1 and x1, eps and epsilon): then a page shows them literally."""
    shown = [_mi(n) for n in names]
    return len(set(shown)) != len(shown)


def _num(q: Fraction) -> str:
    q = Fraction(q)
    if q.denominator == 1:
        return f"<mn>{q.numerator}</mn>" if q >= 0 else f"<mrow><mo>&minus;</mo><mn>{-q.numerator}</mn></mrow>"
    frac = f"<mfrac><mn>{abs(q.numerator)}</mn><mn>{q.denominator}</mn></mfrac>"
    return frac if q > 0 else f"<mrow><mo>&minus;</mo>{frac}</mrow>"


def _paren(s: str) -> str:
    return f'<mrow><mo stretchy="false">(</mo>{s}<mo stretchy="false">)</mo></mrow>'


def _prec(node: tuple) -> int:
    op = node[0]
    if op in REL:
        return PREC["rel"]
    if op == "num":
        return 10 if node[1] >= 0 and node[1].denominator == 1 else PREC["neg"]
    if op == "mul" and len(node) > 2 and node[1][0] == "num" and node[1][1] < 0:
        return PREC["neg"]
    return PREC.get(op, 10)


def _leads_with_letter(node: tuple) -> bool:
    """Whether the rendering starts with a letter (a variable or a function name): only then may a number before
    it be joined by invisible times (2x, 3 exp(y)); everything else gets a visible dot."""
    op = node[0]
    if op == "var":
        return True
    if op in ("exp", "log", "max", "min"):
        return True
    if op == "pow":
        return node[1][0] == "var"
    return False


def _sub(node: tuple, outer: int) -> str:
    s = mathml_node(node)
    return _paren(s) if _prec(node) < outer else s


_DEPTH = [0]   # the big operators around the node being rendered (their indices are named by depth)


def _index_name(depth: int) -> str:
    return "<mi>i</mi>" if depth <= 0 else f"<msub><mi>i</mi><mn>{depth + 1}</mn></msub>"


def mathml_node(node: tuple) -> str:
    op = node[0]
    if op == "num":
        return _num(node[1])
    if op == "var":
        return _mi(node[1], _LITERAL)
    if op == "vvar":  # a vector: bold
        return f'<mi mathvariant="bold">{html.escape(node[1])}</mi>'
    if op == "vadd":
        return "<mrow>" + "<mo>+</mo>".join(_sub(c, PREC["add"]) for c in node[1:]) + "</mrow>"
    if op == "idx":   # the index of the big operator it names: i (the outermost), i_2 under it, ...
        return _index_name(_DEPTH[0] - 1 - (node[1] if len(node) > 1 else 0))
    if op in ("seq", "fset", "fsets"):
        return _mi(node[1], _LITERAL)
    if op == "vseq":  # a family of vectors: bold, as a vector
        return f'<mi mathvariant="bold">{html.escape(node[1])}</mi>'
    if op == "vat":   # X_i
        return f"<msub>{mathml_node(node[1])}{mathml_node(node[2])}</msub>"
    if op == "park":  # the unit vector of Park et al.'s Lemma 13 for X_1..X_M
        return (f'<mrow><mi>park</mi><mo>&#x2061;</mo><mrow><mo>(</mo>{mathml_node(node[1])}<mo>,</mo>'
                f"{mathml_node(node[2])}<mo>)</mo></mrow></mrow>")
    if op == "pi":
        return "<mi>&#x3C0;</mi>"
    if op == "dim":
        return "<mi>d</mi>"
    if op in ("at", "sat"):
        return f"<mrow>{mathml_node(node[1])}<mo>&#x2061;</mo>{_paren(mathml_node(node[2]))}</mrow>"
    if op == "union":
        return "<mrow>" + "<mo>&#x222A;</mo>".join(_paren(mathml_node(c)) for c in node[1:]) + "</mrow>"
    if op == "card":
        return f'<mrow><mo stretchy="false">|</mo>{mathml_node(node[1])}<mo stretchy="false">|</mo></mrow>'
    if op == "subset":
        return f"<mrow>{_paren(mathml_node(node[1]))}<mo>&#x2286;</mo>{_paren(mathml_node(node[2]))}</mrow>"
    if op in ("sum", "bmax", "bmin", "forall", "bunion"):
        big = {"sum": "<mo>&#x2211;</mo>", "bmax": "<mi>max</mi>", "bmin": "<mi>min</mi>", "forall": "<mo>&#x2200;</mo>",
               "bunion": "<mo>&#x22C3;</mo>"}[op]
        under = (f"<mrow><mn>1</mn><mo>&#x2264;</mo>{_index_name(_DEPTH[0])}<mo>&#x2264;</mo>"
                 f"{mathml_node(node[1])}</mrow>")
        _DEPTH[0] += 1
        try:
            body = _paren(mathml_node(node[2]))
        finally:
            _DEPTH[0] -= 1
        return f"<mrow><munder>{big}{under}</munder>{body}</mrow>"
    if op == "vscale":
        return f"<mrow>{_sub(node[1], PREC['mul'])}<mo>&#x2062;</mo>{_sub(node[2], PREC['mul'] + 1)}</mrow>"
    if op == "norm":
        return f'<mrow><mo stretchy="false">&#x2016;</mo>{mathml_node(node[1])}<mo stretchy="false">&#x2016;</mo></mrow>'
    if op == "lpnorm":   # ||x||_p, the L^p(nu) norm
        return (f'<msub><mrow><mo stretchy="false">&#x2016;</mo>{mathml_node(node[1])}<mo stretchy="false">&#x2016;</mo></mrow>'
                "<mi>p</mi></msub>")
    if op == "dot":
        return f"<mrow>{_sub(node[1], PREC['mul'] + 1)}<mo>&#x22C5;</mo>{_sub(node[2], PREC['mul'] + 1)}</mrow>"
    if op == "add":
        parts = [_sub(node[1], PREC["add"])]
        for c in node[2:]:
            if c[0] == "neg":
                parts.append("<mo>&minus;</mo>" + _sub(c[1], PREC["add"] + 1))
            elif c[0] == "num" and c[1] < 0:
                parts.append("<mo>&minus;</mo>" + _num(-c[1]))
            else:
                parts.append("<mo>+</mo>" + _sub(c, PREC["add"]))
        return "<mrow>" + "".join(parts) + "</mrow>"
    if op == "mul":
        if len(node) == 2:
            return mathml_node(node[1])
        if node[1][0] == "num" and node[1][1] < 0:
            rest = ((("num", -node[1][1]),) if node[1][1] != -1 else ()) + tuple(node[2:])
            inner = mathml_node(("mul",) + rest) if len(rest) > 1 else _sub(rest[0], PREC["mul"])
            return f"<mrow><mo>&minus;</mo>{inner}</mrow>"
        out = _sub(node[1], PREC["mul"])
        for left, right in zip(node[1:], node[2:]):
            invisible = left[0] == "num" and left[1] >= 0 and _leads_with_letter(right)
            out += ("<mo>&#x2062;</mo>" if invisible else "<mo>&#x22C5;</mo>") + _sub(right, PREC["mul"] + 1)
        return "<mrow>" + out + "</mrow>"
    if op == "neg":
        return f"<mrow><mo>&minus;</mo>{_sub(node[1], PREC['neg'] + 1)}</mrow>"
    if op == "div":
        return f"<mfrac>{mathml_node(node[1])}{mathml_node(node[2])}</mfrac>"
    if op == "pow":
        return f"<msup>{_sub(node[1], PREC['pow'] + 1)}<mn>{int(node[2])}</mn></msup>"
    if op in ("exp", "log"):
        return f"<mrow><mi>{op}</mi><mo>&#x2061;</mo>{_paren(mathml_node(node[1]))}</mrow>"
    if op == "abs":
        return f'<mrow><mo stretchy="false">|</mo>{mathml_node(node[1])}<mo stretchy="false">|</mo></mrow>'
    if op in ("max", "min"):
        return (f"<mrow><mi>{op}</mi><mo>&#x2061;</mo>"
                + _paren("<mo>,</mo>".join(mathml_node(c) for c in node[1:])) + "</mrow>")
    if op == "diff":
        return (f"<mrow><mfrac><mi>d</mi><mrow><mi>d</mi>{_mi(node[2])}</mrow></mfrac>"
                f"{_paren(mathml_node(node[1]))}</mrow>")
    if op in REL:
        return f"<mrow>{_sub(node[1], PREC['rel'] + 1)}<mo>{REL[op]}</mo>{_sub(node[2], PREC['rel'] + 1)}</mrow>"
    if op in ("and", "or"):
        sym = "&and;" if op == "and" else "&or;"
        return "<mrow>" + f"<mo>{sym}</mo>".join(_sub(c, PREC[op] + 1) for c in node[1:]) + "</mrow>"
    if op == "not":
        return f"<mrow><mo>&not;</mo>{_sub(node[1], PREC['rel'] + 1)}</mrow>"
    if op == "implies":
        return f"<mrow>{_sub(node[1], 1)}<mo>&rArr;</mo>{_sub(node[2], 1)}</mrow>"
    raise ValueError(f"unknown operator {op!r}")


def mathml(node: tuple, display: bool = False, literal_names: bool = False) -> str:
    """One <math> element for an expression tree (``literal_names``: variables exactly as written)."""
    global _LITERAL
    attr = ' display="block"' if display else ""
    old, _LITERAL = _LITERAL, literal_names
    try:
        return f"<math{attr}>{mathml_node(node)}</math>"
    finally:
        _LITERAL = old

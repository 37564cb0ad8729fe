"""The axiom list (axioms.json, next to this file) and the check of a cited axiom instance.

An axiom is: for all values of its variables satisfying its hypotheses, its goal. A ``body`` variable
stands for any real term, a ``pred`` variable for any formula and a ``setbody`` variable for any set term, in
which ["idx"] is the index of the big operator it stands under (docs/axioms.md, "Indexed families", "Finite
sets"); every other variable takes a term without a free ["idx"] (a ``set`` variable a set term). A hypothesis of a
certificate that cites ``axiom:NAME`` must be the axiom's goal with every axiom variable replaced by one
term of the certificate's claim, consistently (an integer variable only by an integer term: integer variables and
integer constants under +, - and *), and every instantiated hypothesis of the axiom must be another hypothesis of the same
claim (carried: it needs its own source). Nothing else is accepted. Standard library only."""

from __future__ import annotations

import hashlib
import json
import os
from fractions import Fraction
from functools import lru_cache

from .qarith import Undecided
from .trees import BINDERS, KINDS, MAX_LEVEL, NAMED, Reject, check_binders, idx_level, check_name, check_sorts, free_names as _free, identically_zero, log_rewrite, no_diff, parse

AXIOMS_SCHEMA = "attncert.axioms/1"
PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "axioms.json")


@lru_cache(maxsize=None)
def axioms() -> tuple[int, dict]:
    """(version, name -> (vars, hyps, goal, statement)) of the axiom list; raises Reject if it is malformed."""
    try:
        with open(PATH, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as e:
        raise Reject(f"cannot read the axiom list {PATH}: {e.__class__.__name__}") from None
    if not isinstance(data, dict) or data.get("schema") != AXIOMS_SCHEMA or type(data.get("version")) is not int:
        raise Reject("the axiom list has an unknown schema")
    out: dict = {}
    for a in data["axioms"]:
        name = a["name"]
        if not isinstance(name, str) or not name.isidentifier() or name in out:
            raise Reject(f"axiom list: bad or repeated name {str(name)[:30]!r}")
        vs = {check_name(v): d for v, d in a["vars"].items()}
        if any(d not in _LEAF_OF for d in vs.values()):
            raise Reject(f"axiom {name}: a variable is neither real, int, vec, vecs, body, pred, set, setbody nor seq")
        hyps = [parse(h) for h in a["hyps"]]
        goal, insts = _template(a["goal"])
        plain = _replace(goal, {k: v[1] for k, v in insts.items()})   # each ["inst", F, t] read as F, for the checks
        goal = _replace(goal, insts)
        for _, f, _t in insts.values():
            if f[0] != "var" or vs.get(f[1]) not in ("body", "pred"):
                raise Reject(f"axiom {name}: an instance at an index must be of a body or pred variable")
        preds = {v: _TRUE for v, d in vs.items() if d == "pred"}   # a pred variable stands for a formula
        for n in hyps + [plain]:
            check_sorts(_replace(n, preds), formula=True)
        for n in hyps + [goal]:
            if not _free(n) <= set(vs):
                raise Reject(f"axiom {name}: an undeclared variable")
        # the goal (what a citation states) is a closed claim; only a condition may have a free ["idx"]: the
        # pointwise conditions of forall_intro and forall_mono, shown by SMT with idx a fresh real
        check_binders(plain)
        for t in (t for _, _, t in insts.values() if t is not None):
            if t[0] == "var" and vs.get(t[1]) != "int":
                raise Reject(f"axiom {name}: an index term must be an integer variable or a fixed term")
        for n in hyps + [goal]:
            _var_sorts(n, vs, name)
        if not _free(goal) >= set(vs):
            raise Reject(f"axiom {name}: every variable must occur in the goal (so a citation fixes it)")
        # one entry is a rule rather than a plain axiom: its instance must also pass a side check
        if a.get("side") != (SIDE_RULES.get(name)):
            raise Reject(f"axiom {name}: unexpected side check {str(a.get('side'))[:20]!r}")
        # an existence axiom (docs/axioms.md, "Existence"): for all values of its other variables that meet
        # its conditions there are values of these, its witnesses, with its goal
        wit = a.get("exists", [])
        if not isinstance(wit, list) or len(set(wit)) != len(wit) or len(wit) > 4 or \
                any(vs.get(w) not in WITNESS_KINDS for w in wit) or (wit and name in SIDE_RULES):
            raise Reject(f"axiom {name}: its witnesses must be distinct real, int or seq variables")
        if any(d == "seq" and v not in wit for v, d in vs.items()):
            raise Reject(f"axiom {name}: a seq variable is only a witness")
        if wit and any(set(wit) & _free(h) for h in hyps):
            raise Reject(f"axiom {name}: a witness in a condition")
        if "cited" in a and a["cited"] is not True:
            raise Reject(f"axiom {name}: 'cited' must be true when present")
        out[name] = (vs, hyps, goal, a["statement"], tuple(wit))
    return data["version"], out


@lru_cache(maxsize=None)
def cited() -> frozenset:
    """The entries that are results of the literature a paper cites without proof, not textbook facts
    (docs/axioms.md, "Cited results"): a theorem that rests on one says so."""
    axioms()   # the list is valid
    with open(PATH, encoding="utf-8") as fh:
        return frozenset(a["name"] for a in json.load(fh)["axioms"] if a.get("cited") is True)


_TRUE = ("eq", ("num", Fraction(0)), ("num", Fraction(0)))


def _replace(n, env: dict):
    if n[0] == "var" and n[1] in env:
        return env[n[1]]
    if n[0] in ("num", "var", "vvar", "seq", "idx", "fset", "fsets", "vseq", "dim", "pi"):
        return n
    return (n[0],) + tuple(_replace(c, env) if isinstance(c, tuple) else c for c in n[1:])


def _template(obj) -> tuple:
    """An axiom's goal, parsed, and its instances at an index: each ["inst", F, t] (F a body or pred variable,
    t a term: F with its free ["idx"] replaced by t; docs/axioms.md, "Instances at an index") is parsed as a
    placeholder variable; returns (goal, {placeholder: ("inst", F, t)}). Only the axiom list may write inst."""
    insts: dict = {}

    def strip(o):
        if isinstance(o, list) and o and o[0] == "inst":
            if len(o) != 3 or len(insts) >= 8:
                raise Reject("inst takes a variable and a term")
            key = f"inst__{len(insts)}"
            insts[key] = ("inst", parse(o[1]), parse(o[2]))
            return ["var", key]
        if isinstance(o, list) and o and o[0] == "swap":   # P with its two free indices exchanged (forall_swap)
            if len(o) != 2 or len(insts) >= 8:
                raise Reject("swap takes a variable")
            key = f"inst__{len(insts)}"
            insts[key] = ("swap", parse(o[1]), None)
            return ["var", key]
        return [strip(c) if isinstance(c, list) else c for c in o] if isinstance(o, list) else o
    return parse(strip(obj)), insts


def shift_idx(t, d: int, depth: int = 0):
    """``t`` with every index that points outside it (level >= the number of t's own big operators around it)
    moved d levels further out: t placed under d more big operators keeps its meaning. d < 0 moves them in; an
    index that would then point at one of the d operators (t depends on them) or past MAX_LEVEL: Reject."""
    if t[0] == "idx":
        k = idx_level(t)
        if k < depth:
            return t
        if k + d < depth or k + d > MAX_LEVEL:
            raise Reject("an index term depends on a big operator it is moved out of, or nests too deep")
        return ("idx",) if k + d == 0 else ("idx", k + d)
    if t[0] in BINDERS:
        return (t[0], shift_idx(t[1], d, depth), shift_idx(t[2], d, depth + 1))
    if t[0] in ("num", "var", "ivar", "vvar", "seq", "fset", "fsets", "vseq", "dim", "pi"):
        return t
    return (t[0],) + tuple(shift_idx(c, d, depth) if isinstance(c, tuple) else c for c in t[1:])


def swap_idx(n, depth: int = 0):
    """``n``, the body of two nested big operators, with their two indices exchanged: at ``depth`` (n's own big
    operators around), ["idx", depth] (the inner one's) and ["idx", depth + 1] (the outer one's) trade places
    (docs/axioms.md, "Splitting and shifting": forall_swap). An index naming an operator outside both: Reject."""
    if n[0] == "idx":
        k = idx_level(n)
        if k > depth + 1:
            raise Reject("an index points outside the two operators whose indices are exchanged")
        if k < depth:
            return n
        k = depth + 1 if k == depth else depth
        return ("idx",) if k == 0 else ("idx", k)
    if n[0] in BINDERS:
        return (n[0], swap_idx(n[1], depth), swap_idx(n[2], depth + 1))
    if n[0] in ("num", "var", "ivar", "vvar", "seq", "fset", "fsets", "vseq", "dim", "pi"):
        return n
    return (n[0],) + tuple(swap_idx(c, depth) if isinstance(c, tuple) else c for c in n[1:])


def subst_idx(n, t, depth: int = 0):
    """``n`` with its free index (["idx"] outside every big operator of n, ["idx", d] under d of them) replaced
    by the term ``t`` (whose own free indices are shifted by d, so that they still name the operators they
    named outside n; docs/axioms.md, "Nested big operators"). An index of n pointing further out than n's own
    free index would dangle: Reject."""
    if n[0] == "idx":
        k = idx_level(n)
        if k == depth:
            return shift_idx(t, depth)
        if k > depth:
            raise Reject("an index points outside the operator it is instantiated under")
        return n
    if n[0] in BINDERS:
        return (n[0], subst_idx(n[1], t, depth), subst_idx(n[2], t, depth + 1))
    if n[0] in ("num",) + ("var", "ivar", "vvar", "seq", "fset", "fsets", "vseq", "dim", "pi"):
        return n
    return (n[0],) + tuple(subst_idx(c, t, depth) if isinstance(c, tuple) else c for c in n[1:])


def idx_image(body, term, depth: int = 0):
    """The term t that ``body``'s free index stands for in ``term``: the subterm of ``term`` at the first place
    where body has its free index (``depth``: body's big operators around that place), moved back out of them,
    when ``term`` has the shape of ``body`` down to there; None otherwise (the caller then checks
    subst_idx(body, t) == term)."""
    if body[0] == "idx" and idx_level(body) == depth:
        try:
            return shift_idx(term, -depth)
        except Reject:
            return None
    if body[0] != term[0] or len(body) != len(term):
        return None
    for k, (b, t) in enumerate(zip(body[1:], term[1:])):
        if isinstance(b, tuple) and isinstance(t, tuple):
            got = idx_image(b, t, depth + 1 if (body[0] in BINDERS and k == 1) else depth)
            if got is not None:
                return got
    return None


# vector_identity: ||x|| = ||y|| is accepted for x := A, y := B only when A and B are the same linear
# combination of the claim's vector variables (docs/axioms.md, "Vectors")
SIDE_RULES = {"vector_identity": "linear"}


def linear(n) -> dict:
    """A vector term as {vector variable: its real coefficient (a term)}: vadd adds the coefficients, vscale
    multiplies them by its real factor."""
    if n[0] == "vvar":
        return {n[1]: ("num", Fraction(1))}
    if n[0] == "vadd":
        out: dict = {}
        for c in n[1:]:
            for v, k in linear(c).items():
                out[v] = ("add", out[v], k) if v in out else k
        return out
    if n[0] == "vscale":
        return {v: ("mul", n[1], k) for v, k in linear(n[2]).items()}
    if n[0] in ("vat", "park"):
        # a family's vector or Park's vector is no linear combination of the vector variables: not expanded
        raise Reject(f"vector_identity expands only vector variables (vvar), not {n[0]}")
    raise Reject(f"operator {str(n[0])[:20]!r} is not a vector")


def _same_linear_combination(name: str, i: int, a, b) -> None:
    """The side check of vector_identity: every coefficient difference of A and B vanishes identically
    (Schwartz-Zippel at points drawn from the hash of the two terms), so A = B wherever both are defined
    (the claim's definedness conditions cover every coefficient: they sit inside its norm atoms)."""
    seed = int(hashlib.sha256(repr((a, b)).encode()).hexdigest()[:32], 16)
    for d in linear_differences(a, b):
        expr = log_rewrite(no_diff(d))
        try:
            ok, _ = identically_zero(expr, sorted(_free(expr)), seed)
        except Undecided:
            ok = False
        if not ok:
            raise Reject(f"hypothesis {i + 1} cites {name}, but the two vectors are not the same linear "
                         "combination of the vector variables")


def linear_differences(a, b) -> list:
    """For each vector variable of A or B, coefficient in A minus coefficient in B (all must vanish)."""
    la, lb = linear(a), linear(b)
    zero = ("num", Fraction(0))
    return [("add", la.get(v, zero), ("neg", lb.get(v, zero))) for v in sorted(set(la) | set(lb))]


# the kinds an axiom variable may have, and the leaf each is written with (trees.KINDS); seq only for a witness
_LEAF_OF = {k: KINDS[k][0] for k in ("real", "int", "body", "pred", "vec", "vecs", "set", "setbody", "seq")}
WITNESS_KINDS = ("real", "int", "seq")


def _var_sorts(n, vs: dict, name: str) -> None:
    """An axiom's vector variables are written vvar, its families of vectors vseq, its set variables fset, its
    real, integer, body and pred ones var."""
    if n[0] in NAMED and _LEAF_OF.get(vs.get(n[1])) != n[0]:
        raise Reject(f"axiom {name}: {n[1]!r} is used with the wrong sort")
    for c in n[1:]:
        if isinstance(c, tuple):
            _var_sorts(c, vs, name)


def _pointwise(name: str, avars: dict, ahyps: list, agoal) -> bool:
    """An axiom cited pointwise (docs/axioms.md, "Pointwise instances"): real, integer and set variables only,
    and neither a big operator nor ["idx"] in its goal or conditions (nothing there could capture the index);
    no side rule."""
    return (name not in SIDE_RULES and set(avars.values()) <= {"real", "int", "set"}
            and not any(_has_binder(n) for n in ahyps + [agoal]))


def _has_binder(n) -> bool:
    return n[0] in BINDERS or n[0] == "idx" or any(isinstance(c, tuple) and _has_binder(c) for c in n[1:])


MAX_CITATIONS = 256  # axiom citations in one claim


def check_instance(name: str, hyps: list, i: int, domains: dict, match, subst, mark, unmark,
                   own: list | None = None, binding: dict | None = None) -> tuple[list, list]:
    """Hypothesis ``i`` of a claim with parsed ``hyps`` and variable ``domains`` cites axiom ``name``.
    Returns (carried, derived): the indices of the other hypotheses that are instantiated conditions of
    the axiom, and the instantiated conditions that are not hypotheses: each of those must follow from
    the hypotheses *before* ``i`` (the caller re-runs that as an SMT goal). Raises Reject when the
    hypothesis is not an instance. ``match``/``subst``/``mark``/``unmark`` are verify's instance matcher,
    substitution and integer-variable marking. ``binding`` (a dict) receives the substitution, integer variables
    marked: for an existence axiom the caller checks that each witness went to a fresh variable of the claim
    (docs/axioms.md, "Existence")."""
    version, table = axioms()
    if name not in table:
        raise Reject(f"hypothesis {i + 1} cites {('axiom:' + name)[:60]!r}, which is not in the axiom list "
                     f"(version {version})")
    avars, ahyps, agoal, _, wit = table[name]
    if any("diff" == n[0] for n in [agoal]):  # no axiom states a derivative (none needs one)
        raise Reject(f"axiom {name}: derivatives are not instantiated")
    own = [mark(h, domains) for h in hyps] if own is None else own  # callers mark a claim once
    sub: dict = {}
    over = None   # the bound N of a pointwise instance: forall(N, instance), the instance's terms using ["idx"]
    if not match(agoal, own[i], avars, sub):
        sub = {}
        if not (own[i][0] == "forall" and _pointwise(name, avars, ahyps, agoal)
                and match(agoal, own[i][2], {v: {"real": "body", "set": "setbody"}.get(d, d) for v, d in avars.items()},
                          sub)):
            raise Reject(f"hypothesis {i + 1} is not an instance of axiom {name}")
        over = own[i][1]
        if wit:   # never pointwise: one witness for each index would need a family
            raise Reject(f"hypothesis {i + 1} cites the existence axiom {name} at every index")
    if binding is not None:
        binding.update(sub)
    if name in SIDE_RULES:
        _same_linear_combination(name, i, unmark(sub["x"]), unmark(sub["y"]))
    carried, derived = [], []
    for ah in ahyps:
        inst = subst(ah, sub)
        if over is not None:
            inst = ("forall", over, inst)   # each condition at every index
        js = [j for j, x in enumerate(own) if j != i and x == inst]
        if js:
            carried.append(js[0])
        else:
            derived.append(unmark(inst))
    return carried, derived

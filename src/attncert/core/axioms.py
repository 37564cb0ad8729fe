"""The prover's reading of the axiom list (the data file ``attncert/checker/axioms.json``, which the
checker reads with its own parser): build a hypothesis that cites an axiom instance.

    axiom("exp_lt", x=a2, y=a1 - delta)     # Hyp: exp(a2) < exp(a1 - delta), by axiom:exp_lt
    axiom_conditions("exp_lt", x=a2, y=a1 - delta)  # [a2 < a1 - delta]: must be other hypotheses

The checker accepts the citation only when the hypothesis is the axiom's goal under one consistent
substitution and every instantiated condition is another hypothesis of the same claim."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources

from attncert.core.claims import Hyp
from attncert.core.errors import ExprError
from attncert.core.expr import BINDERS, NAMED, E, contains, free_idx, free_vars, from_json, level, node_of, shift_idx, sort_of, subst_idx, substitute, swap_idx


@dataclass(slots=True, frozen=True)
class Axiom:
    name: str
    vars: dict
    hyps: tuple
    goal: tuple
    statement: str
    ref: str
    exists: tuple = ()   # the witnesses of an existence axiom (docs/axioms.md, "Existence")
    cited: bool = False  # a result of the literature cited without proof (docs/axioms.md, "Cited results")


@lru_cache(maxsize=None)
def axiom_list() -> tuple[int, dict[str, Axiom]]:
    """(version, name -> Axiom)."""
    text = resources.files("attncert").joinpath("checker", "axioms.json").read_text(encoding="utf-8")
    data = json.loads(text)
    table = {a["name"]: Axiom(a["name"], dict(a["vars"]), tuple(from_json(h) for h in a["hyps"]),
                              _template(a["goal"]), a["statement"], a["ref"], tuple(a.get("exists", ())),
                              a.get("cited") is True)
             for a in data["axioms"]}
    return data["version"], table


def cited(names) -> list[str]:
    """The names among ``names`` that are cited results of the literature, not textbook facts."""
    table = axiom_list()[1]
    return sorted(n for n in names if n in table and table[n].cited)


def _template(obj) -> tuple:
    """An axiom's goal; ["inst", F, t] (F at the index term t: F with its free index replaced by t; docs/axioms.md,
    "Instances at an index") is kept as an ("inst", F, t) node, which only the axiom list may write."""
    if isinstance(obj, list) and obj and obj[0] == "inst":
        if len(obj) != 3:
            raise ExprError("inst takes a variable and a term")
        return ("inst", from_json(obj[1]), from_json(obj[2]))
    if isinstance(obj, list) and obj and obj[0] == "swap":   # P with its two free indices exchanged (forall_swap)
        if len(obj) != 2:
            raise ExprError("swap takes a variable")
        return ("swap", from_json(obj[1]))
    if isinstance(obj, list) and obj and obj[0] in ("num", "idx", "pow", "diff") + NAMED:
        return from_json(obj)
    if isinstance(obj, list) and obj and isinstance(obj[0], str):
        from_json([obj[0]] + [["num", "0"]] * (len(obj) - 1))   # the operator is known
        return (obj[0],) + tuple(_template(c) for c in obj[1:])
    raise ExprError(f"not an expression node: {str(obj)[:60]}")


def _instantiate(node: tuple, env: dict) -> tuple:
    """The goal's variables replaced by ``env``, each ("inst", F, t) then evaluated: F's free index replaced by t."""
    if node[0] == "inst":
        body = _instantiate(node[1], env)
        if not free_idx(body):   # it would fix no index term: the checker matches nothing (docs/axioms.md)
            raise ExprError("an instance at an index needs a body or formula with a free index")
        return subst_idx(body, _instantiate(node[2], env))
    if node[0] == "swap":
        return swap_idx(_instantiate(node[1], env))
    if node[0] in ("num", "idx", "pow", "diff") + NAMED:
        return substitute(node, env)
    return (node[0],) + tuple(_instantiate(c, env) if isinstance(c, tuple) else c for c in node[1:])


def _get(name: str) -> Axiom:
    table = axiom_list()[1]
    if name not in table:
        raise ExprError(f"no axiom named {name!r} (see docs/axioms.md)")
    return table[name]


def _env(ax: Axiom, terms: dict) -> dict:
    if set(terms) != set(ax.vars):
        raise ExprError(f"axiom {ax.name} takes exactly {sorted(ax.vars)}, got {sorted(terms)}")
    return {k: node_of(v) for k, v in terms.items()}


def instance(name: str, **terms) -> E:
    """The axiom's goal with its variables replaced by ``terms``."""
    ax = _get(name)
    return E(_instantiate(ax.goal, _env(ax, terms)))


def axiom(name: str, **terms) -> Hyp:
    """A hypothesis: the instance of axiom ``name``, citing it."""
    ax = _get(name)
    return Hyp(_instantiate(ax.goal, _env(ax, terms)), by=f"axiom:{name}")


def axiom_at_each(name: str, n, **terms) -> Hyp:
    """A pointwise instance: forall(n, the axiom's goal), its variables replaced by ``terms``, which may use the
    index ``IDX`` (docs/axioms.md, "Pointwise instances"). Each condition of the axiom must then hold at every
    index: forall(n, condition) is another hypothesis, or follows from the hypotheses before."""
    ax = _get(name)
    if not pointwise(ax):
        raise ExprError(f"axiom {name} cannot be cited pointwise (it has a big operator, a vector, sequence or "
                        "body variable, or a side rule)")
    return Hyp(("forall", node_of(n), _instantiate(ax.goal, _env(ax, terms))), by=f"axiom:{name}")


def same_exp(a, c) -> list[Hyp]:
    """exp(a) = exp(c) for two terms equal as reals but written differently (an exp atom is keyed by its tree):
    exp_le both ways, each condition shown by arithmetic from nothing."""
    return [axiom("exp_le", x=a, y=c), axiom("exp_le", x=c, y=a)]


def axiom_conditions(name: str, **terms) -> list[E]:
    """The axiom's conditions, instantiated: each must be another hypothesis of the citing claim."""
    ax = _get(name)
    env = _env(ax, terms)
    return [E(substitute(h, env)) for h in ax.hyps]


def bind(pat: tuple, term: tuple, cvars: dict, ints: set, sub: dict) -> bool:
    """Is ``term`` the pattern ``pat`` with each of ``cvars`` (name -> domain) replaced by one term,
    consistently? An integer variable only takes an integer constant or one of ``ints``; a derivative's
    variable (when it is one of ``cvars``) is renamed with that variable, which must then be bound to a
    variable (the caller checks that the renaming is valid). Binds ``sub``. (The prover's matcher, for axiom citations and links;
    the checker has its own.)"""
    if pat[0] in NAMED and pat[1] in cvars:
        if pat[1] in sub:
            return sub[pat[1]] == term
        dom = cvars[pat[1]]
        # each kind of variable is written with its own leaf and takes a term of one sort: a vector variable
        # (vvar) a vector term, a sequence (seq) a sequence, a set (fset) a set term, a sequence of sets
        # (fsets) one, a body variable a real term and a pred variable a formula, either of which may use the
        # index ("idx",) of the big operator it stands under (docs/axioms.md, "Indexed families"); setbody
        # is a set term that may use it; any other variable a real term
        leaf, sort = _KIND.get(dom, ("var", "real"))
        if pat[0] != leaf or _sort(term) != sort:
            return False
        if dom not in ("body", "pred", "setbody") and free_idx(term):
            return False   # every other variable is one value, not a function of the index
        if dom == "int" and not _integer(term, ints):
            return False
        sub[pat[1]] = term
        return True
    if pat[0] == "inst":   # F (bound earlier in the goal, with a free index) at the index term t
        body = sub.get(pat[1][1]) if pat[1][0] == "var" else None
        if body is None or not free_idx(body):
            return False
        image = _idx_image(body, term)
        if image is None or not bind(pat[2], image, cvars, ints, sub):
            return False
        try:
            return subst_idx(body, substitute(pat[2], sub)) == term
        except ExprError:
            return False
    if pat[0] == "swap":   # P (bound earlier in the goal) with its two free indices exchanged
        body = sub.get(pat[1][1]) if pat[1][0] == "var" else None
        try:
            return body is not None and swap_idx(body) == term
        except ExprError:
            return False
    if pat[0] != term[0] or len(pat) != len(term):
        return False
    if pat[0] == "diff" and pat[2] in cvars:   # a derivative's variable is renamed with its variable
        if not bind(("var", pat[2]), ("var", term[2]), cvars, ints, sub):
            return False
        return bind(pat[1], term[1], cvars, ints, sub)
    if pat[0] in ("num", "idx", "pow", "diff") + NAMED and pat[-1] != term[-1]:
        return False   # (an index: the same level, so the same big operator)
    if pat[0] in ("num", "idx") + NAMED:
        return True
    return all(bind(a, b, cvars, ints, sub) for a, b in zip(pat[1:], term[1:]) if isinstance(a, tuple))


def _integer(n: tuple, ints: set) -> bool:
    """Integer-valued everywhere: an integer constant, one of ``ints``, or a sum, product or negation of such."""
    if n[0] == "num":
        return n[1].denominator == 1
    if n[0] in ("add", "mul", "neg"):
        return all(_integer(c, ints) for c in n[1:])
    return n[0] == "var" and n[1] in ints


def _idx_image(body: tuple, term: tuple, depth: int = 0):
    """The term that ``body``'s free index stands for in ``term``: the subterm where body first has it (under
    ``depth`` of body's big operators), moved back out of them, if ``term`` has body's shape down to it."""
    if body[0] == "idx" and level(body) == depth:
        try:
            return shift_idx(term, -depth)
        except ExprError:
            return None
    if body[0] != term[0] or len(body) != len(term):
        return None
    for k, (b, t) in enumerate(zip(body[1:], term[1:])):
        if isinstance(b, tuple) and isinstance(t, tuple):
            got = _idx_image(b, t, depth + (body[0] in BINDERS and k == 1))
            if got is not None:
                return got
    return None


_KIND = {"vec": ("vvar", "vec"), "vecs": ("vseq", "vecs"), "seq": ("seq", "seq"), "set": ("fset", "set"), "setbody": ("fset", "set"),
         "sets": ("fsets", "sets"), "body": ("var", "real"), "pred": ("var", "formula")}


def _sort(n: tuple) -> str | None:
    try:
        return sort_of(n)
    except ExprError:
        return None


SIDE_RULES = {"vector_identity": "linear"}  # checked beyond matching: both vectors the same linear combination


def combination(n: tuple) -> dict:
    """A vector term as {vector variable: coefficient (a real term)}."""
    if n[0] == "vvar":
        return {n[1]: ("num", Fraction(1))}
    if n[0] == "vadd":
        out: dict = {}
        for c in n[1:]:
            for v, k in combination(c).items():
                out[v] = ("add", out[v], k) if v in out else k
        return out
    if n[0] == "vscale":
        return {v: ("mul", n[1], k) for v, k in combination(n[2]).items()}
    raise ExprError(f"{n[0]!r} is not a vector")


def _same_combination(name: str, i: int, a: tuple, b: tuple) -> None:
    """vector_identity's side check in the prover: every coefficient difference is zero, in exact rational
    arithmetic, at 24 points drawn from the hash of the two terms (a non-zero rational function of degree d
    vanishes at such a point with probability about d / 2^60). The checker's test is its own."""
    import hashlib
    import random

    from attncert.core.errors import NotExact
    from attncert.core.expr import eval_exact, free_vars

    ca, cb = combination(a), combination(b)
    zero = ("num", Fraction(0))
    diffs = [("add", ca.get(v, zero), ("neg", cb.get(v, zero))) for v in sorted(set(ca) | set(cb))]
    names: set = set()
    for d in diffs:
        free_vars(d, names)
    rng = random.Random(hashlib.sha256(repr((a, b)).encode()).hexdigest())
    done = 0
    for _ in range(200):
        env = {v: Fraction(rng.randrange(-(1 << 60), 1 << 60), rng.randrange(1, 1 << 20)) for v in sorted(names)}
        try:
            vals = [eval_exact(d, env) for d in diffs]
        except NotExact as e:
            if "division by zero" in str(e):
                continue   # a pole: another point
            raise ExprError(f"hypothesis {i + 1} cites {name}: the prover cannot evaluate a coefficient ({e})") from None
        if any(x != 0 for x in vals):
            bad = sorted(set(ca) | set(cb))[next(j for j, x in enumerate(vals) if x != 0)]
            raise ExprError(f"hypothesis {i + 1} cites {name}, but the coefficients of {bad} differ")
        done += 1
        if done == 24:
            return
    raise ExprError(f"hypothesis {i + 1} cites {name}: a pole at almost every point")


def conditions(claim, i: int, binding: dict | None = None) -> tuple[list[int], list[tuple]]:
    """(carried, derived) for hypothesis ``i`` of ``claim``, which cites an axiom: the indices of the other
    hypotheses that are its instantiated conditions, and the instantiated conditions that are not
    hypotheses (each must follow from the hypotheses before ``i``); ``binding`` (a dict) receives the instance's
    substitution. Raises ExprError when the hypothesis
    is not an instance of its axiom."""
    h = claim.hyps[i]
    ax = _get(h.by[len("axiom:"):])
    ints = {v.name for v in claim.vars if v.domain == "int"}
    sub: dict = {}
    over = None   # the bound N of a pointwise instance
    if not bind(ax.goal, h.expr, ax.vars, ints, sub):
        sub = {}
        if not (h.expr[0] == "forall" and pointwise(ax) and bind(ax.goal, h.expr[2], _pointwise_kinds(ax.vars), ints, sub)):
            raise ExprError(f"hypothesis {i + 1} is not an instance of axiom {ax.name}")
        over = h.expr[1]
    if binding is not None:
        binding.update(sub)
    if ax.name in SIDE_RULES:
        _same_combination(ax.name, i, sub["x"], sub["y"])
    own = [g.expr for g in claim.hyps]
    carried, derived = [], []
    for c in (substitute(a, sub) for a in ax.hyps):
        if over is not None:
            c = ("forall", over, c)   # a pointwise instance's condition holds at every index too
        js = [j for j, x in enumerate(own) if j != i and x == c]
        if js:
            carried.append(js[0])
        else:
            derived.append(c)
    return carried, derived


def pointwise(ax: Axiom) -> bool:
    """May the axiom be cited pointwise, as forall(N, instance) with its variables replaced by terms of the
    index (docs/axioms.md, "Pointwise instances")? Only an axiom with real, integer or set variables and no
    big operator or index in its goal and conditions (so nothing in it can capture the index), and no side
    rule."""
    return (ax.name not in SIDE_RULES and not ax.exists and set(ax.vars.values()) <= {"real", "int", "set"}
            and not any(contains(n, BINDERS | {"idx"}) for n in (ax.goal,) + ax.hyps))


def _pointwise_kinds(avars: dict) -> dict:
    """In a pointwise instance a real variable takes a real term that may use the index (as a body variable
    does), a set variable a set term that may use it; an integer variable still takes only an integer
    constant or integer variable."""
    return {v: {"real": "body", "set": "setbody"}.get(d, d) for v, d in avars.items()}


def derived_conditions(claim, i: int) -> list[tuple]:
    """The conditions of the axiom that hypothesis ``i`` cites which are not other hypotheses."""
    return conditions(claim, i)[1]


def witness_gap(claim) -> str | None:
    """Why the claim's citations of existence axioms do not eliminate their witnesses (None: they do; docs/axioms.md,
    "Existence"). Each witness must be a variable of the claim of its own kind (real, int or seq), without a
    box, bound by one citation only, and absent from the goal, the plain hypotheses, the hypotheses before the
    citation and the citation's other terms. (That the citation rests only on hypotheses before it, also
    through links, is the engine's check: engine.axiom_gap.)"""
    doms = {v.name: v for v in claim.vars}
    bound: dict = {}
    for i, h in enumerate(claim.hyps):
        if not (h.by or "").startswith("axiom:"):
            continue
        ax = _get(h.by[len("axiom:"):])
        if not ax.exists:
            continue
        sub: dict = {}
        try:
            conditions(claim, i, sub)   # the instance's substitution
        except ExprError as e:
            return str(e)
        others = [t for k, t in sub.items() if k not in ax.exists]
        for w, img in ((w, sub[w]) for w in ax.exists):
            kind = ax.vars[w]
            name = img[1] if img[0] in ("var", "seq") else None
            var = doms.get(name)
            if var is None or img[0] != ("seq" if kind == "seq" else "var") or var.domain != kind \
                    or var.lo is not None or var.hi is not None:
                return (f"hypothesis {i + 1} cites the existence axiom {ax.name}: its witness {w} must be a variable "
                        f"of the claim declared {kind}, without a box")
            if name in bound:
                return f"hypothesis {i + 1} cites {ax.name} with the witness {name}, which hypothesis {bound[name] + 1} already binds"
            bound[name] = i
            places = [("the goal", claim.goal)] + [(f"hypothesis {j + 1}", g.expr) for j, g in enumerate(claim.hyps)
                                                    if j < i or not g.by] + [("a term of the citation", t) for t in others]
            for what, n in places:
                if name in free_vars(n):
                    return (f"hypothesis {i + 1} cites the existence axiom {ax.name} with the witness {name}, which "
                            f"occurs in {what} (a witness may occur only in sourced hypotheses after it)")
    return None

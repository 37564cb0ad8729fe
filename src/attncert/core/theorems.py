"""Theorem-level results (issue 16): one record per numbered lemma, theorem, proposition and corollary of a
paper, and the prover's own computation of its verdict from the step obligations.

A theorem names its *roots*: step obligations whose claims state it (one root: in the paper's generality;
several, with ``instances``: instances of it; several, with ``cases``: the cases of its proof, which together
state it in the paper's generality). Its verdict is computed, never declared:

- PROVED: one root (or every root of its ``cases``), PROVED, closed (every hypothesis of every step in its
  graph is an axiom instance, a checked link to a PROVED step, or a plain hypothesis of the root that the
  theorem names as one of its own hypotheses);
- PROVED FOR INSTANCES: every root so, with ``instances`` saying which (e.g. "n = 2..6");
- CONFIRMED: the root is CONFIRMED (numerical evidence only);
- REFUTED AS PRINTED: ``printed`` is a REFUTED step (the statement as printed, with its counterexample)
  and ``repaired`` names the theorem record of the repaired statement;
- OPEN: anything else, with the blocking steps.

The checker (``attncert verify``) recomputes the same verdict with its own link and instance checks from
the certificates it is given, and accepts a theorem certificate only when the two agree."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from attncert.core.axioms import bind, conditions
from attncert.core.claims import Hyp, Obligation
from attncert.core.errors import ExprError
from attncert.core.expr import NAMED, free_vars, show

THEOREM_SCHEMA = "attncert.theorem/2"
MANIFEST_SCHEMA = "attncert.theorem-manifest/1"
THEOREM_VERDICTS = ("PROVED", "PROVED FOR INSTANCES", "CONFIRMED", "REFUTED AS PRINTED", "OPEN")


@dataclass(slots=True, frozen=True)
class Theorem:
    """A numbered result. ``hypotheses`` names the root's plain hypotheses: shown expression -> what it is
    in the paper (a plain hypothesis without a name is an unnamed premise, which keeps the theorem OPEN)."""

    id: str
    paper: str
    label: str
    ref: str
    statement: str
    roots: tuple[str, ...] = ()
    instances: str | None = None
    hypotheses: tuple[tuple[str, str], ...] = ()
    printed: str | None = None
    repaired: str | None = None
    blocking: str | None = None
    note: str = ""
    cases: str | None = None
    definitions: tuple[tuple[str, str], ...] = ()


def theorem(id_: str, paper: str, label: str, ref: str, statement: str, roots=(), instances=None, hypotheses=None,
            printed=None, repaired=None, blocking=None, note="", cases=None, definitions=None) -> Theorem:
    if printed is not None and repaired is None:
        raise ValueError(f"{id_}: a statement refuted as printed needs the id of its repaired version")
    if not roots and printed is None and not blocking:
        raise ValueError(f"{id_}: with no root step, say what blocks it (blocking=...)")
    if len(roots) > 1 and instances is None and cases is None:
        raise ValueError(f"{id_}: several roots are instances or cases: say which (instances=... or cases=...)")
    if cases is not None and (instances is not None or len(roots) < 2):
        raise ValueError(f"{id_}: cases join two or more roots, and not with instances")
    both = set(hypotheses or {}) & set(definitions or {})
    if both:
        raise ValueError(f"{id_}: {sorted(both)[0]} is named both a hypothesis and a definition")
    return Theorem(id_, paper, label, ref, statement, tuple(roots), instances,
                   tuple(sorted((hypotheses or {}).items())), printed, repaired, blocking, note, cases,
                   tuple(sorted((definitions or {}).items())))


# ------------------------------------------------------------------------------- the prover's closure


def _subst(n: tuple, sub: dict) -> tuple:
    if n[0] in NAMED:   # every named leaf, families of vectors (vseq) included (attack round 35)
        return sub.get(n[1], n)
    if n[0] in ("num", "idx"):
        return n
    if n[0] == "diff":
        v = sub.get(n[2], ("var", n[2]))
        if v[0] != "var":  # d/dy h(y) at y := -1 is h'(-1), not the derivative of the constant h(-1)
            from attncert.core.errors import ExprError
            raise ExprError("a derivative's variable would be replaced by a term that is not a variable")
        return ("diff", _subst(n[1], sub), v[1])
    return (n[0],) + tuple(_subst(c, sub) if isinstance(c, tuple) else c for c in n[1:])


FIX_BUDGET = 50_000  # match attempts of the binding search (then the greedy binding is kept)


def fix_free(hyps, own: list, skip: int, cvars: dict, ints: set, sub: dict) -> dict:
    """The cited variables the goal leaves free are fixed by a binding under which every cited hypothesis is
    a citing one (``skip`` aside): a depth-first search over the citing hypotheses in order, bounded by
    FIX_BUDGET attempts; without one, each cited hypothesis that holds a free variable is matched, in order,
    with the first citing hypothesis that fits. Any instance is sound; the caller requires every
    instantiated hypothesis to be present. (The checker's search is its own.)"""
    pats = [h if isinstance(h, tuple) else h.expr for h in hyps]
    have = {y for j, y in enumerate(own) if j != skip}
    left = [FIX_BUDGET]

    def dfs(k: int, cur: dict):
        if k == len(pats):
            return cur
        e = pats[k]
        if free_vars(e) & set(cvars) <= set(cur):
            try:
                inst = _subst(e, cur)
            except ExprError:  # a derivative's variable sent to a non-variable: not this binding
                return None
            return dfs(k + 1, cur) if inst in have else None
        for j, y in enumerate(own):
            if j == skip:
                continue
            left[0] -= 1
            if left[0] < 0:
                return None
            trial = dict(cur)
            if bind(e, y, cvars, ints, trial):
                got = dfs(k + 1, trial)
                if got is not None:
                    return got
        return None

    if len(pats) <= 400:
        got = dfs(0, dict(sub))
        if got is not None:
            return got
    for e in pats:
        if free_vars(e) & set(cvars) <= set(sub):
            continue
        for j, y in enumerate(own):
            trial = dict(sub)
            if j != skip and bind(e, y, cvars, ints, trial):
                sub = trial
                break
    return sub


def link_gap(citing: Obligation, i: int, cited: Obligation) -> tuple[str | None, list[int]]:
    """(None, carried) when hypothesis ``i`` of ``citing`` is an instance of ``cited``'s goal and every
    instantiated plain hypothesis of ``cited`` is another hypothesis of ``citing``; else (reason, []). The
    sourced hypotheses of ``cited`` hold wherever its plain ones do, once ``cited`` is established (the
    caller's recursion), so they are not carried (the checker reads a link the same way)."""
    cvars = {v.name: v.domain for v in cited.claim.vars}
    if "defined" in cvars.values():
        return f"{cited.id} states a defined quantity, not a lemma", []
    ints = {v.name for v in citing.claim.vars if v.domain == "int"}
    sub: dict = {}
    if not bind(cited.claim.goal, citing.claim.hyps[i].expr, cvars, ints, sub):
        return f"hypothesis {i + 1} of {citing.id} is not an instance of the goal of {cited.id}", []
    own = [h.expr for h in citing.claim.hyps]
    plain = [h for h in cited.claim.hyps if h.by is None]
    sub = fix_free(plain, own, i, cvars, ints, sub)
    acc: set = set()
    for h in plain:
        free_vars(h.expr, acc)
    if not acc <= set(sub):
        return f"a hypothesis of {cited.id} has a variable the link to it does not fix", []
    if any(_moves_derivative(n, sub) for n in [cited.claim.goal] + [h.expr for h in plain]):
        return f"the instance of {cited.id} moves a derivative's variable", []
    carried, k = _present([h.expr for h in plain], sub, own, i)
    if carried is None:
        return f"hypothesis {k + 1} of {cited.id}, instantiated, is not a hypothesis of {citing.id}", []
    return None, carried


EACH = "each:"   # 'each:t:C': a link to C at every index of its integer variable t (docs/axioms.md)


def each_parts(by: str) -> tuple[str | None, str]:
    """(the index variable, the cited id) of a source: (None, by) unless it is a link at every index."""
    if by.startswith(EACH):
        var, _, cited = by[len(EACH):].partition(":")
        return var, cited
    return None, by


def source_id(by: str) -> str:
    """The obligation a link, the monotonicity rule or a link at every index names."""
    return by[len(MVT):] if by.startswith(MVT) else each_parts(by)[1]


def each_hyps(cited: Obligation, var: str, n, **terms) -> list[Hyp]:
    """A link to ``cited`` at every index of its integer variable ``var``: forall(n, plain hypothesis) for each
    plain hypothesis of ``cited``, then forall(n, goal), citing it ('each:VAR:ID'); ``var`` is the forall's
    index there, ``terms`` (without an index) replace the other variables."""
    from attncert.core.expr import node_of, var_to_idx

    if var in terms:
        raise ExprError(f"{var} is the index of the link, not a term")
    env = {k: node_of(v) for k, v in terms.items()}
    bound = node_of(n)
    each = lambda e: ("forall", bound, var_to_idx(_subst(e, env), var))  # noqa: E731
    return ([Hyp(each(h.expr)) for h in cited.claim.hyps if h.by is None]
            + [Hyp(each(cited.claim.goal), f"{EACH}{var}:{cited.id}")])


def each_gap(citing: Obligation, i: int, cited: Obligation, var: str) -> tuple[str | None, list[int]]:
    """(None, carried) when hypothesis ``i`` of ``citing`` is forall(N, B), B is ``cited``'s goal with its
    integer variable ``var`` read as the forall's index and the other variables as terms without an index, and
    every plain hypothesis of ``cited``, so read, is the body of another hypothesis forall(N, .); else (reason,
    []). (The checker reads it the same way, with its own code.)"""
    from attncert.core.expr import free_idx, var_to_idx

    cvars = {v.name: v.domain for v in cited.claim.vars}
    if "defined" in cvars.values():
        return f"{cited.id} states a defined quantity, not a lemma", []
    if cvars.get(var) != "int":
        return f"{var!r} is not an integer variable of {cited.id}", []
    h = citing.claim.hyps[i].expr
    if h[0] != "forall":
        return f"hypothesis {i + 1} of {citing.id} cites {cited.id} at every index but is not a forall", []
    try:
        goal = var_to_idx(cited.claim.goal, var)
        pats = [var_to_idx(x.expr, var) for x in cited.claim.hyps if x.by is None]
    except ExprError as e:
        return f"{cited.id} at every index of {var}: {e}", []
    del cvars[var]
    ints = {v.name for v in citing.claim.vars if v.domain == "int"}
    sub: dict = {}
    if not bind(goal, h[2], cvars, ints, sub):
        return f"hypothesis {i + 1} of {citing.id} is not {cited.id}'s goal at every index of {var}", []
    if any(free_idx(t) for t in sub.values()):
        return f"the link to {cited.id} at every index sends a variable to a term with an index", []
    bodies = [y.expr[2] if y.expr[0] == "forall" and y.expr[1] == h[1] else ("num", Fraction(0))
              for y in citing.claim.hyps]
    sub = fix_free(pats, bodies, i, cvars, ints, sub)
    acc: set = set()
    for p in pats:
        free_vars(p, acc)
    if not acc <= set(sub) or any(free_idx(t) for t in sub.values()):
        return f"a hypothesis of {cited.id} has a variable the link to it at every index does not fix", []
    if any(_moves_derivative(x, sub) for x in pats + [goal]):
        return f"the instance of {cited.id} moves a derivative's variable", []
    carried, k = _present(pats, sub, bodies, i)
    if carried is None:
        return (f"hypothesis {k + 1} of {cited.id}, at every index, is not the body of a hypothesis forall(N, .) "
                f"of {citing.id} with the same N"), []
    return None, carried


def _present(patterns: list, sub: dict, own: list, skip: int) -> tuple[list[int] | None, int]:
    """(the index of a citing hypothesis, other than ``skip``, equal to each pattern instantiated, -1), or
    (None, the position of the first pattern with none)."""
    out = []
    for k, pat in enumerate(patterns):
        inst = _subst(pat, sub)
        js = [j for j, y in enumerate(own) if j != skip and y == inst]
        if not js:
            return None, k
        out.append(js[0])
    return out, -1


MVT = "mvt:"
_MVT_REL = {"gt": "lt", "ge": "le", "lt": "gt", "le": "ge"}  # the sign of f' -> how f(L) compares with f(U)


def mvt_hyp(cited: Obligation, **terms) -> Hyp:
    """The hypothesis f(L) REL f(U) that the monotonicity rule derives from ``cited`` (f' REL 0 for x in
    (L, U)), with ``terms`` replacing the cited claim's other variables; its source is 'mvt:<cited id>'."""
    from attncert.core.expr import node_of

    shape = mvt_shape(cited)
    if isinstance(shape, str):
        raise ValueError(shape)
    f, x, lo, hi, rel, _rest, _defs = shape
    env = {k: node_of(v) for k, v in terms.items()}
    at = lambda end: _subst(f, {**env, x: _subst(end, env)})  # noqa: E731
    return Hyp((_MVT_REL[rel], at(lo), at(hi)), MVT + cited.id)


def link_hyps(cited: Obligation, **terms) -> list[Hyp]:
    """The hypotheses a link to ``cited`` needs: its hypotheses instantiated (each keeps its own source; the
    checker requires them to be hypotheses of the citing claim), then the instance of its goal, citing it.
    ``terms`` replaces the cited claim's variables (a renamed variable is renamed where it is a derivative's
    variable too); the others are kept."""
    from attncert.core.expr import node_of

    env = {k: node_of(v) for k, v in terms.items()}
    return [Hyp(_subst(h.expr, env), h.by) for h in cited.claim.hyps] + [Hyp(_subst(cited.claim.goal, env), cited.id)]


def link_plain(cited: Obligation, **terms) -> list[Hyp]:
    """As link_hyps, but only the cited claim's plain hypotheses (the ones a link carries; the sourced ones hold
    wherever those do) and its goal: for a cited claim whose sourced hypotheses could not take ``terms`` (a
    derivative in a variable that ``terms`` sends to a non-variable)."""
    from attncert.core.expr import node_of

    env = {k: node_of(v) for k, v in terms.items()}
    return ([Hyp(_subst(h.expr, env)) for h in cited.claim.hyps if h.by is None]
            + [Hyp(_subst(cited.claim.goal, env), cited.id)])


def link_shown(cited: Obligation, **terms) -> list[Hyp]:
    """As link_plain, but each carried hypothesis is shown in place (cited as ``follows``: another hypothesis, or
    SMT from the hypotheses before it), so that the citing claim's plain hypotheses stay its own."""
    out = link_plain(cited, **terms)
    return [Hyp(h.expr, "axiom:follows") for h in out[:-1]] + out[-1:]


def definitions_as_witnesses(cited: Obligation, names, **terms) -> list[Hyp]:
    """The cited claim's plain definitions v == e of ``names`` (variables its goal leaves free), instantiated with
    ``terms``, each introduced by ``exists_eq`` with v a fresh variable of the citing claim, in dependency order:
    a link to ``cited`` then finds them, and no plain hypothesis of the citing claim mentions them (docs/axioms.md,
    "Existence")."""
    from attncert.core.axioms import axiom
    from attncert.core.expr import E, node_of, substitute, var

    env = {k: node_of(v) for k, v in terms.items()}
    defs = {h.expr[1][1]: substitute(h.expr[2], env) for h in cited.claim.hyps
            if h.by is None and h.expr[0] == "eq" and h.expr[1][0] == "var" and h.expr[1][1] in names}
    out, done = [], set()
    while len(done) < len(defs):
        ready = [v for v in names if v in defs and v not in done and not free_vars(defs[v]) & (set(defs) - done)]
        if not ready:
            raise ExprError(f"the definitions of {sorted(set(defs) - done)} in {cited.id} are circular")
        for v in ready:
            out.append(axiom("exists_eq", y=var(v), x=E(defs[v])))
            done.add(v)
    return out


def cases_hyp(pos: Obligation, neg: Obligation, **terms) -> Hyp:
    """The hypothesis a case split on ``pos`` (T >= 0) and ``neg`` (T <= 0) gives: ``pos``'s goal instantiated."""
    from attncert.core.expr import node_of

    env = {k: node_of(v) for k, v in terms.items()}
    return Hyp(_subst(pos.claim.goal, env), f"{CASES}{pos.id},{neg.id}")


def mvt_shape(cited: Obligation):
    """(f, x, L, U, sign, other hypotheses) when the cited claim is f' REL 0 for x between L and U; else
    the reason it is not."""
    g = cited.claim.goal
    if g[0] not in _MVT_REL or g[1][0] != "diff" or g[2][0] != "num" or g[2][1] != 0:
        return f"the goal of {cited.id} is not diff(f, x) compared with 0"
    f, x = g[1][1], g[1][2]
    if {v.name: v.domain for v in cited.claim.vars}.get(x) != "real" or x not in free_vars(f):
        return f"the goal of {cited.id} is not the derivative of a function of a real variable {x}"
    plain = [h.expr for h in cited.claim.hyps if h.by is None]   # sourced ones hold at every x
    lows = [h for h in plain if h[0] in ("gt", "ge") and h[1] == ("var", x) and x not in free_vars(h[2])]
    highs = [h for h in plain if h[0] in ("lt", "le") and h[1] == ("var", x) and x not in free_vars(h[2])]
    if len(lows) != 1 or len(highs) != 1:
        return f"{cited.id} must bound {x} by one plain hypothesis x > L (or >=) and one x < U (or <=), and no other"
    others = [h for h in plain if h is not lows[0] and h is not highs[0]]
    domains = {v.name: v.domain for v in cited.claim.vars}
    defs = definitions(others, x, domains, free_vars(f) | free_vars(lows[0][2]) | free_vars(highs[0][2]))
    rest = [h for h in others if h not in defs.values()]
    if any(({x} | set(defs)) & free_vars(h) for h in rest):
        return f"{cited.id} must bound {x} by one plain hypothesis x > L (or >=) and one x < U (or <=), and no other"
    return f, x, lows[0][2], highs[0][2], g[0], rest, defs


def definitions(plain: list, x: str, domains: dict, used: set) -> dict:
    """{v: hypothesis} for the plain hypotheses v = t that define a real variable v from x (the prover's reading
    of the monotonicity rule's definitions, docs/axioms.md): v not in f, L, U (``used``) nor in t, defined by
    no other plain hypothesis, t mentioning x or a variable so defined, no cycle. At each x the witness
    v = t(x) satisfies them, so they are not carried."""
    one: dict = {}
    for h in plain:
        if h[0] == "eq" and h[1][0] == "var" and h[1][1] != x and domains.get(h[1][1]) == "real" \
                and h[1][1] not in used and h[1][1] not in free_vars(h[2]):
            one.setdefault(h[1][1], []).append(h)
    one = {v: hs[0] for v, hs in one.items() if len(hs) == 1}
    reach: set = set()
    grew = True
    while grew:
        grew = False
        for v, h in one.items():
            if v not in reach and free_vars(h[2]) & (reach | {x}):
                reach.add(v)
                grew = True
    done: list = []
    while len(done) < len(reach):
        ready = [v for v in sorted(reach - set(done)) if not free_vars(one[v][2]) & (reach - set(done))]
        if not ready:
            return {}
        done += ready
    return {v: one[v] for v in done}


def mvt_gap(citing: Obligation, i: int, cited: Obligation) -> tuple[str | None, list[int], list[tuple]]:
    """(None, carried, conditions) when hypothesis ``i`` of ``citing`` is f(L) REL f(U) for an instance of
    the monotonicity rule on ``cited`` (docs/axioms.md); the conditions (L < U, or L <= U for a non-strict
    sign; f defined at L and U) must follow from the hypotheses before ``i``. Else (reason, [], [])."""
    shape = mvt_shape(cited)
    if isinstance(shape, str):
        return shape, [], []
    f, x, lo, hi, rel, rest, defs = shape
    cvars = {v.name: v.domain for v in cited.claim.vars}
    ints = {v.name for v in citing.claim.vars if v.domain == "int"}
    h = citing.claim.hyps[i].expr
    if h[0] != _MVT_REL[rel]:
        return f"hypothesis {i + 1} of {citing.id} must compare f(L), f(U) by {_MVT_REL[rel]}", [], []
    left: dict = {}
    if not bind(f, h[1], cvars, ints, left) or x not in left:
        return f"hypothesis {i + 1} of {citing.id}: its left side is not f(L) for {cited.id}", [], []
    right = {k: t for k, t in left.items() if k != x}
    if not bind(f, h[2], cvars, ints, right) or x not in right:
        return f"hypothesis {i + 1} of {citing.id}: its right side is not f(U) for {cited.id}", [], []
    others = {k: d for k, d in cvars.items() if k != x}
    for end, img in ((lo, left[x]), (hi, right[x])):   # L and U may name variables that f does not
        trial = dict(right)
        if bind(end, img, others, ints, trial):
            right = trial
    left.update({k: t for k, t in right.items() if k != x})
    own = [g.expr for g in citing.claim.hyps]
    right = fix_free(rest, own, i, others, ints, right)
    need: set = free_vars(lo) | free_vars(hi)
    for r in rest:
        free_vars(r, need)
    if x in need or not need <= set(right) - {x}:
        return f"L, U or a hypothesis of {cited.id} has a variable the rule does not fix", [], []
    if any(not free_vars(d[2]) - set(defs) - {x} <= set(right) for d in defs.values()):
        return f"a definition in {cited.id} has a variable the rule does not fix", [], []
    # every instantiated piece: f and L at L, f, U and the carried hypotheses at U (attack round 11)
    if any(_moves_derivative(n, left) for n in (f, lo)) or any(_moves_derivative(n, right) for n in [f, hi] + rest):
        return f"the instance of {cited.id} moves a derivative's variable", [], []
    if left[x] != _subst(lo, left) or right[x] != _subst(hi, right):
        return f"hypothesis {i + 1} of {citing.id} takes f at points other than L and U of {cited.id}", [], []
    carried, _ = _present(rest, right, own, i)
    if carried is None:
        return f"a hypothesis of {cited.id}, instantiated, is not a hypothesis of {citing.id}", [], []
    order = ("lt" if rel in ("gt", "lt") else "le", left[x], right[x])
    defined = ("and", ("eq", h[1], h[1]), ("eq", h[2], h[2]))
    return None, sorted(set(carried) | set(range(i))), [order, defined]


def _moves_derivative(n: tuple, sub: dict) -> bool:
    """Does the instance ``sub`` turn a derivative d/dx f(x, z) into something else: x sent to a term that is
    not a variable, or some z sent to a term that contains x's image (d/dx f(x, z) at z := y, x := y is
    not the derivative of f(y, y))?"""
    if n[0] == "diff":
        img = sub.get(n[2], ("var", n[2]))
        if img[0] != "var":
            return True
        for z in free_vars(n[1]) - {n[2]}:
            if img[1] in free_vars(sub.get(z, ("var", z))):
                return True
    return any(isinstance(c, tuple) and _moves_derivative(c, sub) for c in n[1:])


CASES = "cases:"


def _is_polynomial(n: tuple) -> bool:
    if n[0] == "pow":
        return n[2] >= 0 and _is_polynomial(n[1])
    return n[0] in ("num", "var", "add", "mul", "neg") and all(_is_polynomial(c) for c in n[1:] if isinstance(c, tuple))


def cases_gap(citing: Obligation, i: int, pos: Obligation, neg: Obligation) -> tuple[str | None, list[int]]:
    """Proof by cases on the sign of a polynomial (docs/axioms.md): ``pos`` starts with the plain hypothesis
    T >= 0, ``neg`` with T <= 0; hypothesis ``i`` of ``citing`` must be an instance of both goals whose case
    terms agree, with every other instantiated plain hypothesis of both present in ``citing`` (the sourced
    ones hold wherever the plain ones do, once both cases are established). (None, carried) or (reason, [])."""
    ints = {v.name for v in citing.claim.vars if v.domain == "int"}
    own = [g.expr for g in citing.claim.hyps]
    terms, carried = [], []
    for c, rel in ((pos, "ge"), (neg, "le")):
        cvars = {v.name: v.domain for v in c.claim.vars}
        hs = c.claim.hyps
        if not hs or hs[0].by is not None or hs[0].expr[0] != rel or hs[0].expr[2] != ("num", 0):
            return f"the first hypothesis of {c.id} must be the plain case T {'>=' if rel == 'ge' else '<='} 0", []
        if not _is_polynomial(hs[0].expr[1]):
            return f"the case term of {c.id} must be a polynomial", []
        case = hs[0].expr
        plain = [h.expr for h in hs[1:] if h.by is None]   # sourced ones hold wherever these do
        sub: dict = {}
        if not bind(c.claim.goal, own[i], cvars, ints, sub):
            return f"hypothesis {i + 1} of {citing.id} is not an instance of the goal of {c.id}", []
        sub = fix_free(plain, own, i, cvars, ints, sub)
        need: set = set()
        for e in plain + [case]:
            free_vars(e, need)
        if not need <= set(sub):
            return f"a hypothesis of {c.id} has a variable the case split does not fix", []
        if any(_moves_derivative(n, sub) for n in [c.claim.goal, case] + plain):
            return f"the instance of {c.id} moves a derivative's variable", []
        got, _ = _present(plain, sub, own, i)
        if got is None:
            return f"a hypothesis of {c.id}, instantiated, is not a hypothesis of {citing.id}", []
        carried += got
        terms.append(_subst(case[1], sub))
    if terms[0] != terms[1]:
        return f"the cases {pos.id} and {neg.id} split on different terms", []
    return None, sorted(set(carried))


def mvt_conditions_hold(citing: Obligation, i: int, conds: list[tuple], timeout: float = 60.0) -> str | None:
    """Each condition of the rule as an SMT goal from the hypotheses before ``i`` (None: all PROVED)."""
    from attncert.core.engine import unshown

    gap = unshown(citing, i, conds, timeout, "applies the mean value theorem, but")
    return f"{citing.id}: {gap}" if gap else None


@dataclass
class Closure:
    """The prover's walk over the step graph: for each obligation, the reasons it is not established
    (empty: established) and the axioms it rests on. ``verdicts`` maps id -> verdict name. Like the
    checker, it works hypothesis by hypothesis: a sourced hypothesis is established when its source is
    (a PROVED obligation that is itself established, or an axiom instance) and so is every hypothesis it
    carries (the cited claim's hypotheses; an axiom's conditions, and every earlier hypothesis when a
    condition was derived from them); anything circular is not established."""

    obligations: dict
    verdicts: dict
    _state: dict = field(default_factory=dict)
    _axioms: dict = field(default_factory=dict)

    def why(self, oid: str) -> list[str]:
        key = ("ob", oid)
        if self._state.get(key) == "visiting":
            return [f"{oid} rests, through its sources, on itself (circular)"]
        if key in self._state:
            return self._state[key]
        ob = self.obligations.get(oid)
        if ob is None:
            return [f"{oid} is not an obligation"]
        self._state[key] = "visiting"
        self._axioms[oid] = set()
        out: list[str] = []
        for i, h in enumerate(ob.claim.hyps):
            if h.by is not None:
                out.extend(self._hyp(ob, i))
        self._state[key] = list(dict.fromkeys(out))
        return self._state[key]

    def _hyp(self, ob: Obligation, i: int) -> list[str]:
        from attncert.core.errors import AttncertError

        key = ("hyp", ob.id, i)
        if self._state.get(key) == "visiting":
            return [f"{ob.id}: hypothesis {i + 1} rests on itself through the hypotheses it carries (circular)"]
        if key in self._state:
            return self._state[key]
        self._state[key] = "visiting"
        src = ob.claim.hyps[i].by
        out: list[str] = []
        carried: list[int] = []
        if src.startswith("axiom:"):
            try:
                carried, derived = conditions(ob.claim, i)
            except AttncertError as e:
                out.append(f"{ob.id}: {e}")
            else:
                self._axioms[ob.id].add(src[6:])
                if derived:
                    carried = sorted(set(carried) | set(range(i)))
        elif src.startswith("fact:"):
            out.append(f"{ob.id}: hypothesis {i + 1} rests on an unchecked premise ({src[5:85]!r})")
        elif src.startswith(CASES):
            ids = src[len(CASES):].split(",")
            bad = [k for k in ids if k not in self.obligations or self.verdicts.get(k) != "PROVED"]
            if len(ids) != 2 or ids[0] == ids[1] or bad:
                out.append(f"{ob.id}: hypothesis {i + 1}: a case split needs two different PROVED obligations"
                           + (f" ({', '.join(bad)} is not)" if bad else ""))
            else:
                try:
                    reason, carried = cases_gap(ob, i, self.obligations[ids[0]], self.obligations[ids[1]])
                except AttncertError as e:
                    reason, carried = f"{ob.id}: hypothesis {i + 1}: {e}", []
                if reason:
                    out.append(reason)
                for k in ids if not reason else ():
                    sub = self.why(k)
                    if sub:
                        out.append(f"{ob.id}: hypothesis {i + 1} rests on {k}, which is not established ({sub[0]})")
                    self._axioms[ob.id] |= self._axioms.get(k, set())
        elif src.startswith(MVT) and self.verdicts.get(src[len(MVT):]) == "PROVED" \
                and src[len(MVT):] in self.obligations:
            cited = src[len(MVT):]
            try:
                reason, carried, conds = mvt_gap(ob, i, self.obligations[cited])
            except AttncertError as e:
                reason, carried, conds = f"{ob.id}: hypothesis {i + 1}: {e}", [], []
            if reason is None:
                reason = mvt_conditions_hold(ob, i, conds)
            if reason:
                out.append(reason)
                carried = []
            else:
                sub = self.why(cited)
                if sub:
                    out.append(f"{ob.id}: hypothesis {i + 1} rests on {cited}, which is not established ({sub[0]})")
                self._axioms[ob.id] |= self._axioms.get(cited, set())
        elif src.startswith(MVT):
            cited = src[len(MVT):]
            out.append(f"{ob.id}: hypothesis {i + 1} rests on {cited}, which is "
                       f"{self.verdicts.get(cited, 'not an obligation') if cited in self.obligations else 'not an obligation'}")
        else:   # a link, or a link at every index ('each:VAR:ID')
            var, cited = each_parts(src)
            if cited not in self.obligations:
                out.append(f"{ob.id}: hypothesis {i + 1} rests on {cited[:80]!r}, which is not an obligation")
            elif self.verdicts.get(cited) != "PROVED":
                out.append(f"{ob.id}: hypothesis {i + 1} rests on {cited}, which is {self.verdicts.get(cited, 'not run')}")
            else:
                try:
                    reason, carried = (link_gap(ob, i, self.obligations[cited]) if var is None
                                       else each_gap(ob, i, self.obligations[cited], var))
                except AttncertError as e:
                    reason, carried = f"{ob.id}: hypothesis {i + 1}: {e}", []
                if reason:
                    out.append(reason)
                else:
                    sub = self.why(cited)
                    if sub:
                        out.append(f"{ob.id}: hypothesis {i + 1} rests on {cited}, which is not established ({sub[0]})")
                    self._axioms[ob.id] |= self._axioms.get(cited, set())
        for j in carried:
            if ob.claim.hyps[j].by is not None:
                out.extend(self._hyp(ob, j))
        self._state[key] = out
        return out

    def axioms(self, oid: str) -> set:
        self.why(oid)
        return self._axioms.get(oid, set())


def plain_hyps(ob: Obligation) -> list[str]:
    return [show(h.expr) for h in ob.claim.hyps if h.by is None]


def _derivatives(nodes: list) -> list:
    """Every derivative (body, variable) in the nodes."""
    out, stack = [], list(nodes)
    while stack:
        n = stack.pop()
        if n[0] == "diff":
            out.append((n[1], n[2]))
        stack.extend(c for c in n[1:] if isinstance(c, tuple))
    return out


def definition_gaps(ob: Obligation, named: set) -> list[str]:
    """Why the root's plain hypotheses whose shown text is in ``named`` are not definitions (docs/theorems.md,
    "Definitions"): each must read v == e, with v a real variable of the claim without a box, not in e, not a
    derivative's variable, defined once; and no chain of definitions may come back to its start. Then every
    value of the other variables has exactly one value of the defined ones meeting them all (in the order of
    the chains), so the root states its goal with each v read as its e: an abbreviation, not an assumption."""
    doms = {v.name: v for v in ob.claim.vars}
    derivs = _derivatives([h.expr for h in ob.claim.hyps] + [ob.claim.goal])
    diffs = {x for _, x in derivs}
    out: list[str] = []
    defs: dict = {}
    for h in ob.claim.hyps:
        if h.by is not None or show(h.expr) not in named:
            continue
        e, shown = h.expr, show(h.expr)
        if e[0] != "eq" or e[1][0] != "var":
            out.append(f"{ob.id}: the premise {shown} is named a definition, but does not read v == e")
            continue
        v = e[1][1]
        var = doms.get(v)
        why = ("is not a real variable" if var is None or var.domain != "real" else
               "has a box (lo/hi)" if var.lo is not None or var.hi is not None else
               "occurs in its own definition" if v in free_vars(e[2]) else
               "is a derivative's variable" if v in diffs else
               "is defined twice" if v in defs else None)
        if why:
            out.append(f"{ob.id}: the premise {shown} is named a definition, but {v} {why}")
            continue
        defs[v] = free_vars(e[2])
    state: dict = {}

    def cyclic(v) -> bool:
        if state.get(v) == 1:
            return True
        if v in state:
            return False
        state[v] = 1
        bad = any(cyclic(u) for u in sorted(defs[v] & set(defs)))
        state[v] = 2
        return bad
    for v in sorted(defs):
        if cyclic(v):
            out.append(f"{ob.id}: the definitions of {v} and the variables it is defined from form a cycle")
            return out
    # d/dx f holds every other variable of f constant: a defined v in f that depends on x, directly or through
    # other definitions, is not its e there (attack round 31)
    def depends(v, seen=None) -> set:
        seen = set() if seen is None else seen
        for u in defs[v]:
            if u not in seen:
                seen.add(u)
                if u in defs:
                    depends(u, seen)
        return seen
    for body, x in derivs:
        for v in sorted(free_vars(body) & set(defs)):
            if x in depends(v):
                out.append(f"{ob.id}: the premise defining {v} is named a definition, but {v} depends on {x} "
                           f"and occurs in a derivative in {x}, which holds it constant")
    return out


def theorem_verdict(th: Theorem, clo: Closure) -> tuple[str, list[str], list[str]]:
    """(verdict, blocking reasons, axioms) of a theorem from the step graph."""
    if th.printed is not None:
        v = clo.verdicts.get(th.printed)
        if v == "REFUTED":
            return "REFUTED AS PRINTED", [], []
        return "OPEN", [f"the printed statement {th.printed} is {v or 'not run'}, not REFUTED"], []
    if not th.roots:
        return "OPEN", [th.blocking or "no step states it"], []
    blocking: list[str] = []
    axioms: set = set()
    verdicts = [clo.verdicts.get(r) for r in th.roots]
    # one CONFIRMED root: numerical evidence, under the same checks as a PROVED root
    confirmed = len(th.roots) == 1 and verdicts[0] == "CONFIRMED"
    names = dict(th.hypotheses)
    defs = dict(th.definitions)
    for r, v in zip(th.roots, verdicts):
        if v != "PROVED" and not confirmed:
            blocking.append(f"{r} is {v or 'not run'}")
            continue
        blocking.extend(clo.why(r))
        axioms |= clo.axioms(r)
        blocking.extend(f"{r}: the premise {p} is not named as a hypothesis of the theorem"
                        for p in plain_hyps(clo.obligations[r]) if p not in names and p not in defs)
        blocking.extend(definition_gaps(clo.obligations[r], set(defs)))
    if th.blocking:
        blocking.append(th.blocking)
    if blocking:
        return "OPEN", list(dict.fromkeys(blocking)), sorted(axioms)
    if confirmed:
        return "CONFIRMED", ["numerical evidence only"], []
    return ("PROVED FOR INSTANCES" if th.instances else "PROVED"), [], sorted(axioms)


# ------------------------------------------------------------------------------- registry and certificates


def all_theorems() -> list[Theorem]:
    """The theorem records of the transcribed papers (``attncert_proofs.theorems.THEOREMS``)."""
    import importlib

    try:
        mod = importlib.import_module("attncert_proofs.theorems")
    except ModuleNotFoundError:
        return []
    ths = list(mod.THEOREMS)
    ids = [t.id for t in ths]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise ValueError(f"duplicate theorem ids: {sorted(dup)}")
    return ths


def build_theorem_cert(th: Theorem, clo: Closure) -> dict:
    from attncert.core.expr import sha256, to_json

    verdict, blocking, axioms = theorem_verdict(th, clo)
    names, defs = dict(th.hypotheses), dict(th.definitions)
    hyps, dfs = [], []
    for r in th.roots:
        ob = clo.obligations.get(r)
        for h in (ob.claim.hyps if ob is not None else ()):
            if h.by is None and show(h.expr) in names:
                hyps.append({"root": r, "expr": to_json(h.expr), "name": names[show(h.expr)]})
            elif h.by is None and show(h.expr) in defs:
                dfs.append({"root": r, "expr": to_json(h.expr), "name": defs[show(h.expr)]})
    def claim_sha(oid):  # the claim a root (or the printed statement) must prove, as its certificate hashes it
        ob = clo.obligations.get(oid)
        if ob is None:   # not in this run: the transcription still says which claim the root is
            from attncert.core.families import all_families
            ob = next((o for f in all_families() for o in f.obligations if o.id == oid), None)
        if ob is None:
            raise ValueError(f"{th.id}: {oid} is not an obligation")
        return sha256(ob.claim.to_json())

    body = {
        "schema": THEOREM_SCHEMA, "id": th.id, "paper": th.paper, "label": th.label, "ref": th.ref,
        "statement": th.statement, "verdict": verdict, "roots": list(th.roots),
        "root_claims": {r: claim_sha(r) for r in th.roots}, "instances": th.instances,
        "hypotheses": hyps, "printed": th.printed,
        "printed_claim": claim_sha(th.printed) if th.printed is not None else None,
        "repaired": th.repaired, "blocking": blocking,
        "declared": th.blocking if (th.roots and th.printed is None) else None,
        "axioms": axioms if verdict.startswith("PROVED") else [], "note": th.note,
    }
    if th.cases is not None:   # an optional field: a record without it reads as before
        body["cases"] = th.cases
    if dfs:   # optional too (docs/theorems.md, "Definitions")
        body["definitions"] = dfs
    body["cert_sha256"] = sha256(body)
    return body


def manifest(theorem_certs: list[dict]) -> dict:
    """The released theorem list (src/attncert/checker/theorems.json) for these theorem certificates: the
    SHA-256 of each one's record, everything but what `verify` computes (verdict, axioms, blocking steps)."""
    from attncert.core.expr import sha256

    return {"schema": MANIFEST_SCHEMA,
            "theorems": {c["id"]: sha256({k: v for k, v in c.items()
                                          if k not in ("verdict", "axioms", "blocking", "cert_sha256")})
                         for c in sorted(theorem_certs, key=lambda c: c["id"])}}


def theorem_rows(results) -> list[dict]:
    """One row per theorem from a run's results (the prover's view; `verify` recomputes it)."""
    obs = {r.obligation.id: r.obligation for r in results}
    verdicts = {r.obligation.id: r.evidence.verdict.name for r in results}
    clo = Closure(obs, verdicts)
    rows = []
    for th in all_theorems():
        verdict, blocking, axioms = theorem_verdict(th, clo)
        rows.append({"id": th.id, "paper": th.paper, "label": th.label, "ref": th.ref, "statement": th.statement,
                     "verdict": verdict, "instances": th.instances, "roots": list(th.roots),
                     "printed": th.printed, "repaired": th.repaired, "blocking": blocking,
                     "axioms": axioms if verdict.startswith("PROVED") else [],
                     "hypotheses": [{"expr": k, "name": v} for k, v in th.hypotheses],
                     "definitions": [{"expr": k, "name": v} for k, v in th.definitions], "note": th.note})
    return rows


def _defined_name(expr) -> str:
    """The variable a definition names: from its shown text (a row) or its tree (a theorem certificate)."""
    return expr[1][1] if isinstance(expr, list) else expr.split(" == ")[0]


def axioms_text(names) -> str:
    """The axioms a theorem rests on, each cited result of the literature marked (docs/axioms.md, "Cited results")."""
    from attncert.core.axioms import cited

    marked = set(cited(names))
    return ", ".join(f"{n} (cited, not proved here)" if n in marked else n for n in names)


def theorems_markdown(rows: list[dict]) -> str:
    """The table of docs/theorems.md: counts, one row per result, and each result that is not PROVED with
    what blocks it (every blocking step)."""
    counts: dict = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
    order = ("PROVED", "PROVED FOR INSTANCES", "CONFIRMED", "REFUTED AS PRINTED", "OPEN")
    from attncert.core.axioms import cited

    on_cited = [r["label"] for r in rows if r["verdict"].startswith("PROVED") and cited(r["axioms"])]
    out = [f"{len(rows)} numbered results (with repaired versions as separate rows): "
           + ", ".join(f"**{counts[v]} {v}**" for v in order if v in counts) + "."
           + (f" Of the proved ones, {len(on_cited)} rest{'s' if len(on_cited) == 1 else ''} on a result of the "
              f"literature that the paper cites without proof ({', '.join(on_cited)}; docs/axioms.md, \"Cited "
              "results\")." if on_cited else ""), "",
           "| paper | result | verdict | range | axioms | roots |", "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        roots = ", ".join(f"`{x}`" for x in (r["roots"] or ([r["printed"]] if r["printed"] else [])))
        out.append(f"| {r['paper']} | {r['label']} (`{r['id']}`) | {r['verdict']} | {r['instances'] or ''} | "
                   f"{axioms_text(r['axioms'])} | {roots} |")
    defined = [r for r in rows if r.get("definitions")]
    if defined:
        out += ["", "## Definitions the roots use", "",
                "Plain hypotheses of a root that define a variable, v == e; `verify` checks that each is a definition "
                "(v a real variable without a box, not in e, not a derivative's variable, defined once, no cycle), "
                "so it abbreviates e and assumes nothing.", ""]
        out.extend(f"- **{r['label']}** (`{r['id']}`): " + ", ".join(sorted({_defined_name(d['expr'])
                                                                            for d in r['definitions']}))
                   for r in defined)
    out += ["", "## What blocks each result that is not PROVED", ""]
    for r in rows:
        if r["verdict"] == "PROVED":
            continue
        head = f"- **{r['label']}** (`{r['id']}`, {r['paper']}): {r['verdict']}"
        if r["repaired"]:
            head += f"; repaired version `{r['repaired']}`"
        out.append(head)
        out.extend(f"  - {b}" for b in r["blocking"])
    return "\n".join(out) + "\n"

"""Discharge obligations: try each method in order, keep the first decisive verdict.

PROVED or REFUTED ends the search. CONFIRMED is kept while later methods may still decide. Anything
that goes wrong inside a backend (missing solver, unsupported operator, numerical trouble) becomes
UNKNOWN with the reason; it never becomes PROVED or CONFIRMED."""

from __future__ import annotations

import time
from dataclasses import replace

from attncert.core.registry import backend
from attncert.core.claims import DEFINING_METHODS, Evidence, Obligation, Result, check_claim
from attncert.core.expr import FAMILY, contains
from attncert.core.errors import AttncertError
from attncert.core.verdict import Verdict


# Verdicts come from deterministic solver resource limits (z3 rlimit, cvc5 rlimit-per), never from the
# clock. The timeout is a per-solver-call safety kill, large enough never to fire on a healthy machine;
# when it does fire, the answer is UNKNOWN.
WALL_TIMEOUT_S = 300.0
VECTOR_METHODS = ("smt",)  # the only method that decides a claim over vector variables


def condition_evidence(ob: Obligation, i: int, cond: tuple, timeout: float) -> Evidence:
    """The smt backend's evidence for ``cond`` from the hypotheses before hypothesis ``i`` (a condition of
    an axiom instance or of the mean value theorem's rule); UNKNOWN when the backend fails."""
    from attncert.core.claims import Claim

    sub = replace(ob, id=f"{ob.id}.condition", claim=Claim(ob.claim.vars, ob.claim.hyps[:i], cond),
                  methods=("smt",), hint=None, expect=None, finding=None, repairs=None)
    try:
        return backend("smt")(sub, timeout)
    except AttncertError as e:
        return Evidence(Verdict.UNKNOWN, "smt", {"kind": "none", "reason": str(e)})


def axiom_gap(ob: Obligation, timeout: float) -> str | None:
    """Why an axiom the claim cites is not usable (None: every cited axiom is an instance, and each of its
    conditions is another hypothesis or follows, by SMT, from the hypotheses before the citing one)."""
    from attncert.core.axioms import _get, conditions, witness_gap

    deps: dict[int, set] = {}
    for i, h in enumerate(ob.claim.hyps):
        if not (h.by or "").startswith("axiom:"):
            continue
        try:
            carried, conds = conditions(ob.claim, i)
        except AttncertError as e:
            return str(e)
        gap = unshown(ob, i, conds, timeout, f"cites {h.by}, but its condition")
        if gap:
            return gap
        deps[i] = set(carried) | (set(range(i)) if conds else set())
    deps.update(_source_deps(ob))
    cycle = _circular(deps)
    if cycle is not None:
        return (f"hypothesis {cycle + 1} rests, through the conditions of axiom instances and the hypotheses that "
                "links carry, on itself (circular)")
    gap = witness_gap(ob.claim)
    if gap:
        return gap
    for i, h in enumerate(ob.claim.hyps):   # an existence citation rests only on hypotheses before it
        if (h.by or "").startswith("axiom:") and _get(h.by[len("axiom:"):]).exists:
            seen, todo = set(), list(deps.get(i, ()))
            while todo:
                j = todo.pop()
                if j not in seen:
                    seen.add(j)
                    todo.extend(deps.get(j, ()))
            late = sorted(j for j in seen if j >= i)
            if late:
                return (f"hypothesis {i + 1} cites an existence axiom but rests, through the conditions and links it "
                        f"carries, on hypothesis {late[0] + 1}, which is not before it")
    return None


def _source_deps(ob: Obligation) -> dict[int, set]:
    """{index: the hypotheses it carries} for the hypotheses that cite a transcribed obligation (a link, the
    monotonicity rule, a case split), so that a cycle through them and an axiom's conditions is seen here
    too (attack round 20). A source that is not a transcribed obligation, or not a valid instance of it,
    is a leaf: the theorem closure and the checker say it is not established."""
    from attncert.core.theorems import CASES, EACH, MVT, cases_gap, each_gap, each_parts, link_gap, mvt_gap

    table = _obligations()
    out: dict[int, set] = {}
    for i, h in enumerate(ob.claim.hyps):
        src = h.by or ""
        try:
            if src.startswith(MVT) and src[len(MVT):] in table:
                reason, carried, conds = mvt_gap(ob, i, table[src[len(MVT):]])
                carried = list(carried) + (list(range(i)) if conds else [])
            elif src.startswith(CASES):
                ids = src[len(CASES):].split(",")
                if len(ids) != 2 or not all(k in table for k in ids):
                    continue
                reason, carried = cases_gap(ob, i, table[ids[0]], table[ids[1]])
            elif src.startswith(EACH):
                var, cited = each_parts(src)
                if cited not in table:
                    continue
                reason, carried = each_gap(ob, i, table[cited], var)
            elif src in table:
                reason, carried = link_gap(ob, i, table[src])
            else:
                continue
        except AttncertError:
            continue
        if reason is None:
            out[i] = set(carried)
    return out


_TABLE: dict = {}
_EXTRA: dict = {}


def remember(obs) -> None:
    """Make obligations that are not transcribed ones (a user's claims) known as link targets to
    ``axiom_gap``'s cycle check; the runner calls it with every obligation it is given."""
    _EXTRA.update({o.id: o for o in obs})


def _obligations() -> dict:
    """Every transcribed obligation by id (read once), and those ``remember`` was given."""
    if not _TABLE:
        from attncert.core.families import all_families

        _TABLE.update({o.id: o for f in all_families() for o in f.obligations})
    return {**_TABLE, **_EXTRA}


def _circular(deps: dict[int, set]) -> int | None:
    """A hypothesis on a cycle of ``deps`` (index -> the hypotheses it rests on: an axiom instance's carried
    conditions, and every earlier one when a condition was shown by SMT; what a link, the monotonicity rule
    or a case split carries), or None. Plain hypotheses are leaves."""
    state: dict[int, int] = {}   # 1: on the current path, 2: done

    def visit(i: int) -> int | None:
        state[i] = 1
        for j in sorted(deps.get(i, ())):
            if j not in deps:
                continue
            if state.get(j) == 1:
                return j
            if state.get(j) is None:
                found = visit(j)
                if found is not None:
                    return found
        state[i] = 2
        return None

    for i in sorted(deps):
        if state.get(i) is None:
            found = visit(i)
            if found is not None:
                return found
    return None


def unshown(ob: Obligation, i: int, conds: list, timeout: float, what: str) -> str | None:
    """The first condition that the hypotheses before ``i`` do not give by SMT, as a reason (None: all do)."""
    from attncert.core.expr import show

    for cond in conds:
        ev = condition_evidence(ob, i, cond, timeout)
        if ev.verdict != Verdict.PROVED:
            return (f"hypothesis {i + 1} {what} {show(cond)} is not shown from the hypotheses before it "
                    f"({ev.detail.get('reason', ev.verdict.name)})")
    return None


def run_obligation(ob: Obligation, timeout: float = WALL_TIMEOUT_S) -> Result:
    """The first decisive verdict of the obligation's methods. A PROVED verdict also needs every axiom
    the claim cites to be usable (``axiom_gap``); a refutation or a confirmation does not (a replayed
    counterexample refutes the claim whatever its hypotheses rest on). A malformed claim (one that
    ``claims.check_claim`` refuses, however it was built) is UNKNOWN before any method runs."""
    try:
        check_claim(ob.claim)
    except Exception as e:  # noqa: BLE001 - whatever a malformed claim breaks, it gets no verdict
        why = str(e) if isinstance(e, AttncertError) else f"{e.__class__.__name__}: {str(e)[:120]}"
        return Result(ob, Evidence(Verdict.UNKNOWN, "none", {"kind": "none", "reason": f"malformed claim: {why}"}),
                      0.0, ())
    r = _run(ob, timeout)
    if r.evidence.verdict == Verdict.PROVED:
        t0 = time.perf_counter()
        gap = axiom_gap(ob, timeout)
        if gap is not None:
            ev = Evidence(Verdict.UNKNOWN, r.evidence.method, {"kind": "none", "reason": gap})
            return Result(ob, ev, r.seconds + time.perf_counter() - t0, r.tried)
    return r


def _run(ob: Obligation, timeout: float) -> Result:
    t0 = time.perf_counter()
    tried: list[str] = []
    confirmed: Evidence | None = None
    reasons: list[str] = []
    defined = [v.name for v in ob.claim.vars if v.domain == "defined"]
    # vectors, sequences, finite sets and big operators are opaque (docs/axioms.md, "Vectors", "Indexed
    # families", "Finite sets"): no point, sample or interval gives them values, so only VECTOR_METHODS
    # decide such a claim
    vectors = [v.name for v in ob.claim.vars if v.domain == "vec"]
    families = [v.name for v in ob.claim.vars if v.domain == "vecs"]
    trees = [h.expr for h in ob.claim.hyps] + [ob.claim.goal]
    opaque = (f"{', '.join(vectors[:3])} {'is a vector' if len(vectors) == 1 else 'are vectors'}" if vectors else
              f"{', '.join(families[:3])} {'is a family' if len(families) == 1 else 'are families'} of vectors"
              if families else
              "the claim has sequences, finite sets or big operators (sum, bmax, bmin, forall, bunion)"
              if any(contains(n, FAMILY) for n in trees) else
              "the claim has dim or pi (opaque reals)" if any(contains(n, {"dim", "pi"}) for n in trees) else None)
    for method in ob.methods:
        tried.append(method)
        if opaque and method not in VECTOR_METHODS:
            reasons.append(f"{method}: {opaque}, decided by {'/'.join(VECTOR_METHODS)} only")
            continue
        if defined and method not in DEFINING_METHODS:
            reasons.append(f"{method}: {', '.join(defined)} names a quantity that only {'/'.join(DEFINING_METHODS)} "
                           "establishes; the claim is not a statement for all values")
            continue
        try:
            ev = backend(method)(ob, timeout)
        except AttncertError as e:
            ev = Evidence(Verdict.UNKNOWN, method, {"kind": "none", "reason": f"{method}: {e}"})
        except Exception as e:  # an internal failure is reported, never turned into a verdict
            ev = Evidence(Verdict.UNKNOWN, method, {"kind": "none", "reason": f"{method}: internal error "
                                                    f"{e.__class__.__name__}: {str(e)[:200]}"})
        if ev.verdict in (Verdict.PROVED, Verdict.REFUTED):
            return Result(ob, ev, time.perf_counter() - t0, tuple(tried))
        if ev.verdict == Verdict.CONFIRMED:
            confirmed = confirmed or ev
        else:
            reasons.append(ev.detail.get("reason", ev.reason) or method)
    if confirmed is not None:
        return Result(ob, confirmed, time.perf_counter() - t0, tuple(tried))
    ev = Evidence(Verdict.UNKNOWN, tried[-1] if tried else "none",
                  {"kind": "none", "reason": "; ".join(reasons) or "no method given"})
    return Result(ob, ev, time.perf_counter() - t0, tuple(tried))

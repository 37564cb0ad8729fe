"""Claims, obligations, findings and evidence: frozen records that the rest of attncert passes around."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from attncert.core.errors import ExprError
from attncert.core.expr import LEAF_DOMAIN, E, check_arity, check_binders, contains, free_vars, node_of, sha256, sort_of, to_json
from attncert.core.verdict import Verdict

PAPERS = ("infoflow", "ks")
# A variable name is a plain identifier, optionally with one bracketed parameter list (the defined
# quantities of tree claims, nmin[dretrieval,T=8,D=3]). Names reach solver input only through
# generated symbols, but a name outside this grammar is refused here already (docs/soundness.md).
NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}(\[[A-Za-z0-9_,=]{1,60}\])?\Z")


def check_var_name(name) -> str:
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise ExprError(f"variable name {str(name)[:40]!r}: must be an identifier [A-Za-z_][A-Za-z0-9_]* of at most "
                        "64 characters, optionally followed by [params]")
    return name
DOMAINS = ("real", "int", "defined", "vec", "vecs", "seq", "set", "sets")
# "vec": a vector variable, written ("vvar", name); it only appears under vadd, vscale, norm, lpnorm and dot
# "vecs": a family of vectors, written ("vseq", name); only as the first argument of vat and park
# (docs/notes/vector_families.md)
# "seq": a real sequence, written ("seq", name); it only appears as the first argument of at
# "set": a finite set, written ("fset", name); "sets": a sequence of finite sets, written ("fsets", name), only
# as the first argument of sat (docs/axioms.md, "Finite sets")
# "defined": an integer variable that NAMES one quantity a method establishes (the minimum of a tree
# abstraction, a count of grid failures). Such a claim states its goal at that value, not for all values,
# so only the methods that establish the quantity decide it; every other method answers UNKNOWN.
DEFINING_METHODS = ("treemin", "treegrid")


@dataclass(slots=True, frozen=True)
class Var:
    """A quantified variable. ``lo``/``hi`` bound the box used to *search* for counterexamples and to
    sample; they are not hypotheses (write those in ``hyps``)."""

    name: str
    domain: str = "real"
    lo: Fraction | None = None
    hi: Fraction | None = None

    def __post_init__(self):
        check_var_name(self.name)
        if self.domain not in DOMAINS:
            raise ExprError(f"domain {self.domain!r} of {self.name}: must be one of {', '.join(DOMAINS)}")

    def to_json(self) -> dict:
        out: dict[str, Any] = {"name": self.name, "domain": self.domain}
        if self.lo is not None:
            out["lo"] = str(Fraction(self.lo))
        if self.hi is not None:
            out["hi"] = str(Fraction(self.hi))
        return out


@dataclass(slots=True, frozen=True)
class Hyp:
    """A hypothesis in force. ``by`` names where it comes from when it is not part of the statement:
    another obligation's id, or ``fact:...`` for a standard analytic fact (recorded as trusted)."""

    expr: tuple
    by: str | None = None

    def to_json(self) -> dict:
        out: dict[str, Any] = {"expr": to_json(self.expr)}
        if self.by is not None:
            out["by"] = self.by
        return out


@dataclass(slots=True, frozen=True)
class Claim:
    """For all values of ``vars`` satisfying every hypothesis, ``goal`` holds."""

    vars: tuple[Var, ...]
    hyps: tuple[Hyp, ...]
    goal: tuple

    def to_json(self) -> dict:
        return {
            "vars": [v.to_json() for v in self.vars],
            "hyps": [h.to_json() for h in self.hyps],
            "goal": to_json(self.goal),
        }

    @property
    def sha256(self) -> str:
        return sha256(self.to_json())

    def var(self, name: str) -> Var:
        for v in self.vars:
            if v.name == name:
                return v
        raise KeyError(name)


def claim(vars_: list, hyps: list, goal) -> Claim:
    """Build a claim from ``Var``s (or bare names), hypotheses (expressions or ``Hyp``s) and a goal."""
    vs = tuple(v if isinstance(v, Var) else Var(v) for v in vars_)
    hs = tuple(h if isinstance(h, Hyp) else Hyp(node_of(h)) for h in hyps)
    c = Claim(vs, hs, node_of(goal))
    check_claim(c)
    return c


def check_claim(c: Claim) -> None:
    """Everything ``claim`` checks, for a Claim however it was built (the engine re-runs it on every claim
    before any method, so a Claim made directly gets no more credit than one made by ``claim``): declared,
    distinct variables, sorts, vector and sequence names, the placement of big operators' indices,
    derivatives in real variables, non-empty boxes. Raises ExprError."""
    vs = c.vars
    names = {v.name for v in vs}
    if len(names) != len(vs):
        raise ExprError("a variable is declared twice")
    if any(v.domain not in DOMAINS for v in vs):
        raise ExprError(f"a variable has an unknown domain (one of {', '.join(DOMAINS)})")
    if any(h.by is not None and (not isinstance(h.by, str) or not h.by) for h in c.hyps):
        # as the checker: an empty source would read as plain in one place and as sourced in another (attack round 32)
        raise ExprError("a hypothesis's source ('by') must be a non-empty string, or absent")
    for n in [h.expr for h in c.hyps] + [c.goal]:
        check_arity(n)   # first: every later check reads children by position
    used = free_vars(c.goal)
    for h in c.hyps:
        free_vars(h.expr, used)
    missing = used - names
    if missing:
        raise ExprError(f"claim uses undeclared variables {sorted(missing)}")
    doms = {v.name: v.domain for v in vs}
    for n in [h.expr for h in c.hyps] + [c.goal]:
        _sorts(n, True)
        _leaf_names(n, doms)
        check_binders(n)
    real = {v.name for v in vs if v.domain == "real"}
    for n in [h.expr for h in c.hyps] + [c.goal]:
        _diff_vars_real(n, real)
    trees = [h.expr for h in c.hyps] + [c.goal]
    if any(contains(n, {"dim", "park"}) for n in trees) and any(contains(n, {"lpnorm"}) for n in trees):
        # with dim or park the vectors are points of R^dim, with lpnorm functions in L^p(nu): not both
        raise ExprError("a claim that mentions dim or park may not mention lpnorm (its vectors are points of R^dim)")
    for v in vs:
        if v.lo is not None and v.hi is not None and Fraction(v.lo) > Fraction(v.hi):
            raise ExprError(f"empty box for {v.name}: lo > hi")


def _diff_vars_real(n: tuple, real: set) -> None:
    """A derivative is taken in a declared real variable (a function of an integer has no derivative)."""
    if n[0] == "diff" and n[2] not in real:
        raise ExprError(f"derivative in {n[2]!r}, which is not a declared real variable")
    for c in n[1:]:
        if isinstance(c, tuple):
            _diff_vars_real(c, real)


def _sorts(n: tuple, formula: bool) -> None:
    """Hypotheses and goals are formulas; relations and arithmetic take real terms, connectives formulas,
    and the vector operators vectors (expr.sort_of)."""
    got = sort_of(n)
    if (got == "formula") != formula:
        raise ExprError(f"{'a formula' if formula else 'a term'} was expected, found {n[0]!r}")


_LEAF_DOMAIN = LEAF_DOMAIN   # the named leaves that are not reals; a var is any other domain
_WHAT = {"vec": "a vector", "vecs": "a family of vectors", "seq": "a sequence", "set": "a finite set", "sets": "a sequence of finite sets"}


def _leaf_names(n: tuple, doms: dict) -> None:
    """Vector variables (vvar) are exactly the names declared 'vec', sequences (seq) exactly those declared
    'seq'; such a name is never a real (var)."""
    if n[0] in ("var",) + tuple(_LEAF_DOMAIN):
        want = _LEAF_DOMAIN.get(n[0])
        got = doms.get(n[1])
        if want is not None and got != want:
            raise ExprError(f"{n[1]!r} is used as {_WHAT[want]} but not declared with domain {want!r}")
        if want is None and got in _WHAT:
            raise ExprError(f"{n[1]!r} is declared {_WHAT[got]} but used as a real")
    for c in n[1:]:
        if isinstance(c, tuple):
            _leaf_names(c, doms)


def fact(expr, by: str) -> Hyp:
    return Hyp(node_of(expr), by)


def merge_hyps(*groups) -> list[Hyp]:
    """Concatenate hypotheses (single ones or lists; an expression is a plain hypothesis), keeping the first
    of literally equal ones (so a hypothesis carried by two links appears once)."""
    out, seen = [], set()
    for g in groups:
        for h in (g if isinstance(g, list) else [g]):
            h = h if isinstance(h, Hyp) else Hyp(node_of(h))
            if h.expr not in seen:
                seen.add(h.expr)
                out.append(h)
    return out


FINDING_KINDS = {
    "false-step": "a displayed step that is false as printed",
    "statement-mismatch": "two statements of the same result disagree (exponent, direction, constant)",
    "typo": "a misprint whose intended meaning is clear from context",
    "constraint-violation": "a construction that breaks the theorem's own constraints",
    "implicit-convention": "a step that is only meaningful under an unstated convention or limit",
    "implicit-threshold": "a 'for N large enough' / 'eps small enough' whose threshold the stated range does not imply",
}


@dataclass(slots=True, frozen=True)
class Finding:
    """What an obligation shows about the paper when it is REFUTED as printed (or is a mismatch)."""

    kind: str
    repair: str
    affects_conclusion: bool
    note: str = ""

    def __post_init__(self):
        if self.kind not in FINDING_KINDS:
            raise ExprError(f"finding kind {self.kind!r}: must be one of {sorted(FINDING_KINDS)}")


@dataclass(slots=True, frozen=True)
class Obligation:
    """One displayed step (or claim) of a paper, with the methods that may decide it, in order.

    ``expect`` is the verdict the transcription is known to get (REFUTED for steps that are false as
    printed); a different outcome fails ``check``. ``repairs`` names the as-printed obligation this
    one repairs. ``hint`` is a counterexample point for refutation (replayed, never trusted)."""

    id: str
    paper: str
    ref: str
    statement: str
    claim: Claim
    methods: tuple[str, ...]
    expect: Verdict | None = None
    finding: Finding | None = None
    repairs: str | None = None
    hint: tuple[tuple[str, Fraction], ...] | None = None
    options: tuple[tuple[str, Any], ...] = ()
    family: str = ""

    def opt(self, key: str, default=None):
        return dict(self.options).get(key, default)



def point_text(point) -> str:
    """A counterexample as a reader writes it, ``a = 1/2, c = 0`` (variables sorted), never a dict repr. Used
    by every place that shows one: check, JUnit, the pytest plugin, the audit."""
    if not isinstance(point, dict):
        return str(point)
    return ", ".join(f"{k} = {v}" for k, v in sorted(point.items()))

@dataclass(slots=True, frozen=True)
class Evidence:
    """What a backend found. ``detail`` is JSON data that goes into the certificate verbatim."""

    verdict: Verdict
    method: str
    detail: dict = field(default_factory=dict)
    trust: tuple[str, ...] = ()
    reason: str = ""


@dataclass(slots=True, frozen=True)
class Result:
    obligation: Obligation
    evidence: Evidence
    seconds: float
    tried: tuple[str, ...] = ()

    @property
    def verdict(self) -> Verdict:
        return self.evidence.verdict

    @property
    def as_expected(self) -> bool:
        exp = self.obligation.expect
        if exp is None:
            return self.verdict in (Verdict.PROVED, Verdict.CONFIRMED)
        return self.verdict == exp


def as_fraction_point(point) -> dict[str, Fraction]:
    return {k: Fraction(v) for k, v in dict(point).items()}


def hyp_exprs(c: Claim) -> list[tuple]:
    return [h.expr for h in c.hyps]


def to_E(node) -> E:
    return E(node)

"""State and check your own claims in a few lines (the public API; re-exported by ``attncert``).

    import attncert as ac
    x = ac.var("x")
    r = ac.prove(ac.log(x) <= x - 1, box={"x": (ac.Q(1, 10), 10)})
    r.verdict            # 'PROVED'
    r.certificate("log.json"); ac.verify("log.json")     # (0, 'OK log.json: PROVED ...')

    r = ac.prove(x * x >= x)
    r.verdict, r.counterexample      # ('REFUTED', {'x': Fraction(1, 2)})

A claim file for ``attncert check FILE`` (and certify, report, pytest --attncert) defines
``CLAIMS = [ac.Claim("my.id", goal, given=[...], box={...}), ...]`` (optionally ``PAPER = "mypaper"``).

Variables are real unless named in ``ints``, or used as vectors (``ac.vvar("x")``, with ``ac.norm``, ``ac.lpnorm``,
``ac.dot``, ``ac.vadd``, ``ac.vscale``, ``ac.vsub``: such a claim is decided by SMT from cited axiom
instances, ``given=[ac.axiom("norm_triangle", x=u, y=w), ...]``; docs/axioms.md, "Vectors"), or as
sequences (``ac.seq("a")`` with ``ac.at``, ``ac.IDX`` (``ac.idx(k)``: the index k big operators further out) and the big operators ``ac.bsum``, ``ac.bmax``,
``ac.bmin``, ``ac.forall``: likewise SMT from cited axioms; docs/axioms.md, "Indexed families"), or as
finite sets (``ac.fset("A")``, ``ac.fsets("J")`` with ``ac.sat``, ``ac.union``, ``ac.bunion``, ``ac.card``
and ``ac.subset``: likewise; docs/axioms.md, "Finite sets"); a ``box``
bounds variables (its bounds become hypotheses,
and the box is also where counterexamples are searched). Methods are chosen from the goal when not
given: an equation tries the identity test, then SMT; an inequality tries SMT, then branch and bound over
the box (when every variable is boxed and there are no other hypotheses); both then look for a
counterexample (an SMT model, replayed exactly, then a search in the box)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping

from attncert.core.axioms import axiom  # noqa: F401 - re-exported by attncert
from attncert.core.claims import Evidence, Hyp, Obligation, Result, Var, claim as _claim
from attncert.core.errors import UsageError
from attncert.core.expr import DIM, PI, E, abs_, dot, exp, free_vars, log, lpnorm, max_, min_, node_of, norm, num, park, typed_leaves, var, vadd, vat, vscale, vseq, vsub, vvar  # noqa: F401
from attncert.core.expr import IDX, at, bmax, bmin, bsum, forall, idx, seq  # noqa: F401 - indexed families
from attncert.core.expr import bunion, card, fset, fsets, sat, subset, union  # noqa: F401 - finite sets
from attncert.core.expr import and_, implies, not_, or_  # noqa: F401 - connectives
from attncert.core.verdict import Verdict

Q = Fraction
__all__ = ["Q", "Claim", "Outcome", "abs_", "exp", "log", "max_", "min_", "prove", "var"]

Number = int | Fraction | str
Box = Mapping[str, tuple[Number, Number]]


def _methods(goal: tuple, boxed: bool) -> tuple[str, ...]:
    if goal[0] == "eq":
        return ("identity", "smt", "model", "search")
    return ("smt", "bnb", "model", "search") if boxed else ("smt", "model", "search")


def Claim(id: str, goal: E, given: Iterable[E] = (), box: Box | None = None, ints: Iterable[str] = (),
          ref: str = "", statement: str | None = None, methods: Iterable[str] | None = None,
          paper: str = "mine", **options) -> Obligation:
    """One claim: for all values of its variables with every ``given`` hypothesis (and within ``box``),
    ``goal`` holds. Returns the obligation that ``check``/``certify`` run."""
    goal_n = node_of(goal)
    # a given hypothesis is an expression, or a Hyp that cites its source (ac.axiom("norm_triangle", x=u, y=w))
    given_h = [h if isinstance(h, Hyp) else Hyp(node_of(h)) for h in given]
    hyps = [h.expr for h in given_h]
    names: set = set()
    typed: dict = {}   # vectors (vvar), sequences (seq) and sets (fset, fsets) are declared 'vec', 'seq', 'set', 'sets'
    for n in hyps + [goal_n]:
        free_vars(n, names)
        typed_leaves(n, typed)
    box = dict(box or {})
    unknown = set(box) - names
    if unknown:
        raise UsageError(f"claim {id}: the box names variables the claim does not use: {sorted(unknown)}")
    ints = set(ints)
    vs = []
    for name in sorted(names):
        lo, hi = (Fraction(box[name][0]), Fraction(box[name][1])) if name in box else (None, None)
        vs.append(Var(name, typed.get(name) or ("int" if name in ints else "real"), lo, hi))
    bounds = [h for name in sorted(box) for h in (var(name) >= Fraction(box[name][0]),
                                                   var(name) <= Fraction(box[name][1]))]
    c = _claim(vs, given_h + bounds, E(goal_n))
    boxed = bool(names) and set(box) == names and not hyps and not ints
    ms = tuple(methods) if methods is not None else _methods(goal_n, boxed)
    from attncert.core.expr import show
    return Obligation(id=id, paper=paper, ref=ref or id, statement=statement or show(goal_n), claim=c, methods=ms,
                      family=paper, options=tuple(sorted(options.items())))


@dataclass(frozen=True)
class Outcome:
    """What ``prove`` found: ``verdict`` ('PROVED', 'REFUTED', 'CONFIRMED' or 'UNKNOWN'), the evidence,
    a counterexample point (exact rationals) for REFUTED, the reason for UNKNOWN."""

    result: Result

    @property
    def verdict(self) -> str:
        return self.result.evidence.verdict.name

    @property
    def proved(self) -> bool:
        return self.result.evidence.verdict == Verdict.PROVED

    @property
    def evidence(self) -> Evidence:
        return self.result.evidence

    @property
    def method(self) -> str:
        return self.result.evidence.method

    @property
    def counterexample(self) -> dict | None:
        point = self.result.evidence.detail.get("point")
        if self.verdict != "REFUTED" or not isinstance(point, dict):
            return None
        return {k: Fraction(v) for k, v in point.items()}

    @property
    def reason(self) -> str | None:
        return self.result.evidence.detail.get("reason")

    def certificate(self, path: str) -> str:
        """Write the certificate (deterministic JSON, atomically) to ``path``; returns the path."""
        from attncert.core.certificate import atomic_write, build, dumps

        atomic_write(path, dumps(build(self.result)))
        return path

    def __repr__(self) -> str:
        extra = (f", counterexample={self.counterexample}" if self.counterexample else
                 (f", reason={self.reason!r}" if self.reason else ""))
        return f"Outcome({self.result.obligation.id}: {self.verdict} by {self.method}{extra})"


def prove(goal: E, given: Iterable[E] = (), box: Box | None = None, ints: Iterable[str] = (),
          methods: Iterable[str] | None = None, id: str = "claim", timeout: float = 60.0, **options) -> Outcome:
    """Decide one claim now (see ``Claim`` for the arguments)."""
    from attncert.core.engine import run_obligation

    return Outcome(run_obligation(Claim(id, goal, given, box, ints, methods=methods, **options), timeout))

"""The prover's own translation of claims into solver terms, through z3's and cvc5's Python APIs.

The checker prints its own SMT-LIB text (attncert.checker.smtlib) and shares nothing with this module:
a certificate is PROVED only when this translation is unsat on both solvers, and it verifies only when
the checker's translation is unsat too. Two translations that must agree catch a mistake in either.

Semantics (the same as the checker's, written independently; docs/soundness.md):
- exp, log and derivative subterms are fresh real atoms, one per distinct subterm; exp atoms are > 0.
- each division u/v is a fresh real q. Every denominator and every log argument, wherever it occurs
  (hypotheses, goal, inside an atom's argument), is a definedness condition (v != 0, a > 0) with its
  own query: hypotheses, exp positivity, *guarded* definitions v != 0 -> q v = u, and the negated
  condition. The main queries (one per top-level conjunct of the goal) assume the hypotheses, the
  conditions and the plain definitions q v = u.
- integer variables are integers, used as reals in arithmetic.
- a derivative may not be of abs, max or min, and is taken in a declared real variable.
- vectors are opaque: a vector variable has no solver term; each distinct norm or dot subterm is a fresh
  real atom (norm atoms are >= 0), and only the real coefficients inside vscale are translated, for
  their definedness conditions. Whatever else is known of vectors comes from cited axiom instances.
- indexed families are opaque too: each distinct sum, bmax, bmin or at(s, i) subterm is a fresh real
  atom and each distinct forall subformula a fresh Boolean atom; a sequence has no solver term, nothing
  inside a big operator is translated (its body is total: claims.check_binders), and only the index
  term of at(s, i) is, for its definedness conditions. A free ("idx",), which only the instantiated
  conditions of the pointwise axioms contain (docs/axioms.md, "Indexed families"), is one fresh real.
- finite sets are opaque: a set has no solver term; each distinct card(A) is a fresh real atom and each
  distinct subset(A, B) a fresh Boolean atom. Inside them only the index terms of sat(S, i) and the bounds
  of bunion are translated, for their definedness conditions (docs/axioms.md, "Finite sets").
- vector families (docs/notes/vector_families.md): vat(X, i) and park(X, M) are opaque vectors like vector
  variables (only i and M are translated, for their definedness conditions); dim and pi are one fresh real
  atom each, about which nothing is asserted.
Solvers stop at deterministic resource limits (RLIMITS); the caller's wall clock is a safety kill."""

from __future__ import annotations

from fractions import Fraction

from attncert.core.errors import ExprError
from attncert.core.expr import FAMILY, contains

OPAQUE_DOMAINS = ("vec", "vecs", "seq", "set", "sets")   # no solver term: only their atoms reach the solver

# deterministic resource limits (z3 "rlimit", cvc5 "rlimit-per"); calibrated by benchmarks/smt_rlimit.py
RLIMITS = {"z3": 40_000_000, "cvc5": 4_000_000}


class Z3Builder:
    """z3's term constructors and solver, in a fresh context."""

    def __init__(self):
        import z3

        self.z3 = z3
        self.ctx = z3.Context()

    def real(self, name): return self.z3.Real(name, self.ctx)
    def boolean(self, name): return self.z3.Bool(name, self.ctx)
    def ident(self, t): return t.get_id()  # z3 hash-conses terms: equal structure, equal id
    def int_as_real(self, name): return self.z3.ToReal(self.z3.Int(name, self.ctx))
    def int_var(self, name): return self.z3.Int(name, self.ctx)

    def num(self, q: Fraction):
        return self.z3.RealVal(f"{q.numerator}/{q.denominator}", self.ctx)

    def add(self, xs): return self.z3.Sum(xs) if len(xs) > 1 else xs[0]
    def mul(self, xs): return self.z3.Product(xs) if len(xs) > 1 else xs[0]
    def neg(self, a): return -a
    def ite(self, c, a, b): return self.z3.If(c, a, b)
    def rel(self, op, a, b):
        return {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": a == b, "ne": a != b}[op]
    def not_(self, f): return self.z3.Not(f)
    def and_(self, fs): return self.z3.And(fs) if fs else self.z3.BoolVal(True, self.ctx)
    def or_(self, fs): return self.z3.Or(fs) if fs else self.z3.BoolVal(False, self.ctx)
    def implies(self, a, b): return self.z3.Implies(a, b)

    def solve(self, facts, timeout_s: float, scale: int = 1, model_of=None, nra: bool = False):
        # QF_NRA selects z3's complete procedure for nonlinear real arithmetic (nlsat)
        s = self.z3.SolverFor("QF_NRA", ctx=self.ctx) if nra else self.z3.Solver(ctx=self.ctx)
        s.set("rlimit", RLIMITS["z3"] * scale)
        s.set("timeout", max(1, int(timeout_s * 1000)))
        s.add(*facts)
        r = s.check()
        if r == self.z3.unsat:
            return "unsat", None
        if r != self.z3.sat:
            return "unknown", None
        if model_of is None:
            return "sat", None
        m = s.model()
        out = {}
        for name, term in model_of.items():
            v = m.eval(term, model_completion=True)
            if self.z3.is_true(v) or self.z3.is_false(v):
                out[name] = self.z3.is_true(v)
            elif self.z3.is_int_value(v):
                out[name] = Fraction(v.as_long())
            elif self.z3.is_rational_value(v):
                out[name] = Fraction(v.numerator_as_long(), v.denominator_as_long())
            elif self.z3.is_algebraic_value(v):
                out[name] = Fraction(v.approx(30).as_fraction())
        return "sat", out


class Cvc5Builder:
    """cvc5's term constructors and solver, with a fresh term manager."""

    def __init__(self):
        import cvc5

        self.cvc5 = cvc5
        self.K = cvc5.Kind
        self.tm = cvc5.TermManager()
        self.R = self.tm.getRealSort()

    def real(self, name): return self.tm.mkConst(self.R, name)
    def boolean(self, name): return self.tm.mkConst(self.tm.getBooleanSort(), name)
    def ident(self, t): return t.getId()
    def int_var(self, name): return self.tm.mkConst(self.tm.getIntegerSort(), name)
    def int_as_real(self, name): return self.tm.mkTerm(self.K.TO_REAL, self.int_var(name))

    def num(self, q: Fraction):
        return self.tm.mkReal(q.numerator, q.denominator)

    def add(self, xs): return self.tm.mkTerm(self.K.ADD, *xs) if len(xs) > 1 else xs[0]
    def mul(self, xs): return self.tm.mkTerm(self.K.MULT, *xs) if len(xs) > 1 else xs[0]
    def neg(self, a): return self.tm.mkTerm(self.K.NEG, a)
    def ite(self, c, a, b): return self.tm.mkTerm(self.K.ITE, c, a, b)

    def rel(self, op, a, b):
        if op == "ne":
            return self.tm.mkTerm(self.K.NOT, self.tm.mkTerm(self.K.EQUAL, a, b))
        k = {"lt": self.K.LT, "le": self.K.LEQ, "gt": self.K.GT, "ge": self.K.GEQ, "eq": self.K.EQUAL}[op]
        return self.tm.mkTerm(k, a, b)

    def not_(self, f): return self.tm.mkTerm(self.K.NOT, f)

    def and_(self, fs):
        return self.tm.mkTerm(self.K.AND, *fs) if len(fs) > 1 else (fs[0] if fs else self.tm.mkTrue())

    def or_(self, fs):
        return self.tm.mkTerm(self.K.OR, *fs) if len(fs) > 1 else (fs[0] if fs else self.tm.mkFalse())

    def implies(self, a, b): return self.tm.mkTerm(self.K.IMPLIES, a, b)

    def solve(self, facts, timeout_s: float, scale: int = 1, model_of=None, nra: bool = False):
        s = self.cvc5.Solver(self.tm)
        s.setOption("rlimit-per", str(RLIMITS["cvc5"] * scale))
        s.setOption("tlimit-per", str(max(1, int(timeout_s * 1000))))
        s.setLogic("QF_NRA" if nra else "ALL")
        for f in facts:
            s.assertFormula(f)
        r = s.checkSat()
        if r.isUnsat():
            return "unsat", None
        return ("sat" if r.isSat() else "unknown"), None


class ShapeBuilder:
    """Plain tuples instead of solver terms: enough to count atoms and definedness conditions (with the
    same identity of equal terms) on a machine without the solvers."""

    def real(self, name): return ("real", name)
    def boolean(self, name): return ("bool", name)
    def int_var(self, name): return ("int", name)
    def int_as_real(self, name): return ("to_real", ("int", name))
    def ident(self, t): return t
    def num(self, q: Fraction): return ("num", q)
    def add(self, xs): return ("add", *xs) if len(xs) > 1 else xs[0]
    def mul(self, xs): return ("mul", *xs) if len(xs) > 1 else xs[0]
    def neg(self, a): return ("neg", a)
    def ite(self, c, a, b): return ("ite", c, a, b)
    def rel(self, op, a, b): return (op, a, b)
    def not_(self, f): return ("not", f)
    def and_(self, fs): return ("and", *fs)
    def or_(self, fs): return ("or", *fs)
    def implies(self, a, b): return ("implies", a, b)


BUILDERS = {"z3": Z3Builder, "cvc5": Cvc5Builder}


class Translation:
    """A claim as solver terms: hypotheses, goal conjuncts, quotient definitions, conditions."""

    def __init__(self, builder, domains: dict, hyps: list, goal):
        self.b = builder
        self.domains = domains
        self.vars = {}
        for i, (name, dom) in enumerate(sorted(domains.items())):
            if dom in OPAQUE_DOMAINS:
                continue  # opaque: only its norm, dot, at, card and subset atoms reach the solver
            if dom not in ("real", "int"):
                raise ExprError(f"variable {name!r} of domain {dom!r} has no solver meaning")
            self.vars[name] = builder.int_as_real(f"v{i}") if dom == "int" else builder.real(f"v{i}")
        self.model_terms = {name: (builder.int_var(f"v{i}") if dom == "int" else builder.real(f"v{i}"))
                            for i, (name, dom) in enumerate(sorted(domains.items())) if dom not in OPAQUE_DOMAINS}
        self.atoms: dict = {}
        self.pos: list = []
        self.quots: list = []  # (q, u, v)
        self.conds: list = []
        self._cond_keys: set = set()
        self._quot_keys: dict = {}
        self._n = 0
        self.hyps = [self.formula(h) for h in hyps]
        self.parts = [self.formula(g) for g in _conjuncts(goal)]

    def _fresh(self, prefix):
        self._n += 1
        return self.b.real(f"{prefix}{self._n}")

    def _cond(self, f):
        """Conditions are kept once per distinct term (the checker keeps them once per distinct text)."""
        key = self.b.ident(f)
        if key not in self._cond_keys:
            self._cond_keys.add(key)
            self.conds.append(f)

    def term(self, n):
        b, op = self.b, n[0]
        if op == "num":
            return b.num(n[1])
        if op == "var":
            if n[1] not in self.vars:
                raise ExprError(f"variable {n[1]!r} is not declared")
            return self.vars[n[1]]
        if op == "add":
            return b.add([self.term(c) for c in n[1:]])
        if op == "mul":
            return b.mul([self.term(c) for c in n[1:]])
        if op == "neg":
            return b.neg(self.term(n[1]))
        if op == "div":
            return self._div(self.term(n[1]), self.term(n[2]))
        if op == "pow":
            base, k = self.term(n[1]), n[2]
            if k == 0:
                return b.num(Fraction(1))
            p = b.mul([base] * abs(k))
            return p if k > 0 else self._div(b.num(Fraction(1)), p)
        if op in ("max", "min"):
            out = self.term(n[1])
            for c in n[2:]:
                t = self.term(c)
                out = b.ite(b.rel("ge" if op == "max" else "le", out, t), out, t)
            return out
        if op == "abs":
            t = self.term(n[1])
            return b.ite(b.rel("ge", t, b.num(Fraction(0))), t, b.neg(t))
        if op in ("exp", "log", "diff"):
            key = repr(n)
            if key not in self.atoms:
                if op == "diff":
                    _smooth(n[1])
                    if self.domains.get(n[2]) != "real":
                        raise ExprError(f"derivative in {n[2]!r}, which is not a declared real variable")
                arg = self.term(n[1])  # for the definedness conditions inside the argument
                if op == "log":
                    self._cond(b.rel("gt", arg, b.num(Fraction(0))))
                a = self._fresh("t")
                self.atoms[key] = a
                if op == "exp":
                    self.pos.append(b.rel("gt", a, b.num(Fraction(0))))
            return self.atoms[key]
        if op in ("norm", "lpnorm", "dot"):
            key = repr(n)
            if key not in self.atoms:
                for c in n[1:]:
                    self._vector(c)
                a = self._fresh("t")
                self.atoms[key] = a
                if op in ("norm", "lpnorm"):
                    self.pos.append(b.rel("ge", a, b.num(Fraction(0))))
            return self.atoms[key]
        if op in ("sum", "bmax", "bmin", "at"):
            key = repr(n)
            if key not in self.atoms:
                if op == "at":
                    if self.domains.get(n[1][1]) != "seq":
                        raise ExprError(f"sequence {n[1][1]!r} is not declared with domain 'seq'")
                    self.term(n[2])   # the index, for its definedness conditions
                else:
                    self.term(n[1])   # the bound, likewise; the body is total and is not translated
                self.atoms[key] = self._fresh("t")
            return self.atoms[key]
        if op == "card":
            key = repr(n)
            if key not in self.atoms:
                self._set(n[1])
                self.atoms[key] = self._fresh("t")
            return self.atoms[key]
        if op in ("dim", "pi"):   # opaque reals: whatever is known of them comes from cited axiom instances
            key = repr(n)
            if key not in self.atoms:
                self.atoms[key] = self._fresh("t")
            return self.atoms[key]
        if op == "idx":
            if len(n) > 1:   # a pointwise condition's own index is level 0; an outer one stands only inside atoms
                raise ExprError("an index of an outer big operator outside any big operator")
            if "idx" not in self.atoms:
                self.atoms["idx"] = self._fresh("i")
            return self.atoms["idx"]
        raise ExprError(f"operator {op!r} is not a term")

    def _set(self, n) -> None:
        """A set term inside a card or subset atom: only its index terms and bounds are translated, for
        their definedness conditions."""
        if n[0] == "fset":
            if self.domains.get(n[1]) != "set":
                raise ExprError(f"set {n[1]!r} is not declared with domain 'set'")
        elif n[0] == "sat":
            if n[1][0] != "fsets" or self.domains.get(n[1][1]) != "sets":
                raise ExprError(f"sequence of sets {str(n[1][1])[:40]!r} is not declared with domain 'sets'")
            self.term(n[2])
        elif n[0] == "union":
            for c in n[1:]:
                self._set(c)
        elif n[0] == "bunion":
            self.term(n[1])   # the bound; the body is total and is not translated
        else:
            raise ExprError(f"operator {n[0]!r} is not a set")

    def _vector(self, n) -> None:
        """A vector term inside a norm or dot atom: its real coefficients are translated for their
        definedness conditions only."""
        if n[0] == "vvar":
            if self.domains.get(n[1]) != "vec":
                raise ExprError(f"vector variable {n[1]!r} is not declared with domain 'vec'")
        elif n[0] == "vadd":
            for c in n[1:]:
                self._vector(c)
        elif n[0] == "vscale":
            self.term(n[1])
            self._vector(n[2])
        elif n[0] in ("vat", "park"):
            if n[1][0] != "vseq" or self.domains.get(n[1][1]) != "vecs":
                raise ExprError(f"family {str(n[1][1])[:40]!r} is not declared with domain 'vecs'")
            self.term(n[2])   # the index (vat) or the count (park), for its definedness conditions
        else:
            raise ExprError(f"operator {n[0]!r} is not a vector")

    def _div(self, u, v):
        """One quotient variable per distinct (u, v): u / v is a function, so equal quotients are one
        value (a solver need not rediscover that two fresh variables are equal)."""
        key = (self.b.ident(u), self.b.ident(v))
        if key in self._quot_keys:
            return self._quot_keys[key]
        q = self._fresh("q")
        self._quot_keys[key] = q
        self.quots.append((q, u, v))
        self._cond(self.b.rel("ne", v, self.b.num(Fraction(0))))
        return q

    def formula(self, n):
        b, op = self.b, n[0]
        if op in ("lt", "le", "gt", "ge", "eq", "ne"):
            return b.rel(op, self.term(n[1]), self.term(n[2]))
        if op == "and":
            return b.and_([self.formula(c) for c in n[1:]])
        if op == "or":
            return b.or_([self.formula(c) for c in n[1:]])
        if op == "not":
            return b.not_(self.formula(n[1]))
        if op == "implies":
            return b.implies(self.formula(n[1]), self.formula(n[2]))
        if op == "forall":
            key = repr(n)
            if key not in self.atoms:
                self.term(n[1])
                self._n += 1
                self.atoms[key] = b.boolean(f"f{self._n}")
            return self.atoms[key]
        if op == "subset":
            key = repr(n)
            if key not in self.atoms:
                self._set(n[1])
                self._set(n[2])
                self._n += 1
                self.atoms[key] = b.boolean(f"f{self._n}")
            return self.atoms[key]
        raise ExprError(f"operator {op!r} is not a formula")

    def queries(self, mains: bool = True) -> list[list]:
        """The assertion lists: one per goal conjunct (main; left out when ``mains`` is false), then one
        per definedness condition (side)."""
        b, zero = self.b, self.b.num(Fraction(0))
        exact = [b.rel("eq", b.mul([q, v]), u) for q, u, v in self.quots]
        guarded = [b.implies(b.rel("ne", v, zero), b.rel("eq", b.mul([q, v]), u)) for q, u, v in self.quots]
        base = self.hyps + self.pos
        main_qs = [base + exact + self.conds + [b.not_(g)] for g in self.parts] if mains else []
        sides = [base + guarded + [b.not_(c)] for c in self.conds]
        return main_qs + sides


def _conjuncts(goal) -> list:
    if goal[0] != "and":
        return [goal]
    return [p for c in goal[1:] for p in _conjuncts(c)]


def _smooth(n) -> None:
    """No kink inside a derivative: abs, max, min and norm (||t x|| = |t| ||x|| at t = 0) are refused, and
    so is every vector operator."""
    if n[0] in ("abs", "max", "min", "norm", "lpnorm", "dot", "vvar", "vadd", "vscale", "sum", "bmax", "bmin", "at", "idx",
                "card", "subset", "vseq", "vat", "park", "dim", "pi"):
        raise ExprError(f"derivative of {n[0]} (not differentiable everywhere)")
    for c in n[1:]:
        if isinstance(c, tuple):
            _smooth(c)


def shape(domains: dict, hyps: list, goal) -> tuple[list[str], int]:
    """(the abstracted atoms, the number of definedness conditions) of the claim, for the evidence."""
    tr = Translation(ShapeBuilder(), domains, hyps, goal)
    return sorted(tr.atoms), len(tr.conds)


def solve_claim(solver: str, domains: dict, hyps: list, goal, timeout_s: float, want_model: bool = False,
                mains: bool = True):
    """Run every query of the claim on one solver, stopping at the first that is not unsat (``mains``
    false: only the definedness conditions, which still come from the goal's terms too).

    Returns (answer, index of the query that is not unsat or None, number of queries, model or None):
    answer 'unsat' means every query is unsat. With ``want_model``, only the first goal conjunct's query
    is run and a sat answer carries the variables' values (as Fractions)."""
    if want_model and ("vec" in domains.values() or "vecs" in domains.values()
                       or any(contains(n, {"dim", "pi"}) for n in list(hyps) + [goal])):
        raise ExprError("no counterexample search over vectors (norm and dot are opaque atoms)")
    if want_model and any(contains(n, FAMILY) for n in list(hyps) + [goal]):
        raise ExprError("no counterexample search over sequences or big operators (they are opaque atoms)")
    tr = Translation(BUILDERS[solver](), domains, hyps, goal)
    qs = tr.queries(mains or want_model)
    nra = "int" not in domains.values()
    if want_model:
        ans, model = tr.b.solve(qs[0], timeout_s, model_of=tr.model_terms, nra=nra)
        return ans, 0, len(qs), model
    for i, facts in enumerate(qs):
        ans, _ = tr.b.solve(facts, timeout_s, nra=nra)
        if ans != "unsat":
            return ans, i, len(qs), None
    return "unsat", None, len(qs), None


# ------------------------------------------------------------------------- isolation
# (the checker has its own runner: it imports nothing from here, and this module nothing from it)


class _Worker:
    """A persistent forked child that runs calls ``(function, args)`` sent over a pipe (module-level
    functions: ``solve_claim``, the tree search's queries). It belongs to the
    process that started it (after a fork of that process, e.g. ``--jobs``, a new one is started)."""

    def __init__(self):
        import multiprocessing as mp
        import os

        ctx = mp.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=self._loop, args=(child,), daemon=True)
        self.proc.start()
        self.owner = os.getpid()

    @staticmethod
    def _loop(conn):
        while True:
            try:
                fn, args = conn.recv()
            except EOFError:
                return
            try:
                conn.send(("ok", fn(*args)))
            except ExprError as e:
                conn.send(("expr", str(e)))
            except Exception as e:  # noqa: BLE001 - reported as an answer that is not unsat
                conn.send(("error", f"error ({e.__class__.__name__})"))

    def call(self, args, wall_s: float):
        self.conn.send(args)
        if not self.conn.poll(wall_s):
            raise TimeoutError
        return self.conn.recv()

    def kill(self):
        self.proc.kill()
        self.proc.join()


_WORKERS: dict = {}


def run_isolated(solver: str, domains: dict, hyps: list, goal, timeout_s: float, want_model: bool = False,
                 mains: bool = True):
    """``solve_claim`` in a child process with a hard wall-clock kill at ``timeout_s`` (+2 s): the
    answer of a killed or crashed child is 'timeout' or 'error (...)', never unsat."""
    tag, out = in_worker(solver, solve_claim, (solver, domains, hyps, goal, timeout_s, want_model, mains),
                         timeout_s + 2.0)
    if tag == "expr":
        raise ExprError(out)
    if tag in ("error", "timeout"):
        return out, None, 0, None
    return out


def in_worker(key: str, fn, args: tuple, wall_s: float) -> tuple[str, object]:
    """Run ``fn(*args)`` (a module-level function) in the persistent child for ``key``, killed after
    ``wall_s``: returns ("ok", result), ("expr", message), ("error", "error (...)") or
    ("timeout", "timeout")."""
    import os

    w = _WORKERS.get(key)
    if w is None or w.owner != os.getpid() or not w.proc.is_alive():
        w = _WORKERS[key] = _Worker()
    try:
        return w.call((fn, args), wall_s)
    except (TimeoutError, EOFError, OSError):
        w.kill()
        _WORKERS.pop(key, None)
        return "timeout", "timeout"

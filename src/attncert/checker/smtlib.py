"""Claims to SMT-LIB 2 (QF_NRA/NIRA), and running z3 and cvc5 on the text.

Soundness rules of the translation (docs/soundness.md):
- Names never reach the text: variables are printed as generated symbols ``v0, v1, ...`` (sorted
  names), atoms as ``t0, ...`` and quotients as ``q0, ...``; a name outside the identifier grammar is
  rejected before anything is printed.
- exp, log and derivative subterms become fresh real atoms (exp atoms are asserted positive): an
  over-approximation, so `unsat` still proves the claim. So do norm and dot terms of vectors (norm atoms
  are asserted >= 0); a vector variable is never declared, only the real coefficients inside its
  terms are translated (for their definedness conditions).
- Indexed families likewise: each distinct sum, bmax, bmin or at(s, i) term is a fresh real atom and
  each distinct forall formula a fresh Boolean atom; a sequence is never declared, a big operator's
  body is never translated (it is total: trees.check_binders), only its bound N and at's index are
  (for their definedness conditions). A free ["idx"], which only the instantiated pointwise conditions
  of forall_intro and forall_mono contain, is one fresh real.
- Vector families likewise (docs/notes/vector_families.md): vat(F, i) and park(F, M) are vectors, so they
  only occur inside norm and dot atoms (keyed by their exact tree); a family is never declared, only the
  index term i and the count M are translated (for their definedness conditions). ``dim`` and ``pi`` are
  two fixed real constants ``k_dim`` and ``k_pi`` (declared only when used) about which nothing is asserted:
  no generated symbol has an underscore (``v0``, ``t3``, ``q4``, ``b5``, ``i6``) and names never reach the
  text, so they collide with nothing.
- Finite sets likewise: each distinct card(A) is a fresh real atom and each distinct subset(A, B) a fresh
  Boolean atom; a set is never declared, only the index terms of sat(S, i) and the bounds of bunion
  inside them are translated (for their definedness conditions).
- Every division ``u/v`` becomes a fresh variable q. Every denominator v, and every log argument a,
  anywhere in the hypotheses, the goal or inside an atom's argument, gives a *definedness condition*
  (v != 0, a > 0) and one side query: hypotheses, *guarded* quotient definitions
  ``v' != 0 => q'*v' = u'`` (which never by themselves force v' != 0), and the negated condition. All
  side queries unsat means every term of the claim is defined wherever the hypotheses hold; only then
  does the main query (hypotheses, quotient definitions, the conditions, the negated goal) count.
  A condition needs no side query when it is settled by its form (``sign``: the denominator or log
  argument is positive by sign rules, e.g. a sum of exps) or stated by a hypothesis (``_stated``: a
  hypothesis t > 0, t >= c > 0, t != 0, ... on the same term); docs/soundness.md, "Conditions settled
  by their form".
- Answers come from deterministic resource limits (z3 ``rlimit``, cvc5 ``rlimit-per``); the wall clock
  is only a safety kill, and a kill is ``timeout``, never unsat.
Both solvers are imported lazily. This is the checker's translation; the prover builds its own solver
terms (attncert.backends.solver_terms) and shares no code with it."""

from __future__ import annotations

from fractions import Fraction

from .trees import Reject, check_name

LOGIC_HEAD = "(set-logic ALL)\n"
# Deterministic resource limits: a query that needs more is answered 'unknown' on every machine,
# whatever the load. Calibrated on the committed certificates (docs/soundness.md, "Resource limits"):
# the largest query needs about a tenth of these (benchmarks/smt_rlimit.py).
Z3_RLIMIT = 40_000_000
CVC5_RLIMIT = 4_000_000
SAFETY_WALL_S = 300.0  # the kill that never decides: beyond it the answer is 'timeout' (UNKNOWN)
# the finite tree problems (checker.treecover) are larger Boolean problems: they get this many times more
TREE_SCALE = 20


def _q(x: Fraction) -> str:
    def nat(k: int) -> str:
        return f"{k}.0"
    if x.denominator == 1:
        return nat(x.numerator) if x >= 0 else f"(- {nat(-x.numerator)})"
    body = f"(/ {nat(abs(x.numerator))} {nat(x.denominator)})"
    return body if x > 0 else f"(- {body})"


def symbols(domains: dict) -> dict:
    """Variable name -> generated SMT symbol (v0, v1, ... in sorted name order). Names are checked
    against the identifier grammar first."""
    for name in domains:
        check_name(name)
    return {name: f"v{i}" for i, name in enumerate(sorted(domains))}


MAX_QUERY_CHARS = 2_000_000  # bounds the translation (a nested power multiplies its size) before any solver runs


class _Tr:
    def __init__(self, domains: dict):
        self.domains = domains
        self.sym = symbols(domains)
        self.atoms: dict[str, str] = {}  # canonical key -> name
        self.positive: list[str] = []  # exp atoms are positive
        self.quot: list[tuple[str, str, str]] = []  # (q, u, v): q = u / v
        self.quot_of: dict[tuple[str, str], str] = {}
        self.conds: list[str] = []  # definedness conditions (SMT formulas), deduplicated
        self.settled: set[str] = set()  # conditions shown by their form alone (sign rules): no side query
        self.decls: list[str] = []
        self.bools: list[str] = []   # forall and subset atoms

    def fresh(self, prefix: str) -> str:
        name = f"{prefix}{len(self.decls)}"
        self.decls.append(name)
        return name

    def cond(self, text: str, settled: bool = False) -> None:
        if text not in self.conds:
            self.conds.append(text)
        if settled:
            self.settled.add(text)

    def term(self, n) -> str:
        op = n[0]
        if op == "num":
            return _q(n[1])
        if op == "var":
            name = n[1]
            if name not in self.domains:
                raise Reject(f"variable {str(name)[:40]!r} is not declared")
            s = self.sym[name]
            return f"(to_real {s})" if self.domains[name] == "int" else s
        if op == "add":
            return "(+ " + " ".join(self.term(c) for c in n[1:]) + ")" if len(n) > 2 else self.term(n[1])
        if op == "mul":
            return "(* " + " ".join(self.term(c) for c in n[1:]) + ")" if len(n) > 2 else self.term(n[1])
        if op == "neg":
            return f"(- {self.term(n[1])})"
        if op == "pow":
            k = n[2]
            b = self.term(n[1])
            if len(b) * abs(k) > MAX_QUERY_CHARS:
                raise Reject(f"SMT translation larger than {MAX_QUERY_CHARS:,} characters (a power of a large term)")
            if k == 0:
                return "1.0"
            if k > 0:
                return "(* " + " ".join([b] * k) + ")" if k > 1 else b
            return self.div("1.0", "(* " + " ".join([b] * (-k)) + ")" if k < -1 else b, sign(n[1]) == POS)
        if op == "div":
            return self.div(self.term(n[1]), self.term(n[2]), sign(n[2]) == POS)
        if op in ("max", "min"):
            out = self.term(n[1])
            for c in n[2:]:
                t = self.term(c)
                cmp = ">=" if op == "max" else "<="
                out = f"(ite ({cmp} {out} {t}) {out} {t})"
            return out
        if op == "abs":
            t = self.term(n[1])
            return f"(ite (>= {t} 0.0) {t} (- {t}))"
        if op in ("exp", "log", "diff"):
            key = repr(n)
            if key not in self.atoms:
                # the atom's argument is translated for its definedness conditions only
                if op == "diff":
                    _differentiable(n[1])
                    if n[2] not in self.domains:
                        raise Reject(f"derivative in an undeclared variable {str(n[2])[:40]!r}")
                arg = self.term(n[1])
                if op == "log":
                    self.cond(f"(> {arg} 0.0)", sign(n[1]) == POS)
                name = self.fresh("t")
                self.atoms[key] = name
                if op == "exp":
                    self.positive.append(f"(> {name} 0.0)")
            return self.atoms[key]
        if op in ("norm", "lpnorm", "dot"):
            key = repr(n)
            if key not in self.atoms:
                for c in n[1:]:
                    self.vector(c)
                name = self.fresh("t")
                self.atoms[key] = name
                if op in ("norm", "lpnorm"):
                    self.positive.append(f"(>= {name} 0.0)")
            return self.atoms[key]
        if op in ("sum", "bmax", "bmin", "at"):
            key = repr(n)
            if key not in self.atoms:
                if op == "at":
                    if n[1][0] != "seq" or self.domains.get(n[1][1]) != "seq":
                        raise Reject(f"sequence {str(n[1][1])[:40]!r} is not declared with domain 'seq'")
                    self.term(n[2])   # the index: its definedness conditions
                else:
                    self.term(n[1])   # the bound, likewise; the body is total and stays opaque
                self.atoms[key] = self.fresh("t")
            return self.atoms[key]
        if op == "card":
            key = repr(n)
            if key not in self.atoms:
                self.fset(n[1])
                self.atoms[key] = self.fresh("t")
            return self.atoms[key]
        if op in CONSTANTS:
            # the dimension d and the number pi: one opaque real each, nothing asserted of them (an
            # over-approximation); a fixed symbol that no generated symbol and no variable can take
            key = repr(n)
            if key not in self.atoms:
                self.atoms[key] = CONSTANTS[op]
                self.decls.append(CONSTANTS[op])
            return self.atoms[key]
        if op == "idx":
            if len(n) > 1:   # only the pointwise conditions have a free index, and it is their own (level 0)
                raise Reject("an index of an outer big operator outside any big operator")
            if "idx" not in self.atoms:
                self.atoms["idx"] = self.fresh("i")
            return self.atoms["idx"]
        raise Reject(f"operator {op!r} is not a term")

    def fset(self, n) -> None:
        """A finite set inside a card or subset atom: nothing of it reaches the solver but the definedness
        conditions of its index terms and bounds (sets are opaque; axiom instances say what is known)."""
        if n[0] == "fset":
            if self.domains.get(n[1]) != "set":
                raise Reject(f"set {str(n[1])[:40]!r} is not declared with domain 'set'")
        elif n[0] == "sat":
            if n[1][0] != "fsets" or self.domains.get(n[1][1]) != "sets":
                raise Reject(f"sequence of sets {str(n[1][1])[:40]!r} is not declared with domain 'sets'")
            self.term(n[2])
        elif n[0] == "union":
            for c in n[1:]:
                self.fset(c)
        elif n[0] == "bunion":
            self.term(n[1])   # the bound; the body is total and stays opaque
        else:
            raise Reject(f"operator {n[0]!r} is not a set")

    def vector(self, n) -> None:
        """A vector inside a norm or dot atom: nothing of it reaches the solver but the definedness
        conditions of its real coefficients (vectors are opaque; axiom instances say what is known)."""
        if n[0] == "vvar":
            if self.domains.get(n[1]) != "vec":
                raise Reject(f"vector variable {str(n[1])[:40]!r} is not declared with domain 'vec'")
        elif n[0] == "vadd":
            for c in n[1:]:
                self.vector(c)
        elif n[0] == "vscale":
            self.term(n[1])
            self.vector(n[2])
        elif n[0] in ("vat", "park"):
            # a vector of a family, or Park's vector for its first M: only the index or count is translated
            if n[1][0] != "vseq" or self.domains.get(n[1][1]) != "vecs":
                raise Reject(f"{n[0]}: its first argument is not a family of vectors declared with domain 'vecs'")
            self.term(n[2])
        else:
            raise Reject(f"operator {n[0]!r} is not a vector")

    def div(self, u: str, v: str, positive: bool) -> str:
        """One quotient symbol per distinct (u, v) text: u / v is a function, so equal quotients are one
        value. ``positive``: the denominator is positive by the sign rules wherever it is defined."""
        self.cond(f"(not (= {v} 0.0))", positive)
        if (u, v) in self.quot_of:
            return self.quot_of[(u, v)]
        q = self.fresh("q")
        self.quot_of[(u, v)] = q
        self.quot.append((q, u, v))
        return q

    def formula(self, n) -> str:
        op = n[0]
        rel = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "="}
        if op in rel:
            return f"({rel[op]} {self.term(n[1])} {self.term(n[2])})"
        if op == "ne":
            return f"(not (= {self.term(n[1])} {self.term(n[2])}))"
        if op in ("and", "or"):
            return f"({op} " + " ".join(self.formula(c) for c in n[1:]) + ")"
        if op == "not":
            return f"(not {self.formula(n[1])})"
        if op == "implies":
            return f"(=> {self.formula(n[1])} {self.formula(n[2])})"
        if op in ("forall", "subset"):
            key = repr(n)
            if key not in self.atoms:
                if op == "forall":
                    self.term(n[1])
                else:
                    self.fset(n[1])
                    self.fset(n[2])
                name = f"b{len(self.decls) + len(self.bools)}"
                self.bools.append(name)
                self.atoms[key] = name
            return self.atoms[key]
        raise Reject(f"operator {op!r} is not a formula")


POS, NONNEG = "pos", "nonneg"
# the SMT symbols of the constants dim and pi: fixed, with an underscore, which no generated symbol (v0, t1, q2,
# b3, i4: a letter and digits) has; variable names never reach the text. Not "pi" itself: z3 has a built-in pi
CONSTANTS = {"dim": "k_dim", "pi": "k_pi"}
OPAQUE_DOMAINS = ("vec", "vecs", "seq", "set", "sets")   # never declared: only their atoms reach the solver


def sign(n) -> str | None:
    """POS when the term is positive wherever it is defined, NONNEG when it is >= 0 there, else None.
    Rules (each a fact about real numbers): a positive number; exp; |t| >= 0; sums, products and
    quotients of such terms; an even power; max with one such argument, min with all. Nothing is
    assumed of a variable, log or derivative. A definedness condition on a POS term (its denominator
    or log argument) holds wherever the term's own subterms are defined, which are conditions of their
    own: so it needs no side query (docs/soundness.md, "Conditions settled by their form")."""
    op = n[0]
    if op not in ("num", "var") and len(n) < 2:
        return None
    if op == "num":
        return POS if n[1] > 0 else (NONNEG if n[1] == 0 else None)
    if op == "exp":
        return POS
    if op in ("abs", "norm", "lpnorm"):
        return NONNEG
    if op == "pow":
        s, k = sign(n[1]), n[2]
        if k == 0 or s == POS:
            return POS
        return NONNEG if (s == NONNEG and k > 0) or (k > 0 and k % 2 == 0) else None
    if op in ("add", "mul", "div", "max", "min"):
        signs = [sign(c) for c in n[1:]]
        if op == "max":
            return POS if POS in signs else (NONNEG if NONNEG in signs else None)
        if None in signs:
            return None
        if op == "div" and signs[1] != POS:
            return None
        if op == "add":
            return POS if POS in signs else NONNEG
        return POS if all(s == POS for s in signs) else NONNEG
    return None


def _differentiable(n) -> None:
    """A derivative atom stands for a real number only where its body is differentiable: no abs, max,
    min or norm inside (they have kinks), no vector at all; poles and log arguments are definedness
    conditions."""
    if n[0] in ("abs", "max", "min", "norm", "lpnorm", "dot", "vvar", "vadd", "vscale", "sum", "bmax", "bmin", "at", "idx", "seq",
                "card", "bunion", "union", "sat", "fset", "fsets", "subset", "vseq", "vat", "park", "dim", "pi"):
        # big operators, sequences and sets are opaque: no derivative of them; norm has a kink at the zero vector (||t x|| = |t| ||x||); vectors have no derivative here at all
        # (vector families included); dim and pi are constants, refused all the same: no derivative rule is trusted for them
        raise Reject(f"derivative of {n[0]} (not differentiable everywhere)")
    for c in n[1:]:
        if isinstance(c, tuple):
            _differentiable(c)


def _stated(n) -> tuple[object, bool] | None:
    """(t, positive) when the formula n is a comparison of a term t with a number that makes t > 0
    (positive) or t != 0 by itself: t > c with c >= 0, t >= c with c > 0, t < c with c <= 0, t <= c with
    c < 0, t != 0, in either order."""
    flip = {"gt": "lt", "lt": "gt", "ge": "le", "le": "ge", "ne": "ne"}
    if n[0] not in flip or len(n) != 3:
        return None
    op, a, b = n
    if a[0] == "num" and b[0] != "num":
        op, a, b = flip[op], b, a
    if b[0] != "num" or a[0] == "num":
        return None
    c = b[1]
    if (op == "gt" and c >= 0) or (op == "ge" and c > 0):
        return a, True
    if (op == "lt" and c <= 0) or (op == "le" and c < 0) or (op == "ne" and c == 0):
        return a, False
    return None


def queries(domains: dict, hyps: list, goal) -> tuple[str, list[str], list[str], int]:
    """The main query (unsat <=> the claim holds over the abstraction, given the conditions), the side
    queries (one per definedness condition that is not settled by its form or by a hypothesis that
    states it: unsat <=> the condition follows from the hypotheses), the list of abstracted atoms, and
    the number of definedness conditions (settled or not)."""
    tr = _Tr(domains)
    hs = [tr.formula(h) for h in hyps]
    g = tr.formula(goal) if goal is not None else "true"
    for h in hyps:  # a hypothesis t > 0 (or t != 0) asserted in the side query settles the condition on t
        st = _stated(h)
        if st is not None:
            t = tr.term(st[0])  # already translated with its hypothesis: the same text, nothing new
            tr.settled.add(f"(not (= {t} 0.0))")
            if st[1]:
                tr.settled.add(f"(> {t} 0.0)")
    head = "(set-logic QF_NRA)\n" if "int" not in domains.values() else LOGIC_HEAD
    decl = "".join(f"(declare-fun {tr.sym[v]} () {'Int' if d == 'int' else 'Real'})\n"
                   for v, d in sorted(domains.items()) if d not in OPAQUE_DOMAINS)
    decl += "".join(f"(declare-fun {a} () Real)\n" for a in tr.decls)
    decl += "".join(f"(declare-fun {a} () Bool)\n" for a in tr.bools)
    guarded = [f"(=> (not (= {v} 0.0)) (= (* {q} {v}) {u}))" for q, u, v in tr.quot]
    exact = [f"(= (* {q} {v}) {u})" for q, u, v in tr.quot]
    base = "".join(f"(assert {h})\n" for h in hs + tr.positive)
    main = head + decl + base + "".join(f"(assert {c})\n" for c in exact + tr.conds) + \
        f"(assert (not {g}))\n(check-sat)\n"
    side_body = base + "".join(f"(assert {d})\n" for d in guarded)
    sides = [head + decl + side_body + f"(assert (not {c}))\n(check-sat)\n" for c in tr.conds if c not in tr.settled]
    if len(main) + sum(map(len, sides)) > 4 * MAX_QUERY_CHARS:
        raise Reject(f"SMT queries larger than {4 * MAX_QUERY_CHARS:,} characters in all")
    return main, sides, sorted(tr.atoms), len(tr.conds)


def conjuncts(goal) -> list:
    """The top-level conjuncts of a goal (nested 'and' flattened): one small query each is much faster than
    one query for the whole conjunction, and the claim holds iff every conjunct does."""
    if goal[0] != "and":
        return [goal]
    out = []
    for c in goal[1:]:
        out.extend(conjuncts(c))
    return out


def plan(domains: dict, hyps: list, goal) -> tuple[list[str], list[str], list[str], int]:
    """(main queries, one per conjunct of the goal; definedness side queries; atoms; the number of
    definedness conditions). PROVED needs every query unsat."""
    main, sides, atoms, n_conds = queries(domains, hyps, goal)
    parts = conjuncts(goal)
    mains = [main] if len(parts) == 1 else [queries(domains, hyps, part)[0] for part in parts]
    return mains, sides, atoms, n_conds


def run_z3(text: str, timeout_s: float, scale: int = 1) -> str:
    import z3

    # a fresh context per query: nothing of an earlier query (declarations, caches, resource counters)
    # carries over, so a query's answer and its cost depend on its text alone
    s = z3.Solver(ctx=z3.Context())
    s.set("rlimit", int(Z3_RLIMIT * scale))
    s.set("timeout", max(1, int(timeout_s * 1000)))
    s.from_string(text.replace("(check-sat)\n", ""))
    r = s.check()
    if r == z3.unknown and s.reason_unknown() in ("timeout", "canceled"):
        return "timeout"   # the wall-clock safety kill, not the deterministic resource limit: say so
    return str(r)


def run_cvc5(text: str, timeout_s: float, scale: int = 1) -> str:
    return cvc5_solve(text, timeout_s, CVC5_RLIMIT * scale)[0]


def cvc5_solve(text: str, timeout_s: float, rlimit: int) -> tuple[str, int]:
    """(answer, resource units used) of cvc5 on the text; rlimit 0 means no resource limit."""
    import cvc5

    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    if rlimit:
        s.setOption("rlimit-per", str(int(rlimit)))
    s.setOption("tlimit-per", str(max(1, int(timeout_s * 1000))))
    p = cvc5.InputParser(s)
    p.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "attncert")
    sm = p.getSymbolManager()
    out = "unknown"
    while True:
        cmd = p.nextCommand()
        if cmd.isNull():
            break
        r = cmd.invoke(s, sm).strip()
        if r:
            out = r
    used = next((int(v["value"]) for k, v in s.getStatistics() if k == "resource::resourceUnitsUsed"), -1)
    return (out if out in ("sat", "unsat") else "unknown"), used


_RAW = {"z3": run_z3, "cvc5": run_cvc5}
_WORKERS: dict = {}


def _serve(name, conn):
    run = _RAW[name]
    while True:
        try:
            text, timeout_s, scale = conn.recv()
        except EOFError:
            return
        try:
            conn.send(run(text, timeout_s, scale))
        except Exception as e:  # reported as not-unsat
            conn.send(f"error ({e.__class__.__name__})")


def run_guarded(name: str, text: str, timeout_s: float, scale: int = 1) -> str:
    """Run a solver in a persistent child process, under its deterministic resource limit (times
    ``scale``) and a hard wall-clock kill: a solver past the kill is killed and the answer is 'timeout'
    (never unsat)."""
    import multiprocessing as mp

    import os

    w = _WORKERS.get(name)
    # a worker belongs to the process that started it: after a fork (attncert --jobs) start a new one
    if w is None or w[2] != os.getpid() or not w[0].is_alive():
        ctx = mp.get_context("fork")
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(name, child), daemon=True)
        proc.start()
        w = _WORKERS[name] = (proc, parent, os.getpid())
    proc, conn, _ = w
    conn.send((text, timeout_s, scale))
    if conn.poll(timeout_s + 2.0):
        try:
            return conn.recv()
        except EOFError:
            pass
    proc.kill()
    proc.join()
    _WORKERS.pop(name, None)
    return "timeout"


SOLVERS = {name: (lambda text, t, scale=1, _n=name: run_guarded(_n, text, t, scale)) for name in _RAW}


CHOSEN: set | None = None  # verify --solvers: re-run only these (None: every installed solver)


def choose(names) -> None:
    """Re-run goals on these solvers only (``None``: every installed one)."""
    global CHOSEN
    CHOSEN = None if names is None else set(names)


def available() -> dict:
    out = {}
    for name, mod in (("z3", "z3"), ("cvc5", "cvc5")):
        if CHOSEN is not None and name not in CHOSEN:
            continue
        try:
            __import__(mod)
            out[name] = SOLVERS[name]
        except ImportError:
            pass
    return out

"""Claims to SMT-LIB 2 (QF_NRA/NIRA), and running z3 and cvc5 on the text.

Transcendental and derivative subterms become fresh real atoms (exp atoms are asserted positive):
an over-approximation, so `unsat` still proves the claim. Every division ``u/v`` becomes a fresh
variable q with ``q*v = u``; the solver's own division semantics (x/0 unconstrained in z3) are never
used, and each denominator of the goal gets a side query ``hyps => v != 0``.
Both solvers are imported lazily; this module is shared by the prover and the checker."""

from __future__ import annotations

from fractions import Fraction

from .trees import Reject

LOGIC_HEAD = "(set-logic ALL)\n"


def _q(x: Fraction) -> str:
    def nat(k: int) -> str:
        return f"{k}.0"
    if x.denominator == 1:
        return nat(x.numerator) if x >= 0 else f"(- {nat(-x.numerator)})"
    body = f"(/ {nat(abs(x.numerator))} {nat(x.denominator)})"
    return body if x > 0 else f"(- {body})"


class _Tr:
    def __init__(self, domains: dict):
        self.domains = domains
        self.atoms: dict[str, str] = {}  # canonical key -> name
        self.defs: list[str] = []  # assertions defining atoms and quotients
        self.denoms: list[tuple[str, int]] = []  # goal denominators (SMT term, index of its own definition)
        self.collect_denoms = False
        self.decls: list[str] = []

    def fresh(self, prefix: str) -> str:
        name = f"_{prefix}{len(self.decls)}"
        self.decls.append(name)
        return name

    def term(self, n) -> str:
        op = n[0]
        if op == "num":
            return _q(n[1])
        if op == "var":
            name = n[1]
            if name not in self.domains:
                raise Reject(f"variable {name!r} is not declared")
            return f"(to_real |{name}|)" if self.domains[name] == "int" else f"|{name}|"
        if op == "add":
            return "(+ " + " ".join(self.term(c) for c in n[1:]) + ")" if len(n) > 2 else self.term(n[1])
        if op == "mul":
            return "(* " + " ".join(self.term(c) for c in n[1:]) + ")" if len(n) > 2 else self.term(n[1])
        if op == "neg":
            return f"(- {self.term(n[1])})"
        if op == "pow":
            k = n[2]
            b = self.term(n[1])
            if k == 0:
                return "1.0"
            if k > 0:
                return "(* " + " ".join([b] * k) + ")" if k > 1 else b
            return self.div("1.0", "(* " + " ".join([b] * (-k)) + ")" if k < -1 else b)
        if op == "div":
            return self.div(self.term(n[1]), self.term(n[2]))
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
                name = self.fresh("t")
                self.atoms[key] = name
                if op == "exp":
                    self.defs.append(f"(> {name} 0.0)")
            return self.atoms[key]
        raise Reject(f"operator {op!r} is not a term")

    def div(self, u: str, v: str) -> str:
        q = self.fresh("q")
        self.defs.append(f"(= (* {q} {v}) {u})")
        if self.collect_denoms:
            self.denoms.append((v, len(self.defs) - 1))
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
        raise Reject(f"operator {op!r} is not a formula")


def queries(domains: dict, hyps: list, goal) -> tuple[str, list[str], list[str]]:
    """The main query (unsat <=> the claim holds over the abstraction), the side queries (one per
    goal denominator: unsat <=> it is non-zero), and the list of abstracted atoms."""
    tr = _Tr(domains)
    hs = [tr.formula(h) for h in hyps]
    tr.collect_denoms = True
    g = tr.formula(goal)
    head = "(set-logic QF_NRA)\n" if "int" not in domains.values() else LOGIC_HEAD
    decl = "".join(f"(declare-fun |{v}| () {'Int' if d == 'int' else 'Real'})\n" for v, d in sorted(domains.items()))
    decl += "".join(f"(declare-fun {a} () Real)\n" for a in tr.decls)
    body = "".join(f"(assert {h})\n" for h in hs + tr.defs)
    main = head + decl + body + f"(assert (not {g}))\n(check-sat)\n"
    # the side query for v must not contain v's own quotient definition q*v = u, which alone can
    # rule out v = 0 (u a non-zero constant): that would "prove" v != 0 from nothing
    sides = []
    for v, own in tr.denoms:
        side_body = "".join(f"(assert {h})\n" for h in hs + [d for i, d in enumerate(tr.defs) if i != own])
        sides.append(head + decl + side_body + f"(assert (= {v} 0.0))\n(check-sat)\n")
    return main, sides, sorted(tr.atoms)


def run_z3(text: str, timeout_s: float) -> str:
    import z3

    s = z3.Solver()
    s.set("timeout", max(1, int(timeout_s * 1000)))
    s.from_string(text.replace("(check-sat)\n", ""))
    return str(s.check())


def run_cvc5(text: str, timeout_s: float) -> str:
    import cvc5

    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)
    s.setOption("tlimit", str(max(1, int(timeout_s * 1000))))
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
    return out if out in ("sat", "unsat") else "unknown"


_RAW = {"z3": run_z3, "cvc5": run_cvc5}
_WORKERS: dict = {}


def _serve(name, conn):
    run = _RAW[name]
    while True:
        try:
            text, timeout_s = conn.recv()
        except EOFError:
            return
        try:
            conn.send(run(text, timeout_s))
        except Exception as e:  # reported as not-unsat
            conn.send(f"error ({e.__class__.__name__})")


def run_guarded(name: str, text: str, timeout_s: float) -> str:
    """Run a solver in a persistent child process with a hard wall-clock limit: a solver that ignores
    its own limit is killed and the answer is 'timeout' (never unsat)."""
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
    conn.send((text, timeout_s))
    if conn.poll(timeout_s + 2.0):
        try:
            return conn.recv()
        except EOFError:
            pass
    proc.kill()
    proc.join()
    _WORKERS.pop(name, None)
    return "timeout"


SOLVERS = {name: (lambda text, t, _n=name: run_guarded(_n, text, t)) for name in _RAW}


def available() -> dict:
    out = {}
    for name, mod in (("z3", "z3"), ("cvc5", "cvc5")):
        try:
            __import__(mod)
            out[name] = SOLVERS[name]
        except ImportError:
            pass
    return out

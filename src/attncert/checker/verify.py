"""attncert's independent checker: re-verifies certificate files without searching.

Imports: the standard library, fractions, and this package (qarith, trees, smtlib). z3 and cvc5 are
optional and only needed for SMT goals. Nothing from the provers is imported."""

from __future__ import annotations

import hashlib
import json
import os
import unicodedata
from fractions import Fraction

from . import axioms as axiom_list
from . import bnb, smtlib, treecover
from . import theorems as theorem_certs
from .qarith import MAX_PREC, TooMuchWork, Undecided, _spend, reset_work
from .trees import FAMILY_OPS, KINDS, NAMED, NO_SOLVER, CannotCheck, check_binders, sort_of as _tree_sort, free_idx, Reject, check_name, free_names as _free, check_sorts, defined_at, identically_zero, ival, log_rewrite, no_diff, parse, parse_rational

SCHEMA = "attncert.cert/2"
RETIRED = {"attncert.theorem/1": "its roots were named by id only, not bound to the claims they prove (attack round "
                                 "14, docs/soundness.md); re-issue it with `attncert certify all`",
           "attncert.cert/1": "written before the soundness fixes of docs/soundness.md (division and "
                              "definedness side conditions, seeded zero tests); re-issue it with `attncert certify`"}
VERDICTS = ("PROVED", "CONFIRMED", "UNKNOWN", "REFUTED")
TOP_KEYS = {
    "schema", "id", "family", "paper", "ref", "statement", "claim", "claim_sha256", "verdict", "expected",
    "finding", "repairs", "method", "evidence", "uses", "trust", "tools", "cert_sha256",
}
FINDING_KEYS = {"kind", "repair", "affects_conclusion", "note"}
EVIDENCE_KEYS = {
    "identity": {"kind", "prover", "solvers", "side_queries"},
    "smt": {"kind", "solvers", "atoms", "side_queries"},
    "interval": {"kind", "bits", "margin"},
    "counterexample": {"kind", "point", "bits", "margin", "zero_test"},
    "sample": {"kind", "samples", "seed", "dps", "box", "worst_point", "worst_margin"},
    "none": {"kind", "reason"},
    "bnb": {"kind", "bits", "tree", "leaves"},
    "treemin": {"kind", "target", "T", "D", "minimum", "witness", "solvers"},
    "treegrid": {"kind", "target", "T", "D", "g", "points", "skipped", "failures"},
}
KIND_VERDICTS = {
    "identity": {"PROVED"}, "smt": {"PROVED"}, "interval": {"PROVED", "REFUTED"},
    "counterexample": {"REFUTED"}, "sample": {"CONFIRMED"}, "none": {"UNKNOWN"},
    "treemin": {"PROVED", "REFUTED"}, "treegrid": {"PROVED", "REFUTED"}, "bnb": {"PROVED"},
}
MAX_FILE_BYTES = 8 << 20
SZ_TRUST = "Schwartz-Zippel zero test, points drawn from the claim's hash (false pass <= 2^-128 per test)"


def canonical(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(obj) -> str:
    return hashlib.sha256(canonical(obj).encode()).hexdigest()


def _no_constants(name):
    raise Reject(f"non-finite number {name} in JSON")


def _pairs(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise Reject("duplicate key in JSON object")
    return dict(pairs)


LIMITS_HELP = {"digits": "largest number of digits in one number", "nodes": "largest expression tree (nodes)",
               "depth": "deepest expression tree", "prec": "highest working precision (bits)",
               "file_mb": "largest certificate file (MiB)"}


def set_limits(digits: int | None = None, nodes: int | None = None, depth: int | None = None,
               prec: int | None = None, file_mb: float | None = None, solvers=None, work: int | None = None) -> None:
    """Resource limits of the checker (defaults: 5,000 digits, 200,000 nodes, depth 200, 131,072 bits,
    8 MiB). A certificate beyond any of them is REJECTED, naming the limit, before the work starts.
    ``solvers``: the solvers that re-run SMT goals (None, the default: every installed one). ``work``:
    the exp/log work budget per certificate (qarith.MAX_WORK, default 2,000,000 units)."""
    global MAX_PREC, MAX_FILE_BYTES
    from . import qarith, trees

    if digits is not None:
        trees.MAX_DIGITS = int(digits)
    if nodes is not None:
        trees.MAX_NODES = int(nodes)
    if depth is not None:
        trees.MAX_DEPTH = int(depth)
    if prec is not None:
        MAX_PREC = qarith.MAX_PREC = int(prec)
    if file_mb is not None:
        MAX_FILE_BYTES = int(file_mb * (1 << 20))
    smtlib.choose(solvers)
    if work is not None:
        qarith.MAX_WORK = int(work)


def load(path: str) -> dict:
    try:
        if os.path.getsize(path) > MAX_FILE_BYTES:
            raise Reject(f"file larger than {MAX_FILE_BYTES} bytes")
        with open(path, "rb") as fh:
            raw = fh.read()
        text = raw.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise Reject(f"unreadable: {e.__class__.__name__}") from None
    try:
        obj = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_pairs,
                         parse_float=lambda s: _no_float(s))
    except json.JSONDecodeError as e:
        raise Reject(f"not valid JSON (truncated?): {e.msg} at line {e.lineno}") from None
    except RecursionError:
        raise Reject("JSON nested too deeply") from None
    if not isinstance(obj, dict):
        raise Reject("top level is not an object")
    return obj


def _no_float(s):
    raise Reject(f"inexact float {s[:30]} in certificate (numbers must be exact rationals in strings)")


DEFINED_BASES = ("nmin", "failures")  # names of the quantities that treemin/treegrid evidence defines
_UNPRINTABLE = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")


def _safe(text: str) -> str:
    """A printed field with every character that is not printable escaped (a file name can hold a
    newline: it must not forge a line of the report)."""
    return text if text.isprintable() else "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _no_control(obj, path: str = "") -> None:
    """No string of a certificate may hold a control character (a newline or an escape sequence in a
    printed field could forge lines of the checker's output)."""
    if isinstance(obj, str):
        if not obj.isprintable() and any(unicodedata.category(c) in _UNPRINTABLE for c in obj):
            raise Reject(f"control, format or line-separator character in a text field ({path or 'top level'})")
    elif isinstance(obj, dict):
        for k, v in obj.items():
            _no_control(k, path)
            _no_control(v, f"{path}.{k}" if isinstance(k, str) and k.isidentifier() else path + ".?")
    elif isinstance(obj, list):
        for v in obj:
            _no_control(v, path + "[]")


def _check_keys(obj, allowed: set, where: str):
    if not isinstance(obj, dict):
        raise Reject(f"{where} is not an object")
    extra = set(obj) - allowed
    missing = allowed - set(obj)
    if extra:
        raise Reject(f"unknown field {sorted(extra)[0]!r} in {where}")
    if missing:
        raise Reject(f"missing field {sorted(missing)[0]!r} in {where}")


def _claim(obj):
    _check_keys(obj, {"vars", "hyps", "goal"}, "claim")
    domains = {}
    boxes = {}
    for v in obj["vars"]:
        if not isinstance(v, dict) or not ({"name", "domain"} <= set(v) <= {"name", "domain", "lo", "hi"}):
            raise Reject("malformed variable declaration")
        check_name(v["name"])
        if v["domain"] not in ("real", "int", "defined", "vec", "vecs", "seq", "set", "sets") or v["name"] in domains:
            raise Reject(f"bad variable {str(v.get('name'))[:30]!r}")
        if "[" in v["name"] and v["name"].split("[", 1)[0] in DEFINED_BASES and v["domain"] != "defined":
            raise Reject(f"{v['name'][:40]!r} names a quantity defined by tree evidence: its domain must be 'defined'")
        domains[v["name"]] = v["domain"]
        lo, hi = (parse_rational(v["lo"]) if "lo" in v else None, parse_rational(v["hi"]) if "hi" in v else None)
        if lo is not None and hi is not None and lo > hi:
            raise Reject(f"empty box for {v['name']}: lo > hi")
        boxes[v["name"]] = (lo, hi)
    if not isinstance(obj["hyps"], list):
        raise Reject("hyps must be a list")
    hyps = []
    table: dict = {}
    for h in obj["hyps"]:
        if not isinstance(h, dict) or not ({"expr"} <= set(h) <= {"expr", "by"}):
            raise Reject("malformed hypothesis")
        if "by" in h and (not isinstance(h["by"], str) or not h["by"]):
            raise Reject("hypothesis 'by' must be a non-empty string")
        hyps.append(parse(h["expr"], table=table))
    goal = parse(obj["goal"], table=table)
    for n in hyps + [goal]:
        _declared(n, domains)
        check_sorts(n, formula=True)
        check_binders(n)
    if any(_mentions(n, ("dim", "park")) for n in hyps + [goal]) and any(_mentions(n, ("lpnorm",)) for n in hyps + [goal]):
        # with dim or park the vectors are points of R^dim; with lpnorm functions in L^p(nu): never both
        # (docs/notes/vector_families.md, restriction 1)
        raise Reject("a claim that mentions dim or park may not mention lpnorm (its vectors are points of R^dim, "
                     "not functions in L^p)")
    return domains, boxes, hyps, goal


def _mentions(n, ops: tuple) -> bool:
    """Does an operator of ``ops`` occur in the tree ``n``?"""
    return n[0] in ops or any(isinstance(c, tuple) and _mentions(c, ops) for c in n[1:])


_LEAF_DOMAIN = {"vvar": "vec", "vseq": "vecs", "seq": "seq", "fset": "set", "fsets": "sets"}
_LEAF_WHAT = {"vec": "a vector", "vecs": "a family of vectors", "seq": "a sequence", "set": "a finite set",
              "sets": "a sequence of finite sets"}


def _declared(n, domains) -> None:
    """Every variable of the claim is declared (a derivative's variable too, and it must be real: a
    function of an integer variable has no derivative)."""
    if n[0] == "var" and (n[1] not in domains or domains[n[1]] in _LEAF_WHAT):
        raise Reject(f"variable {n[1]!r} is not declared" if n[1] not in domains else
                     f"{n[1]!r} is declared {_LEAF_WHAT[domains[n[1]]]} but used as a real")
    if n[0] in _LEAF_DOMAIN and domains.get(n[1]) != _LEAF_DOMAIN[n[0]]:
        raise Reject(f"{n[1]!r} is used as {_LEAF_WHAT[_LEAF_DOMAIN[n[0]]]} but not declared with domain "
                     f"{_LEAF_DOMAIN[n[0]]!r}")
    if n[0] == "diff" and domains.get(n[2]) != "real":
        raise Reject(f"derivative in {n[2]!r}, which is not a declared real variable")
    for c in n[1:]:
        if isinstance(c, tuple):
            _declared(c, domains)


def decide(node, env: dict, bits: int, zero_seed: int | None = None):
    """Three-valued truth of a formula at a point, raising the precision once; connectives are decided
    from their parts. With ``zero_seed`` (counterexample replay only), a relation that the intervals
    cannot separate is decided by the seeded zero test, once every term of it is shown defined at the
    point. Returns (truth, k): k > 0 when the zero test was used, with false-pass probability <= 2^-k."""
    op = node[0]
    if op in ("and", "or", "not", "implies"):
        parts = [decide(c, env, bits, zero_seed) for c in node[1:]]
        vals = [p[0] for p in parts]
        k = min((p[1] for p in parts if p[1]), default=0)
        if op == "and":
            return (False if any(v is False for v in vals) else (True if all(v is True for v in vals) else None)), k
        if op == "or":
            return (True if any(v is True for v in vals) else (False if all(v is False for v in vals) else None)), k
        if op == "not":
            return (None if vals[0] is None else not vals[0]), k
        return (True if (vals[0] is False or vals[1] is True) else
                (False if vals == [True, False] else None)), k
    for b in (bits, 4 * bits):
        try:
            v = ival(node, env, min(b, MAX_PREC))
        except Undecided:
            v = None
        if v is not None:
            return v, 0
    if zero_seed is not None and op in ("lt", "le", "gt", "ge", "eq", "ne") and \
            defined_at(node, env, min(4 * bits, MAX_PREC)):
        diff = log_rewrite(("add", node[1], ("neg", node[2])))
        try:
            zero, k = identically_zero(diff, [], seed=zero_seed, fixed=env)
        except Undecided:
            return None, 0
        if zero:
            return op in ("le", "ge", "eq"), k
    return None, 0


def _hash_seed(*parts: str) -> int:
    return int(hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:32], 16)


def _point(obj, domains, boxes) -> dict:
    """A point of the claim: every variable a value, integers integral, and each value inside the
    variable's box when it has one (a box is where the claim's reader expects the variable to range; a
    point outside it is not accepted as a counterexample or a sample)."""
    if not isinstance(obj, dict) or set(obj) != set(domains):
        raise Reject("point must give every variable a value")
    env = {}
    for k, s in obj.items():
        q = parse_rational(s)
        if domains[k] == "int" and q.denominator != 1:
            raise Reject(f"integer variable {k} has value {s}")
        lo, hi = boxes[k]
        if (lo is not None and q < lo) or (hi is not None and q > hi):
            raise Reject(f"point value {k} = {s[:40]} lies outside the variable's box")
        env[k] = q
    return env


def _margin(obj):
    if obj is None:
        return None
    if not isinstance(obj, dict) or set(obj) != {"lo", "hi"}:
        raise Reject("margin must be {lo, hi}")
    lo, hi = parse_rational(obj["lo"]), parse_rational(obj["hi"])
    if lo > hi:
        raise Reject("margin with lo > hi")
    return lo, hi


def _worst_margin_agrees(goal, env, text: str) -> None:
    """The recorded worst margin (how far the goal is from failing at the worst sample, in decimal) must
    agree with the checker's own evaluation to 1% (plus 1e-30)."""
    import re

    if not re.fullmatch(r"-?[0-9]+(\.[0-9]+)?(e-?[0-9]+)?", text) or len(text) > 60:
        raise Reject("worst_margin is not a decimal number")
    mant, _, expo = text.partition("e")
    if abs(int(expo or 0)) > 10_000:
        raise Reject("worst_margin exponent beyond 10^10000")
    rec = Fraction(mant) * Fraction(10) ** int(expo or 0)
    try:
        v = ival(("add", goal[1], ("neg", goal[2])), env, 256)
    except Undecided:
        raise Reject("the worst sample's margin cannot be evaluated") from None
    lo, hi = (v, v) if isinstance(v, Fraction) else (v.lo, v.hi)
    if goal[0] in ("lt", "le"):
        lo, hi = -hi, -lo
    # the goal holds at the worst sample (checked before), so its margin cannot be negative; away from 0
    # the recorded value must agree with the checker's to 1%
    if rec < 0:
        raise Reject("the recorded worst margin is negative, but the goal holds at the worst sample")
    tol = max(abs(rec), abs(lo), abs(hi)) / 100 + Fraction(1, 1 << 200)
    if rec < lo - tol or rec > hi + tol:
        raise Reject("the recorded worst margin disagrees with the checker's evaluation at the worst sample")


def _margin_agrees(goal, env, bits, recorded):
    """The recorded enclosure of lhs - rhs must overlap the checker's own."""
    if recorded is None or goal[0] not in ("lt", "le", "gt", "ge", "eq", "ne"):
        return
    try:
        v = ival(no_diff(("add", goal[1], ("neg", goal[2]))), env, bits)
    except Undecided:
        return
    lo, hi = (v, v) if isinstance(v, Fraction) else (v.lo, v.hi)
    if hi < recorded[0] or lo > recorded[1]:
        raise Reject("recorded margin disagrees with the checker's evaluation")


def check_cert(obj: dict, solver_timeout: float = smtlib.SAFETY_WALL_S) -> tuple[str, list[str], list[str]]:
    """Verify one certificate. Returns (verdict, what was checked, what was trusted); raises Reject."""
    reset_work()  # the exp/log work budget is per certificate
    if isinstance(obj.get("schema"), str) and obj["schema"] in RETIRED:
        raise Reject(f"schema {obj['schema']} is retired: {RETIRED[obj['schema']]}")
    _check_keys(obj, TOP_KEYS, "certificate")
    if obj["schema"] != SCHEMA:
        raise Reject(f"unknown schema {str(obj['schema'])[:30]!r}")
    _no_control(obj)
    body = {k: v for k, v in obj.items() if k != "cert_sha256"}
    if digest(body) != obj["cert_sha256"]:
        raise Reject("cert_sha256 mismatch: the file was changed after it was written")
    for k in ("id", "family", "ref", "statement", "method"):
        if not isinstance(obj[k], str) or not obj[k]:
            raise Reject(f"field {k!r} must be a non-empty string")
    if not isinstance(obj["paper"], str) or not obj["paper"] or len(obj["paper"]) > 64 or \
            not all(c.isalnum() or c in "_-." for c in obj["paper"]):
        raise Reject(f"paper {str(obj['paper'])[:20]!r}: 1-64 letters, digits, '_', '-' or '.'")
    if len(obj["id"]) > 200 or any(c.isspace() for c in obj["id"]):
        raise Reject("id must be at most 200 characters without spaces")
    if digest(obj["claim"]) != obj["claim_sha256"]:
        raise Reject("claim_sha256 mismatch: the claim was changed")
    verdict = obj["verdict"]
    if verdict not in VERDICTS:
        raise Reject(f"unknown verdict {str(verdict)[:20]!r}")
    if obj["expected"] is not None and obj["expected"] not in VERDICTS:
        raise Reject("bad expected verdict")
    if obj["finding"] is not None:
        _check_keys(obj["finding"], FINDING_KEYS, "finding")
        if not isinstance(obj["finding"]["affects_conclusion"], bool):
            raise Reject("finding.affects_conclusion must be true or false")
    if not isinstance(obj["trust"], list) or not all(isinstance(t, str) for t in obj["trust"]):
        raise Reject("trust must be a list of strings")
    if not isinstance(obj["uses"], list) or not all(isinstance(t, str) for t in obj["uses"]):
        raise Reject("uses must be a list of ids")
    if not isinstance(obj["tools"], dict) or not all(isinstance(v, str) for v in obj["tools"].values()):
        raise Reject("tools must map names to version strings")
    domains, boxes, hyps, goal = _claim(obj["claim"])
    raw = hyps + [goal]  # with derivative nodes: definedness looks inside their bodies
    cited = sorted({one for h in obj["claim"]["hyps"] if "by" in h and not h["by"].startswith(("fact:", "axiom:"))
                    for one in source_ids(h["by"])})
    if obj["uses"] != cited:
        raise Reject("uses must list exactly the hypotheses' sources (their 'by', facts and axioms aside, "
                     "'mvt:' stripped), sorted")
    cited_axioms, axiom_queries = axiom_instances(obj["claim"], hyps, domains, solver_timeout, obj["verdict"] == "PROVED",
                                                  goal, boxes)
    ev = obj["evidence"]
    if kind_needs_values(ev):
        hyps, goal = [no_diff(h) for h in hyps], no_diff(goal)
    if not isinstance(ev, dict) or ev.get("kind") not in EVIDENCE_KEYS:
        raise Reject("evidence has no known kind")
    kind = ev["kind"]
    _check_keys(ev, EVIDENCE_KEYS[kind], f"evidence ({kind})")
    if "defined" in domains.values() and kind not in ("treemin", "treegrid", "none"):
        raise Reject(f"a defined variable (the quantity a method establishes) cannot rest on {kind} evidence")
    if "vec" in domains.values() and kind not in ("smt", "none"):
        # vectors are opaque: no point, sample or interval gives them a value (docs/axioms.md, "Vectors")
        raise Reject(f"a claim over vector variables cannot rest on {kind} evidence (only smt)")
    if ("vecs" in domains.values() or any(_mentions(n, ("dim", "pi")) for n in hyps + [goal])) \
            and kind not in ("smt", "none"):
        # nor do families of vectors, the dimension or pi (docs/notes/vector_families.md, restriction 2)
        raise Reject(f"a claim over families of vectors, dim or pi cannot rest on {kind} evidence (only smt)")
    if any(_has_family(n) for n in hyps + [goal]) and kind not in ("smt", "none"):
        # so are sequences, big operators and finite sets (docs/axioms.md, "Indexed families", "Finite sets")
        raise Reject(f"a claim with sequences, sets or big operators cannot rest on {kind} evidence (only smt)")
    if verdict not in KIND_VERDICTS[kind]:
        raise Reject(f"verdict {verdict} cannot rest on {kind} evidence")
    checked: list[str] = []
    # only what the checker itself relies on: the prover's own trust entries (sympy, arb, ...) are the
    # certificate's history, not part of this check
    version, table = axiom_list.axioms()
    trusted: list[str] = [f"axiom {a} (axiom list v{version}): {table[a][3]}" for a in sorted(set(cited_axioms.values()))]
    if cited_axioms and obj["verdict"] == "PROVED":
        checked.append(f"{len(cited_axioms)} hypotheses are axiom instances, their conditions other hypotheses"
                       + (f" or shown from earlier ones ({axiom_queries} SMT queries unsat on re-run)" if axiom_queries else ""))
    elif cited_axioms:
        checked.append(f"{len(cited_axioms)} hypotheses are axiom instances (their conditions matter only for PROVED)")
    if axiom_queries:
        trusted.extend(f"{n} unsat" for n in smtlib.available())
    if any(h.get("by", "").startswith(MVT) for h in obj["claim"]["hyps"]):
        trusted.append(MVT_TRUST)

    if kind == "identity":
        if goal[0] != "eq":
            raise Reject("identity evidence needs an equation as goal")
        expr = log_rewrite(no_diff(("add", goal[1], ("neg", goal[2]))))
        try:
            ok, k = identically_zero(expr, sorted(domains), _hash_seed("identity", obj["claim_sha256"]))
        except Undecided as e:
            raise Reject(f"identity check failed: {e}") from None
        if not ok:
            raise Reject("identity does not hold at a random rational point (Schwartz-Zippel)")
        # the identity holds wherever both sides are defined; the claim needs them defined under the
        # hypotheses: every denominator non-zero, every log argument positive
        _, sides, _, n_conds = smtlib.queries(domains, hyps, goal)
        if ev["side_queries"] != n_conds:
            raise Reject("number of definedness side queries differs")
        _solvers_agree(ev["solvers"], sides, solver_timeout)
        checked.append(f"identity: lhs - rhs vanishes at random rational points with exp/log terms as independent "
                       f"atoms after the log laws (false pass <= 2^-{k}); {n_conds} definedness conditions "
                       f"({n_conds - len(sides)} settled by their form or a hypothesis, {len(sides)} unsat on re-run)")
        trusted.append(SZ_TRUST)
        if sides:
            trusted.extend(f"{n} unsat" for n in smtlib.available())

    elif kind == "smt":
        mains, sides, atoms, n_conds = smtlib.plan(domains, hyps, goal)
        if ev["atoms"] != atoms:
            raise Reject("abstracted atoms differ from the claim's")
        if ev["side_queries"] != n_conds:
            raise Reject("number of definedness side queries differs")
        if not ev["solvers"]:
            raise Reject("smt evidence must record unsat from each solver")
        _solvers_agree(ev["solvers"], mains + sides, solver_timeout)
        checked.append(f"SMT: negated goal ({len(mains)} conjuncts) and {n_conds} definedness conditions "
                       f"({n_conds - len(sides)} settled by their form or a hypothesis) unsat on re-run by "
                       f"{', '.join(smtlib.available())} ({len(mains) + len(sides)} queries)")
        trusted.extend(f"{n} unsat" for n in smtlib.available())
        vector_atoms = [a for a in atoms if a.startswith(("('norm',", "('lpnorm',", "('dot',"))]
        family_atoms = [a for a in atoms if a.startswith(("('sum',", "('bmax',", "('bmin',", "('at',", "('forall',"))]
        set_atoms = [a for a in atoms if a.startswith(("('card',", "('subset',"))]
        const_atoms = [a for a in atoms if a.startswith(("('dim',", "('pi',"))]
        if len(vector_atoms) + len(family_atoms) + len(set_atoms) + len(const_atoms) < len(atoms):
            trusted.append("exp/log/derivative terms abstracted as free reals (over-approximation)")
        if vector_atoms:
            trusted.append("norm, L^p norm and dot terms of opaque vectors abstracted as free reals, norms >= 0 "
                           "(over-approximation)")
        if family_atoms:
            trusted.append("sums, maxima, minima and values of opaque sequences abstracted as free reals, forall formulas "
                           "as free Booleans (over-approximation)")
        if set_atoms:
            trusted.append("cardinalities of opaque finite sets abstracted as free reals, subset formulas as free Booleans "
                           "(over-approximation)")
        if const_atoms:
            trusted.append("the dimension dim and the number pi abstracted as free reals, nothing asserted of them "
                           "(over-approximation)")

    elif kind in ("interval", "counterexample"):
        bits = ev["bits"]
        if not isinstance(bits, int) or isinstance(bits, bool) or not 32 <= bits <= MAX_PREC:
            raise Reject(f"bits must be an integer in [32, {MAX_PREC}]")
        if kind == "interval":
            if domains:
                raise Reject("interval evidence needs a closed claim (no variables)")
            env = {}
            zero_seed = None  # a closed claim the intervals cannot decide is not decided
        else:
            env = _point(ev["point"], domains, boxes)
            if not isinstance(ev["zero_test"], bool):
                raise Reject("zero_test must be true or false")
            # the zero test is used only when the certificate says so, and then it must be needed
            # the seed comes from the parsed point, so respelling it ("-8/2" for "-4") draws nothing new
            zero_seed = _hash_seed("counterexample", obj["claim_sha256"],
                                   canonical({k: str(v) for k, v in sorted(env.items())})) if ev["zero_test"] else None
        for n in raw:  # at the certificate's precision first (a proof at any precision is one), then 4x
            if not (defined_at(n, env, bits) or defined_at(n, env, min(4 * bits, MAX_PREC))):
                raise Reject("a term of the claim is not shown defined at the point (a denominator may be 0 "
                             "or a log argument not positive)")
        ks = []
        for h in hyps:
            v, k = decide(h, env, bits, zero_seed)
            if v is not True:
                raise Reject("a hypothesis does not hold at the point" if v is False
                             else "a hypothesis cannot be decided at the point")
            ks.append(k)
        v, k = decide(goal, env, bits, zero_seed)
        ks.append(k)
        k_min = min((k for k in ks if k), default=0)
        if kind == "counterexample" and ev["zero_test"] and not k_min:
            raise Reject("zero_test is true, but the point was not decided by the zero test")
        want = verdict == "PROVED"
        if v is None:
            raise Reject("goal cannot be decided rigorously at the point")
        if v is not want:
            raise Reject(f"goal evaluates to {v}, which contradicts verdict {verdict}")
        _margin_agrees(goal, env, bits, _margin(ev["margin"]))
        what = "closed claim" if kind == "interval" else "counterexample replayed"
        checked.append(f"{what}: hypotheses hold and goal is {v} in rational interval arithmetic ({bits} bits)"
                       + (f", equal sides by the zero test (false pass <= 2^-{k_min})" if k_min else ""))
        if k_min:
            trusted.append(SZ_TRUST)

    elif kind == "sample":
        env = _point(ev["worst_point"], domains, boxes)
        if type(ev["samples"]) is not int or ev["samples"] < 1:
            raise Reject("samples must be a positive integer")
        declared = {k: [str(lo), str(hi)] for k, (lo, hi) in boxes.items() if lo is not None and hi is not None}
        if ev["box"] != declared:
            raise Reject("the recorded sampling box differs from the claim's boxes")
        if ev["worst_margin"] is not None:
            if not isinstance(ev["worst_margin"], str) or goal[0] not in ("lt", "le", "gt", "ge"):
                raise Reject("worst_margin must be a decimal string, for a single inequality")
            _worst_margin_agrees(goal, env, ev["worst_margin"])
        if not all(defined_at(n, env, 256) for n in raw):
            raise Reject("a term of the claim is not shown defined at the worst sample")
        for h in hyps:
            v, _ = decide(h, env, 256)
            if v is not True:
                raise Reject("the worst sample does not satisfy the hypotheses (or they cannot be decided there)")
        v, _ = decide(goal, env, 256)
        if v is not True:
            raise Reject("the goal " + ("fails" if v is False else "cannot be decided") +
                         " at the recorded worst sample: CONFIRMED is not supported")
        checked.append("worst sample re-evaluated: goal holds there")
        trusted.append(f"sampled evidence, NOT a proof ({ev['samples']} samples)")

    elif kind in ("treemin", "treegrid"):  # the evidence fixes the claim's one integer variable
        name, value, done, trust = treecover.check_evidence(ev, smtlib.available(), solver_timeout)
        if domains != {name: "defined"} or hyps:
            raise Reject(f"{kind} evidence needs a claim with the one defined variable {name}")
        if decide(goal, {name: Fraction(value)}, 64)[0] is not (verdict == "PROVED"):
            raise Reject(f"goal at {name} = {value} contradicts verdict {verdict}")
        checked.extend(done)
        trusted.extend(trust)

    elif kind == "bnb":  # on the claim as written: a derivative node is refused there
        done, leaves = bnb.check(domains, raw[:-1], raw[-1], ev, lambda n: _spend(n, "a branch-and-bound leaf"))
        if ev["leaves"] != leaves:
            raise Reject("bnb: the recorded number of leaves differs from the tree's")
        checked.extend(done)

    else:  # none
        if not isinstance(ev["reason"], str) or not ev["reason"]:
            raise Reject("UNKNOWN needs a reason")
        checked.append(f"UNKNOWN with reason: {ev['reason']}")
    return verdict, checked, trusted


def _solvers_agree(recorded, texts: list, solver_timeout: float) -> None:
    """Every query unsat on every installed solver; the recorded answers must all be unsat too. Each query
    runs alone (attack round 8: joining the definedness side queries into one conjunction made some far
    harder, and cvc5 then ran past its resource limit to the wall-clock kill)."""
    if not isinstance(recorded, dict) or any(v != "unsat" for v in recorded.values()) or \
            not set(recorded) <= {"z3", "cvc5"}:
        raise Reject("solver evidence must record unsat from each solver")
    if not texts:
        return
    solvers = smtlib.available()
    if not solvers:
        raise CannotCheck(f"cannot re-run SMT queries: {NO_SOLVER}")
    for name, run in solvers.items():
        for text in texts:
            try:
                ans = run(text, solver_timeout)
            except Exception as e:  # solver crash: not a verification
                raise Reject(f"{name} failed: {e.__class__.__name__}") from None
            if ans != "unsat":
                raise Reject(f"{name} answered {ans} (not unsat) on re-run")


def _sort_of(n) -> str | None:
    try:
        return _tree_sort(_unmark(n))
    except Reject:
        return None


def _has_family(n) -> bool:
    return n[0] in FAMILY_OPS or any(isinstance(c, tuple) and _has_family(c) for c in n[1:])


def kind_needs_values(ev) -> bool:
    return isinstance(ev, dict) and ev.get("kind") in ("interval", "counterexample", "sample", "bnb")


def collect(paths) -> list[str]:
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, files in os.walk(p):
                out.extend(os.path.join(root, f) for f in files if f.endswith(".json"))
        else:
            out.append(p)
    return sorted(out)


def _match(pat, term, cvars: dict, sub: dict) -> bool:
    """Does ``term`` equal ``pat`` with each of the cited claim's variables (``cvars``: name -> domain)
    replaced by one subterm, consistently? Binds ``sub``. An integer variable only takes an integer
    variable or an integer constant; a derivative's variable only another variable."""
    if pat[0] in NAMED and pat[1] in cvars:
        if pat[1] in sub:
            return sub[pat[1]] == term
        dom = cvars[pat[1]]
        # the leaf a variable of each kind is written with, and the sort of the term it takes: body, pred
        # and setbody terms may use the index ["idx"] of the big operator they stand under (docs/axioms.md,
        # "Indexed families", "Finite sets"); every other variable is one value, never a function of it
        leaf, want = KINDS.get(dom, ("var", "real"))
        if pat[0] != leaf or _sort_of(term) != want:
            return False
        if dom == "vecs" and term[0] != "vseq":   # a family variable takes a family of the claim, by name, only
            return False
        if dom not in ("body", "pred", "setbody") and free_idx(term):
            return False
        if dom == "int" and not _int_term(term):
            return False
        sub[pat[1]] = term
        return True
    if pat[0] == "inst":   # only in an axiom's goal: F at the index term t (docs/axioms.md, "Instances at an index")
        return _match_inst(pat, term, cvars, sub)
    if pat[0] == "swap":   # only in an axiom's goal: P, bound earlier, with its two free indices exchanged
        body = sub.get(pat[1][1]) if pat[1][0] == "var" else None
        if body is None:
            return False
        try:
            return axiom_list.swap_idx(body) == term
        except Reject:
            return False
    if pat[0] != term[0] or len(pat) != len(term):
        return False
    if pat[0] in ("num",) + NAMED:
        return pat[1] == term[1]
    if pat[0] == "idx":
        return pat == term   # the same level: the same big operator
    if pat[0] == "diff":
        if not isinstance(term[2], str) or not _match(("var", pat[2]), ("var", term[2]), cvars, sub):
            return False
        return _match(pat[1], term[1], cvars, sub)
    if pat[0] == "pow" and pat[2] != term[2]:
        return False
    return all(_match(a, b, cvars, sub) for a, b in zip(pat[1:], term[1:]) if isinstance(a, tuple))


def _int_term(n) -> bool:
    """An integer constant, an integer variable of the claim, or a sum, product or negation of such: a term that
    is an integer wherever it is evaluated (what an integer axiom variable may take, e.g. K - 1 for N in
    sum_const)."""
    if n[0] == "num":
        return n[1].denominator == 1
    if n[0] in ("add", "mul", "neg"):
        return all(_int_term(c) for c in n[1:])
    return n[0] == "ivar"


def _match_inst(pat, term, cvars: dict, sub: dict) -> bool:
    """["inst", F, t] against ``term``: F is already bound (it occurs earlier in the goal) to a body or formula
    B with a free ["idx"]; ``term`` must be B with that index replaced by t's instance, t's variables bound from
    the place of the index in ``term``. A B without a free index would leave t unfixed: no match."""
    f, t = pat[1], pat[2]
    body = sub.get(f[1]) if f[0] == "var" else None
    if body is None or not free_idx(body):
        return False
    image = axiom_list.idx_image(body, term)
    if image is None or not _match(t, image, cvars, sub):
        return False
    try:
        return axiom_list.subst_idx(body, _subst(t, sub)) == term
    except Reject:   # an index would dangle or nest too deep: not an instance
        return False


BIND_BUDGET = 50_000  # match attempts of the binding search, per link (then the greedy binding is kept)


class _OutOfBudget(Exception):
    pass


def _bind_rest(patterns: list, own: list, skip: int, cvars: dict, sub: dict) -> dict:
    """Fix the cited variables that the goal leaves free (an intermediate term of a chain, say): search,
    with backtracking, for a binding under which every cited hypothesis is one of the citing hypotheses
    (``skip``, the citing hypothesis itself, aside), trying the citing hypotheses in order. A search past
    BIND_BUDGET match attempts, or one that finds none, falls back to the first consistent match of each
    pattern in order. Any instance is sound: the caller then requires every instantiated cited hypothesis to
    be a hypothesis of the citing claim."""
    present = {y for j, y in enumerate(own) if j != skip}
    budget = [BIND_BUDGET]

    def search(k: int, cur: dict):
        if k == len(patterns):
            return cur
        pat = patterns[k]
        if all(v in cur for v in _free(pat) if v in cvars):
            try:
                inst = _subst(pat, cur)
            except Reject:  # a derivative's variable sent to a non-variable: not this binding (the caller says why)
                return None
            return search(k + 1, cur) if inst in present else None
        for j, y in enumerate(own):
            if j == skip:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfBudget
            trial = dict(cur)
            if _match(pat, y, cvars, trial):
                found = search(k + 1, trial)
                if found is not None:
                    return found
        return None

    if len(patterns) <= 400:  # the recursion is one level per cited hypothesis
        try:
            found = search(0, dict(sub))
        except _OutOfBudget:
            found = None
        if found is not None:
            return found
    for pat in patterns:
        if all(v in sub for v in _free(pat) if v in cvars):
            continue
        for j, y in enumerate(own):
            trial = dict(sub)
            if j != skip and _match(pat, y, cvars, trial):
                sub = trial
                break
    return sub


def _subst(n, sub: dict):
    if n[0] in NAMED:
        return sub.get(n[1], n)
    if n[0] in ("num", "idx"):
        return n
    if n[0] == "diff":
        v = sub.get(n[2], ("var", n[2]))
        if v[0] != "var":  # d/dy h(y) at y := -1 is h'(-1), not the derivative of the constant h(-1)
            raise Reject("a derivative's variable would be replaced by a term that is not a variable")
        return ("diff", _subst(n[1], sub), v[1])
    return (n[0],) + tuple(_subst(c, sub) if isinstance(c, tuple) else c for c in n[1:])


def _mark_int_vars(n, domains):
    """The citing claim's integer variables as ('ivar', name), so that _match can tell them apart."""
    if n[0] == "var":
        return ("ivar", n[1]) if domains.get(n[1]) == "int" else n
    if n[0] in ("num", "idx", "vvar", "seq", "vseq", "dim", "pi"):
        return n
    return (n[0],) + tuple(_mark_int_vars(c, domains) if isinstance(c, tuple) else c for c in n[1:])


def _diff_ok(n, sub: dict, cvars: dict) -> bool:
    """A derivative survives instantiation only when its variable x goes to a real variable y that no
    other variable of its body is sent to a term containing (otherwise d/dx f(x, z) with z := y would
    become the total derivative of f(y, y): a different number)."""
    if n[0] == "diff":
        img = sub.get(n[2])
        if img is None or img[0] != "var" or cvars.get(n[2]) != "real":
            return False
        for z in _free(n[1]) - {n[2]}:
            if z in sub and img[1] in _free(_unmark(sub[z])):
                return False
    return all(_diff_ok(c, sub, cvars) for c in n[1:] if isinstance(c, tuple))


def _unmark(n):
    if n[0] == "ivar":
        return ("var", n[1])
    if n[0] in ("num", "idx") + NAMED:
        return n
    return (n[0],) + tuple(_unmark(c) if isinstance(c, tuple) else c for c in n[1:])


def axiom_instances(claim: dict, hyps: list, domains: dict, solver_timeout: float, prove: bool, goal=None,
                    boxes: dict | None = None) -> tuple[dict, int]:
    """({hypothesis index: axiom name}, number of SMT queries re-run) for the hypotheses that cite an
    axiom. Raises Reject unless each is an instance of its axiom. For a PROVED certificate (``prove``)
    every instantiated condition of the axiom must also be another hypothesis or follow from the
    hypotheses before it (re-run here as SMT goals, with their definedness conditions, on every
    installed solver); for other verdicts the sources of the hypotheses establish nothing, so the
    derivations are not re-run."""
    cites = [(i, h["by"][6:]) for i, h in enumerate(claim["hyps"]) if h.get("by", "").startswith("axiom:")]
    if len(cites) > axiom_list.MAX_CITATIONS:
        raise Reject(f"more than {axiom_list.MAX_CITATIONS} axiom citations in one claim")
    own = [_mark_int_vars(h, domains) for h in hyps]
    out, done = {}, set()
    bound: dict = {}   # witness -> the hypothesis that binds it
    _, table = axiom_list.axioms()
    for i, name in cites:
        sub: dict = {}
        _, derived = axiom_list.check_instance(name, hyps, i, domains, _match, _subst, _mark_int_vars, _unmark, own,
                                               sub)
        if table[name][4]:
            _check_witnesses(claim, hyps, goal, domains, boxes or {}, i, name, sub, bound)
        for cond in derived if prove else ():
            mains, sides, _, _ = smtlib.plan(domains, hyps[:i], cond)
            todo = [q for q in mains + sides if q not in done]  # a query already shown unsat is not re-run
            try:
                _solvers_agree({"z3": "unsat"}, todo, solver_timeout)
            except CannotCheck:
                raise
            except Reject as e:
                raise Reject(f"hypothesis {i + 1} cites axiom {name}, but a condition of it is neither "
                             f"another hypothesis nor shown from the hypotheses before it ({e})") from None
            done.update(todo)
        out[i] = name
    return out, len(done)


def _check_witnesses(claim: dict, hyps: list, goal, domains: dict, boxes: dict, i: int, name: str, sub: dict,
                     bound: dict) -> None:
    """Existential elimination (docs/axioms.md, "Existence"): hypothesis ``i`` cites the existence axiom
    ``name`` under the substitution ``sub`` (integer variables marked). Each must be a variable of the claim of the witness's own kind,
    without a box, bound by no other citation, and absent from the goal, from every plain hypothesis, from
    every hypothesis before ``i`` and from the terms the citation gives the axiom's other variables. Then the
    claim proves, for every value of the witnesses, "hypotheses => goal", and the witness can be chosen (the
    axiom, its conditions shown from what comes before) without touching anything the goal or the plain
    hypotheses say. Raises Reject. (That the hypotheses the citation rests on come before it, also through
    links, is checked with the set: verify_paths.)"""
    _, table = axiom_list.axioms()
    kinds, wit = table[name][0], table[name][4]
    terms = [_unmark(t) for v, t in sub.items() if v not in wit]
    for w, img in ((w, sub[w]) for w in wit):
        kind = kinds[w]
        leaf = _unmark(img)
        if leaf[0] != ("seq" if kind == "seq" else "var") or domains.get(leaf[1]) != kind \
                or (kind != "seq" and img != (("ivar", leaf[1]) if kind == "int" else leaf)) \
                or boxes.get(leaf[1], (None, None)) != (None, None):
            raise Reject(f"hypothesis {i + 1} cites the existence axiom {name}: its witness {w} must be a variable "
                         f"of the claim declared {kind}, without a box")
        v = leaf[1]
        if v in bound:
            raise Reject(f"hypothesis {i + 1} cites {name} with the witness {v}, which hypothesis {bound[v] + 1} "
                         "already binds")
        bound[v] = i
        where = ([("the goal", goal)] if goal is not None else []) + \
            [(f"hypothesis {j + 1}", h) for j, (h, raw) in enumerate(zip(hyps, claim["hyps"]))
             if j < i or "by" not in raw] + [("a term of the citation", t) for t in terms]
        for what, n in where:
            if v in _free(n):
                raise Reject(f"hypothesis {i + 1} cites the existence axiom {name} with the witness {v}, which "
                             f"occurs in {what} (a witness may occur only in sourced hypotheses after it)")


def existence_citations(claim: dict) -> list[int]:
    """The hypotheses that cite an existence axiom."""
    _, table = axiom_list.axioms()
    return [i for i, h in enumerate(claim["hyps"]) if h.get("by", "").startswith("axiom:")
            and h["by"][6:] in table and table[h["by"][6:]][4]]


def axiom_dep_map(claim: dict, hyps: list, domains: dict) -> dict:
    """{index: the hypotheses the axiom instance at index rests on}: its conditions that are hypotheses,
    and, when some condition was shown by SMT, every hypothesis before it."""
    own = [_mark_int_vars(h, domains) for h in hyps]
    out = {}
    for i, h in enumerate(claim["hyps"]):
        if h.get("by", "").startswith("axiom:"):
            carried, derived = axiom_list.check_instance(h["by"][6:], hyps, i, domains, _match, _subst,
                                                         _mark_int_vars, _unmark, own)
            out[i] = sorted(set(carried) | (set(range(i)) if derived else set()))
    return out


MVT = "mvt:"
MVT_TRUST = ("the mean value theorem: a function differentiable on (L, U) and continuous on [L, U] changes by "
             "f'(xi) (U - L) for some xi in (L, U) (Rudin, Principles of Mathematical Analysis, Thm 5.10)")
_MVT_CONCLUSION = {"gt": "lt", "ge": "le", "lt": "gt", "le": "ge"}  # sign of f' -> relation of f(L), f(U)


def source_id(by: str) -> str:
    """The certificate id a hypothesis's source names (the monotonicity rule's 'mvt:' and a link at every
    index's 'each:VAR:' stripped)."""
    if by.startswith(EACH):
        return by[len(EACH):].partition(":")[2]
    return by[len(MVT):] if by.startswith(MVT) else by


# a link at every index (docs/axioms.md, "Links at every index"): 'each:t:C' on forall(N, B) says B is C's goal
# with C's integer variable t replaced by the forall's index
EACH = "each:"


CASES = "cases:"
_POLY = {"num", "var", "add", "mul", "neg"}


def source_ids(by: str) -> list[str]:
    """The certificate ids a hypothesis's source names: 'cases:A,B' names two."""
    if by.startswith(CASES):
        return by[len(CASES):].split(",")
    return [source_id(by)]


def _polynomial(n) -> bool:
    """Built from numbers and variables by +, *, - and natural powers only: defined everywhere."""
    if n[0] == "pow":
        return n[2] >= 0 and _polynomial(n[1])
    return n[0] in _POLY and all(_polynomial(c) for c in n[1:] if isinstance(c, tuple))


def check_cases(citing: dict, hyp_index: int, pos: dict, neg: dict) -> tuple[str | None, list[int]]:
    """Proof by cases on the sign of a polynomial T. ``pos`` proves G with, first, the plain hypothesis
    T1 >= 0 and then the hypotheses H1; ``neg`` proves G' with, first, T2 <= 0 and then H2. Hypothesis ``hyp_index`` of
    ``citing`` may be an instance of both goals, under instances that send T1 and T2 to the same polynomial
    T, when every instantiated plain hypothesis of H1 and H2 is another hypothesis of ``citing`` (carried;
    the caller checks that both cited certificates are verified with their sources, so their sourced
    hypotheses hold wherever their plain ones do): at every point, T >= 0 or T <= 0, and a polynomial is
    defined everywhere. Returns (None, carried) or
    (reason, [])."""
    dom, _, hyps, _ = _claim(citing["claim"])
    own = [_mark_int_vars(y, dom) for y in hyps]
    h = own[hyp_index]
    terms, carried = [], []
    for c, rel in ((pos, "ge"), (neg, "le")):
        cdom, _, chyps, cgoal = _claim(c["claim"])
        if "defined" in cdom.values():
            return f"{c['id']} states a defined quantity, not a lemma", []
        if not chyps or "by" in c["claim"]["hyps"][0] or chyps[0][0] != rel or chyps[0][2] != ("num", Fraction(0)):
            return f"the first hypothesis of {c['id']} must be the plain case T {'>=' if rel == 'ge' else '<='} 0", []
        if not _polynomial(chyps[0][1]):
            return f"the case term of {c['id']} must be a polynomial (defined everywhere)", []
        case = chyps[0]
        # only the plain hypotheses are carried: the sourced ones hold wherever the plain ones do (the cited
        # certificate is verified with its sources), even where they rest on the case itself
        plain = [ch for ch, raw in zip(chyps[1:], c["claim"]["hyps"][1:]) if "by" not in raw]
        sub: dict = {}
        if not _match(cgoal, h, cdom, sub):
            return f"hypothesis {hyp_index + 1} is not an instance of the goal of {c['id']}", []
        sub = _bind_rest(plain, own, hyp_index, cdom, sub)
        if any(v not in sub for ch in plain + [case] for v in _free(ch)):
            return f"a hypothesis of {c['id']} has a variable that the case split does not fix", []
        if not all(_diff_ok(n, sub, cdom) for n in plain + [case, cgoal]):
            return f"the instance of {c['id']} moves a derivative's variable (not a valid instance)", []
        got = _present(plain, sub, own, hyp_index)
        if got is None:
            return f"a hypothesis of {c['id']}, instantiated, is not another hypothesis of {citing['id']}", []
        carried += got
        terms.append(_subst(case[1], sub))
    if terms[0] != terms[1]:
        return f"the two cases {pos['id']} and {neg['id']} split on different terms", []
    return None, sorted(set(carried))


def _cases_link(obj: dict, i: int, src: str, ok: dict) -> tuple:
    """(reason, (pos id, neg id), carried) for a 'cases:POS,NEG' source."""
    ids = src[len(CASES):].split(",")
    if len(ids) != 2 or ids[0] == ids[1]:
        return f"hypothesis {i + 1}: 'cases:' names two different certificates", None, []
    for one in ids:
        if one not in ok:
            return f"hypothesis {i + 1} rests on {one[:80]!r}, which is not a certificate in this set", None, []
        if ok[one][1]["verdict"] != "PROVED":
            return f"hypothesis {i + 1} rests on {one}, which is {ok[one][1]['verdict']}", None, []
    try:
        reason, carried = check_cases(obj, i, ok[ids[0]][1], ok[ids[1]][1])
    except (Reject, RecursionError) as e:
        reason, carried = f"case split on {src[:80]} cannot be checked: {e}", []
    return reason, tuple(ids), carried


def check_mvt(citing: dict, hyp_index: int, cited: dict, solver_timeout: float) -> tuple[str | None, list[int]]:
    """The monotonicity rule. ``cited`` proves f' REL 0 on an interval: one real variable x, exactly two
    plain hypotheses (no source) that mention x (x > L or x >= L, and x < U or x <= U, with L and U free of x), and the goal
    diff(f, x) REL 0 with REL in >, >=, <, <=; its hypotheses with a source (links, axiom instances) may
    mention x, since they hold at every x once the plain ones do, and the cited certificate must itself be
    verified with its sources (the caller checks that). Hypothesis ``hyp_index`` of ``citing`` may then be
    f(L) < f(U) (for f' > 0; <= for >=, > for <, >= for <=) under one consistent instance of the cited
    variables. Conditions: every other plain hypothesis of the cited claim, instantiated, is a hypothesis of the
    citing claim (carried); and L < U (L <= U for a non-strict sign), with every term of f(L) and f(U)
    defined, follows from the hypotheses before the citing one (re-run here as SMT goals with their
    definedness conditions; then every earlier hypothesis is carried). By the mean value theorem: f is
    differentiable on (L, U) (the cited claim's derivative is defined there), continuous at L and U (defined
    there, and every operator whose derivative is allowed is continuous where defined), and f(U) - f(L) =
    f'(xi) (U - L). Returns (None, carried) or (reason, [])."""
    cdom, _, chyps, cgoal = _claim(cited["claim"])
    if "defined" in cdom.values():
        return f"{cited['id']} states a defined quantity, not a lemma", []
    if cgoal[0] not in _MVT_CONCLUSION or cgoal[1][0] != "diff" or cgoal[2] != ("num", Fraction(0)):
        return f"the goal of {cited['id']} is not diff(f, x) compared with 0", []
    f, x = cgoal[1][1], cgoal[1][2]
    if cdom.get(x) != "real" or x not in _free(f):
        return f"the goal of {cited['id']} is not the derivative of a function of the real variable {x}", []
    plain = [h for h, raw in zip(chyps, cited["claim"]["hyps"]) if "by" not in raw]
    lower = [h for h in plain if h[0] in ("gt", "ge") and h[1] == ("var", x) and x not in _free(h[2])]
    upper = [h for h in plain if h[0] in ("lt", "le") and h[1] == ("var", x) and x not in _free(h[2])]
    if len(lower) != 1 or len(upper) != 1:
        return (f"{cited['id']} must bound {x} by exactly one plain hypothesis x > L (or >=) and one x < U (or "
                f"<=), and no other plain hypothesis may mention {x}"), []
    L, U = lower[0][2], upper[0][2]
    defs, defined = _mvt_definitions([h for h in plain if h is not lower[0] and h is not upper[0]], x, cdom,
                                     _free(f) | _free(L) | _free(U))
    rest = [h for h in plain if h is not lower[0] and h is not upper[0] and h not in defs]
    if any(({x} | defined) & _free(h) for h in rest):
        return (f"{cited['id']} must bound {x} by exactly one plain hypothesis x > L (or >=) and one x < U (or "
                f"<=), and no other plain hypothesis may mention {x} (or a variable defined from it)"), []
    dom, _, hyps, _ = _claim(citing["claim"])
    h = _mark_int_vars(hyps[hyp_index], dom)
    if h[0] != _MVT_CONCLUSION[cgoal[0]]:
        return f"hypothesis {hyp_index + 1} must compare f(L) and f(U) with {_MVT_CONCLUSION[cgoal[0]]!r}", []
    sub_l: dict = {}
    if not _match(f, h[1], cdom, sub_l) or x not in sub_l:
        return f"the left side of hypothesis {hyp_index + 1} is not f(L) for the f of {cited['id']}", []
    sub: dict = {k: v for k, v in sub_l.items() if k != x}
    if not _match(f, h[2], cdom, sub) or x not in sub:
        return f"the right side of hypothesis {hyp_index + 1} is not f(U) for the same instance of {cited['id']}", []
    others = {k: d for k, d in cdom.items() if k != x}
    for end, img in ((L, sub_l[x]), (U, sub[x])):  # L and U may name variables that f does not
        trial = dict(sub)
        if _match(end, img, others, trial):
            sub = trial
    own = [_mark_int_vars(y, dom) for y in hyps]
    sub = _bind_rest(rest, own, hyp_index, others, sub)
    free_lu = _free(L) | _free(U) | {v for ch in rest for v in _free(ch)}
    if any(v not in sub or v == x for v in free_lu - {x}) or x in free_lu:
        return f"L, U or a hypothesis of {cited['id']} has a variable that the rule does not fix", []
    # a definition's other variables are fixed too, so that at each x its witness v = t(x) is one value
    if any(v not in sub for d in defs for v in _free(d[2]) - defined - {x}):
        return f"a definition in {cited['id']} has a variable that the rule does not fix", []
    at_l, at_u = dict(sub, **{x: sub_l[x]}), dict(sub)
    # every instantiated piece: f and L at L, f and U at U, the carried hypotheses (attack round 11: a
    # derivative inside L or a carried hypothesis, its variable sent to a number, read as a constant's)
    if not all(_diff_ok(n, at_l, cdom) for n in (f, L)) or not all(_diff_ok(n, at_u, cdom) for n in [f, U] + rest):
        return f"the instance of {cited['id']} moves a derivative's variable (not a valid instance)", []
    if at_l[x] != _subst(L, at_l) or at_u[x] != _subst(U, at_u):
        return f"hypothesis {hyp_index + 1} evaluates f at points other than L and U of {cited['id']}", []
    carried = _present(rest, sub, own, hyp_index)
    if carried is None:
        return f"a hypothesis of {cited['id']}, instantiated, is not another hypothesis of {citing['id']}", []
    strict = cgoal[0] in ("gt", "lt")
    order = (("lt" if strict else "le"), _unmark(at_l[x]), _unmark(at_u[x]))
    defined = ("and", ("eq", _unmark(h[1]), _unmark(h[1])), ("eq", _unmark(h[2]), _unmark(h[2])))
    for cond in (order, defined):
        mains, sides, _, _ = smtlib.plan(dom, hyps[:hyp_index], cond)
        try:
            _solvers_agree({"z3": "unsat"}, mains + sides, solver_timeout)
        except CannotCheck:
            raise
        except Reject as e:
            what = "L < U" if strict else "L <= U"
            if cond is defined:
                what = "f defined at L and U"
            return (f"hypothesis {hyp_index + 1} applies the mean value theorem to {cited['id']}, but {what} is not "
                    f"shown from the hypotheses before it ({e})"), []
    return None, sorted(set(carried) | set(range(hyp_index)))


def _mvt_definitions(plain: list, x: str, cdom: dict, used: set) -> tuple[list, set]:
    """The plain hypotheses of a claim cited by the monotonicity rule that *define* a variable from x: v = t,
    with v a real variable not in f, L or U (``used``), not in t, defined by no other plain hypothesis, and t
    mentioning x or a variable so defined; the definitions must not form a cycle. They are not carried: at each
    x in (L, U) the witness v = t(x) (in the order of the definitions) satisfies them, so the cited claim's
    conclusion holds at every such x (docs/axioms.md, "The monotonicity rule"). Returns (definitions, their
    variables)."""
    cands: dict = {}
    for h in plain:
        if h[0] == "eq" and h[1][0] == "var" and h[1][1] != x and cdom.get(h[1][1]) == "real" \
                and h[1][1] not in used and h[1][1] not in _free(h[2]):
            cands.setdefault(h[1][1], []).append(h)
    cands = {v: hs[0] for v, hs in cands.items() if len(hs) == 1}
    defined: set = set()
    changed = True
    while changed:   # the variables defined, directly or through others, from x
        changed = False
        for v, h in cands.items():
            if v not in defined and ({x} | defined) & _free(h[2]):
                defined.add(v)
                changed = True
    order: list = []
    while len(order) < len(defined):   # a definition only of x and of variables defined before it
        nxt = [v for v in sorted(defined - set(order)) if not (_free(cands[v][2]) & (defined - set(order)))]
        if not nxt:
            return [], set()   # a cycle: no definitions at all (every such hypothesis then blocks the rule)
        order += nxt
    return [cands[v] for v in order], defined


def check_link(citing: dict, hyp_index: int, cited: dict) -> tuple[str | None, list[int]]:
    """(None, carried) when hypothesis ``hyp_index`` of ``citing`` is an instance of ``cited``'s goal and
    every instantiated *plain* hypothesis of ``cited`` is another hypothesis of ``citing`` (their indices are
    ``carried``); else (the reason it is not, []). The sourced hypotheses of ``cited`` are not carried: the
    caller requires ``cited`` to be verified with its sources, so each of them holds wherever its plain ones do
    (by induction over its acyclic sources: an axiom instance whose conditions hold, a link whose plain
    hypotheses are there, ...), and ``cited`` proves "plain hypotheses => goal" for all values of its variables,
    a statement its instance keeps (as for a case split, docs/theorems.md, "Links")."""
    cdom, _, chyps_all, cgoal = _claim(cited["claim"])
    if "defined" in cdom.values():
        return f"{cited['id']} states a defined quantity (a tree minimum or count), not a lemma to instantiate", []
    chyps = [ch for ch, raw in zip(chyps_all, cited["claim"]["hyps"]) if "by" not in raw]
    dom, _, hyps, _ = _claim(citing["claim"])
    mark = lambda n: _mark_int_vars(n, dom)  # noqa: E731
    h = mark(hyps[hyp_index])
    sub: dict = {}
    if not _match(cgoal, h, cdom, sub):
        return f"hypothesis {hyp_index + 1} is not an instance of the goal of {cited['id']}", []
    own = [mark(x) for x in hyps]
    reason, carried = _carry(chyps, cgoal, own, hyp_index, cdom, sub, cited["id"])
    if reason is None and carried is None:
        return f"a hypothesis of {cited['id']}, instantiated, is not another hypothesis of {citing['id']}", []
    return reason, carried or []


def _carry(pats: list, goal, own: list, skip: int, cvars: dict, sub: dict, cid: str):
    """The common end of a link's check: fix the cited variables the goal left free (_bind_rest over ``own``),
    then require every one fixed, no derivative's variable moved, and every pattern instantiated among ``own``.
    (reason, None) on a failure of the first two, (None, None) when a pattern is absent, (None, carried) else."""
    sub = _bind_rest(pats, own, skip, cvars, sub)
    if any(v not in sub for p in pats for v in _free(p)):
        return f"a hypothesis of {cid} has a variable that the link does not fix", None
    if not all(_diff_ok(n, sub, cvars) for n in pats + [goal]):
        return f"the instance of {cid} moves a derivative's variable (not a valid instance)", None
    return None, _present(pats, sub, own, skip)


def check_each(citing: dict, hyp_index: int, cited: dict, var: str) -> tuple[str | None, list[int]]:
    """A link at every index: hypothesis ``hyp_index`` of ``citing`` is forall(N, B), and B is ``cited``'s goal
    with its integer variable ``var`` replaced by the forall's index (at the level of the place it stands) and
    every other cited variable by one term without an index; every plain hypothesis of ``cited``, so
    instantiated, must be the body of another hypothesis forall(N, .) with the same N (their indices are
    ``carried``). Sound as a link is: ``cited`` proves "plain hypotheses => goal" for every integer value of
    ``var``, so at each integer i in [1, N] where the carried hypotheses hold, so does B."""
    cdom, _, chyps_all, cgoal = _claim(cited["claim"])
    if "defined" in cdom.values():
        return f"{cited['id']} states a defined quantity (a tree minimum or count), not a lemma to instantiate", []
    if cdom.get(var) != "int":
        return f"{str(var)[:40]!r} is not an integer variable of {cited['id']}", []
    chyps = [ch for ch, raw in zip(chyps_all, cited["claim"]["hyps"]) if "by" not in raw]
    dom, _, hyps, _ = _claim(citing["claim"])
    own = [_mark_int_vars(x, dom) for x in hyps]
    h = own[hyp_index]
    if h[0] != "forall":
        return f"hypothesis {hyp_index + 1} cites {cited['id']} at every index but is not a forall", []
    try:
        goal, pats = _var_to_idx(cgoal, var), [_var_to_idx(ch, var) for ch in chyps]
    except Reject as e:
        return f"{cited['id']} at every index of {var}: {e}", []
    cvars = {k: v for k, v in cdom.items() if k != var}
    sub: dict = {}
    if not _match(goal, h[2], cvars, sub):
        return f"hypothesis {hyp_index + 1} is not {cited['id']}'s goal at every index of {var}", []
    # the carried hypotheses: bodies of foralls over the same N (anything else can match no pattern)
    bodies = [y[2] if y[0] == "forall" and y[1] == h[1] else ("num", Fraction(0)) for y in own]
    reason, carried = _carry(pats, goal, bodies, hyp_index, cvars, sub, cited["id"])
    if reason is None and carried is None:
        return (f"a hypothesis of {cited['id']}, instantiated at every index, is not the body of another "
                f"hypothesis forall(N, .) of {citing['id']} with the same N"), []
    return reason, carried or []


def _var_to_idx(n, var: str, depth: int = 0):
    """``n`` with the variable ``var`` replaced by the index of a big operator around n (["idx", depth] under
    ``depth`` of n's own). Reject if it occurs in a bound or as a derivative's variable, or nests too deep."""
    if n[0] == "var" and n[1] == var:
        if depth > axiom_list.MAX_LEVEL:
            raise Reject("it would nest too deep")
        return ("idx",) if depth == 0 else ("idx", depth)
    if n[0] in ("num", "idx") + NAMED:
        return n
    if n[0] == "diff":
        if n[2] == var:
            raise Reject("it is a derivative's variable")
        return ("diff", _var_to_idx(n[1], var, depth), n[2])
    if n[0] in axiom_list.BINDERS:
        if var in _free(n[1]):
            raise Reject("it occurs in the bound of a big operator")
        return (n[0], n[1], _var_to_idx(n[2], var, depth + 1))
    return (n[0],) + tuple(_var_to_idx(c, var, depth) if isinstance(c, tuple) else c for c in n[1:])


def _present(patterns: list, sub: dict, own: list, skip: int) -> list[int] | None:
    """The index of a citing hypothesis (not ``skip``) equal to each pattern instantiated; None if one is absent."""
    out = []
    for pat in patterns:
        inst = _subst(pat, sub)
        js = [j for j, y in enumerate(own) if j != skip and y == inst]
        if not js:
            return None
        out.append(js[0])
    return out


CANNOT_CHECK_EXIT = 3  # verify's exit code when some certificate cannot be checked here and none is rejected


def _check_file(f: str, solver_timeout: float) -> tuple:
    """("ok", cert, checked, trusted) or (status, reason) for one file; never raises."""
    try:
        obj = load(f)
        if obj.get("schema") == theorem_certs.THEOREM_SCHEMA:
            theorem_certs.validate(obj, digest, _no_control)
            return "theorem", obj
        verdict, checked, trusted = check_cert(obj, solver_timeout)
        return "ok", obj, checked, trusted
    except TooMuchWork as e:
        return "REJECTED", str(e)
    except CannotCheck as e:
        return "CANNOT CHECK", str(e)
    except Reject as e:
        return "REJECTED", str(e)
    except Exception as e:  # noqa: BLE001 - any other failure on hostile input is a rejection of this file
        return "REJECTED", f"malformed certificate ({e.__class__.__name__})"


def _check_indexed(args):
    i, f, solver_timeout = args
    return i, _check_file(f, solver_timeout)


def _check_all(files: list, solver_timeout: float, jobs: int) -> list:
    """``_check_file`` of every file, in file order; ``jobs`` forked worker processes (each with its
    own solver processes). The verdict of a file does not depend on ``jobs``."""
    tick = _progress(len(files))
    if jobs <= 1 or len(files) <= 1:
        res = []
        for f in files:
            res.append(_check_file(f, solver_timeout))
            tick(len(res))
        return res
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    out: list = [None] * len(files)
    # not a multiprocessing.Pool: its workers are daemons, which may not start the solver processes
    with ProcessPoolExecutor(min(jobs, len(files)), mp_context=mp.get_context("fork")) as pool:
        for n, (i, r) in enumerate(pool.map(_check_indexed, [(i, f, solver_timeout) for i, f in enumerate(files)],
                                            chunksize=1), 1):
            out[i] = r
            tick(n)
    return out


def _progress(total: int):
    """Progress as log records on the ``attncert.checker`` logger (standard ``logging``; the command line
    shows INFO on stderr): nothing in the first 3 s, then a line every ATTNCERT_PROGRESS_EVERY seconds
    (default 10). The checker's own few lines, so that it imports nothing of the prover."""
    import logging
    import time

    log = logging.getLogger("attncert.checker")
    try:
        every = float(os.environ.get("ATTNCERT_PROGRESS_EVERY", ""))
    except ValueError:
        every = 0.0
    every = every if every > 0 else 10.0
    t0 = time.monotonic()
    last = [None]

    def tick(done: int) -> None:
        now = time.monotonic()
        if now - t0 < 3.0 or (last[0] is not None and now - last[0] < every):
            return
        last[0] = now
        log.info("verify: %d/%d certificates checked (%d%%), %.0f s", done, total, 100 * done // total, now - t0)
    return tick


def verify_paths(paths, out, solver_timeout: float = smtlib.SAFETY_WALL_S, quiet: bool = False,
                 report: list | None = None, allow_conditional: bool = False, jobs: int = 1) -> int:
    """Verify every certificate under ``paths``; print one line each; return 0 if all pass, else 1.

    A certificate is VERIFIED when its own evidence checks and every certificate it cites is in the set,
    PROVED itself, and its goal yields the citing hypothesis (checked by instance). A certificate whose
    evidence checks but whose links do not is CONDITIONAL (exit 1 unless ``allow_conditional``).
    Duplicate ids are rejected. When ``report`` is a list, one record per file is appended to it."""
    files = collect(paths)
    report = [] if report is None else report
    if not files:
        out.write("verify: no certificate files found\n")
        return 1
    bad = rejected = 0
    ok: dict[str, tuple[str, dict, list, list]] = {}  # id -> (file, cert, checked, trusted)
    seen: dict[str, str] = {}
    all_trust: set[str] = set()
    theorems: dict[str, tuple[str, dict]] = {}  # id -> (file, theorem certificate)
    for f, res in zip(files, _check_all(files, solver_timeout, jobs)):
        if res[0] in ("ok", "theorem") and (res[1]["id"] in seen or res[1]["id"] in theorems):
            res = ("REJECTED", f"duplicate id {res[1]['id']!r} (also in {seen.get(res[1]['id']) or theorems[res[1]['id']][0]})")
        if res[0] == "theorem":
            theorems[res[1]["id"]] = (f, res[1])
            continue
        if res[0] != "ok":
            bad += 1
            rejected += res[0] != "CANNOT CHECK"
            out.write(_safe(f"{res[0]} {f}: {res[1]}") + "\n")
            report.append({"path": f, "status": res[0], "reason": res[1]})
            continue
        _, obj, checked, trusted = res
        seen[obj["id"]] = f
        ok[obj["id"]] = (f, obj, checked, trusted)
    # which sourced hypotheses are established: by a link that checks, to a certificate that is itself
    # verified, with the cited hypotheses carried as other hypotheses that are plain or established;
    # anything circular is not established
    links: dict = {}
    for cid, (_f, obj, _c, _t) in ok.items():
        deps = None
        for i, h in enumerate(obj["claim"]["hyps"]):
            src = h.get("by")
            if src is None:
                continue
            if src.startswith("fact:"):  # free text: nothing establishes it, so it is an open premise
                links[(cid, i)] = (f"hypothesis {i + 1} rests on an unchecked premise ({src[5:85]!r}): neither a "
                                   "certificate nor an axiom instance", None, [])
                continue
            if src.startswith("axiom:"):  # the instance was checked with the file; its conditions are carried
                if deps is None:
                    dom, _, parsed, _ = _claim(obj["claim"])
                    deps = axiom_dep_map(obj["claim"], parsed, dom)
                links[(cid, i)] = (None, None, deps[i])
                continue
            if src.startswith(CASES):
                links[(cid, i)] = _cases_link(obj, i, src, ok)
                continue
            mvt, each, src = src.startswith(MVT), src[len(EACH):].partition(":")[0] if src.startswith(EACH) else None, \
                source_id(src)
            if src not in ok:
                links[(cid, i)] = (f"hypothesis {i + 1} rests on {src[:80]!r}, which is not a certificate in this set",
                                   None, [])
                continue
            if ok[src][1]["verdict"] != "PROVED":
                links[(cid, i)] = (f"hypothesis {i + 1} rests on {src}, which is {ok[src][1]['verdict']}", None, [])
                continue
            if mvt and obj["verdict"] != "PROVED":  # the rule is checked only for PROVED (attack round 16)
                links[(cid, i)] = (f"hypothesis {i + 1} cites the mean value theorem on {src}, whose conditions are "
                                   "checked only in a PROVED certificate", src, [])
                continue
            try:
                reason, carried = (check_mvt(obj, i, ok[src][1], solver_timeout) if mvt
                                   else check_each(obj, i, ok[src][1], each) if each is not None
                                   else check_link(obj, i, ok[src][1]))
            except CannotCheck as e:
                reason, carried = f"the mean value theorem's conditions cannot be checked here: {e}", []
            except (Reject, RecursionError) as e:
                reason, carried = f"link to {src} cannot be checked: {e}", []
            links[(cid, i)] = (reason, src, carried)
    # existential elimination needs each existence citation to rest only on what comes before it, also through
    # the hypotheses that links and axiom conditions carry (docs/axioms.md, "Existence"): the witnesses are
    # then chosen in order, each from hypotheses that no later witness can change
    for cid, (_f, obj, _c, _t) in ok.items():
        for i in existence_citations(obj["claim"]):
            under, todo = set(), list(links[(cid, i)][2])
            while todo:
                j = todo.pop()
                if j in under:
                    continue
                under.add(j)
                todo.extend(links[(cid, j)][2] if (cid, j) in links else ())
            late = sorted(j for j in under if j >= i)
            if late:
                links[(cid, i)] = (f"hypothesis {i + 1} cites an existence axiom but rests, through the conditions "
                                   f"and links it carries, on hypothesis {late[0] + 1}, which is not before it", None, [])
    state: dict = {}
    sourced: dict = {}  # certificate id -> indices of its sourced hypotheses
    for (c, i) in links:
        sourced.setdefault(c, []).append(i)

    def cert_why(cid) -> list:
        """Reasons the certificate is not verified (empty: verified)."""
        key = ("cert", cid)
        if state.get(key) == "visiting":
            return [f"{cid} rests, through its sources, on itself (circular)"]
        if key in state:
            return state[key]
        state[key] = "visiting"
        why = []
        for i in sourced.get(cid, []):
            why.extend(hyp_why(cid, i))
        state[key] = why
        return why

    def hyp_why(cid, i) -> list:
        key = ("hyp", cid, i)
        if state.get(key) == "visiting":
            return [f"hypothesis {i + 1} of {cid} rests on itself through the hypotheses it carries (circular)"]
        if key in state:
            return state[key]
        state[key] = "visiting"
        reason, src, carried = links[(cid, i)]
        why = [reason] if reason else []
        if not reason:
            # src None: an axiom instance (checked with the file); a tuple: the two cases of a case split
            for one in ((src,) if isinstance(src, str) else src or ()):
                sub = cert_why(one)
                if sub:
                    why.append(f"hypothesis {i + 1} rests on {one}, which is not verified itself ({sub[0]})")
            for j in carried:
                if (cid, j) in links:
                    why.extend(hyp_why(cid, j))
        state[key] = why
        return why

    conditional = 0
    for cid, (f, obj, checked, trusted) in ok.items():
        try:
            why = list(dict.fromkeys(cert_why(cid)))
        except RecursionError:
            why = ["its chain of sources is too deep to check"]
        status = "VERIFIED" if not why or obj["verdict"] != "PROVED" else "CONDITIONAL"
        if obj["verdict"] != "PROVED" and why:
            trusted = trusted + [f"unchecked source: {w}" for w in why]
        rec = {"path": f, "status": status, "id": cid, "verdict": obj["verdict"], "checked": checked,
               "trusted": trusted}
        if status == "CONDITIONAL":
            conditional += 1
            rec["conditions"] = why
            out.write(_safe(f"CONDITIONAL {f}: {obj['verdict']} {cid} -- its own evidence checks, but: {why[0]}"
                            f"{f' (+{len(why) - 1} more)' if len(why) > 1 else ''}") + "\n")
        elif not quiet:
            out.write(_safe(f"OK {f}: {obj['verdict']} {cid} -- {'; '.join(checked)}") + "\n")
        report.append(rec)
        all_trust.update(trusted)
    theorems_ok = 0
    step_certs = {c: ok[c][1] for c in ok}
    stated = {t for t, (_, o) in theorems.items() if o["printed"] is None}
    parsed_claims: dict = {}

    def claim_of(c):  # each root's claim is parsed once, however many theorems name it
        if c["id"] not in parsed_claims:
            parsed_claims[c["id"]] = _claim(c["claim"])
        return parsed_claims[c["id"]]

    for tid, (f, obj) in theorems.items():
        try:
            computed, why, axioms = theorem_certs.evaluate(obj, step_certs, cert_why, claim_of, stated)
            status, reasons = theorem_certs.judge(obj, computed, why, axioms, digest)
            own = tid not in theorem_certs.released()
        except (Reject, RecursionError) as e:
            bad += 1
            rejected += 1
            out.write(_safe(f"REJECTED {f}: {e}") + "\n")
            report.append({"path": f, "status": "REJECTED", "reason": str(e)})
            continue
        rec = {"path": f, "status": status, "id": tid, "verdict": obj["verdict"], "theorem": True,
               "computed": computed, "blocking": why, "axioms": axioms, "checked": [], "trusted": [],
               "released": not own}
        if status == "CONDITIONAL":
            conditional += 1
            rec["conditions"] = reasons
            out.write(_safe(f"CONDITIONAL {f}: theorem {tid} -- {reasons[0]}") + "\n")
        elif not quiet:
            out.write(_safe(f"OK {f}: {computed} theorem {tid} ({obj['label']})"
                            + (" [not one of attncert's released results: its statement and instance range are "
                               "its author's" + ("; that its cases cover the statement is its author's word, not "
                                                 "checked" if obj.get("cases") is not None else "") + "]"
                               if own else "")
                            + (f" -- {why[0]}" if why and computed != "PROVED" else "")
                            + (f"; axioms: {', '.join(axioms)}" if axioms and computed.startswith("PROVED") else "")
                            + (f"; rests on cited results, not proved here: {', '.join(sorted(set(axioms) & axiom_list.cited()))}"
                               if set(axioms) & axiom_list.cited() and computed.startswith("PROVED") else ""))
                      + "\n")
        report.append(rec)
        theorems_ok += 1
    authors = [r["id"] for r in report if r.get("theorem") and r.get("released") is False]
    if authors:   # printed even with --quiet: a referee must see which results are not attncert's own statements
        out.write(_safe(f"{len(authors)} theorem certificate(s) not among attncert's released results (their "
                        f"statements, instance ranges and cases are their authors'): {', '.join(authors[:5])}"
                        + (" ..." if len(authors) > 5 else "")) + "\n")
    verified = len(ok) + theorems_ok - conditional
    out.write(f"verified {verified}/{len(files)} certificates" +
              (f", {conditional} conditional (PROVED from their hypotheses, but a source is unchecked)"
               if conditional else "") + (f", {bad} rejected or not checkable" if bad else "") + "\n")
    if smtlib.CHOSEN is not None and not {"z3", "cvc5"} <= smtlib.CHOSEN:
        out.write(f"SMT goals re-run on {', '.join(sorted(smtlib.CHOSEN))} only (--solvers); "
                  f"not re-run: {', '.join(n for n in ('z3', 'cvc5') if n not in smtlib.CHOSEN)}\n")
    if all_trust and not quiet:
        out.write("trusted:\n" + "".join(f"  - {_safe(t)}\n" for t in sorted(all_trust)))
    if rejected or (conditional and not allow_conditional):
        return 1
    if bad:  # only CANNOT CHECK: this machine lacks a solver; nothing was found wrong
        return CANNOT_CHECK_EXIT
    return 0

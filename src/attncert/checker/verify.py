"""attncert's independent checker: re-verifies certificate files without searching.

Imports: the standard library, fractions, and this package (qarith, trees, smtlib). z3 and cvc5 are
optional and only needed for SMT goals. Nothing from the provers is imported."""

from __future__ import annotations

import hashlib
import json
import os
from fractions import Fraction

from . import smtlib, treecover
from .qarith import MAX_PREC, Undecided
from .trees import Reject, identically_zero, ival, log_rewrite, no_diff, parse, parse_rational

SCHEMA = "attncert.cert/1"
VERDICTS = ("PROVED", "CONFIRMED", "UNKNOWN", "REFUTED")
TOP_KEYS = {
    "schema", "id", "family", "paper", "ref", "statement", "claim", "claim_sha256", "verdict", "expected",
    "finding", "repairs", "method", "evidence", "uses", "trust", "tools", "cert_sha256",
}
FINDING_KEYS = {"kind", "repair", "affects_conclusion", "note"}
EVIDENCE_KEYS = {
    "identity": {"kind", "prover", "trials"},
    "smt": {"kind", "solvers", "atoms", "side_queries"},
    "interval": {"kind", "bits", "margin"},
    "counterexample": {"kind", "point", "bits", "margin", "zero_test"},
    "sample": {"kind", "samples", "seed", "dps", "box", "worst_point", "worst_margin"},
    "none": {"kind", "reason"},
    "treemin": {"kind", "target", "T", "D", "minimum", "witness", "problem_below", "solvers"},
    "treegrid": {"kind", "target", "T", "D", "g", "points", "skipped", "failures"},
}
KIND_VERDICTS = {
    "identity": {"PROVED"}, "smt": {"PROVED"}, "interval": {"PROVED", "REFUTED"},
    "counterexample": {"REFUTED"}, "sample": {"CONFIRMED"}, "none": {"UNKNOWN"},
    "treemin": {"PROVED", "REFUTED"}, "treegrid": {"PROVED", "REFUTED"},
}
MAX_FILE_BYTES = 8 << 20


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
               prec: int | None = None, file_mb: float | None = None) -> None:
    """Resource limits of the checker (defaults: 5,000 digits, 200,000 nodes, depth 200, 131,072 bits,
    8 MiB). A certificate beyond any of them is REJECTED, naming the limit, before the work starts."""
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
        if v["domain"] not in ("real", "int", "defined") or not isinstance(v["name"], str) or v["name"] in domains:
            raise Reject(f"bad variable {str(v.get('name'))[:30]!r}")
        domains[v["name"]] = v["domain"]
        boxes[v["name"]] = (parse_rational(v["lo"]) if "lo" in v else None,
                            parse_rational(v["hi"]) if "hi" in v else None)
    hyps = []
    for h in obj["hyps"]:
        if not isinstance(h, dict) or not ({"expr"} <= set(h) <= {"expr", "by"}):
            raise Reject("malformed hypothesis")
        if "by" in h and not isinstance(h["by"], str):
            raise Reject("hypothesis 'by' must be a string")
        hyps.append(parse(h["expr"]))
    goal = parse(obj["goal"])
    return domains, boxes, hyps, goal


def decide(node, env: dict, bits: int):
    """Three-valued truth of a formula at a point, raising the precision once; connectives are decided
    from their parts; a relation between two equal expressions is decided by the zero test."""
    op = node[0]
    if op in ("and", "or", "not", "implies"):
        parts = [decide(c, env, bits) for c in node[1:]]
        vals = [p[0] for p in parts]
        zero = any(p[1] for p in parts)
        if op == "and":
            return (False if False in vals else (True if all(v is True for v in vals) else None)), zero
        if op == "or":
            return (True if True in vals else (False if all(v is False for v in vals) else None)), zero
        if op == "not":
            return (None if vals[0] is None else not vals[0]), zero
        return (True if (vals[0] is False or vals[1] is True) else
                (False if vals == [True, False] else None)), zero
    for b in (bits, 4 * bits):
        try:
            v = ival(node, env, min(b, MAX_PREC))
        except Undecided:
            v = None
        if v is not None:
            return v, False
    if op in ("lt", "le", "gt", "ge", "eq", "ne"):
        diff = log_rewrite(no_diff(("add", node[1], ("neg", node[2]))))
        try:
            if identically_zero(diff, [], seed=12345, fixed=env):
                return op in ("le", "ge", "eq"), True
        except (Undecided, Reject):
            pass
    return None, False


def _point(obj, domains) -> dict:
    if not isinstance(obj, dict) or set(obj) != set(domains):
        raise Reject("point must give every variable a value")
    env = {}
    for k, s in obj.items():
        q = parse_rational(s)
        if domains[k] == "int" and q.denominator != 1:
            raise Reject(f"integer variable {k} has value {s}")
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


def check_cert(obj: dict, solver_timeout: float = 30.0) -> tuple[str, list[str], list[str]]:
    """Verify one certificate. Returns (verdict, what was checked, what was trusted); raises Reject."""
    _check_keys(obj, TOP_KEYS, "certificate")
    if obj["schema"] != SCHEMA:
        raise Reject(f"unknown schema {str(obj['schema'])[:30]!r}")
    body = {k: v for k, v in obj.items() if k != "cert_sha256"}
    if digest(body) != obj["cert_sha256"]:
        raise Reject("cert_sha256 mismatch: the file was changed after it was written")
    for k in ("id", "family", "ref", "statement", "method"):
        if not isinstance(obj[k], str) or not obj[k]:
            raise Reject(f"field {k!r} must be a non-empty string")
    if obj["paper"] not in ("ks", "infoflow"):
        raise Reject(f"unknown paper {str(obj['paper'])[:20]!r}")
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
    ev = obj["evidence"]
    if kind_needs_values(ev):
        hyps, goal = [no_diff(h) for h in hyps], no_diff(goal)
    if not isinstance(ev, dict) or ev.get("kind") not in EVIDENCE_KEYS:
        raise Reject("evidence has no known kind")
    kind = ev["kind"]
    _check_keys(ev, EVIDENCE_KEYS[kind], f"evidence ({kind})")
    if "defined" in domains.values() and kind not in ("treemin", "treegrid", "none"):
        raise Reject(f"a defined variable (the quantity a method establishes) cannot rest on {kind} evidence")
    if verdict not in KIND_VERDICTS[kind]:
        raise Reject(f"verdict {verdict} cannot rest on {kind} evidence")
    checked: list[str] = []
    trusted: list[str] = list(obj["trust"])
    seed = int(obj["claim_sha256"][:16], 16)

    if kind == "identity":
        if goal[0] != "eq":
            raise Reject("identity evidence needs an equation as goal")
        trials = ev["trials"]
        if not isinstance(trials, int) or not 2 <= trials <= 64:
            raise Reject("identity trials must be an integer in [2, 64]")
        expr = log_rewrite(no_diff(("add", goal[1], ("neg", goal[2]))))
        try:
            ok = identically_zero(expr, sorted(domains), seed, trials)
        except Undecided as e:
            raise Reject(f"identity check failed: {e}") from None
        if not ok:
            raise Reject("identity does not hold at a random rational point (Schwartz-Zippel)")
        checked.append(f"identity: both sides agree exactly at {trials} random rational points, with exp/log "
                       f"terms as independent atoms after the log laws")
        trusted.append(f"Schwartz-Zippel zero test ({trials} points, 62-bit atoms)")

    elif kind == "smt":
        if not isinstance(ev["solvers"], dict) or not ev["solvers"] or \
                any(v != "unsat" for v in ev["solvers"].values()):
            raise Reject("smt evidence must record unsat from each solver")
        main, sides, atoms = smtlib.queries(domains, hyps, goal)
        if ev["atoms"] != atoms:
            raise Reject("abstracted atoms differ from the claim's")
        if ev["side_queries"] != len(sides):
            raise Reject("number of denominator side queries differs")
        solvers = smtlib.available()
        if not solvers:
            raise Reject("cannot re-run SMT goal: neither z3 nor cvc5 is installed")
        for name, run in solvers.items():
            for text in [main] + sides:
                try:
                    ans = run(text, solver_timeout)
                except Exception as e:  # solver crash: not a verification
                    raise Reject(f"{name} failed: {e.__class__.__name__}") from None
                if ans != "unsat":
                    raise Reject(f"{name} answered {ans} (not unsat) on re-run")
        checked.append(f"SMT: negated goal unsat on re-run by {', '.join(solvers)} ({1 + len(sides)} queries)")
        trusted.extend(f"{n} unsat" for n in solvers)
        if atoms:
            trusted.append("exp/log/derivative terms abstracted as free reals (over-approximation)")

    elif kind in ("interval", "counterexample"):
        bits = ev["bits"]
        if not isinstance(bits, int) or not 32 <= bits <= MAX_PREC:
            raise Reject(f"bits must be an integer in [32, {MAX_PREC}]")
        if kind == "interval":
            if domains:
                raise Reject("interval evidence needs a closed claim (no variables)")
            env = {}
        else:
            env = _point(ev["point"], domains)
        for h in hyps:
            v, _ = decide(h, env, bits)
            if v is not True:
                raise Reject("a hypothesis does not hold at the point" if v is False
                             else "a hypothesis cannot be decided at the point")
        v, by_zero = decide(goal, env, bits)
        want = verdict == "PROVED"
        if v is None:
            raise Reject("goal cannot be decided rigorously at the point")
        if v != want:
            raise Reject(f"goal evaluates to {v}, which contradicts verdict {verdict}")
        _margin_agrees(goal, env, bits, _margin(ev["margin"]))
        what = "closed claim" if kind == "interval" else "counterexample replayed"
        checked.append(f"{what}: hypotheses hold and goal is {v} in rational interval arithmetic ({bits} bits)")
        if by_zero:
            trusted.append("Schwartz-Zippel zero test (both sides equal)")

    elif kind == "sample":
        env = _point(ev["worst_point"], domains)
        for h in hyps:
            v, _ = decide(h, env, 256)
            if v is False:
                raise Reject("worst sample violates a hypothesis")
        v, _ = decide(goal, env, 256)
        if v is False:
            raise Reject("the goal fails at the recorded worst sample: CONFIRMED is wrong")
        checked.append("worst sample re-evaluated: goal holds there" if v else "worst sample re-evaluated (undecided)")
        trusted.append(f"sampled evidence, NOT a proof ({ev['samples']} samples)")

    elif kind in ("treemin", "treegrid"):  # the evidence fixes the claim's one integer variable
        name, value, done, trust = treecover.check_evidence(ev, smtlib.available(), solver_timeout)
        if domains != {name: "defined"} or hyps:
            raise Reject(f"{kind} evidence needs a claim with the one defined variable {name}")
        if decide(goal, {name: Fraction(value)}, 64)[0] is not (verdict == "PROVED"):
            raise Reject(f"goal at {name} = {value} contradicts verdict {verdict}")
        checked.extend(done)
        trusted.extend(trust)

    else:  # none
        if not isinstance(ev["reason"], str) or not ev["reason"]:
            raise Reject("UNKNOWN needs a reason")
        checked.append(f"UNKNOWN with reason: {ev['reason']}")
    return verdict, checked, trusted


def kind_needs_values(ev) -> bool:
    return isinstance(ev, dict) and ev.get("kind") in ("interval", "counterexample", "sample")


def collect(paths) -> list[str]:
    out = []
    for p in paths:
        if os.path.isdir(p):
            for root, _dirs, files in os.walk(p):
                out.extend(os.path.join(root, f) for f in files if f.endswith(".json"))
        else:
            out.append(p)
    return sorted(out)


def verify_paths(paths, out, solver_timeout: float = 30.0, quiet: bool = False, report: list | None = None) -> int:
    """Verify every certificate under ``paths``; print one line each; return 0 if all pass, else 1.
    When ``report`` is a list, one record per file is appended to it (for --json)."""
    files = collect(paths)
    report = [] if report is None else report
    if not files:
        out.write("verify: no certificate files found\n")
        return 1
    bad = 0
    verdicts: dict[str, str] = {}
    uses: dict[str, list] = {}
    all_trust: set[str] = set()
    for f in files:
        try:
            obj = load(f)
            verdict, checked, trusted = check_cert(obj, solver_timeout)
        except Reject as e:
            bad += 1
            out.write(f"REJECTED {f}: {e}\n")
            report.append({"path": f, "status": "REJECTED", "reason": str(e)})
            continue
        except (RecursionError, MemoryError, ValueError, TypeError, KeyError, ZeroDivisionError) as e:
            bad += 1
            out.write(f"REJECTED {f}: malformed certificate ({e.__class__.__name__})\n")
            report.append({"path": f, "status": "REJECTED", "reason": f"malformed ({e.__class__.__name__})"})
            continue
        report.append({"path": f, "status": "VERIFIED", "id": obj["id"], "verdict": verdict,
                       "checked": checked, "trusted": trusted})
        verdicts[obj["id"]] = verdict
        uses[obj["id"]] = obj["uses"]
        all_trust.update(trusted)
        if not quiet:
            out.write(f"OK {f}: {verdict} {obj['id']} -- {'; '.join(checked)}\n")
    for cid, deps in uses.items():
        for d in deps:
            if d in verdicts and verdicts[d] != "PROVED":
                out.write(f"NOTE {cid} uses {d}, which is {verdicts[d]}\n")
            elif d not in verdicts:
                all_trust.add(f"assumed from outside this set: {d}")
    out.write(f"verified {len(files) - bad}/{len(files)} certificates\n")
    if all_trust:
        out.write("trusted:\n" + "".join(f"  - {t}\n" for t in sorted(all_trust)))
    return 0 if bad == 0 else 1

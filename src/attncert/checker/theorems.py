"""Theorem certificates (schema attncert.theorem/2): the checker's own computation of a numbered result's
verdict from the step certificates of the set it is given. Standard library only.

A theorem certificate names root step certificates, each with the SHA-256 of the claim it must prove
(``root_claims``; ``printed_claim`` for a statement refuted as printed), and the theorem's hypotheses (each
root's plain hypotheses, as expression trees, with what they are in the paper). A step certificate with a
root's id but another claim does not count for the theorem. Which statement, roots, claims, instance range
and hypotheses make up each of attncert's numbered results is fixed by the released list next to this file
(theorems.json: the SHA-256 of each theorem certificate's record, everything but its verdict, axioms and
blocking steps). A theorem certificate whose id is released but whose record differs is CONDITIONAL; one
whose id is not released (a user's own) is checked the same way, and `verify` says its statement and
instance range are its author's (and so, with ``cases``, is the claim that its roots cover the statement: no
formal statement exists to check it against). Its verdict is recomputed here:

- PROVED: one root, PROVED, verified with every source established (axiom instances, checked links; no
  free-text premise, nothing circular, nothing REFUTED, UNKNOWN or CONFIRMED below it), and every plain
  hypothesis of the root named by the theorem; or several roots, each so, that the record's optional
  ``cases`` says are the cases of the proof (which, like a root's statement, the released record pins);
- PROVED FOR INSTANCES: the same for every root, with the instance range stated;
- CONFIRMED: its one root is CONFIRMED;
- REFUTED AS PRINTED: its printed statement is a verified REFUTED step, and its repaired version is a
  theorem certificate of the set;
- OPEN: otherwise, and whenever the record declares a blocking step its roots do not carry
  (``declared``, e.g. a premise of the paper's argument that no step derives).

The recorded verdict must not be stronger than the computed one, and the recorded axiom list must be the
axioms cited anywhere in the graph below the roots."""

from __future__ import annotations

import json
import os
from functools import lru_cache

from .trees import NAMED, Reject, parse

THEOREM_SCHEMA = "attncert.theorem/2"
THEOREM_KEYS = {"schema", "id", "paper", "label", "ref", "statement", "verdict", "roots", "root_claims", "instances",
                "hypotheses", "printed", "printed_claim", "repaired", "blocking", "declared", "axioms", "note",
                "cert_sha256"}
OPTIONAL = {"cases", "definitions"}   # added after /2 was released: a record without them reads as before
COMPUTED = ("verdict", "axioms", "blocking", "cert_sha256")   # not part of the released record
MANIFEST_SCHEMA = "attncert.theorem-manifest/1"
MANIFEST = os.path.join(os.path.dirname(os.path.abspath(__file__)), "theorems.json")
MAX_ROOTS = 256
STRENGTH = {"OPEN": 0, "CONFIRMED": 1, "PROVED FOR INSTANCES": 2, "PROVED": 3, "REFUTED AS PRINTED": None}


@lru_cache(maxsize=None)
def released() -> dict:
    """id -> SHA-256 of the released record of each of attncert's numbered results (theorems.json)."""
    try:
        with open(MANIFEST, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError) as e:
        raise Reject(f"cannot read the released theorem list {MANIFEST}: {e.__class__.__name__}") from None
    if not isinstance(data, dict) or data.get("schema") != MANIFEST_SCHEMA or not isinstance(data.get("theorems"), dict) \
            or not all(isinstance(k, str) and _is_sha(v) for k, v in data["theorems"].items()):
        raise Reject("the released theorem list has an unknown schema")
    return dict(data["theorems"])


def _is_sha(v) -> bool:
    return isinstance(v, str) and len(v) == 64 and all(c in "0123456789abcdef" for c in v)


def record_digest(obj: dict, digest) -> str:
    """The SHA-256 of what a theorem certificate states (everything the checker does not compute)."""
    return digest({k: v for k, v in obj.items() if k not in COMPUTED})


def validate(obj: dict, digest, no_control) -> None:
    """Structure and hash of a theorem certificate; raises Reject."""
    if not isinstance(obj, dict) or not THEOREM_KEYS <= set(obj) <= THEOREM_KEYS | OPTIONAL:
        raise Reject("theorem certificate: fields differ from " + ", ".join(sorted(THEOREM_KEYS))
                     + " (and the optional " + ", ".join(sorted(OPTIONAL)) + ")")
    no_control(obj)
    if digest({k: v for k, v in obj.items() if k != "cert_sha256"}) != obj["cert_sha256"]:
        raise Reject("cert_sha256 mismatch: the file was changed after it was written")
    for k in ("id", "paper", "label", "ref", "statement"):
        if not isinstance(obj[k], str) or not obj[k]:
            raise Reject(f"field {k!r} must be a non-empty string")
    if len(obj["id"]) > 200 or not all(33 <= ord(c) < 127 for c in obj["id"]):
        raise Reject("a theorem id is at most 200 visible ASCII characters (no spaces or look-alike letters)")
    if obj["verdict"] not in STRENGTH:
        raise Reject(f"unknown theorem verdict {str(obj['verdict'])[:30]!r}")
    if not isinstance(obj["roots"], list) or not all(isinstance(r, str) and r for r in obj["roots"]):
        raise Reject("roots must be a list of certificate ids")
    for k in ("instances", "printed", "repaired", "declared"):
        if obj[k] is not None and (not isinstance(obj[k], str) or not obj[k]):
            raise Reject(f"{k} must be a non-empty string or null")
    cases = obj.get("cases")
    if cases is not None and (not isinstance(cases, str) or not cases or obj["instances"] is not None
                              or len(obj["roots"]) < 2):
        raise Reject("cases must be a non-empty string, for two or more roots and no instances")
    if len(obj["roots"]) > 1 and obj["instances"] is None and cases is None:
        raise Reject("several roots are instances or cases: 'instances' or 'cases' must say which")
    if len(set(obj["roots"])) != len(obj["roots"]) or len(obj["roots"]) > MAX_ROOTS:
        raise Reject(f"roots must be distinct, at most {MAX_ROOTS}")
    if len(obj["label"]) > 60 or not all(c.isalnum() or c in " .,()-'" for c in obj["label"]):
        raise Reject("label: at most 60 letters, digits, spaces and . , ( ) - '")
    if obj["repaired"] is not None and obj["repaired"] == obj["id"]:
        raise Reject("a statement refuted as printed cannot be its own repair")
    if (obj["printed"] is None) != (obj["repaired"] is None) or (obj["printed"] is not None and obj["roots"]):
        raise Reject("a statement refuted as printed has 'printed' and 'repaired' and no roots")
    rc = obj["root_claims"]
    if not isinstance(rc, dict) or set(rc) != set(obj["roots"]) or not all(_is_sha(v) for v in rc.values()):
        raise Reject("root_claims must give the claim_sha256 of every root, and nothing else")
    if (obj["printed_claim"] is None) != (obj["printed"] is None) or \
            (obj["printed_claim"] is not None and not _is_sha(obj["printed_claim"])):
        raise Reject("printed_claim must be the claim_sha256 of the printed statement (null without one)")
    for k in ("blocking", "axioms"):
        if not isinstance(obj[k], list) or not all(isinstance(t, str) for t in obj[k]):
            raise Reject(f"{k} must be a list of strings")
    if not isinstance(obj["note"], str):
        raise Reject("note must be a string")
    for key in ("hypotheses", "definitions"):
        if key == "definitions" and key not in obj:
            continue
        if not isinstance(obj[key], list) or (key == "definitions" and not obj[key]):
            raise Reject(f"{key} must be a list" + (" (not empty: leave the field out)" if key == "definitions" else ""))
        for h in obj[key]:
            if not isinstance(h, dict) or set(h) != {"root", "expr", "name"} or h["root"] not in obj["roots"] or \
                    not isinstance(h["name"], str) or not h["name"]:
                raise Reject(f"each of the {key} names its root, its expression and what it is in the paper")
            parse(h["expr"])


def evaluate(obj: dict, certs: dict, cert_why, claim_of, theorem_ids: set) -> tuple[str, list[str], list[str]]:
    """(computed verdict, reasons it is not stronger, axioms of the graph). ``certs``: id -> step
    certificate of the set whose own evidence checked; ``cert_why(id)``: why its sources are not
    established ([] if they are); ``claim_of(cert)``: (domains, boxes, hyps, goal), parsed."""
    if obj["printed"] is not None:
        p = certs.get(obj["printed"])
        why = []
        if p is None:
            why.append(f"the printed statement {obj['printed']} is not a verified certificate of this set")
        elif p["claim_sha256"] != obj["printed_claim"]:
            why.append(f"the certificate {obj['printed']} of this set states another claim than the printed "
                       "statement this theorem names (claim_sha256 differs)")
        elif p["verdict"] != "REFUTED":
            why.append(f"the printed statement {obj['printed']} is {p['verdict']}, not REFUTED")
        if obj["repaired"] not in theorem_ids:
            why.append(f"its repaired version {obj['repaired']} is not a theorem certificate of this set "
                       "(stating a result, not another printed statement)")
        return ("OPEN", why, []) if why else ("REFUTED AS PRINTED", [], [])
    if not obj["roots"]:
        return "OPEN", ["no step states it"], []
    # one CONFIRMED root: numerical evidence, under the same checks as a PROVED root (its claim, its sources,
    # the naming of its premises, nothing declared missing); attack rounds 15 and 16 found this path skipping them
    confirmed = len(obj["roots"]) == 1 and certs.get(obj["roots"][0], {}).get("verdict") == "CONFIRMED"
    why: list[str] = []
    named: dict = {}
    for h in obj["hypotheses"]:
        named.setdefault(h["root"], set()).add(parse(h["expr"]))
    defined: dict = {}
    for h in obj.get("definitions", []):
        defined.setdefault(h["root"], set()).add(parse(h["expr"]))
    for r in obj["roots"]:
        c = certs.get(r)
        if c is None:
            why.append(f"{r} is not a verified certificate of this set")
            continue
        if c["claim_sha256"] != obj["root_claims"][r]:
            why.append(f"the certificate {r} of this set states another claim than the root this theorem names "
                       "(claim_sha256 differs)")
            continue
        if c["verdict"] != "PROVED" and not confirmed:
            why.append(f"{r} is {c['verdict']}")
            continue
        why.extend(cert_why(r))
        domains, boxes, hyps, goal = claim_of(c)
        plain = {h for h, raw in zip(hyps, c["claim"]["hyps"]) if "by" not in raw}
        mine, defs = named.get(r, set()), defined.get(r, set())
        if plain - mine - defs:
            why.append(f"{r}: a plain hypothesis is not named as a hypothesis of the theorem")
        if (mine | defs) - plain:
            why.append(f"{r}: a named hypothesis or definition is not a hypothesis of the root (a plain one)")
        if mine & defs:
            why.append(f"{r}: a hypothesis is named both a hypothesis and a definition")
        why.extend(f"{r}: {w}" for w in definition_faults(domains, boxes, hyps, goal, defs & plain))
    axioms = [] if confirmed else sorted(_axioms(obj["roots"], certs))
    if obj["declared"] is not None:  # what the record says its roots do not carry: never stronger than OPEN
        why.append(obj["declared"])
    if why:
        return "OPEN", list(dict.fromkeys(why)), axioms
    if confirmed:
        return "CONFIRMED", ["numerical evidence only"], []
    return ("PROVED FOR INSTANCES" if obj["instances"] is not None else "PROVED"), [], axioms


def _names(n, acc: set) -> set:
    if n[0] in NAMED:
        acc.add(n[1])
    for c in n[1:]:
        if isinstance(c, tuple):
            _names(c, acc)
    return acc


def definition_faults(domains: dict, boxes: dict, hyps: list, goal, defs: set) -> list[str]:
    """Why the root's plain hypotheses ``defs`` (parsed) are not definitions: each must be v == e with v a real
    variable without a box, not in e, not a derivative's variable, defined by no other of them, and the
    definitions must not form a cycle. Then for every value of the other variables exactly one value of the
    defined ones meets them all (assigned along the chains), so the root's claim states its goal with each v
    read as its e, under the other hypotheses: the definitions add no assumption (docs/theorems.md,
    "Definitions")."""
    derivs = _diffs(hyps + [goal])
    diffs = {x for _, x in derivs}
    out: list[str] = []
    deps: dict = {}
    for d in sorted(defs, key=repr):
        if d[0] != "eq" or d[1][0] != "var":
            out.append("a hypothesis named a definition does not read v == e")
            continue
        v = d[1][1]
        why = ("is not a real variable" if domains.get(v) != "real" else
               "has a box (lo/hi)" if boxes.get(v) != (None, None) else
               "occurs in its own definition" if v in _names(d[2], set()) else
               "is a derivative's variable" if v in diffs else
               "is defined twice" if v in deps else None)
        if why:
            out.append(f"the definition of {v} is not one: {v} {why}")
            continue
        deps[v] = _names(d[2], set())
    left = dict(deps)
    while left:   # peel off the definitions from variables that are not (or no longer) defined
        free = [v for v, us in left.items() if not (us & set(left) - {v})]
        if not free:
            out.append(f"the definitions of {', '.join(sorted(left))[:80]} form a cycle")
            return out
        for v in free:
            del left[v]
    # a derivative d/dx f treats every other variable of f as a constant: a v in f defined, through the chain of
    # definitions, from x is not its e there (attack round 31: y == a*a with d/da y == 0)
    under: dict = {}

    def reach(v) -> set:
        if v not in under:
            under[v] = set()
            for u in deps[v]:
                under[v] |= {u} | (reach(u) if u in deps else set())
        return under[v]
    for f, x in derivs:
        for v in sorted(_names(f, set()) & set(deps)):
            if x in reach(v):
                out.append(f"the definition of {v} is not one: {v} is defined from {x} and occurs in a derivative "
                           f"in {x}, which holds it constant")
    return out


def _diffs(nodes: list) -> list:
    """Every derivative (body, variable) in the nodes."""
    out, todo = [], list(nodes)
    while todo:
        n = todo.pop()
        if n[0] == "diff":
            out.append((n[1], n[2]))
        todo.extend(c for c in n[1:] if isinstance(c, tuple))
    return out


def _axioms(roots: list, certs: dict) -> set:
    """The axioms cited by any certificate reachable from the roots through 'by' links."""
    seen, out, todo = set(), set(), list(roots)
    while todo:
        cid = todo.pop()
        if cid in seen or cid not in certs:
            continue
        seen.add(cid)
        for h in certs[cid]["claim"]["hyps"]:
            src = h.get("by")
            if src is None or src.startswith("fact:"):
                continue
            if src.startswith("axiom:"):
                out.add(src[6:])
            else:
                todo.extend(src[6:].split(",") if src.startswith("cases:") else
                            [src[4:] if src.startswith("mvt:") else src[5:].partition(":")[2] if src.startswith("each:")
                             else src])
    return out


def judge(obj: dict, computed: str, why: list[str], axioms: list[str], digest) -> tuple[str, list[str]]:
    """('VERIFIED', []) when the recorded verdict and axioms are what the set establishes and, for one of
    attncert's released results, the record is the released one; else ('CONDITIONAL', reasons)."""
    rec = obj["verdict"]
    reasons = []
    want = released().get(obj["id"])
    if want is not None and record_digest(obj, digest) != want:
        reasons.append(f"its record differs from the released {obj['id']} (src/attncert/checker/theorems.json): "
                       "the statement, roots, their claims, the instance range or the hypotheses were changed")
    if rec == "REFUTED AS PRINTED" or computed == "REFUTED AS PRINTED":
        if rec != computed:
            reasons.append(f"records {rec}, but the set establishes {computed}" + (f": {why[0]}" if why else ""))
    elif STRENGTH[rec] > STRENGTH[computed]:
        reasons.append(f"records {rec}, but the set establishes only {computed}" + (f": {why[0]}" if why else ""))
    if rec in ("PROVED", "PROVED FOR INSTANCES") and sorted(obj["axioms"]) != axioms:
        reasons.append(f"records the axioms {obj['axioms']}, but its graph cites {axioms}")
    return ("CONDITIONAL" if reasons else "VERIFIED"), reasons

"""The errata report (issue 17, item 2): one finding per erratum, ranked by severity, conventions apart.

The catalogue is data (``attncert_proofs.errata``): each entry quotes the paper verbatim with its lines,
says what is wrong, gives its severity and repair, and names the obligations that are its evidence (the
printed step refuted with a replayed counterexample, or a mismatch proved). This module joins the
catalogue with the check results:

- each entry's evidence is the verdicts of its obligations, with counterexamples in mathematical notation;
- its repairs are the obligations whose ``repairs`` field names one of them, with their verdicts;
- an entry is *confirmed* when every obligation of it that was run got its expected verdict; otherwise the
  report says which did not (an erratum is never silently dropped, nor asserted without its evidence);
- an obligation that carries a finding but is in no entry is reported as *uncatalogued* (a test keeps
  that list empty).

Errata (severities ``conclusion``, ``constant``, ``false-step``, ``typo``) come first, ranked; the notes
(``convention``: an implicit reading the reader must supply; ``remark``: a correct step worth a word)
are a separate list, never errata. ``to_markdown`` writes the letter to the authors, one per paper."""

from __future__ import annotations

import re
from dataclasses import dataclass

SCHEMA = "attncert.audit/2"
ERRATA_SEVERITIES = ("conclusion", "constant", "false-step", "typo")
NOTE_SEVERITIES = ("convention", "remark")
SEVERITY_TEXT = {
    "conclusion": "changes a conclusion",
    "constant": "changes a constant or an exponent",
    "false-step": "a false step with a harmless repair",
    "typo": "typos",
    "convention": "implicit conventions (not errors)",
    "remark": "remarks on correct steps (not errors)",
}
PAPER_TITLES = {
    "ks": ("Kajitsuka and Sato", "Are Transformers with One Layer Self-Attention Using Low-Rank Weight Matrices "
           "Universal Approximators? (ICLR 2024)"),
    "infoflow": ("Yu, Jiang, Bao and Li", "InfoFlow: A Framework for Multi-Layer Transformer Analysis "
                 "(arXiv:2605.17930, 2026)"),
}
PAPER_FILES = {"ks": "kajitsuka-sato-iclr2024.txt", "infoflow": "infoflow-2605.17930.txt"}
ELIDE = " [...] "
_ID = re.compile(r"[a-z][a-z0-9-]{2,80}\Z")
_FIELDS = ("id", "where", "lines", "quote", "severity", "title", "explanation", "repair", "obligations")


@dataclass(frozen=True, slots=True)
class Erratum:
    paper: str
    id: str
    where: str
    lines: tuple[int, int]
    quote: str
    severity: str
    title: str
    explanation: str
    repair: str
    obligations: tuple[str, ...]

    @property
    def is_erratum(self) -> bool:
        return self.severity in ERRATA_SEVERITIES

    @property
    def line_text(self) -> str:
        return line_span(self.lines)


def catalogue(paper: str | None = None) -> list[Erratum]:
    """The catalogue in reading order (by first line), checked for shape (ValueError names the bad entry)."""
    from attncert_proofs.errata import ERRATA

    out, seen = [], set()
    for p, rows in ERRATA.items():
        if paper not in (None, "all", p):
            continue
        for row in rows:
            if not isinstance(row, dict) or set(row) != set(_FIELDS):
                raise ValueError(f"errata {p}: entry {str(row)[:60]!r} must have exactly the fields {', '.join(_FIELDS)}")
            e = Erratum(p, row["id"], row["where"], tuple(row["lines"]), row["quote"], row["severity"], row["title"],
                        row["explanation"], row["repair"], tuple(row["obligations"]))
            if not _ID.match(e.id) or e.id in seen:
                raise ValueError(f"errata {p}: id {e.id!r} is malformed or repeated")
            seen.add(e.id)
            if e.severity not in ERRATA_SEVERITIES + NOTE_SEVERITIES:
                raise ValueError(f"errata {e.id}: severity {e.severity!r}")
            lo, hi = e.lines
            if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
                raise ValueError(f"errata {e.id}: lines {e.lines!r}")
            if not e.obligations or not all(isinstance(o, str) for o in e.obligations):
                raise ValueError(f"errata {e.id}: names no obligation")
            if not all(isinstance(s, str) and s.strip() for s in (e.where, e.quote, e.title, e.explanation)):
                raise ValueError(f"errata {e.id}: where, quote, title and explanation must be non-empty text")
            out.append(e)
    return sorted(out, key=lambda e: (list(PAPER_TITLES).index(e.paper) if e.paper in PAPER_TITLES else 9, e.lines))


def quote_found(quote: str, lines: list[str], span: tuple[int, int]) -> bool:
    """Whether ``quote`` (segments joined by `` [...] ``) is verbatim, in order, within the 1-based ``span`` of
    ``lines`` (runs of whitespace compared as one space)."""
    norm = lambda s: re.sub(r"\s+", " ", s).strip()  # noqa: E731
    hay = norm(" ".join(lines[span[0] - 1:span[1]]))
    pos = 0
    for seg in quote.split(ELIDE):
        seg = norm(seg)
        if not seg:
            return False
        i = hay.find(seg, pos)
        # a segment ends where the paper's word or formula ends: a quote may not stop inside "N^{m}" at "N"
        while i >= 0 and not (i + len(seg) == len(hay) or hay[i + len(seg)] in " .,;:)]}'\"!?"
                               or not seg[-1].isalnum()):
            i = hay.find(seg, i + 1)
        if i < 0:
            return False
        pos = i + len(seg)
    return True


_REGISTERED: dict | None = None


def registered(r) -> bool:
    """Whether a result is of the transcribed obligation of that id (same family, same claim): a user's claim
    that reuses a paper's id is never evidence of the paper's errata, nor a step of its theorems."""
    global _REGISTERED
    if _REGISTERED is None:
        from attncert.core.expr import sha256
        from attncert.core.families import all_families

        _REGISTERED = {o.id: (f.name, sha256(o.claim.to_json())) for f in all_families() for o in f.obligations}
    from attncert.core.expr import sha256

    reg = _REGISTERED.get(r.obligation.id)
    return reg is not None and reg == (r.obligation.family, sha256(r.obligation.claim.to_json()))


def established(r) -> bool:
    """The evidence establishes the entry: the expected verdict exactly (REFUTED for a step false as printed),
    or PROVED where none is declared; CONFIRMED (numerical only) is never enough."""
    want = r.obligation.expect.name if r.obligation.expect is not None else "PROVED"
    return r.verdict.name == want and registered(r)


def _evidence(r) -> dict:
    from attncert.core.claims import point_text

    ev = r.evidence
    out = {"obligation": r.obligation.id, "ref": r.obligation.ref, "statement": r.obligation.statement,
           "verdict": r.verdict.name, "expected": r.obligation.expect.name if r.obligation.expect else None,
           "as_expected": established(r), "method": ev.method}
    if not registered(r):
        out["reason"] = "not the transcribed obligation of this id (another family or another claim)"
    if isinstance(ev.detail.get("point"), dict):
        out["counterexample"] = point_text(ev.detail["point"])
    if ev.reason and "reason" not in out:
        out["reason"] = ev.reason
    if r.verdict.name == "CONFIRMED" and "reason" not in out:
        out["reason"] = "numerical evidence only, not a proof"
    return out


def audit(results) -> dict:
    """The attncert.audit/2 record for the given check results."""
    by_id = {r.obligation.id: r for r in results}
    repairs: dict[str, list] = {}
    for r in results:
        if r.obligation.repairs:
            repairs.setdefault(r.obligation.repairs, []).append(r)
    errata, notes, covered = [], [], set()
    for e in catalogue():
        present = [by_id[o] for o in e.obligations if o in by_id and by_id[o].obligation.paper == e.paper]
        covered.update(e.obligations)
        if not present:
            continue
        evidence = [_evidence(r) for r in present]
        reps = [r for o in e.obligations for r in repairs.get(o, ()) if registered(r)]
        entry = {
            "id": e.id, "paper": e.paper, "severity": e.severity, "where": e.where, "lines": list(e.lines),
            "quote": e.quote, "title": e.title, "explanation": e.explanation, "repair": e.repair,
            "affects_conclusion": e.severity == "conclusion",
            "confirmed": all(x["as_expected"] for x in evidence),
            "obligations_run": len(present), "obligations_total": len(e.obligations),
            "evidence": evidence,
            "repairs": [{"obligation": r.obligation.id, "statement": r.obligation.statement, "verdict": r.verdict.name,
                         "method": r.evidence.method, **({"reason": r.evidence.reason} if r.evidence.reason else {})}
                        for r in reps],
        }
        (errata if e.is_erratum else notes).append(entry)
    rank = {s: i for i, s in enumerate(ERRATA_SEVERITIES + NOTE_SEVERITIES)}
    order = {p: i for i, p in enumerate(PAPER_TITLES)}
    errata.sort(key=lambda x: (order.get(x["paper"], 9), rank[x["severity"]]))  # stable: reading order within
    notes.sort(key=lambda x: (order.get(x["paper"], 9), rank[x["severity"]]))
    uncatalogued = [_evidence(r) for r in results if r.obligation.finding is not None and r.obligation.id not in covered
                    and registered(r)]
    return {"schema": SCHEMA, "errata": errata, "notes": notes, "uncatalogued": uncatalogued,
            "summary": summary(errata, notes)}


def summary(errata: list, notes: list) -> dict:
    out: dict = {}
    for x in errata + notes:
        s = out.setdefault(x["paper"], {k: 0 for k in ERRATA_SEVERITIES + NOTE_SEVERITIES})
        s[x["severity"]] += 1
    return out


def headline(report: dict) -> str:
    """``N errata (k change a conclusion, ...); M notes`` in one line."""
    es, ns = report["errata"], report["notes"]
    counts = [(sum(1 for e in es if e["severity"] == s), s) for s in ERRATA_SEVERITIES]
    parts = [f"{n} {_short(s, n)}" for n, s in counts if n]
    un = len(report["uncatalogued"])
    return (f"{len(es)} errata ({', '.join(parts) if parts else 'none'}); {len(ns)} notes on conventions and "
            f"correct steps" + (f"; {un} uncatalogued findings" if un else "") + ".")


def _short(sev: str, n: int) -> str:
    return {"conclusion": "change a conclusion" if n != 1 else "changes a conclusion",
            "constant": "change a constant or exponent" if n != 1 else "changes a constant or exponent",
            "false-step": "false steps with a harmless repair" if n != 1 else "false step with a harmless repair",
            "typo": "typos" if n != 1 else "typo"}[sev]


def _verdict_phrase(x: dict) -> str:
    v = x["verdict"]
    if v == "REFUTED":
        s = "refuted"
        if x.get("counterexample"):
            s += f" by the counterexample {x['counterexample']}, replayed in exact arithmetic"
        return s
    if v == "PROVED":
        return f"proved ({x['method']})" + (f" [{x['reason']}]" if x.get("reason") else "")
    if v == "CONFIRMED":
        return f"checked numerically only, not a proof ({x['method']})"
    return f"{v.lower()} ({x['method']}" + (f": {x['reason']}" if x.get("reason") else "") + ")"


def to_markdown(report: dict, provenance: dict | None = None) -> str:
    """The letter to the authors: per paper, the errata by severity, then the notes, then where to re-check."""
    lines = ["# Errata found by attncert", "", headline(report), ""]
    if provenance:
        lines += ["Checked with " + ", ".join(f"{k} {v}" for k, v in provenance.items()) + ".", ""]
    papers = [p for p in PAPER_TITLES if any(x["paper"] == p for x in report["errata"] + report["notes"])]
    for p in papers:
        authors, title = PAPER_TITLES[p]
        es = [x for x in report["errata"] if x["paper"] == p]
        ns = [x for x in report["notes"] if x["paper"] == p]
        lines += [f"## {title}", "", f"Dear {authors},", "",
                  f"we checked the displayed steps of your paper mechanically: each step is a claim decided by symbolic "
                  f"algebra, SMT (z3 and cvc5), exact arithmetic or rigorous interval arithmetic, and each false step is "
                  f"shown by a counterexample replayed in exact arithmetic. We found {len(es)} errata, listed below by "
                  f"severity; {len(ns)} notes on implicit conventions and correct steps follow them. Line numbers refer "
                  f"to the text of the paper ({PAPER_FILES[p]}).", ""]
        n = 0
        for sev in ERRATA_SEVERITIES + NOTE_SEVERITIES:
            group = [x for x in es + ns if x["severity"] == sev]
            if not group:
                continue
            if sev == NOTE_SEVERITIES[0] or (sev == "remark" and not any(x["severity"] == "convention" for x in ns)):
                lines += ["### Notes (not errata)", ""]
            lines += [f"#### {SEVERITY_TEXT[sev][0].upper()}{SEVERITY_TEXT[sev][1:]}", ""]
            for x in group:
                n += 1
                lines += [f"**{n}. {x['where']}, {line_span(x['lines'])}.** {x['title']}", ""]
                lines += ["> " + md_escape(x["quote"].replace("\n", " ")), ""]
                lines += [x["explanation"], ""]
                if x["repair"]:
                    checked = "" if x["repairs"] else " (not checked as a separate step)"
                    lines += [f"*Repair{checked}.* {x['repair']}", ""]
                lines += ["*Evidence.* " + "; ".join(f"`{e['obligation']}` {_verdict_phrase(e)}" for e in x["evidence"])
                          + ("." if x["confirmed"] else ". NOT CONFIRMED in this run: a step above did not get its "
                             "expected verdict."), ""]
                if x["obligations_run"] < x["obligations_total"]:
                    lines += [f"*Only {x['obligations_run']} of the {x['obligations_total']} steps of this erratum "
                              "were run here.*", ""]
                if x["repairs"]:
                    lines += ["*The repair, checked.* " + "; ".join(f"`{r['obligation']}` {_verdict_phrase(r)}"
                                                                    for r in x["repairs"]) + ".", ""]
        lines += ["Every verdict above is backed by a certificate that `attncert verify` re-checks independently; "
                  f"`attncert audit {p}` reproduces this list.", "", "Yours sincerely,", "", "attncert", ""]
    if report["uncatalogued"]:
        lines += ["## Findings not yet in the errata catalogue", ""]
        lines += [f"- `{x['obligation']}` ({x['ref']}): {x['verdict']}" for x in report["uncatalogued"]] + [""]
    return "\n".join(lines)


def md_escape(text: str) -> str:
    """Text shown literally by a Markdown renderer (backslashes of LaTeX, emphasis marks, brackets, bars)."""
    return re.sub(r"([\\`*_\[\]<>|#])", r"\\\1", text)


def line_span(span) -> str:
    """``line 412`` or ``lines 537-542``."""
    lo, hi = span
    return f"line {lo}" if lo == hi else f"lines {lo}-{hi}"


def text_summary(report: dict) -> str:
    """What `attncert audit` prints: the headline, then one line per erratum (ranked) and per note."""
    out = [headline(report), ""]
    for p in PAPER_TITLES:
        es = [x for x in report["errata"] if x["paper"] == p]
        ns = [x for x in report["notes"] if x["paper"] == p]
        if not es and not ns:
            continue
        out.append(f"{PAPER_TITLES[p][1]}: {len(es)} errata, {len(ns)} notes")
        for x in es + ns:
            flag = "" if x["confirmed"] else "  [NOT CONFIRMED in this run]"
            if x["obligations_run"] < x["obligations_total"]:
                flag += f"  [{x['obligations_run']} of {x['obligations_total']} steps run]"
            out.append(f"  {x['severity']:<10} {x['where']} ({line_span(x['lines'])}): {x['title']}{flag}")
        out.append("")
    for x in report["uncatalogued"]:
        out.append(f"uncatalogued finding: {x['obligation']} ({x['ref']}): {x['verdict']}")
    return "\n".join(out).rstrip("\n") + "\n"

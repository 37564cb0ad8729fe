"""The coverage table of both papers (issue 17, item 1): every numbered item, in reading order, with its
status and, for a transcribed item, the verdicts of the obligations that check it.

The inventory is data (``attncert_proofs.coverage``). This module joins it with the obligations (by the
items' globs over obligation ids) and with their verdicts, and writes the table as rows (JSON schema
``attncert.coverage/1``) and as Markdown (docs/coverage.md). It also names the obligations that check
unnumbered text (attached to no item), so that nothing transcribed is hidden by the table."""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

SCHEMA = "attncert.coverage/1"
KINDS = ("display", "lemma", "theorem", "proposition", "corollary", "definition", "assumption", "figure", "table")
STATUSES = ("transcribed", "cited", "not transcribed")
# a "not transcribed" item whose note starts so has no claim to check
CLAIM_FREE = ("definition", "hypothesis", "notation", "experimental result", "figure without a checkable claim")
PAPERS = {"ks": "Kajitsuka and Sato (ICLR 2024)", "infoflow": "InfoFlow (Yu et al. 2026)"}


@dataclass(frozen=True, slots=True)
class Item:
    paper: str
    kind: str
    label: str
    line: int
    status: str
    globs: tuple[str, ...]
    note: str

    @property
    def claim_free(self) -> bool:
        return self.status == "not transcribed" and self.note.startswith(CLAIM_FREE)


def items(paper: str | None = None) -> list[Item]:
    """The inventory, checked for shape (ValueError names the bad entry)."""
    from attncert_proofs.coverage import ITEMS

    out = []
    for p, rows in ITEMS.items():
        if paper not in (None, "all", p):
            continue
        for row in rows:
            if not (isinstance(row, tuple) and len(row) == 6):
                raise ValueError(f"coverage {p}: malformed item {row!r}")
            kind, label, line, status, globs, note = row
            it = Item(p, kind, label, line, status, tuple(globs), note)
            if kind not in KINDS or status not in STATUSES or not isinstance(line, int) or line < 1:
                raise ValueError(f"coverage {p} {label}: bad kind, status or line")
            if (status == "transcribed") != bool(globs) or (status != "transcribed" and not note):
                raise ValueError(f"coverage {p} {label}: a transcribed item needs globs, any other a note")
            out.append(it)
    return out


def table(obligations, verdicts: dict, paper: str | None = None) -> dict:
    """The coverage record: one row per item and a summary per paper.

    ``obligations``: the transcribed obligations (objects with .id and .paper), in transcription order;
    ``verdicts``: obligation id -> (verdict name, True when it is the expected refutation of an erratum)."""
    its = items(paper)
    by_paper: dict[str, list] = {}
    for o in obligations:
        by_paper.setdefault(o.paper, []).append(o.id)
    rows, attached = [], set()
    for it in its:
        ids = [i for i in by_paper.get(it.paper, []) if any(fnmatch.fnmatchcase(i, g) for g in it.globs)]
        if it.status == "transcribed" and not ids:
            raise ValueError(f"coverage {it.paper} {it.label}: its globs match no obligation")
        attached.update(ids)
        counts: dict[str, int] = {}
        for i in ids:
            v, erratum = verdicts.get(i, ("NOT RUN", False))
            key = "REFUTED as printed" if erratum else v
            counts[key] = counts.get(key, 0) + 1
        rows.append({"paper": it.paper, "kind": it.kind, "label": it.label, "line": it.line, "status": it.status,
                     "claim_free": it.claim_free, "note": it.note, "globs": list(it.globs), "obligations": ids,
                     "verdicts": dict(sorted(counts.items()))})
    summary = {}
    for p in dict.fromkeys(it.paper for it in its):
        rs = [r for r in rows if r["paper"] == p]
        n = len(rs)
        tr = sum(r["status"] == "transcribed" for r in rs)
        cited = sum(r["status"] == "cited" for r in rs)
        free = sum(r["claim_free"] for r in rs)
        claims = n - cited - free
        loose = [i for i in by_paper.get(p, []) if i not in attached]
        summary[p] = {"numbered_items": n, "transcribed": tr, "cited": cited, "claim_free": free,
                      "not_yet_transcribed": claims - tr, "items_with_claims": claims,
                      "fraction_of_numbered": round(tr / n, 4) if n else None,
                      "fraction_of_claims": round(tr / claims, 4) if claims else None,
                      "obligations": len(by_paper.get(p, [])), "obligations_on_unnumbered_text": loose}
    return {"schema": SCHEMA, "summary": summary, "items": rows}


def summary_line(p: str, s: dict) -> str:
    return (f"{PAPERS.get(p, p)}: {s['transcribed']} of {s['numbered_items']} numbered items transcribed "
            f"({s['fraction_of_numbered']:.0%}); of the {s['items_with_claims']} items with a claim to check (not "
            f"definitions, hypotheses, notation or experiments, and not cited from other work: {s['cited']} cited), "
            f"{s['transcribed']} are transcribed ({s['fraction_of_claims']:.0%}) and {s['not_yet_transcribed']} "
            f"are not yet; {len(s['obligations_on_unnumbered_text'])} of its {s['obligations']} obligations check "
            "unnumbered text")


def verdicts_cell(r: dict) -> str:
    if r["status"] != "transcribed":
        return ""
    v = r["verdicts"]
    order = ["PROVED", "REFUTED as printed", "REFUTED", "CONFIRMED", "UNKNOWN", "NOT RUN"]
    return ", ".join(f"{v[k]} {k}" for k in order if k in v)


def markdown(rec: dict) -> str:
    """The table as docs/coverage.md carries it (between its markers)."""
    out = []
    for p, s in rec["summary"].items():
        out += [f"### {PAPERS.get(p, p)}", "", summary_line(p, s) + ".", "",
                "| item | line | status | verdicts of its obligations | obligations | note |",
                "| --- | --- | --- | --- | --- | --- |"]
        for r in rec["items"]:
            if r["paper"] != p:
                continue
            cell = lambda x: str(x).replace("|", "\\|")   # noqa: E731
            obs = ", ".join(f"`{g}`" for g in r["globs"])
            out.append(f"| {r['label']} | {r['line']} | {r['status']} | {verdicts_cell(r)} | {obs} | {cell(r['note'])} |")
        loose = s["obligations_on_unnumbered_text"]
        if loose:
            out += ["", f"Obligations on unnumbered text ({len(loose)}): " + ", ".join(f"`{i}`" for i in loose) + "."]
        out.append("")
    return "\n".join(out)

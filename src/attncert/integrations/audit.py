"""The errata report: every obligation refuted as printed, and every recorded statement mismatch."""

from __future__ import annotations

AUDIT_SCHEMA = "attncert.audit/1"


def audit(results) -> dict:
    findings = []
    for r in results:
        ob = r.obligation
        f = ob.finding
        if f is None:
            continue
        refuted = r.verdict.name == "REFUTED"
        # a false-step/typo finding stands only when the step is actually refuted; mismatches are
        # recorded findings whose obligation checks the comparison itself
        if not refuted and f.kind in ("false-step", "typo", "constraint-violation"):
            continue
        repaired_by = [o.obligation.id for o in results if o.obligation.repairs == ob.id]
        repair_verdicts = {o.obligation.id: o.verdict.name for o in results if o.obligation.repairs == ob.id}
        findings.append({
            "id": ob.id, "paper": ob.paper, "ref": ob.ref, "kind": f.kind, "as_printed": ob.statement,
            "evidence": {"verdict": r.verdict.name, "method": r.evidence.method, **r.evidence.detail},
            "repair": f.repair, "repaired_by": repaired_by, "repair_verdicts": repair_verdicts,
            "affects_conclusion": f.affects_conclusion, "note": f.note,
        })
    return {"schema": AUDIT_SCHEMA, "findings": findings}


def to_markdown(report: dict) -> str:
    from attncert.core.claims import point_text

    lines = ["# attncert errata report", ""]
    if not report["findings"]:
        return "\n".join(lines + ["No findings.", ""])
    fs = report["findings"]
    kinds: dict[str, int] = {}
    for f in fs:
        kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
    nc = sum(1 for f in fs if f["affects_conclusion"])
    lines += [f"{len(fs)} findings ({nc} {'affects' if nc == 1 else 'affect'} a conclusion): "
              + ", ".join(f"{n} {k}" for k, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0]))) + ".", ""]
    lines += ["| ref | kind | affects conclusion | as printed | repair |", "| --- | --- | --- | --- | --- |"]
    for f in report["findings"]:
        cell = lambda s: str(s).replace("|", "\\|").replace("\n", " ")  # noqa: E731
        lines.append(f"| {cell(f['ref'])} | {f['kind']} | "
                     f"{'yes' if f['affects_conclusion'] else 'no'} | {cell(f['as_printed'])} | {cell(f['repair'])} |")
    lines.append("")
    for f in report["findings"]:
        ev = f["evidence"]
        lines.append(f"- **{f['id']}** ({f['ref']}): {ev['verdict']} by {ev['method']}"
                     + (f"; counterexample {point_text(ev['point'])}" if "point" in ev else "")
                     + (f"; repaired by {', '.join(f['repaired_by'])} "
                        f"({', '.join(f'{k}: {v}' for k, v in f['repair_verdicts'].items())})" if f["repaired_by"] else "")
                     + (f". {f['note']}" if f["note"] else ""))
    return "\n".join(lines) + "\n"

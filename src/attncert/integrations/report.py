"""`attncert report --out DIR`: one static HTML page (index.html) that people read, plus the plots.

Sections:
- one table per paper, grouped by family (each obligation with its reference, statement, verdict and method);
- the errata from `audit`, with evidence and repairs;
- the explicit bounds (Theorem 5 at a few sizes);
- the plots the families make (copied next to the page).
No scripts, no external resources: the page works offline and from a file:// URL."""

from __future__ import annotations

import html
import os
import shutil

PLOTS = (("boltzmann_sharpness.svg", "Kajitsuka-Sato Lemma 1: how small delta can be (sharpness sweep)"),
         ("theorem6_fit.svg", "InfoFlow Theorem 6: parameter count of the built construction against 1/eps"))
BOUNDS = ((8, 3, 2, "1/1000"), (16, 4, 2, "1/1000"), (6, 2, 1, "1/100000"))
CSS = """body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;width:100%;margin:1em 0;font-size:0.9em}th,td{border:1px solid #ccc;padding:4px 6px;
text-align:left;vertical-align:top}th{background:#f3f3f3}.PROVED{color:#0a6b0a;font-weight:600}.REFUTED{color:#a00;
font-weight:600}.CONFIRMED{color:#8a6d00;font-weight:600}.UNKNOWN{color:#555;font-weight:600}code{font-size:0.95em}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ddd}.summary td{text-align:right}"""


def _e(x) -> str:
    return html.escape(str(x))


def build(results, docs_dir: str) -> tuple[str, list[str]]:
    """(html text, plot file names to copy) for the given check results."""
    from collections import Counter

    from attncert.papers.infoflow import bounds
    from attncert.integrations.audit import audit
    from attncert.core.families import all_families

    fams = {f.name: f for f in all_families()}
    by_paper: dict[str, dict[str, list]] = {}
    for r in results:
        by_paper.setdefault(r.obligation.paper, {}).setdefault(r.obligation.family, []).append(r)
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8"><title>attncert report</title>',
             f"<style>{CSS}</style></head><body>", "<h1>attncert report</h1>",
             "<p>Every displayed step of the two papers is an obligation with one of four verdicts: "
             "<span class=PROVED>PROVED</span> (symbolic algebra, SMT on z3 and cvc5, exact or rigorous interval "
             "arithmetic), <span class=REFUTED>REFUTED</span> (an exactly replayed counterexample), "
             "<span class=CONFIRMED>CONFIRMED</span> (numerical only, not a proof) or <span class=UNKNOWN>UNKNOWN</span>."
             " Steps refuted as printed are errata; their repairs are separate obligations.</p>"]
    # summary
    parts.append("<h2 id=summary>Summary</h2><table class=summary><tr><th>family</th><th>title</th>"
                 "<th>PROVED</th><th>CONFIRMED</th><th>UNKNOWN</th><th>REFUTED</th><th>total</th></tr>")
    for paper, fs in by_paper.items():
        for fam, rs in fs.items():
            c = Counter(r.verdict.name for r in rs)
            title = fams[fam].title if fam in fams else ""
            parts.append(f"<tr><td style='text-align:left'><a href='#{_e(fam)}'>{_e(fam)}</a></td>"
                         f"<td style='text-align:left'>{_e(title)}</td>" + "".join(
                             f"<td>{c[v]}</td>" for v in ("PROVED", "CONFIRMED", "UNKNOWN", "REFUTED")) + f"<td>{len(rs)}</td></tr>")
    parts.append("</table>")
    names = {"ks": "Kajitsuka and Sato (ICLR 2024)", "infoflow": "InfoFlow (Yu, Jiang, Bao, Li, 2026)"}
    for paper, fs in by_paper.items():
        parts.append(f"<h2 id='paper-{_e(paper)}'>{_e(names.get(paper, paper))}</h2>")
        for fam, rs in fs.items():
            parts.append(f"<h3 id='{_e(fam)}'>{_e(fam)}: {_e(fams[fam].title if fam in fams else '')}</h3>")
            parts.append("<table><tr><th>ref</th><th>statement</th><th>verdict</th><th>method</th></tr>")
            for r in rs:
                ob = r.obligation
                tag = r.verdict.name + (" (erratum)" if ob.finding and r.verdict.name == "REFUTED" else "")
                parts.append(f"<tr><td>{_e(ob.ref)}</td><td>{_e(ob.statement)}</td>"
                             f"<td class={r.verdict.name}>{_e(tag)}</td><td>{_e(r.evidence.method)}</td></tr>")
            parts.append("</table>")
    # errata
    rep = audit(results)
    parts.append(f"<h2 id=errata>Errata and findings ({len(rep['findings'])})</h2>")
    parts.append("<table><tr><th>ref</th><th>kind</th><th>affects conclusion</th><th>as printed</th>"
                 "<th>evidence</th><th>repair</th></tr>")
    for f in rep["findings"]:
        ev = f["evidence"]
        evs = f"{ev.get('verdict')} by {ev.get('method')}" + (f"; counterexample {ev['point']}" if "point" in ev else "")
        rb = "".join(f"<br><code>{_e(k)}</code>: {_e(v)}" for k, v in f["repair_verdicts"].items())
        parts.append(f"<tr><td>{_e(f['ref'])}</td><td>{_e(f['kind'])}</td><td>{'yes' if f['affects_conclusion'] else 'no'}</td>"
                     f"<td>{_e(f['as_printed'])}</td><td>{_e(evs)}</td><td>{_e(f['repair'])}{rb}</td></tr>")
    parts.append("</table>")
    # bounds
    parts.append("<h2 id=bounds>Explicit bounds</h2><p>InfoFlow Theorem 5 (<code>attncert bound thm5</code>): a "
                 "certified lower bound on the hidden width of f2, with rigorous enclosures.</p>")
    parts.append("<table><tr><th>T</th><th>k</th><th>n</th><th>eps</th><th>width p at least</th>"
                 "<th>C in</th><th>exponent of 1/eps (proof / Thm 5 / Thm 2)</th></tr>")
    for T, k, n, eps in BOUNDS:
        try:
            b = bounds.thm5(T=T, k=k, n=n, eps=eps)
            parts.append(f"<tr><td>{T}</td><td>{k}</td><td>{n}</td><td>{eps}</td><td>{_e(b.width_lower_int)}</td>"
                         f"<td>[{float(b.C.lo):.6g}, {float(b.C.hi):.6g}]</td><td>{_e(b.exponent)} / "
                         f"{_e(b.exponent_formal)} / {_e(b.exponent_informal)}</td></tr>")
        except Exception as e:  # a bound that cannot be computed is shown as such
            parts.append(f"<tr><td colspan=7>T={T} k={k} n={n} eps={eps}: {_e(e)}</td></tr>")
    parts.append("</table>")
    # plots
    copied = []
    parts.append("<h2 id=plots>Plots</h2>")
    for name, caption in PLOTS:
        if os.path.exists(os.path.join(docs_dir, name)):
            copied.append(name)
            parts.append(f"<figure><img src='{_e(name)}' alt='{_e(caption)}'><figcaption>{_e(caption)}</figcaption></figure>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n", copied


def write(results, out_dir: str, docs_dir: str) -> str:
    from attncert.core.certificate import atomic_write

    text, plots = build(results, docs_dir)
    os.makedirs(out_dir, exist_ok=True)
    for name in plots:
        shutil.copyfile(os.path.join(docs_dir, name), os.path.join(out_dir, name))
    path = os.path.join(out_dir, "index.html")
    atomic_write(path, text)
    return path

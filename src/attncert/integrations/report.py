"""`attncert report --out DIR`: a static HTML site organised as the papers are (issue 17, item 3).

- ``index.html``: provenance (attncert version, git commit, solver and library versions, date), the counts,
  and per paper its numbered results in reading order, each with its theorem-level verdict;
- ``<paper>/<result>.html``: one page per numbered lemma, theorem, proposition and corollary: the statement,
  the theorem-level verdict (and the repaired version where the printed one is false), the steps with their
  verdicts and an "as expected?" column, the errata with counterexamples and repairs, and the plots;
- ``<paper>/other-steps.html``: the steps that belong to no numbered result (displays, figures, sections);
- ``ob/<id>.html``: one page per obligation: the claim as mathematics (MathML), the evidence, the trust,
  the certificate file and the commands that re-check it;
- ``errata.html``: the audit, ranked by severity, conventions apart;
- ``plots/*.svg``: drawn by this run (attncert.integrations.plots), so they work from a plain install.

No scripts and no external resources: the site works offline, from file:// URLs. Every UNKNOWN shows its
reason; intervals are printed with enough digits that their ends differ."""

from __future__ import annotations

import datetime
import html
import os
import re
import subprocess
from fractions import Fraction

CSS = """body{font-family:system-ui,sans-serif;max-width:1150px;margin:1.5em auto;padding:0 1em;color:#222;line-height:1.4}
table{border-collapse:collapse;width:100%;margin:.8em 0;font-size:.9em}th,td{border:1px solid #ccc;padding:4px 6px;
text-align:left;vertical-align:top}th{background:#f3f3f3}code{font-size:.92em}a{color:#1a4f9c}
.v-PROVED{color:#0a6b0a;font-weight:600}.v-REFUTED{color:#a33a00;font-weight:600}.v-CONFIRMED{color:#8a6d00;
font-weight:600}.v-UNKNOWN{color:#555;font-weight:600}.v-OPEN{color:#555;font-weight:600}
tr.unexpected td{background:#fde2e2}td.ok{color:#0a6b0a}td.bad{color:#b00;font-weight:700}
.erratum{background:#fff4e0;border-left:4px solid #e08a00;padding:.4em .8em;margin:.8em 0}
.note{background:#eef4fb;border-left:4px solid #6b8fc7;padding:.4em .8em;margin:.8em 0}
blockquote{margin:.4em 0 .4em 1em;color:#444;font-style:italic}nav{font-size:.9em;margin-bottom:1em}
figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ddd}.small{font-size:.85em;color:#555}
math{font-size:1.05em}dl.kv{display:grid;grid-template-columns:max-content auto;gap:2px 12px;margin:.3em 0}
dl.kv dt{font-weight:600}dl.kv dd{margin:0}"""
PAPERS = {"ks": "Kajitsuka and Sato (ICLR 2024)", "infoflow": "InfoFlow (Yu, Jiang, Bao, Li, 2026)"}
RESULT_KINDS = ("theorem", "lemma", "proposition", "corollary")
BOUNDS = ((8, 3, 2, "1/1000"), (16, 4, 2, "1/1000"), (6, 2, 1, "1/100000"))
MAX_LIST = 12
MAX_DEPTH = 4


def _e(x) -> str:
    return html.escape(str(x))


_SAFE_ID = re.compile(r"[A-Za-z0-9_.-]{1,150}\Z")


def ob_file(oid: str) -> str:
    """The obligation's page name: its id when that is a plain file name, else a hash of it (an id from a user's
    claims file may hold '/', '#', '?' or '..')."""
    import hashlib

    if _SAFE_ID.match(oid) and oid not in (".", ".."):
        return f"{oid}.html"
    return "id-" + hashlib.sha256(oid.encode()).hexdigest()[:20] + ".html"


def slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def interval_text(lo, hi, max_digits: int = 40) -> str:
    """``[lo, hi]`` in decimal, rounded outward, with the fewest significant digits (at least 6) at which the two
    printed ends differ (or are exact)."""
    lo, hi = (Fraction(x) if isinstance(x, (int, float, Fraction)) else Fraction(str(x)) for x in (lo, hi))
    for d in range(6, max_digits + 1):
        a, b = _dec(lo, d, down=True), _dec(hi, d, down=False)
        if a != b or lo == hi:
            return f"[{a}, {b}]"
    return f"[{_dec(lo, max_digits, True)}, {_dec(hi, max_digits, False)}]"


def _dec(q: Fraction, digits: int, down: bool) -> str:
    """q in scientific notation with ``digits`` significant digits, rounded down (or up)."""
    if q == 0:
        return "0"
    sign = -1 if q < 0 else 1
    a = abs(q)
    e = len(str(a.numerator // a.denominator)) - 1 if a >= 1 else -len(str(a.denominator // a.numerator))
    while a >= Fraction(10) ** (e + 1):
        e += 1
    while a < Fraction(10) ** e:
        e -= 1
    scaled = a / Fraction(10) ** (e - digits + 1)
    toward_zero = (down and sign > 0) or (not down and sign < 0)
    m = scaled.numerator // scaled.denominator if toward_zero else -((-scaled.numerator) // scaled.denominator)
    if m >= 10 ** digits:
        m //= 10
        e += 1
    s = str(m)
    mant = s[0] + ("." + s[1:].rstrip("0") if s[1:].rstrip("0") else "")
    return ("-" if sign < 0 else "") + (mant if e == 0 else f"{mant}e{e}")


def provenance() -> dict:
    from attncert.core.versions import ATTNCERT_VERSION, versions

    out = {"attncert": ATTNCERT_VERSION}
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        p = subprocess.run(["git", "-C", here, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10,
                           check=False)
        if p.returncode == 0 and re.fullmatch(r"[0-9a-f]{40}", p.stdout.strip()):
            out["git commit"] = p.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    out.update(versions())
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    when = (datetime.datetime.fromtimestamp(int(epoch), datetime.timezone.utc) if epoch and epoch.isdigit()
            else datetime.datetime.now(datetime.timezone.utc))
    out["date"] = when.strftime("%Y-%m-%d %H:%M UTC")
    return out


def _page(title: str, body: list[str], depth: int) -> str:
    up = "../" * depth
    return "\n".join(["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
                      f"<title>{_e(title)}</title>", f'<link rel="stylesheet" href="{up}style.css"></head><body>',
                      f'<nav><a href="{up}index.html">attncert report</a> · <a href="{up}errata.html">errata</a></nav>',
                      *body, "</body></html>"]) + "\n"


def _verdict(v: str) -> str:
    return f'<span class="v-{_e(v.split()[0])}">{_e(v)}</span>'


def _ob_link(oid: str, depth: int) -> str:
    return f'<a href="{"../" * depth}ob/{_e(ob_file(oid))}"><code>{_e(oid)}</code></a>'


def _expected_cell(r, kinds: dict) -> str:
    if r.as_expected:
        tag = "yes"
        if r.verdict.name == "REFUTED":
            tag = ("yes (an erratum: refuted as printed)" if kinds.get(r.obligation.id) == "erratum"
                   else "yes (refuted, as expected)")
        elif r.verdict.name == "CONFIRMED":
            tag = "yes (numerical only, not a proof)"
        return f'<td class="ok">{_e(tag)}</td>'
    exp = r.obligation.expect.name if r.obligation.expect is not None else "PROVED or CONFIRMED"
    return f'<td class="bad">no (expected {_e(exp)})</td>'


def _steps_table(rs, depth: int, kinds: dict) -> list[str]:
    out = ["<table><tr><th>step</th><th>ref</th><th>statement</th><th>verdict</th><th>as expected?</th>"
           "<th>method</th></tr>"]
    for r in rs:
        ob = r.obligation
        why = f'<div class="small">{_e(r.evidence.reason)}</div>' if r.verdict.name == "UNKNOWN" else ""
        out.append(f'<tr class="{"ok" if r.as_expected else "unexpected"}"><td>{_ob_link(ob.id, depth)}</td>'
                   f"<td>{_e(ob.ref)}</td><td>{_e(ob.statement)}</td><td>{_verdict(r.verdict.name)}{why}</td>"
                   f"{_expected_cell(r, kinds)}<td>{_e(r.evidence.method)}</td></tr>")
    out.append("</table>")
    return out


def _erratum_html(x: dict, depth: int) -> list[str]:
    from attncert.integrations.audit import line_span

    cls = "erratum" if x["severity"] not in ("convention", "remark") else "note"
    out = [f'<div class="{cls}" id="{_e(x["id"])}"><p><b>{_e(x["severity"])}</b> · {_e(x["where"])}, '
           f'{_e(line_span(x["lines"]))}: {_e(x["title"])}</p>',
           f"<blockquote>{_e(x['quote'])}</blockquote>", f"<p>{_e(x['explanation'])}</p>"]
    if x["repair"]:
        checked = "" if x["repairs"] else " (not checked as a separate step)"
        out.append(f"<p><b>Repair{checked}.</b> {_e(x['repair'])}</p>")
    ev = "; ".join(f"{_ob_link(e['obligation'], depth)} {_verdict(e['verdict'])}"
                   + (f" (counterexample {_e(e['counterexample'])})" if e.get("counterexample") else "")
                   + (f" ({_e(e['reason'])})" if e.get("reason") else "")
                   for e in x["evidence"])
    out.append(f"<p><b>Evidence.</b> {ev}" + ("" if x["confirmed"] else " <b>NOT CONFIRMED in this run</b>") + "</p>")
    if x["repairs"]:
        out.append("<p><b>The repair, checked.</b> " + "; ".join(
            f"{_ob_link(r['obligation'], depth)} {_verdict(r['verdict'])}"
            + (" (numerical only, not a proof)" if r["verdict"] == "CONFIRMED" else "")
            + (f" ({_e(r['reason'])})" if r.get("reason") else "") for r in x["repairs"]) + "</p>")
    if x["obligations_run"] < x["obligations_total"]:
        out.append(f"<p class=small>{x['obligations_run']} of the {x['obligations_total']} steps of this entry were "
                   "in this run.</p>")
    out.append("</div>")
    return out


def _detail(v, depth: int = 0) -> str:
    """Evidence data as nested definition lists (never a Python or JSON repr); long lists are cut."""
    from attncert.core.expr import ALL_OPS, from_json
    from attncert.integrations.mathml import mathml

    if isinstance(v, dict):
        if depth >= MAX_DEPTH:
            return f"<i>({len(v)} fields: see the certificate)</i>"
        return '<dl class="kv">' + "".join(f"<dt>{_e(k)}</dt><dd>{_detail(x, depth + 1)}</dd>"
                                            for k, x in v.items()) + "</dl>"
    if isinstance(v, tuple):
        v = list(v)
    if isinstance(v, list):
        if len(v) >= 2 and isinstance(v[0], str) and v[0] in ALL_OPS:
            try:
                return mathml(from_json(v))
            except Exception:  # not an expression tree after all: shown as a list
                pass
        if all(not isinstance(x, (dict, list)) for x in v):
            shown = ", ".join(_e(x) for x in v[:MAX_LIST])
            return f"({shown}{f', ... {len(v) - MAX_LIST} more' if len(v) > MAX_LIST else ''})"
        if depth >= MAX_DEPTH:
            return f"<i>({len(v)} entries: see the certificate)</i>"
        items = "".join(f"<li>{_detail(x, depth + 1)}</li>" for x in v[:MAX_LIST])
        more = f"<li><i>... {len(v) - MAX_LIST} more entries: see the certificate</i></li>" if len(v) > MAX_LIST else ""
        return f"<ol>{items}{more}</ol>"
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return _e(v)


def _hyp_source(by: str | None, depth: int) -> str:
    if by is None:
        return "hypothesis of the statement"
    if by.startswith("axiom:"):
        return f"axiom instance: <code>{_e(by[6:])}</code>"
    if by.startswith("fact:"):
        return f"unchecked premise: {_e(by[5:])}"
    if by.startswith("cases:"):
        a, _, b = by[6:].partition(",")
        return f"by cases: {_ob_link(a, depth)} (T &gt;= 0) and {_ob_link(b, depth)} (T &lt;= 0)"
    if by.startswith("mvt:"):
        return "the mean value theorem on the derivative bound of " + _ob_link(by[4:], depth)
    if by.startswith("each:"):
        from attncert.core.theorems import each_parts

        var, cited = each_parts(by)
        return f"the goal of {_ob_link(cited, depth)} at every index ({_e(var)} := i)"
    return "the goal of " + _ob_link(by, depth)


def _ob_page(r, where: list[tuple[str, str]], erratum_of: dict, repaired_by: dict, kinds: dict) -> str:
    from attncert.core.claims import point_text
    from attncert.integrations.mathml import mathml

    ob, ev = r.obligation, r.evidence
    cert = f"certificates/{ob.paper}/{ob.family}/{ob.id}.json"
    body = [f"<h1><code>{_e(ob.id)}</code></h1>",
            f"<p>{_e(PAPERS.get(ob.paper, ob.paper))}, {_e(ob.ref)}"
            + (" · part of " + ", ".join(f'<a href="../{_e(h)}">{_e(t)}</a>' for h, t in where) if where else "")
            + "</p>", f"<p>{_e(ob.statement)}</p>", "<h2>Claim</h2>"]
    from attncert.integrations.mathml import names_collide

    lit = names_collide([v.name for v in ob.claim.vars])
    vs = ", ".join(f"{mathml(('var', v.name), literal_names=lit)} ({_e(v.domain)})" for v in ob.claim.vars)
    body.append(f"<p>For all {vs}:</p>" if vs else "<p>Closed claim:</p>")
    if ob.claim.hyps:
        body.append("<table><tr><th>hypothesis</th><th>source</th></tr>" + "".join(
            f"<tr><td>{mathml(h.expr, literal_names=lit)}</td><td>{_hyp_source(h.by, 1)}</td></tr>"
            for h in ob.claim.hyps) + "</table>")
    body.append(f"<p>then</p>{mathml(ob.claim.goal, display=True, literal_names=lit)}")
    exp = ob.expect.name if ob.expect is not None else "PROVED or CONFIRMED"
    body += ["<h2>Verdict</h2>",
             f"<p>{_verdict(r.verdict.name)} by <code>{_e(ev.method)}</code>; expected {_e(exp)}: "
             + ("as expected" if r.as_expected else "<b>NOT as expected</b>") + "</p>"]
    if ev.reason:
        body.append(f"<p><b>Reason.</b> {_e(ev.reason)}</p>")
    if isinstance(ev.detail.get("point"), dict):
        body.append(f"<p><b>Counterexample</b> (replayed in exact arithmetic): {_e(point_text(ev.detail['point']))}</p>")
    if r.tried:
        body.append(f"<p class=small>methods tried: {_e(', '.join(r.tried))}</p>")
    if ob.id in erratum_of:
        what = "erratum" if kinds.get(ob.id) == "erratum" else "note (not an erratum)"
        body.append(f'<p>This step is evidence of the {what} <a href="../errata.html#{_e(erratum_of[ob.id])}">'
                    f"{_e(erratum_of[ob.id])}</a>.</p>")
    if ob.repairs:
        body.append(f"<p>Repairs the step as printed: {_ob_link(ob.repairs, 1)}.</p>")
    if repaired_by.get(ob.id):
        body.append("<p>Repaired by: " + ", ".join(_ob_link(x, 1) for x in repaired_by[ob.id]) + ".</p>")
    shown = {k: v for k, v in ev.detail.items() if k != "point"}
    if isinstance(shown.get("atoms"), (list, tuple)):
        # the certificate lists them in the solvers' printed form; here only how many there are
        shown["atoms"] = (f"{len(shown['atoms'])} terms abstracted as free reals (exp, log, derivatives, norms, big "
                          "operators, set sizes: listed in the certificate)")
    body += ["<h2>Evidence</h2>", _detail(shown) or "<p>none</p>",
             "<h2>Trust</h2>",
             "<ul>" + "".join(f"<li>{_e(t)}</li>" for t in ev.trust) + "</ul>" if ev.trust else "<p>nothing beyond the "
             "method's own check</p>",
             "<h2>Certificate and re-check</h2>",
             f"<p>Certificate file (written by <code>attncert certify --out certificates</code>): <code>{_e(cert)}</code></p>",
             f"<pre>attncert check '{_e(ob.id)}'\nattncert verify {_e(cert)}</pre>"]
    return _page(ob.id, body, 1)


def _bounds_html() -> list[str]:
    from attncert.papers.infoflow import bounds

    out = ["<h2>Explicit bounds</h2><p>A certified lower bound on the hidden width of f2 "
           "(<code>attncert bound thm5</code>), with rigorous enclosures.</p>",
           "<table><tr><th>T</th><th>k</th><th>n</th><th>eps</th><th>width p at least</th><th>C in</th>"
           "<th>exponent of 1/eps (proof / Thm 5 / Thm 2)</th></tr>"]
    for T, k, n, eps in BOUNDS:
        try:
            b = bounds.thm5(T=T, k=k, n=n, eps=eps)
            out.append(f"<tr><td>{T}</td><td>{k}</td><td>{n}</td><td>{eps}</td><td>{_e(b.width_lower_int)}</td>"
                       f"<td>{_e(interval_text(b.C.lo, b.C.hi))}</td><td>{_e(b.exponent)} / {_e(b.exponent_formal)} / "
                       f"{_e(b.exponent_informal)}</td></tr>")
        except Exception as e:  # a bound that cannot be computed is shown as such
            out.append(f"<tr><td colspan=7>T={T} k={k} n={n} eps={eps}: {_e(e)}</td></tr>")
    return out + ["</table>"]


def build(results) -> dict[str, str]:
    """The site: relative path -> file text."""
    import fnmatch
    from collections import Counter

    from attncert.core.theorems import axioms_text, theorem_rows
    from attncert.integrations import plots
    from attncert.integrations.audit import audit, headline, registered
    from attncert.integrations.coverage import items
    from attncert.integrations.mathml import mathml

    files: dict[str, str] = {"style.css": CSS + "\n"}
    by_id = {r.obligation.id: r for r in results}
    rep = audit(results)
    erratum_of = {e["obligation"]: x["id"] for x in rep["errata"] + rep["notes"] for e in x["evidence"]}
    kinds = {e["obligation"]: ("erratum" if x in rep["errata"] else "note")
             for x in rep["errata"] + rep["notes"] for e in x["evidence"]}
    repaired_by: dict[str, list] = {}
    for r in results:
        if r.obligation.repairs:
            repaired_by.setdefault(r.obligation.repairs, []).append(r.obligation.id)
    th_rows = theorem_rows([r for r in results if registered(r)])
    prov = provenance()
    where: dict[str, list] = {}
    index = ["<h1>attncert report</h1>",
             "<p>Every displayed step of the two papers is an obligation with one of four verdicts: "
             f"{_verdict('PROVED')} (symbolic algebra, SMT on z3 and cvc5, exact or rigorous interval arithmetic), "
             f"{_verdict('REFUTED')} (a counterexample replayed exactly), {_verdict('CONFIRMED')} (numerical only, "
             f"not a proof) or {_verdict('UNKNOWN')} (with its reason). A step refuted as printed is an erratum, "
             "expected; the column <i>as expected?</i> separates those from real failures, which are red.</p>",
             "<h2>Provenance</h2><table>" + "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in prov.items())
             + "</table>"]
    c = Counter(r.verdict.name for r in results)
    bad = [r for r in results if not r.as_expected]
    index.append(f"<p>{len(results)} obligations: " + ", ".join(f"{c[v]} {_verdict(v)}" for v in
                 ("PROVED", "REFUTED", "CONFIRMED", "UNKNOWN") if c[v]) + f"; {len(bad)} not as expected. "
                 f'<a href="errata.html">{len(rep["errata"])} errata and {len(rep["notes"])} notes</a>.</p>')
    plot_files = set()
    for paper in ("infoflow", "ks"):
        prs = [r for r in results if r.obligation.paper == paper and registered(r)]
        if not prs:
            continue
        index.append(f"<h2>{_e(PAPERS[paper])}</h2><table><tr><th>result</th><th>line</th><th>theorem-level verdict"
                     "</th><th>steps</th><th>as expected</th><th>errata</th></tr>")
        results_items = [it for it in items(paper) if it.kind in RESULT_KINDS]
        labels = {it.label for it in results_items}
        extra = [t for t in th_rows if t["paper"] == paper and not any(
            t["label"] == lb or t["label"].startswith(lb + " (") for lb in labels)]
        pages = [(it.label, it.line, [g for g in it.globs], it.note) for it in results_items]
        pages += [(t["label"], None, list(t["roots"]), t["note"]) for t in extra]
        for label, line, globs, note in pages:
            steps = [r for r in prs if any(fnmatch.fnmatchcase(r.obligation.id, g) for g in globs)]
            ths = [t for t in th_rows if t["paper"] == paper and (t["label"] == label or t["label"].startswith(label + " ("))]
            name = f"{paper}/{slug(label)}.html"
            for r in steps:
                where.setdefault(r.obligation.id, []).append((name, f"{paper} {label}"))
            step_ids = {r.obligation.id for r in steps}
            errs = [x for x in rep["errata"] + rep["notes"] if any(e["obligation"] in step_ids for e in x["evidence"])]
            ok = sum(1 for r in steps if r.as_expected)
            verdicts = "<br>".join(f"{_e(t['label'])}: {_verdict(t['verdict'])}" for t in ths) or "no theorem record"
            index.append(f'<tr><td><a href="{_e(name)}">{_e(label)}</a></td><td>{line or ""}</td><td>{verdicts}</td>'
                         f"<td>{len(steps)}</td><td>{ok}/{len(steps)}</td>"
                         f"<td>{sum(1 for x in errs if x['severity'] not in ('convention', 'remark'))}</td></tr>")
            body = [f"<h1>{_e(PAPERS[paper])}: {_e(label)}</h1>"]
            if line:
                body.append(f"<p class=small>line {line} of the paper's text. {_e(note)}</p>")
            for t in ths:
                body.append(f"<h2>{_e(t['label'])}: {_verdict(t['verdict'])}</h2><p>{_e(t['statement'])}</p>")
                root = by_id.get((t["roots"] or [t["printed"]])[0]) if (t["roots"] or t["printed"]) else None
                if root is not None:
                    body.append(f"<p>As checked ({_ob_link(root.obligation.id, 1)}, under its hypotheses):</p>"
                                f"{mathml(root.obligation.claim.goal, display=True)}")
                if t["instances"]:
                    body.append(f"<p>Proved for the instances {_e(t['instances'])}.</p>")
                if t["axioms"]:
                    body.append(f"<p>Rests on the axioms: {_e(axioms_text(t['axioms']))}.</p>")
                if t["printed"]:
                    body.append(f"<p>Refuted as printed by {_ob_link(t['printed'], 1)}; repaired version: "
                                f"<code>{_e(t['repaired'])}</code>.</p>")
                if t["blocking"]:
                    body.append("<p>What keeps it from PROVED:</p><ul>" + "".join(
                        f"<li>{_e(b)}</li>" for b in t["blocking"]) + "</ul>")
                if t["roots"]:
                    body.append("<p>Stated by: " + ", ".join(_ob_link(x, 1) for x in t["roots"]) + "</p>")
            body += [f"<h2>Steps ({len(steps)})</h2>"] + (_steps_table(steps, 1, kinds) if steps else ["<p>none transcribed</p>"])
            if errs:
                body.append(f"<h2>Errata and notes ({len(errs)})</h2>")
                for x in errs:
                    body += _erratum_html(x, 1)
            if paper == "infoflow" and label == "Theorem 5":
                body += _bounds_html()
            for pn in plots.FOR_RESULT.get((paper, label), []):
                plot_files.add(pn)
                body.append(f'<h2>Plot</h2><figure><img src="../plots/{pn}.svg" alt="{_e(plots.CAPTIONS[pn])}">'
                            f"<figcaption>{_e(plots.CAPTIONS[pn])}</figcaption></figure>")
            files[name] = _page(f"{PAPERS[paper]}: {label}", body, 1)
        rest = [r for r in prs if r.obligation.id not in where]
        if rest:
            name = f"{paper}/other-steps.html"
            for r in rest:
                where.setdefault(r.obligation.id, []).append((name, f"{paper}: steps outside the numbered results"))
            body = [f"<h1>{_e(PAPERS[paper])}: steps outside the numbered results</h1>",
                    "<p>Displays, sections and figures that no numbered result states (see docs/coverage.md).</p>"]
            for fam in sorted({r.obligation.family for r in rest}):
                body += [f"<h2>{_e(fam)}</h2>"] + _steps_table([r for r in rest if r.obligation.family == fam], 1, kinds)
            files[name] = _page(f"{PAPERS[paper]}: other steps", body, 1)
            index.append(f'<tr><td><a href="{_e(name)}">steps outside the numbered results</a></td><td></td><td></td>'
                         f"<td>{len(rest)}</td><td>{sum(1 for r in rest if r.as_expected)}/{len(rest)}</td><td></td></tr>")
        index.append("</table>")
    # a user's own claims (and any claim that reuses a paper's id but is not its transcribed obligation)
    others = [r for r in results if r.obligation.id not in where]
    if others:
        for r in others:
            where.setdefault(r.obligation.id, []).append(("claims.html", "other claims"))
        body = ["<h1>Other claims</h1>", "<p>Claims that are not transcribed steps of the two papers: a user's own "
                "claims, and any claim that reuses a paper's obligation id without being that obligation.</p>"]
        for fam in sorted({r.obligation.family for r in others}):
            body += [f"<h2>{_e(fam)}</h2>"] + _steps_table([r for r in others if r.obligation.family == fam], 0, kinds)
        files["claims.html"] = _page("other claims", body, 0)
        index.append(f'<h2>Other claims</h2><p><a href="claims.html">{len(others)} claims</a> outside the two papers\' '
                     f"transcriptions; {sum(1 for r in others if r.as_expected)} as expected.</p>")
    if bad:
        index.append("<h2>Not as expected</h2>" + "".join(_steps_table(bad, 0, kinds)))
    # errata page
    eb = ["<h1>Errata and notes</h1>", f"<p>{_e(headline(rep))} Ranked by severity; the notes on conventions and "
          "correct steps are apart. The letter to the authors: <code>attncert audit --md FILE</code>.</p>"]
    for paper in ("infoflow", "ks"):
        es = [x for x in rep["errata"] if x["paper"] == paper]
        ns = [x for x in rep["notes"] if x["paper"] == paper]
        if es or ns:
            eb.append(f"<h2>{_e(PAPERS[paper])}: {len(es)} errata</h2>")
            for x in es:
                eb += _erratum_html(x, 0)
            eb.append(f"<h2>{_e(PAPERS[paper])}: {len(ns)} notes (not errata)</h2>")
            for x in ns:
                eb += _erratum_html(x, 0)
    files["errata.html"] = _page("attncert errata", eb, 0)
    for r in results:
        files[f"ob/{ob_file(r.obligation.id)}"] = _ob_page(r, where.get(r.obligation.id, []), erratum_of, repaired_by,
                                                           kinds)
    for pn in sorted(plot_files):
        files[f"plots/{pn}.svg"] = plots.PLOTS[pn]()
    files["index.html"] = _page("attncert report", index, 0)
    return files


def write(results, out_dir: str) -> str:
    """Writes the site under ``out_dir`` (each file atomically) and returns the path of index.html."""
    from attncert.core.certificate import atomic_write

    files = build(results)
    for rel, text in files.items():
        path = os.path.join(out_dir, *rel.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        atomic_write(path, text)
    return os.path.join(out_dir, "index.html")

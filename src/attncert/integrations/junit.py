"""JUnit XML for CI systems: one <testsuite> per family, one <testcase> per obligation.

As expected (PROVED, CONFIRMED, or the expected REFUTED of an erratum) -> pass; UNKNOWN when something
else was expected -> skipped, with the reason; anything else not as expected -> failure, whose body names
the verdict, the method, the reference, the statement and, for a refutation, the exact counterexample."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from attncert.api import failing
from attncert.core.claims import point_text


def junit_xml(results) -> str:
    fams: dict[str, list] = {}
    for r in results:
        fams.setdefault(r.obligation.family or "attncert", []).append(r)
    out = ['<?xml version="1.0" encoding="UTF-8"?>']
    total = sum(len(v) for v in fams.values())
    failed = {id(r) for r in failing(results)}  # the one UNKNOWN policy: an UNKNOWN is skipped, not failed
    fails = len(failed)
    skips = sum(1 for r in results if not r.as_expected and id(r) not in failed)
    out.append(f'<testsuites name="attncert" tests="{total}" failures="{fails}" skipped="{skips}">')
    for fam, rs in fams.items():
        f = sum(1 for r in rs if id(r) in failed)
        s = sum(1 for r in rs if not r.as_expected and id(r) not in failed)
        t = sum(r.seconds for r in rs)
        out.append(f'  <testsuite name={quoteattr(fam)} tests="{len(rs)}" failures="{f}" skipped="{s}" time="{t:.3f}">')
        for r in rs:
            ob = r.obligation
            head = (f'    <testcase classname={quoteattr(fam)} name={quoteattr(ob.id)} time="{r.seconds:.3f}"')
            msg = f"{r.verdict.name} by {r.evidence.method}: {ob.ref}: {ob.statement}"
            point = r.evidence.detail.get("point") if isinstance(r.evidence.detail, dict) else None
            if point:  # the counterexample, exact, as the certificate records it
                msg += "\ncounterexample: " + point_text(point)
            if r.as_expected:
                out.append(head + " />")
            elif id(r) not in failed:  # UNKNOWN
                out.append(head + ">")
                out.append(f"      <skipped message={quoteattr(str(r.evidence.detail.get('reason', ''))[:500])} />")
                out.append("    </testcase>")
            else:
                exp = ob.expect.name if ob.expect else "PROVED or CONFIRMED"
                out.append(head + ">")
                out.append(f"      <failure message={quoteattr(f'expected {exp}, got {r.verdict.name}')}>{escape(msg)}</failure>")
                out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"

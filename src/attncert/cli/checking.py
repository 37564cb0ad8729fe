"""`check`, `certify`, `verify`, `report`, `list`, `audit`: the transcribed obligations and their certificates."""

from __future__ import annotations

import os


from attncert.core.errors import UsageError
from attncert.cli.common import fmt_line, run_all, summary, write_json


def cmd_check(args, out, err) -> int:
    from attncert import api

    obs = api.select(args.selector)

    def show(r):
        if args.quiet and r.as_expected:
            return
        out.write(fmt_line(r) + "\n")
        out.flush()

    results = run_all(obs, args.timeout, err, on_result=show, jobs=args.jobs, use_cache=not args.no_cache,
                       executor=args.executor)
    summary(results, out)
    if args.json:
        write_json(args.json, api.check_json(results))
    if args.junit:
        from attncert.integrations.junit import junit_xml
        from attncert.core.certificate import atomic_write
        atomic_write(args.junit, junit_xml(results))
    return 1 if api.failing(results, args.strict) else 0


def cmd_certify(args, out, err) -> int:
    from attncert import api

    if args.manifest and args.selector != "all":
        raise UsageError("--manifest needs every obligation certified (selector 'all'): theorem certificates are "
                         "written only then")
    results = run_all(api.select(args.selector), args.timeout, err, "certifying", jobs=args.jobs,
                       use_cache=not args.no_cache, executor=args.executor)
    paths = api.write_certificates(results, args.out)
    if args.manifest:
        import json

        from attncert.core.certificate import atomic_write
        from attncert.core.theorems import manifest
        theorem_paths = paths[len(results):]
        if not theorem_paths:
            raise UsageError("--manifest: no theorem certificates were written (certify every obligation: 'all')")
        certs = []
        for p in theorem_paths:
            with open(p, encoding="utf-8") as fh:
                certs.append(json.load(fh))
        atomic_write(args.manifest, json.dumps(manifest(certs), indent=1, sort_keys=True) + "\n")
    for r, p in zip(results, paths):
        if not (args.quiet and r.as_expected):
            out.write(f"{r.verdict.name:<9} {p}\n")
    out.write(f"wrote {len(paths)} certificates under {args.out}\n")
    return 1 if api.failing(results, args.strict) else 0


def cmd_verify(args, out, err) -> int:
    from attncert.checker.verify import verify_paths

    for p in args.paths:
        if not os.path.exists(p):
            raise UsageError(f"{p}: no such file or directory")
    from attncert.checker.verify import set_limits
    set_limits(digits=args.max_digits, nodes=args.max_nodes, prec=args.max_prec, file_mb=args.max_file_mb,
               solvers=args.solvers, work=args.max_work)
    jobs = args.jobs if args.jobs is not None else max(1, min(8, os.cpu_count() or 1))
    report: list = []
    code = verify_paths(args.paths, out, solver_timeout=args.timeout, quiet=args.quiet, report=report,
                        allow_conditional=args.allow_conditional, jobs=jobs)
    if args.json:
        write_json(args.json, {"schema": "attncert.verify/2", "results": report})
    return code


def cmd_report(args, out, err) -> int:
    from attncert import api
    from attncert.integrations import report

    results = run_all(api.select(args.selector), args.timeout, err, "checking", jobs=args.jobs,
                       use_cache=not args.no_cache)
    path = report.write(results, args.out)
    out.write(f"wrote {path} ({len(results)} obligations, one page each, and a page per numbered result)\n")
    return 1 if api.failing(results, args.strict) else 0


def _check_paper(paper: str) -> None:
    if paper not in ("all", "infoflow", "ks"):
        raise UsageError(f"unknown paper {paper!r}: all, infoflow or ks")


def cmd_theorems(args, out, err) -> int:
    """Runs every obligation (cached), then the prover's closure walk; `verify` re-establishes each row
    from the theorem certificates that `certify` writes."""
    from attncert import api
    from attncert.core.theorems import axioms_text, theorem_rows

    _check_paper(args.paper)
    results = run_all(api.select("all"), args.timeout, err, "checking", jobs=args.jobs, use_cache=not args.no_cache)
    rows = [r for r in theorem_rows(results) if args.paper in ("all", r["paper"])]
    counts: dict = {}
    for r in rows:
        counts[r["verdict"]] = counts.get(r["verdict"], 0) + 1
        what = r["instances"] or ""
        out.write(f"{r['label']:<16} {r['paper']:<9} {r['verdict']:<21}"
                  + (f" [{what}]" if what else "")
                  + (f" axioms: {axioms_text(r['axioms'])}" if r["axioms"] else "") + "\n")
        if r["repaired"]:
            out.write(f"{'':<16} repaired version: {r['repaired']}\n")
        if args.verbose and r["definitions"]:
            out.write(f"{'':<16} definitions (checked, abbreviations): "
                      + "; ".join(d["expr"] for d in r["definitions"]) + "\n")
        for b in (r["blocking"] if args.verbose else r["blocking"][:1]):
            out.write(f"{'':<16} blocked: {b}\n")
        if len(r["blocking"]) > 1 and not args.verbose:
            out.write(f"{'':<16} (+{len(r['blocking']) - 1} more blocking steps; -v lists them)\n")
    out.write(f"{len(rows)} numbered results: " + ", ".join(f"{counts[v]} {v}" for v in
              ("PROVED", "PROVED FOR INSTANCES", "CONFIRMED", "REFUTED AS PRINTED", "OPEN") if v in counts) + "\n")
    if args.json:
        write_json(args.json, {"schema": "attncert.theorems/1", "theorems": rows})
    if args.md:
        from attncert.core.certificate import atomic_write
        from attncert.core.theorems import theorems_markdown
        atomic_write(args.md, theorems_markdown(rows))
    return 0


def cmd_coverage(args, out, err) -> int:
    """Every numbered item of the papers with its status; transcribed items with their obligations'
    verdicts (runs them, cached; --no-run only joins the inventory with the obligation ids)."""
    from attncert import api
    from attncert.integrations import coverage

    _check_paper(args.paper)
    obs = api.select(args.paper)
    verdicts = {}
    if not args.no_run:
        for r in run_all(obs, args.timeout, err, "checking", jobs=args.jobs, use_cache=not args.no_cache):
            erratum = r.as_expected and r.verdict.name == "REFUTED" and r.obligation.finding is not None
            verdicts[r.obligation.id] = (r.verdict.name, erratum)
    rec = coverage.table(obs, verdicts, args.paper)
    if not args.quiet:
        for row in rec["items"]:
            v = coverage.verdicts_cell(row)
            out.write(f"{row['paper']:<9} {row['label']:<14} L{row['line']:<5} {row['status']:<16}"
                      + (f" {v}" if v else "") + (f"  ({row['note']})" if row["status"] != "transcribed" else "") + "\n")
    for p, sm in rec["summary"].items():
        out.write(coverage.summary_line(p, sm) + "\n")
    if args.json:
        write_json(args.json, rec)
    if args.md:
        from attncert.core.certificate import atomic_write
        atomic_write(args.md, coverage.markdown(rec))
    return 0


def cmd_list(args, out, err) -> int:
    from attncert.core.families import all_families, select

    chosen = {o.id for o in select(args.selector)}
    rec = []
    for fam in all_families():
        obs = [o for o in fam.obligations if o.id in chosen]
        if not obs:
            continue
        out.write(f"{fam.name} ({fam.paper}): {fam.title} -- {len(obs)} obligations\n")
        for o in obs:
            exp = f" [expect {o.expect.name}]" if o.expect is not None else ""
            out.write(f"  {o.id:<48} {o.ref:<28} {'/'.join(o.methods)}{exp}\n")
        rec.append({"family": fam.name, "paper": fam.paper, "title": fam.title,
                    "obligations": [{"id": o.id, "ref": o.ref, "statement": o.statement, "methods": list(o.methods),
                                     "expect": o.expect.name if o.expect is not None else None} for o in obs]})
    if args.json:
        write_json(args.json, {"schema": "attncert.list/1", "families": rec})
    return 0


def cmd_audit(args, out, err) -> int:
    from attncert import api
    from attncert.core.versions import ATTNCERT_VERSION, versions
    from attncert.integrations.audit import audit, text_summary, to_markdown

    results = run_all(api.select(args.selector), args.timeout, err, "auditing", jobs=args.jobs,
                      use_cache=not args.no_cache)
    report = audit(results)
    out.write(text_summary(report))
    if args.json:
        write_json(args.json, report)
    if args.md:
        from attncert.core.certificate import atomic_write

        vs = versions()
        prov = {"attncert": ATTNCERT_VERSION, **{k: vs[k] for k in ("z3", "cvc5", "sympy", "mpmath", "python-flint") if k in vs}}
        atomic_write(args.md, to_markdown(report, prov))
    unexpected = [r for r in results if not r.as_expected]
    return 0 if not unexpected and not report["uncatalogued"] else 1

"""What the commands share: argument types, JSON output, the run loop with progress and cache, the summary."""

from __future__ import annotations

import argparse
import json
import sys
import os


from attncert.core.errors import UsageError


EPILOG = """exit codes: 0 all proved, confirmed or as expected; 1 something refuted or not as expected
(with --strict: also UNKNOWN) or not verified (verify: REJECTED, or CONDITIONAL without
--allow-conditional); 2 usage error; 3 (verify) some
certificate cannot be checked on this machine (a solver is missing) and none was rejected. --json -
writes the JSON to standard output and the usual lines to standard error.
Selectors: all (default), a paper (ks, infoflow), a family, an obligation id, or a glob over ids such as
'ks.boltz.lemma7.*'."""


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


JSON_STDOUT: list = []  # the real standard output while a command runs with --json - (set by cli.main.run)


def write_json(path: str, obj, default=None) -> None:
    """Write JSON to ``path`` atomically; ``-`` is standard output (the command's human-readable output
    then goes to standard error, so the JSON on stdout stays parseable)."""
    from attncert.core.certificate import atomic_write

    text = json.dumps(obj, indent=1, sort_keys=True, default=default) + "\n"
    if path == "-":
        (JSON_STDOUT[-1] if JSON_STDOUT else sys.stdout).write(text)
    else:
        atomic_write(path, text)


def fmt_line(res) -> str:
    ob = res.obligation
    tag = res.verdict.name
    if ob.expect is not None and res.verdict == ob.expect and ob.expect.name == "REFUTED":
        tag += " (as expected: erratum)" if ob.finding is not None else " (as expected)"
    elif not res.as_expected:
        tag += " (UNEXPECTED)"
    stmt = ob.statement if len(ob.statement) <= 110 else ob.statement[:107] + "..."
    extra = ""
    if res.verdict.name == "UNKNOWN":
        extra = f" [{res.evidence.detail.get('reason', '')}]"
    point = res.evidence.detail.get("point") if isinstance(res.evidence.detail, dict) else None
    if res.verdict.name == "REFUTED" and isinstance(point, dict) and not res.as_expected:
        from attncert.core.claims import point_text

        shown = point_text(point)
        extra = f" [counterexample: {shown if len(shown) <= 200 else shown[:197] + '...'}]"
    return f"{ob.ref}: {tag}: {stmt} ({res.evidence.method}, {res.seconds:.2f}s){extra}"


def run_all(obs, timeout, stderr, label="checking", on_result=None, jobs=1, use_cache=False, executor="local"):
    """Run obligations (in ``jobs`` processes, through the result cache unless disabled) and report them
    in transcription order. Without a terminal, each result is reported as soon as it and all before it
    are known (``on_result``); with one, a progress bar runs on stderr and results are reported at the end."""
    from attncert.core.runner import ResultCache, run_many

    use_cache = use_cache and not os.environ.get("ATTNCERT_NO_CACHE")
    cache = ResultCache(os.environ.get("ATTNCERT_CACHE_DIR") or ".attncert-cache") if use_cache else None
    import logging

    from attncert.core.log import Ticker

    log = logging.getLogger("attncert.cli")
    use_bar = (stderr.isatty() if hasattr(stderr, "isatty") else False) and log.isEnabledFor(logging.INFO)
    tick, done = Ticker(log, label, len(obs)), [0]

    def step(r):  # off a terminal: a progress line every ten seconds or so (INFO; -q hides it)
        done[0] += 1
        tick(done[0], r.obligation.id)
        if on_result:
            on_result(r)
    if executor != "local":
        from attncert.core.runner import run_dask

        addr = executor.split("dask", 1)[1].lstrip(":") or None
        results = run_dask(obs, timeout, address=addr, workers=max(jobs, 2), cache=cache, on_result=step)
    elif use_bar:
        from rich.progress import Progress

        with Progress(transient=True, console=console(stderr)) as prog:
            task = prog.add_task(label, total=len(obs))
            results = run_many(obs, timeout, jobs, cache, on_result=lambda r: prog.advance(task),
                               on_start=lambda ob: prog.update(task, description=f"{label} {ob.id}"))
        if on_result:
            for r in results:
                on_result(r)
    else:
        results = run_many(obs, timeout, jobs, cache, on_result=step)
    if cache is not None and cache.hits:
        log.info("%d of %d results from the cache (%s; --no-cache to recompute)", cache.hits, len(obs), cache.root)
    return results


def console(stream):
    from rich.console import Console

    return Console(file=stream)


def summary(results, out) -> None:
    from collections import Counter

    from attncert.core.verdict import Verdict

    by_fam: dict[str, Counter] = {}
    for r in results:
        by_fam.setdefault(r.obligation.family, Counter())[r.verdict] += 1
    names = [v.name for v in Verdict]
    out.write("\n" + f"{'family':<28}" + "".join(f"{n:>10}" for n in names) + f"{'total':>8}\n")
    for fam, c in by_fam.items():
        out.write(f"{fam:<28}" + "".join(f"{c[v]:>10}" for v in Verdict) + f"{sum(c.values()):>8}\n")
    from attncert.api import failing

    bad = failing(results)
    unknown = sum(1 for r in results if not r.as_expected) - len(bad)
    errata = sum(1 for r in results if r.as_expected and r.verdict.name == "REFUTED" and r.obligation.finding)
    other = sum(1 for r in results if r.as_expected and r.verdict.name == "REFUTED" and not r.obligation.finding)
    out.write(f"\n{len(results)} obligations; {errata} steps refuted as printed (errata, see `attncert audit`); "
              f"{other} other expected refutations (counterexamples below a hypothesis); {len(bad)} not as expected"
              + (f"; {unknown} UNKNOWN (a failure only with --strict)" if unknown else "") + "\n")


def writable(*paths) -> None:
    """Refuse an output path whose folder is missing or read-only before a long run, not after it."""
    import os

    for p in paths:
        if p is None or p == "-":
            continue
        d = os.path.dirname(os.path.abspath(p))
        if not os.path.isdir(d) or not os.access(d, os.W_OK):
            raise UsageError(f"cannot write {p}: folder {d} is missing or not writable")


def arg_limit(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r} is not an integer") from None
    if not 1 <= v <= 10 ** 9:
        raise argparse.ArgumentTypeError(f"{s!r} must be between 1 and 10^9")
    return v


def arg_executor(s: str) -> str:
    if s == "local" or s == "dask" or s.startswith("dask:"):
        return s
    raise argparse.ArgumentTypeError(f"{s!r}: use local, dask or dask:tcp://HOST:PORT")


def arg_solvers(s: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(x.strip() for x in s.split(",") if x.strip()))
    if not names or any(n not in ("z3", "cvc5") for n in names):
        raise argparse.ArgumentTypeError(f"{s!r}: a comma-separated list of z3 and cvc5")
    return names


def arg_jobs(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r} is not an integer") from None
    if not 1 <= v <= 64:
        raise argparse.ArgumentTypeError(f"{s!r} must be between 1 and 64")
    return v


def arg_positive_float(s: str) -> float:
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{s!r} is not a number") from None
    if not (v > 0 and v < 1e6):
        raise argparse.ArgumentTypeError(f"{s!r} must be a positive number of seconds")
    return v

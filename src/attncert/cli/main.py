"""The attncert command line. Each command is ``(args, stdout, stderr) -> int``; only ``main`` exits.

Exit codes: 0 all proved, confirmed or as expected; 1 something refuted, unknown or failed to
verify; 2 usage error (unknown selector, bad parameter, unreadable file)."""

from __future__ import annotations

import argparse
import os
import sys


from attncert.core.engine import WALL_TIMEOUT_S
from attncert.core.errors import AttncertError, UsageError
from attncert.core.versions import ATTNCERT_VERSION
from attncert.cli import common
from attncert.cli.common import EPILOG, Parser, arg_executor, arg_jobs, arg_limit, arg_positive_float, arg_solvers
from attncert.cli.checking import cmd_audit, cmd_certify, cmd_check, cmd_coverage, cmd_list, cmd_report, cmd_theorems, cmd_verify
from attncert.cli.bounds import cmd_bound
from attncert.cli.witness import cmd_witness
from attncert.cli.construct import cmd_construct
from attncert.cli.gpu import cmd_gpu_check, cmd_train


SELECTOR_HELP = ("what to run: all (default), a paper (ks, infoflow), a family, an obligation id, a glob such as "
                 "'ks.boltz.lemma7.*', or a claim file FILE.py")


def _run_options(c) -> None:
    """The options of every command that runs obligations through the runner and its cache."""
    c.add_argument("--timeout", type=arg_positive_float, default=WALL_TIMEOUT_S, metavar="S",
                   help="safety kill per solver call (seconds; verdicts use deterministic resource limits, a kill "
                        "gives UNKNOWN)")
    c.add_argument("--jobs", type=arg_jobs, default=1, metavar="N", help="run obligations in N processes (the "
                   "output order does not change)")
    c.add_argument("--no-cache", action="store_true", help="ignore and do not update .attncert-cache/")


def build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="attncert", description="Prover companion for InfoFlow (Yu et al. 2026) and "
                "Kajitsuka-Sato (ICLR 2024): check proof steps, write and verify certificates.", epilog=EPILOG)
    p.add_argument("--version", action="version", version=f"attncert {ATTNCERT_VERSION}")
    sub = p.add_subparsers(dest="command", parser_class=Parser)
    c = sub.add_parser("check", help="discharge obligations and print one verdict per line", epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all", help=SELECTOR_HELP)
    c.add_argument("--json", metavar="FILE", help="write attncert.check/1 JSON results to FILE")
    c.add_argument("--timeout", type=arg_positive_float, default=WALL_TIMEOUT_S, metavar="S",
                   help="safety kill per solver call (seconds; verdicts use deterministic resource limits, a kill gives UNKNOWN)")
    c.add_argument("--jobs", type=arg_jobs, default=1, metavar="N", help="run obligations in N processes (output order unchanged)")
    c.add_argument("--no-cache", action="store_true", help="ignore and do not update .attncert-cache/")
    c.add_argument("--junit", metavar="FILE", help="write JUnit XML (one test case per obligation) to FILE")
    c.add_argument("--executor", type=arg_executor, default="local", metavar="E",
                   help="local (default), dask (a local Dask cluster of --jobs workers) or dask:tcp://HOST:PORT")
    c.add_argument("--strict", action="store_true", help="UNKNOWN fails (exit 1); without it an UNKNOWN is reported and counted, not failed")
    c.set_defaults(fn=cmd_check)
    c = sub.add_parser("certify", help="write certificates (deterministic JSON)", epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all", help=SELECTOR_HELP)
    c.add_argument("--out", required=True, metavar="DIR", help="write the certificates under DIR/PAPER/FAMILY/ID.json "
                   "(and DIR/PAPER/theorems/ when every obligation ran)")
    _run_options(c)
    c.add_argument("--executor", type=arg_executor, default="local", metavar="E", help="local, dask or dask:ADDRESS")
    c.add_argument("--strict", action="store_true", help="UNKNOWN fails (exit 1); without it an UNKNOWN is reported and counted, not failed")
    c.add_argument("--manifest", metavar="FILE", help="also write the released theorem list (what "
                   "src/attncert/checker/theorems.json holds) for the theorem certificates written; maintainers only")
    c.set_defaults(fn=cmd_certify)
    c = sub.add_parser("verify", help="independently re-check certificate files", epilog=EPILOG)
    c.add_argument("paths", nargs="+", metavar="PATH", help="certificate files or folders of them (verify a whole "
                   "folder at once, so that links between certificates are checked)")
    c.add_argument("--timeout", type=arg_positive_float, default=WALL_TIMEOUT_S, metavar="S", help="safety kill per solver call (seconds)")
    c.add_argument("--allow-conditional", action="store_true",
                   help="exit 0 even when a PROVED certificate rests on a source that is not a verified, PROVED "
                        "certificate of this set (such certificates are still reported as CONDITIONAL)")
    c.add_argument("--json", metavar="FILE", help="write attncert.verify/2 JSON (one record per file) to FILE")
    c.add_argument("--max-digits", type=arg_limit, metavar="N", help="refuse numbers with more digits (default 5000)")
    c.add_argument("--max-nodes", type=arg_limit, metavar="N", help="refuse larger expression trees (default 200000)")
    c.add_argument("--max-prec", type=arg_limit, metavar="BITS", help="refuse higher working precision (default 131072)")
    c.add_argument("--max-file-mb", type=arg_positive_float, metavar="MB", help="refuse larger files (default 8)")
    c.add_argument("--max-work", type=arg_limit, metavar="UNITS", help="exp/log work budget per certificate "
                   "(default 2000000 units, about 2 minutes of the costliest work; one log at 131072 bits costs 185364)")
    c.add_argument("--jobs", type=arg_jobs, default=None, metavar="N",
                   help="check files in N processes (default: the number of CPUs, at most 8; verdicts do not depend on it)")
    c.add_argument("--solvers", type=arg_solvers, default=None, metavar="LIST",
                   help="re-run SMT goals on these solvers only (z3, cvc5 or z3,cvc5; default: every installed one). "
                        "Fewer solvers is faster and trusts less: the summary names the solvers not re-run")
    c.set_defaults(fn=cmd_verify)
    c = sub.add_parser("report", help="a static HTML site (index.html): a page per numbered result and per obligation, errata, plots",
                       epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all", help=SELECTOR_HELP)
    c.add_argument("--out", required=True, metavar="DIR", help="write the site under DIR (DIR/index.html is its start)")
    _run_options(c)
    c.add_argument("--strict", action="store_true", help="UNKNOWN fails (exit 1); without it an UNKNOWN is reported and counted, not failed")
    c.set_defaults(fn=cmd_report)
    c = sub.add_parser("theorems", help="one row per numbered lemma/theorem/proposition/corollary: its verdict "
                       "(PROVED, PROVED FOR INSTANCES, CONFIRMED, REFUTED AS PRINTED, OPEN), axioms and open steps",
                       epilog=EPILOG)
    c.add_argument("paper", nargs="?", default="all", help="all (default), infoflow or ks")
    c.add_argument("--json", metavar="FILE", help="write attncert.theorems/1 JSON to FILE ('-': stdout)")
    c.add_argument("--md", metavar="FILE", help="write the Markdown table (as in docs/theorems.md) to FILE")
    _run_options(c)
    c.set_defaults(fn=cmd_theorems)
    c = sub.add_parser("coverage", help="every numbered display, lemma, theorem, proposition, corollary, definition, "
                       "figure and table of both papers: transcribed (with its verdicts), cited, or not transcribed "
                       "(with the reason); docs/coverage.md", epilog=EPILOG)
    c.add_argument("paper", nargs="?", default="all", help="all (default), infoflow or ks")
    c.add_argument("--json", metavar="FILE", help="write attncert.coverage/1 JSON to FILE ('-': stdout)")
    c.add_argument("--md", metavar="FILE", help="write the Markdown tables (as in docs/coverage.md) to FILE")
    c.add_argument("--no-run", action="store_true", help="do not run the obligations: statuses and obligation ids only")
    _run_options(c)
    c.set_defaults(fn=cmd_coverage)
    c = sub.add_parser("list", help="show what can be checked", epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all", help=SELECTOR_HELP)
    c.add_argument("--json", metavar="FILE", help="write attncert.list/1 JSON (families and obligations) to FILE ('-': stdout)")
    c.set_defaults(fn=cmd_list)
    c = sub.add_parser("audit", help="errata report: one finding per erratum, ranked by severity; conventions apart",
                       epilog=EPILOG)
    c.add_argument("selector", nargs="?", default="all", help=SELECTOR_HELP)
    c.add_argument("--json", metavar="FILE", help="write attncert.audit/2 JSON to FILE")
    c.add_argument("--md", metavar="FILE", help="write the letter to the authors (Markdown, by paper and severity) to FILE")
    _run_options(c)
    c.set_defaults(fn=cmd_audit)
    c = sub.add_parser("bound", help="explicit certified bounds, e.g. `bound thm5 --T 8 --k 3 --n 2 --eps 1/1000`",
                       epilog=EPILOG)
    c.add_argument("name", help="thm4 (needs --T --H --n --eps) or thm5 (needs --T --k --n --eps)")
    c.add_argument("--T", type=int, required=True, help="sequence length")
    c.add_argument("--k", type=int, help="thm5: the k of the k-th largest")
    c.add_argument("--H", type=int, help="thm4: heads per layer of the one-layer model")
    c.add_argument("--n", type=int, required=True, help="thm4: dimension n of each head; thm5: width n of the "
                   "encoding f1: [0,1] -> [0,1]^n")
    c.add_argument("--eps", required=True, help="exact: 1/1000 or 0.001")
    c.add_argument("--json", metavar="FILE", help="write the bound as JSON to FILE ('-': stdout)")
    c.set_defaults(fn=cmd_bound)
    c = sub.add_parser("witness", help="constructive pigeonhole witness with a certificate, e.g. "
                       "`witness thm5 --T 6 --k 2 --n 1 --eps 1/1000 --seed 0 --out DIR`", epilog=EPILOG)
    c.add_argument("name", help="thm5 (needs --T --k) or thm6 (needs --T0 --d)")
    c.add_argument("--T", type=int, help="thm5: sequence length")
    c.add_argument("--k", type=int, help="thm5: the k of the k-th largest")
    c.add_argument("--T0", type=int, help="thm6: sequence length T0")
    c.add_argument("--d", type=int, help="thm6: token dimension d")
    c.add_argument("--n", type=int, required=True, help="width n of the encoding f1 (its values are n-vectors)")
    c.add_argument("--eps", required=True, help="exact: 1/1000 or 0.001")
    c.add_argument("--seed", type=int, default=0, help="seed of the concrete encoder (default 0)")
    c.add_argument("--rho", default="1", metavar="BETA", help="rho(x) = BETA x (BETA >= 0, exact)")
    c.add_argument("--hidden", type=int, default=4, help="hidden width of the seeded f1")
    c.add_argument("--backend", choices=("numpy", "torch"), default="numpy", help="array library of the search "
                   "(default numpy); the certificate is exact either way")
    c.add_argument("--out", required=True, metavar="DIR", help="write the witness certificate here")
    c.add_argument("--json", metavar="FILE", help="write the witness as JSON to FILE ('-': stdout)")
    c.set_defaults(fn=cmd_witness)
    c = sub.add_parser("construct", help="built upper bounds, e.g. `construct thm6 --T0 2 --d 1 --n 1 --eps 1/8`",
                       epilog=EPILOG)
    c.add_argument("name", help="thm4 (needs --T --eps), thm6 (needs --T0 --d --n --eps), ks-thm2 or ks-cor1 "
                   "(need --dataset or --random)")
    c.add_argument("--T", type=int, help="thm4: sequence length")
    c.add_argument("--variant", choices=("printed", "repaired", "both"), default="both", help="thm4: which network (default both)")
    c.add_argument("--samples", type=int, default=2000, help="thm4: random float64 inputs (default 2000; adversarial: a fifth)")
    c.add_argument("--direct", action="store_true", help="thm4, T <= 3: also run the direct interval branch-and-bound "
                   "of the whole network against F (docs/theorem4.md; minutes)")
    c.add_argument("--box-budget", type=int, default=200_000, help="thm4 --direct: boxes per sub-box (default 200000)")
    c.add_argument("--jobs", type=int, default=1, help="thm4 --direct: worker processes (default 1)")
    c.add_argument("--direct-verify", metavar="FILE", help="thm4: re-check a stored direct-check record")
    c.add_argument("--T0", type=int, help="thm6: sequence length T0")
    c.add_argument("--d", type=int, help="thm6: token dimension d")
    c.add_argument("--n", type=int, help="thm6: width n of the encoding (its values are n-vectors)")
    c.add_argument("--eps", help="thm4, thm6: exact accuracy, 1/10 or 0.1")
    c.add_argument("--dataset", metavar="FILE", help="ks-thm2: JSON {sequences: N x n x d, optional r_min, r_max, eps}")
    c.add_argument("--random", metavar="N,n,d,SEED", help="ks-thm2: a seeded random dataset")
    c.add_argument("--vocab", type=int, default=6, help="ks-thm2 --random: vocabulary size (default 6)")
    c.add_argument("--seed", type=int, default=0, help="ks-thm2, ks-cor1: seed of the Lemma 2 vector search (and of "
                   "ks-cor1's labels and projection)")
    c.add_argument("--classes", type=int, default=3, metavar="C", help="ks-cor1: labels in [C]^d (default 3)")
    c.add_argument("--p", metavar="P", help="also certify the tanh replacement's L_p error for this p >= 1 "
                   "(exact rational; p = 2 is always done)")
    c.add_argument("--out", metavar="DIR", help="write the certificates here")
    c.add_argument("--json", metavar="FILE", help="write the construction's record as JSON to FILE ('-': stdout)")
    c.set_defaults(fn=cmd_construct)
    c = sub.add_parser("gpu-check", help="run the constructed networks over large batches (GPU or CPU): CONFIRMED "
                       "evidence, never PROVED", epilog=EPILOG)
    c.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    c.add_argument("--batch", type=arg_limit, default=None, help="inputs per batch (default 8192 on cuda, 64 on cpu)")
    c.add_argument("--budget-seconds", type=arg_positive_float, default=60.0, help="total time to spend (default 60)")
    c.add_argument("--seed", type=int, default=0, help="seed of the inputs and of the search (default 0)")
    c.add_argument("--search-restarts", type=int, default=None, help="Theorem 4 gradient-ascent restarts "
                   "(default 16384 on cuda, 64 on cpu; 0: no search)")
    c.add_argument("--search-steps", type=int, default=None, help="Adam steps per restart (default 400 on cuda, 60 on cpu)")
    c.add_argument("--json", metavar="FILE", help="write every row and the worst inputs found")
    c.set_defaults(fn=cmd_gpu_check)
    c = sub.add_parser("train", help="InfoFlow Section 6 experiments at a small scale: intrinsic-dim (target (6)), "
                       "triangle-center (target (7)), or tiny (the CPU smoke run)", epilog=EPILOG)
    c.add_argument("experiment", help="intrinsic-dim, triangle-center or tiny")
    c.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    c.add_argument("--steps", type=arg_limit, default=None, help="optimizer steps per run (default: the experiment's)")
    c.add_argument("--seeds", type=arg_limit, default=None, help="independent runs per configuration")
    c.add_argument("--T", type=arg_limit, default=None, help="sequence length (intrinsic-dim, tiny)")
    c.add_argument("--D", default=None, help="intrinsic dimensions, e.g. 2 or 2,3 (intrinsic-dim; default 2,3)")
    c.add_argument("--batch", type=arg_limit, default=None, help="minibatch size")
    c.add_argument("--budget-seconds", type=arg_positive_float, default=None, help="stop starting new runs after this")
    c.add_argument("--seed", type=int, default=0, help="seed of the data and of the first run (default 0)")
    c.add_argument("--plot", metavar="FILE.svg", help="write the NMSE plot (SVG)")
    c.add_argument("--json", metavar="FILE", help="write every run as JSON to FILE ('-': stdout)")
    c.set_defaults(fn=cmd_train)
    from attncert.cli.infoflow import add_parser as _add_infoflow  # attncert infoflow (InfoFlow model, 5.3)
    _add_infoflow(sub)
    from attncert.cli.trees import add_parser as add_trees_parser
    add_trees_parser(sub, EPILOG)
    for c in sub.choices.values():  # the same two flags on every command
        g = c.add_mutually_exclusive_group()
        g.add_argument("-q", "--quiet", action="store_true", help=QUIET_HELP.get(c.prog.split()[-1], QUIET_HELP[None]))
        g.add_argument("-v", "--verbose", action="store_true", help=VERBOSE_HELP.get(c.prog.split()[-1], VERBOSE_HELP[None]))
    return p


QUIET_HELP = {
    None: "no progress or notes on stderr, only warnings and errors",
    "check": "print only obligations not as expected, and the summary; no progress on stderr",
    "certify": "print only certificates not as expected, and the summary; no progress on stderr",
    "verify": "print only what is not verified (REJECTED, CONDITIONAL, CANNOT CHECK) and the summary, without the "
              "trust list; no progress on stderr",
}
VERBOSE_HELP = {
    None: "more detail on stderr (debug log records)",
    "theorems": "every blocking step, not only the first; debug log records on stderr",
}


def _logging(err, args):
    """The CLI's one log handler: the ``attncert`` loggers' records on ``err`` (INFO by default: progress
    and notes; WARNING with -q; DEBUG with -v). Removed again when the command returns.

    A heartbeat covers every command, including those without a progress count of their own: when no
    line has been logged for a progress period (``core.log``: 10 s, ATTNCERT_PROGRESS_EVERY), it logs
    ``COMMAND: still running, S s``, so that no run over a few seconds is silent off a terminal."""
    import logging
    import threading
    import time

    from attncert.core.log import BEAT_AFTER_S, _every

    t0 = time.monotonic()
    last = [t0]

    class Handler(logging.StreamHandler):
        def emit(self, record):
            last[0] = time.monotonic()
            super().emit(record)

    h = Handler(err)
    h.setFormatter(logging.Formatter("attncert: %(message)s"))
    root = logging.getLogger("attncert")
    level = logging.WARNING if getattr(args, "quiet", False) else logging.DEBUG if getattr(args, "verbose", False) else logging.INFO
    old = root.level
    root.setLevel(level)
    root.addHandler(h)
    stop = threading.Event()
    every = _every()
    what = " ".join(str(x) for x in (getattr(args, "command", None), getattr(args, "name", None) or
                                     getattr(args, "experiment", None)) if x)

    def beat():
        while not stop.wait(min(BEAT_AFTER_S, every) / 4):
            now = time.monotonic()
            if now - t0 >= BEAT_AFTER_S and now - last[0] >= every:   # a count of its own, if any, comes first
                root.getChild("cli").info("%s: still running, %.0f s", what, now - t0)
    beater = threading.Thread(target=beat, name="attncert-heartbeat", daemon=True)
    if level <= logging.INFO:
        beater.start()

    def undo():
        stop.set()
        if beater.is_alive():
            beater.join()
        root.removeHandler(h)
        root.setLevel(old)
    return undo


def run(argv, out=None, err=None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as e:  # --help, --version
            return int(e.code or 0)
        if not getattr(args, "fn", None):
            build_parser().print_help(out)
            return 2
        undo = _logging(err, args)
        try:
            if getattr(args, "json", None) == "-":  # JSON alone on stdout; the usual lines go to stderr
                common.JSON_STDOUT.append(out)
                try:
                    return args.fn(args, err, err)
                finally:
                    common.JSON_STDOUT.pop()
            return args.fn(args, out, err)
        finally:
            undo()
    except UsageError as e:
        err.write(f"attncert: error: {e}\n")
        return 2
    except AttncertError as e:
        err.write(f"attncert: {e}\n")
        return 1
    except KeyboardInterrupt:
        err.write("attncert: interrupted\n")
        return 130


def main() -> None:
    try:
        code = run(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `attncert list | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 0
    sys.exit(code)


if __name__ == "__main__":
    main()

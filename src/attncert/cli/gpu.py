"""`attncert gpu-check` and `attncert train` (attncert.gpu; torch imported lazily)."""

from __future__ import annotations



from attncert.core.errors import UsageError
from attncert.cli.common import writable, write_json


def cmd_gpu_check(args, out, err) -> int:
    """The constructed networks over large batches (CONFIRMED evidence, never PROVED)."""
    from attncert.gpu import check as gpucheck

    writable(args.json)
    rec = gpucheck.run(args.device, batch=args.batch, budget_seconds=args.budget_seconds, seed=args.seed,
                       search_restarts=args.search_restarts, search_steps=args.search_steps)
    out.write(gpucheck.table(rec) + "\n")
    if args.json:
        write_json(args.json, rec)
    return gpucheck.exit_code(rec)


def cmd_train(args, out, err) -> int:
    """InfoFlow's Section 6 experiments at a small scale (C.4-C.5), seeded."""
    from attncert.gpu import train

    writable(args.json, args.plot)
    Ds = None
    if args.D is not None:
        try:
            Ds = [int(x) for x in args.D.split(",")]
        except ValueError:
            raise UsageError(f"--D {args.D!r}: expected integers such as 2,3") from None
    rec = train.run_experiment(args.experiment, device=args.device, steps=args.steps, seeds=args.seeds, T=args.T,
                               batch=args.batch, budget_seconds=args.budget_seconds, seed=args.seed, Ds=Ds)
    out.write(train.table(rec) + "\n")
    if args.plot:
        from attncert.core.certificate import atomic_write
        atomic_write(args.plot, train.plot_svg(rec))
        out.write(f"plot: {args.plot}\n")
    if args.json:
        write_json(args.json, rec)
    return 0

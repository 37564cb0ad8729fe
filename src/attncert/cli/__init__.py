"""The attncert command line: one module per command group, each command ``(args, stdout, stderr) ->
int``; only ``main`` exits. ``python -m attncert.cli`` runs it."""

from attncert.cli.main import build_parser, main, run

__all__ = ["build_parser", "main", "run"]

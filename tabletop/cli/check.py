"""``tabletop check FILE...``: validate scenario files, one line per file or per problem."""

from __future__ import annotations

import argparse

from tabletop.cli._output import emit
from tabletop.errors import UserError
from tabletop.scenario.coherency import coherency_warnings
from tabletop.scenario.io import load_scenario

ORDER = 10


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``check`` sub-command."""
    p = subparsers.add_parser(
        "check", help="check scenario files (TOML or JSON)",
        description="Check scenario files: prints 'FILE: ok' for each valid file, otherwise every "
                    "problem on its own line. A valid file may also get 'FILE: warning: ...' lines "
                    "(a unit out of coherency, which the end of the turn would shrink). Exit code "
                    "0 when all are valid, 2 otherwise.")
    p.add_argument("files", nargs="+", metavar="FILE", help="scenario files (.toml or .json)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check every file; return 0 if all are valid, 2 otherwise."""
    failed = False
    for name in args.files:
        try:
            state = load_scenario(name)
        except UserError as exc:
            failed = True
            emit(exc.lines, err=True)
            continue
        for path, message in coherency_warnings(state):
            emit(f"{name}: warning: {path}: {message}", err=True)
        emit(f"{name}: ok")
    return 2 if failed else 0

"""``tabletop schema``: print the JSON Schema of scenario format 1."""

from __future__ import annotations

import argparse
import json
import sys

from tabletop.cli._output import emit
from tabletop.scenario.schema import json_schema

ORDER = 20


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``schema`` sub-command."""
    p = subparsers.add_parser("schema", help="print the JSON Schema of scenario files",
                              description="Print the JSON Schema of scenario format 1.")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the schema; return 0."""
    try:
        emit(json.dumps(json_schema(), indent=2, ensure_ascii=False).split("\n"))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. `tabletop schema | head`
        sys.stdout = None  # type: ignore[assignment]
    return 0

"""The ``tabletop`` command line.

Each sub-command lives in its own module of this package and defines ``register(subparsers)``,
which adds its parser and sets ``func`` (called with the parsed arguments, returning an exit code).
Modules are found automatically; ``ORDER`` (an int) sorts them in ``--help``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from tabletop.errors import UserError

__all__ = ["main"]


def _commands() -> list[ModuleType]:
    mods: list[ModuleType] = []
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(mod, "register"):
            mods.append(mod)
    mods.sort(key=lambda m: (getattr(m, "ORDER", 100), m.__name__))
    return mods


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = argparse.ArgumentParser(
        prog="tabletop",
        description="Exact legal move zones and movement rules for miniature wargames.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _commands():
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (2 for bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        for line in exc.lines:
            print(line, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

"""The ``tabletop`` command line.

Each sub-command lives in its own module of this package and defines ``register(subparsers)``,
which adds its parser and sets ``func`` (called with the parsed arguments, returning an exit code).
Modules are found automatically; ``ORDER`` (an int) sorts them in ``--help``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from tabletop import __version__
from tabletop.cli._output import emit
from tabletop.errors import UserError, printable

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """An argument parser whose error line is printable (an option's value may hold anything)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, printable(f"{self.prog}: error: {message}") + "\n")


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


class _Version(argparse.Action):
    """``--version``: the version, and on a second line which zone engine answers (the compiled
    core, or the Python engine and why)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from tabletop.geometry.engine import describe

        sys.stdout.write(f"tabletop {__version__}\n{describe()}\n")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command."""
    parser = _Parser(
        prog="tabletop",
        description="Exact legal move zones and movement rules for miniature wargames.",
    )
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version and the zone engine in use, and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for mod in _commands():
        mod.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the exit code (2 for bad input).

    A :class:`~tabletop.errors.UserError` prints its lines, each with any character that is not
    printable escaped (so no line can hold a terminal escape or a line break), and exits 2.
    """
    for stream in (sys.stdout, sys.stderr):  # an id in any script, on any terminal
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        emit(exc.lines, err=True)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (``tabletop ... | head``)
        with contextlib.suppress(OSError, ValueError):  # no second error when Python flushes
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

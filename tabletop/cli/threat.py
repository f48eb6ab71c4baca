"""``tabletop threat FILE --unit ID``: where an enemy unit could charge next turn, with the odds
of each charge roll (the docs' page on threat ranges describes the output)."""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.cli._output import emit

ORDER = 27

FORMATS = ("geojson", "json", "png")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``threat`` sub-command."""
    p = subparsers.add_parser(
        "threat",
        help="where a unit could charge next turn, with the odds of each charge roll",
        description="Where the models of UNIT could be after their next Movement phase (a "
        "normal move; a fall back when engaged, and then no charge) followed by a charge of "
        "each roll from 2 to 12, each band with the chance that 2D6 rolls it. Every region "
        "errs on the side of showing more. The Charge phase is not simulated: the charge rules "
        "applied are in the docs' rulings. Writes a GeoJSON FeatureCollection, the documented "
        "JSON, or a PNG of the board with the bands drawn under the models.",
    )
    p.add_argument("file", metavar="FILE", help="scenario file (.toml or .json)")
    p.add_argument("--unit", required=True, metavar="ID", help="id of the unit")
    p.add_argument("--charge-odds", metavar="P",
                   help="only the bands at least this likely: a roll (7+) or a chance (0.58, "
                   "58%%); default every band")
    add_output(p, FORMATS)
    p.set_defaults(func=run)


def add_output(p: argparse.ArgumentParser, formats: tuple[str, ...]) -> None:
    """``--format`` (the first of ``formats`` by default) and ``-o`` (``threat``, ``safe``)."""
    p.add_argument("--format", choices=formats, default=formats[0],
                   help=f"output format (default: {formats[0]})")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="file to write (default: standard output; required for png)")


def run(args: argparse.Namespace) -> int:
    """Load the scenario, ask its ruleset for the threat and write it."""
    from tabletop import rulesets
    from tabletop.rules.threat import band_limit
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    max_roll = band_limit(args.charge_odds)
    png_needs_output(args, "THREAT.png")
    th = rulesets.threat_queries(state).threat(state, args.unit, max_roll=max_roll)

    def png(out: str) -> tuple[str, tuple[int, int]]:
        from tabletop.view.threatview import threat_png

        return threat_png(state, th, out, max_roll=max_roll)

    answer(args, png, lambda: th.to_json(max_roll), lambda: th.to_geojson(max_roll))
    return 0


def png_needs_output(args: argparse.Namespace, example: str) -> None:
    """The one-line refusal of ``--format png`` without ``-o``."""
    from tabletop.errors import UserError

    if args.format == "png" and not args.output:
        raise UserError(f"--format png needs an output file: add -o {example}")


def answer(args: argparse.Namespace, png: Callable[[str], tuple[str, tuple[int, int]]],
           as_json: Callable[[], Any], as_geojson: Callable[[], Any]) -> None:
    """Write an answer as ``args.format`` asks: a picture (drawn headless), JSON or GeoJSON."""
    if args.format == "png":
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        out, size = png(args.output)
        emit(f"wrote {out} ({size[0]}x{size[1]} px)")
        return
    doc = as_geojson() if args.format == "geojson" else as_json()
    write(json.dumps(doc), args.output)


def write(text: str, output: str | None) -> None:
    """``text`` to ``output`` (atomically), or to standard output."""
    from tabletop.files import atomic_write

    if output:
        atomic_write(output, text + "\n")
    else:
        emit(text)

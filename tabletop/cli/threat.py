"""``tabletop threat FILE --unit ID``: where an enemy unit could charge next turn, with the odds
of each charge roll (the docs' page on threat ranges describes the output)."""

from __future__ import annotations

import argparse
import json
import os
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
    p.add_argument("--format", choices=FORMATS, default="geojson",
                   help="output format (default: geojson)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="file to write (default: standard output; required for png)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load the scenario, ask its ruleset for the threat and write it."""
    from tabletop import rulesets
    from tabletop.errors import UserError
    from tabletop.rules.threat import band_limit
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    max_roll = band_limit(args.charge_odds)
    if args.format == "png" and not args.output:
        raise UserError("--format png needs an output file: add -o THREAT.png")
    th = rulesets.threat_queries(state).threat(state, args.unit, max_roll=max_roll)
    if args.format == "png":
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from tabletop.view.threatview import threat_png

        out, size = threat_png(state, th, args.output, max_roll=max_roll)
        emit(f"wrote {out} ({size[0]}x{size[1]} px)")
        return 0
    doc: Any = th.to_geojson(max_roll) if args.format == "geojson" else th.to_json(max_roll)
    write(json.dumps(doc), args.output)
    return 0


def write(text: str, output: str | None) -> None:
    """``text`` to ``output`` (atomically), or to standard output."""
    from tabletop.files import atomic_write

    if output:
        atomic_write(output, text + "\n")
    else:
        emit(text)

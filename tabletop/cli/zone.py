"""``tabletop zone FILE --model ID --move ...``: the legal move zone of one model."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

from tabletop.cli._output import emit

ORDER = 25

FORMATS = ("geojson", "wkt", "png")


def add_move_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments ``zone`` and ``path`` share."""
    p.add_argument("file", metavar="FILE", help="scenario file (.toml or .json)")
    p.add_argument("--model", required=True, metavar="ID", help="id of the model to move")
    p.add_argument("--move", required=True, choices=("normal", "advance", "fall-back"),
                   help="move type")
    p.add_argument("--roll", type=int, metavar="N", help="the advance roll (advance moves)")
    p.add_argument("--mode", choices=("ordered-retreat", "desperate-escape"),
                   help="fall-back mode (default: ordered-retreat, or desperate-escape when "
                   "the unit is battle-shocked)")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``zone`` sub-command."""
    p = subparsers.add_parser(
        "zone",
        help="the exact legal move zone of a model",
        description="Compute where a model may end its move: reachable by a legal path within "
        "its move and legal to end at. Writes the zone as one GeoJSON Feature (properties "
        "model, move, max_distance, area), as WKT, or as a PNG picture.",
    )
    add_move_arguments(p)
    p.add_argument("--format", choices=FORMATS, default="geojson",
                   help="output format (default: geojson)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="file to write (default: standard output; required for png)")
    p.set_defaults(func=run)


def feature(zone: Any) -> dict[str, Any]:
    """The zone as a GeoJSON Feature."""
    out: dict[str, Any] = zone.to_geojson()
    return out


def run(args: argparse.Namespace) -> int:
    """Load the scenario, compute the zone and write it."""
    from tabletop.errors import UserError
    from tabletop.files import atomic_write
    from tabletop.rules.zones import legal_zone
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    zone = legal_zone(state, args.model, args.move, roll=args.roll, mode=args.mode)
    if args.format == "png":
        if not args.output:
            raise UserError("--format png needs an output file: add -o ZONE.png")
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from tabletop.view.render import render_zone_png  # pygame only for pictures

        written = render_zone_png(state, zone, None, args.output)
        emit(f"wrote {written}")
        return 0
    text = json.dumps(feature(zone)) if args.format == "geojson" else zone.geometry.wkt
    if args.output:
        atomic_write(args.output, text + "\n")
    else:
        emit(text)
    return 0

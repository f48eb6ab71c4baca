"""``tabletop zone FILE --model ID --move ...``: the legal move zone of one model."""

from __future__ import annotations

import argparse
import json
import math
import os
from pathlib import Path
from typing import Any

from tabletop.cli._output import emit

ORDER = 25

FORMATS = ("geojson", "wkt", "png", "layer")
"""``png``: the board with the zone over it; ``layer``: the zone alone on the battlefield, a
deterministic picture (no text, no anti-aliasing: the picture the zone goldens compare)."""


def step_arg(text: str) -> float:
    """A facing step in degrees from the command line (1 to 90)."""
    try:
        step = float(text)
    except ValueError:
        step = math.nan
    if not 1.0 <= step <= 90.0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a facing step: write a number of "
                                         "degrees from 1 to 90, e.g. 7.5")
    return step


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
    p.add_argument("--fly", action="store_true",
                   help="the unit takes to the skies (a FLY unit): 2\" less unless HOVER, over "
                   "every model and all terrain")
    p.add_argument("--step", type=step_arg, metavar="DEGREES",
                   help="for a model on a non-round base, the facing step of its zone in "
                   "degrees, 1 to 90 (default 15, 30 for ovals): smaller is closer to the true "
                   "zone and slower")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``zone`` sub-command."""
    p = subparsers.add_parser(
        "zone",
        help="the exact legal move zone of a model",
        description="Compute where a model may end its move: reachable by a legal path within "
        "its move and legal to end at. Writes the zone as one GeoJSON Feature (properties "
        "model, move, max_distance, area), as WKT, as a PNG picture of the whole board "
        "with the zone shaded over it (the model's unit outlined), or as a PNG of the zone "
        "alone on the battlefield (layer: no text, no anti-aliasing, the same pixels on every "
        "machine with the same pygame-ce).",
    )
    add_move_arguments(p)
    p.add_argument("--format", choices=FORMATS, default="geojson",
                   help="output format (default: geojson)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="file to write (default: standard output; required for png and "
                   "layer)")
    p.set_defaults(func=run)


def feature(zone: Any) -> dict[str, Any]:
    """The zone as a GeoJSON Feature."""
    out: dict[str, Any] = zone.to_geojson()
    return out


def run(args: argparse.Namespace) -> int:
    """Load the scenario, compute the zone and write it."""
    from tabletop import legal_zone
    from tabletop.errors import UserError
    from tabletop.files import atomic_write
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    zone = legal_zone(state, args.model, args.move, roll=args.roll, mode=args.mode,
                      fly=args.fly, step=args.step)
    if args.format in ("png", "layer"):
        if not args.output:
            raise UserError(f"--format {args.format} needs an output file: add -o ZONE.png")
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        if args.format == "layer":
            from tabletop.view.zonelayer import render_zone_png

            emit(f"wrote {render_zone_png(state, zone, None, args.output)}")
            return 0
        from tabletop.cli.show import board_png
        from tabletop.view.render import Overlays  # pygame only for pictures

        unit, _ = state.model(args.model)
        how = args.move.replace("-", " ") + (f" (roll {args.roll})" if args.roll else "")
        board_png(state, Overlays(zone=zone.geometry, selected_unit=unit.id), args.output,
                  caption=f'zone of {args.model}: {how}, {zone.max_distance:g}"')
        return 0
    text = json.dumps(feature(zone)) if args.format == "geojson" else zone.geometry.wkt
    if args.output:
        atomic_write(args.output, text + "\n")
    else:
        emit(text)
    return 0

"""``tabletop show FILE -o board.png``: a picture of a scenario, drawn headless."""

from __future__ import annotations

import argparse
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from tabletop.cli._output import emit
from tabletop.cli.path import point_arg

ORDER = 30


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``show`` sub-command."""
    p = subparsers.add_parser(
        "show",
        help="draw a scenario to a PNG picture (no display needed)",
        description="Draw the battlefield, terrain, deployment zones, objectives and every base "
        "of a scenario file to a PNG picture, without opening a window.",
    )
    p.add_argument("file", metavar="FILE", help="scenario file (.toml or .json)")
    p.add_argument("-o", "--output", metavar="PNG", default="board.png",
                   help="picture to write (default: board.png)")
    p.add_argument("--scale", type=float, default=20.0, metavar="PX",
                   help="pixels per inch (default: 20)")
    p.add_argument("--grid", action="store_true", help="draw a 1-inch grid")
    p.add_argument("--engagement", metavar="PLAYER",
                   help="draw the engagement ranges of this player's models")
    p.add_argument("--zone", metavar="MODEL",
                   help="shade the legal move zone of this model (with --move, --roll, --mode)")
    p.add_argument("--move", choices=("normal", "advance", "fall-back"), default="normal",
                   help="move type of --zone (default: normal)")
    p.add_argument("--roll", type=int, metavar="N", help="the advance roll (advance moves)")
    p.add_argument("--mode", choices=("ordered-retreat", "desperate-escape"),
                   help="fall-back mode of --zone")
    p.add_argument("--to", type=point_arg, metavar="X,Y",
                   help="with --zone: draw the shortest legal path to this point")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load the scenario, draw it off-screen and save the PNG."""
    from tabletop.errors import UserError, quote
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    if not 2.0 <= args.scale <= 200.0:
        raise UserError(f"--scale: {args.scale:g} is out of range; give 2 to 200 pixels per inch")
    if args.engagement is not None and args.engagement not in {p.id for p in state.players}:
        ids = ", ".join(p.id for p in state.players)
        raise UserError(f"--engagement: unknown player {quote(str(args.engagement))}; one of {ids}")
    if args.to is not None and args.zone is None:
        raise UserError("--to draws a path inside a zone: add --zone MODEL")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from tabletop.view.render import Overlays

    overlays = Overlays(engagement_player=args.engagement)
    if args.zone is not None:
        overlays = _zone_overlays(state, args, overlays)
    board_png(state, overlays, args.output, scale=args.scale, grid=args.grid)
    return 0


def board_png(state: Any, overlays: Any, output: str, *, scale: float = 20.0,
              grid: bool = False, caption: str = "") -> None:
    """Draw the whole board with ``overlays`` at ``scale`` pixels per inch to the PNG
    ``output`` and say so (``show``, ``zone --format png``); ``caption`` goes in the title."""
    from tabletop.view.render import render_board, save_png
    from tabletop.view.viewport import Viewport

    bf = state.battlefield
    margin, top = 20, 28
    size = (round(bf.width * scale + 2 * margin), round(bf.depth * scale + 2 * margin + top))
    vp = Viewport(scale=scale, ox=margin, oy=margin + top)
    surf = render_board(state, size=size, viewport=vp, grid=grid, overlays=overlays,
                        caption=caption)
    out = save_png(surf, output)
    emit(f"wrote {out} ({size[0]}x{size[1]} px)")


def _zone_overlays(state: Any, args: argparse.Namespace, overlays: Any) -> Any:
    """``overlays`` with the zone of ``--zone`` (and the path to ``--to``) added."""
    from tabletop import legal_zone
    from tabletop.errors import UserError
    from tabletop.view.render import PathOverlay

    zone = legal_zone(state, args.zone, args.move, roll=args.roll, mode=args.mode)
    unit, _ = state.model(args.zone)
    overlays = replace(overlays, zone=zone.geometry, selected_unit=unit.id)
    if args.to is not None:
        x, y = args.to
        reasons = zone.explain(x, y)
        if reasons:
            raise UserError(f"--to {x:g},{y:g} is not a legal end of the move: "
                            + "; ".join(v.message for v in reasons))
        found = zone.path_to(x, y)
        if found is None:
            raise UserError(f"--to {x:g},{y:g}: no legal path reaches this point")
        overlays = replace(overlays, path=PathOverlay(tuple((p[0], p[1]) for p in found.points),
                                                      found.length,
                                                      zone.max_distance))
    return overlays

"""``tabletop fit FILE --base BASE [--at X,Y]``: the narrow passages a base gets through or not."""

from __future__ import annotations

import argparse
import json
import math
import os
from pathlib import Path
from typing import Any

from tabletop.cli._output import emit
from tabletop.cli.path import point_arg

ORDER = 27

FORMATS = ("text", "json", "png")
NEAR = 12.0
"""With ``--at``: the passages whose neck's middle lies within this of the point (inches)."""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``fit`` sub-command."""
    p = subparsers.add_parser(
        "fit",
        help="which narrow passages between terrain pieces a base gets through",
        description="List the narrowest passages between the terrain pieces that stop a "
        "moving model (and between a piece and the battlefield edge), narrowest first, and "
        "whether BASE gets straight through each: at which facing (the roomiest, with the "
        "range of facings that fit) or how wide it would need to be. A passage whose neck is "
        "wide enough but which another piece shuts says which.",
    )
    p.add_argument("file", metavar="FILE", help="scenario file (.toml or .json)")
    p.add_argument("--base", required=True, metavar="BASE",
                   help='a base of the scenario format ("32mm", "oval 60x35mm", "rect 25x50mm") '
                   "or the id of a unit or model of FILE (a hull needs one: its polygon, and "
                   "its keywords decide which dense terrain stops it)")
    p.add_argument("--at", type=point_arg, metavar="X,Y",
                   help=f"only the passages within {NEAR:g}\" of this point, nearest first")
    p.add_argument("--limit", type=float, metavar="INCHES",
                   help="list passages narrower than this (default: the base's circumscribed "
                   "diameter plus 1\": wider ones let every facing through)")
    p.add_argument("--format", choices=FORMATS, default="text",
                   help="output format (default: text)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="file to write (default: standard output; required for png)")
    p.set_defaults(func=run)


def _base(state: Any, text: str) -> tuple[Any, tuple[str, ...] | None, str]:
    """The footprint named by ``text``, the keywords of its unit (``None``: a bare base) and a
    description."""
    from tabletop.errors import UserError, ident, quote
    from tabletop.geometry.footprints import BaseParseError
    from tabletop.scenario.schema import base_of
    from tabletop.state import Unit

    for unit in state.units:
        if not isinstance(unit, Unit):
            continue
        for m in unit.models:
            if text in (unit.id, m.id):
                return m.base, unit.keywords, f"{m.base.spec} of {ident(m.id)} ({ident(unit.id)})"
    if text == "hull":
        raise UserError('--base: a hull needs its polygon; give the id of a unit or model of '
                        'the file whose base is "hull"')
    try:
        return base_of(text), None, text
    except BaseParseError as exc:
        raise UserError(f"--base: {exc}, or the id of a unit or model of the file "
                        f"(no unit or model {quote(text)} there)") from None


def run(args: argparse.Namespace) -> int:
    """Load the scenario, find the passages and write the answer."""
    from tabletop.errors import UserError, printable
    from tabletop.files import atomic_write
    from tabletop.geometry.passages import passages
    from tabletop.rulesets.blockers import blocking_pieces
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    base, keywords, described = _base(state, args.base)
    if args.limit is not None and not (math.isfinite(args.limit) and 0 < args.limit <= 100):
        raise UserError(f"--limit: {args.limit:g} is out of range; give 0 to 100 inches")
    pieces, what = blocking_pieces(state, keywords)
    bf = state.battlefield
    found = passages(bf.width, bf.depth, pieces, base, limit=args.limit)
    if args.at is not None:
        x, y = args.at
        found = sorted((p for p in found if math.dist(p.middle, (x, y)) <= NEAR),
                       key=lambda p: math.dist(p.middle, (x, y)))
    if args.format == "png":
        if not args.output:
            raise UserError("--format png needs an output file: add -o PASSAGES.png")
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from tabletop.view.render import render_passages, save_png

        emit(f"wrote {save_png(render_passages(state, base, found), args.output)}")
        return 0
    if args.format == "json":
        lines = [json.dumps({"base": described, "stopped_by": what,
                             "passages": [p.to_json() for p in found]})]
    else:
        lines = [_heading(args.file, described, what, found, args), *map(_line, found)]
    if args.output:
        atomic_write(args.output, "".join(printable(line) + "\n" for line in lines))
    else:
        emit(lines)
    return 0


def _heading(file: str, described: str, what: str, found: list[Any],
             args: argparse.Namespace) -> str:
    where = f" within {NEAR:g}\" of {args.at[0]:g},{args.at[1]:g}" if args.at else ""
    n = "no passage" if not found else "1 passage" if len(found) == 1 else \
        f"{len(found)} passages"
    return f"{file}: base {described}: {n}{where} among the pieces that stop it ({what}) " \
           "and the battlefield edge"


def _piece(name: str) -> str:
    """A piece's id for a line (through :func:`~tabletop.errors.ident`), or an edge's name."""
    from tabletop.errors import ident
    from tabletop.geometry.passages import EDGES

    return name if name in EDGES else ident(name)


def _line(p: Any) -> str:
    (ax, ay), (bx, by) = p.neck
    head = f'{p.width:6.2f}"  {_piece(p.between[0])} - {_piece(p.between[1])} at ' \
           f"({ax:.2f}, {ay:.2f})-({bx:.2f}, {by:.2f}): "
    if p.passes:
        lo, hi = p.facings
        turn = "at every facing" if p.every_facing else \
            f"from {lo % 360:.1f} to {hi % 360:.1f} degrees"
        return head + (f'passes facing {p.facing:.0f} degrees ({p.spare:.2f}" to spare; it '
                       f"fits {turn})")
    if p.facings is None:
        return head + f'too narrow at every facing (its narrowest width is {p.needs:.2f}")'
    return head + f"wide enough at {p.facing:.0f} degrees but {_piece(p.blocked_by)} shuts it"

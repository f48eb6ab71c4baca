"""``tabletop fit FILE --base BASE [--at X,Y]``: the narrow passages a base gets through or not;
``--catalogue``: every distinct base of the community data's units, each with its keywords."""

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
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--base", metavar="BASE",
                       help='a base of the scenario format ("32mm", "oval 60x35mm", "rect '
                       '25x50mm"), the id of a unit or model of FILE (its keywords decide '
                       "which dense terrain stops it), or a hull of the catalogue of bases "
                       '("Falcon hull", "Rhino hull (stand-in)", "Land Raider hull")')
    which.add_argument("--catalogue", action="store_true",
                       help="every distinct base of the community data's units (the wh40kdc "
                       "package, extra 40kdc; the survey's catalogue), each with the keywords "
                       "of most units on it: how many passages stop it and the narrowest")
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
                        'the file whose base is "hull", or a hull of the catalogue')
    try:
        return base_of(text), None, text
    except BaseParseError as exc:
        problem = str(exc)
    hulls = [e for e in _hulls() if e["name"].casefold() == text.strip().casefold()]
    if hulls:
        from tabletop.survey.measures import footprint, keywords

        return footprint(hulls[0]), keywords(hulls[0]) or None, hulls[0]["name"]
    hint = ""
    if "hull" in text.casefold():
        hint = f", or a hull of the catalogue ({', '.join(quote(e['name']) for e in _hulls())})"
    raise UserError(f"--base: {problem}, or the id of a unit or model of the file (no unit or "
                    f"model {quote(text)} there){hint}")


def _hulls() -> list[dict[str, Any]]:
    """The hulls of the catalogue: the data's (when ``wh40kdc`` is installed) and the shipped
    scenarios'."""
    from tabletop.importers import dataset
    from tabletop.survey import jobs

    if dataset.available():
        from tabletop.survey import current

        pool = current.known()
    else:
        pool = list(jobs.hulls())
    return [e for e in pool if not isinstance(e["spec"], str)]


def run(args: argparse.Namespace) -> int:
    """Load the scenario, find the passages and write the answer."""
    from tabletop.errors import UserError
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    if args.limit is not None and not (math.isfinite(args.limit) and 0 < args.limit <= 100):
        raise UserError(f"--limit: {args.limit:g} is out of range; give 0 to 100 inches")
    if args.catalogue:
        return _catalogue(state, args)
    base, keywords, described = _base(state, args.base)
    found, what = _found(state, base, keywords, args)
    if args.format == "png":
        if not args.output:
            raise UserError("--format png needs an output file: add -o PASSAGES.png")
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from tabletop.view.passagepaint import render_passages
        from tabletop.view.render import save_png

        emit(f"wrote {save_png(render_passages(state, base, found), args.output)}")
        return 0
    if args.format == "json":
        lines = [json.dumps({"base": described, "stopped_by": what,
                             "passages": [p.to_json() for p in found]})]
    else:
        lines = [_heading(args.file, described, what, found, args), *map(_line, found)]
    return _write(lines, args)


def _write(lines: list[str], args: argparse.Namespace) -> int:
    from tabletop.errors import printable
    from tabletop.files import atomic_write

    if args.output:
        atomic_write(args.output, "".join(printable(line) + "\n" for line in lines))
    else:
        emit(lines)
    return 0


def _found(state: Any, base: Any, keywords: tuple[str, ...] | None, args: argparse.Namespace
           ) -> tuple[list[Any], str]:
    """The passages ``base`` (of a unit with ``keywords``) meets, those near ``--at`` only, and
    what stops it."""
    from tabletop.geometry.passages import passages
    from tabletop.rulesets.blockers import blocking_pieces

    pieces, what = blocking_pieces(state, keywords)
    bf = state.battlefield
    found = passages(bf.width, bf.depth, pieces, base, limit=args.limit)
    if args.at is not None:
        x, y = args.at
        found = sorted((p for p in found if math.dist(p.middle, (x, y)) <= NEAR),
                       key=lambda p: math.dist(p.middle, (x, y)))
    return found, what


def _catalogue(state: Any, args: argparse.Namespace) -> int:
    """``--catalogue``: each distinct base of the data with the passages that stop it."""
    from tabletop.errors import UserError
    from tabletop.importers import dataset
    from tabletop.survey import current
    from tabletop.survey.measures import footprint, keywords

    if args.format == "png":
        raise UserError("--format png: draws one base's passages; give --base BASE, or "
                        "--format text or json with --catalogue")
    dataset.require()
    bases = current.catalogue()
    rows = []
    for e in bases:
        kws = keywords(e) or None
        found, what = _found(state, footprint(e), kws, args)
        rows.append((e, found, what))
    if args.format == "json":
        return _write([json.dumps({"catalogue": current.source(bases), "bases": [
            {"base": e["name"], "units": e["units"], "keywords": e["keywords"],
             "stopped_by": what, "passages": [p.to_json() for p in found]}
            for e, found, what in rows]})], args)
    where = f" within {NEAR:g}\" of {args.at[0]:g},{args.at[1]:g}" if args.at else ""
    lines = [f"{args.file}: the {len(bases)} distinct bases of the units of wh40kdc "
             f"{dataset.version()} (keywords: those of most units on the base), the passages"
             f"{where} that stop each"]
    width = max(len(e["name"]) for e in bases)
    for e, found, what in rows:
        units = f"{e['units']} unit{'' if e['units'] == 1 else 's'}"
        head = f"{e['name']:<{width}}  {units:>9}  {'/'.join(e['keywords']) or '-':<8}  "
        narrow = [p for p in found if not p.passes and p.facings is None]
        shut = sum(not p.passes and p.facings is not None for p in found)
        if not found:
            lines.append(head + f"no passage narrower than it needs (stopped by {what})")
            continue
        said = f"{len(narrow)} of {len(found)} passages too narrow"
        if shut:
            said += f", {shut} shut by another piece"
        if narrow:
            p = max(narrow, key=lambda q: q.width)
            (ax, ay), (bx, by) = p.neck
            said += (f'; the widest {p.width:.2f}" {_piece(p.between[0])} - '
                     f"{_piece(p.between[1])} at ({ax:.2f}, {ay:.2f})-({bx:.2f}, {by:.2f})")
        lines.append(head + said)
    return _write(lines, args)


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

"""``tabletop path FILE --model ID --move ... --to X,Y``: the shortest legal path to a point."""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

from tabletop.cli._output import emit
from tabletop.cli.zone import add_move_arguments
from tabletop.errors import quote

ORDER = 26


def point_arg(text: str) -> tuple[float, float]:
    """A point ``X,Y`` in inches from the command line."""
    try:
        xs = [float(v) for v in text.replace(" ", "").split(",")]
    except ValueError:
        xs = []
    if len(xs) != 2 or not all(math.isfinite(v) for v in xs):
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a point: write X,Y in inches, "
                                         "e.g. 30.5,22")
    return xs[0], xs[1]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``path`` sub-command."""
    p = subparsers.add_parser(
        "path",
        help="the shortest legal path of a model to a point",
        description="Print JSON {legal, length, path, facing, reasons}: the shortest legal path "
        "to the point when the point is a legal end of the move, otherwise every reason why not "
        "(rule, message, models, distance, limit) and the nearest legal end point with its path "
        "({nearest: {at, away, length, path, facing}}; none when the model has no legal end). "
        "A model on a non-round base turns as it moves: its path points are [x, y, facing] (a "
        "turn in place is two points at the same place) and facing is the one it ends at.",
    )
    add_move_arguments(p)
    p.add_argument("--to", required=True, type=point_arg, metavar="X,Y",
                   help="end point in inches, e.g. 30.5,22")
    p.set_defaults(func=run)


def _reason(v: Any) -> dict[str, Any]:
    """A refusal as the answer gives it: the rule, the words, the models, the distance and the
    limit (not the geometry: a grown base is hundreds of points nobody reads)."""
    out: dict[str, Any] = v.to_json()
    out.pop("geometry", None)
    return out


def _path(zone: Any, x: float, y: float) -> dict[str, Any] | None:
    """The shortest legal path to the legal end ``(x, y)``: length, points, end facing."""
    res = zone.path_to(x, y)
    if res is None:
        return None
    # a model that turns as it moves: every point carries its facing, a turn in place being
    # two points at the same place; "facing" is where it ends facing
    return {"length": round(res.length, 6), "path": [[round(v, 6) for v in p] for p in res.points],
            "facing": round(zone.facing_at(x, y), 6)}


def answer(zone: Any, x: float, y: float) -> dict[str, Any]:
    """The JSON answer for the end point ``(x, y)``: its path when it is a legal end, else the
    reasons and the nearest legal end with its path (``nearest``: ``at``, ``away`` (inches
    from the point asked), ``length``, ``path``, ``facing``; ``null`` without a legal end)."""
    reasons = zone.explain(x, y)
    found = None if reasons else _path(zone, x, y)
    if found is not None:
        return {"legal": True, **found, "reasons": []}
    if not reasons:  # pragma: no cover - explain() found no reason, so a path exists
        reasons_json = [{"rule": "unreachable", "message": "no legal path found"}]
    else:
        reasons_json = [_reason(v) for v in reasons]
    nearest: dict[str, Any] | None = None
    nx, ny = zone.nearest(x, y)
    if zone.contains(nx, ny):
        near = _path(zone, nx, ny)
        if near is not None:
            nearest = {"at": [round(nx, 6), round(ny, 6)],
                       "away": round(math.dist((x, y), (nx, ny)), 6), **near}
    return {"legal": False, "length": 0.0, "path": [], "reasons": reasons_json,
            "nearest": nearest}


def run(args: argparse.Namespace) -> int:
    """Load the scenario, compute the zone and print the path or the reasons."""
    from tabletop import legal_zone
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    zone = legal_zone(state, args.model, args.move, roll=args.roll, mode=args.mode,
                      fly=args.fly, step=args.step)
    x, y = args.to
    emit(json.dumps(answer(zone, x, y)))
    return 0

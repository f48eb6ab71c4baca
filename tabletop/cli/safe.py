"""``tabletop safe FILE --model ID --move TYPE``: where a model (or its unit) may end a move out
of every enemy unit's charge at chosen odds (the docs' page on threat ranges)."""

from __future__ import annotations

import argparse
from pathlib import Path

from tabletop.cli.threat import add_output, answer, png_needs_output

ORDER = 28

FORMATS = ("json", "geojson", "png")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``safe`` sub-command."""
    p = subparsers.add_parser(
        "safe",
        help="where a model may end its move out of every enemy charge",
        description="The part of a model's legal zone (or of each model's, with --unit) where "
        "no enemy unit on the battlefield can charge it next turn at the odds given: a point "
        "never counts as safe when a counted enemy can reach it with a roll below the odds. "
        "Writes the documented JSON, a GeoJSON FeatureCollection, or a PNG of the board.",
    )
    p.add_argument("file", metavar="FILE", help="scenario file (.toml or .json)")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--model", metavar="ID", help="id of the model")
    who.add_argument("--unit", metavar="ID", help="id of the unit (every model of it)")
    p.add_argument("--move", required=True, metavar="TYPE",
                   help="move type (the ruleset's: normal, advance or fall-back for a game of "
                   "models)")
    p.add_argument("--roll", type=int, metavar="N", help="the advance roll (advance moves)")
    p.add_argument("--odds", default="never", metavar="P",
                   help="safe unless this roll or more is rolled (9+), or where a charge "
                   "succeeds with at most this chance (0.28, 28%%); never (the default): out "
                   "of reach of every roll")
    p.add_argument("--objective", type=int, metavar="N",
                   help="only within range (3\") of objective marker N (1 is the first of the "
                   "scenario's objectives)")
    add_output(p, FORMATS)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load the scenario, ask its ruleset for safe ground and write it."""
    from tabletop import rulesets
    from tabletop.errors import UserError, quote
    from tabletop.rules.threat import parse_odds
    from tabletop.scenario.io import load_scenario

    state = load_scenario(Path(args.file))
    odds = parse_odds(args.odds)
    png_needs_output(args, "SAFE.png")
    tool = rulesets.threat_queries(state)
    model = args.model
    if model is not None:
        try:
            unit_id = state.model(model)[0].id
        except KeyError:
            raise UserError(f"--model: no model {quote(str(model))} in {args.file}") from None
    else:
        unit_id = args.unit
    if args.move not in tool.moves():
        raise UserError(f"--move {quote(str(args.move))}: safe ground answers "
                        f"{', '.join(tool.moves()) or 'no move'}")
    safe = tool.safe(state, unit_id, args.move, odds, model=model, roll=args.roll,
                     objective=args.objective)

    def png(out: str) -> tuple[str, tuple[int, int]]:
        from tabletop.view.threatview import safe_png

        return safe_png(state, safe, out)

    answer(args, png, safe.to_json, safe.to_geojson)
    return 0

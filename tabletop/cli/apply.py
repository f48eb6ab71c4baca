"""``tabletop apply SCENARIO ACTIONS.json [-o RESULT.toml]``: play a list of actions headless.

Prints one JSON object: ``{"results": [...], "state": {round, active_player, phase, step}}``
(spec/actions.md). A refusal is not an error (exit 0); a malformed scenario or action file exits 2
and writes nothing.
"""

from __future__ import annotations

import argparse
import json

from tabletop import rulesets
from tabletop.cli._output import emit
from tabletop.errors import UserError
from tabletop.scenario.io import check_triggers, load_scenario, read_json, save_scenario

ORDER = 40


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``apply`` sub-command."""
    p = subparsers.add_parser(
        "apply", help="apply an action file to a scenario (headless play)",
        description="Apply the actions of ACTIONS.json in order to SCENARIO and print the "
                    "results and where the game stands as JSON. Refused actions change nothing "
                    "(exit 0); a malformed file is an error (exit 2, nothing written).")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (.toml or .json)")
    p.add_argument("actions", metavar="ACTIONS.json", help="JSON array of actions")
    p.add_argument("-o", "--output", metavar="RESULT", help="write the final state here "
                   "(scenario format 1; .json for JSON, TOML otherwise)")
    p.add_argument("--triggers", metavar="TRIGGERS.json", help="your own triggered rules: a "
                   "JSON array of {at, name, effect, ...} (see the README)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Apply the actions; print the results; write ``-o`` if asked."""
    state = load_scenario(args.scenario)
    actions = read_json(args.actions, "an action file")
    if not isinstance(actions, list):
        raise UserError(f"{args.actions}: an action file is a JSON array of actions")
    registry = None
    if args.triggers:
        specs = read_json(args.triggers, "a trigger file")
        if not isinstance(specs, list) or not all(isinstance(s, dict) for s in specs):
            raise UserError(f"{args.triggers}: a trigger file is a JSON array of objects")
        check_triggers(state, specs, args.triggers)
        try:
            registry = rulesets.of(state).trigger_registry(specs)
        except UserError as exc:
            raise UserError([f"{args.triggers}: {line}" for line in exc.lines]) from None
    try:
        final, results = rulesets.apply_actions(state, actions, triggers=registry)
    except UserError as exc:
        raise UserError([f"{args.actions}: {line}" for line in exc.lines]) from None
    b = final.battle
    out = {"results": [r.to_json(i) for i, r in enumerate(results)],
           "state": {"round": b.round, "active_player": b.active_player, "phase": b.phase,
                     "step": b.step}}
    if args.output:
        save_scenario(final, args.output)
    emit(json.dumps(out, indent=1).split("\n"))  # no line break inside a JSON string
    return 0

"""``tabletop apply SCENARIO ACTIONS.json [-o RESULT.toml]``: play a list of actions headless.

Prints one JSON object: ``{"results": [...], "state": {round, active_player, phase, step}}``
(the action format of the docs), and on standard error a short summary for a judge: how many
actions were applied, each refused one with its index and reasons, the dice rolled. A refusal is
not an error (exit 0) unless ``--strict`` is given (exit 1); a malformed scenario or action file
exits 2 and writes nothing.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tabletop import rulesets
from tabletop.cli._output import emit
from tabletop.errors import UserError, quote
from tabletop.rules.result import ActionResult
from tabletop.scenario.io import check_triggers, load_scenario, read_json, save_scenario

ORDER = 40


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``apply`` sub-command."""
    p = subparsers.add_parser(
        "apply", help="apply an action file to a scenario (headless play)",
        description="Apply the actions of ACTIONS.json in order to SCENARIO and print the "
                    "results and where the game stands as JSON on standard output, and a short "
                    "summary on standard error (actions applied, each refused one with its "
                    "index and reasons, dice rolled). Refused actions change nothing (exit 0, "
                    "or 1 with --strict); a malformed file is an error (exit 2, nothing "
                    "written).")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (.toml or .json)")
    p.add_argument("actions", metavar="ACTIONS.json", help="JSON array of actions")
    p.add_argument("-o", "--output", metavar="RESULT", help="write the final state here "
                   "(scenario format 1; .json for JSON, TOML otherwise)")
    p.add_argument("--triggers", metavar="TRIGGERS.json", help="your own triggered rules: a "
                   "JSON array of {at, name, effect, ...} (see the scenario format in the docs: "
                   "docs/scenario-format.md, triggers)")
    p.add_argument("--strict", action="store_true",
                   help="exit 1 when any action was refused (default: a refusal is not an "
                   "error, exit 0)")
    p.set_defaults(func=run)


def _what(action: Any) -> str:
    """An action in a few words: ``move int3``, ``select squad (advance)``."""
    if not isinstance(action, dict):
        return "?"
    do = str(action.get("do", "?"))
    who = action.get("model", action.get("unit"))
    out = do + (f" {quote(str(who))}" if who is not None else "")
    if do == "select" and action.get("move"):
        out += f" ({action['move']})"
    return out


def summary(actions: Sequence[Any], results: Sequence[ActionResult]) -> list[str]:
    """The lines ``tabletop apply`` writes on standard error: the counts, each refused action
    with its index and reasons, and the dice rolled by kind."""
    refused = [(i, r) for i, r in enumerate(results) if not r.ok]
    dice: Counter[str] = Counter()
    for r in results:
        for e in r.events:
            if e.get("kind") == "roll" and isinstance(e.get("dice"), list):
                dice[str(e.get("what", "roll"))] += len(e["dice"])
    n = len(results)
    head = (f"tabletop apply: {n} action{'s' if n != 1 else ''}: {n - len(refused)} applied, "
            f"{len(refused)} refused; ")
    total = sum(dice.values())
    head += (f"{total} {'die' if total == 1 else 'dice'} rolled ("
             + ", ".join(f"{what} {k}" for what, k in sorted(dice.items())) + ")"
             if total else "no dice rolled")
    lines = [head]
    for i, r in refused:
        lines.append(f"  action {i} ({_what(actions[i])}) refused:")
        lines += [f"    - {reason}" for reason in r.reasons or ("(no reason given)",)]
    return lines


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
    emit(summary(actions, results), err=True)
    return 1 if args.strict and any(not r.ok for r in results) else 0

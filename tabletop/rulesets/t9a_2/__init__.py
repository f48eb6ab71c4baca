"""The 9th Age, 2nd edition (``t9a-2``): the Movement phase of rank-and-file blocks (seed 001).

The player turn is charge, movement, magic, shooting, melee; the Movement phase has the steps
``start``, ``rally`` (rally tests and flee moves happen when it finishes), ``move-units``
(select a unit, stage manoeuvres, commit) and ``end``. After melee the other player's turn
starts and the per-turn flags of every block expire. Modules:

- :mod:`.rulings`: the rulings of ``docs/rulings.md`` as named constants;
- :mod:`.movement`: rally, flee, Panic tests, Advance, March, Reform, the range queries;
- :mod:`.tools`: what the window's block-drag tool asks.

:data:`RULESET` is the object the registry (:mod:`tabletop.rulesets`) holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tabletop.errors import ident
from tabletop.rules.actions import ActionSchema, Field
from tabletop.rules.result import ActionResult
from tabletop.rules.ruleset import MoveType, Preview, Ruleset
from tabletop.rules.tools import BLOCK_DRAG, THREAT
from tabletop.rules.turns import Phase, Step, StepHandler, TriggerRegistry, TurnStructure
from tabletop.rulesets.t9a_2 import movement
from tabletop.rulesets.t9a_2.tools import BlockDrag, NoThreats
from tabletop.state import Block, GameState

__all__ = ["NAME", "RULESET", "TURN", "T9a2"]

NAME = "t9a-2"
"""What a scenario's ``ruleset`` key holds."""

TURN = TurnStructure((
    Phase("charge", "Charge phase", (Step("charge", "Charge phase"),), simulated=False),
    Phase("movement", "Movement phase", (
        Step("start", "Start of Movement phase"),
        Step("rally", "Rally Fleeing Units"),
        Step("move-units", "Move units"),
        Step("end", "End of Movement phase"),
    )),
    Phase("magic", "Magic phase", (Step("magic", "Magic phase"),), simulated=False),
    Phase("shooting", "Shooting phase", (Step("shooting", "Shooting phase"),), simulated=False),
    Phase("melee", "Melee phase", (Step("melee", "Melee phase"),), simulated=False),
))
"""A t9a-2 player turn; the Movement phase in the steps of seed 001."""


STEPS: Mapping[tuple[str, str], StepHandler] = {
    ("movement", "rally"): movement.rally_step,
    ("melee", "melee"): movement.end_of_turn,
}
"""The handler of each step that does something when it finishes."""

ACTIONS: ActionSchema = {
    "next": {"dice": Field("dice")},
    "select": {"unit": Field("unit", True), "move": Field("str", True),
               "dice": Field("dice")},
    "forward": {"distance": Field("num", True)},
    "backward": {"distance": Field("num", True)},
    "sideways": {"distance": Field("num", True)},
    "wheel": {"angle": Field("num", True)},
    "reform": {"files": Field("int", True), "facing": Field("num")},
    "undo": {},
    "reset": {},
    "cancel": {},
    "commit": {"dice": Field("dice")},
}
"""The fields of each action (``docs/actions.md``)."""


class T9a2(Ruleset):
    """t9a-2: blocks that advance, wheel, march, reform, rally and flee; the block-drag tool."""

    name = NAME
    title = "The 9th Age, 2nd edition"
    turn = TURN
    steps = STEPS
    actions = ACTIONS
    move_types = (
        MoveType("advance", "Advance", "a"),
        MoveType("march", "March", "q"),
        MoveType("reform", "Reform", "f"),
    )
    terrain_kinds = ("open", "impassable", "dangerous")
    unit_type = Block
    zones = ("its units are rank-and-file blocks, moved by manoeuvres its own blocks engine "
             "judges (advance, wheel, march, reform: select a block in the window and drag its "
             "front edge or corners, or apply the manoeuvres with tabletop apply); a single "
             "model has no legal zone or path of its own")

    def __init__(self) -> None:
        self.tools = {BLOCK_DRAG: BlockDrag(), THREAT: NoThreats()}

    def on_action(self, state: GameState, action: Mapping[str, Any],
                  triggers: TriggerRegistry | None) -> ActionResult:
        return movement.act(state, action)

    def eligible_moves(self, state: GameState, unit_id: str) -> list[tuple[str, bool, str]]:
        """Advance, March and Reform, each tried as ``select`` (pure: a March Test rolled by the
        try is thrown away with its state)."""
        if not isinstance(state.unit(unit_id), Block):
            return [(t.name, False, f"{ident(unit_id)} is not a t9a-2 block")
                    for t in self.move_types]
        out = []
        for t in self.move_types:
            res = movement.act(state, {"do": "select", "unit": unit_id, "move": t.name})
            out.append((t.name, res.ok, "; ".join(res.reasons)))
        return out

    def preview(self, state: GameState, action: Mapping[str, Any]) -> Preview:
        """A manoeuvre previewed (``info``: ``geom``, the block after it, also when refused, and
        ``outer_arc``, a wheel's outer front corner arc); other actions as applied."""
        if action.get("do") not in movement.MANOEUVRES or state.battle.selection is None:
            return super().preview(state, action)
        p = movement.preview(state, action)
        geom = p["geom"]
        block = state.unit(state.battle.selection.unit)
        moved = state.with_unit(replace(block, at=geom.at, facing=geom.facing % 360.0,
                                        files=geom.files))
        return Preview(p["ok"], tuple(p["reasons"]), moved, tuple(p["end_reasons"]),
                       info={"geom": geom, "outer_arc": p["outer_arc"]})


RULESET = T9a2()
"""The t9a-2 ruleset."""

"""Warhammer 40,000, 11th edition (``wh40k-11e``): the Command and Movement phases.

Seeds 004 (Command phase, 08.01-08.05) and 000 (Movement phase, 09.01-09.07); the rulings of
``docs/rulings.md`` are the named constants of :mod:`.rulings`. Modules:

- :mod:`.command`: Core CP, half-strength, battle-shock rolls and the Battle-shock step;
- :mod:`.movement`: the unit's move as a transaction (select, stage, commit); :mod:`.flags`:
  move types and the flags a move leaves; :mod:`.eligibility`: which moves a unit may make;
  :mod:`.casualties`: mortal wounds and hazard rolls; :mod:`.setups`: set-up and embark rules;
  :mod:`.emergency`: a destroyed transport's emergency disembark; :mod:`.steps`: the steps that
  resolve on their own;
- :mod:`.zones`: its rules as queries of the zone engine: legal zones, set-up zones, paths
  (``tabletop.legal_zone``, ``validate_path``, ``setup_zone``);
- :mod:`.paths`: one staged model move checked (path rules now, end rules at the commit);
- :mod:`.checks`: the end-of-move checks (coherency, overlaps, edge, terrain, engagement);
- :mod:`.tools`: what the window's model-drag tool and threat ranges ask;
- :mod:`.threat`: threat ranges (charges after the next move) and safe ground.

:data:`RULESET` is the object the registry (:mod:`tabletop.rulesets`) holds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tabletop.rules.actions import ActionSchema, Field
from tabletop.rules.dice import Dice
from tabletop.rules.result import ActionResult
from tabletop.rules.ruleset import MoveType, Preview, Ruleset
from tabletop.rules.tools import MODEL_DRAG, THREAT
from tabletop.rules.turns import (
    GENERIC_EFFECTS,
    DataEffect,
    Phase,
    Step,
    StepHandler,
    TriggerContext,
    TriggerRegistry,
    TurnStructure,
    parse_point,
    resolve_point,
    subject,
)
from tabletop.rulesets.wh40k_11e import (
    casualties,
    eligibility,
    emergency,
    flags,
    movement,
    rulings,
    steps,
    zones,
)
from tabletop.rulesets.wh40k_11e.command import battle_shock_roll, battle_shock_step, gain_core_cp
from tabletop.rulesets.wh40k_11e.tools import ModelDrag, Threats
from tabletop.rulesets.wh40k_11e.warnings import coherency_warnings
from tabletop.state import GameState, Unit
from tabletop.zones import MoveQuery

__all__ = ["NAME", "RULESET", "TURN", "Wh40k11e"]

NAME = "wh40k-11e"
"""What a scenario's ``ruleset`` key holds."""

MOVE_START = "unit.move.start"
"""Trigger point: a unit starts a move (after what it does before moving: the advance roll, the
hazard rolls of a Desperate Escape)."""
MOVE_END = "unit.move.end"
"""Trigger point: a unit's move has ended (its commit was accepted)."""

TURN = TurnStructure((
    Phase("command", "Command phase", (
        Step("start", "Start of Command phase"),
        Step("gain-core-cp", "Gain Core CP"),
        Step("battle-shock", "Battle-shock"),
        Step("command-abilities", "Command abilities"),
        Step("end", "End of Command phase", parts=("rules", "mission")),
    )),
    Phase("movement", "Movement phase", (
        Step("start", "Start of Movement phase"),
        Step("move-units", "Move units", aliases=("reinforcements",)),
        Step("end", "End of Movement phase"),
    )),
    Phase("shooting", "Shooting phase", (Step("shooting", "Shooting phase", stop=False),),
          simulated=False),
    Phase("charge", "Charge phase", (Step("charge", "Charge phase", stop=False),), simulated=False),
    Phase("fight", "Fight phase", (Step("fight", "Fight phase", stop=False),), simulated=False),
    Phase("end-of-turn", "End of turn", (Step("end-of-turn", "End of turn", stop=False),)),
), events=(MOVE_START, MOVE_END))
"""Seeds 004 (Command phase, 08.01-08.05) and 000 (Movement phase, 09.01-09.03). The
Reinforcements step of rules written for it is Move Units (09.02.03: "Rules that say they happen
during the Reinforcements step happen during the Move Units step"). ``unit.move.start`` and
``unit.move.end``: when a unit starts or ends a move (not when it remains stationary, 09.04)."""


def _battle_shock_effect(state: GameState, ctx: TriggerContext, spec: Mapping[str, Any]
                         ) -> tuple[GameState, list[dict[str, Any]]]:
    return battle_shock_roll(state, subject(spec, ctx), ctx)


def _desperate_escape_effect(state: GameState, ctx: TriggerContext, spec: Mapping[str, Any]
                             ) -> tuple[GameState, list[dict[str, Any]]]:
    return casualties.desperate_escape_test(state, subject(spec, ctx), ctx,
                                          modifier=int(spec.get("modifier", 0)))


EFFECTS: Mapping[str, tuple[DataEffect, tuple[str, ...]]] = {
    **GENERIC_EFFECTS,
    "battle-shock-roll": (_battle_shock_effect, ("unit",)),
    "desperate-escape-test": (_desperate_escape_effect, ("unit",)),
}
"""Effects of data triggers: the generic ones; ``battle-shock-roll`` (``unit``): a battle-shock
roll for that unit, its one roll if made in the Battle-shock step (08.03.01);
``desperate-escape-test`` (``unit``, optional ``modifier`` added to each die): a Desperate Escape
test forced on the unit (09.07.01: one hazard roll per model, then a battle-shock roll)."""

STEPS: Mapping[tuple[str, str], StepHandler] = {
    ("command", "gain-core-cp"): gain_core_cp,
    ("command", "battle-shock"): battle_shock_step,
    ("movement", "move-units"): steps.end_move_units,
    ("end-of-turn", "end-of-turn"): steps.end_of_turn,
}
"""The handler of each step that does something when it finishes."""

ACTIONS: ActionSchema = {
    "next": {"dice": Field("dice"), "insane-bravery": Field("unit"),
             "remove": Field("models")},
    "select": {"unit": Field("unit", True), "move": Field("str", True),
               "mode": Field("str"), "dice": Field("dice"), "fly": Field("bool")},
    "move": {"model": Field("model", True), "path": Field("path", True),
             "facing": Field("num")},
    "place": {"model": Field("model", True), "at": Field("point", True),
              "facing": Field("num")},
    "undo": {},
    "reset": {},
    "cancel": {},
    "commit": {"dice": Field("dice"), "embark": Field("unit")},
    "emergency-disembark": {"unit": Field("unit", True), "at": Field("placements", True),
                            "dice": Field("dice")},
}
"""The fields of each action (``docs/actions.md``)."""


class Wh40k11e(Ruleset):
    """wh40k-11e: the turn of seeds 004 and 000, its move types and the model-drag tool."""

    name = NAME
    title = "Warhammer 40,000, 11th edition"
    turn = TURN
    steps = STEPS
    actions = ACTIONS
    move_types = (
        MoveType("remain-stationary", "Remain stationary", "s"),
        MoveType("normal", "Normal move", "n", options=("fly",)),
        MoveType("advance", "Advance", "a", options=("fly",)),
        MoveType("fall-back", "Fall back", "f", flags.MODES["fall-back"], ("fly",)),
        MoveType("disembark", "Disembark", "d", flags.MODES["disembark"]),
        MoveType("ingress", "Ingress (from reserves)", "i", flags.MODES["ingress"]),
    )
    terrain_kinds = ("area", "light", "dense", "impassable")
    unit_type = Unit
    effects = EFFECTS
    command_points = True
    engagement_range = rulings.ENGAGEMENT_RANGE
    crossing_keywords = rulings.DENSE_CROSSERS
    big_keywords = rulings.BIG

    def __init__(self) -> None:
        self.tools = {MODEL_DRAG: ModelDrag(), THREAT: Threats()}

    def apply(self, state: GameState, action: Mapping[str, Any], *,
              triggers: TriggerRegistry | None = None) -> ActionResult:
        """As :meth:`Ruleset.apply`, refusing first what must wait (:func:`.steps.blocked`:
        a destroyed transport's passengers disembark first; a tactical disembark's move comes
        right after it)."""
        why = steps.blocked(state, action)
        if why:
            return ActionResult(state, False, (why,))
        return super().apply(state, action, triggers=triggers)

    def next(self, state: GameState, action: Mapping[str, Any],
             triggers: TriggerRegistry | None = None) -> ActionResult:
        """``next``; with ``remove``, only the one that ends the turn (its models go first when
        the end of the turn restores coherency: the controlling player's choice, 03.03)."""
        res = super().next(state, action, triggers)
        if res.ok and action.get("remove") is not None and not any(
                e.get("kind") == "turn" for e in res.events):
            return ActionResult(state, False, ("remove: models are removed for coherency at "
                                               "the end of the turn; this next does not end it",))
        return res

    def on_action(self, state: GameState, action: Mapping[str, Any],
                  triggers: TriggerRegistry | None) -> ActionResult:
        a = action
        do = a["do"]
        if do == "select":
            res = movement.select(state, a["unit"], a["move"], mode=a.get("mode"),
                                  dice=a.get("dice"), fly=bool(a.get("fly", False)))
            sel = res.state.battle.selection
            if res.ok and sel is not None and sel.unit == a["unit"]:
                return self._at_unit(res, MOVE_START, a["unit"], triggers)
            return res
        if do == "emergency-disembark":
            return emergency.emergency_disembark(state, a["unit"], a["at"], dice=a.get("dice"))
        if do == "commit":
            sel = state.battle.selection
            res = movement.commit(state, dice=a.get("dice"), embark=a.get("embark"))
            if res.ok and sel is not None:
                return self._at_unit(res, MOVE_END, sel.unit, triggers)
            return res
        if do == "move":
            return movement.stage_move(state, a["model"], a["path"], a.get("facing"))
        if do == "place":
            return movement.stage_place(state, a["model"], a["at"], a.get("facing"))
        if do == "undo":
            return movement.undo(state)
        if do == "reset":
            return movement.reset(state)
        return movement.cancel(state)

    def _at_unit(self, res: ActionResult, key: str, unit_id: str,
                 user: TriggerRegistry | None) -> ActionResult:
        """``res`` with the triggers at the unit point ``key`` resolved for ``unit_id``."""
        dice = Dice(res.state)
        point = parse_point(key, self.turn)
        ctx = TriggerContext(point, dice, unit=unit_id)
        state, events = resolve_point(res.state, point, ctx, self.triggers(res.state, user))
        if not events:
            return res
        return replace(res, state=dice.commit(state), events=(*res.events, *events))

    def eligible_moves(self, state: GameState, unit_id: str) -> list[tuple[str, bool, str]]:
        return eligibility.eligible_moves(state, unit_id)

    def display(self, state: GameState) -> GameState:
        return movement.board(state)

    def move_query(self, state: GameState, model_id: str, move: str, **options: Any
                   ) -> MoveQuery:
        """:func:`.zones.move_query` (options: ``roll``, ``mode``, ``fly``, ``step``)."""
        return zones.move_query(state, model_id, move, **options)

    def path_blockers(self, state: GameState, keywords: tuple[str, ...] | None
                      ) -> tuple[list[tuple[str, Any]], str]:
        """Impassable terrain, and dense terrain taller than ``DENSE_LOW`` unless a keyword
        crosses it (``None``: a model that crosses none, like a vehicle or a monster)."""
        crosses = keywords is not None and any(k in keywords for k in rulings.DENSE_CROSSERS)
        out = [(t.id, t.shape) for t in state.terrain if t.kind == "impassable" or
               (t.kind == "dense" and not crosses and t.height > rulings.DENSE_LOW)]
        what = "impassable terrain" + ("" if crosses else
                                       f" and dense terrain taller than {rulings.DENSE_LOW:g}\"")
        return out, what

    def warnings(self, state: GameState) -> list[tuple[str, str]]:
        """Units on the battlefield out of coherency (:mod:`.warnings`)."""
        return coherency_warnings(state)

    def preview(self, state: GameState, action: Mapping[str, Any]) -> Preview:
        """What ``action`` would do; ``end``: what a commit right after it would refuse."""
        res = self.apply(state, action)
        end = tuple(v.message for v in movement.commit_check(res.state)) if res.ok else ()
        return Preview(res.ok, res.reasons, res.state, end, res.violations)


RULESET = Wh40k11e()
"""The wh40k-11e ruleset."""

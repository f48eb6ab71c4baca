"""Actions (spec/actions.md): validate, dispatch to the ruleset, apply one by one.

``apply_action(state, action) -> ActionResult``. A malformed action (unknown ``do``, a missing or
wrongly typed field, an unknown id) raises :class:`~tabletop.errors.UserError` naming the action's
index and field. A refusal by the rules is not an error: ``ok`` is false, ``reasons`` say why and
the state is unchanged.

Routing: the form of every action is checked here for both rulesets (:data:`SCHEMAS`). wh40k-11e:
``next`` goes through the turn structure and step handlers of :mod:`tabletop.rules.turns`, the
other actions to :mod:`tabletop.rules.wh40k`. Another ruleset lives in the module named in
:data:`RULESET_MODULES`, which exposes ``apply_action(state, action, *, dice) -> (state, ok,
reasons, events)`` for all its actions (t9a-2 keeps its own phase sequence, including ``next``).
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tabletop.errors import UserError
from tabletop.rules import wh40k
from tabletop.rules.dice import Dice
from tabletop.rules.result import ActionResult, Refusal
from tabletop.rules.turns import TriggerRegistry, advance
from tabletop.state import T9A, WH40K, GameState, Unit

__all__ = ["RULESET_MODULES", "ActionResult", "apply_action", "apply_actions",
           "validate_action"]

RULESET_MODULES: dict[str, str] = {T9A: "tabletop.rulesets.t9a"}
"""Rulesets implemented outside this package, loaded when a state of that ruleset is played."""

Handler = Callable[[GameState, Mapping[str, Any]], ActionResult]

# field name -> (kind, required)
SCHEMAS: dict[str, dict[str, dict[str, tuple[str, bool]]]] = {
    WH40K: {
        "next": {"dice": ("dice", False), "insane-bravery": ("unit", False)},
        "select": {"unit": ("unit", True), "move": ("str", True), "mode": ("str", False),
                   "dice": ("dice", False)},
        "move": {"model": ("model", True), "path": ("path", True), "facing": ("num", False)},
        "place": {"model": ("model", True), "at": ("point", True), "facing": ("num", False)},
        "undo": {},
        "reset": {},
        "commit": {"dice": ("dice", False), "embark": ("unit", False)},
    },
    T9A: {
        "next": {"dice": ("dice", False)},
        "select": {"unit": ("unit", True), "move": ("str", True), "dice": ("dice", False)},
        "forward": {"distance": ("num", True)},
        "backward": {"distance": ("num", True)},
        "sideways": {"distance": ("num", True)},
        "wheel": {"angle": ("num", True)},
        "reform": {"files": ("int", True), "facing": ("num", False)},
        "undo": {},
        "reset": {},
        "commit": {"dice": ("dice", False)},
    },
}
"""Fields of each action per ruleset: kind and whether required."""


def _num(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)


def _point(v: Any) -> bool:
    return isinstance(v, list | tuple) and len(v) == 2 and all(_num(x) for x in v)


def validate_action(state: GameState, action: Any, index: int = 0) -> None:
    """Raise :class:`UserError` naming ``index`` and the field if ``action`` is malformed."""
    where = f"action {index}"
    if not isinstance(action, Mapping):
        raise UserError(f"{where}: an action must be an object with a \"do\" field")
    schemas = SCHEMAS.get(state.ruleset)
    if schemas is None:
        raise UserError(f"{where}: no actions for ruleset {state.ruleset!r}")
    do = action.get("do")
    if not isinstance(do, str):
        raise UserError(f"{where}: field \"do\" is missing or not a string")
    if do not in schemas:
        raise UserError(f"{where}: unknown \"do\": {do!r}; one of " + ", ".join(schemas))
    schema = schemas[do]
    for key in action:
        if key != "do" and key not in schema:
            raise UserError(f"{where} ({do}): unknown field {key!r}"
                            + ("; fields: " + ", ".join(schema) if schema else ""))
    units = {u.id for u in state.units}
    models = {m.id for u in state.units if isinstance(u, Unit) for m in u.models}
    for key, (kind, required) in schema.items():
        if key not in action:
            if required:
                raise UserError(f"{where} ({do}): field {key!r} is missing")
            continue
        v = action[key]
        bad = ""
        if kind == "unit":
            bad = "" if isinstance(v, str) and v in units else "not a unit id of the scenario"
        elif kind == "model":
            bad = "" if isinstance(v, str) and v in models else "not a model id of the scenario"
        elif kind == "str":
            bad = "" if isinstance(v, str) else "not a string"
        elif kind == "num":
            bad = "" if _num(v) else "not a number"
        elif kind == "int":
            bad = "" if isinstance(v, int) and not isinstance(v, bool) else "not an integer"
        elif kind == "dice":
            ok = isinstance(v, list) and all(isinstance(x, int) and not isinstance(x, bool)
                                             and 1 <= x <= 6 for x in v)
            bad = "" if ok else "not a list of dice (integers 1 to 6)"
        elif kind == "point":
            bad = "" if _point(v) else "not a point [x, y]"
        elif kind == "path":
            ok = isinstance(v, list) and len(v) >= 1 and all(_point(p) for p in v)
            bad = "" if ok else "not a list of points [[x, y], ...] (at least one)"
        if bad:
            raise UserError(f"{where} ({do}): field {key!r} is {bad}: {v!r}")


def _wh40k_actions() -> dict[str, Handler]:
    return {
        "select": lambda s, a: wh40k.select(s, a["unit"], a["move"], mode=a.get("mode"),
                                            dice=a.get("dice")),
        "move": lambda s, a: wh40k.stage_move(s, a["model"], a["path"], a.get("facing")),
        "place": lambda s, a: wh40k.stage_place(s, a["model"], a["at"], a.get("facing")),
        "undo": lambda s, a: wh40k.undo(s),
        "reset": lambda s, a: wh40k.reset(s),
        "commit": lambda s, a: wh40k.commit(s, dice=a.get("dice"), embark=a.get("embark")),
    }


def _ruleset_module(ruleset: str) -> Any:
    name = RULESET_MODULES.get(ruleset)
    if name is None:
        raise UserError(f"no rules for ruleset {ruleset!r}")
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError:
        raise UserError(f"the rules of {ruleset} are not available ({name})") from None


def _other_ruleset(state: GameState, action: Mapping[str, Any]) -> ActionResult:
    mod = _ruleset_module(state.ruleset)
    dice = Dice(state, action.get("dice"))
    new, ok, reasons, events = mod.apply_action(state, action, dice=dice)
    return ActionResult(new, bool(ok), tuple(reasons), tuple(events))


def _next(state: GameState, action: Mapping[str, Any],
          triggers: TriggerRegistry | None) -> ActionResult:
    sel = state.battle.selection
    if sel is not None:
        return ActionResult(state, False, (f"{sel.unit} is moving: commit or reset its move "
                                           "before going on",))
    dice = Dice(state, action.get("dice"))
    try:
        new, events = advance(state, action, dice, triggers)
    except Refusal as r:
        return ActionResult(state, False, tuple(r.reasons), tuple(r.events),
                            tuple(r.violations))
    return ActionResult(dice.commit(new), True, (), tuple(events))


def apply_action(state: GameState, action: Mapping[str, Any], *,
                 triggers: TriggerRegistry | None = None, index: int = 0) -> ActionResult:
    """Apply one action; ``triggers`` are the user's own triggered rules."""
    validate_action(state, action, index)
    if state.ruleset != WH40K:
        return _other_ruleset(state, action)
    if action["do"] == "next":
        return _next(state, action, triggers)
    return _wh40k_actions()[str(action["do"])](state, action)


def apply_actions(state: GameState, actions: Sequence[Any], *,
                  triggers: TriggerRegistry | None = None
                  ) -> tuple[GameState, list[ActionResult]]:
    """Apply ``actions`` in order; a refused action leaves the state as it was for the next one.

    Every action is checked for form against the initial state first, so a malformed file
    changes nothing.
    """
    if not isinstance(actions, list | tuple):
        raise UserError("an action file must hold a JSON array of actions")
    for i, a in enumerate(actions):
        validate_action(state, a, i)
    results = []
    for i, a in enumerate(actions):
        res = apply_action(state, a, triggers=triggers, index=i)
        results.append(res)
        state = res.state
    return state, results




"""The form of actions (``docs/actions.md``): field kinds and the schema check every ruleset shares.

A ruleset declares its actions as an :data:`ActionSchema`: for each ``do``, its fields and the
:class:`Field` kind of each. :func:`validate_action` checks an action against it and raises
:class:`~tabletop.errors.UserError` naming the action's index and the field. What a field of a
kind may hold is decided in one place, :data:`FIELD_KINDS` (one checker per kind), so a range
check for every path, facing or die of every ruleset is one edit there.

Ids are checked against the state the action file starts from (rulings: "Forms of actions are
checked against the state the action file starts from"); :func:`references` lists the ids an
action names, so a ruleset can refuse an action whose unit or model has been destroyed since.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from tabletop.errors import UserError, describe, ident, quote
from tabletop.state import GameState, Unit

__all__ = ["FIELD_KINDS", "MAX_DICE", "MAX_NUMBER", "MAX_PATH_POINTS", "ActionSchema", "Field",
           "Losses", "references", "validate_action"]

MAX_NUMBER = 1_000_000.0
"""Largest size of any number in an action (inches, degrees), as in scenario files: every
position or facing an action can reach can be saved."""

MAX_PATH_POINTS = 1_000
"""Most points of a move's path."""

MAX_DICE = 100
"""Most dice an action may force."""


@dataclass(frozen=True)
class Field:
    """One field of an action: its kind (a key of :data:`FIELD_KINDS`) and whether required."""

    kind: str
    required: bool = False


ActionSchema: TypeAlias = Mapping[str, Mapping[str, Field]]
"""``do`` -> field name -> :class:`Field` (``do`` itself is implied)."""

Checker: TypeAlias = Callable[[GameState, Any], str]
"""``checker(state, value) -> ""`` when the value is of its kind, else what it is not."""


def _num(v: Any) -> bool:
    """A finite number of at most MAX_NUMBER in size (NaN fails the comparison)."""
    return isinstance(v, int | float) and not isinstance(v, bool) and abs(v) <= MAX_NUMBER


def _int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_NUMBER


def _point(v: Any) -> bool:
    return isinstance(v, list | tuple) and len(v) == 2 and all(_num(x) for x in v)


def _path_point(v: Any) -> bool:
    """``[x, y]`` or ``[x, y, facing]`` (move there, then turn to the facing)."""
    return isinstance(v, list | tuple) and len(v) in (2, 3) and all(_num(x) for x in v)


def _unit_ids(state: GameState) -> set[str]:
    return {u.id for u in state.units}


def _model_ids(state: GameState) -> set[str]:
    return {m.id for u in state.units if isinstance(u, Unit) for m in u.models}


_RANGE = f"a number between {-MAX_NUMBER:,.0f} and {MAX_NUMBER:,.0f}"

FIELD_KINDS: dict[str, Checker] = {
    "unit": lambda s, v: "" if isinstance(v, str) and v in _unit_ids(s)
    else "not a unit id of the scenario",
    "model": lambda s, v: "" if isinstance(v, str) and v in _model_ids(s)
    else "not a model id of the scenario",
    "str": lambda s, v: "" if isinstance(v, str) else "not a string",
    "bool": lambda s, v: "" if isinstance(v, bool) else "not true or false",
    "num": lambda s, v: "" if _num(v) else f"not {_RANGE}",
    "int": lambda s, v: "" if _int(v) else f"not a whole number of at most {MAX_NUMBER:,.0f}",
    "dice": lambda s, v: "" if isinstance(v, list) and len(v) <= MAX_DICE
    and all(_int(x) and 1 <= x <= 6 for x in v)
    else f"not a list of dice (at most {MAX_DICE} integers 1 to 6)",
    "point": lambda s, v: "" if _point(v) else f"not a point [x, y] ({_RANGE} each)",
    "path": lambda s, v: "" if isinstance(v, list) and 1 <= len(v) <= MAX_PATH_POINTS
    and all(_path_point(p) for p in v)
    else f"not a list of 1 to {MAX_PATH_POINTS:,} points [[x, y], ...] or [[x, y, facing], "
         f"...] ({_RANGE} each)",
    "placements": lambda s, v: "" if isinstance(v, Mapping) and all(
        k in _model_ids(s) and isinstance(p, list | tuple) and len(p) in (2, 3)
        and all(_num(x) for x in p) for k, p in v.items())
    else "not an object of model ids and points {\"m1\": [x, y], ...} ([x, y, facing] too, "
         f"{_RANGE} each)",
    "models": lambda s, v: "" if isinstance(v, list) and len(v) <= MAX_PATH_POINTS
    and all(isinstance(x, str) for x in v) and set(v) <= _model_ids(s)
    else "not a list of model ids of the scenario",
}
"""What a field of each kind may hold: the one place each kind is checked."""

REFERENCE_KINDS = ("unit", "model")
"""Field kinds that name something on the board (checked against the initial state)."""


def validate_action(schema: ActionSchema, state: GameState, action: Any, index: int = 0) -> None:
    """Raise :class:`UserError` naming ``index`` and the field if ``action`` is malformed.

    ``state`` is the state the ids are checked against (the state an action file starts from).
    """
    where = f"action {index}"
    if not isinstance(action, Mapping):
        raise UserError(f"{where}: an action must be an object with a \"do\" field")
    do = action.get("do")
    if not isinstance(do, str):
        raise UserError(f"{where}: field \"do\" is missing or not a string")
    if do not in schema:
        raise UserError(f"{where}: unknown \"do\": {quote(do)}; one of " + ", ".join(schema))
    fields = schema[do]
    for key in action:
        if key != "do" and key not in fields:
            raise UserError(f"{where} ({do}): unknown field {describe(key)}"
                            + ("; fields: " + ", ".join(fields) if fields else ""))
    for key, spec in fields.items():
        if key not in action:
            if spec.required:
                raise UserError(f"{where} ({do}): field {quote(key)} is missing")
            continue
        bad = FIELD_KINDS[spec.kind](state, action[key])
        if bad:
            raise UserError(f"{where} ({do}): field {quote(key)} is {bad}: "
                            f"{describe(action[key])}")


def references(schema: ActionSchema, action: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """``(field, kind, id)`` for every unit or model id a well-formed ``action`` names."""
    fields = schema.get(str(action.get("do")), {})
    return [(key, spec.kind, str(action[key])) for key, spec in fields.items()
            if spec.kind in REFERENCE_KINDS and key in action]


def _present(state: GameState, kind: str, ref: str) -> bool:
    if kind == "unit":
        return ref in _unit_ids(state)
    return ref in _model_ids(state)


class Losses:
    """What the actions of a file destroyed, to refuse a later action that names it.

    Rulings: "an action that names a unit or model destroyed since is refused by the rules (with
    the reason), not an error". :meth:`record` reads the ``destroyed`` events of each action;
    :meth:`refusal` gives the reasons an action must be refused for, if any.
    """

    def __init__(self) -> None:
        self._why: dict[str, str] = {}

    def record(self, before: GameState, events: Iterable[Mapping[str, Any]], index: int) -> None:
        """Note every unit and model the ``events`` of action ``index`` destroyed (a unit's
        models with it; ``before`` is the state the action was applied to)."""
        for ev in events:
            if ev.get("kind") != "destroyed":
                continue
            how = f" by {ev['by']}" if ev.get("by") else ""
            why = f" ({ev['reason']})" if ev.get("reason") else ""
            ids = [str(ev[k]) for k in ("model", "unit") if k in ev]
            if "unit" in ev:
                unit = next((u for u in before.units if u.id == ev["unit"]), None)
                ids += [m.id for m in unit.models] if isinstance(unit, Unit) else []
            for ref in ids:
                self._why.setdefault(ref, f"{ident(ref)} was destroyed{how} in action {index}{why}")

    def refusal(self, schema: ActionSchema, state: GameState, action: Mapping[str, Any]
                ) -> tuple[str, ...]:
        """Why ``action`` names something no longer in the game (empty: it does not)."""
        return tuple(self._why.get(ref, f"{ident(ref)} is no longer in the game")
                     for _, kind, ref in references(schema, action)
                     if not _present(state, kind, ref))

"""Setting up a whole unit with one action: the emergency disembark of a destroyed transport's
passengers (wh40k-11e 18.05). No pygame.

The rules set all the models up at once (``{"do": "emergency-disembark", "unit": ID, "at":
{model: [x, y], ...}}``: as close as possible, judged together), so the window stages the
placements itself: each model is dragged from the panel onto its set-up zone (wholly within 6" of
the transport, clear of the models placed so far), the board shows them where they were put, and
Enter sends the one action; a refusal keeps them to be fixed. The action is found in the game's
ruleset as the one whose fields name a unit and its placements; a transport waits for this when
the rules flag it ``destroyed`` with passengers aboard.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from tabletop import rulesets
from tabletop.rules.tools import MODEL_DRAG
from tabletop.state import GameState, Unit

__all__ = ["WRECK_FLAG", "GroupSetup", "pending_group_setup"]

WRECK_FLAG = "destroyed"
"""The flag of a transport the rules destroyed while passengers were still aboard."""


@dataclass
class GroupSetup:
    """The set-up being built: which action, for which unit, and the models placed so far."""

    do: str
    unit_field: str
    at_field: str
    unit: str
    transport: str
    placed: dict[str, tuple[float, float]] = field(default_factory=dict)

    def action(self) -> dict[str, Any]:
        """The action that sets the unit up where its models were placed."""
        return {"do": self.do, self.unit_field: self.unit,
                self.at_field: {m: [x, y] for m, (x, y) in self.placed.items()}}

    def display(self, state: GameState) -> GameState:
        """``state`` with the placed models drawn where they were put (the unit still aboard)."""
        try:
            unit = state.unit(self.unit)
        except KeyError:
            return state
        if not isinstance(unit, Unit):
            return state
        models = tuple(replace(m, at=self.placed[m.id]) if m.id in self.placed else m
                       for m in unit.models)
        return state.with_unit(replace(unit, models=models))

    def zone(self, state: GameState, model_id: str) -> Any:
        """Where ``model_id`` may be set up, clear of the models placed so far (the ruleset's
        model-drag tool answers, :meth:`~tabletop.rules.tools.ModelDragQueries.group_zone`)."""
        tool = rulesets.of(state).tools.get(MODEL_DRAG)
        return None if tool is None else tool.group_zone(self.display(state), model_id, self.do)

    def waiting(self, state: GameState) -> list[str]:
        """The unit's models not placed yet."""
        try:
            unit = state.unit(self.unit)
        except KeyError:
            return []
        return [m.id for m in getattr(unit, "models", ()) if m.id not in self.placed]


def pending_group_setup(state: GameState) -> GroupSetup | None:
    """The set-up the rules wait for (passengers of a destroyed transport), if any."""
    schema = rulesets.of(state).actions
    found = None
    for do, fields in schema.items():
        kinds = {f.kind: name for name, f in fields.items()}
        if "placements" in kinds and "unit" in kinds:
            found = (do, kinds["unit"], kinds["placements"])
            break
    if found is None:
        return None
    wrecks = {u.id for u in state.units if isinstance(u, Unit) and WRECK_FLAG in u.flags}
    for u in state.units:
        if isinstance(u, Unit) and u.location == "embarked" and u.transport in wrecks:
            return GroupSetup(*found, unit=u.id, transport=str(u.transport))
    return None

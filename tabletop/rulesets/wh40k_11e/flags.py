"""wh40k-11e's Movement phase: its move types, the flags a move leaves on a unit until the end
of the turn, and the small unit queries every part of the phase shares (:mod:`.movement`,
:mod:`.eligibility`, :mod:`.casualties`, :mod:`.setups`, :mod:`.emergency`, :mod:`.steps`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from tabletop.errors import ident
from tabletop.rules.result import Refusal
from tabletop.state import GameState, Unit

__all__ = [
    "F_ADVANCED",
    "F_DEEP_STRUCK",
    "F_DISEMBARKED",
    "F_EMBARKED",
    "F_FELL_BACK",
    "F_FLYING",
    "F_INGRESSED",
    "F_NORMAL",
    "F_NO_ACTION",
    "F_NO_CHARGE",
    "F_NO_SHOOT",
    "F_SELECTED",
    "F_SET_UP",
    "F_STATIONARY",
    "F_THEN_MOVE",
    "F_WRECK",
    "MODES",
    "MOVE_TYPES",
    "MOVING",
    "SETTING_UP",
    "add_flags",
    "alive",
    "article",
    "drop_flags",
    "flying",
    "on_battlefield",
    "passengers",
    "set_battle",
    "unit_of",
]

MOVE_TYPES = ("remain-stationary", "normal", "advance", "fall-back", "disembark", "ingress")
"""Move types of the Move Units step, in the seed's order (09.02)."""
MODES: dict[str, tuple[str, ...]] = {
    "fall-back": ("ordered-retreat", "desperate-escape"),
    "disembark": ("rapid", "tactical", "combat"),
    "ingress": ("strategic-reserves", "deep-strike"),
}
MOVING = ("normal", "advance", "fall-back")
"""Move types that move models (a path each)."""
SETTING_UP = ("ingress", "disembark")
"""Move types that set models up (a placement each)."""

# Flags (effects until the end of the turn), visible to the view.
F_SELECTED = "selected"
F_STATIONARY = "remained-stationary"
F_NORMAL = "normal-move"
F_ADVANCED = "advanced"
F_FELL_BACK = "fell-back"
F_INGRESSED = "ingressed"
F_DEEP_STRUCK = "deep-struck"
"""The unit's ingress move this phase was a Deep Strike (its passengers keep its limits)."""
F_DISEMBARKED = "disembarked"
F_EMBARKED = "embarked-this-phase"
F_SET_UP = "set-up"
F_THEN_MOVE = "disembark-then-move"
F_NO_CHARGE = "no-charge"
F_NO_SHOOT = "no-shoot"
F_NO_ACTION = "no-action"
F_FLYING = "took-to-the-skies"
"""The unit takes (took) to the skies in its move this turn (FLY, rulings)."""
F_WRECK = "destroyed"
"""A transport destroyed while units were embarked in it: it stays, its models where they stood,
until its passengers have made their emergency disembark (18.05), then it is removed."""


def unit_of(state: GameState, unit_id: str) -> Unit:
    """The wh40k-11e unit ``unit_id`` of ``state`` (:class:`Refusal` for a t9a block)."""
    u = state.unit(unit_id)
    if not isinstance(u, Unit):
        raise Refusal(f"{ident(unit_id)} is not a wh40k-11e unit")
    return u


def add_flags(unit: Unit, *flags: str) -> Unit:
    """``unit`` with ``flags`` added (each once)."""
    return replace(unit, flags=unit.flags + tuple(f for f in flags if f not in unit.flags))


def drop_flags(unit: Unit, *flags: str) -> Unit:
    """``unit`` without ``flags``."""
    return replace(unit, flags=tuple(f for f in unit.flags if f not in flags))


def set_battle(state: GameState, **kw: Any) -> GameState:
    """``state`` with its battle's fields ``kw`` replaced."""
    return replace(state, battle=replace(state.battle, **kw))


def article(word: str) -> str:
    """``word`` with its indefinite article (``"an advance"``, ``"a normal"``)."""
    return ("an " if word[:1] in "aeiou" else "a ") + word


def on_battlefield(unit: Unit) -> bool:
    """Whether ``unit`` stands on the battlefield (some model placed)."""
    return unit.location == "battlefield" and any(m.at is not None for m in unit.models)


def flying(unit: Unit) -> bool:
    """Whether ``unit`` takes to the skies in the move it is making."""
    return F_FLYING in unit.flags


def alive(state: GameState, unit_id: str) -> bool:
    """Whether ``unit_id`` is still in the game (a destroyed transport waiting for its
    passengers to disembark is not)."""
    return any(u.id == unit_id and F_WRECK not in u.flags for u in state.units)


def passengers(state: GameState, transport_id: str) -> list[str]:
    """The units embarked in ``transport_id``."""
    return [u.id for u in state.units if isinstance(u, Unit) and u.location == "embarked"
            and u.transport == transport_id]


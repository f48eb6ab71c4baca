"""Dice are data: die number ``i`` of a game is a pure function of the game's seed and ``i``.

``state.battle.dice_used`` counts the dice consumed so far, so a saved game goes on with exactly
the dice it would have rolled without the save. An action may force dice (``"dice": [...]``);
forced dice do not consume dice from the seed. Every roll is reported as an event
``{"kind": "roll", "what": ..., "unit": ..., "dice": [...]}``.

Rolls made for a unit's move stand for the rest of the phase (``battle.rolls``, :func:`stood`,
:func:`stand`): a refused move does not undo them and a new selection reuses them (an event
``{"kind": "stood", ...}`` instead of a new roll).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from tabletop.errors import UserError
from tabletop.state import GameState, Roll

__all__ = ["DEFAULT_SEED", "Dice", "die", "roll", "stand", "stood", "stood_event"]

DEFAULT_SEED = 0
"""The seed used when a scenario gives none."""


def die(seed: int | None, index: int, sides: int = 6) -> int:
    """Die number ``index`` (0-based) of a game with ``seed``: an int in ``1..sides``.

    A counter-based generator: numpy's PCG64 seeded with ``[seed, index]``, so the value depends
    on nothing else.

    Examples
    --------
    >>> die(7, 0) == die(7, 0)
    True
    >>> 1 <= die(7, 3) <= 6
    True
    """
    s = DEFAULT_SEED if seed is None else int(seed)
    gen = np.random.Generator(np.random.PCG64([abs(s), 1 if s < 0 else 0, int(index)]))
    return int(gen.integers(1, sides + 1))


class Dice:
    """A source of dice for one action: forced dice first, then dice from the seed.

    Parameters
    ----------
    state : GameState
        Gives the seed and how many dice were used before.
    forced : sequence of int, optional
        Dice the action forces, used in order before any die from the seed.
    """

    def __init__(self, state: GameState, forced: Sequence[int] | None = None) -> None:
        self.seed = state.battle.seed
        self.used = state.battle.dice_used
        self.forced = list(forced or [])

    def take(self, n: int) -> list[int]:
        """The next ``n`` dice."""
        out: list[int] = []
        for _ in range(n):
            if self.forced:
                v = self.forced.pop(0)
                if not 1 <= v <= 6:
                    raise UserError(f"a forced die must be 1 to 6, not {v}")
                out.append(int(v))
            else:
                out.append(die(self.seed, self.used))
                self.used += 1
        return out

    def commit(self, state: GameState) -> GameState:
        """``state`` with ``dice_used`` advanced past the dice taken from the seed."""
        if state.battle.dice_used == self.used:
            return state
        return replace(state, battle=replace(state.battle, dice_used=self.used))


def roll(dice: Dice, n: int, what: str, unit: str | None = None,
         **extra: object) -> tuple[list[int], dict[str, object]]:
    """Roll ``n`` dice for ``what`` and return them with their ``roll`` event."""
    values = dice.take(n)
    event: dict[str, object] = {"kind": "roll", "what": what, "unit": unit, "dice": values}
    event.update(extra)
    return values, event


def stood(state: GameState, unit: str, what: str) -> tuple[int, ...] | None:
    """The dice of the ``what`` roll ``unit`` made this phase, if it made one (they stand)."""
    for r in state.battle.rolls:
        if r.unit == unit and r.what == what:
            return r.dice
    return None


def stand(state: GameState, unit: str, what: str, dice: Sequence[int]) -> GameState:
    """``state`` remembering that ``unit`` rolled ``dice`` for ``what`` this phase.

    Rulings ("Dice stand"): a roll made for a unit's move is made once per unit per phase; a
    refused move does not undo it, and a new selection of the unit reuses it.
    """
    rolls = tuple(r for r in state.battle.rolls if not (r.unit == unit and r.what == what))
    roll_ = Roll(unit, what, tuple(int(v) for v in dice))
    return replace(state, battle=replace(state.battle, rolls=(*rolls, roll_)))


def stood_event(unit: str, what: str, dice: Sequence[int]) -> dict[str, object]:
    """The event of a roll that stands: no new dice, the earlier result is used again."""
    return {"kind": "stood", "what": what, "unit": unit, "dice": list(dice)}

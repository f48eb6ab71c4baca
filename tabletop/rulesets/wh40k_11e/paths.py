"""Checking one staged model move (a chain of straight lines) for wh40k-11e.

:func:`check_path` asks the legal-zone engine (:func:`.zones.validate_path`) for
every path rule — length against the cap, no base passing over enemy models (with the
MONSTER/VEHICLE and Desperate Escape exceptions), the battlefield edge, impassable and dense
terrain — and leaves the end checks to the commit, where the whole unit is checked at once.
A model keeps its facing along each line; a point ``[x, y, facing]`` turns it in place there
(turns cost nothing, but the turning base sweeps an area that is checked like a line's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tabletop.rules.violation import Violation
from tabletop.rulesets.wh40k_11e import zones
from tabletop.state import GameState, Model, Unit

__all__ = ["COMMIT_ONLY", "check_path", "move_cap", "path_length"]

COMMIT_ONLY = frozenset({"engaged", "overlap-model", "overlap-terrain"})
"""End checks of the legal-zone engine left to the commit: while a unit's move is staged its
models may stand on each other or in engagement range; the whole unit is checked when it ends."""


def path_length(points: Sequence[Sequence[float]]) -> float:
    """Sum of the straight lines travelled by the base centre (facings, if given, ignored)."""
    return sum(math.dist(points[i][:2], points[i + 1][:2]) for i in range(len(points) - 1))


def move_cap(unit: Unit, model: Model, move: str, roll: int | None, fly: bool = False
             ) -> float:
    """Maximum distance of ``model`` in ``move``: its M, plus the advance roll when advancing,
    less what taking to the skies costs when ``fly``."""
    m = unit.move_of(model)
    cap = m + (roll or 0) if move == "advance" else m
    return max(cap - zones.fly_penalty(unit), 0.0) if fly else cap


def check_path(state: GameState, model_id: str, move: str,
               points: Sequence[Sequence[float]], *, roll: int | None = None,
               mode: str | None = None, fly: bool = False) -> list[Violation]:
    """Every path violation of moving ``model_id`` along ``points`` (the first point is its start).

    ``state`` is the board with the model at its start; ``fly``: the unit takes to the skies.
    """
    res = zones.validate_path(state, model_id, move, list(points), roll=roll, mode=mode,
                              fly=fly)
    return [v for v in res.violations if v.rule not in COMMIT_ONLY]

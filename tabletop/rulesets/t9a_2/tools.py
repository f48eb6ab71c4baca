"""What the window's block-drag tool asks of t9a-2 (no pygame).

Ranges are asked once per manoeuvre, on pick-up; moving the pointer only asks for a preview of
the one manoeuvre (about a millisecond).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, NoReturn

from shapely.geometry.base import BaseGeometry

from tabletop.errors import UserError
from tabletop.geometry.blocks import BlockGeom
from tabletop.rules.tools import BlockRanges
from tabletop.rulesets.t9a_2 import movement, rulings
from tabletop.state import Block, GameState

__all__ = ["NO_THREATS", "BlockDrag", "NoThreats"]

NO_THREATS = ("t9a-2 answers no threat ranges and no safe ground: a block of The 9th Age "
              "charges in its own Charge phase, before it moves, with a charge move (a wheel "
              "towards the target, the charged unit's reaction, the rolled charge range) that "
              "this program does not simulate; it simulates the Movement phase only")
"""Why t9a-2 answers no threat queries (the window and ``tabletop threat`` / ``safe`` say so)."""


class BlockDrag:
    """The block-drag queries (:class:`tabletop.rules.tools.BlockDragQueries`)."""

    def geom(self, block: Block) -> BlockGeom:
        """The geometry of ``block`` as it stands."""
        return block.geom

    def start(self, state: GameState) -> BlockGeom | None:
        """The selected block as it stood when it was selected (the start of its move)."""
        sel = state.battle.selection
        if sel is None or not sel.start:
            return None
        try:
            block = state.unit(sel.unit)
        except KeyError:
            return None
        _uid, at, facing = sel.start[0]
        if not isinstance(block, Block) or at is None:
            return None
        files = sel.files if sel.files is not None else block.files
        return replace(block.geom, at=(float(at[0]), float(at[1])), facing=float(facing),
                       files=files)

    def ranges(self, state: GameState) -> BlockRanges:
        """Furthest legal straight move of the selected block per direction (a few ms)."""
        return BlockRanges(forward=movement.straight_range(state, "forward"),
                           backward=movement.straight_range(state, "backward"),
                           right=movement.straight_range(state, "sideways", 1.0),
                           left=movement.straight_range(state, "sideways", -1.0))

    def wheel_range(self, state: GameState) -> tuple[float, float]:
        """``(lo, hi)`` legal wheel angles of the selected block (0.2-0.6 s: once per
        manoeuvre)."""
        lo, hi = movement.wheel_range(state)
        return (float(lo), float(hi))

    def preview(self, state: GameState, action: dict[str, Any]) -> dict[str, Any]:
        """The rules' preview of one manoeuvre of the selected block (about 1 ms)."""
        return movement.preview(state, dict(action))

    def end_reasons(self, state: GameState) -> list[str]:
        """Why the selected block could not end its move where it stands (the 1" rule)."""
        sel = state.battle.selection
        if sel is None or not sel.staged:
            return []
        return movement.end_violations(state)

    def cap(self, state: GameState, kind: str) -> float:
        """The displacement cap of the selected block's move for a manoeuvre of ``kind``
        (``forward``, ``backward``, ``sideways``, ``reform``), as the rules of seed 001 set it:
        Advance Rate forwards, half of it backwards and sideways, March Rate for a March (the
        Advance Rate after a failed March Test) and for a Reform."""
        return movement.move_cap(state, kind)

    def obstacles(self, state: GameState, unit_id: str) -> list[tuple[str, BaseGeometry]]:
        """Other units' boundaries and impassable terrain (what the 1" rule measures to)."""
        return movement.obstacles(state, unit_id)

    def can_reform(self, state: GameState) -> bool:
        """Whether the selected block may stage a reform now: a Reform move not yet reformed,
        or an Advance of a unit with Swift Reform before any other manoeuvre."""
        sel = state.battle.selection
        if sel is None:
            return False
        block = state.unit(sel.unit)
        if not isinstance(block, Block) or sel.staged:
            return False
        return sel.move == "reform" or (sel.move == "advance"
                                        and rulings.SWIFT_REFORM in block.flags)


class NoThreats:
    """The threat queries (:class:`tabletop.rules.tools.ThreatQueries`) of t9a-2: each one says
    why it is not answered (:data:`NO_THREATS`)."""

    def threat(self, state: GameState, unit_id: str, *, max_roll: int = 12) -> NoReturn:
        """Not answered: :class:`~tabletop.errors.UserError` saying why."""
        raise UserError(NO_THREATS)

    def safe(self, state: GameState, unit_id: str, move: str, odds: Any, *,
             model: str | None = None, roll: int | None = None,
             objective: int | None = None) -> NoReturn:
        """Not answered: :class:`~tabletop.errors.UserError` saying why."""
        raise UserError(NO_THREATS)

    def moves(self) -> tuple[str, ...]:
        """None."""
        return ()

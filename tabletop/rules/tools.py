"""The window's tools for building a move, as the rules see them (no pygame).

A ruleset lists the tools a player builds its moves with in :attr:`Ruleset.tools
<tabletop.rules.ruleset.Ruleset.tools>`: a tool's name, and an object answering the queries the
tool needs. The window has one implementation per tool name and asks the ruleset of the game for
the queries; it never asks which ruleset it plays.

- :data:`MODEL_DRAG`: drag one model (or a whole unit) to where it ends; the legal zone is shaded
  and the ghost snaps to it (:class:`ModelDragQueries`).
- :data:`BLOCK_DRAG`: drag a rank-and-file block's front edge or corners to move or wheel it
  (:class:`BlockDragQueries`).
- :data:`THREAT`: where an enemy unit could charge next turn, and where a unit may end its move
  out of every charge (:class:`ThreatQueries`; the window's T and O keys, ``tabletop threat``
  and ``tabletop safe``). A ruleset that answers neither offers a tool whose queries raise
  :class:`~tabletop.errors.UserError` saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from shapely.geometry.base import BaseGeometry

from tabletop.geometry.blocks import BlockGeom
from tabletop.rules.threat import Odds, SafeGround, Threat
from tabletop.rules.violation import Violation
from tabletop.state import Block, GameState

__all__ = ["BLOCK_DRAG", "MODEL_DRAG", "THREAT", "BlockDragQueries", "BlockRanges",
           "ModelDragQueries", "ThreatQueries"]

MODEL_DRAG = "model-drag"
"""Drag models to where they end."""

BLOCK_DRAG = "block-drag"
"""Drag a block's front edge or corners."""

THREAT = "threat"
"""Threat ranges and safe ground."""


class ModelDragQueries(Protocol):
    """What the model-drag tool asks of a ruleset."""

    def zone(self, state: GameState, model_id: str) -> Any:
        """The legal end zone of ``model_id`` for the selected move (``None`` without one)."""

    def unit_zone(self, state: GameState, model_id: str) -> Any:
        """The legal end zone of ``model_id`` when its whole unit moves with it by one vector:
        its unit's other models are no obstacle to it (they move too); ``None`` without one."""

    def setup_zone(self, state: GameState, model_id: str) -> Any:
        """Where ``model_id`` may be set up in the selected move (``None`` without one)."""

    def group_zone(self, state: GameState, model_id: str, do: str) -> Any:
        """Where ``model_id`` may be set up by the action ``do`` that sets a whole unit up at
        once (its models placed one by one on ``state``; ``None`` for another action)."""

    def cap(self, state: GameState, model_id: str) -> float | None:
        """The whole allowance of ``model_id`` in the selected move, inches."""

    def used(self, state: GameState, model_id: str) -> float:
        """Distance ``model_id`` has already moved in the selected move, inches."""

    def warm(self, state: GameState) -> list[str]:
        """Models of the selected unit whose :meth:`zone` on this very ``state`` object is
        slow to compute and kept once computed (the window computes them while it is idle,
        so that picking one up finds its zone ready); empty when nothing is worth it."""

    def coherency(self, state: GameState, unit_id: str) -> list[Violation]:
        """What is wrong with the unit's formation as it stands (shown while a move is built)."""

    def end_violations(self, state: GameState, unit_id: str) -> list[Violation]:
        """What else a commit now would refuse about where the selected unit's models stand
        (a base turned onto terrain, off the battlefield, onto another base...): every end
        condition but coherency and models still to be set up (shown while a move is built)."""


@dataclass(frozen=True)
class BlockRanges:
    """Furthest legal straight move of a block from where it stands, per direction (inches)."""

    forward: float
    backward: float
    right: float
    left: float


class BlockDragQueries(Protocol):
    """What the block-drag tool asks of a ruleset."""

    def geom(self, block: Block) -> BlockGeom:
        """The block's geometry as it stands."""

    def start(self, state: GameState) -> BlockGeom | None:
        """The selected block as it stood when selected (the start of the move)."""

    def ranges(self, state: GameState) -> BlockRanges:
        """Furthest legal straight move of the selected block in each direction."""

    def wheel_range(self, state: GameState) -> tuple[float, float]:
        """``(lo, hi)`` legal wheel angles of the selected block, degrees."""

    def preview(self, state: GameState, action: dict[str, Any]) -> dict[str, Any]:
        """One manoeuvre previewed: ``ok, reasons, geom, end_reasons, outer_arc``."""

    def end_reasons(self, state: GameState) -> list[str]:
        """Why the selected block could not end its move where it stands."""

    def cap(self, state: GameState, kind: str) -> float:
        """The displacement cap of the selected block's move for a manoeuvre of ``kind``."""

    def obstacles(self, state: GameState, unit_id: str) -> list[tuple[str, BaseGeometry]]:
        """What the block must end clear of, labelled."""

    def can_reform(self, state: GameState) -> bool:
        """Whether the selected block may stage a reform now."""


class ThreatQueries(Protocol):
    """What threat ranges and safe ground ask of a ruleset (:mod:`tabletop.rules.threat`)."""

    def threat(self, state: GameState, unit_id: str, *, max_roll: int = 12) -> Threat:
        """The threat of ``unit_id`` as the board stands, with its charge bands up to
        ``max_roll``; :class:`~tabletop.errors.UserError` when the ruleset answers none."""

    def safe(self, state: GameState, unit_id: str, move: str, odds: Odds, *,
             model: str | None = None, roll: int | None = None, objective: int | None = None
             ) -> SafeGround:
        """Where the models of ``unit_id`` (or ``model`` alone) may end ``move`` out of every
        enemy unit's charge at ``odds``; ``objective`` (1-based): only within range of that
        objective marker. :class:`~tabletop.errors.UserError` when the ruleset answers none."""

    def moves(self) -> tuple[str, ...]:
        """The move types :meth:`safe` answers for."""

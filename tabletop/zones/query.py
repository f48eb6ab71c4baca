"""What the zone engine is asked: one frozen query of plain data, with no ruleset in it.

A ruleset turns its rules into geometry (which models and terrain stop a path, which ones a
move may not end on or near, how far it may go) and asks the engine with a :class:`MoveQuery`;
the engine answers with a :class:`~tabletop.zones.zone.Zone` (:func:`tabletop.zones.zone_of`)
or checks a drawn path (:func:`tabletop.zones.check_path`). It never reads a ruleset's
constants: every number and name a message quotes arrives in the query.

Design
------
A query is frozen plain data: floats, strings, tuples of points, and footprints as their exact
parameters (:mod:`tabletop.geometry.footprints`: a round base's diameter, an oval's length and
width, a hull's outline), so that it crosses into a compiled core as it is and is hashable.

- :class:`Body`: a model as the engine sees it: id, footprint, centre, facing, and whether it is
  an *enemy* (the mover ends more than the board's clearance from an enemy's base; it only
  must not overlap the others).
- :class:`Piece`: a terrain piece: id, outline (no holes), its kind as messages name it
  (``"impassable"``), and, for a piece that blocks paths, why (quoted in messages;
  ``{mover}`` stands for the mover's id).
- :class:`Board`: what stands on the battlefield for one kind of mover: the battlefield's width
  and depth; the models and pieces that block its path; every model on the battlefield (the
  end rules: enemies with the clearance, the others without); the pieces it may not end on;
  the clearance (how far from an enemy it must end, a number). A ruleset builds one board per
  game state and kind of mover and reuses it for every query on that state (the engine keeps
  the per-phase geometry, the inflated obstacles and their visibility graph, with the board: a
  board is compared and hashed by identity, so a pick-up on a known board hashes nothing
  large).
- :class:`MoveQuery`: a board, the mover (a :class:`Body` at its start pose), the limit ``D``,
  the move's name (quoted in messages), a label (``mode``) the zone carries, and the facing step
  of a non-round mover's layers (``None``: its default).
- :class:`PlacementQuery`: where a model may be set up: the board's end rules, areas it must
  keep out of and models it must keep a clearance from (each rule with its code and wording),
  models it must stay within a distance of, and an optional reason the placement is closed.

The mover's own id is left out of the board's models by the engine, so one board serves every
mover of its kind. Validation of what a user typed (an unknown model, a roll out of range) is
the ruleset's; the engine checks the numbers of query points and paths
(:data:`MAX_NUMBER`, :data:`MAX_PATH_POINTS`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from shapely.geometry import Polygon

from tabletop.errors import UserError, describe
from tabletop.geometry.footprints import Footprint
from tabletop.geometry.polygons import Outline, outline_of

__all__ = [
    "MAX_NUMBER",
    "MAX_PATH_POINTS",
    "Area",
    "Board",
    "Body",
    "Clearance",
    "MoveQuery",
    "Piece",
    "PlacementQuery",
    "Within",
    "query_point",
]

MAX_NUMBER = 1_000_000.0
"""Largest size of a coordinate (or any number) a query point or action may hold."""
MAX_PATH_POINTS = 1_000
"""Most points of one drawn path."""


@dataclass(frozen=True)
class Body:
    """A model on the battlefield: its id, footprint, centre and facing (degrees); ``enemy``:
    the mover must end more than the board's clearance from it (else only off its base)."""

    id: str
    footprint: Footprint
    at: tuple[float, float]
    facing: float = 0.0
    enemy: bool = False


@dataclass(frozen=True)
class Piece:
    """A terrain piece: its id, outline (counter-clockwise or not, no holes), its kind as
    messages name it, and why it blocks a path (``{mover}``: the mover's id), if it does."""

    id: str
    outline: tuple[tuple[float, float], ...]
    kind: str = ""
    why: str = ""

    @cached_property
    def shape(self) -> Polygon:
        """The outline as a polygon (built once)."""
        return Polygon(self.outline)

    @cached_property
    def ring(self) -> Outline:
        """The outline as the engine's caches key it: floats, the first point not repeated at
        the end (built once; its hash kept)."""
        return outline_of(self.shape)


@dataclass(frozen=True, eq=False)
class Board:
    """What stands on the battlefield for one kind of mover (module docstring). Compared and
    hashed by identity: build one per game state and kind of mover and reuse it.

    Attributes
    ----------
    width, depth : float
        The battlefield, inches.
    path_models : tuple of Body
        The models whose bases no path of the mover may cross.
    path_pieces : tuple of Piece
        The terrain no path may cross (each with its ``why``).
    models : tuple of Body
        Every model on the battlefield, in the board's order (the mover's own id is skipped):
        the mover may not end overlapping any, nor within ``clearance`` of an enemy.
    end_pieces : tuple of Piece
        The terrain the mover may not end overlapping.
    clearance : float
        How far from an enemy's base the mover must end (more than), inches (a ruleset's
        engagement range, say).
    """

    width: float
    depth: float
    path_models: tuple[Body, ...] = ()
    path_pieces: tuple[Piece, ...] = ()
    models: tuple[Body, ...] = ()
    end_pieces: tuple[Piece, ...] = ()
    clearance: float = 0.0

    @cached_property
    def enemies(self) -> tuple[Body, ...]:
        """The enemies among :attr:`models`."""
        return tuple(o for o in self.models if o.enemy)

    @cached_property
    def friends(self) -> tuple[Body, ...]:
        """The models that are not enemies."""
        return tuple(o for o in self.models if not o.enemy)


@dataclass(frozen=True)
class MoveQuery:
    """A legal-zone query: where may ``mover`` end a move of at most ``limit`` inches?

    Attributes
    ----------
    board : Board
        What blocks the path and the end.
    mover : Body
        The moving model at its start pose.
    limit : float
        The longest path, inches (the move's ``D``).
    move : str
        The move's name, quoted in messages (``"normal"``) and carried by the zone.
    mode : str or None
        A label the zone carries (a ruleset's variant of the move).
    step : float or None
        The facing step of a non-round mover's layers, degrees (1 to 90; ``None``: 15, 30 for
        ovals; :mod:`tabletop.geometry.turning`).
    """

    board: Board
    mover: Body
    limit: float
    move: str = "move"
    mode: str | None = None
    step: float | None = None

    def __post_init__(self) -> None:
        step = self.step
        if step is not None and (isinstance(step, bool) or not (
                isinstance(step, int | float) and 1.0 <= step <= 90.0)):
            raise UserError(f"a facing step is a number of degrees from 1 to 90, not "
                            f"{describe(step)}")


@dataclass(frozen=True)
class Clearance:
    """Models a placement must keep more than ``distance`` from (``ids``; an empty tuple: every
    enemy of the board), with the rule's code and its verb in messages (``"be"``: *would be
    1.50" from enemy model e1: it must be more than 8.00" away*)."""

    distance: float
    rule: str
    verb: str = "be"
    ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Area:
    """An area a placement may not overlap: outline, the rule's code, what the message says
    after the model's id, and the ids it names besides the model."""

    outline: tuple[tuple[float, float], ...]
    rule: str
    says: str
    names: tuple[str, ...] = ()
    limit: float | None = None

    @cached_property
    def shape(self) -> Polygon:
        """The outline as a polygon (built once)."""
        return Polygon(self.outline)


@dataclass(frozen=True)
class Within:
    """Models (a transport's) a placement must lie wholly within ``distance`` of, measured with
    the mover's circumscribed circle; the rule's code, what the message says after the model's
    id, and the ids it names."""

    bodies: tuple[Body, ...]
    distance: float
    rule: str
    says: str
    names: tuple[str, ...] = ()


@dataclass(frozen=True)
class PlacementQuery:
    """Where may ``mover`` (its footprint at its facing) be set up?

    Wholly on the battlefield, overlapping no model and no end piece of ``board``, within
    ``within`` when given, and keeping each of ``rules`` (an :class:`Area` to keep out of, a
    :class:`Clearance` from models), which a point's reasons list in that order. ``closed``: a
    rule's code and message that refuse every point (the placement is not allowed now).
    ``engaged``: also more than the board's clearance from every enemy but those of ``ignore``
    (``False``: the board's clearance does not apply). ``kind`` and ``mode`` label the zone.
    """

    board: Board
    mover: Body
    kind: str
    mode: str | None = None
    rules: tuple[Area | Clearance, ...] = ()
    within: Within | None = None
    closed: tuple[str, str] | None = None
    engaged: bool = True
    ignore: frozenset[str] = field(default_factory=frozenset)


def query_point(x: Any, y: Any) -> tuple[float, float]:
    """``(x, y)`` as floats, or :class:`UserError` unless both are finite numbers of at most
    :data:`MAX_NUMBER` in size."""
    try:
        fx, fy = float(x), float(y)
    except (TypeError, ValueError, OverflowError):  # not a number, or an int beyond any float
        fx = fy = math.nan
    if not (abs(fx) <= MAX_NUMBER and abs(fy) <= MAX_NUMBER):
        raise UserError(f"a point is [x, y], two finite numbers of at most {MAX_NUMBER:,.0f} in "
                        f"size, not {describe([x, y])}")
    return fx, fy

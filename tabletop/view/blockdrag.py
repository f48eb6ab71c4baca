"""Moving a t9a-2 block in the window: the handles and the drag logic, pure (no pygame).

A selected block shows handles: its **front edge** (drag it, or the block's body, to move the
block straight: forwards, or for an Advance backwards or sideways, whichever way the pointer
goes furthest), its two **front corners** (drag one to wheel about the other) and, when it may
reform, a **rotate** handle ahead of it and a **files** handle on its right flank (or the keys
``[`` ``]`` for files and ``,`` ``.`` / arrows for its facing).

The ranges (furthest straight move per direction, range of wheel angles) are asked of the rules
once per manoeuvre, on pick-up, and cached for the state they were computed on; moving the pointer
only clamps to them and asks the rules for a preview of the one manoeuvre (about a millisecond).
:class:`BlockTool` answers with action objects of ``docs/actions.md``; it draws nothing.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import shapely
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.geometry.blocks import BlockGeom, bottleneck_assignment, straight_sweep, wheel_sweep
from tabletop.geometry.tolerance import EPS
from tabletop.rules.tools import BlockRanges
from tabletop.state import Block, GameState

__all__ = [
    "ANGLE_STEP",
    "BLOCK_MOVE_KEYS",
    "DISTANCE_STEP",
    "UNIT_SPACING",
    "BlockDrag",
    "BlockRanges",
    "BlockRules",
    "BlockTool",
    "Near",
    "ReformEdit",
    "handle_points",
    "max_displacement",
    "straight_action",
    "wheel_action",
]

Pt = tuple[float, float]

BLOCK_MOVE_KEYS: dict[str, str] = {"a": "advance", "q": "march", "f": "reform"}
"""Keys that select a t9a-2 block's move: A Advance, Q (quick) March, F (formation) Reform."""

DISTANCE_STEP = 0.1
"""Straight moves snap to this many inches while dragging (the legal limit itself is exact)."""

ANGLE_STEP = 1.0
"""Wheels and reform facings snap to this many degrees while dragging (limits are exact)."""

REFORM_FACING_STEP = 5.0
"""The rotate handle snaps the facing to this many degrees."""

UNIT_SPACING = 1.0
"""A block ends a voluntary move more than this from other units and impassable terrain (drawn
live; the rules decide)."""

HANDLE_PX = 11.0
"""Pick radius of a handle, in pixels."""


class BlockRules(Protocol):
    """What the tool needs of the rules (``tabletop.view.bridge.Rules`` fits)."""

    def block_geom(self, block: Block) -> BlockGeom:
        """The block's geometry as it stands."""

    def block_start(self, state: GameState) -> BlockGeom | None:
        """The selected block as it stood when selected (the start of the move)."""

    def block_ranges(self, state: GameState) -> BlockRanges:
        """Furthest legal straight move of the selected block in each direction."""

    def block_wheel_range(self, state: GameState) -> tuple[float, float]:
        """``(lo, hi)`` legal wheel angles of the selected block, degrees."""

    def block_preview(self, state: GameState, action: dict[str, Any]) -> dict[str, Any]:
        """The rules' preview of one manoeuvre (``ok, reasons, geom, end_reasons, outer_arc``)."""

    def block_cap(self, state: GameState, kind: str) -> float:
        """The displacement cap of the selected block's move for a manoeuvre of ``kind``."""

    def block_obstacles(self, state: GameState, unit_id: str) -> list[tuple[str, BaseGeometry]]:
        """Other units' boundaries and impassable terrain, labelled (the 1" rule's targets)."""

    def block_can_reform(self, state: GameState) -> bool:
        """Whether the selected block may stage a reform now."""


@dataclass(frozen=True)
class Near:
    """A place where the block would end within 1" of something: the two closest points."""

    a: Pt
    b: Pt
    distance: float
    label: str


@dataclass
class BlockDrag:
    """A manoeuvre being dragged (or a reform being edited)."""

    unit: str
    handle: str
    """``move`` (front edge or body), ``fl`` / ``fr`` (front corner: wheel), ``rotate``,
    ``files`` (reform)."""
    geom: BlockGeom
    """The block as it stands at pick-up."""
    grab: Pt
    ranges: BlockRanges | None = None
    wheel: tuple[float, float] | None = None
    range_area: BaseGeometry | None = None
    """Where the block may go in this manoeuvre (swept area of the legal range), to shade."""
    limit_ghosts: list[BlockGeom] = field(default_factory=list)
    """The block at the ends of the legal range (dashed outlines)."""
    action: dict[str, Any] | None = None
    ghost: BlockGeom | None = None
    ok: bool = True
    reasons: list[str] = field(default_factory=list)
    end_reasons: list[str] = field(default_factory=list)
    near: list[Near] = field(default_factory=list)
    label: str = ""
    clamped: bool = False
    displacement: float = 0.0
    cap: float | None = None
    outer_arc: float = 0.0
    angle: float = 0.0
    arc: tuple[Pt, ...] = ()
    """The path of the outer front corner (a wheel) or of the front's middle (straight)."""
    files0: int = 0
    """Files of the reform being built when its files handle was picked up."""


@dataclass
class ReformEdit:
    """A reform being built: files and facing, with the rules' verdict on it."""

    selection: object
    """The selection it belongs to (dropped when the selection changes)."""
    files: int
    facing: float
    ghost: BlockGeom | None = None
    ok: bool = True
    reasons: list[str] = field(default_factory=list)
    end_reasons: list[str] = field(default_factory=list)
    near: list[Near] = field(default_factory=list)
    displacement: float = 0.0
    cap: float | None = None
    label: str = ""

    @property
    def action(self) -> dict[str, Any]:
        """The reform as an action object."""
        return {"do": "reform", "files": self.files, "facing": round(self.facing % 360.0, 6)}


# -- pure geometry of the handles ---------------------------------------------------------
def handle_points(geom: BlockGeom, scale: float) -> dict[str, Pt]:
    """Where the handles of ``geom`` are drawn (inches), for a viewport of ``scale`` px/inch.

    ``fl`` and ``fr`` are the front corners, ``front`` the middle of the front edge, ``rotate``
    a little ahead of it and ``files`` a little outside the middle of the right flank.
    """
    c = geom.corners
    out = 24.0 / max(scale, 1e-9) + 0.3
    return {
        "fl": c["fl"], "fr": c["fr"],
        "front": geom.to_world(0.0, geom.depth / 2.0),
        "rotate": geom.to_world(0.0, geom.depth / 2.0 + out),
        "files": geom.to_world(geom.width / 2.0 + out * 0.7, geom.depth / 2.0 - geom.base_d / 2),
    }


def handle_at(geom: BlockGeom, at: Pt, scale: float, *, reform: bool = False,
              move: bool = True) -> str | None:
    """The handle of ``geom`` under ``at`` (inches): corners first, then the reform handles,
    then the front edge and the body (``move``); ``None`` when the pointer is off the block."""
    tol = HANDLE_PX / max(scale, 1e-9)
    hp = handle_points(geom, scale)
    if move:
        best = min(("fl", "fr"), key=lambda k: math.dist(hp[k], at))
        if math.dist(hp[best], at) <= tol:
            return best
    if reform:
        for k in ("rotate", "files"):
            if math.dist(hp[k], at) <= tol:
                return k
    if move:
        pt = shapely.Point(at)
        if geom.polygon.distance(pt) <= tol * 0.7:
            return "move"
    return None


def _local(geom: BlockGeom, d: Pt) -> Pt:
    """A vector in the block's frame: ``(right, forwards)``."""
    f, r = geom.forward, geom.right
    return (d[0] * r[0] + d[1] * r[1], d[0] * f[0] + d[1] * f[1])


def _snap(v: float, step: float) -> float:
    return round(v / step) * step if step > 0 else v


def straight_action(geom: BlockGeom, grab: Pt, at: Pt, ranges: BlockRanges, *,
                    step: float = DISTANCE_STEP) -> tuple[dict[str, Any] | None, bool]:
    """The straight move a drag from ``grab`` to ``at`` asks for, clamped to ``ranges``.

    The direction is the allowed one (range above zero) the pointer went furthest along;
    distances snap to ``step`` except at the limit, which is used exactly. Returns the action
    (``None`` for no move) and whether it was clamped.
    """
    du, dv = _local(geom, (at[0] - grab[0], at[1] - grab[1]))
    options = [("forward", dv, ranges.forward), ("backward", -dv, ranges.backward),
               ("right", du, ranges.right), ("left", -du, ranges.left)]
    allowed = [o for o in options if o[2] > EPS]
    if not allowed:
        return None, bool(abs(du) + abs(dv) > step)
    name, proj, limit = max(allowed, key=lambda o: o[1])
    d = _snap(max(proj, 0.0), step)
    clamped = d >= limit
    d = min(d, limit)
    if d <= EPS:
        return None, False
    if name in ("forward", "backward"):
        return {"do": name, "distance": d}, clamped
    return {"do": "sideways", "distance": d if name == "right" else -d}, clamped


def wheel_angle(geom: BlockGeom, corner: str, at: Pt, previous: float = 0.0) -> float:
    """The wheel (degrees, clockwise positive) that brings the front corner ``corner`` towards
    ``at`` about the other front corner, unwrapped to be continuous with ``previous``."""
    c = geom.corners
    pivot = c["fr" if corner == "fl" else "fl"]
    v0 = (c[corner][0] - pivot[0], c[corner][1] - pivot[1])
    v1 = (at[0] - pivot[0], at[1] - pivot[1])
    if math.hypot(*v1) < 1e-9:
        return previous
    raw = math.degrees(math.atan2(v0[0] * v1[1] - v0[1] * v1[0], v0[0] * v1[0] + v0[1] * v1[1]))
    while raw - previous > 180.0:
        raw -= 360.0
    while raw - previous < -180.0:
        raw += 360.0
    return raw


def wheel_action(geom: BlockGeom, corner: str, at: Pt, limits: tuple[float, float], *,
                 previous: float = 0.0, step: float = ANGLE_STEP
                 ) -> tuple[dict[str, Any] | None, bool, float]:
    """The wheel a drag of the front corner ``corner`` to ``at`` asks for, clamped to
    ``limits``. Dragging the left corner wheels clockwise (about the right corner), the right
    corner anticlockwise. Returns the action (``None`` for none), whether it was clamped and
    the raw (unclamped, unwrapped) angle."""
    raw = wheel_angle(geom, corner, at, previous)
    lo, hi = limits
    a = _snap(raw, step)
    if corner == "fl":
        clamped = a >= hi or a < 0.0
        a = min(max(a, 0.0), hi)
    else:
        clamped = a <= lo or a > 0.0
        a = max(min(a, 0.0), lo)
    if abs(a) <= EPS:
        return None, clamped, raw
    return {"do": "wheel", "angle": a}, clamped, raw


def max_displacement(start: BlockGeom, end: BlockGeom) -> float:
    """The largest model centre displacement from ``start`` to ``end`` (a reform matches models
    to places for the smallest largest move, as the rules do)."""
    if start.files == end.files and start.models == end.models:
        return float(start.displacements(end).max())
    return bottleneck_assignment(start.centres, end.centres)


def near_obstacles(poly: BaseGeometry, obstacles: Sequence[tuple[str, BaseGeometry]],
                   gap: float = UNIT_SPACING) -> list[Near]:
    """Every obstacle within ``gap`` of ``poly``, with its closest points."""
    out = []
    for label, g in obstacles:
        d = float(poly.distance(g))
        if d <= gap + EPS:
            pa, pb = nearest_points(poly, g)
            # facing edges: draw the line in the middle of where they are closest, not at a
            # corner (the same distance, easier to read)
            part = poly.buffer(d + 1e-6, join_style="mitre").intersection(g)
            if not part.is_empty:
                qa = nearest_points(poly, part.centroid)[0]
                qb = nearest_points(g, qa)[0]
                if qa.distance(qb) <= d + 1e-6:
                    pa, pb = qa, qb
            out.append(Near((pa.x, pa.y), (pb.x, pb.y), d, label))
    return out


def _inches(v: float) -> str:
    return f'{v:g}"' if abs(v - round(v, 1)) < 1e-9 else f'{v:.1f}"'


def _arc(pivot: Pt, start: Pt, angle: float) -> tuple[Pt, ...]:
    n = max(2, math.ceil(abs(angle) / 3.0) + 1)
    out = []
    for k in range(n):
        a = math.radians(angle * k / (n - 1))
        dx, dy = start[0] - pivot[0], start[1] - pivot[1]
        out.append((pivot[0] + dx * math.cos(a) - dy * math.sin(a),
                    pivot[1] + dx * math.sin(a) + dy * math.cos(a)))
    return tuple(out)


# -- the tool -----------------------------------------------------------------------------
class BlockTool:
    """Pointer and key handling for the selected t9a-2 block (pure; see the module doc).

    Parameters
    ----------
    rules:
        The rules, as :class:`BlockRules`.
    """

    def __init__(self, rules: BlockRules) -> None:
        self.rules = rules
        self.drag: BlockDrag | None = None
        self.reform: ReformEdit | None = None
        self.hover: str | None = None
        self.range_calls = 0
        """How many times the straight ranges were asked of the rules (once per manoeuvre)."""
        self.wheel_calls = 0
        """How many times the wheel range was asked of the rules (once per manoeuvre)."""
        self.preview_calls = 0
        self.note = ""
        """What the last key did not do, and why (the window says it, then clears it)."""
        self._ranges: tuple[GameState, BlockRanges] | None = None
        self._wheel: tuple[GameState, tuple[float, float]] | None = None
        self._obstacles: tuple[GameState, list[tuple[str, BaseGeometry]]] | None = None

    # -- queries --------------------------------------------------------------------------
    @staticmethod
    def selected(state: GameState) -> Block | None:
        """The block the rules have selected for a move, if any."""
        sel = state.battle.selection
        if sel is None:
            return None
        try:
            u = state.unit(sel.unit)
        except KeyError:
            return None
        return u if isinstance(u, Block) else None

    def can_reform(self, state: GameState) -> bool:
        """Whether the reform handles are live for the selected block now."""
        return self.selected(state) is not None and self.rules.block_can_reform(state)

    def can_move(self, state: GameState) -> bool:
        """Whether the move handles (front edge, corners) are live for the selected block."""
        sel = state.battle.selection
        return self.selected(state) is not None and sel is not None and sel.move != "reform"

    def ranges(self, state: GameState) -> BlockRanges:
        """The straight ranges for ``state`` (asked of the rules once per state)."""
        if self._ranges is None or self._ranges[0] is not state:
            self.range_calls += 1
            self._ranges = (state, self.rules.block_ranges(state))
        return self._ranges[1]

    def wheel_range(self, state: GameState) -> tuple[float, float]:
        """The wheel range for ``state`` (asked of the rules once per state: 0.2-0.6 s)."""
        if self._wheel is None or self._wheel[0] is not state:
            self.wheel_calls += 1
            self._wheel = (state, self.rules.block_wheel_range(state))
        return self._wheel[1]

    def obstacles(self, state: GameState, unit_id: str) -> list[tuple[str, BaseGeometry]]:
        """What the 1" rule measures against (cached per state)."""
        if self._obstacles is None or self._obstacles[0] is not state:
            self._obstacles = (state, self.rules.block_obstacles(state, unit_id))
        return self._obstacles[1]

    def reform_edit(self, state: GameState) -> ReformEdit | None:
        """The reform being built for the current selection, if any."""
        r = self.reform
        if r is not None and r.selection is not state.battle.selection:
            self.reform = None
        return self.reform

    def handle_under(self, state: GameState, at: Pt, scale: float) -> str | None:
        """The handle of the selected block under ``at`` (inches), if any."""
        block = self.selected(state)
        if block is None:
            return None
        geom = self._edit_geom(state, block)
        editing = self.reform_edit(state) is not None
        return handle_at(geom, at, scale, reform=self.can_reform(state),
                         move=self.can_move(state) and not editing)

    def _edit_geom(self, state: GameState, block: Block) -> BlockGeom:
        r = self.reform_edit(state)
        if r is not None and r.ghost is not None:
            return r.ghost
        return self.rules.block_geom(block)

    # -- pointer --------------------------------------------------------------------------
    def press(self, state: GameState, at: Pt, scale: float) -> bool:
        """Pointer pressed at ``at`` (inches): start a drag when a handle is under it."""
        block = self.selected(state)
        if block is None:
            return False
        handle = self.handle_under(state, at, scale)
        if handle is None:
            return False
        geom = self.rules.block_geom(block)
        if handle in ("rotate", "files"):
            geom = self._edit_geom(state, block)
        d = BlockDrag(unit=block.id, handle=handle, geom=geom, grab=at, files0=geom.files)
        if handle == "move":
            d.ranges = self.ranges(state)
            self._straight_limits(d)
        elif handle in ("fl", "fr"):
            d.wheel = self.wheel_range(state)
            self._wheel_limits(d)
        self.drag = d
        self.move(state, at)
        return True

    def _straight_limits(self, d: BlockDrag) -> None:
        r = d.ranges
        assert r is not None
        ends = [d.geom.moved("forward", r.forward) if r.forward > EPS else None,
                d.geom.moved("backward", r.backward) if r.backward > EPS else None,
                d.geom.moved("sideways", r.right) if r.right > EPS else None,
                d.geom.moved("sideways", -r.left) if r.left > EPS else None]
        d.limit_ghosts = [g for g in ends if g is not None]
        areas = [straight_sweep(d.geom, g) for g in d.limit_ghosts]
        d.range_area = shapely.union_all(areas) if areas else None

    def _wheel_limits(self, d: BlockDrag) -> None:
        assert d.wheel is not None
        lim = d.wheel[1] if d.handle == "fl" else d.wheel[0]
        if abs(lim) > EPS:
            d.limit_ghosts = [d.geom.wheeled(lim)]
            d.range_area = wheel_sweep(d.geom, lim)

    def move(self, state: GameState, at: Pt) -> None:
        """Pointer moved to ``at`` (inches) while a handle is held."""
        d = self.drag
        if d is None:
            return
        if d.handle in ("rotate", "files"):
            self._drag_reform(state, d, at)
            return
        if d.handle == "move":
            assert d.ranges is not None
            action, d.clamped = straight_action(d.geom, d.grab, at, d.ranges)
        else:
            assert d.wheel is not None
            action, d.clamped, d.angle = wheel_action(d.geom, d.handle, at, d.wheel,
                                                      previous=d.angle)
        self._preview(state, d, action)

    def _preview(self, state: GameState, d: BlockDrag, action: dict[str, Any] | None) -> None:
        d.action = action
        start = self.rules.block_start(state)
        if action is None:
            d.ghost, d.ok, d.reasons, d.end_reasons, d.near = d.geom, True, [], [], []
            d.outer_arc, d.arc = 0.0, ()
            kind = "forward"
        else:
            self.preview_calls += 1
            p = self.rules.block_preview(state, action)
            d.ghost = p.get("geom") or d.geom
            d.ok = bool(p.get("ok"))
            d.reasons = list(p.get("reasons") or [])
            d.end_reasons = list(p.get("end_reasons") or [])
            d.outer_arc = float(p.get("outer_arc") or 0.0)
            d.near = near_obstacles(d.ghost.polygon, self.obstacles(state, d.unit))
            kind = _kind(action)
        d.cap = self.rules.block_cap(state, kind)
        d.displacement = max_displacement(start, d.ghost) if start is not None else 0.0
        d.label = self._label(state, d, action)
        if action is not None and action["do"] == "wheel":
            ang = float(action["angle"])
            outer = d.geom.corners["fl" if ang > 0 else "fr"]
            d.arc = _arc(d.geom.wheel_pivot(ang), outer, ang)
        elif action is not None and d.ghost is not None:
            d.arc = (d.geom.to_world(0.0, d.geom.depth / 2.0),
                     d.ghost.to_world(0.0, d.ghost.depth / 2.0))

    def _label(self, state: GameState, d: BlockDrag, action: dict[str, Any] | None) -> str:
        sel = state.battle.selection
        first = sel is None or not sel.staged
        cap = f" / {_inches(d.cap)}" if d.cap is not None else ""
        if action is None:
            return f'{d.displacement:.1f}"{cap}'
        if action["do"] == "wheel":
            ang = float(action["angle"])
            return (f"wheel {ang:+.1f}° · outer arc {d.outer_arc:.1f}\" · "
                    f'models {d.displacement:.1f}"{cap}')
        dist = abs(float(action["distance"]))
        name = action["do"]
        if name == "sideways":
            name = "right" if float(action["distance"]) > 0 else "left"
        if first and abs(dist - d.displacement) < 0.05:
            return f'{name} {dist:.1f}"{cap}'
        return f'{name} {dist:.1f}" · models {d.displacement:.1f}"{cap}'

    def release(self, state: GameState, at: Pt) -> list[dict[str, Any]]:
        """Pointer released: the manoeuvre to stage (none for a reform handle or no move)."""
        d = self.drag
        if d is None:
            return []
        self.move(state, at)
        self.drag = None
        if d.handle in ("rotate", "files") or d.action is None:
            return []
        return [dict(d.action)]

    def cancel(self) -> bool:
        """Esc: drop a drag, else a reform being built; whether anything was dropped."""
        if self.drag is not None:
            self.drag = None
            return True
        if self.reform is not None:
            self.reform = None
            return True
        return False

    # -- reform ---------------------------------------------------------------------------
    def _reform_base(self, state: GameState) -> ReformEdit | None:
        block = self.selected(state)
        if block is None or not self.can_reform(state):
            return None
        r = self.reform_edit(state)
        if r is None:
            r = ReformEdit(selection=state.battle.selection, files=block.files,
                           facing=float(block.facing))
            self.reform = r
        return r

    def _drag_reform(self, state: GameState, d: BlockDrag, at: Pt) -> None:
        r = self._reform_base(state)
        if r is None:
            return
        before = (r.files, r.facing)
        centre = d.geom.at
        if d.handle == "rotate":
            dx, dy = at[0] - centre[0], at[1] - centre[1]
            gx, gy = d.grab[0] - centre[0], d.grab[1] - centre[1]
            if math.hypot(dx, dy) > 1e-6:
                turn = math.degrees(math.atan2(dx, -dy) - math.atan2(gx, -gy))
                turn = (turn + 180.0) % 360.0 - 180.0
                r.facing = (d.geom.facing + _snap(turn, REFORM_FACING_STEP)) % 360.0
        else:
            # the handle sits on the right flank: moving it by half a base widens the block
            # (about its centre) by one file
            du, _ = _local(d.geom, (at[0] - d.grab[0], at[1] - d.grab[1]))
            r.files = max(1, min(d.geom.models, d.files0 + round(2.0 * du / d.geom.base_w)))
        if (r.files, r.facing) != before or r.ghost is None:
            self.update_reform(state)

    def update_reform(self, state: GameState) -> None:
        """Ask the rules about the reform being built (on each change, never per frame)."""
        r = self.reform_edit(state)
        block = self.selected(state)
        if r is None or block is None:
            return
        self.preview_calls += 1
        p = self.rules.block_preview(state, r.action)
        r.ghost = p.get("geom") or self.rules.block_geom(block).reformed(r.files, r.facing)
        r.ok = bool(p.get("ok"))
        r.reasons = list(p.get("reasons") or [])
        r.end_reasons = list(p.get("end_reasons") or [])
        r.near = near_obstacles(r.ghost.polygon, self.obstacles(state, block.id))
        start = self.rules.block_start(state)
        r.displacement = max_displacement(start, r.ghost) if start is not None else 0.0
        r.cap = self.rules.block_cap(state, "reform")
        ranks = r.ghost.ranks
        cap = f" / {_inches(r.cap)}" if r.cap is not None else ""
        r.label = (f"reform {r.files} x {ranks} facing {r.facing % 360:.0f}° · "
                   f'models {r.displacement:.1f}"{cap}')

    def key(self, state: GameState, name: str, *, shift: bool = False
            ) -> list[dict[str, Any]] | None:
        """A key for the selected block: reform edits and Enter. ``None`` when not handled
        here; otherwise the actions to apply, in order, stopping at the first refusal."""
        block = self.selected(state)
        if block is None:
            return None
        sel = state.battle.selection
        assert sel is not None
        if name in ("return", "enter", "keypad enter"):
            r = self.reform_edit(state)
            if r is None:
                return None
            self.reform = None
            if sel.move == "reform":
                return [r.action, {"do": "commit"}]
            return [r.action]
        files = {"[": -1, "]": 1, "down": -1, "up": 1}
        turns = {",": -15.0, ".": 15.0, "left": -90.0, "right": 90.0}
        if name not in files and name not in turns:
            return None
        r = self._reform_base(state)
        if r is None:
            self.note = ("no reform now: a block reforms in a move that allows it (the Reform "
                         "move, F), before any other manoeuvre")
            return []
        if name in files:
            want = r.files + files[name]
            r.files = max(1, min(block.models, want))
            if r.files != want:
                self.note = (f"{block.models} files at most: the unit has {block.models} models"
                             if want > block.models else "1 file at least")
        else:
            step = turns[name]
            if shift and abs(step) < 90:
                step = step / 3.0
            r.facing = (r.facing + step) % 360.0
        self.update_reform(state)
        return []


def _kind(action: dict[str, Any]) -> str:
    do = str(action["do"])
    if do == "wheel":
        return "forward"
    if do == "sideways":
        return "sideways"
    return do

"""The window's interaction logic as a pure state machine (no pygame, testable without SDL).

The app feeds it pointer and key events in screen pixels; it answers with :class:`Intent` objects
(actions for the rules core, a save, a toggle) and keeps what the frame needs to draw: the model
being dragged, its ghost position snapped to the legal zone, the path and its length, the ruler,
the viewport after zooming and panning.

Zones are computed once per pick-up by the injected ``zone_fn`` (never per frame); moving the
pointer only tests the cached zone (``contains``) and snaps to it (``nearest``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import shapely
from shapely.geometry import Point as ShapelyPoint
from shapely.ops import nearest_points

from tabletop.geometry.footprints import Footprint
from tabletop.geometry.tolerance import EPS
from tabletop.state import Block, GameState, Model, Unit
from tabletop.view.blockdrag import BLOCK_MOVE_KEYS, BlockRules, BlockTool
from tabletop.view.ruler import (
    SNAP_PX,
    Ruler,
    Target,
    measure,
    target_at,
)
from tabletop.view.unitdrag import largest_offset, move_order
from tabletop.view.viewport import Viewport

__all__ = [
    "MOVE_KEYS",
    "Controller",
    "Drag",
    "Intent",
    "SetupSource",
    "ZoneLike",
    "setup_source",
    "zone_path",
    "zone_witness",
]

Pt = tuple[float, float]

MOVE_KEYS: dict[str, str] = {
    "n": "normal",
    "a": "advance",
    "f": "fall-back",
    "s": "remain-stationary",
    "i": "ingress",
    "d": "disembark",
}
"""Keys that select the selected unit's move type."""

ZOOM_STEP = 1.15
"""Zoom factor per mouse-wheel notch."""

REFORM_KEYS = ("[", "]", ",", ".", "up", "down", "left", "right")
"""Keys that edit a block's reform (said when there is none to edit)."""

TURN_STEP = 15.0
"""Degrees a model turns per press of Q (counter-clockwise) or E (clockwise)."""

TURN_STEP_FINE = 1.0
"""Degrees per press with Shift held."""

BOX_MIN_PX = 4.0
"""A box selection smaller than this (pixels) is a click: it clears the selection."""


class ZoneLike(Protocol):
    """What the controller needs of a legal zone (``tabletop.zones.Zone`` fits)."""

    def contains(self, x: float, y: float) -> bool:
        """Whether ``(x, y)`` is a legal end point."""

    def nearest(self, x: float, y: float) -> Pt:
        """The legal end point nearest ``(x, y)``."""


def zone_path(zone: Any, start: Pt, end: Pt) -> tuple[tuple[Pt, ...], float]:
    """The path from ``start`` to ``end`` given by ``zone.path_to`` (a straight line without one).

    ``path_to`` may return ``(points, length)`` or an object with ``points`` and ``length``;
    the points may or may not begin with ``start``: the result always does.
    """
    pts, length, _ = zone_witness(zone, start, end)
    return pts, length


def zone_witness(zone: Any, start: Pt, end: Pt
                 ) -> tuple[tuple[Pt, ...], float, tuple[tuple[float, float, float], ...]]:
    """:func:`zone_path`, and the path's poses ``(x, y, facing)`` when the zone gives facings
    (a model that turns as it moves: a turn in place is two poses at one place; empty
    otherwise)."""
    fn = getattr(zone, "path_to", None)
    res = fn(end[0], end[1]) if fn is not None else None
    if res is None:
        return (start, end), math.dist(start, end), ()
    if isinstance(res, tuple) and len(res) == 2 and not isinstance(res[0], (int, float)):
        raw_pts, length = res
    else:
        raw_pts, length = getattr(res, "points"), getattr(res, "length")  # noqa: B009
    poses = tuple((float(p[0]), float(p[1]), float(p[2])) for p in raw_pts) if raw_pts and \
        all(len(p) == 3 for p in raw_pts) else ()
    pts: tuple[Pt, ...] = ()
    for p in raw_pts:
        q = (float(p[0]), float(p[1]))
        if not pts or q != pts[-1]:
            pts = (*pts, q)
    if not pts:
        return (start, end), math.dist(start, end), ()
    if math.dist(pts[0], start) > 1e-9:
        pts = (start, *pts)
    if len(pts) == 1:
        pts = (pts[0], pts[0])
    return pts, float(length), poses


@dataclass(frozen=True)
class Intent:
    """Something the app must do: ``kind`` is one of

    - ``"actions"``: apply ``data["actions"]`` (action objects of ``docs/actions.md``) in order
      (stopping at the first refusal when ``data["stop_on_refusal"]`` is true);
    - ``"select"``: select ``data["unit"]`` for ``data["move"]`` (and ``data["mode"]``), first
      cancelling the unit's own selection when none of its models has moved yet;
    - ``"commit"``, ``"next"`` (the app asks first when units have not moved), ``"cancel"``
      (take back a selection whose models have not moved), ``"put-back"`` (the staged moves
      of ``data["model"]`` alone);
    - ``"undo"``, ``"redo"``: over the phase's actions (the app's history);
    - ``"focus"``: the unit ``data["unit"]`` is shown in the panel (no rules involved);
    - ``"save"``, ``"save-as"``, ``"screenshot"``, ``"quit"``, ``"fit"`` (zoom to fit);
    - ``"threat"``: show or hide the threat range of the focused unit;
    - ``"safe"``: show or hide the safe ground of the focused unit (O), ``"safe-odds"``
      (``step``: +1 stricter, -1 laxer; = and -), ``"safe-objective"`` (Shift+O: near the next
      objective);
    - ``"toggle"``: flip the view option ``data["what"]`` (``grid``, ``engagement``, ``help``).
    """

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Drag:
    """A model (or a whole unit, with shift) being dragged."""

    anchor: str
    """The model under the pointer."""
    models: tuple[str, ...]
    """Every model that moves (the anchor first)."""
    starts: dict[str, Pt | None]
    """Position of each model at pick-up (``None`` when it is being set up)."""
    bases: dict[str, Footprint]
    facings: dict[str, float]
    offset: Pt
    """Pointer minus the anchor's centre at pick-up, in inches."""
    zones: dict[str, Any]
    """Legal zone of each model, computed at pick-up (``None`` when no zone is known)."""
    cap: float | None = None
    ghosts: dict[str, Pt] = field(default_factory=dict)
    legal: dict[str, bool] = field(default_factory=dict)
    path: tuple[Pt, ...] = ()
    length: float = 0.0
    snapped: bool = False
    placing: bool = False
    """True for a set-up (ingress, disembark): the models come from a list, not the board."""
    follower_paths: bool = False
    """Followers go along their own legal paths (a multi-selection), not all by one vector."""
    poses: tuple[tuple[float, float, float], ...] = ()
    """The anchor's path with its facings, for a model that turns as it moves (the zone's
    witness: a turn in place is two poses at one place); empty for a round base."""
    ghost_facings: dict[str, float] = field(default_factory=dict)
    """The facing each ghost is drawn at: the witness's last one (the legal end facing closest
    to the model's own), else the facing at pick-up."""
    whole_unit: bool = False
    """Shift-drag: every model moves by one vector, as far as the whole unit may
    (:mod:`tabletop.view.unitdrag`); the zones are each model's with its unit moving along."""
    offset_t: float = 1.0
    """How much of the dragged vector the whole unit goes (``1``: all of it)."""
    limit: str | None = None
    """The model that stops the whole unit going further, if one does."""
    wanted: Pt = (0.0, 0.0)
    """The vector the pointer asks for (the whole unit goes ``offset_t`` of it)."""


@dataclass(frozen=True)
class SetupSource:
    """Models of the unit being set up that wait to be placed, and the unit on the board they
    come from (a transport), if any: a press on that unit starts placing the next one."""

    waiting: tuple[str, ...]
    """The models still to place, in the unit's order."""
    source: str | None = None
    """The unit on the battlefield they come from (``None``: from off the table, reserves)."""


def setup_source(saved: GameState, shown: GameState) -> SetupSource | None:
    """The set-up of the selected unit, if its models are being set up: those not placed yet
    in ``shown`` (the board as drawn, placements staged so far on it) and, for a unit embarked
    in ``saved`` (the game as it stands), its transport."""
    sel = saved.battle.selection
    if sel is None:
        return None
    try:
        unit, now = saved.unit(sel.unit), shown.unit(sel.unit)
    except KeyError:
        return None
    if not isinstance(unit, Unit) or not isinstance(now, Unit):
        return None
    if unit.location == "battlefield":
        return None
    waiting = tuple(m.id for m in now.models if m.at is None)
    if not waiting:
        return None
    return SetupSource(waiting, unit.transport if unit.location == "embarked" else None)


class Controller:
    """Pointer and key handling for the board.

    Parameters
    ----------
    state:
        The game state shown (the app replaces it after each applied action).
    viewport:
        Inch-to-pixel transform of the board (zoom and pan change it).
    zone_fn:
        ``zone_fn(state, model_id) -> zone or None``, called on pick-up only.
    unit_zone_fn:
        ``unit_zone_fn(state, model_id) -> zone or None``: the zone of a model when its whole
        unit moves with it by one vector (Shift-drag); ``zone_fn`` without one.
    cap_fn:
        ``cap_fn(state, model_id) -> float or None``: the model's whole allowance for the move,
        shown as ``4.7" / 9"``.
    blocks:
        The rules as the t9a-2 block tool needs them (:class:`~tabletop.view.blockdrag.
        BlockRules`); without them blocks can be looked at but not dragged.
    """

    def __init__(
        self,
        state: GameState,
        viewport: Viewport,
        *,
        zone_fn: Callable[[GameState, str], Any] | None = None,
        cap_fn: Callable[[GameState, str], float | None] | None = None,
        blocks: BlockRules | None = None,
        unit_zone_fn: Callable[[GameState, str], Any] | None = None,
    ) -> None:
        self.state = state
        self.viewport = viewport
        self.zone_fn = zone_fn
        self.unit_zone_fn = unit_zone_fn
        self.cap_fn = cap_fn
        self.focus: str | None = None
        self.drag: Drag | None = None
        self.pan_from: Pt | None = None
        self.ruler_on = False
        self.ruler: Ruler | None = None
        self._ruler_down = False
        self.hover: str | None = None
        self.hover_block: str | None = None
        self.pointer: Pt = (0.0, 0.0)
        self.zone_calls = 0
        self.blocks: BlockTool | None = BlockTool(blocks) if blocks is not None else None
        self.picked: set[str] = set()
        """Models of the moving unit picked with Ctrl+click or a box: dragged together."""
        self.box: tuple[Pt, Pt] | None = None
        """A box selection being drawn: its two corners, inches."""
        self.setup: SetupSource | None = None
        """The models of the unit being set up that wait to be placed, and where from (the app
        keeps it up to date, :func:`setup_source`)."""

    # -- queries --------------------------------------------------------------------------
    @property
    def selection_unit(self) -> str | None:
        """The unit the rules have selected for a move (``battle.selection``), if any."""
        sel = self.state.battle.selection
        return sel.unit if sel is not None else None

    def model_at(self, x: float, y: float) -> str | None:
        """The id of the placed model whose base contains ``(x, y)`` (inches), if any."""
        best: tuple[float, str] | None = None
        pt = ShapelyPoint(x, y)
        for _, m in self.state.placed_models():
            assert m.at is not None
            d = math.dist(m.at, (x, y))
            if d > m.base.radius + EPS:
                continue
            if m.base.is_round or m.footprint.covers(pt):
                if best is None or d < best[0]:
                    best = (d, m.id)
        return best[1] if best else None

    def block_at(self, x: float, y: float) -> str | None:
        """The id of the t9a block under ``(x, y)``, if any."""
        from tabletop.view.shapes import block_outline

        pt = ShapelyPoint(x, y)
        for u in self.state.units:
            if isinstance(u, Block) and block_outline(u).covers(pt):
                return u.id
        return None

    def unit_of(self, model_id: str) -> Unit:
        """The unit of ``model_id``."""
        return self.state.model(model_id)[0]

    # -- pointer --------------------------------------------------------------------------
    def pointer_down(self, px: Pt, button: int = 1, *, shift: bool = False,
                     ctrl: bool = False) -> list[Intent]:
        """A button pressed at pixel ``px`` (1 left, 2 middle, 3 right). Ctrl+click picks or
        drops a model of the moving unit; a press on empty ground starts a box selection."""
        self.pointer = px
        if button in (2, 3):
            self.pan_from = px
            return []
        if button != 1:
            return []
        x, y = self.viewport.to_inches(*px)
        if self.ruler_on:
            target = self._ruler_target((x, y))
            self.ruler = Ruler(a=(x, y), b=(x, y), pressed=(x, y), a_target=target)
            self._ruler_down = True
            self._measure()
            return []
        bt = self.blocks
        if bt is not None and bt.press(self.state, (x, y), self.viewport.scale):
            self.focus = self.selection_unit
            return []
        mid = self.model_at(x, y)
        if mid is None:
            bid = self.block_at(x, y)
            if bid is not None and bid != self.focus:
                self.focus = bid
                return [Intent("focus", {"unit": bid})]
            if bid is None and self._moving_models():
                self.box = ((x, y), (x, y))
            return []
        unit = self.unit_of(mid)
        src = self.setup
        if src is not None and src.source == unit.id and src.waiting and not ctrl:
            # a press on the transport the waiting models come from: the next one comes out
            self.begin_placement(src.waiting[0], px)
            return []
        if unit.id != self.selection_unit:
            if unit.id != self.focus:
                self.focus = unit.id
                return [Intent("focus", {"unit": unit.id})]
            return []
        self.focus = unit.id
        if ctrl:
            self.picked ^= {mid}
            return []
        self._start_drag(mid, (x, y), whole_unit=shift)
        return []

    def _moving_models(self) -> list[Model]:
        """The placed models of the unit being moved (wh40k-11e), if any."""
        sel = self.state.battle.selection
        if sel is None:
            return []
        try:
            unit = self.state.unit(sel.unit)
        except KeyError:
            return []
        if not isinstance(unit, Unit):
            return []
        return [m for m in unit.models if m.at is not None]

    def _pick_box(self) -> None:
        """The models of the moving unit whose centres lie in the box become the picked ones."""
        assert self.box is not None
        (ax, ay), (bx, by) = self.box
        x0, x1 = sorted((ax, bx))
        y0, y1 = sorted((ay, by))
        if max(x1 - x0, y1 - y0) * self.viewport.scale < BOX_MIN_PX:
            self.picked = set()
            return
        self.picked = {m.id for m in self._moving_models()
                       if m.at is not None and x0 <= m.at[0] <= x1 and y0 <= m.at[1] <= y1}

    def begin_placement(self, model_id: str, px: Pt) -> None:
        """Start dragging ``model_id`` (in reserves or a transport) from a list, or from its
        transport on the board, at pixel ``px``: the ghost is centred under the pointer."""
        unit, m = self.state.model(model_id)
        x, y = self.viewport.to_inches(*px)
        zone = self._zone(model_id)
        if getattr(zone, "geometry", None) is not None:
            shapely.prepare(zone.geometry)
        self.drag = Drag(anchor=model_id, models=(model_id,), starts={model_id: None},
                         bases={model_id: m.base}, facings={model_id: m.facing},
                         offset=(0.0, 0.0), zones={model_id: zone}, placing=True)
        self.focus = unit.id
        self._update_drag((x, y))

    def _zone(self, model_id: str, *, whole_unit: bool = False) -> Any:
        fn = self.unit_zone_fn if whole_unit and self.unit_zone_fn is not None else self.zone_fn
        if fn is None:
            return None
        self.zone_calls += 1
        return fn(self.state, model_id)

    def _start_drag(self, mid: str, at: Pt, *, whole_unit: bool) -> None:
        unit, m = self.state.model(mid)
        assert m.at is not None
        models: list[Model] = [m]
        together = mid in self.picked and len(self.picked) > 1
        if whole_unit:
            models += [o for o in unit.models if o.id != mid and o.at is not None]
        elif together:
            models += [o for o in unit.models if o.id != mid and o.id in self.picked
                       and o.at is not None]
        whole = whole_unit and len(models) > 1
        zones = {o.id: self._zone(o.id, whole_unit=whole) for o in models}
        for z in zones.values():
            g = getattr(z, "geometry", None)
            if g is not None:
                shapely.prepare(g)
        cap = self.cap_fn(self.state, mid) if self.cap_fn is not None else None
        sel = self.state.battle.selection
        placing = sel is not None and sel.move in ("ingress", "disembark")
        self.drag = Drag(
            anchor=mid,
            models=tuple(o.id for o in models),
            starts={o.id: o.at for o in models},
            bases={o.id: o.base for o in models},
            facings={o.id: o.facing for o in models},
            offset=(at[0] - m.at[0], at[1] - m.at[1]),
            zones=zones,
            cap=cap,
            placing=placing,
            follower_paths=together and not whole_unit,
            whole_unit=whole,
        )
        self._update_drag(at)

    def _update_drag(self, at: Pt, *, exact: bool = False) -> None:
        """Move the ghost under the pointer, snapped to the zone when the pointer leaves it.

        While dragging (``exact=False``) the test and the snap use the zone's polygon (a
        prepared-geometry test, well under a millisecond); on release (``exact=True``) the
        zone's own exact ``contains`` and ``nearest`` decide where the model goes.
        """
        d = self.drag
        assert d is not None
        raw = (at[0] - d.offset[0], at[1] - d.offset[1])
        zone = d.zones.get(d.anchor)
        target = raw if zone is None else _snap(zone, raw, d.starts[d.anchor], exact=exact)
        d.snapped = target != raw
        d.ghosts = {d.anchor: target}
        d.legal = {d.anchor: True}
        d.ghost_facings = dict(d.facings)
        d.poses = ()
        start = d.starts[d.anchor]
        if start is None or d.placing:
            d.path, d.length = (), 0.0
        elif zone is None:
            d.path, d.length = (start, target), math.dist(start, target)
        else:
            d.path, d.length, d.poses = zone_witness(zone, start, target)
            if d.poses:
                d.ghost_facings[d.anchor] = d.poses[-1][2]
        vec = (target[0] - start[0], target[1] - start[1]) if start is not None else (0.0, 0.0)
        if d.whole_unit and start is not None:
            self._whole_unit(d, vec, exact=exact)
            return
        for mid in d.models[1:]:
            s = d.starts[mid]
            assert s is not None
            g = (s[0] + vec[0], s[1] + vec[1])
            z = d.zones.get(mid)
            if d.follower_paths and z is not None:
                # each picked model goes as far as its own zone lets it, along its own path
                g = _snap(z, g, s, exact=exact)
                d.legal[mid] = True
            elif z is None:
                d.legal[mid] = True
            else:
                d.legal[mid] = _inside(z, g, exact=exact)
            d.ghosts[mid] = g

    def _whole_unit(self, d: Drag, vec: Pt, *, exact: bool) -> None:
        """Every model of a Shift-dragged unit by the largest part of ``vec`` the whole unit
        may go (each within its own zone), the grabbed model's path drawn."""
        starts = {mid: s for mid in d.models if (s := d.starts[mid]) is not None}
        off = largest_offset(d.zones, starts, vec, exact=exact)
        d.offset_t, d.limit, d.wanted = off.t, off.limit, vec
        d.ghosts = {mid: (s[0] + off.t * vec[0], s[1] + off.t * vec[1])
                    for mid, s in starts.items()}
        d.legal = dict.fromkeys(starts, True)
        a = starts[d.anchor]
        g = d.ghosts[d.anchor]
        d.snapped = off.t < 1.0 or d.snapped
        zone = d.zones.get(d.anchor)
        if zone is None:
            d.path, d.length = (a, g), math.dist(a, g)
            return
        d.path, d.length, d.poses = zone_witness(zone, a, g)
        if d.poses:
            d.ghost_facings[d.anchor] = d.poses[-1][2]

    def pointer_move(self, px: Pt) -> list[Intent]:
        """The pointer moved to pixel ``px``."""
        last = self.pointer
        self.pointer = px
        if self.pan_from is not None:
            self.viewport = self.viewport.panned(px[0] - last[0], px[1] - last[1])
            return []
        x, y = self.viewport.to_inches(*px)
        bt = self.blocks
        if bt is not None and bt.drag is not None:
            bt.move(self.state, (x, y))
        elif self.drag is not None:
            self._update_drag((x, y))
        elif self.ruler is not None and self._ruler_down:
            self.ruler.b = (x, y)
            self.ruler.b_target = self._ruler_target((x, y))
            self._measure()
        elif self.box is not None:
            self.box = (self.box[0], (x, y))
        else:
            self.hover = self.model_at(x, y)
            self.hover_block = self.block_at(x, y) if self.hover is None else None
            if bt is not None:
                bt.hover = bt.handle_under(self.state, (x, y), self.viewport.scale)
        return []

    def pointer_up(self, px: Pt, button: int = 1) -> list[Intent]:
        """A button released at pixel ``px``: a drag stages its move(s)."""
        self.pointer = px
        if button in (2, 3):
            self.pan_from = None
            return []
        if button != 1:
            return []
        if self._ruler_down:
            self._ruler_down = False
            self.hover = self.model_at(*self.viewport.to_inches(*px))  # not where it began
            return []
        if self.box is not None:
            self.box = (self.box[0], self.viewport.to_inches(*px))
            self._pick_box()
            self.box = None
            return []
        bt = self.blocks
        if bt is not None and bt.drag is not None:
            acts = bt.release(self.state, self.viewport.to_inches(*px))
            return [Intent("actions", {"actions": acts})] if acts else []
        d = self.drag
        if d is None:
            return []
        self.pointer = px
        self._update_drag(self.viewport.to_inches(*px), exact=True)
        self.drag = None
        # what was under the pointer before the drag is not there now (the next move says
        # what is; Q / E meanwhile turn the model just dropped, the last one moved)
        self.hover = None
        actions: list[dict[str, Any]] = []
        order = (move_order({m: s for m in d.models if (s := d.starts[m]) is not None}, d.wanted)
                 if d.whole_unit else d.models)
        for mid in order:
            g = d.ghosts[mid]
            s = d.starts[mid]
            if d.placing:
                actions.append({"do": "place", "model": mid, "at": [g[0], g[1]]})
                continue
            assert s is not None
            if math.dist(s, g) <= EPS:
                continue
            z = d.zones.get(mid)
            if mid == d.anchor and d.poses:
                # a model that turns: its witness, turns included
                pts = [list(p) for p in d.poses[1:]]
            elif mid == d.anchor and len(d.path) >= 2:
                pts = [list(p) for p in d.path[1:]]
            elif z is not None and (d.follower_paths or d.whole_unit
                                    or getattr(z, "turns", False)):
                path, _, poses = zone_witness(z, s, g)
                pts = [list(p) for p in (poses or path)[1:]]
            else:
                pts = [[g[0], g[1]]]
            actions.append({"do": "move", "model": mid, "path": pts})
        return [Intent("actions", {"actions": actions})] if actions else []

    def wheel(self, px: Pt, notches: float) -> None:
        """Zoom about the pixel ``px`` (positive ``notches`` zoom in)."""
        self.viewport = self.viewport.zoomed(ZOOM_STEP ** notches, px)

    # -- keys -----------------------------------------------------------------------------
    def key(self, name: str, *, ctrl: bool = False, shift: bool = False) -> list[Intent]:
        """A key pressed: ``name`` as pygame's ``key.name`` gives it (``"n"``, ``"return"``).

        Q and E turn a model of the moving unit in place (:meth:`turn`).
        """
        name = name.lower()
        if ctrl:
            return self._ctrl_key(name, shift=shift)
        bt = self.blocks
        if name == "escape":
            return self._escape()
        if name in ("home",):
            return [Intent("fit")]
        if self.drag is not None or (bt is not None and bt.drag is not None):
            return []
        if bt is not None:
            acts = bt.key(self.state, name, shift=shift)
            if acts is not None:
                return [Intent("actions", {"actions": acts, "stop_on_refusal": True})
                        ] if acts else []
        block = self._focus_block()
        if bt is not None and block is not None and name in REFORM_KEYS:
            bt.note = ("no reform now: select the block for a move that reforms (the Reform "
                       "move, F) first")
            return []
        if block is not None and name in BLOCK_MOVE_KEYS:
            return [Intent("select", {"unit": block, "move": BLOCK_MOVE_KEYS[name]})]
        if name in MOVE_KEYS and block is None:
            unit = self.focus or self.selection_unit
            if unit is None:
                return []
            data: dict[str, Any] = {"unit": unit, "move": MOVE_KEYS[name]}
            if name == "f" and shift:
                data["mode"] = "desperate-escape"
            return [Intent("select", data)]
        if name in ("q", "e") and block is None:
            return self.turn(TURN_STEP_FINE if shift else TURN_STEP, clockwise=name == "e")
        simple = {"return": "commit", "enter": "commit", "keypad enter": "commit",
                  "space": "next", "t": "threat", "p": "screenshot", "f12": "screenshot"}
        if name in simple:
            return [Intent(simple[name])]
        if name == "o":
            return [Intent("safe-objective" if shift else "safe")]
        odds = {"-": -1, "keypad -": -1, "=": 1, "+": 1, "keypad +": 1}
        if name in odds:
            return [Intent("safe-odds", {"step": odds[name]})]
        if name == "r":
            self.picked = set()
            return [Intent("actions", {"actions": [{"do": "reset"}]})]
        if name in ("backspace", "delete") and self.hover is not None:
            return [Intent("put-back", {"model": self.hover})]
        if name == "m":
            self.ruler_on = not self.ruler_on
            if not self.ruler_on:
                self.ruler = None
            return []
        toggles = {"g": "grid", "2": "engagement", "h": "help", "f1": "help"}
        if name in toggles:
            return [Intent("toggle", {"what": toggles[name]})]
        return []

    def turn(self, degrees: float, *, clockwise: bool) -> list[Intent]:
        """Turn a non-round model of the moving unit in place by ``degrees``: the one under the
        pointer, or with the pointer over no model the last one moved or set up. The rules
        check the turn as the area its base sweeps (a refusal says what it would run into, and
        the app draws it)."""
        sel = self.state.battle.selection
        if sel is None:
            return []
        placed = {str(a["model"]): a for a in sel.staged if a.get("do") == "place"}
        mid = self.hover
        if mid is not None and mid not in {m.id for m in self._moving_models()} | set(placed):
            return []  # over a model of another unit: nothing of this one turns
        if mid is None:
            mid = next((str(a["model"]) for a in reversed(sel.staged)
                        if a.get("do") in ("move", "place")), None)
        if mid is None:
            return []
        _, m = self.state.model(mid)
        if m.base.is_round:
            return []
        step = degrees if clockwise else -degrees
        if mid in placed:
            a = placed[mid]
            f_any: Any = a.get("facing", m.facing)
            f0 = float(f_any)
            at: Any = a["at"]
            act: dict[str, Any] = {"do": "place", "model": mid, "at": [at[0], at[1]],
                                   "facing": (f0 + step) % 360.0}
        else:
            assert m.at is not None
            act = {"do": "move", "model": mid,
                   "path": [[m.at[0], m.at[1], (m.facing + step) % 360.0]]}
        return [Intent("actions", {"actions": [act]})]

    def _ctrl_key(self, name: str, *, shift: bool) -> list[Intent]:
        if name == "z":
            return [Intent("redo" if shift else "undo")]
        if name == "y":
            return [Intent("redo")]
        if name == "s":
            return [Intent("save-as" if shift else "save")]
        if name == "q":
            return [Intent("quit")]
        return []

    def _escape(self) -> list[Intent]:
        """Esc drops the innermost thing going on: a drag, the ruler, picked models, then a
        selection whose models have not moved, then the focus."""
        bt = self.blocks
        if bt is not None and bt.cancel():
            return []
        if self.drag is not None:
            self.drag = None
        elif self.box is not None:
            self.box = None
        elif self.ruler is not None or self.ruler_on:
            self.ruler, self.ruler_on, self._ruler_down = None, False, False
        elif self.picked:
            self.picked = set()
        elif self.state.battle.selection is not None:
            return [Intent("cancel")]
        else:
            self.focus = None
        return []

    def _focus_block(self) -> str | None:
        """The focused (or selected) unit when it is a t9a-2 block."""
        unit = self.focus or self.selection_unit
        if unit is None:
            return None
        try:
            u = self.state.unit(unit)
        except KeyError:
            return None
        return u.id if isinstance(u, Block) else None

    # -- ruler ----------------------------------------------------------------------------
    def _measure(self) -> None:
        measure(self.state, self.ruler)  # type: ignore[arg-type]

    def _ruler_target(self, p: Pt) -> Target | None:
        return target_at(self.state, p, SNAP_PX / self.viewport.scale)

    def _placed(self, mid: str | None) -> Model | None:
        if mid is None:
            return None
        try:
            m = self.state.model(mid)[1]
        except KeyError:
            return None
        return m if m.at is not None else None


def _inside(zone: Any, p: Pt, *, exact: bool) -> bool:
    """Whether ``p`` is in ``zone``: its polygon while dragging, its exact test on release."""
    geom = getattr(zone, "geometry", None)
    if exact or geom is None:
        return bool(zone.contains(*p))
    return bool(shapely.intersects_xy(geom, *p))


def _snap(zone: Any, p: Pt, fallback: Pt | None, *, exact: bool) -> Pt:
    """``p``, or the point of ``zone`` nearest it when it lies outside (``fallback``, if any,
    for an empty zone polygon)."""
    if _inside(zone, p, exact=exact):
        return p
    geom = getattr(zone, "geometry", None)
    if exact or geom is None:
        near = zone.nearest(*p)
    elif geom.is_empty:
        near = fallback
    else:
        q = nearest_points(geom, ShapelyPoint(p))[0]
        near = (q.x, q.y)
    return (float(near[0]), float(near[1])) if near is not None else p


def ghost_models(drag: Drag) -> Sequence[tuple[str, Footprint, Pt, float, bool]]:
    """``(model_id, base, at, facing, legal)`` of every ghost of ``drag`` (a model that turns
    as it moves is drawn at the facing its path ends at)."""
    return [(mid, drag.bases[mid], drag.ghosts[mid],
             drag.ghost_facings.get(mid, drag.facings[mid]), drag.legal.get(mid, True))
            for mid in drag.models if mid in drag.ghosts]

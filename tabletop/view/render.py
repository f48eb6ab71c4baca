"""Pure drawing of a game state to off-screen pygame surfaces.

Nothing here handles events or opens a window: every function draws on a surface it is given (or
returns a new one), using a :class:`~tabletop.view.viewport.Viewport` for the only inch-to-pixel
conversion. Text uses the DejaVu Sans font shipped in ``tabletop/view/assets`` (loaded with
:mod:`importlib.resources`), so pictures are the same on every machine with the same pygame-ce.

Two families of pictures:

- the full board (:func:`render_board`, :func:`draw_board` and the overlay helpers), anti-aliased,
  with labels, for ``tabletop show`` and the window;
- the zone layer (:mod:`tabletop.view.zonelayer`), for golden tests: no anti-aliasing, no text,
  a fixed palette and a fixed size, compared pixel for pixel.

t9a-2 blocks being moved are drawn by :mod:`tabletop.view.blockpaint`, the passages of
``tabletop fit`` by :mod:`tabletop.view.passagepaint`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache

import pygame
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop import rulesets
from tabletop.geometry.footprints import Footprint, Round, polygon_of
from tabletop.geometry.tolerance import mm
from tabletop.state import Block, GameState, Model
from tabletop.view.labels import Placed, place_labels
from tabletop.view.paint import (
    FLOOR_STYLE,
    GRID,
    GRID_MAJOR,
    MAT,
    MAT_EDGE,
    OBJECTIVE,
    OBJECTIVE_DIAMETER_MM,
    PATH,
    PICKED,
    PLAYER_COLOURS,
    RGBA,
    SETUP_FILL,
    TABLE,
    TERRAIN_DEFAULT,
    TERRAIN_STYLE,
    TEXT,
    TEXT_DARK,
    VIOLATION,
    ZONE_EDGE,
    ZONE_FILL,
    Colour,
    Ghost,
    Mark,
    Overlays,
    PathOverlay,
    Pt,
    base_outline_px,
    fill_polygon_alpha,
    fit_text,
    font,
    model_polygon,
    outline,
    player_colour,
    polygons,
    save_png,
    shade,
    surface_array,
    text,
    to_pixels,
    union_rects,
    wrap_text,
)
from tabletop.view.shapes import block_geom, block_model_polygons
from tabletop.view.viewport import Viewport

__all__ = [
    "SETUP_FILL",
    "TEXT_DARK",
    "Mark",
    "Overlays",
    "PathOverlay",
    "base_outline_px",
    "block_model_polygons",
    "draw_board",
    "draw_models",
    "draw_overlays",
    "draw_static",
    "draw_zone",
    "font",
    "model_boxes",
    "player_colour",
    "render_board",
    "save_png",
    "shade",
    "surface_array",
    "wrap_text",
    "zone_surface",
]

# -- the board ----------------------------------------------------------------------------------
def draw_static(surface: pygame.Surface, state: GameState, vp: Viewport, *,
                grid: bool = False) -> None:
    """Draw the table, battlefield, deployment zones, terrain, objectives and (optionally) grid."""
    surface.fill(TABLE)
    bf = state.battlefield
    x0, y0 = vp.to_px(0, 0)
    x1, y1 = vp.to_px(bf.width, bf.depth)
    rect = pygame.Rect(round(x0), round(y0), round(x1) - round(x0), round(y1) - round(y0))
    pygame.draw.rect(surface, MAT, rect)
    for i, p in enumerate(state.players):
        zp = p.zone_polygon
        if p.deployment_zone and zp is not None:
            col = PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
            pts = to_pixels(vp, p.deployment_zone)
            fill_polygon_alpha(surface, pts, (*col, 40))
            # the outline, less the parts that run along the battlefield's edge
            inner = zp.boundary.difference(bf.polygon.exterior.buffer(1e-3))
            for line in getattr(inner, "geoms", [inner]):
                if not line.is_empty and line.geom_type == "LineString":
                    _dashed_line(surface, to_pixels(vp, line.coords), shade(col, 1.25), 2)
    if grid:
        _draw_grid(surface, state, vp)
    for t in state.terrain:
        fill, edge, width = TERRAIN_STYLE.get(t.kind, TERRAIN_DEFAULT)
        pts = to_pixels(vp, t.polygon)
        fill_polygon_alpha(surface, pts, fill)
        if t.kind in ("area", "open"):
            dashed_polygon(surface, pts, edge, width)
        else:
            outline(surface, pts, edge, width)
        if t.kind == "dangerous":
            _hatch(surface, t.shape, vp, (96, 30, 24))
    for f in state.floors:
        fill, edge, width = FLOOR_STYLE
        pts = to_pixels(vp, f.polygon)
        fill_polygon_alpha(surface, pts, fill)
        dashed_polygon(surface, pts, edge, width, dash=5.0)
        if f.roof:
            _hatch(surface, polygon_of(f.polygon), vp, shade(edge, 0.8))
    r = vp.length(mm(OBJECTIVE_DIAMETER_MM) / 2)
    for ox, oy in state.objectives:
        c = vp.to_px(ox, oy)
        pygame.draw.circle(surface, shade(OBJECTIVE, 0.55), c, r + 1)
        pygame.draw.circle(surface, OBJECTIVE, c, r)
        pygame.draw.circle(surface, shade(OBJECTIVE, 0.55), c, max(r * 0.45, 1.5), 2)
        pygame.draw.aacircle(surface, shade(OBJECTIVE, 0.45), c, r + 1, 1)
    pygame.draw.rect(surface, MAT_EDGE, rect, 2)


def _draw_grid(surface: pygame.Surface, state: GameState, vp: Viewport) -> None:
    bf = state.battlefield
    _, ytop = vp.to_px(0, 0)
    _, ybot = vp.to_px(0, bf.depth)
    xleft, _ = vp.to_px(0, 0)
    xright, _ = vp.to_px(bf.width, 0)
    step = 1 if vp.scale >= 6 else 6
    for i in range(0, int(bf.width) + 1, step):
        x = vp.to_px(i, 0)[0]
        pygame.draw.line(surface, GRID_MAJOR if i % 6 == 0 else GRID, (x, ytop), (x, ybot))
    for j in range(0, int(bf.depth) + 1, step):
        y = vp.to_px(0, j)[1]
        pygame.draw.line(surface, GRID_MAJOR if j % 6 == 0 else GRID, (xleft, y), (xright, y))


def dashed_polygon(surface: pygame.Surface, pts: list[Pt], colour: Colour, width: int,
                   dash: float = 8.0) -> None:
    """A closed dashed outline through ``pts``."""
    _dashed_line(surface, [*pts, pts[0]], colour, width, dash)


def _dashed_line(surface: pygame.Surface, pts: list[Pt], colour: Colour, width: int,
                 dash: float = 8.0) -> None:
    for k in range(len(pts) - 1):
        (ax, ay), (bx, by) = pts[k], pts[k + 1]
        seg = math.hypot(bx - ax, by - ay)
        if seg == 0:
            continue
        t = 0.0
        while t < seg:
            t2 = min(t + dash, seg)
            pygame.draw.line(surface, colour, (ax + (bx - ax) * t / seg, ay + (by - ay) * t / seg),
                             (ax + (bx - ax) * t2 / seg, ay + (by - ay) * t2 / seg), width)
            t += 2 * dash


def _hatch(surface: pygame.Surface, shape: Polygon, vp: Viewport, colour: Colour) -> None:
    from shapely.geometry import LineString

    minx, miny, maxx, maxy = shape.bounds
    step = 0.6
    k = minx - (maxy - miny)
    while k < maxx:
        line = LineString([(k, miny), (k + (maxy - miny), maxy)]).intersection(shape)
        for g in getattr(line, "geoms", [line]):
            if g.geom_type == "LineString" and not g.is_empty:
                pygame.draw.aalines(surface, colour, False, to_pixels(vp, g.coords))
        k += step


BADGE_COLOURS: dict[str, Colour] = {"done": (70, 78, 92), "bad": (176, 40, 52),
                                    "info": (150, 120, 20)}
"""Background of a unit's badge beside its label, by tone (see ``tabletop.view.roster``)."""


def draw_models(surface: pygame.Surface, state: GameState, vp: Viewport, *,
                hidden: frozenset[str] = frozenset(), selected_unit: str | None = None,
                labels: bool = True, outlined: frozenset[str] = frozenset(),
                badges: Mapping[str, Sequence[tuple[str, str]]] | None = None,
                picked: frozenset[str] = frozenset(),
                label_bounds: pygame.Rect | None = None,
                taken: Sequence[tuple[float, float, float, float]] = ()
                ) -> list[tuple[float, float, float, float]]:
    """Draw every base in its shape and facing, coloured by player, and the unit labels, each
    followed by the unit's ``badges`` (``(code, tone)``: what it did this phase, battle-shock,
    wounds lost). ``picked`` models get a bright ring. Labels are placed off the models and off
    each other and ``taken`` (labels placed before), inside ``label_bounds`` (the board on
    screen) when given (:func:`~tabletop.view.labels.place_labels`); their boxes."""
    label_jobs: list[tuple[str, Pt, Colour, str]] = []
    placed_out: list[tuple[float, float, float, float]] = []
    for unit in state.units:
        col = player_colour(state, unit.player)
        sel = unit.id == selected_unit
        if isinstance(unit, Block):
            polys = block_model_polygons(unit)
            for poly in polys:
                pts = to_pixels(vp, poly.exterior.coords[:-1])
                pygame.draw.polygon(surface, col, pts)
                outline(surface, pts, shade(col, 0.45), 1)
            geom = block_geom(unit)
            pts = to_pixels(vp, geom.polygon.exterior.coords[:-1])
            outline(surface, pts, (250, 250, 250) if sel else shade(col, 0.35), 2)
            # an arrow out of the middle of the front edge
            fx, fy = geom.forward
            mid = geom.to_world(0.0, geom.depth / 2)
            tip = (mid[0] + fx * 0.8, mid[1] + fy * 0.8)
            pygame.draw.line(surface, TEXT, vp.to_px(*mid), vp.to_px(*tip), 2)
            _, miny, _, _ = geom.polygon.bounds
            label_jobs.append((unit.name or unit.id, (geom.polygon.centroid.x, miny), col,
                               unit.id))
            continue
        placed = [m for m in unit.models if m.at is not None and m.id not in hidden]
        for m in placed:
            _draw_model(surface, vp, m, col, selected=sel, outlined=m.id in outlined)
            if m.id in picked:
                assert m.at is not None
                outline(surface, base_outline_px(vp, m.base, m.at, m.facing), PICKED, 3)
        if placed and labels:
            xs = [m.at[0] for m in placed if m.at is not None]
            # the top of each model's outline (a hull's or an oval's radius reaches past it)
            ys = [m.at[1] - m.base.radius if isinstance(m.base, Round) else
                  m.footprint.bounds[1] for m in placed if m.at is not None]
            label_jobs.append((unit.name or unit.id, (sum(xs) / len(xs), min(ys)), col, unit.id))
    if labels:
        size = 12 if vp.scale < 20 else 14
        bounds = label_bounds or surface.get_rect()
        jobs = []
        for s, (x, y), col, uid in label_jobs:
            marks = list((badges or {}).get(uid, ()))
            widths = [font(10, bold=True).size(code)[0] + 6 for code, _ in marks]
            tw, th = font(size).size(s)
            jobs.append((s, vp.to_px(x, y), col, marks, widths,
                         (tw + 8 + sum(w + 2 for w in widths) + (4 if marks else 0), th + 2)))
        # off the models (all of them) and off each other, inside the board
        models = model_boxes(state, vp, hidden=hidden)
        # the first place tried is just above the anchor: 3 px above the unit's top edge
        places = place_labels([((ax, ay + 11), wh) for _, (ax, ay), _, _, _, wh in jobs],
                              (bounds.x, bounds.y, bounds.w, bounds.h), taken=taken,
                              soft=models, soft_weight=1.0)
        for (s, _, col, marks, widths, _), p in zip(jobs, places, strict=True):
            _unit_label(surface, s, col, marks, widths, p, size)
            placed_out.append(p.box)
    return placed_out


def _unit_label(surface: pygame.Surface, s: str, col: Colour,
                marks: list[tuple[str, str]], widths: list[int], p: Placed, size: int) -> None:
    """A unit's label in its box at ``p`` (a leader line to the unit when moved off its
    place), followed by its badges."""
    x, y, w, h = p.box
    if p.leader:
        leader(surface, p)
    back = pygame.Surface((round(w), round(h)), pygame.SRCALPHA)
    back.fill((*shade(col, 0.35), 200))
    surface.blit(back, (round(x), round(y)))
    r = text(surface, s, (x + 4, y + 1), size=size)
    bx = r.right + 6
    for (code, tone), bw in zip(marks, widths, strict=True):
        box = pygame.Rect(round(bx), r.y, bw, r.h)
        pygame.draw.rect(surface, BADGE_COLOURS.get(tone, BADGE_COLOURS["done"]), box,
                         border_radius=3)
        text(surface, code, box.center, size=10, bold=True, anchor="center")
        bx += bw + 2


def leader(surface: pygame.Surface, p: Placed) -> pygame.Rect:
    """A line from a label's anchor to the nearest point of its box; the rect touched."""
    x, y, w, h = p.box
    ax, ay = p.anchor
    near = (min(max(ax, x), x + w), min(max(ay, y), y + h))
    r = pygame.draw.line(surface, (0, 0, 0), p.anchor, near, 3)
    pygame.draw.line(surface, (230, 230, 230), p.anchor, near, 1)
    return r


def model_boxes(state: GameState, vp: Viewport, *, units: Iterable[str] | None = None,
                hidden: frozenset[str] = frozenset()) -> list[tuple[float, float, float, float]]:
    """The screen boxes ``(x, y, w, h)`` of the placed models (of ``units`` only, if given;
    t9a blocks as a whole): what labels keep off."""
    keep = set(units) if units is not None else None
    out = []
    for unit in state.units:
        if keep is not None and unit.id not in keep:
            continue
        if isinstance(unit, Block):
            x0, y0, x1, y1 = block_geom(unit).polygon.bounds
            (px0, py0), (px1, py1) = vp.to_px(x0, y0), vp.to_px(x1, y1)
            out.append((px0, py0, px1 - px0, py1 - py0))
            continue
        for m in unit.models:
            if m.at is None or m.id in hidden:
                continue
            cx, cy = vp.to_px(*m.at)
            r = vp.length(m.base.radius)
            out.append((cx - r, cy - r, 2 * r, 2 * r))
    return out


def _draw_model(surface: pygame.Surface, vp: Viewport, m: Model, col: Colour, *,
                selected: bool = False, outlined: bool = False, alpha: int = 255) -> None:
    assert m.at is not None
    pts = base_outline_px(vp, m.base, m.at, m.facing)
    fill = shade(col, 1.18) if selected else col
    if alpha < 255:
        fill_polygon_alpha(surface, pts, (*fill, alpha))
    else:
        pygame.draw.polygon(surface, fill, pts)
    edge = (250, 250, 250) if selected else shade(col, 0.45)
    outline(surface, pts, edge, 2 if selected else 1)
    if outlined:
        outline(surface, pts, VIOLATION, 3)
    assert m.at is not None
    _facing_tick(surface, vp, m.base, m.at, m.facing, shade(col, 1.6))


@cache
def _front_extent(base: Footprint) -> float:
    """How far the footprint reaches forwards from its centre (its radius for a round base)."""
    if base.is_round:
        return base.radius
    return float(max(-y for _, y in base.local_polygon(segments=16).exterior.coords))


def _facing_tick(surface: pygame.Surface, vp: Viewport, base: Footprint, at: Pt, facing: float,
                 colour: Colour) -> pygame.Rect:
    rad = math.radians(facing)
    fx, fy = math.sin(rad), -math.cos(rad)
    r = _front_extent(base)
    if vp.length(r) < 3:
        return pygame.Rect(0, 0, 0, 0)
    a = vp.to_px(at[0] + fx * r * 0.35, at[1] + fy * r * 0.35)
    b = vp.to_px(at[0] + fx * r * 0.92, at[1] + fy * r * 0.92)
    return pygame.draw.line(surface, colour, a, b, 2 if vp.length(r) > 8 else 1)


def draw_board(surface: pygame.Surface, state: GameState, vp: Viewport, *,
               overlays: Overlays | None = None, grid: bool = False, labels: bool = True) -> None:
    """Draw the whole board and its overlays on ``surface``."""
    ov = overlays or Overlays()
    draw_static(surface, state, vp, grid=grid)
    if ov.zone is not None:
        draw_zone(surface, ov.zone, vp, fill=ov.zone_colour)
    outlined = frozenset(m for mark in ov.marks if not mark.outlines for m in mark.models)
    bf = state.battlefield
    (x0, y0), (x1, y1) = vp.to_px(0, 0), vp.to_px(bf.width, bf.depth)
    on_board = pygame.Rect(round(x0), round(y0), round(x1 - x0), round(y1 - y0)).clip(
        surface.get_rect())
    boxes = draw_models(surface, state, vp, hidden=ov.hidden_models,
                        selected_unit=ov.selected_unit, labels=labels, outlined=outlined,
                        label_bounds=on_board, taken=ov.taken_labels)
    # the overlays' readouts keep off the unit labels and the models they are about
    moving = model_boxes(state, vp, units=[ov.selected_unit]) if ov.selected_unit else []
    draw_overlays(surface, state, vp, replace(
        ov, label_avoid=[*ov.label_avoid, *boxes, *moving],
        label_bounds=ov.label_bounds or (on_board.x, on_board.y, on_board.w, on_board.h)),
        zone=False)


def draw_zone(surface: pygame.Surface, geom: BaseGeometry, vp: Viewport, *,
              fill: RGBA = ZONE_FILL, edge: Colour = ZONE_EDGE) -> None:
    """Shade a (multi)polygon with holes, translucent, with an outline."""
    surface.blit(zone_surface(geom, vp, surface.get_size(), fill=fill, edge=edge), (0, 0))


def zone_surface(geom: BaseGeometry, vp: Viewport, size: tuple[int, int], *,
                 fill: RGBA = ZONE_FILL, edge: Colour | None = ZONE_EDGE) -> pygame.Surface:
    """A transparent surface of ``size`` with ``geom`` shaded: cache it while dragging."""
    surf = pygame.Surface(size, pygame.SRCALPHA)
    paint_geometry(surf, geom, vp, fill, (0, 0, 0, 0))
    if edge is not None:
        for poly in polygons(geom):
            for ring in (poly.exterior, *poly.interiors):
                pts = to_pixels(vp, ring.coords[:-1])
                if len(pts) >= 2:
                    pygame.draw.aalines(surf, edge, True, pts)
    return surf


ZONE_AA = 2
"""Anti-aliasing factor of the window's shaded areas: drawn at this many times the resolution
over their own bounding box, then smooth-scaled down."""


def zone_sprite(geom: BaseGeometry | None, vp: Viewport, clip: pygame.Rect, *,
                fill: RGBA = ZONE_FILL, edge: Colour | None = ZONE_EDGE,
                aa: int = ZONE_AA) -> tuple[pygame.Surface, tuple[int, int]] | None:
    """``geom`` shaded with anti-aliased edges, as a small surface and where to blit it.

    Only the part of the geometry's bounding box inside ``clip`` (the board on screen) is
    drawn, at ``aa`` times the resolution, then scaled down smoothly; the transparent pixels
    carry the fill's colour, so edges blend without a dark fringe. ``None`` when nothing of it
    shows. The pictures of ``tabletop show`` and the zone goldens keep :func:`zone_surface`.
    """
    if geom is None or geom.is_empty:
        return None
    minx, miny, maxx, maxy = geom.bounds
    x0, y0 = vp.to_px(minx, miny)
    x1, y1 = vp.to_px(maxx, maxy)
    box = pygame.Rect(math.floor(x0) - 2, math.floor(y0) - 2, math.ceil(x1 - x0) + 5,
                      math.ceil(y1 - y0) + 5).clip(clip)
    if box.w <= 0 or box.h <= 0:
        return None
    big = pygame.Surface((box.w * aa, box.h * aa), pygame.SRCALPHA)
    clear = (*fill[:3], 0)
    big.fill(clear)
    hi = Viewport(scale=vp.scale * aa, ox=(vp.ox - box.x) * aa, oy=(vp.oy - box.y) * aa)
    paint_geometry(big, geom, hi, fill, clear)
    if edge is not None:
        for poly in polygons(geom):
            for ring in (poly.exterior, *poly.interiors):
                pts = to_pixels(hi, ring.coords[:-1])
                if len(pts) >= 2:
                    pygame.draw.lines(big, edge, True, pts, aa)
    small = pygame.transform.smoothscale(big, box.size)
    if pygame.display.get_surface() is not None:
        small = small.convert_alpha()
    return small, box.topleft


def paint_geometry(surf: pygame.Surface, geom: BaseGeometry, vp: Viewport,
                   fill: Sequence[int], hole: Sequence[int]) -> None:
    """Fill polygons, punching holes with ``hole`` (drawing replaces pixels, it does not blend).

    Largest polygons first, so an island inside another polygon's hole is painted after the hole.
    """
    polys = sorted(polygons(geom), key=lambda p: -p.area)
    for poly in polys:
        ext = to_pixels(vp, poly.exterior.coords[:-1])
        if len(ext) >= 3:
            pygame.draw.polygon(surf, fill, ext)
        for ring in poly.interiors:
            pts = to_pixels(vp, ring.coords[:-1])
            if len(pts) >= 3:
                pygame.draw.polygon(surf, hole, pts)


def draw_overlays(surface: pygame.Surface, state: GameState, vp: Viewport, ov: Overlays, *,
                  zone: bool = True) -> list[pygame.Rect]:
    """Draw the overlays (zone, engagement ranges, ghosts, path, marks, ruler); the rects
    touched, one per overlay."""
    rects: list[pygame.Rect] = []
    if zone and ov.zone is not None:
        draw_zone(surface, ov.zone, vp, fill=ov.zone_colour)
        rects.append(surface.get_rect())
    if ov.engagement_player is not None:
        draw_engagement(surface, state, vp, ov.engagement_player)
        rects.append(surface.get_rect())
    for g in ov.ghosts:
        rects.append(draw_ghost(surface, vp, g))
    r = surface.get_rect()
    bounds = ov.label_bounds or (r.x, r.y, r.w, r.h)
    if ov.path is not None and len(ov.path.points) >= 2:
        rects.append(draw_path(surface, vp, ov.path, bounds=bounds, avoid=ov.label_avoid))
    for mark in ov.marks:
        rects.append(draw_mark(surface, state, vp, mark))
    if ov.ruler is not None:
        a, b, label = ov.ruler
        rects.append(draw_ruler(surface, vp, a, b, label, bounds=bounds, avoid=ov.label_avoid))
    return rects


def _placed_text(surface: pygame.Surface, s: str, anchor: Pt, bounds: tuple[float, ...],
                 avoid: Sequence[tuple[float, float, float, float]], *, colour: Colour = TEXT,
                 size: int = 14) -> pygame.Rect:
    """A bold boxed readout by ``anchor``, placed inside ``bounds`` and off ``avoid``
    (:func:`~tabletop.view.labels.place_labels`), with a leader line when moved off its first
    place; the rect touched."""
    f = font(size, bold=True)
    w, h = f.size(s)[0] + 8, f.get_height() + 2
    (p,) = place_labels([(anchor, (w, h))], bounds, avoid)  # type: ignore[arg-type]
    x, y, _, _ = p.box
    rects = [leader(surface, p)] if p.leader else []
    rects.append(text(surface, s, (x + w / 2, y + h - 1), size=size, bold=True, colour=colour,
                      anchor="midbottom", box=(0, 0, 0, 200)).inflate(10, 4))
    return union_rects(rects)


def draw_ghost(surface: pygame.Surface, vp: Viewport, g: Ghost) -> pygame.Rect:
    """A model drawn where it would go (white outline when legal, magenta when not)."""
    col = PLAYER_COLOURS[g.player_index % len(PLAYER_COLOURS)]
    pts = base_outline_px(vp, g.base, g.at, g.facing)
    return union_rects((fill_polygon_alpha(surface, pts, (*shade(col, 1.3), 200)),
                        outline(surface, pts, (255, 255, 255) if g.legal else VIOLATION, 2),
                        _facing_tick(surface, vp, g.base, g.at, g.facing, (255, 255, 255))))


def draw_ruler(surface: pygame.Surface, vp: Viewport, a: Pt, b: Pt, label: str, *,
               bounds: tuple[float, float, float, float] | None = None,
               avoid: Sequence[tuple[float, float, float, float]] = ()) -> pygame.Rect:
    """The measuring tape from ``a`` to ``b`` (inches) with its label by its middle (inside
    ``bounds``, off ``avoid``)."""
    pa, pb = vp.to_px(*a), vp.to_px(*b)
    rects = [pygame.draw.line(surface, (20, 20, 20), pa, pb, 4),
             pygame.draw.line(surface, (255, 230, 80), pa, pb, 2)]
    rects += [pygame.draw.circle(surface, (255, 230, 80), p, 4) for p in (pa, pb)]
    mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
    r = surface.get_rect()
    rects.append(_placed_text(surface, label, mid, bounds or (r.x, r.y, r.w, r.h), avoid))
    return union_rects(rects)


def draw_engagement(surface: pygame.Surface, state: GameState, vp: Viewport,
                    player: str, *, distance: float | None = None) -> None:
    """Outline the engagement range (``distance`` around each base) of ``player``'s models."""
    col = shade(player_colour(state, player), 1.4)
    ranges = engagement_geometry(state, player, distance=distance)
    surface.blit(zone_surface(ranges, vp, surface.get_size(), fill=(*col, 36), edge=col), (0, 0))


def engagement_geometry(state: GameState, player: str, *,
                        distance: float | None = None) -> BaseGeometry:
    """The union of the engagement ranges of ``player``'s models (for drawing; the ruleset's
    :attr:`~tabletop.rules.ruleset.Ruleset.engagement_range` unless ``distance`` is given)."""
    if distance is None:
        distance = rulesets.of(state).engagement_range or 0.0
    rings = [model_polygon(m).buffer(distance, quad_segs=8)
             for unit, m in state.placed_models() if unit.player == player]
    return shapely.union_all(rings) if rings else Polygon()


def draw_path(surface: pygame.Surface, vp: Viewport, path: PathOverlay, *,
              bounds: tuple[float, float, float, float] | None = None,
              avoid: Sequence[tuple[float, float, float, float]] = ()) -> pygame.Rect:
    """Draw a path with a length label (``4.7" / 9"``) by its end (inside ``bounds``, off
    ``avoid``: the moving unit's models); the rect touched."""
    pts = to_pixels(vp, path.points)
    rects = [pygame.draw.lines(surface, (0, 0, 0), False, pts, 5),
             pygame.draw.lines(surface, PATH, False, pts, 2)]
    rects += [pygame.draw.circle(surface, PATH, p, 3) for p in pts[1:-1]]
    label = f'{path.length:.1f}"' + (f' / {_inches(path.cap)}' if path.cap is not None else "")
    over = path.cap is not None and path.length > path.cap + 1e-6
    r = surface.get_rect()
    rects.append(_placed_text(surface, label, pts[-1], bounds or (r.x, r.y, r.w, r.h), avoid,
                              colour=(255, 120, 120) if over else TEXT, size=15))
    return union_rects(rects)


def _inches(v: float) -> str:
    return f'{v:g}"' if abs(v - round(v, 1)) < 1e-9 else f'{v:.1f}"'


def draw_mark(surface: pygame.Surface, state: GameState, vp: Viewport, mark: Mark, *,
              label: bool = True) -> pygame.Rect:
    """Draw a failed condition: its geometry, its models outlined and (with ``label``) its
    label; the rect touched. The window places labels itself (:func:`mark_anchor`), so that
    they do not pile up."""
    geom = mark.geometry
    rects: list[pygame.Rect] = []
    if geom is not None and not geom.is_empty:
        if geom.geom_type in ("LineString", "MultiLineString"):
            for g in getattr(geom, "geoms", [geom]):
                pts = to_pixels(vp, g.coords)
                if len(pts) >= 2:
                    rects.append(pygame.draw.lines(surface, (0, 0, 0), False, pts, 5))
                    pygame.draw.lines(surface, VIOLATION, False, pts, 3)
        elif geom.geom_type == "Point":
            rects.append(pygame.draw.circle(surface, VIOLATION, vp.to_px(geom.x, geom.y), 5))
        else:
            for poly in polygons(geom):
                pts = to_pixels(vp, poly.exterior.coords[:-1])
                rects.append(fill_polygon_alpha(surface, pts, (*VIOLATION, 60)))
                rects.append(outline(surface, pts, VIOLATION, 2))
    for poly in mark.outlines:
        for part in polygons(poly):
            rects.append(outline(surface, to_pixels(vp, part.exterior.coords[:-1]), VIOLATION, 3))
    for mid in () if mark.outlines else mark.models:
        try:
            _, m = state.model(mid)
        except KeyError:
            continue
        if m.at is not None:
            pts = to_pixels(vp, model_polygon(m).exterior.coords[:-1])
            rects.append(outline(surface, pts, VIOLATION, 3))
    if label and mark.label:
        at = mark_anchor(state, mark)
        if at is not None:
            px, py = vp.to_px(*at)
            rects.append(draw_label(surface, mark.label, (px, py - 10)))
    return union_rects(rects)


MARK_LABEL_COLOUR = (255, 200, 240)
MARK_LABEL_BOX: RGBA = (40, 0, 30, 210)


def draw_label(surface: pygame.Surface, s: str, pos: Pt, *,
               anchor: str = "midbottom") -> pygame.Rect:
    """A refusal's label (a distance, a rule) in its boxed style; the rect touched."""
    return text(surface, s, pos, size=13, bold=True, colour=MARK_LABEL_COLOUR, anchor=anchor,
                box=MARK_LABEL_BOX).inflate(8, 2)


def label_size(s: str) -> tuple[int, int]:
    """The size in pixels of :func:`draw_label`'s box for ``s``."""
    w, h = font(13, bold=True).size(s)
    return w + 8, h + 2


def mark_anchor(state: GameState, mark: Mark) -> Pt | None:
    """Where a mark's label belongs (inches): by the offending model (its first), on the part
    of its base the failed rule is about.

    The mark's point when it has one; the middle of a segment (between the closest points of a
    pair: coherency, engagement); where the model's base overlaps the geometry (another base,
    terrain, an engagement area, the area a turn sweeps); else the point of its base nearest
    the geometry (the battlefield's edge for a base that would stick off it, a transport a
    model must be set up near). Without a model on the board, a point on the geometry.
    """
    if mark.at is not None:
        return mark.at
    geom = mark.geometry
    model = _first_placed(state, mark.models)
    if geom is None or geom.is_empty:
        return model.at if model is not None else None
    if geom.geom_type == "LineString":
        p = geom.interpolate(0.5, normalized=True)
        return (p.x, p.y)
    if model is None:
        p = geom.representative_point()
        return (p.x, p.y)
    foot = model.footprint
    if geom.geom_type == "LinearRing":  # a boundary: the part of the base outside it
        outside = foot.difference(Polygon(geom))
        if outside.area > 1e-9:
            p = outside.representative_point()
            return (p.x, p.y)
    elif geom.area > 0.0 and geom.intersects(foot):
        part = geom.intersection(foot)
        if part.area > 1e-9:
            p = part.representative_point()
            return (p.x, p.y)
    p = nearest_points(foot, geom)[0]
    return (p.x, p.y)


def _first_placed(state: GameState, ids: Sequence[str]) -> Model | None:
    """The first of ``ids`` that is a model on the battlefield (others: terrain, gone)."""
    for mid in ids:
        try:
            m = state.model(mid)[1]
        except KeyError:
            continue
        if m.at is not None:
            return m
    return None


def render_board(state: GameState, *, size: tuple[int, int] | None = None,
                 viewport: Viewport | None = None, overlays: Overlays | None = None,
                 grid: bool = False, labels: bool = True, title: bool = True,
                 caption: str = "") -> pygame.Surface:
    """A new surface with the whole board, fitted to ``size`` (default 20 px per inch);
    ``caption`` follows the scenario's name in the title (what an overlay shows)."""
    bf = state.battlefield
    if size is None:
        size = (round(bf.width * 20 + 40), round(bf.depth * 20 + 40 + (28 if title else 0)))
    surf = pygame.Surface(size)
    top = 28 if title else 0
    vp = viewport or Viewport.fit(bf.width, bf.depth, (0, top, size[0], size[1] - top),
                                  margin=20)
    draw_board(surf, state, vp, overlays=overlays, grid=grid, labels=labels)
    if title:
        b = state.battle
        to_play = next((p.name for p in state.players if p.id == b.active_player and p.name),
                       b.active_player)  # the player's name where the file gives one
        head = (f"{state.name}  ·  {state.ruleset}  ·  round {b.round}, {b.phase}, "
                f"{to_play} to play") + (f"  ·  {caption}" if caption else "")
        x = size[0] - 20
        for i, p in reversed(list(enumerate(state.players))):
            r = text(surf, f"{p.name or p.id}: {p.cp} CP", (x, 7), size=14,
                     colour=shade(PLAYER_COLOURS[i % 2], 1.5), anchor="topright")
            x = r.left - 16
        text(surf, fit_text(head, x - 20, size=15, bold=True), (20, 6), size=15, bold=True)
    return surf

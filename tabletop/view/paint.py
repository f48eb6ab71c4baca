"""Drawing primitives of the board (:mod:`tabletop.view.render`): colours and styles, fonts and
text, the overlay values, pixel conversion, filled and outlined polygons, base outlines, PNGs."""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import pygame
from shapely.geometry import MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.files import atomic_write
from tabletop.geometry.footprints import Footprint, parse_base
from tabletop.state import Block, GameState, Model, Unit
from tabletop.view.viewport import Viewport

Colour = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Pt = tuple[float, float]


OBJECTIVE_DIAMETER_MM = 40.0
"""Objective markers are 40 mm across."""

DRAW_SEGMENTS = 64
"""Vertices of the (circumscribed) polygon drawn for a round or oval base."""

# -- palette ------------------------------------------------------------------------------------
TABLE = (38, 40, 44)
MAT = (108, 128, 92)
MAT_EDGE = (60, 70, 52)
GRID = (122, 142, 106)
GRID_MAJOR = (134, 154, 118)
TEXT = (236, 236, 230)
TEXT_DARK = (24, 24, 24)
OBJECTIVE = (232, 196, 72)
PLAYER_COLOURS: tuple[Colour, ...] = ((196, 58, 48), (52, 104, 196))
ZONE_FILL: RGBA = (255, 245, 120, 84)
ZONE_EDGE = (255, 240, 90)
PATH = (255, 255, 255)
VIOLATION = (255, 64, 200)
PICKED = (120, 230, 255)
"""Ring of a model picked (Ctrl+click or a box) to be dragged with others."""
SETUP_FILL: RGBA = (120, 255, 200, 70)

TERRAIN_STYLE: dict[str, tuple[RGBA, Colour, int]] = {
    # kind: (fill with alpha, outline, outline width)
    "area": ((150, 132, 90, 90), (178, 160, 112), 2),
    "light": ((196, 170, 120, 235), (120, 98, 60), 2),
    "dense": ((120, 86, 58, 245), (64, 44, 28), 2),
    "impassable": ((58, 58, 64, 255), (20, 20, 24), 3),
    "open": ((150, 132, 90, 90), (178, 160, 112), 2),
    "dangerous": ((150, 70, 60, 200), (96, 30, 24), 2),
}
TERRAIN_DEFAULT: tuple[RGBA, Colour, int] = ((140, 140, 140, 200), (80, 80, 80), 2)
FLOOR_STYLE: tuple[RGBA, Colour, int] = ((90, 66, 44, 70), (236, 222, 190), 1)
"""An upper floor (``state.floors``): a faint fill and a thin pale dashed outline, over the
walls; a roofed feature's floor is hatched. No effect on movement."""


# -- fonts --------------------------------------------------------------------------------------
@cache
def _font_bytes(name: str) -> bytes:
    return resources.files("tabletop.view").joinpath("assets", name).read_bytes()


_FONTS: dict[tuple[int, bool], pygame.font.Font] = {}


def font(size: int, *, bold: bool = False) -> pygame.font.Font:
    """The shipped DejaVu Sans at ``size`` pixels (cached)."""
    key = (size, bold)
    if key not in _FONTS:
        if not pygame.font.get_init():
            pygame.font.init()
        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        _FONTS[key] = pygame.font.Font(io.BytesIO(_font_bytes(name)), size)
    return _FONTS[key]


def text(surface: pygame.Surface, s: str, pos: Pt, *, size: int = 13, colour: Colour = TEXT,
         bold: bool = False, anchor: str = "topleft", box: RGBA | None = None) -> pygame.Rect:
    """Draw ``s`` at ``pos`` (``anchor`` is a pygame.Rect attribute name); return its rect."""
    img = font(size, bold=bold).render(s, True, colour)
    rect = img.get_rect(**{anchor: (round(pos[0]), round(pos[1]))})
    if box is not None:
        back = pygame.Surface((rect.w + 8, rect.h + 2), pygame.SRCALPHA)
        back.fill(box)
        surface.blit(back, (rect.x - 4, rect.y - 1))
    surface.blit(img, rect)
    return rect


# -- overlays -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class PathOverlay:
    """A path to draw: its points in inches, its length and the move's cap."""

    points: tuple[Pt, ...]
    length: float
    cap: float | None = None


@dataclass(frozen=True)
class Mark:
    """Something to point out on the board (a failed rule): geometry, models, a label."""

    label: str = ""
    geometry: BaseGeometry | None = None
    models: tuple[str, ...] = ()
    at: Pt | None = None
    outlines: tuple[BaseGeometry, ...] = ()
    """Footprints to outline where they failed (instead of the models' current places)."""
    pair: tuple[str, ...] = ()
    """The models (or model and terrain) the label is about: one label per pair is drawn."""
    kind: str = ""
    """The rule it reports (labels of one kind collapse into one when there are many)."""
    value: float | None = None
    """The distance measured, inches."""
    limit: float | None = None
    """The distance the rule allows or demands, inches."""


@dataclass(frozen=True)
class Ghost:
    """A model drawn where it would go: footprint shape, position and facing."""

    base: Footprint
    at: Pt
    facing: float
    player_index: int
    legal: bool = True


@dataclass
class Overlays:
    """Everything drawn over the board besides the state itself."""

    zone: BaseGeometry | None = None
    zone_colour: RGBA = ZONE_FILL
    path: PathOverlay | None = None
    ghosts: list[Ghost] = field(default_factory=list)
    marks: list[Mark] = field(default_factory=list)
    selected_unit: str | None = None
    hidden_models: frozenset[str] = frozenset()
    engagement_player: str | None = None
    """Draw the engagement ranges of this player's models."""
    ruler: tuple[Pt, Pt, str] | None = None
    hover_model: str | None = None
    label_avoid: list[tuple[float, float, float, float]] = field(default_factory=list)
    """Screen boxes the path's and the ruler's labels keep off (the moving unit's models)."""
    label_bounds: tuple[float, float, float, float] | None = None
    """Where those labels must stay (the board on screen); the surface without it."""
    taken_labels: list[tuple[float, float, float, float]] = field(default_factory=list)
    """Screen boxes of labels placed first (a picture's own): the unit labels keep off them."""


# -- helpers ------------------------------------------------------------------------------------
def player_colour(state: GameState, player_id: str) -> Colour:
    """The colour of ``player_id``: red for the first player, blue for the second."""
    for i, p in enumerate(state.players):
        if p.id == player_id:
            return PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
    return (160, 160, 160)


def shade(c: Colour, f: float) -> Colour:
    """``c`` lightened towards white (``f > 1``) or darkened towards black (``f < 1``)."""
    if f >= 1.0:
        return (min(255, int(c[0] + (255 - c[0]) * (f - 1))),
                min(255, int(c[1] + (255 - c[1]) * (f - 1))),
                min(255, int(c[2] + (255 - c[2]) * (f - 1))))
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f))


def to_pixels(vp: Viewport, pts: Iterable[Sequence[float]]) -> list[Pt]:
    """``pts`` (inches) in pixels of ``vp``."""
    return [vp.to_px(float(p[0]), float(p[1])) for p in pts]


def polygons(geom: BaseGeometry | None) -> list[Polygon]:
    """The polygons of ``geom`` (none for ``None``, an empty geometry, points or lines)."""
    if geom is None or geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, MultiPolygon):
        return list(geom.geoms)
    if hasattr(geom, "geoms"):
        out: list[Polygon] = []
        for g in geom.geoms:
            out.extend(polygons(g))
        return out
    return []


def union_rects(rects: Iterable[pygame.Rect | None]) -> pygame.Rect:
    """The rectangle around every non-empty rectangle of ``rects`` (an empty one at (0, 0)
    without any): what a drawing call touched, for partial screen updates."""
    real = [r for r in rects if r is not None and r.w > 0 and r.h > 0]
    if not real:
        return pygame.Rect(0, 0, 0, 0)
    return real[0].unionall(real[1:])


def fill_polygon_alpha(surface: pygame.Surface, pts: list[Pt], rgba: RGBA) -> pygame.Rect:
    """Fill a polygon with a translucent colour (blended onto ``surface``); the rect touched."""
    if len(pts) < 3:
        return pygame.Rect(0, 0, 0, 0)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, y0 = math.floor(min(xs)), math.floor(min(ys))
    w, h = math.ceil(max(xs)) - x0 + 1, math.ceil(max(ys)) - y0 + 1
    clip = surface.get_clip()
    if w <= 0 or h <= 0 or not clip.colliderect((x0, y0, w, h)):
        return pygame.Rect(0, 0, 0, 0)
    if rgba[3] >= 255:
        return pygame.draw.polygon(surface, rgba[:3], pts)
    tmp = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.polygon(tmp, rgba, [(x - x0, y - y0) for x, y in pts])
    return surface.blit(tmp, (x0, y0))


def outline(surface: pygame.Surface, pts: list[Pt], colour: Colour,
            width: int = 1) -> pygame.Rect:
    """A closed outline through ``pts`` (anti-aliased when ``width`` is 1); the rect touched."""
    if len(pts) < 2:
        return pygame.Rect(0, 0, 0, 0)
    if width <= 1:
        return pygame.draw.aalines(surface, colour, True, pts)
    return pygame.draw.lines(surface, colour, True, pts, width)


@cache
def _local_ring(base: Footprint, facing: float) -> np.ndarray:
    """The outline of ``base`` turned by ``facing``, about the origin (inches, cached)."""
    poly = base.placed(0.0, 0.0, facing, segments=DRAW_SEGMENTS)
    return np.asarray(poly.exterior.coords[:-1], dtype=float)


def base_outline_px(vp: Viewport, base: Footprint, at: Sequence[float],
                    facing: float) -> list[Pt]:
    """The outline of a base placed at ``at`` with ``facing``, in pixels (fast, cached shape)."""
    ring = _local_ring(base, float(facing) % 360.0)
    xs = vp.ox + (ring[:, 0] + at[0]) * vp.scale
    ys = vp.oy + (ring[:, 1] + at[1]) * vp.scale
    return list(zip(xs.tolist(), ys.tolist(), strict=True))


def model_polygon(model: Model) -> Polygon:
    assert model.at is not None
    return model.base.placed(model.at[0], model.at[1], model.facing, segments=DRAW_SEGMENTS)


def fit_text(s: str, width: int, *, size: int = 13, bold: bool = False) -> str:
    """``s``, shortened with an ellipsis so that it is at most ``width`` pixels wide."""
    f = font(size, bold=bold)
    if f.size(s)[0] <= width:
        return s
    while s and f.size(s + "…")[0] > width:
        s = s[:-1]
    return s.rstrip(" ·,") + "…" if s else ""


def wrap_text(s: str, width: int, *, size: int = 13, bold: bool = False) -> list[str]:
    """``s`` broken at spaces into lines of at most ``width`` pixels (a word wider than that
    is cut with an ellipsis): nothing of it is left out."""
    f = font(size, bold=bold)
    out: list[str] = []
    line = ""
    for word in s.split():
        trial = f"{line} {word}" if line else word
        if line and f.size(trial)[0] > width:
            out.append(line)
            line = word
        else:
            line = trial
        if f.size(line)[0] > width:
            out.append(fit_text(line, width, size=size, bold=bold))
            line = ""
    if line:
        out.append(line)
    return out


# -- the zone layer (deterministic) -------------------------------------------------------------


def surface_array(surface: pygame.Surface) -> np.ndarray:
    """The pixels of ``surface`` as a ``(height, width, 3)`` uint8 array."""
    return np.ascontiguousarray(pygame.surfarray.array3d(surface).transpose(1, 0, 2))


def save_png(surface: pygame.Surface, out: str | os.PathLike[str]) -> Path:
    """Save ``surface`` as a PNG at ``out`` (:func:`~tabletop.files.atomic_write`: the folder
    must exist, as for every file the program writes; ``UserError`` if it cannot be written)."""
    target = Path(out)
    buf = io.BytesIO()
    pygame.image.save(surface, buf, "picture.png")
    return atomic_write(target, buf.getvalue())


def unit_base(unit: Unit | Block) -> Footprint:
    """A representative base of ``unit`` (for legends)."""
    if isinstance(unit, Block):
        return unit.base
    return unit.models[0].base if unit.models else parse_base("32mm")

"""Drawing t9a-2 blocks being moved: the ghost of a block where a manoeuvre would put it, its
limit, the handles the block-drag tool grabs, and what is near it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pygame

from tabletop.geometry.blocks import BlockGeom
from tabletop.view.render import (
    PATH,
    TEXT_DARK,
    VIOLATION,
    ZONE_EDGE,
    Colour,
    Pt,
    dashed_polygon,
    draw_label,
    shade,
    text,
    to_pixels,
    union_rects,
)
from tabletop.view.viewport import Viewport

__all__ = [
    "END_WARN",
    "HANDLE",
    "block_outline_px",
    "draw_block_ghost",
    "draw_block_handles",
    "draw_block_limit",
    "draw_near",
    "draw_polyline",
]

HANDLE = (255, 226, 110)

END_WARN = (255, 170, 60)
"""Outline of a ghost that may be staged but may not end the move there (the 1" rule)."""


def block_outline_px(vp: Viewport, geom: BlockGeom) -> list[Pt]:
    """The unit boundary of ``geom`` in pixels."""
    return to_pixels(vp, geom.polygon.exterior.coords[:-1])


def draw_block_ghost(surface: pygame.Surface, vp: Viewport, geom: BlockGeom, colour: Colour, *,
                     edge: Colour = (255, 255, 255), alpha: int = 150) -> pygame.Rect:
    """A block drawn where it would go: every base translucent, its boundary in ``edge``; the
    rect touched."""
    outline = block_outline_px(vp, geom)
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    x0, y0 = math.floor(min(xs)) - 2, math.floor(min(ys)) - 2
    w, h = math.ceil(max(xs)) - x0 + 3, math.ceil(max(ys)) - y0 + 3
    if w > 0 and h > 0 and surface.get_clip().colliderect((x0, y0, w, h)):
        tmp = pygame.Surface((w, h), pygame.SRCALPHA)
        fill = (*shade(colour, 1.3), alpha)
        line = (*shade(colour, 0.5), min(alpha + 60, 255))
        for poly in geom.model_polygons():
            pts = [(x - x0, y - y0) for x, y in to_pixels(vp, poly.exterior.coords[:-1])]
            pygame.draw.polygon(tmp, fill, pts)
            pygame.draw.polygon(tmp, line, pts, 1)
        surface.blit(tmp, (x0, y0))
    r = pygame.draw.lines(surface, (0, 0, 0), True, outline, 4)
    pygame.draw.lines(surface, edge, True, outline, 2)
    fx, fy = geom.forward
    mid = geom.to_world(0.0, geom.depth / 2)
    tip = (mid[0] + fx * 0.8, mid[1] + fy * 0.8)
    return r.union(pygame.draw.line(surface, edge, vp.to_px(*mid), vp.to_px(*tip), 2))


def draw_block_limit(surface: pygame.Surface, vp: Viewport, geom: BlockGeom,
                     colour: Colour = ZONE_EDGE) -> pygame.Rect:
    """A dashed outline of the block at the end of its legal range; the rect it covers."""
    pts = block_outline_px(vp, geom)
    dashed_polygon(surface, pts, colour, 1, dash=5.0)
    return _bounds_px(pts, 2)


def _bounds_px(pts: Sequence[Pt], margin: int) -> pygame.Rect:
    """The pixel rectangle around ``pts``, grown by ``margin``."""
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    x0, y0 = math.floor(min(xs)) - margin, math.floor(min(ys)) - margin
    return pygame.Rect(x0, y0, math.ceil(max(xs)) - x0 + margin + 1,
                       math.ceil(max(ys)) - y0 + margin + 1)


def draw_block_handles(surface: pygame.Surface, vp: Viewport, geom: BlockGeom,
                       points: dict[str, Pt], *, move: bool = True, reform: bool = False,
                       hover: str | None = None) -> pygame.Rect:
    """The handles of a selected block: front edge and front corners (move, wheel); the rotate
    and files handles (reform). ``hover`` is drawn brighter. The rect touched."""
    def col(name: str) -> Colour:
        return (255, 255, 255) if hover == name else HANDLE

    rects: list[pygame.Rect] = []
    if move:
        c = geom.corners
        a, b = vp.to_px(*c["fl"]), vp.to_px(*c["fr"])
        rects.append(pygame.draw.line(surface, (0, 0, 0), a, b, 6))
        pygame.draw.line(surface, col("move"), a, b, 3)
        for name in ("fl", "fr"):
            p = vp.to_px(*points[name])
            rects.append(pygame.draw.circle(surface, (0, 0, 0), p, 8))
            pygame.draw.circle(surface, col(name), p, 6)
            pygame.draw.circle(surface, (0, 0, 0), p, 2)
    if reform:
        front = vp.to_px(*points["front"])
        rot = vp.to_px(*points["rotate"])
        rects.append(pygame.draw.line(surface, col("rotate"), front, rot, 2))
        rects.append(pygame.draw.circle(surface, (0, 0, 0), rot, 9))
        pygame.draw.circle(surface, col("rotate"), rot, 7, 3)
        fp = vp.to_px(*points["files"])
        r = pygame.Rect(0, 0, 13, 13)
        r.center = (round(fp[0]), round(fp[1]))
        rects.append(pygame.draw.rect(surface, (0, 0, 0), r.inflate(4, 4)))
        pygame.draw.rect(surface, col("files"), r)
        text(surface, "↔", r.center, size=11, colour=TEXT_DARK, anchor="center", bold=True)
    return union_rects(rects)


def draw_near(surface: pygame.Surface, vp: Viewport, near: Iterable[object], *,
              gap: float = 1.0) -> pygame.Rect:
    """Lines from a ghost to everything it would end within ``gap`` of, with the distance; the
    rect touched."""
    rects: list[pygame.Rect] = []
    for n in near:
        a, b = getattr(n, "a"), getattr(n, "b")  # noqa: B009
        d = float(getattr(n, "distance"))  # noqa: B009
        pa, pb = vp.to_px(*a), vp.to_px(*b)
        rects.append(pygame.draw.line(surface, (0, 0, 0), pa, pb, 5))
        pygame.draw.line(surface, VIOLATION, pa, pb, 3)
        rects += [pygame.draw.circle(surface, VIOLATION, p, 4) for p in (pa, pb)]
        mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
        rects.append(draw_label(surface, f'{d:.2f}" ≤ {gap:g}"', (mid[0] + 8, mid[1]),
                                anchor="midleft"))
    return union_rects(rects)


def draw_polyline(surface: pygame.Surface, vp: Viewport, pts: Sequence[Pt],
                  colour: Colour = PATH) -> pygame.Rect:
    """A path with a black casing (the wheel's outer corner arc, a straight move's line); the
    rect touched."""
    if len(pts) < 2:
        return pygame.Rect(0, 0, 0, 0)
    px = to_pixels(vp, pts)
    r = pygame.draw.lines(surface, (0, 0, 0), False, px, 5)
    pygame.draw.lines(surface, colour, False, px, 2)
    return r

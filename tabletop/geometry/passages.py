"""Narrow passages between terrain pieces, and whether a base gets through each (``tabletop fit``).

A *passage* is the narrowest gap between two pieces that stop a moving model (or between a piece
and the battlefield's edge): its width is the distance between their closest points, its
*neck* the segment joining them. A convex footprint goes straight through a neck of width ``g``
at a facing exactly when its width across the neck at that facing is at most ``g``: the strip
of that width along the neck's crossing direction then keeps off both pieces (each lies beyond
the line through its closest point perpendicular to the neck), and a wider footprint would
touch them whatever its facing. The footprint's width across depends on its facing; the
roomiest facing puts its narrowest width across (a polygon's, exactly: its least width is
across one of its edges; an oval's is its short axis). Other pieces nearby can still close a
passage: :func:`passages` then sweeps the footprint straight through the neck at that facing
against every piece and says so.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import nearest_points

from tabletop.geometry.cspace import period, pieces_at
from tabletop.geometry.footprints import EXACT_SEGMENTS, Footprint, Oval, Round
from tabletop.geometry.tolerance import EPS, mm

__all__ = ["EDGES", "Passage", "least_width", "passages", "width_across"]

EDGES = ("top edge", "right edge", "bottom edge", "left edge")
"""Names of the battlefield's edges (``y = 0``, ``x = W``, ``y = H``, ``x = 0``)."""


@dataclass(frozen=True)
class Passage:
    """One passage and the base's answer.

    Attributes
    ----------
    between : (str, str)
        Terrain ids, or an edge name of :data:`EDGES`.
    width : float
        The gap, inches.
    neck : ((x, y), (x, y))
        The closest points of the two sides.
    passes : bool
        Whether the base goes straight through at :attr:`facing`.
    facing : float
        The roomiest facing (degrees): the base's narrowest width across the neck.
    needs : float
        The base's width across the neck at that facing (its least width).
    facings : (float, float) or None
        The range of facings at which it fits across the neck, from the first to the second
        turning clockwise (``None`` if none; spanning the base's whole period if every facing
        fits).
    blocked_by : str or None
        A piece that stops the straight crossing although the neck is wide enough.
    every_facing : bool
        Whether every facing fits across the neck.
    """

    between: tuple[str, str]
    width: float
    neck: tuple[tuple[float, float], tuple[float, float]]
    passes: bool
    facing: float
    needs: float
    facings: tuple[float, float] | None
    blocked_by: str | None = None
    every_facing: bool = False

    @property
    def spare(self) -> float:
        """Room left at the roomiest facing (negative: how much too narrow)."""
        return self.width - self.needs

    @property
    def middle(self) -> tuple[float, float]:
        """The middle of the neck."""
        (ax, ay), (bx, by) = self.neck
        return ((ax + bx) / 2, (ay + by) / 2)

    def to_json(self) -> dict[str, object]:
        """A JSON-able form."""
        return {"between": list(self.between), "width": round(self.width, 6),
                "neck": [[round(v, 6) for v in p] for p in self.neck], "passes": self.passes,
                "facing": round(self.facing, 3), "needs": round(self.needs, 6),
                "spare": round(self.spare, 6),
                "facings": None if self.facings is None else [round(f, 3) for f in self.facings],
                "every_facing": self.every_facing, "blocked_by": self.blocked_by}


def width_across(fp: Footprint, facing: float, direction: float) -> float:
    """The footprint's width at ``facing`` measured along ``direction`` (radians), exactly."""
    if isinstance(fp, Round):
        return 2 * fp.radius
    n = np.array([math.cos(direction), math.sin(direction)])
    if isinstance(fp, Oval):
        a, b = mm(fp.length_mm) / 2, mm(fp.width_mm) / 2
        f = math.radians(facing)
        u = np.array([math.cos(f), math.sin(f)])      # the oval's width axis (local x)
        v = np.array([-math.sin(f), math.cos(f)])     # its length axis (local y)
        return 2 * math.sqrt((b * float(n @ u)) ** 2 + (a * float(n @ v)) ** 2)
    pts = np.concatenate(pieces_at(fp, facing))
    proj = pts @ n
    return float(proj.max() - proj.min())


def least_width(fp: Footprint) -> tuple[float, float]:
    """The footprint's least width and the direction (radians, at facing 0) it is across."""
    if isinstance(fp, Round):
        return 2 * fp.radius, 0.0
    if isinstance(fp, Oval):
        return mm(min(fp.width_mm, fp.length_mm)), 0.0 if fp.width_mm <= fp.length_mm else \
            0.5 * math.pi
    pts = np.concatenate(pieces_at(fp, 0.0))
    hull = np.asarray(shapely.convex_hull(shapely.multipoints(pts)).exterior.coords)[:-1]
    e = np.roll(hull, -1, axis=0) - hull
    normals = np.arctan2(e[:, 0], -e[:, 1])
    widths = [width_across(fp, 0.0, float(a)) for a in normals]
    k = int(np.argmin(widths))
    return float(widths[k]), float(normals[k])


def _fits(fp: Footprint, direction: float, gap: float, best: float) -> tuple[float, float] | None:
    """The facings around ``best`` at which the width across ``direction`` is at most
    ``gap`` (to 0.1 degree, inside the true range; the whole period ``best - period / 2`` to
    ``best + period / 2`` if every facing fits), or ``None``."""
    if width_across(fp, best, direction) > gap + EPS:
        return None
    per = period(fp)
    lo = hi = best
    for sign in (-1.0, 1.0):
        step, f = 8.0, best
        while step >= 0.1:
            nxt = f + sign * step
            if abs(nxt - best) <= per / 2 and width_across(fp, nxt, direction) <= gap + EPS:
                f = nxt
            else:
                step /= 2
        if sign < 0:
            lo = f
        else:
            hi = f
    return (lo, hi)


def passages(width: float, height: float, pieces: Sequence[tuple[str, Polygon]],
             fp: Footprint, *, limit: float | None = None) -> list[Passage]:
    """Every passage narrower than ``limit`` (default: the base's circumscribed diameter plus
    1", wider ones let every facing through) between two of ``pieces`` (id and polygon) or a
    piece and the battlefield's edge, narrowest first, with the base's answer."""
    limit = 2 * fp.radius + 1.0 if limit is None else limit
    across0 = least_width(fp)[1]
    shapes = [(pid, shapely.make_valid(poly)) for pid, poly in pieces]
    board = box(0, 0, width, height)
    edges = [LineString([(0, 0), (width, 0)]), LineString([(width, 0), (width, height)]),
             LineString([(0, height), (width, height)]), LineString([(0, 0), (0, height)])]
    found: list[tuple[str, str, float, tuple[tuple[float, float], tuple[float, float]]]] = []
    for i, (ia, a) in enumerate(shapes):
        for ib, b in shapes[i + 1:]:
            d = float(a.distance(b))
            if 0 < d < limit:
                found.append((ia, ib, d, _neck(a, b, d)))
        for name, edge in zip(EDGES, edges, strict=True):
            d = float(a.distance(edge))
            if 0 < d < limit:
                found.append((ia, name, d, _neck(a, edge, d)))
    union = shapely.union_all([g for _, g in shapes]) if shapes else Polygon()
    out = []
    for ia, ib, d, neck in sorted(found, key=lambda t: t[2]):
        (px, py), (qx, qy) = neck
        across = math.atan2(qy - py, qx - px)
        # the roomiest facing turns the least width's direction onto the neck
        best = math.degrees(across - across0) % period(fp)
        needs = width_across(fp, best, across)
        fits = _fits(fp, across, d, best)
        blocked = None
        if fits is not None:
            blocked = _through(fp, best, neck, across, shapes, union, board)
        every = fits is not None and fits[1] - fits[0] >= period(fp) - 0.2
        out.append(Passage((ia, ib), d, neck, fits is not None and blocked is None, best,
                           needs, fits, blocked, every))
    return out


def _neck(a: BaseGeometry, b: BaseGeometry, d: float
          ) -> tuple[tuple[float, float], tuple[float, float]]:
    """The closest points of ``a`` and ``b``; where two faces are parallel (a whole stretch is
    closest), the middle of that stretch."""
    close = a.intersection(b.buffer(d + 1e-6, quad_segs=4))
    mid = close.centroid if not close.is_empty else nearest_points(a, b)[0]
    p = nearest_points(a, mid)[0]
    q = nearest_points(b, p)[0]
    return (p.x, p.y), (q.x, q.y)


def _through(fp: Footprint, facing: float, neck: tuple[tuple[float, float], ...],
             across: float, shapes: Sequence[tuple[str, object]], union: object,
             board: Polygon) -> str | None:
    """The first piece (or ``"battlefield edge"``) that stops the footprint moving straight
    through the neck's middle at ``facing``, from one footprint's length before it to one
    after; ``None`` when it is clear (contact allowed)."""
    (px, py), (qx, qy) = neck
    mx, my = (px + qx) / 2, (py + qy) / 2
    t = np.array([-math.sin(across), math.cos(across)])
    reach = fp.radius + 0.5
    a = np.array([mx, my]) - reach * t
    b = np.array([mx, my]) + reach * t
    segs = EXACT_SEGMENTS if isinstance(fp, Oval) else 256
    parts = []
    for piece in pieces_at(fp, facing, segs):
        c = np.concatenate([piece + a, piece + b])
        parts.append(shapely.convex_hull(shapely.multipoints(c)))
    sweep = shapely.union_all(parts)
    if not board.buffer(EPS, join_style="mitre").contains(sweep):
        return "battlefield edge"
    thin = sweep.buffer(-EPS, join_style="mitre")
    for pid, g in shapes:
        if thin.intersects(g):
            return str(pid)
    return None

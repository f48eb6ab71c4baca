"""Bases and hulls: parsing, placing and measuring footprints.

Conventions (scenario format 1): inches, ``x`` to the right, ``y`` down, facing in degrees
clockwise with 0 towards the top edge (``-y``). A footprint is described in the model's own
frame, facing 0, centred on the origin: the model looks towards ``-y``; its "length" runs along
``y`` and its "width" along ``x``.

Round outlines are kept exact where it matters: circle-circle distances are analytic. Wherever
a polygon stands in for a round outline it is **circumscribed** (every vertex outside the true
curve, every edge tangent to it), so a polygonised base is never smaller than the real one.
"""

from __future__ import annotations

import math
import re
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Point, Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.tolerance import mm

__all__ = [
    "BASE_HELP",
    "EXACT_SEGMENTS",
    "BaseParseError",
    "Footprint",
    "Hull",
    "Oval",
    "Rect",
    "Round",
    "circumscribed_circle",
    "circumscribed_circles",
    "circumscribed_rings",
    "distance",
    "extent",
    "footprint_distance",
    "parse_base",
    "polygon_of",
]

BASE_HELP = 'write "32mm", "oval 60x35mm", "rect 25x50mm" or "hull"'
"""What a base string may look like, for error messages."""

ROUND_SEGMENTS = 256
"""Vertices of the circumscribed polygon that stands in for a round or oval base."""

OVAL_DISTANCE_SEGMENTS = 2048
"""Vertices used to measure a distance to an oval (error bound: :func:`footprint_distance`)."""

EXACT_SEGMENTS = 8192
"""Vertices of the polygon that stands in for an oval where contact is decided (overlaps,
swept paths, turns, the battlefield's edge): its vertices lie at most ``rho_max * (1 /
cos(pi / 8192) - 1)`` outside the oval, 3.8e-7" for the largest oval in use (170x109 mm,
``rho_max = a**2 / b``), below half the rules tolerance, so a base in contact is not read as
overlapping. (Intersection tests cost little with it; distances use
:data:`OVAL_DISTANCE_SEGMENTS`.)"""


class BaseParseError(ValueError):
    """A base description that is not one of the accepted forms."""


def _circumscribed_unit(n: int) -> np.ndarray:
    """Vertices of a regular n-gon circumscribed about the unit circle (edges tangent to it)."""
    k = np.arange(n)
    theta = (k + 0.5) * 2.0 * math.pi / n
    rho = 1.0 / math.cos(math.pi / n)
    return np.column_stack([rho * np.cos(theta), rho * np.sin(theta)])


@cache
def _unit_polygon(n: int) -> np.ndarray:
    return _circumscribed_unit(n)


def circumscribed_circle(
    x: float, y: float, radius: float, *, segments: int = ROUND_SEGMENTS
) -> Polygon:
    """Return a regular polygon that contains the circle of ``radius`` about ``(x, y)``.

    Every edge is tangent to the circle, so the polygon is never smaller than the circle. Its
    vertices lie ``radius * (1 / cos(pi / segments) - 1)`` outside the circle (7.5e-5 of the
    radius at 256 segments).

    Examples
    --------
    >>> p = circumscribed_circle(0, 0, 1.0, segments=64)
    >>> round(p.exterior.distance(Point(0, 0)), 12)  # no edge comes nearer than the radius
    1.0

    (Comparing with a buffered circle instead is fragile: the circle's vertices may fall on the
    tangent points, where rounding puts some a hair outside, and shapely 2.2 says so.)
    """
    pts = _unit_polygon(segments) * radius + np.array([x, y])
    return Polygon(pts)


def circumscribed_circles(xy: np.ndarray, radius: np.ndarray, *,
                          segments: int = ROUND_SEGMENTS) -> np.ndarray:
    """:func:`circumscribed_circle` of each centre ``xy[k]`` and ``radius[k]`` (the same
    vertices, the same arithmetic), as an array of polygons made in one call."""
    pts = circumscribed_rings(xy, radius, segments=segments)
    return shapely.polygons(pts) if len(pts) else np.zeros(0, dtype=object)


def circumscribed_rings(xy: np.ndarray, radius: np.ndarray, *,
                        segments: int = ROUND_SEGMENTS) -> np.ndarray:
    """The vertices of :func:`circumscribed_circles`' polygons, ``(n, segments, 2)``
    (counter-clockwise, not closed)."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    radius = np.asarray(radius, dtype=float).reshape(-1)
    return _unit_polygon(segments)[None, :, :] * radius[:, None, None] + xy[:, None, :]


def polygon_of(points: Sequence[tuple[float, float]]) -> Polygon:
    """The polygon of an outline as a file gives it (terrain, a deployment zone, a hull), with
    repeated vertices removed (``shapely.remove_repeated_points``): the one place outlines from
    files become geometry, so the engines never see a zero-length edge (GEOS's triangulation
    of a polygon with a vertex repeated 50 times fails: "Unable to find a convex corner").
    Nothing else changes: the outline's points, order and area are those given.

    >>> polygon_of([(0, 0), (2, 0), (2, 0), (2, 1), (0, 0)]).wkt
    'POLYGON ((0 0, 2 0, 2 1, 0 0))'
    """
    return shapely.remove_repeated_points(Polygon(points))


@dataclass(frozen=True)
class Footprint(ABC):
    """The shape of a model's base or hull, in its own frame (inches, facing 0)."""

    @property
    @abstractmethod
    def spec(self) -> str:
        """The base string as written in a scenario file."""

    @property
    @abstractmethod
    def radius(self) -> float:
        """Radius of the smallest circle about the centre that contains the footprint."""

    @abstractmethod
    def local_polygon(self, *, segments: int = ROUND_SEGMENTS) -> Polygon:
        """The footprint at the origin, facing 0, as a polygon never smaller than the shape."""

    def placed(self, x: float, y: float, facing: float = 0.0, *, segments: int = ROUND_SEGMENTS
               ) -> Polygon:
        """The footprint centred on ``(x, y)`` and turned ``facing`` degrees clockwise."""
        poly = self.local_polygon(segments=segments)
        if facing % 360.0:
            # shapely rotates counter-clockwise in a y-up frame, which is clockwise on our y-down
            # board.
            poly = affinity.rotate(poly, facing, origin=(0.0, 0.0))
        return affinity.translate(poly, x, y)

    @property
    def is_round(self) -> bool:
        """Whether the footprint is a circle."""
        return False


@dataclass(frozen=True)
class Round(Footprint):
    """A round base of ``diameter_mm``."""

    diameter_mm: float

    @property
    def spec(self) -> str:
        return f"{_fmt(self.diameter_mm)}mm"

    @cached_property
    def radius(self) -> float:  # (asked for in every pick-up's loops)
        return mm(self.diameter_mm) / 2.0

    @property
    def is_round(self) -> bool:
        return True

    def local_polygon(self, *, segments: int = ROUND_SEGMENTS) -> Polygon:
        return circumscribed_circle(0.0, 0.0, self.radius, segments=segments)


@dataclass(frozen=True)
class Oval(Footprint):
    """An oval base, ``length_mm`` along the facing and ``width_mm`` across it."""

    length_mm: float
    width_mm: float

    @property
    def spec(self) -> str:
        return f"oval {_fmt(self.length_mm)}x{_fmt(self.width_mm)}mm"

    @cached_property
    def radius(self) -> float:  # (asked for in every pick-up's loops)
        return mm(max(self.length_mm, self.width_mm)) / 2.0

    def local_polygon(self, *, segments: int = ROUND_SEGMENTS) -> Polygon:
        # An affine image of a polygon circumscribed about the unit circle is circumscribed
        # about the ellipse: tangency is preserved by affine maps.
        pts = _unit_polygon(segments) * np.array([mm(self.width_mm) / 2, mm(self.length_mm) / 2])
        return Polygon(pts)


@dataclass(frozen=True)
class Rect(Footprint):
    """A rectangular base, ``frontage_mm`` across the facing and ``depth_mm`` along it."""

    frontage_mm: float
    depth_mm: float

    @property
    def spec(self) -> str:
        return f"rect {_fmt(self.frontage_mm)}x{_fmt(self.depth_mm)}mm"

    @cached_property
    def radius(self) -> float:  # (asked for in every pick-up's loops)
        return math.hypot(mm(self.frontage_mm), mm(self.depth_mm)) / 2.0

    def local_polygon(self, *, segments: int = ROUND_SEGMENTS) -> Polygon:
        hw, hd = mm(self.frontage_mm) / 2, mm(self.depth_mm) / 2
        return Polygon([(-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd)])


@dataclass(frozen=True)
class Hull(Footprint):
    """A model without a base: its hull polygon in inches, relative to its centre, facing 0."""

    points: tuple[tuple[float, float], ...]

    @property
    def spec(self) -> str:
        return "hull"

    @cached_property
    def radius(self) -> float:  # (asked for in every pick-up's loops)
        return max(math.hypot(x, y) for x, y in self.points)

    def local_polygon(self, *, segments: int = ROUND_SEGMENTS) -> Polygon:
        return self._polygon

    @cached_property
    def _polygon(self) -> Polygon:
        return polygon_of(self.points)


def extent(fp: Footprint, facing: float) -> tuple[float, float, float, float]:
    """Exact bounds ``(x0, y0, x1, y1)`` of the footprint at ``facing``, about its centre.

    Analytic for round and oval bases (an oval's polygon would reach a little beyond it),
    the polygon's own bounds for rectangles and hulls.
    """
    if isinstance(fp, Round):
        r = fp.radius
        return (-r, -r, r, r)
    if isinstance(fp, Oval):
        a, b = mm(fp.length_mm) / 2.0, mm(fp.width_mm) / 2.0
        f = math.radians(facing)
        ex = math.sqrt((b * math.cos(f)) ** 2 + (a * math.sin(f)) ** 2)
        ey = math.sqrt((b * math.sin(f)) ** 2 + (a * math.cos(f)) ** 2)
        return (-ex, -ey, ex, ey)
    x0, y0, x1, y1 = fp.placed(0.0, 0.0, facing).bounds
    return (float(x0), float(y0), float(x1), float(y1))


def _fmt(v: float) -> str:
    return f"{v:g}"


# Exactly the forms of scenario format 1; other spellings found in published data sets are
# translated by ``tabletop.scenario.bases.normalise_base`` before they get here.
_NUM = r"(\d+(?:\.\d+)?)"
_ROUND_RE = re.compile(rf"^{_NUM}mm$")
_PAIR_RE = re.compile(rf"^(oval|rect) {_NUM}x{_NUM}mm$")


def parse_base(text: str, hull: tuple[tuple[float, float], ...] | None = None) -> Footprint:
    """Parse a base string of scenario format 1.

    Parameters
    ----------
    text : str
        ``"32mm"``, ``"oval 60x35mm"``, ``"rect 25x50mm"`` or ``"hull"``.
    hull : sequence of (x, y), optional
        The hull polygon, required with ``"hull"``.

    Raises
    ------
    BaseParseError
        With a message that says what would be accepted.

    Examples
    --------
    >>> parse_base("32mm").radius
    0.6299212598425197
    >>> parse_base("oval 60x35mm").spec
    'oval 60x35mm'
    """
    if not isinstance(text, str):
        raise BaseParseError(f"a base must be a string; {BASE_HELP}")
    if text == "hull":
        if hull is None:
            raise BaseParseError('base "hull" needs a `hull` polygon on the model')
        return Hull(tuple((float(x), float(y)) for x, y in hull))
    m = _ROUND_RE.match(text)
    if m:
        d = float(m.group(1))
        if d <= 0:
            raise BaseParseError(f'base "{text}" must have a size above 0; {BASE_HELP}')
        return Round(d)
    m = _PAIR_RE.match(text)
    if m:
        kind, a, b = m.group(1), float(m.group(2)), float(m.group(3))
        if a <= 0 or b <= 0:
            raise BaseParseError(f'base "{text}" must have sizes above 0; {BASE_HELP}')
        return Oval(a, b) if kind == "oval" else Rect(a, b)
    raise BaseParseError(f'unknown base "{text}"; {BASE_HELP}')


def footprint_distance(
    a: Footprint, a_at: tuple[float, float], a_facing: float,
    b: Footprint, b_at: tuple[float, float], b_facing: float,
) -> float:
    """Closest distance between two placed footprints, in inches (0 when they touch or overlap).

    How it is computed and how close it is:

    - round-round: ``max(0, |c_a - c_b| - r_a - r_b)``, exact;
    - round to rectangle or hull: the polygon's exact distance to the centre minus the radius,
      exact;
    - rectangle or hull to rectangle or hull: shapely's polygon distance, exact;
    - anything with an oval: the oval is replaced by a circumscribed polygon of
      ``OVAL_DISTANCE_SEGMENTS`` vertices, which lies between the true ellipse and
      ``rho_max * (1 / cos(pi / n) - 1)`` outside it, ``rho_max = a**2 / b`` being the largest
      radius of curvature. For the largest oval in use (170x109 mm) this is below 1.2e-5";
      the result is never larger than the true distance and at most that much smaller.
    """
    if isinstance(a, Round) and isinstance(b, Round):
        d = math.hypot(a_at[0] - b_at[0], a_at[1] - b_at[1]) - a.radius - b.radius
        return max(0.0, d)
    if isinstance(b, Round):
        a, a_at, a_facing, b, b_at, b_facing = b, b_at, b_facing, a, a_at, a_facing
    if isinstance(a, Round):
        poly_b = _exactish(b, b_at, b_facing)
        return max(0.0, poly_b.distance(Point(a_at)) - a.radius) if not poly_b.contains(
            Point(a_at)) else 0.0
    return float(_exactish(a, a_at, a_facing).distance(_exactish(b, b_at, b_facing)))


def _exactish(f: Footprint, at: tuple[float, float], facing: float) -> Polygon:
    segs = OVAL_DISTANCE_SEGMENTS if isinstance(f, Oval) else ROUND_SEGMENTS
    return f.placed(at[0], at[1], facing, segments=segs)


def distance(footprint: Footprint, at: tuple[float, float], facing: float,
             geom: BaseGeometry) -> float:
    """Closest distance from a placed footprint to any shapely geometry (e.g. a terrain polygon).

    Exact for round bases (distance from the centre minus the radius) and polygonal footprints;
    within the oval bound of :func:`footprint_distance` otherwise. 0 when they touch or overlap.
    """
    if isinstance(footprint, Round):
        c = Point(at)
        if geom.geom_type in ("Polygon", "MultiPolygon") and shapely.contains(geom, c):
            return 0.0
        return max(0.0, float(geom.distance(c)) - footprint.radius)
    return float(_exactish(footprint, at, facing).distance(geom))

"""Board pictures for the survey report: inline SVG drawn from shapely geometries (#16).

Everything is in board inches, ``x`` right and ``y`` down, as the scenario format has it, so the
SVG's user units are inches and a board of 60" x 44" has the view box ``0 0 60 44`` (plus a
margin). Outlines are simplified to :data:`SIMPLIFY` and written with two decimals: the picture
stays exact to well under a line's width while a board's six reach rings stay a few kilobytes.
Every string that reaches the markup (ids in tooltips) goes through :func:`html.escape`.
"""

from __future__ import annotations

import html
import itertools
from collections.abc import Iterable, Sequence

import shapely
from shapely.geometry import LinearRing, LineString, Polygon
from shapely.geometry.base import BaseGeometry

__all__ = [
    "CSS",
    "SIMPLIFY",
    "TERRAIN_STYLE",
    "board_svg",
    "circle",
    "line",
    "path_data",
    "ramp",
    "segments",
    "shape",
    "side_colour",
    "terrain_style",
    "text",
]

SIMPLIFY = 0.02
"""Tolerance (inches) of the simplification of every outline drawn."""

TERRAIN_STYLE: dict[str, tuple[str, str, str]] = {
    "area": ("#e6dcc3", "#9c8b62", "terrain area (no effect on movement)"),
    "light": ("#b9a27a", "#6e5a36", "light terrain feature"),
    "dense": ("#6f6458", "#3b332b", "dense terrain feature"),
    "impassable": ("#2f2f2f", "#000000", "impassable terrain"),
    "open": ("#d8e2c4", "#7d8c5c", "open terrain"),
    "dangerous": ("#c9a27a", "#8a4b1f", "dangerous terrain"),
}
"""Fill, outline and legend text of each terrain kind (both rulesets' kinds)."""

_OTHER_TERRAIN = ("#bbbbbb", "#555555", "terrain of another kind")

_SIDE_COLOURS = {"red": "#c0392b", "blue": "#2b6cb0"}
_PALETTE = ("#c0392b", "#2b6cb0", "#2f8f4e", "#8e44ad", "#d68910", "#17868f")


def side_colour(player: str, index: int) -> str:
    """The colour of a player: its own name's when it is red or blue, else the index's."""
    return _SIDE_COLOURS.get(player, _PALETTE[index % len(_PALETTE)])


def ramp(anchors: Sequence[str], t: float) -> str:
    """The colour at ``t`` (0..1) of a linear ramp through ``anchors`` (``#rrggbb``).

    >>> ramp(("#000000", "#ffffff"), 0.5)
    '#808080'
    """
    t = min(1.0, max(0.0, t))
    x = t * (len(anchors) - 1)
    i = min(int(x), len(anchors) - 2)
    f = x - i
    a, b = (tuple(int(c[k:k + 2], 16) for k in (1, 3, 5)) for c in anchors[i:i + 2])
    return "#" + "".join(f"{round(p + (q - p) * f):02x}" for p, q in zip(a, b, strict=True))


def _num(v: float) -> str:
    """Two decimals at most, no trailing zeros, no leading zero (``-0.5`` -> ``-.5``)."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    if s in ("-0", ""):
        return "0"
    return s.replace("0.", ".", 1) if s.startswith(("0.", "-0.")) else s


def _ring(coords: Iterable[Sequence[float]], close: bool) -> str:
    """Path data of a ring or line: its first point, then steps between points rounded to
    hundredths (so the steps add up exactly and the outline does not drift)."""
    pts = [(round(x * 100), round(y * 100)) for x, y, *_ in coords]
    if close:
        pts = pts[:-1]
    if not pts:
        return ""
    steps = " ".join(f"{_num((x - px) / 100)} {_num((y - py) / 100)}"
                     for (px, py), (x, y) in itertools.pairwise(pts))
    head = f"M{_num(pts[0][0] / 100)} {_num(pts[0][1] / 100)}"
    return head + (f"l{steps}" if steps else "") + ("z" if close else "")


def path_data(geom: BaseGeometry | None) -> str:
    """SVG path data of a geometry's polygons and lines (points are left out), simplified.

    >>> path_data(shapely.box(0, 0, 2, 1))
    'M2 0l0 1 -2 0 0 -1z'
    """
    if geom is None or geom.is_empty:
        return ""
    geom = shapely.simplify(geom, SIMPLIFY, preserve_topology=True)
    parts: list[str] = []
    for g in getattr(geom, "geoms", [geom]):
        if hasattr(g, "geoms"):
            parts.append(path_data(g))
        elif isinstance(g, Polygon):
            parts.extend(_ring(r.coords, True) for r in (g.exterior, *g.interiors))
        elif isinstance(g, LinearRing):
            parts.append(_ring(g.coords, True))
        elif isinstance(g, LineString):
            parts.append(_ring(g.coords, False))
    return "".join(p for p in parts if p)


def _title(text: str | None) -> str:
    return f"<title>{html.escape(text)}</title>" if text else ""


def _attrs(cls: str | None, attrs: dict[str, object]) -> str:
    """`` class="..." name="value"...``: ``stroke_width`` is written ``stroke-width``, numbers
    with two decimals; values are the caller's (colours, numbers), never from the files."""
    out = f' class="{cls}"' if cls else ""
    for k, v in attrs.items():
        out += f' {k.replace("_", "-")}="{_num(v) if isinstance(v, float | int) else v}"'
    return out


def shape(geom: BaseGeometry | None, cls: str | None = None, *, title: str | None = None,
          **attrs: object) -> str:
    """One ``<path>`` of a geometry (nothing when it is empty)."""
    d = path_data(geom)
    if not d:
        return ""
    return f'<path d="{d}"{_attrs(cls, attrs)}>{_title(title)}</path>'


def segments(segs: Iterable[Sequence[Sequence[float]]], cls: str | None = None,
             **attrs: object) -> str:
    """One ``<path>`` of many segments ``((x, y), (x, y))``."""
    d = "".join(f"M{_num(a[0])} {_num(a[1])}L{_num(b[0])} {_num(b[1])}" for a, b in segs)
    return f'<path d="{d}"{_attrs(cls, attrs)}/>' if d else ""


def line(a: Sequence[float], b: Sequence[float], cls: str | None = None, *,
         title: str | None = None, **attrs: object) -> str:
    """A segment."""
    return (f'<line x1="{_num(a[0])}" y1="{_num(a[1])}" x2="{_num(b[0])}" y2="{_num(b[1])}"'
            f"{_attrs(cls, attrs)}>{_title(title)}</line>")


def circle(c: Sequence[float], r: float, cls: str | None = None, *, title: str | None = None,
           **attrs: object) -> str:
    """A circle centred on ``c``."""
    return (f'<circle cx="{_num(c[0])}" cy="{_num(c[1])}" r="{_num(r)}"{_attrs(cls, attrs)}>'
            f"{_title(title)}</circle>")


def text(at: Sequence[float], body: str, cls: str = "lb") -> str:
    """A label centred on ``at`` (class ``lb``: with a white halo; ``ob``: an objective's)."""
    return (f'<text x="{_num(at[0])}" y="{_num(at[1])}" class="{cls}">{html.escape(body)}'
            "</text>")


def terrain_style(kind: str) -> tuple[str, str, str]:
    """Fill, outline and legend text of a terrain kind."""
    return TERRAIN_STYLE.get(kind, _OTHER_TERRAIN)


CSS = ("svg.board path{fill-rule:evenodd}"
       "svg .nk0,svg .nk{stroke-linecap:round;fill:none}svg .nk0{stroke:#111;stroke-width:.55}"
       "svg .nk{stroke-width:.38}"
       "svg .zn{fill-opacity:.13;stroke-width:.08;stroke-dasharray:.5 .3}"
       "svg .or{fill:none;stroke:#222;stroke-width:.07;stroke-dasharray:.3 .25}"
       "svg .om{fill:#ffd24a;stroke:#222;stroke-width:.08}"
       "svg text{text-anchor:middle;dominant-baseline:central;fill:#111}"
       "svg .lb{font-size:1.1px;stroke:#fff;stroke-width:.25;paint-order:stroke}"
       "svg .ob{font-size:.95px}"
       "svg .nm{stroke-dasharray:.5 .35}"
       "svg .su{stroke:#3a3a3a;stroke-width:.05;stroke-dasharray:.25 .2}"
       "svg .sp{fill:#3a3a3a}"
       "svg .sl{font-size:.75px;stroke:#fff;stroke-width:.2;paint-order:stroke;fill:#222}")
"""The page's style of the pictures' classes (necks, marginal necks, zones, objectives, labels,
set-up marks)."""


def board_svg(width: float, height: float, body: Sequence[str], *, label: str,
              css_class: str = "board") -> str:
    """The ``<svg>`` element of a board ``width`` x ``height`` inches holding ``body``.

    ``label`` (escaped) is its accessible name. The board's edge is drawn last, over everything.
    """
    m = 0.5
    box = f"{_num(-m)} {_num(-m)} {_num(width + 2 * m)} {_num(height + 2 * m)}"
    edge = (f'<rect x="0" y="0" width="{_num(width)}" height="{_num(height)}" fill="none" '
            'stroke="#222" stroke-width="0.15"/>')
    return (f'<svg class="{css_class}" viewBox="{box}" xmlns="http://www.w3.org/2000/svg" '
            f'role="img" aria-label="{html.escape(label)}" font-family="sans-serif">'
            f'<rect x="0" y="0" width="{_num(width)}" height="{_num(height)}" fill="#f7f4ec"/>'
            + "".join(body) + edge + "</svg>")

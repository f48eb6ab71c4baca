"""The zone layer: a legal zone alone on the battlefield, drawn the same on every machine with
the same pygame-ce (no anti-aliasing, no text, the fixed :data:`ZONE_PALETTE`), the picture
the zone goldens compare pixel for pixel (``tabletop zone --format layer``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import pygame
import shapely
from shapely.geometry.base import BaseGeometry

from tabletop.state import GameState
from tabletop.view.render import (
    Colour,
    Pt,
    paint_geometry,
    save_png,
    to_pixels,
)
from tabletop.view.viewport import Viewport

__all__ = [
    "ZONE_LAYER_SIZE",
    "ZONE_PALETTE",
    "render_zone_layer",
    "render_zone_png",
]

ZONE_LAYER_SIZE = (960, 704)
"""Default size of the zone layer: a 60" x 44" battlefield at exactly 16 px per inch."""

ZONE_PALETTE: dict[str, Colour] = {
    "outside": (0, 0, 0),
    "battlefield": (255, 255, 255),
    "zone": (0, 96, 224),
    "path": (224, 32, 32),
}
"""The fixed colours of the zone layer (no other colour ever appears in it)."""


def render_zone_layer(zone_geometry: BaseGeometry | None, battlefield: object,
                      size: tuple[int, int] = ZONE_LAYER_SIZE, *,
                      path: Sequence[Pt] | None = None) -> pygame.Surface:
    """The zone alone on the battlefield: no anti-aliasing, no text, :data:`ZONE_PALETTE`.

    ``battlefield`` needs ``width`` and ``depth`` (inches); it is fitted to ``size`` with no
    margin. Only ``pygame.draw.polygon`` fills (and ``pygame.draw.lines`` without anti-aliasing
    for an optional path) are used, and the geometry is normalised first (a polygon fill's edge
    pixels depend on where its ring starts), so the picture depends on nothing but the point
    set, the size and the pygame-ce version.
    """
    width = float(getattr(battlefield, "width"))  # noqa: B009
    depth = float(getattr(battlefield, "depth"))  # noqa: B009
    surf = pygame.Surface(size)
    surf.fill(ZONE_PALETTE["outside"])
    vp = Viewport.fit(width, depth, (0, 0, size[0], size[1]))
    x0, y0 = vp.to_px(0, 0)
    x1, y1 = vp.to_px(width, depth)
    pygame.draw.polygon(surf, ZONE_PALETTE["battlefield"], [(x0, y0), (x1, y0), (x1, y1),
                                                             (x0, y1)])
    if zone_geometry is not None:
        paint_geometry(surf, shapely.normalize(zone_geometry), vp, ZONE_PALETTE["zone"],
                        ZONE_PALETTE["battlefield"])
    if path is not None and len(path) >= 2:
        pygame.draw.lines(surf, ZONE_PALETTE["path"], False, to_pixels(vp, path), 2)
    return surf


def render_zone_png(state: GameState, zone: object, path: object | None,
                    out: str | os.PathLike[str], *,
                    size: tuple[int, int] = ZONE_LAYER_SIZE) -> Path:
    """Write the zone-picture golden's picture of ``zone`` (and ``path``, if given) to ``out``.

    ``zone`` is a legal zone (anything with ``.geometry``) or a shapely geometry; ``path`` is a
    sequence of points or an object with ``.points``. With ``path=None`` the picture is exactly
    :func:`render_zone_layer` of the zone, the picture compared by the zone-picture goldens.
    """
    geom = getattr(zone, "geometry", zone)
    pts = None
    if path is not None:
        raw = getattr(path, "points", path)
        pts = [(float(p[0]), float(p[1])) for p in raw]  # type: ignore[attr-defined]
    surf = render_zone_layer(geom, state.battlefield, size, path=pts)  # type: ignore[arg-type]
    return save_png(surf, out)

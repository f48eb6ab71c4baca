"""Unions of large regions, in the compiled core where it is built.

The survey's reach grows regions of thousands of vertices move by move and unions them with
what came before, each layer's with the others' and the pivots' (:mod:`tabletop.survey.measures`).
GEOS's union of such regions was a quarter of a reach job's CPU; on the native engine
(:mod:`tabletop.geometry.engine`) :func:`union_all` makes it one overlay of the compiled core:
Clipper2's union on its grid of 1e-7" (no boundary moves by more than 1.5e-7", the core's
pick-ups' own overlays), whose rings come back as valid polygons
(:func:`~tabletop.geometry.wedges.native_polygons`). On the Python engine, or where the core
refuses the input (past its coordinate limit), it is GEOS's ``union_all``. The two answers
are the same point set up to that grid, not the same vertex lists. (Not faster everywhere: a
60x35 mm bike's zone, the union of its layers' overlapping regions, took one Clipper2 sweep as
long as GEOS, 9 ms; a turning zone's layers are unioned pairwise in the core instead, kept
there from their searches: :func:`~tabletop.geometry.wedges.native_union`.)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.geometry import engine
from tabletop.geometry.polygons import polygonal
from tabletop.geometry.wedges import native_polygons, ragged_polygons

__all__ = ["union_all"]


def union_all(geoms: Iterable[BaseGeometry]) -> BaseGeometry:
    """The union of the polygonal parts of ``geoms`` as one valid (multi)polygon (empty: an
    empty ``Polygon``); lines and points among them (where overlays touch) are dropped. On the
    Python engine exactly GEOS's union (the reference's vertices)."""
    geoms = list(geoms)
    core = engine.core()
    if core is not None:
        parts = [p for g in geoms if not g.is_empty for p in shapely.get_parts(g)
                 if p.geom_type in ("Polygon", "MultiPolygon") and p.area > 0]
        if not parts:
            return Polygon()
        if len(parts) == 1 and parts[0].is_valid:
            return parts[0]
        bounds = tuple(float(v) for v in shapely.total_bounds(np.asarray(parts, dtype=object)))
        try:
            got = core.overlay("union", bounds, 1.0, ragged_polygons(parts),
                               engine.NO_POLYGONS)
        except core.NativeError:  # type: ignore[attr-defined]
            pass
        else:
            return native_polygons(*got)
    return polygonal(shapely.union_all(geoms)) if geoms else Polygon()

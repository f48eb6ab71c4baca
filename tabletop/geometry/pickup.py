"""One pick-up of a translating mover in one call of the compiled core.

The Python engine answers a pick-up in steps (:class:`~tabletop.geometry.geodesic.GeodesicDisk`:
the search; :mod:`tabletop.geometry.wedges`: the wedges, their rays and the union; then the cut
to where the mover may end, and the friends' regions). With the native engine chosen
(:mod:`tabletop.geometry.engine`), :func:`native_pickup` does all of it in the compiled core:
the search from the start (and any further sources), the wedges, their rays, the union, minus
the excluded set and the friends near it. The answer is the same construction (the search's
labels and the wedges are the Python engine's; the overlays are Clipper2's on a grid of
1e-7"), with a :class:`~tabletop.geometry.geodesic.GeodesicDisk` of the core's search for the
witness paths.

A start standing in a piece (a base in contact with what it may not cross) is left to the
Python engine, which cuts such pieces: :func:`native_pickup` answers ``None`` then, as it does
when the native engine is not chosen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from shapely.geometry.base import BaseGeometry

from tabletop.geometry import engine
from tabletop.geometry.geodesic import GeodesicDisk
from tabletop.geometry.visibility import ReachMap
from tabletop.geometry.wedges import native_polygons

__all__ = ["native_pickup"]


def native_pickup(rm: ReachMap, p: tuple[float, float], distance: float,
                  exclude: BaseGeometry | None = None, exclude_key: object = None, *,
                  circles: np.ndarray | None = None, segments: int = 128,
                  polygons: BaseGeometry | None = None, polygon_set: object | None = None,
                  sources: Sequence[tuple[float, float, float]] = (), start: float = 0.0,
                  bends: int = 2) -> tuple[BaseGeometry, GeodesicDisk] | None:
    """The region of the disk of ``rm`` about ``p`` within ``distance`` minus ``exclude`` and
    the friends (``circles``: rows ``x, y, radius`` of discs, each removed as its
    circumscribed polygon of ``segments`` vertices; ``polygons``: more), with the disk of the
    search; ``None`` when the native engine is not chosen or the start stands in a piece
    (module docstring). ``exclude_key`` names ``exclude`` for the caches, as in
    :meth:`GeodesicDisk.region <tabletop.geometry.geodesic.GeodesicDisk.region>`;
    ``polygon_set``: more friends' regions already in the core (a ``PolySet`` of
    :meth:`ReachMap.native_exclude <tabletop.geometry.visibility.ReachMap.native_exclude>`),
    instead of ``polygons``; ``sources``, ``start`` and ``bends`` are :meth:`ReachMap.disk
    <tabletop.geometry.visibility.ReachMap.disk>`'s."""
    core = engine.core()
    if core is None:
        return None
    p = (float(p[0]), float(p[1]))
    distance = float(distance)
    if bends > 1:
        rm.ensure_graph(distance)
    mine = rm.native_core(core)
    ex = slack = None
    if exclude is not None and not exclude.is_empty:
        ex = rm.native_exclude(core, exclude, exclude_key)
        if exclude_key is not None and len(rm.corners):
            slack = rm.native_slack(core, exclude_key, exclude)
    more = polygon_set if polygon_set is not None else \
        rm.native_exclude(core, polygons, None) if polygons is not None and \
        not polygons.is_empty else None
    src = np.array([(p[0], p[1], float(start)), *[(float(x), float(y), float(d))
                                                  for x, y, d in sources]], dtype=float)
    circ = None if circles is None or not len(circles) else \
        np.ascontiguousarray(np.asarray(circles, dtype=float).reshape(-1, 3))
    got = core.pickup(mine, src, distance, bends, ex, slack, circ, segments, more)
    if got is None:
        return None
    (coords, rings, polys), found = got
    region = native_polygons(coords, rings, polys)
    disk = GeodesicDisk.of_search(rm, p, distance, float(start), bends, found)
    if circ is None and more is None:
        # the disk's own region minus the excluded set: what GeodesicDisk.region answers
        disk.remember(exclude if ex is not None else None, exclude_key, region)
    return region, disk

"""Unions of Minkowski sums in the compiled core: where a mover may not end, in one call.

The Python engine builds the end regions (:mod:`tabletop.zones.end`) sum by sum and unions them
with GEOS; with the native engine chosen (:mod:`tabletop.geometry.engine`),
:func:`native_sums` hands the same convex pieces to the core, which sums each pair exactly (the
edges merged by direction, as :func:`~tabletop.geometry.cspace.convex_sum`), grows them by the
clearance as circumscribed polygons (straight edges exactly at the distance, corners by tangent
segments, as :func:`~tabletop.geometry.minkowski.offset_convex`: never smaller) and unions them
on its integer grid of 1e-7" (the docs' page "Exactness and speed").
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np
import shapely
from shapely.geometry import Polygon
from shapely.geometry.base import BaseGeometry

from tabletop.geometry.wedges import native_polygons

__all__ = ["Models", "Shape", "models_layout", "native_common", "native_sums",
           "polygons_layout", "rings_layout"]

Shape = tuple[np.ndarray, ...] | float
"""What a model (or the mover) is for the sums: convex pieces about its centre (``(k, 2)``
arrays), or a disk's radius."""


def rings_layout(rings: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Rings as the core reads them: the vertices stacked (``(n, 2)``) and where each starts
    (one more than the rings)."""
    if not len(rings):
        return np.zeros((0, 2)), np.zeros(1, dtype=np.int64)
    starts = np.zeros(len(rings) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rings], out=starts[1:])
    return np.ascontiguousarray(np.concatenate(rings), dtype=float), starts


def polygons_layout(polys: Sequence[BaseGeometry]) -> tuple[np.ndarray, np.ndarray]:
    """The exterior rings of polygons (the closing point left out) as :func:`rings_layout`
    lays rings out, in a few array calls (a board's terrain pieces: hundreds of rings)."""
    if not len(polys):
        return rings_layout(())
    xy, idx = shapely.get_coordinates(shapely.get_exterior_ring(np.asarray(polys, dtype=object)),
                                      return_index=True)
    counts = np.bincount(idx, minlength=len(polys))
    keep = np.ones(len(xy), bool)
    keep[np.cumsum(counts)[counts > 0] - 1] = False
    starts = np.zeros(len(polys) + 1, dtype=np.int64)
    np.cumsum(np.maximum(counts - 1, 0), out=starts[1:])
    return np.ascontiguousarray(xy[keep], dtype=float), starts


@dataclass(frozen=True)
class Models:
    """Models laid out for :func:`native_sums`: their shapes' pieces stacked
    (:func:`rings_layout`), where each shape's pieces start (one more than the shapes), each
    shape's radius (0 for pieces), the centres ``(m, 2)`` and each model's shape. Built once
    for a set of models (:func:`models_layout`; a turning mover's layers meet the same
    friends at every facing)."""

    pieces: tuple[np.ndarray, np.ndarray]
    starts: np.ndarray
    radius: np.ndarray
    at: np.ndarray
    which: np.ndarray


def models_layout(shapes: Sequence[Shape], at: np.ndarray, which: np.ndarray) -> Models:
    """:class:`Models` of models centred at ``at``, model ``k`` of shape ``shapes[which[k]]``
    (convex pieces about its centre, or a disk's radius)."""
    pieces: list[np.ndarray] = []
    starts = [0]
    radius = []
    for s in shapes:
        if isinstance(s, float):
            radius.append(s)
        else:
            pieces.extend(s)
            radius.append(0.0)
        starts.append(len(pieces))
    return Models(rings_layout(pieces), np.array(starts, dtype=np.int64),
                  np.array(radius, dtype=float),
                  np.ascontiguousarray(np.asarray(at, dtype=float).reshape(-1, 2)),
                  np.ascontiguousarray(which, dtype=np.int64))


def native_sums(core: ModuleType, mover: float | tuple[np.ndarray, np.ndarray], models: Models,
                extra: float, terrain: tuple[np.ndarray, np.ndarray], *, quad_segs: int,
                segments: int, union: bool = True, shapes: bool = True
                ) -> tuple[BaseGeometry, object]:
    """Where the ``mover`` (its footprint reflected through its centre, ``-F``: a disk's radius,
    or its convex pieces laid out by :func:`rings_layout`) comes within ``extra`` of one of the
    ``models`` (:func:`models_layout`) or overlaps a convex ``terrain`` piece (rings laid out
    as :func:`rings_layout` does): the union of the sums, from the core (module docstring).
    Corners turn at most ``pi / (2 quad_segs)`` a tangent segment; a disk summed with a disk is
    its circumscribed polygon of ``segments`` vertices. With the same polygons kept in the core
    (its ``PolySet``, for :func:`native_common`).
    With ``union=False`` the sums are not unioned: the geometry is empty and the core keeps
    the sums themselves (counter-clockwise, overlapping: a clip set the core fills by the
    non-zero rule, such as the friends a turning layer's region is cut by). With
    ``shapes=False`` the union is only kept in the core (the geometry returned is empty).
    Raises the core's ``NativeError`` for an input past its limits."""
    mine = _NO_RINGS if isinstance(mover, float) else mover
    (coords, rings, polys), kept = core.end_region(
        mine, float(mover) if isinstance(mover, float) else 0.0,
        models.pieces, models.starts, models.radius, models.at, models.which, float(extra),
        terrain, math.pi / (2 * quad_segs), int(segments), union=union)
    return (native_polygons(coords, rings, polys) if union and shapes else _EMPTY), kept


_NO_RINGS = rings_layout(())

_EMPTY = Polygon()
"""(shapely builds an empty polygon from text: once)"""


def native_common(core: ModuleType, bounds: tuple[float, float, float, float],
                  sets: Sequence[object]) -> BaseGeometry:
    """The part of the box ``bounds`` that every one of ``sets`` (regions kept in the core by
    :func:`native_sums`) covers, in one call of the core."""
    return native_polygons(*core.common_region([float(v) for v in bounds], list(sets)))

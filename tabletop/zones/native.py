"""The compiled core's implementation of :func:`~tabletop.zones.zone_of` (the ``native`` engine).

A round mover's zone is one call of the core (:func:`tabletop.geometry.pickup.native_pickup`):
the search, the wedges, their rays, the union, minus the phase's end regions and the friends
near the start, with a :class:`~tabletop.geometry.geodesic.GeodesicDisk` of the core's search
for the witness paths. The per-phase geometry is the Python engine's
(:func:`~tabletop.zones.build.phase_geometry`, kept per board). A start standing in a piece and
a turning mover are answered by the Python implementation (:func:`tabletop.zones.build.zone_of`,
whose disks' regions the core builds too: :mod:`tabletop.geometry.wedges`).

The two answer the same point sets within the tolerance stated on the docs' page "Exactness
and speed" (tests/zones/test_engines.py compares them on every zone case and random boards).
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from tabletop.geometry import engine
from tabletop.geometry.footprints import Round
from tabletop.geometry.pickup import native_pickup
from tabletop.geometry.polygons import polygonal
from tabletop.zones import build
from tabletop.zones.end import END_SEGMENTS, BodyKey, body_key, facing_key, models_region
from tabletop.zones.query import MoveQuery
from tabletop.zones.zone import Zone

__all__ = ["clear_caches", "friends_near", "round_zone", "zone_of"]


def friends_near(q: MoveQuery) -> tuple[np.ndarray, tuple[BodyKey, ...]]:
    """The friends the round mover of ``q`` may not end on, as the Python engine removes them,
    for :func:`~tabletop.geometry.pickup.native_pickup`: round ones as discs (rows ``x, y``
    and the two radii summed, polygonised as the Python engine does), the others by their
    keys (:func:`~tabletop.zones.end.body_key`; their regions: :func:`_others`); only those
    its move can reach."""
    base = q.mover.footprint
    sx, sy = float(q.mover.at[0]), float(q.mover.at[1])
    reach = float(q.limit) + base.radius + 1e-6
    circles: list[tuple[float, float, float]] = []
    others: list[BodyKey] = []
    for o in q.board.friends:
        if o.id == q.mover.id:
            continue
        r = o.footprint.radius
        if abs(o.at[0] - sx) > reach + r or abs(o.at[1] - sy) > reach + r:
            continue
        if isinstance(o.footprint, Round):
            circles.append((float(o.at[0]), float(o.at[1]), r + base.radius))
        else:
            others.append(body_key(o))
    return np.array(circles, dtype=float).reshape(-1, 3), tuple(others)


_OTHERS: OrderedDict[object, object] = OrderedDict()
"""The non-round friends' regions in the compiled core by phase, facing and friends (the last
:data:`_OTHERS_SLOTS`): the next model of a unit meets the same ones."""
_OTHERS_SLOTS = 16


def _others(ph: build.Phase, q: MoveQuery, keys: tuple[BodyKey, ...]) -> object | None:
    """The union of the regions of the non-round friends ``keys`` for the mover of ``q``, in
    the compiled core (cut to the phase's box), kept for the next pick-up."""
    if not keys:
        return None
    base = q.mover.footprint
    fkey = facing_key(base, q.mover.facing)
    which = (ph.key, fkey, keys)
    got = _OTHERS.get(which)
    if got is None:
        core = engine.core()
        assert core is not None
        union = models_region(keys, base, fkey, 0.0)
        got = ph.reach.native_exclude(core, union, None)
        _OTHERS[which] = got
        while len(_OTHERS) > _OTHERS_SLOTS:
            _OTHERS.popitem(last=False)
    else:
        _OTHERS.move_to_end(which)
    return got


def round_zone(q: MoveQuery) -> Zone:
    """The zone of a round mover in one call of the core (module docstring)."""
    ph = build.phase_geometry(q)
    if engine.core() is None:
        return build.round_zone(q)
    circles, keys = friends_near(q)
    got = native_pickup(ph.reach, (float(q.mover.at[0]), float(q.mover.at[1])), float(q.limit),
                        ph.exclude, ph.key, circles=circles, segments=END_SEGMENTS,
                        polygon_set=_others(ph, q, keys))
    if got is None:
        return build.round_zone(q)
    return Zone(q, polygonal(got[0]), disk=got[1])


def zone_of(q: MoveQuery) -> Zone:
    """The legal zone of ``q`` on the native engine (module docstring)."""
    if isinstance(q.mover.footprint, Round):
        return round_zone(q)
    return build.zone_of(q)


def clear_caches() -> None:
    """Forget every cached zone input (:func:`tabletop.zones.build.clear_caches`) and the
    friends' regions kept in the core."""
    build.clear_caches()
    _OTHERS.clear()

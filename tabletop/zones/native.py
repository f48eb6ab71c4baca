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

import numpy as np

from tabletop.geometry import engine
from tabletop.geometry.footprints import Round
from tabletop.geometry.pickup import native_pickup
from tabletop.geometry.polygons import polygonal
from tabletop.zones import build
from tabletop.zones.end import (
    END_SEGMENTS,
    BodyKey,
    body_key,
    facing_key,
    models_region,
    native_models_union,
)
from tabletop.zones.query import MoveQuery
from tabletop.zones.zone import Zone

__all__ = ["clear_caches", "friends_near", "others_union", "round_zone", "zone_of"]


def friends_near(q: MoveQuery) -> tuple[np.ndarray, tuple[BodyKey, ...]]:
    """The friends the round mover of ``q`` may not end on, as the Python engine removes them,
    for :func:`~tabletop.geometry.pickup.native_pickup`: round ones as discs (rows ``x, y``
    and the two radii summed, polygonised as the Python engine does), the others by their
    keys (:func:`~tabletop.zones.end.body_key`; their regions: :func:`others_union`); only
    those its move can reach."""
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


def others_union(q: MoveQuery, keys: tuple[BodyKey, ...]) -> object | None:
    """The union of the regions of the non-round friends ``keys`` (:func:`friends_near`'s) for
    the round mover of ``q``, kept in the compiled core for the next pick-up
    (:func:`~tabletop.zones.end.native_models_union`): made of the non-round friends near the
    moves of the mover and of the friends on its base near it (its unit, as a rule), so that
    their pick-ups meet it made; a kept union of more friends answers while each of them
    stands where it has it (the others cut nothing the move can reach). ``None`` for no keys
    or past the core's limits (the caller cuts with :func:`~tabletop.zones.end.models_region`).
    """
    if not keys:
        return None
    base = q.mover.footprint
    reach = float(q.limit) + base.radius + 1e-6
    sx, sy = float(q.mover.at[0]), float(q.mover.at[1])
    # the box of the moves of the mover and of its base's friends near it
    xs, ys = [sx], [sy]
    for o in q.board.friends:
        if o.id != q.mover.id and o.footprint == base and abs(o.at[0] - sx) <= reach and \
                abs(o.at[1] - sy) <= reach:
            xs.append(float(o.at[0]))
            ys.append(float(o.at[1]))
    near = (min(xs) - reach, min(ys) - reach, max(xs) + reach, max(ys) + reach)
    around = tuple(k for k in build.friend_keys(q, near) if not isinstance(k[1], Round))
    standing = frozenset(body_key(o) for o in q.board.friends
                         if o.id != q.mover.id and not isinstance(o.footprint, Round))
    return native_models_union(keys, base, facing_key(base, q.mover.facing), around, standing)


def round_zone(q: MoveQuery) -> Zone:
    """The zone of a round mover in one call of the core (module docstring)."""
    ph = build.phase_geometry(q)
    if engine.core() is None:
        return build.round_zone(q)
    circles, keys = friends_near(q)
    more = others_union(q, keys)
    got = native_pickup(ph.reach, (float(q.mover.at[0]), float(q.mover.at[1])), float(q.limit),
                        ph.exclude, ph.key, circles=circles, segments=END_SEGMENTS,
                        polygons=models_region(keys, q.mover.footprint, 0.0, 0.0)
                        if keys and more is None else None, polygon_set=more)
    if got is None:
        return build.round_zone(q)
    return Zone(q, polygonal(got[0]), disk=got[1])


def zone_of(q: MoveQuery) -> Zone:
    """The legal zone of ``q`` on the native engine (module docstring)."""
    if isinstance(q.mover.footprint, Round):
        return round_zone(q)
    return build.zone_of(q)


def clear_caches() -> None:
    """Forget every cached zone input (:func:`tabletop.zones.build.clear_caches`, the
    friends' unions kept in the core among them)."""
    build.clear_caches()

"""A move far longer than the battlefield costs no more than one across it, and its zone is the
same set (issue 15, bounded work: M 1,000,000" took 56 s for an Outrider and 247 s for the
Land Raider, a polygon of 50,000 points per disk, before the disks were cut to the battlefield
and a complete search returned the free space it fills)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from shapely.geometry import Point

from tabletop import legal_zone, validate_path
from tabletop.geometry.visibility import ReachMap
from tabletop.geometry.wedges import wedges_of, whole_region
from tabletop.scenario.io import load_scenario, shipped


def _map() -> ReachMap:
    walls = [(2.0, 12.0, 8.0, 12.5), (2.0, 17.5, 8.0, 18.0), (2.0, 12.0, 2.5, 18.0),
             (7.5, 12.0, 8.0, 18.0)]  # a closed room: free inside, no move from outside
    polygons = [((4.0, 4.0), (9.0, 4.0), (9.0, 5.0), (4.0, 5.0)),
                ((12.0, 8.0), (13.0, 8.0), (13.0, 16.0), (12.0, 16.0)),
                *(((x0, y0), (x1, y0), (x1, y1), (x0, y1)) for x0, y0, x1, y1 in walls)]
    return ReachMap(20.0, 20.0, 0.5, [(15.0, 4.0, 1.0), (16.5, 15.0, 0.8)], polygons)


def test_a_disk_far_longer_than_the_board_is_the_free_part_it_starts_in() -> None:
    rm = _map()
    long = rm.disk((1.0, 1.0), 1e6)
    whole = whole_region(long)
    assert whole is not None
    # the same set as the union of visibility polygons of a search just long enough (40":
    # more than any geodesic distance here, less than what the shortcut needs)
    enough = rm.disk((1.0, 1.0), 40.0)
    assert whole_region(enough) is None
    a, b = long.region(), enough.region()
    assert a.symmetric_difference(b).area < 1e-3
    # the room is a part of the free space of its own, and stays out
    assert len(rm.free_parts()) == 2
    (room,) = [g for g in rm.free_parts() if not g.intersects(Point(1.0, 1.0))]
    assert room.contains(Point(5.0, 15.0))
    assert not a.intersects(Point(5.0, 15.0))
    assert a.area == pytest.approx(b.area, abs=1e-3)


def test_a_disk_with_more_than_the_board_left_keeps_its_outline_small() -> None:
    rm = _map()
    disk = rm.disk((1.0, 1.0), 1e6)
    wedges, coords, _ = wedges_of(disk, None)
    # every wedge's radius is cut to the farthest corner of the box (plus twice the sag)
    assert float(wedges.radius.max()) < 30.0
    assert len(coords) < 50_000


@pytest.mark.slow
@pytest.mark.parametrize("unit", ["outriders", "land-raider", "intercessors"])
def test_a_move_of_a_million_inches_is_the_zone_of_one_across_the_board(unit: str) -> None:
    st0 = load_scenario(shipped("demo.toml"))

    def with_m(m: float):  # type: ignore[no-untyped-def]
        return replace(st0, units=tuple(replace(u, M=m) if u.id == unit else u
                                        for u in st0.units))

    big = with_m(1e6)
    mid = st0.unit(unit).models[0].id  # type: ignore[union-attr]
    z_big = legal_zone(big, mid, "normal")
    z_across = legal_zone(with_m(94.0), mid, "normal")  # more than any path here needs
    assert z_big.area == pytest.approx(z_across.area, rel=1e-4)
    assert z_big.geometry.symmetric_difference(z_across.geometry).area < 0.02
    # every sampled point has a witness the exact checks accept
    rng = np.random.default_rng(3)
    minx, miny, maxx, maxy = z_big.geometry.bounds
    pts = rng.uniform((minx, miny), (maxx, maxy), (400, 2))
    inside = [tuple(p) for p in pts.tolist() if z_big.contains(*p)][:12]
    assert len(inside) >= 8
    for x, y in inside:
        path = z_big.path_to(x, y)
        assert path is not None
        assert validate_path(big, mid, "normal", path.points).legal, (x, y)

"""Configuration-space pieces of turning movers against brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, Polygon, box

from tabletop.geometry.cspace import (
    ENGINE_SEGMENTS,
    NOTCH_TOLERANCE,
    SWEEP_TOLERANCE,
    angle_between,
    convex_sum,
    period,
    pieces_at,
    separation,
    sweep_pieces,
    swept_pieces,
    thin_edges,
    turn_hits,
    turn_meets,
    turned,
)
from tabletop.geometry.footprints import Hull, parse_base

HULL = Hull(((-2.0, -3.5), (2.0, -3.5), (2.0, 3.5), (-2.0, 3.5)))


def hull_of_sums(a: np.ndarray, b: np.ndarray) -> Polygon:
    return shapely.convex_hull(shapely.multipoints((a[:, None] + b[None]).reshape(-1, 2)))


@pytest.mark.parametrize("base", ["oval 90x52.5mm", "oval 60x35mm", "rect 25x50mm"])
def test_convex_sum_is_the_hull_of_the_vertex_sums(base: str) -> None:
    # ovals' polygons have a bottom edge level up to rounding: the sum must start at its left
    # end (starting at the right one shifted the whole sum by the edge, 0.2")
    walls = [np.array([[40, 23], [50, 23], [50, 23.25], [40, 23.25]], float),
             np.array([[49.75, 23], [50, 23], [50, 29], [49.75, 29]], float)]
    rng = np.random.default_rng(0)
    for f in np.arange(0.0, 180.0, 7.5):
        foot = -pieces_at(parse_base(base), float(f))[0]
        for a in walls:
            got = Polygon(convex_sum(a, foot))
            assert got.is_valid
            assert got.symmetric_difference(hull_of_sums(a, foot)).area < 1e-9
    for _ in range(100):
        a = np.asarray(shapely.orient_polygons(shapely.convex_hull(shapely.multipoints(
            rng.normal(0, 1, (int(rng.integers(3, 12)), 2)))), exterior_cw=False)
            .exterior.coords)[:-1]
        b = np.asarray(shapely.orient_polygons(shapely.convex_hull(shapely.multipoints(
            rng.normal(0, 1, (int(rng.integers(3, 12)), 2)))), exterior_cw=False)
            .exterior.coords)[:-1]
        assert Polygon(convex_sum(a, b)).symmetric_difference(hull_of_sums(a, b)).area < 1e-9


@pytest.mark.slow
def test_turn_hits_agrees_with_sampled_turns() -> None:
    foot = pieces_at(HULL, 0.0)
    rng = np.random.default_rng(1)

    def sampled(f0: float, turn: float, poly=None, circle=None) -> bool:  # type: ignore[no-untyped-def]
        for k in range(1501):
            p = Polygon(pieces_at(HULL, f0 + turn * k / 1500)[0])
            if poly is not None and p.intersection(poly).area > 1e-12:
                return True
            if circle is not None and p.distance(shapely.Point(circle[:2])) < circle[2]:
                return True
        return False

    for _ in range(120):
        c = (rng.uniform(-5, 5), rng.uniform(-5, 5), rng.uniform(0.1, 1.0))
        f0, turn = rng.uniform(0, 360), rng.uniform(-90, 90)
        assert bool(turn_hits(foot, (0, 0), f0, turn, [], [c], tol=0)[1]) == \
            sampled(f0, turn, circle=c)
        tri = np.array([[c[0], c[1]], [c[0] + 3 * c[2], c[1] + 0.2], [c[0] + 0.5, c[1] + 2 * c[2]]])
        assert bool(turn_hits(foot, (0, 0), f0, turn, [tri], tol=0)[0]) == \
            sampled(f0, turn, poly=Polygon(tri))


@pytest.mark.parametrize("base", ["hull", "oval 60x35mm", "rect 0.001x50mm"])
def test_turn_meets_is_whether_turn_hits_finds_anything(base: str) -> None:
    """The obstacles tested all at once (their shrunk copies made once) give what the test of
    each finds, on random boards of walls, L-shaped pieces, slivers and circles near the
    footprint, turning both ways from any facing, near the battlefield's edge too."""
    foot = pieces_at(HULL if base == "hull" else parse_base(base), 0.0)
    rng = np.random.default_rng(7)
    ell = np.array([[0, 0], [2, 0], [2, 0.5], [0.5, 0.5], [0.5, 2], [0, 2]], float)
    met = 0
    for _ in range(150):
        at = (rng.uniform(0, 10), rng.uniform(0, 10))
        rings = []
        for _ in range(int(rng.integers(0, 6))):
            x, y = rng.uniform(-6, 16, 2)
            kind = rng.integers(0, 3)
            if kind == 0:
                w, h = rng.uniform(0.01, 3, 2)
                rings.append(np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]))
            elif kind == 1:
                piece = turned(ell * rng.uniform(0.3, 2), rng.uniform(0, 360))
                rings.append(piece + np.array([x, y]))
            else:  # a sliver thinner than the tolerance: nothing left of it
                rings.append(np.array([[x, y], [x + 2, y], [x + 2, y + 1e-7], [x, y + 1e-7]]))
        circles = [(float(a), float(b), float(r)) for a, b, r in
                   zip(rng.uniform(-3, 13, 3), rng.uniform(-3, 13, 3), rng.uniform(0.1, 1, 3),
                       strict=True)][:int(rng.integers(0, 4))]
        bounds = (0.0, 0.0, 10.0, 10.0) if rng.random() < 0.3 else None
        f0, turn = float(rng.uniform(0, 360)), float(rng.uniform(-180, 180))
        hp, hc, leaves = turn_hits(foot, at, f0, turn, rings, circles, bounds)
        thin = [t for t in (thin_edges(r) for r in rings) if t is not None]
        want = bool(hp or hc or leaves)
        assert turn_meets(foot, at, f0, turn, thin, circles, bounds) == want
        met += want
    assert 20 < met < 130  # (both answers drawn often)


def test_turns_in_a_corridor_and_at_the_edge() -> None:
    foot = pieces_at(HULL, 0.0)
    walls = [np.array([[2.05, -10], [3, -10], [3, 10], [2.05, 10]]),
             np.array([[-3, -10], [-2.05, -10], [-2.05, 10], [-3, 10]])]
    # 2 cos(a) + 3.5 sin(a) - 2 is 0.03" at half a degree, 0.061" at one
    assert turn_hits(foot, (0, 0), 0.0, 0.5, walls) == ([], [], False)
    assert turn_hits(foot, (0, 0), 0.0, -1.0, walls)[0] == [0, 1]
    assert turn_hits(foot, (2.1, 10.0), 0.0, 20.0, bounds=(0, 0, 60, 44))[2]
    assert not turn_hits(foot, (30.0, 22.0), 0.0, 179.0, bounds=(0, 0, 60, 44))[2]


def test_sweep_pieces_contain_the_turning_footprint() -> None:
    foot = pieces_at(parse_base("rect 50x100mm"), 0.0)
    swept = shapely.union_all([Polygon(p) for p in sweep_pieces(foot, 10.0, 40.0)])
    for k in range(41):
        placed = Polygon(pieces_at(parse_base("rect 50x100mm"), 10.0 + k)[0])
        assert placed.difference(swept).area < 1e-12
    # and hardly more than it: the union of the placements at 0.1 degree steps (whose arcs'
    # chords sag 4e-7")
    fine = shapely.union_all([Polygon(pieces_at(parse_base("rect 50x100mm"), 10.0 + k / 10)[0])
                              for k in range(401)])
    assert swept.hausdorff_distance(fine) <= SWEEP_TOLERANCE


def test_separation_and_period() -> None:
    oval = pieces_at(parse_base("oval 60x35mm"), 0.0, 8192)[0]
    wall = np.array([[0.688976377953, -5], [3, -5], [3, 5], [0.688976377953, 5]])
    n = separation(("polygon", wall), oval, tol=1e-6)
    assert n is not None and n == pytest.approx([-1.0, 0.0])
    assert separation(("polygon", wall - [0.01, 0]), oval, tol=1e-6) is None
    assert period(parse_base("oval 60x35mm")) == 180.0
    assert period(HULL) == 180.0
    assert period(Hull(((-1.0, -2.0), (1.0, -2.0), (0.0, 2.0)))) == 360.0
    assert angle_between(350.0, 10.0) == pytest.approx(20.0)
    assert angle_between(10.0, 190.0) == pytest.approx(180.0)


@pytest.mark.slow
@pytest.mark.parametrize("base,turn,one_piece", [
    ("oval 32x31.9mm", 30.0, True), ("oval 40x39mm", 15.0, True),
    ("oval 60x35mm", 7.5, False), ("oval 60x35mm", 30.0, False), ("rect 25x50mm", 15.0, False)])
def test_swept_pieces_cover_the_turn_and_fill_only_shallow_notches(
        base: str, turn: float, one_piece: bool) -> None:
    # a nearly round oval's swept area has hundreds of notches far shallower than the engine's
    # polygon of the oval is too big (its convex pieces took seconds to find and hundreds of
    # Minkowski sums): its convex hull is taken, within NOTCH_TOLERANCE of it; deeper notches
    # are kept
    fp = parse_base(base)
    f0 = 10.0
    pieces = swept_pieces(fp, f0, f0 + turn)
    assert (len(pieces) == 1) == one_piece
    got = shapely.union_all([Polygon(p) for p in pieces])
    # the footprint (its fine polygon) at facings all through the turn lies inside
    for f in np.linspace(f0, f0 + turn, 41):
        exact = Polygon(turned(np.asarray(fp.local_polygon(segments=1024).exterior.coords),
                               float(f)))
        assert exact.difference(got).area <= 1e-9
    # and the pieces lie within the tolerance of the area swept by the engine's polygon
    ring = np.asarray(fp.local_polygon(segments=ENGINE_SEGMENTS).exterior.coords)
    swept = shapely.union_all([Polygon(turned(ring, float(f)))
                               for f in np.linspace(f0, f0 + turn, 721)])
    reach = shapely.hausdorff_distance(got, swept, densify=0.05)
    assert reach <= (NOTCH_TOLERANCE if one_piece else 0.0) + 0.003 * fp.radius


def test_merge_convex_is_the_greedy_fixpoint() -> None:
    # the merge tests each pair once: its pieces still make up the polygon, are convex, and
    # no two of them make a convex union
    from tabletop.geometry.polygons import convex_pieces

    def convex_union(a: Polygon, b: Polygon) -> bool:
        # two pieces that share an edge and whose union is its own convex hull
        u = a.union(b)
        return a.intersection(b).length > 0 and u.geom_type == "Polygon" and \
            u.convex_hull.area - u.area <= 1e-12 * max(1.0, u.area)

    rng = np.random.default_rng(5)
    for _ in range(20):
        ang = np.sort(rng.uniform(0, 2 * np.pi, 24))
        rad = rng.uniform(1, 5, 24)
        poly = Polygon(np.column_stack([rad * np.cos(ang), rad * np.sin(ang)]))
        if not poly.is_valid:
            continue
        parts = convex_pieces(poly)
        assert abs(sum(p.area for p in parts) - poly.area) <= 1e-9 * poly.area
        assert all(abs(p.convex_hull.area - p.area) <= 1e-9 for p in parts)
        assert not any(convex_union(a, b) for i, a in enumerate(parts) for b in parts[i + 1:])



def _greedy_reference(poly: Polygon) -> list[Polygon]:
    # the merges of convex_pieces' docstring, the plain way: the polygon's triangles, then
    # again and again the first pair (i, j), i < j, in order whose union GEOS finds convex,
    # merged into i, until none is (a pair's test depends on its two pieces only: once
    # failed, it fails again); a convex polygon as it is
    if abs(poly.convex_hull.area - poly.area) <= 1e-12 * max(1.0, poly.area):
        return [poly]
    parts = [t for t in shapely.constrained_delaunay_triangles(poly).geoms if t.area > 0]
    failed: set[tuple[bytes, bytes]] = set()

    def hull_of(a: Polygon, b: Polygon) -> Polygon | None:
        if a.intersection(b).length <= 0 and not a.touches(b):
            return None
        u = a.union(b)
        if u.geom_type != "Polygon" or abs(u.area - a.area - b.area) > 1e-9 * max(1.0, u.area):
            return None
        hull = u.convex_hull
        return shapely.normalize(hull) if hull.area - u.area <= 1e-12 * max(1.0, hull.area) \
            else None

    while True:
        for i, j in itertools.combinations(range(len(parts)), 2):
            key = (parts[i].wkb, parts[j].wkb)
            hull = None if key in failed else hull_of(parts[i], parts[j])
            if hull is not None:
                parts[i] = hull
                del parts[j]
                break
            failed.add(key)
        else:
            return parts


def _test_polygons() -> list[Polygon]:
    rng = np.random.default_rng(11)
    out: list[Polygon] = []
    for k in range(48):
        if k % 3 == 0:  # star-shaped, anywhere
            ang = np.sort(rng.uniform(0, 2 * np.pi, 18))
            rad = rng.uniform(1, 5, 18)
            out.append(Polygon(np.column_stack([rad * np.cos(ang), rad * np.sin(ang)]) +
                               rng.uniform(-40, 40, 2)))
        elif k % 3 == 1:  # with holes
            holes = [Point(rng.uniform(1, 9), rng.uniform(1, 7)).buffer(rng.uniform(.2, .9), 2)
                     for _ in range(2)]
            out.append(box(0, 0, 10, 8).difference(shapely.union_all(holes)))
        else:  # straight sides split (vertices in a line: triangles of almost no area)
            ang = np.sort(rng.uniform(0, 2 * np.pi, 7))
            rad = rng.uniform(1, 5, 7)
            out.append(Polygon(np.column_stack([rad * np.cos(ang), rad * np.sin(ang)]))
                       .segmentize(rng.uniform(0.5, 2.0)))
    return [p for p in out if p.is_valid and p.geom_type == "Polygon"]


def test_convex_pieces_are_the_plain_greedy_merges() -> None:
    # convex_pieces hands GEOS only the pairs of pieces that share a whole edge (where the
    # triangulation allows it): the same pieces, vertex for vertex, as testing every pair
    from tabletop.geometry.polygons import convex_pieces

    polys = _test_polygons()
    assert len(polys) >= 40
    for poly in polys:
        got = [p.wkb for p in convex_pieces(poly)]
        assert got == [p.wkb for p in _greedy_reference(poly)], poly.wkt


def test_threads_asking_for_one_turn_make_its_sweep_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # the zone engine's threads ask for the steps of a facing grid at once: the sweep of the
    # turn they share (tens of ms of Python for an oval) is made by one, the others wait
    import threading
    import time

    from tabletop.geometry import cspace

    made: list[int] = []
    real = cspace.convex_pieces

    def slow_pieces(poly: Polygon) -> tuple[Polygon, ...]:
        # (slow enough that, unlocked, every thread would be making the sweep at once)
        made.append(1)
        time.sleep(0.05)
        return real(poly)

    monkeypatch.setattr(cspace, "convex_pieces", slow_pieces)
    fp = parse_base("oval 61.3x37.1mm")  # a base no other test sweeps
    go = threading.Barrier(4)
    answers: list[tuple[np.ndarray, ...]] = []

    def ask(k: int) -> None:
        go.wait()
        answers.append(swept_pieces(fp, 30.0 * k, 30.0 * k + 30.0))

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(answers) == 4
    assert len(made) == 1

"""The turn nodes' array helpers against the numpy calls they replace: ``unique_rows`` is
``np.unique(.., axis=0, return_inverse=True)`` (the tiles' nodes and the thinning's cells),
and a reach map's corners and pieces, built with array operations, are those of one ring at
a time; a turning mover's friends' circles made in one call are those made one by one."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import Polygon

from tabletop.geometry.turning import unique_rows
from tabletop.geometry.visibility import ReachMap


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-3, 3)), max_size=60),
       st.booleans())
def test_unique_rows_is_numpys(points: list[tuple[int, int]], floats: bool) -> None:
    a = np.array(points, dtype=np.int64).reshape(-1, 2)
    if floats:
        a = np.round(a * 0.25 + 1e-9 * (a % 2), 9)
    u, inv = np.unique(a, axis=0, return_inverse=True)
    got, ginv = unique_rows(a)
    assert got.dtype == a.dtype
    assert np.array_equal(got, u)
    assert np.array_equal(ginv, inv.ravel())


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(2, 18), st.floats(2, 18), st.floats(0.2, 2)),
                min_size=0, max_size=8),
       st.lists(st.tuples(st.floats(2, 16), st.floats(2, 16), st.floats(0.5, 3),
                          st.floats(0.5, 3)), max_size=4))
def test_corners_and_pieces_are_the_ring_by_ring_ones(circles, boxes) -> None:  # type: ignore[no-untyped-def]
    polys = [((x, y), (x + w, y), (x + w, y + h), (x, y + h)) for x, y, w, h in boxes]
    m = ReachMap(20.0, 20.0, 0.6, circles, polys)
    assert [p.equals_exact(Polygon(r), 0.0) for p, r in zip(m.pieces, m.rings, strict=True)] \
        == [True] * len(m.rings)
    # the corners: the convex vertices in the box and outside the other pieces, ring by ring
    want = []
    for i, r in enumerate(m.rings):
        for k in range(len(r)):
            p, a, b = r[k], r[k - 1], r[(k + 1) % len(r)]
            want.append((i, k, tuple(p), tuple(a), tuple(b)))
    got = [(int(o), tuple(c), tuple(pv), tuple(nx))
           for o, c, pv, nx in zip(m.owner, m.corners, m.prev, m.next, strict=True)]
    mine = {(i, p, a, b) for i, _, p, a, b in want}
    assert all(g in mine for g in got)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.floats(-50, 50), st.floats(-50, 50), st.floats(0.01, 5)),
                max_size=12), st.sampled_from([8, 32, 256]))
def test_circles_in_one_call_are_the_circles_one_by_one(rows, segments) -> None:  # type: ignore[no-untyped-def]
    """``circumscribed_circles`` (a turning mover's friends' circles, ``zones.build``) makes the
    polygons ``circumscribed_circle`` makes, vertex for vertex."""
    from tabletop.geometry.footprints import circumscribed_circle, circumscribed_circles

    xy = np.array([(x, y) for x, y, _ in rows], dtype=float).reshape(-1, 2)
    got = circumscribed_circles(xy, np.array([r for *_, r in rows]), segments=segments)
    assert len(got) == len(rows)
    for p, (x, y, r) in zip(got, rows, strict=True):
        assert p.equals_exact(circumscribed_circle(x, y, r, segments=segments), 0.0)


def test_turn_nodes_begun_on_threads_are_the_nodes_made_at_once(
        monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``TurnMap.begin_turn_nodes`` (the turn regions begun on threads while a pick-up's
    search goes on) gives the nodes ``turn_nodes`` makes alone, on either engine; begun twice,
    or after the nodes are made, it does nothing."""
    from tabletop.geometry import engine
    from tabletop.geometry.footprints import parse_base
    from tabletop.geometry.turning import TurnMap

    circles = [(6.0, 6.0, 0.63), (9.0, 12.5, 1.0), (15.0, 8.0, 0.5)]
    polys = [((11.0, 3.0), (13.0, 3.0), (13.0, 9.0), (11.0, 9.0))]
    monkeypatch.setenv(engine.THREADS_ENV, "2")
    for eng in ("python", *(["native"] if engine.native_module() is not None else [])):
        monkeypatch.setenv(engine.ENV, eng)
        for base in ("oval 60x35mm", "rect 25x50mm"):
            fp = parse_base(base)
            alone = TurnMap(20.0, 20.0, fp, circles, polys).turn_nodes(15.0)
            tm = TurnMap(20.0, 20.0, fp, circles, polys)
            tm.begin_turn_nodes(15.0)
            tm.begin_turn_nodes(15.0)
            got = tm.turn_nodes(15.0)
            tm.begin_turn_nodes(15.0)
            assert not tm._regions_begun
            assert len(got.xy) > 10
            assert np.array_equal(got.xy, alone.xy) and np.array_equal(got.lo, alone.lo) \
                and np.array_equal(got.n, alone.n) and got.grid == alone.grid


def test_turn_nodes_of_the_same_tiles_are_kept_and_the_same_as_made_afresh() -> None:
    """``TurnMap.turn_nodes`` keeps its answer for the tiles a window meets: asked again (the
    next pick-up near), it is the same object, read-only; asked after other windows built
    other tiles first, it is what a new map makes for that window alone, row for row; and
    ``TurnNodes.usable`` is the mask made from the runs, kept per facing."""
    from tabletop.geometry.footprints import parse_base
    from tabletop.geometry.turning import TurnMap

    circles = [(6.0, 6.0, 0.63), (9.0, 12.5, 1.0), (35.0, 28.0, 0.5), (50.0, 9.0, 1.5)]
    polys = [((11.0, 3.0), (13.0, 3.0), (13.0, 9.0), (11.0, 9.0)),
             ((30.0, 20.0), (34.0, 20.0), (34.0, 21.0), (30.0, 21.0))]
    fp = parse_base("oval 60x35mm")
    windows = [(2.0, 2.0, 14.0, 14.0), (20.0, 10.0, 44.0, 40.0), (0.0, 0.0, 60.0, 44.0),
               (15.0, 15.0, 18.0, 18.0)]
    tm = TurnMap(60.0, 44.0, fp, circles, polys)
    for w in [*windows[::-1], *windows]:
        got = tm.turn_nodes(15.0, w)
        assert tm.turn_nodes(15.0, w) is got
        assert not got.xy.flags.writeable and not got.lo.flags.writeable
        fresh = TurnMap(60.0, 44.0, fp, circles, polys).turn_nodes(15.0, w)
        assert np.array_equal(got.xy, fresh.xy) and np.array_equal(got.lo, fresh.lo) \
            and np.array_equal(got.n, fresh.n)
    whole = tm.turn_nodes(15.0, windows[2])
    assert len(whole.xy) > len(tm.turn_nodes(15.0, windows[0]).xy) > 10
    k = len(whole.grid)
    step = tm.period / k
    for f in (*whole.grid, 7.5, 100.0):
        mask = whole.usable(f, tm.period)
        assert whole.usable(f, tm.period) is mask
        # a node turns to or from a grid facing at either end of its run of steps or inside
        # it (every facing: a run of all k steps), to another facing inside one of its steps
        u = (f - whole.grid[0]) / step
        on_grid = abs(u - round(u)) < 1e-6
        j = round(u) % k if on_grid else int(np.floor(u)) % k
        want = [n == k or ((j - lo) % k <= n if on_grid else (j - lo) % k < n)
                for lo, n in zip(whole.lo.tolist(), whole.n.tolist(), strict=True)]
        assert mask.tolist() == want
        assert 0 < mask.sum() <= len(mask)

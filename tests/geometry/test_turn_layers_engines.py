"""A turning mover's per-phase build on both engines: the layers' grown obstacles (the same
rings, vertex for vertex), the corner graphs (the same rows, for round movers too) and the
compiled core's turn regions (never larger than the Python engine's, and within 1e-6" of them),
on random boards with every base shape; a point of a native turn region passes the exact turn
test."""

from __future__ import annotations

import numpy as np
import pytest
import shapely
from shapely.geometry import Polygon
from shapely.geometry.polygon import orient

from tabletop.geometry import engine
from tabletop.geometry.footprints import Footprint, Hull, parse_base
from tabletop.geometry.turning import TurnMap, facing_grid, layer_step
from tabletop.geometry.visibility import ReachMap

native = engine.native_module()
pytestmark = pytest.mark.skipif(native is None, reason=engine.native_problem())

SHAPES: dict[str, Footprint] = {
    "round": parse_base("32mm"),
    "oval": parse_base("oval 60x35mm"),
    "rect": parse_base("rect 25x50mm"),
    "hull": Hull(((-2.0, -3.5), (2.0, -3.5), (2.0, 3.5), (-2.0, 3.5))),
    "l-hull": Hull(((-1.5, -2.0), (1.5, -2.0), (1.5, -0.5), (-0.5, -0.5), (-0.5, 2.0),
                    (-1.5, 2.0))),
}


def _board(seed: int) -> tuple[list[tuple[float, float, float]],
                               list[tuple[tuple[float, float], ...]]]:
    """Circles (bases in groups) and polygons (rectangles, L-shaped ruins, slanted slabs)."""
    rng = np.random.default_rng(seed)
    circles = []
    for _ in range(rng.integers(2, 5)):
        cx, cy = rng.uniform(4, 26), rng.uniform(4, 18)
        for _ in range(rng.integers(1, 5)):
            circles.append((float(cx + rng.uniform(-2, 2)), float(cy + rng.uniform(-2, 2)),
                            float(rng.choice([0.63, 0.5, 1.0]))))
    polys: list[tuple[tuple[float, float], ...]] = []
    for _ in range(rng.integers(1, 4)):
        x, y = float(rng.uniform(2, 24)), float(rng.uniform(2, 16))
        w, h = float(rng.uniform(0.5, 4)), float(rng.uniform(0.5, 4))
        kind = rng.integers(0, 3)
        if kind == 0:
            polys.append(((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
        elif kind == 1:
            t = min(w, h) / 3
            polys.append(((x, y), (x + w, y), (x + w, y + t), (x + t, y + t), (x + t, y + h),
                          (x, y + h)))
        else:
            a = float(rng.uniform(0, np.pi))
            c, s = np.cos(a), np.sin(a)
            pts = [(x + c * u - s * v, y + s * u + c * v)
                   for u, v in ((0, 0), (w, 0), (w, 0.3), (0, 0.3))]
            polys.append(tuple((float(p), float(q)) for p, q in pts))
    return circles, polys


def _both(monkeypatch: pytest.MonkeyPatch, fp: Footprint, seed: int
          ) -> tuple[TurnMap, TurnMap]:
    circles, polys = _board(seed)
    monkeypatch.setenv(engine.ENV, "python")
    py = TurnMap(30.0, 22.0, fp, circles, polys)
    assert py.native_obstacles() is None
    monkeypatch.setenv(engine.ENV, "native")
    return py, TurnMap(30.0, 22.0, fp, circles, polys)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_turn_regions_and_grown_obstacles_agree(monkeypatch: pytest.MonkeyPatch, shape: str,
                                                seed: int) -> None:
    fp = SHAPES[shape]
    py, nat = _both(monkeypatch, fp, seed)
    step = layer_step(fp)
    grid = facing_grid(fp, 0.0, step)
    ends = [*grid[1:], grid[0] + py.period]
    rng = np.random.default_rng(seed)
    turns = list(zip(grid, ends, strict=True))[:4] if step < 180.0 else []
    for f0, f1 in turns:
        monkeypatch.setenv(engine.ENV, "python")
        a = py.turn_region(f0, f1)
        assert py.native_turn_region(f0, f1) is None
        monkeypatch.setenv(engine.ENV, "native")
        b = nat.native_turn_region(f0, f1)
        assert b is not None
        # the regions the turn nodes use: GEOS's overlays of the core's sums, byte for byte
        assert shapely.to_wkb(nat.turn_region(f0, f1)) == shapely.to_wkb(a), (shape, f0)
        # never larger, and within 1e-6" of it
        assert b.difference(a).area <= 1e-12, (shape, seed, f0)
        assert a.difference(b.buffer(1e-6, join_style="mitre")).area <= 1e-12, (shape, f0)
        assert abs(a.area - b.area) <= 1e-6 * max(1.0, a.length)
        # the exact turn test accepts points of the native region, on its edges too
        xy = shapely.get_coordinates(b.boundary)
        if len(xy):
            pick = xy[rng.choice(len(xy), size=min(6, len(xy)), replace=False)]
            for x, y in pick.tolist():
                assert not nat.turn_blocked((x, y), f0, f1 - f0), (shape, seed, f0, x, y)
    for f in grid[:3]:
        monkeypatch.setenv(engine.ENV, "python")
        la = py.layer(f)
        ln = py.layer(f, near=(10.0, 10.0, 6.0))
        monkeypatch.setenv(engine.ENV, "native")
        lb = nat.layer(f)
        lm = nat.layer(f, near=(10.0, 10.0, 6.0))
        for x, y in ((la, lb), (ln, lm)):
            assert len(x.rings) == len(y.rings)
            for r, s in zip(x.rings, y.rings, strict=True):
                assert np.array_equal(r, s) or np.allclose(r, s, rtol=0, atol=1e-12)
            assert np.allclose(x.corners, y.corners, rtol=0, atol=1e-12)



@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_layers_union_from_moved_copies_is_the_union(monkeypatch: pytest.MonkeyPatch,
                                                       seed: int) -> None:
    """A footprint that is not convex grows each circle into several rings, the same rings
    for every circle of one radius, moved: the core unions one set a radius and moves the
    union (``copies``). The layer's union is the union of its rings (GEOS's, but for slivers
    in 1e-9" bands along its outline, 1e-6" a point), its corners the same, and the copies
    are used (not vacuous)."""
    fp = SHAPES["l-hull"]
    circles, polys = _board(seed)
    circles = [*circles, *[(float(x) + 9.0, float(y), r) for x, y, r in circles]]
    monkeypatch.setenv(engine.ENV, "native")
    tm = TurnMap(30.0, 22.0, fp, circles, polys)
    used = 0
    for f in facing_grid(fp, 0.0, layer_step(fp))[:3]:
        rm = tm.layer(f)
        used += len(rm._copies)
        got = rm.union()
        want = shapely.union_all(rm.pieces)
        assert got.symmetric_difference(want).area <= 1e-9 * want.length, (seed, f)
        assert got.buffer(1e-6).contains(want) and want.buffer(1e-6).contains(got)
        monkeypatch.setenv(engine.ENV, "python")
        py = TurnMap(30.0, 22.0, fp, circles, polys).layer(f)
        monkeypatch.setenv(engine.ENV, "native")
        assert py._copies == []
        assert np.allclose(py.corners, rm.corners, rtol=0, atol=1e-12)
    assert used > 0

def test_a_refused_input_falls_back_to_python(monkeypatch: pytest.MonkeyPatch) -> None:
    """Obstacles the core refuses (too far out) are grown and cut in Python, the same way."""
    monkeypatch.setenv(engine.ENV, "native")
    fp = SHAPES["hull"]
    far = ((1e6, 1e6), (1e6 + 1, 1e6), (1e6 + 1, 1e6 + 1))
    tm = TurnMap(30.0, 22.0, fp, [(10.0, 10.0, 0.5)], [far])
    assert tm.native_obstacles() is None
    assert tm.native_turn_region(0.0, 15.0) is None
    g = tm.turn_region(0.0, 15.0)
    assert not g.is_empty and not g.contains(shapely.Point(10.0, 10.0))
    assert len(tm.layer(0.0).rings) == 2
    assert isinstance(g, Polygon | shapely.MultiPolygon)


def _graph(monkeypatch: pytest.MonkeyPatch, rm: ReachMap, eng: str, cap: float
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    monkeypatch.setenv(engine.ENV, eng)
    rm._graph_cap = 0.0  # (built again from nothing on this engine)
    rm.ensure_graph(cap)
    return rm._adj_ptr.copy(), rm._adj_nbr.copy(), rm._adj_w.copy()


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_corner_graphs_are_the_same(monkeypatch: pytest.MonkeyPatch, shape: str,
                                    seed: int) -> None:
    """The core's corner graph is the Python engine's, row for row and length for length, for
    the layers of every base shape and for round movers (circles and their bitangents)."""
    fp = SHAPES[shape]
    circles, polys = _board(seed)
    monkeypatch.setenv(engine.ENV, "python")
    tm = TurnMap(30.0, 22.0, fp, circles, polys)
    maps = [tm.hub, *(tm.layer(f) for f in facing_grid(fp, 0.0, layer_step(fp))[:3]),
            ReachMap(30.0, 22.0, fp.radius, circles, polys)]
    for rm in maps:
        for cap in (3.0, 12.0):
            a = _graph(monkeypatch, rm, "python", cap)
            b = _graph(monkeypatch, rm, "native", cap)
            assert len(a[1]) == len(b[1]) and len(a[1]) > 0, (shape, seed, cap)
            for x, y in zip(a, b, strict=True):
                np.testing.assert_array_equal(x, y)


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("seed", [1, 2, 3, 5])
def test_a_maps_union_of_its_pieces_on_both_engines(monkeypatch: pytest.MonkeyPatch, shape: str,
                                                   seed: int) -> None:
    """A map's union of its pieces (its outline) and its corners: on the native engine the
    core's union, on a grid of 1e-9" with every piece vertex on it given back exactly, and a
    vertex a corner when an edge of it comes within 1e-7" (the closest point's distance, in
    the core); on the Python engine GEOS's union, and a vertex a corner when it is not in the
    union shrunk by 1e-7". The same corners; the same outline within
    the grid's rounding of the crossings; every corner and every piece vertex on GEOS's outline
    on the core's (where one is a vertex of both, exactly the same point, not one moved to the
    grid; GEOS also keeps a vertex where two pieces' edges run on in one line, which the core's
    union leaves out)."""
    assert native is not None
    scales: list[float] = []

    class Spy:
        """The compiled module, counting the grids of its overlays."""

        def __getattr__(self, name: str) -> object:
            return getattr(native, name)

        def overlay(self, *args: object, **kwargs: object) -> object:
            scales.append(float(kwargs.get("scale", 1e7)))  # type: ignore[arg-type]
            return native.overlay(*args, **kwargs)  # type: ignore[union-attr]

    py, nat = _both(monkeypatch, SHAPES[shape], seed)
    fp = SHAPES[shape]
    monkeypatch.setattr(engine, "core", lambda: Spy())
    facings = facing_grid(fp, 0.0, layer_step(fp))[:3]
    made = [nat.hub, *(nat.layer(f) for f in facings)]
    monkeypatch.undo()
    assert scales and set(scales) == {1e9}
    monkeypatch.setenv(engine.ENV, "python")
    want = [py.hub, *(py.layer(f) for f in facings)]
    for a, b in zip(want, made, strict=True):
        # (the layers' rings, grown in Python and in the core, within a unit in the last place)
        assert a.corners.shape == b.corners.shape
        np.testing.assert_allclose(a.corners, b.corners, rtol=0, atol=1e-12)
        ua, ub = a.union(), b.union()
        assert ub.is_valid and not ub.is_empty
        # (a crossing of two pieces' edges rounded to the grid: measured up to 3.1e-9" off
        # GEOS's, nearly parallel edges; the corners' test shrinks the union by 1e-7")
        assert shapely.hausdorff_distance(ua.boundary, ub.boundary) <= 1e-8
        pieces = np.concatenate([np.asarray(r, dtype=float) for r in b.rings])
        outline = shapely.union_all(b.pieces).boundary
        on_geos = pieces[shapely.intersects_xy(outline.buffer(1e-12), pieces[:, 0],
                                               pieces[:, 1])]
        for at in (on_geos, b.corners):
            assert shapely.distance(ub.boundary, shapely.points(at)).max() <= 1e-8
        # a vertex of the core's outline within 1e-9" of a piece vertex is that vertex (or a
        # copy of it in another piece a unit in the last place apart), not a grid point
        vertices = b.outline()[0]
        gap = np.hypot(vertices[:, None, 0] - pieces[None, :, 0],
                       vertices[:, None, 1] - pieces[None, :, 1]).min(axis=1)
        near = gap <= 1e-9
        assert near.sum() >= len(vertices) // 2
        assert gap[near].max() <= 1e-12


@pytest.mark.parametrize("shape", ["oval", "hull", "l-hull"])
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_the_python_engines_region_on_either_engines_map(monkeypatch: pytest.MonkeyPatch,
                                                         shape: str, seed: int) -> None:
    """The Python engine's region of one search on a layer made on each engine (GEOS's union
    of its pieces, the core's): the same point set, though the core's crossings lie a few
    1e-9" off GEOS's. (Seed 5's hull lost a 0.034 sq in sector on the core's map: a wedge's
    last ray, along its corner's edge to a crossing 7.9e-11" off that edge's line, ended at
    the vertex the run of rays before it did, and was dropped as repeating a point that was
    itself dropped.)"""
    fp = SHAPES[shape]
    circles, polys = _board(seed)
    facings = facing_grid(fp, 0.0, layer_step(fp))[:3]
    monkeypatch.setenv(engine.ENV, "native")
    made = TurnMap(30.0, 22.0, fp, circles, polys)
    layers = [made.layer(f) for f in facings]  # (their unions made by the core)
    monkeypatch.setenv(engine.ENV, "python")
    want = TurnMap(30.0, 22.0, fp, circles, polys)
    rng = np.random.default_rng(seed)
    checked = 0
    for f, b in zip(facings, layers, strict=True):
        a = want.layer(f)
        free = shapely.box(*a.box).difference(a.union())
        cand = rng.uniform(a.box[:2], a.box[2:], size=(200, 2))
        pts = cand[shapely.intersects_xy(free, cand[:, 0], cand[:, 1])]
        if len(pts) < 3:
            continue
        p0 = (float(pts[0, 0]), float(pts[0, 1]))
        more = [(float(x), float(y), float(d)) for (x, y), d in
                zip(pts[1:3].tolist(), rng.uniform(0.5, 2.0, 2).tolist(), strict=True)]
        ga = a.disk(p0, 6.0, sources=more).region(None, None)
        gb = b.disk(p0, 6.0, sources=more).region(None, None)
        assert ga.symmetric_difference(gb).area <= 1e-5, (shape, seed, f)
        checked += 1
    assert checked


@pytest.mark.parametrize("shape", ["oval", "hull", "l-hull"])
@pytest.mark.parametrize("seed", [4, 5, 6])
def test_a_layers_region_from_its_search_in_the_core(monkeypatch: pytest.MonkeyPatch,
                                                     shape: str, seed: int) -> None:
    """``wedges.native_search_region`` (the core's ``search_region``: the wedges, stars,
    union and cut of a search done elsewhere, as the core's pick-up) gives the point set the
    Python engine's wedges give from the same search, within the engines' stated tolerance;
    sources besides the start (turn nodes) and an excluded set included."""
    from tabletop.geometry import wedges

    fp = SHAPES[shape]
    circles, polys = _board(seed)
    monkeypatch.setenv(engine.ENV, "native")
    tm = TurnMap(30.0, 22.0, fp, circles, polys)
    rng = np.random.default_rng(seed)
    exclude = shapely.Point(15.0, 11.0).buffer(3.0)
    checked = 0
    for f in facing_grid(fp, 0.0, layer_step(fp))[:3]:
        rm = tm.layer(f)
        free = shapely.box(*rm.box).difference(shapely.union_all(rm.pieces))
        # random free points (rejection sampling in the box)
        x0, y0, x1, y1 = rm.box
        cand = rng.uniform((x0, y0), (x1, y1), size=(200, 2))
        pts = cand[shapely.intersects_xy(free, cand[:, 0], cand[:, 1])] if \
            not free.is_empty else np.zeros((0, 2))
        if len(pts) < 3:
            continue
        p0 = (float(pts[0, 0]), float(pts[0, 1]))
        more = [(float(x), float(y), float(d)) for (x, y), d in
                zip(pts[1:3].tolist(), rng.uniform(0.5, 2.0, 2).tolist(), strict=True)]
        for ex, key in ((None, None), (exclude, ("exclude", seed))):
            monkeypatch.setenv(engine.ENV, "python")
            disk = rm.disk(p0, 6.0, sources=more)
            want = disk.region(ex, key)
            monkeypatch.setenv(engine.ENV, "native")
            slack = rm.slack(key, ex) if ex is not None and len(rm.corners) else None
            out = wedges.native_search_region(engine.core(), disk, ex, key, slack)
            assert out is not None
            got, whole = out
            assert got.is_valid
            if ex is None:
                # the box of the region before the cuts: with no cut, the region's box
                assert whole is not None and np.allclose(whole, got.bounds, atol=1e-6)
            else:
                assert whole is not None and shapely.box(*whole).buffer(1e-6).contains(got)
            # friends (overlapping discs kept in the core) cut in the core: the
            # region as cut afterwards by their union
            friends = [orient(shapely.Point(x, y).buffer(r, quad_segs=8), 1.0) for x, y, r in
                       rng.uniform((x0, y0, 0.5), (x1, y1, 2.5), size=(6, 3)).tolist()]
            _, coords, (rings, polys) = shapely.to_ragged_array(friends)
            fset = engine.core().PolySet(  # type: ignore[union-attr]
                coords, rings.astype(np.int64), polys.astype(np.int64))
            cut, whole2 = wedges.native_search_region(engine.core(), disk, ex, key, slack,
                                                      fset) or (None, None)
            assert cut is not None and whole2 == whole
            ref = got.difference(shapely.union_all(friends))
            assert cut.symmetric_difference(ref).area <= 1e-6, (shape, f)
            # the wedges built in Python and cast by the core (the native engine before the
            # core built the wedges too): the same set up to the grid
            monkeypatch.setattr(wedges, "native_search_region", lambda *a, **k: None)
            before = rm.disk(p0, 6.0, sources=more).region(ex, key)
            monkeypatch.undo()
            monkeypatch.setenv(engine.ENV, "native")
            assert got.difference(before.buffer(1e-6, quad_segs=2)).area <= 1e-9, (shape, f)
            assert before.difference(got.buffer(1e-6, quad_segs=2)).area <= 1e-9, (shape, f)
            # the Python engine's region lies in it (the more conservative where they differ:
            # the rays sample the same arcs a hair apart and are cast against the box)
            assert want.difference(got).area <= max(1e-4 * want.area, 1e-4), (shape, f)
            checked += 1
    assert checked


def test_search_region_refuses_a_broken_search() -> None:
    """A search the core cannot have made (lengths, rows, corners out of range, not finite)
    is a NativeError, never a crash."""
    assert native is not None
    rm = ReachMap(20.0, 20.0, 0.5, [(10.0, 10.0, 1.0)])
    core = rm.native_core(native)
    nodes = np.array([[2.0, 2.0], [3.0, 3.0]])
    dist = np.array([0.0, 1.0])
    ok = {"parent": np.array([-1, 0]), "corner": np.array([-1, 0])}
    bad = [
        ({**ok, "parent": np.array([-1])}, "differ in length"),
        ({**ok, "parent": np.array([-1, 5])}, "out of range"),
        ({**ok, "parent": np.array([-1, -1])}, "out of range"),
        ({**ok, "corner": np.array([-1, 10_000])}, "out of range"),
        ({**ok, "corner": np.array([-1, -1])}, "out of range"),
    ]
    for kw, msg in bad:
        with pytest.raises(native.NativeError, match=msg):
            native.search_region(core, nodes, dist, kw["parent"], kw["corner"], 1, 5.0)
    with pytest.raises(native.NativeError, match="n_sources"):
        native.search_region(core, nodes, dist, ok["parent"], ok["corner"], 0, 5.0)
    with pytest.raises(native.NativeError, match="not finite"):
        native.search_region(core, nodes, np.array([0.0, np.nan]), ok["parent"], ok["corner"],
                             1, 5.0)
    (coords, rings, polys), box, kept = native.search_region(core, nodes, dist, ok["parent"],
                                                             ok["corner"], 1, 5.0)
    assert len(polys) >= 2 and kept is None and box is not None
    # kept in the core instead: the same polygons, none in the ragged layout
    (c2, _, p2), box2, kept = native.search_region(core, nodes, dist, ok["parent"], ok["corner"],
                                                   1, 5.0, keep=True)
    assert len(c2) == 0 and len(p2) == 1 and box2 == box and len(kept) == len(polys) - 1
    again = kept.polygons()
    assert np.array_equal(again[0], coords) and np.array_equal(again[1], rings) and \
        np.array_equal(again[2], polys)


def test_turn_regions_from_a_sweep_at_facing_0_kept_and_turned(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The core makes a circle radius's grown union once a turn (the sweep at facing 0) and
    turns it to each step: every step of an L-shaped hull's grid agrees with the Python
    engine's region (never larger, within 1e-6"), and a sweep at facing 0 that is not finite,
    or a facing that is not finite, is a NativeError, never a crash."""
    assert native is not None
    fp = Hull(((-2.0, -2.0), (2.0, -2.0), (2.0, -1.0), (-1.0, -1.0), (-1.0, 2.0), (-2.0, 2.0)))
    py, nat = _both(monkeypatch, fp, 2)
    grid = facing_grid(fp, 0.0, 30.0)
    for f0, f1 in zip(grid, [*grid[1:], grid[0] + py.period], strict=True):
        monkeypatch.setenv(engine.ENV, "python")
        a = py.turn_region(f0, f1)
        monkeypatch.setenv(engine.ENV, "native")
        b = nat.native_turn_region(f0, f1)
        assert b is not None
        assert b.difference(a).area <= 1e-12, f0
        assert a.difference(b.buffer(1e-6, join_style="mitre")).area <= 1e-12, f0
    from tabletop.geometry.cspace import swept_pieces

    def _flat(rings: tuple[np.ndarray, ...]) -> tuple[np.ndarray, np.ndarray]:
        # the core's layout of rings: one (n, 2) array and the offsets of its rings
        return (np.ascontiguousarray(np.concatenate(rings), dtype=float),
                np.concatenate([[0], np.cumsum([len(r) for r in rings])]).astype(np.int64))

    _, mine = nat.native_obstacles()  # type: ignore[misc]
    foot = _flat(swept_pieces(fp, 30.0, 60.0))
    foot0 = _flat(swept_pieces(fp, 0.0, 30.0))
    args = (mine, *foot, (3.0, 3.0, 27.0, 19.0), np.pi / 16, (0.0, 0.0, 30.0, 22.0))
    with pytest.raises(native.NativeError, match="facing is not finite"):
        native.turn_region(*args, foot0, float("nan"))
    broken = (np.where(np.arange(len(foot0[0]))[:, None] == 0, np.inf, foot0[0]), foot0[1])
    with pytest.raises(native.NativeError, match="not finite"):
        native.turn_region(*args, broken, 30.0)
    got = native.turn_region(*args, foot0, 30.0)
    assert len(got[2]) >= 2

"""Two engines, one answer: every zone case (tests/zone_cases, the goldens' catalogue) and random
boards with every base shape, through the Python engine (the reference) and the native one.

Stated tolerance (docs: exactness and speed): the two zones differ by at most 1e-4 of the zone's
area (at least 1e-4 sq in) in their symmetric difference; where the native zone holds area the
Python one does not, farther than EPS from it, that area is still legal (a point of every such
part has a witness path that :func:`validate_path` accepts), and a native witness to points
across the zone is accepted too.
(The native construction samples the same arcs with its rays a hair apart, casts against the box
instead of cutting to it, and rounds vertices to 1e-7"; the Python engine is at places the more
conservative by up to a thousandth of a square inch.)
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
import shapely

from tabletop import legal_zone, zones
from tabletop.geometry import engine
from tabletop.geometry.footprints import Hull, Oval, Rect, Round
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Terrain, Unit

from support import zone_goldens as zg
from support.engines import on_engine, same_zone_on_both_engines

pytestmark = pytest.mark.skipif(engine.native_module() is None, reason=engine.native_problem())


def _compare(state: GameState, model: str, move: str, **kw: object) -> None:
    same_zone_on_both_engines(state, model, move, **kw)


CASES = [c for c in zg.all_cases() if c.kind != "block" and not c.setup and c.error is None]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_zone_case_has_one_answer(case: zg.ZoneCase) -> None:
    state = zg.case_state(case)
    kw = {k: v for k, v in (("roll", case.roll), ("mode", case.mode)) if v is not None}
    _compare(state, case.model, case.move, **kw)


BASES = {"round-32mm": Round(32.0), "oval-60x35mm": Oval(60.0, 35.0),
         "rect-25x50mm": Rect(25.0, 50.0),
         "hull-4x7in": Hull(((-2.0, -3.5), (2.0, -3.5), (2.0, 3.5), (-2.0, 3.5)))}


def _random_board(seed: int, base: object, friends: int = 0) -> GameState:
    """Five impassable rects, six 32 mm enemies, the mover ``mv`` at (15, 12) at a random
    facing, and ``friends`` more models of its unit 2.5-6" from it (round, oval and hull bases
    in turn, clear of each other, the terrain and the mover)."""
    rng = np.random.default_rng(seed)
    terrain = []
    for k in range(5):
        x, y = rng.uniform(4, 26), rng.uniform(4, 20)
        w, h = rng.uniform(0.5, 4), rng.uniform(0.5, 4)
        terrain.append(Terrain(f"t{k}", "impassable", ((x, y), (x + w, y), (x + w, y + h),
                                                      (x, y + h)), 3.0))
    enemies = []
    polys = [shapely.Polygon(t.polygon) for t in terrain]
    while len(enemies) < 6:
        x, y = rng.uniform(2, 28), rng.uniform(2, 22)
        if math.hypot(x - 15, y - 12) < 5 or any(p.distance(shapely.Point(x, y)) < 1 for p in
                                                 polys):
            continue
        if any(math.dist((x, y), m.at) < 1.4 for m in enemies):
            continue
        enemies.append(Model(f"e{len(enemies)}", Round(32.0), (x, y)))
    start = (15.0, 12.0)
    if any(p.distance(shapely.Point(start)) < 4.5 for p in polys):
        terrain = [t for t, p in zip(terrain, polys, strict=True)
                   if p.distance(shapely.Point(start)) >= 4.5]
    mine = [Model("mv", base, start, float(rng.uniform(0, 360)))]  # type: ignore[arg-type]
    kinds = [Round(32.0), Oval(60.0, 35.0), Hull(((-1.5, -2.5), (1.5, -2.5), (1.5, 2.5),
                                                  (-1.5, 2.5)))]
    while len(mine) < friends + 1:
        a, d = rng.uniform(0, 2 * math.pi), rng.uniform(2.5, 6.0)
        x, y = start[0] + d * math.cos(a), start[1] + d * math.sin(a)
        m = Model(f"f{len(mine)}", kinds[(len(mine) - 1) % 3], (x, y),  # type: ignore[arg-type]
                  float(rng.uniform(0, 360)))
        shape = m.base.placed(x, y, m.facing)  # type: ignore[attr-defined]
        if any(shape.distance(p) < 0.3 for p in polys) or \
                any(shape.distance(o.base.placed(*o.at, o.facing)) < 0.3  # type: ignore[attr-defined]
                    for o in mine + enemies):
            continue
        mine.append(m)
    mover = Unit("red", "red", ("INFANTRY",), 7.0, 2, 6, 1, tuple(mine))
    blue = Unit("blue", "blue", ("INFANTRY",), 6.0, 1, 7, 1, tuple(enemies))
    return GameState("diff", "wh40k-11e", Battle(2, "red", "movement"),
                     (Player("red"), Player("blue")), Battlefield(30.0, 24.0), tuple(terrain),
                     (), (mover, blue))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", list(BASES))
def test_random_boards_with_every_base_have_one_answer(name: str, seed: int) -> None:
    _compare(_random_board(seed, BASES[name]), "mv", "normal")


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("name", [n for n in BASES if not n.startswith("round")])
def test_turning_movers_among_friends_have_one_answer(name: str, seed: int) -> None:
    """A turning mover's layers cut by the friends near them: in the core on the native
    engine (those of the mover's footprint as their sums, ``end.native_models_pieces``; the
    others as their union, ``end.native_models_union``), by GEOS's difference with the
    friends' union on the Python engine."""
    _compare(_random_board(seed, BASES[name], friends=5), "mv", "normal")


@pytest.mark.parametrize("move", ["normal", "advance", "fall-back"])
@pytest.mark.parametrize("mates", [0, 4])
def test_a_round_start_in_contact_with_a_wall_slides_along_it_on_both_engines(
        move: str, mates: int) -> None:
    """A round mover whose base touches a wall's face exactly: its rays along the face run on
    the grown wall's boundary, not into it (the core once counted a point on an edge as
    inside and lost a 2-degree sliver along the wall at each end, 2.1 sq in of 100)."""
    base = Round(32.0)
    x = 20.0 - base.radius
    wall = Terrain("wall", "impassable", ((20.0, 10.0), (21.0, 10.0), (21.0, 30.0),
                                          (20.0, 30.0)), 3.0)
    ms = tuple(Model(f"m{i}", base, (x - 1.4 * (i + 1), 20.0 + (0.7 if i % 2 else -0.7)))
               for i in range(mates))
    red = Unit("red", "red", ("INFANTRY",), 8.0, 2, 6, 1, (Model("mv", base, (x, 20.0)), *ms))
    blue = Unit("blue", "blue", ("INFANTRY",), 6.0, 1, 7, 1,
                tuple(Model(f"e{i}", base, (12.0 + 1.4 * i, 31.0)) for i in range(5)))
    state = GameState("contact", "wh40k-11e", Battle(2, "red", "movement"),
                      (Player("red"), Player("blue")), Battlefield(44.0, 44.0), (wall,), (),
                      (red, blue))
    _compare(state, "mv", move, **({"roll": 3} if move == "advance" else {}))


def test_native_turning_layers_cut_the_friends_in_the_core(monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """The comparison above compares two ways of cutting: on the native engine no friends'
    union is built for a turning mover's layers (it would be for the Python engine's cut)."""
    from tabletop.zones import build

    state = _random_board(1, BASES["hull-4x7in"], friends=5)
    with on_engine("native"):
        zones.clear_caches()
        unioned = []
        real = build.models_region
        monkeypatch.setattr(build, "models_region",
                            lambda *a, **k: unioned.append(a) or real(*a, **k))
        got = legal_zone(state, "mv", "normal")
    assert not got.geometry.is_empty and unioned == []
    with on_engine("python"):
        zones.clear_caches()
        legal_zone(state, "mv", "normal")
    assert unioned, "the Python engine cuts by the friends' union (the board has friends near)"


def _unions_made(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """A list that gets the arguments of every friends' union the core makes from now on (the
    calls of ``end.native_sums`` with ``shapes=False``: ``end.native_models_union``'s)."""
    from tabletop.zones import end

    unions: list[tuple[object, ...]] = []
    real = end.native_sums
    monkeypatch.setattr(end, "native_sums", lambda *a, **k: (
        unions.append(a) if k.get("shapes") is False else None) or real(*a, **k))
    return unions


def test_the_other_footprints_union_is_kept_and_a_moved_friend_is_cut_where_it_stands(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On the native engine a turning layer cuts the friends of another footprint than the
    mover's by their union at its facing, kept for the next pick-up (the mover's unit, of its
    footprint as a rule, moves between pick-ups; the others stand): the next pick-up makes no
    union, and a friend that moved is cut where it now stands (the unions are kept by the
    bodies), as a fresh start cuts it."""
    unions = _unions_made(monkeypatch)
    state = _random_board(0, BASES["oval-60x35mm"], friends=6)
    red = state.units[0]
    assert {type(m.base) for m in red.models[1:]} == {Round, Oval, Hull}
    with on_engine("native"):
        zones.clear_caches()
        first = legal_zone(state, "mv", "normal")
        made = len(unions)
        assert made > 0, "the round and hull friends near the move, unioned per facing"
        again = legal_zone(replace(state), "mv", "normal")  # (a new state: no memo of it)
        assert len(unions) == made
        assert shapely.equals_exact(again.geometry, first.geometry, 0.0)
        # the round friend f1 steps 0.6" towards the mover: new unions where it stands
        f1 = red.models[1]
        assert isinstance(f1.base, Round)
        d = math.dist(f1.at, (15.0, 12.0))
        at = (f1.at[0] + 0.6 * (15.0 - f1.at[0]) / d, f1.at[1] + 0.6 * (12.0 - f1.at[1]) / d)
        moved = replace(state, units=(replace(red, models=(red.models[0], replace(f1, at=at),
                                                           *red.models[2:])),
                                      *state.units[1:]))
        got = legal_zone(moved, "mv", "normal")
        assert len(unions) > made
        zones.clear_caches()
        fresh = legal_zone(moved, "mv", "normal")
    assert shapely.equals_exact(got.geometry, fresh.geometry, 0.0)
    assert got.geometry.symmetric_difference(first.geometry).area > 0.01
    near = shapely.Point(at).buffer(f1.base.radius + Oval(60.0, 35.0).radius)
    assert near.intersection(first.geometry).area != near.intersection(got.geometry).area


def test_the_next_model_of_the_unit_meets_the_other_footprints_union_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The union of the friends of another footprint is made of those near the moves of the
    mover and of the friends of its footprint near it (its unit), and a kept union of more
    friends answers (those far off cut nothing), so the unit's next model, whose move's box
    is another and meets other friends, finds it made at each facing the first pick-up
    reached: its first pick-up makes no union there, and cuts as a fresh start does."""
    unions = _unions_made(monkeypatch)
    state = _random_board(0, BASES["oval-60x35mm"], friends=6)
    red = state.units[0]
    # the mover and the other oval of its unit on the grid's facing 0 (no start layer of its
    # own), the second 3.7" off; a round friend near the second's move, not the first's
    assert red.models[2].base == red.models[0].base
    assert math.dist(red.models[2].at, red.models[0].at) > 3.0
    far = Model("far", Round(32.0), (3.5, 3.5))
    assert all(shapely.Polygon(t.polygon).distance(shapely.Point(far.at)) > 1.0
               for t in state.terrain)
    facing0 = tuple(replace(m, facing=0.0) if k in (0, 2) else m
                    for k, m in enumerate(red.models))
    state = replace(state, units=(replace(red, models=(*facing0, far)), *state.units[1:]))
    with on_engine("native"):
        zones.clear_caches()
        legal_zone(state, "mv", "normal")
        made = len(unions)
        assert made > 0, "the round and hull friends near the move, unioned per facing"
        got = legal_zone(replace(state), "f2", "normal")
        assert len(unions) == made
        zones.clear_caches()
        fresh = legal_zone(state, "f2", "normal")
    assert shapely.equals_exact(got.geometry, fresh.geometry, 0.0)


def test_a_round_unit_meets_the_non_round_friends_union_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A round mover cuts its non-round friends by their union, kept in the core: made of
    those near the moves of the mover and of the friends on its base near it (its unit), so
    the unit's next model, whose move reaches a hull the first one's does not, finds it made:
    its first pick-up makes no union, cuts as a fresh start does and as the Python engine
    does; a friend that moves is cut where it then stands."""
    unions = _unions_made(monkeypatch)
    hull = Hull(((-1.5, -2.5), (1.5, -2.5), (1.5, 2.5), (-1.5, 2.5)))
    red = Unit("red", "red", ("INFANTRY",), 7.0, 2, 6, 1, (
        Model("mv", Round(32.0), (10.0, 12.0)), Model("f1", Round(32.0), (13.0, 12.0)),
        Model("o1", Oval(60.0, 35.0), (10.0, 15.5), 30.0),
        # beyond the reach of mv's move (7.63" and the hull's 2.92"), within f1's
        Model("h1", hull, (22.0, 12.0), 90.0)))
    blue = Unit("blue", "blue", ("INFANTRY",), 6.0, 1, 7, 1,
                (Model("e1", Round(32.0), (20.0, 4.0)),))
    wall = Terrain("w", "impassable", ((15.5, 8.0), (16.5, 8.0), (16.5, 11.0), (15.5, 11.0)),
                   3.0)
    state = GameState("friends", "wh40k-11e", Battle(2, "red", "movement"),
                      (Player("red"), Player("blue")), Battlefield(30.0, 24.0), (wall,), (),
                      (red, blue))
    with on_engine("native"):
        zones.clear_caches()
        first = legal_zone(state, "mv", "normal")
        assert len(unions) == 1
        assert {tuple(r) for r in unions[0][2].at.tolist()} == {(10.0, 15.5), (22.0, 12.0)}
        got = legal_zone(replace(state), "f1", "normal")
        assert len(unions) == 1, "the union made for mv answers f1's pick-up"
        zones.clear_caches()
        fresh = legal_zone(state, "f1", "normal")
        assert shapely.equals_exact(got.geometry, fresh.geometry, 0.0)
        # the hull steps 1" towards f1: a new union, cut where it stands
        moved = replace(state, units=(replace(red, models=(*red.models[:3], replace(
            red.models[3], at=(21.0, 12.0)))), blue))
        before = len(unions)
        again = legal_zone(moved, "f1", "normal")
        assert len(unions) > before
        assert again.geometry.symmetric_difference(got.geometry).area > 0.1
    # the oval cut from mv's zone, the hull (its near edge at x = 19.5) from f1's, where it
    # stands
    assert not first.geometry.contains(shapely.Point(10.0, 15.5))
    assert first.geometry.contains(shapely.Point(10.0, 10.0))
    assert not got.geometry.contains(shapely.Point(19.2, 12.0))
    assert got.geometry.contains(shapely.Point(18.5, 12.0))
    assert not again.geometry.contains(shapely.Point(18.5, 12.0))
    same_zone_on_both_engines(state, "f1", "normal")
    same_zone_on_both_engines(moved, "f1", "normal")


def test_a_round_pickup_is_one_call_of_the_core() -> None:
    """The native engine answers a round mover from the core's search (the Python engine's
    search state is absent), so the comparisons above compare two implementations."""
    state = _random_board(0, BASES["round-32mm"])
    with on_engine("native"):
        assert zones.engine().name == "native"
        got = legal_zone(state, "mv", "normal")
        assert got.disk is not None and got.disk.search_state is None
    with on_engine("python"):
        ref = legal_zone(state, "mv", "normal")
        assert ref.disk is not None and ref.disk.search_state is not None


@pytest.mark.parametrize("name", [n for n in BASES if not n.startswith("round")])
def test_native_union_of_the_layers_is_geos_union_of_them(monkeypatch: pytest.MonkeyPatch,
                                                           name: str) -> None:
    """On the native engine a turning mover's layers stay in the core and are unioned there
    (``wedges.native_union``: pairwise on its grid of 1e-7"); where the core refuses the union
    they are unioned by GEOS as before. Both answers are the same point set: every vertex of
    each within 2e-7" of the other (the grid; GEOS's union also keeps holes 1e-8" wide between
    nearly coincident layers, which the grid closes) and the same area up to that rounding
    along the boundary (2e-7" times its length)."""
    from tabletop.geometry import wedges
    from tabletop.zones import build

    state = _random_board(3, BASES[name], friends=5)
    with on_engine("native"):
        calls: list[int] = []
        real = wedges.native_union
        monkeypatch.setattr(build, "native_union",
                            lambda kept, *a: calls.append(len(kept)) or real(kept, *a))
        core = legal_zone(state, "mv", "normal").geometry
        assert calls and calls[0] > 1, "the layers were kept in the core and unioned there"
        zones.clear_caches()
        monkeypatch.setattr(build, "native_union", lambda *a: None)  # as where it refuses
        geos = legal_zone(state, "mv", "normal").geometry
    assert core.is_valid and not core.is_empty
    assert abs(core.area - geos.area) <= 2e-7 * geos.length
    for a, b in ((core, geos), (geos, core)):
        xy = shapely.get_coordinates(a)
        assert shapely.dwithin(b, shapely.points(xy), 2e-7).all()


def test_a_union_the_core_refuses_is_left_to_geos(monkeypatch: pytest.MonkeyPatch) -> None:
    """``native_union`` answers ``None`` where the core refuses (its coordinate limit)."""
    from tabletop.geometry import wedges

    with on_engine("native"):
        assert wedges.native_union([], [shapely.box(0, 0, 1, 1)], (0.0, 0.0, 1e12, 1.0)) is None
        got = wedges.native_union([], [shapely.box(0, 0, 1, 1), shapely.box(0.5, 0, 2, 1)],
                                  (0.0, 0.0, 2.0, 1.0))
        assert got is not None and abs(got.area - 2.0) < 1e-9
    with on_engine("python"):
        assert wedges.native_union([], [shapely.box(0, 0, 1, 1)], (0.0, 0.0, 1.0, 1.0)) is None


def test_a_kept_union_answers_for_fewer_friends_only_while_all_of_its_stand(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``end.native_models_union``: a kept union of more friends answers for fewer (those
    more cut nothing where only the fewer reach), but not once one of its friends has moved
    off (it would cut where that friend no longer stands): then a new union is made."""
    from tabletop.zones import end

    unions = _unions_made(monkeypatch)
    oval = Oval(60.0, 35.0)
    a, b, c = ((5.0, 5.0), Round(32.0), 0.0), ((9.0, 5.0), Round(32.0), 0.0), \
        ((20.0, 15.0), Round(32.0), 0.0)
    c_moved = ((25.0, 20.0), Round(32.0), 0.0)
    with on_engine("native"):
        zones.clear_caches()
        first = end.native_models_union((a, b), oval, 30.0, (a, b, c), frozenset((a, b, c)))
        assert first is not None and len(unions) == 1
        # fewer friends, all of the kept union's standing: that union answers
        assert end.native_models_union((a,), oval, 30.0, (a, b), frozenset((a, b, c))) is first
        assert len(unions) == 1
        # c has moved: the kept union is not taken, one of those standing is made
        again = end.native_models_union((a,), oval, 30.0, (a, b),
                                        frozenset((a, b, c_moved)))
        assert again is not first and len(unions) == 2
        # another facing: its own union
        end.native_models_union((a,), oval, 60.0, (a,), frozenset((a, b, c_moved)))
        assert len(unions) == 3


@pytest.mark.parametrize("name", ["hull-4x7in", "oval-60x35mm"])
def test_a_turning_movers_regions_in_one_call_are_each_alone(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """``wedges.native_layer_regions`` (a turning mover's layers and hub, one call of the core
    on its threads) gives each region exactly as ``native_layer_region`` makes it alone, the
    friends' cut among them; a row the core refuses answers ``None`` and the rest still
    answer."""
    from tabletop.geometry import wedges
    from tabletop.zones import build

    if engine.native_module() is None:
        pytest.skip(engine.native_problem())
    asks: list[wedges.RegionAsk] = []
    real = build.native_layer_regions

    def kept(a: list[wedges.RegionAsk]) -> list[tuple[object, object] | None]:
        asks.extend(a)
        return real(a)

    monkeypatch.setattr(build, "native_layer_regions", kept)
    state = _random_board(1, BASES[name], friends=5)
    with on_engine("native"):
        monkeypatch.setenv(engine.THREADS_ENV, "2")
        legal_zone(state, "mv", "normal")
        assert len(asks) >= 3 and any(a[3] is not None or a[4] is not None for a in asks)
        together = real(asks)
        for ask, got in zip(asks, together, strict=True):
            alone = wedges.native_layer_region(*ask)
            assert (got is None) == (alone is None)
            if got is not None and alone is not None:
                assert got[1] == alone[1]
                assert shapely.equals_exact(wedges.kept_polygons(got[0]),
                                            wedges.kept_polygons(alone[0]), 0.0)
        # a row past the core's checks (no source) among good ones
        core = engine.core()
        assert core is not None
        rows = [wedges.region_row(core, *a) for a in asks[:2]]
        assert all(r is not None for r in rows)
        bad = (*rows[0][:5], 0, *rows[0][6:])  # type: ignore[index]
        got = core.search_regions([rows[0], bad, rows[1]], 2)
        assert got[1] is None and got[0] is not None and got[2] is not None


def test_the_cores_threads_work_in_a_forked_process() -> None:
    """The core's helper threads are a pool kept for the program; a process forked after it
    was made (the fuzzer's workers are) gets one of its own instead of waiting for the
    parent's threads, which it does not have."""
    import multiprocessing

    if engine.native_module() is None:
        pytest.skip(engine.native_problem())
    state = _random_board(0, BASES["hull-4x7in"], friends=5)
    with on_engine("native"):
        with pytest.MonkeyPatch.context() as mp:
            mp.setenv(engine.THREADS_ENV, "2")
            want = legal_zone(state, "mv", "normal").geometry.area  # (the pool made here)
            ctx = multiprocessing.get_context("fork")
            done = ctx.Queue()
            child = ctx.Process(target=_forked_zone, args=(state, done))
            child.start()
            child.join(120)
            alive = child.is_alive()
            if alive:
                child.kill()
            assert not alive, "the forked process's zone did not finish"
            assert child.exitcode == 0
            assert done.get(timeout=10) == pytest.approx(want, rel=1e-9)


def _forked_zone(state: GameState, done: object) -> None:
    """(:func:`test_the_cores_threads_work_in_a_forked_process`'s child)"""
    zones.clear_caches()
    done.put(legal_zone(state, "mv", "normal").geometry.area)  # type: ignore[attr-defined]

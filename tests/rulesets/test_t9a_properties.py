"""Properties of t9a-2 block moves (hypothesis)."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from tabletop.geometry.blocks import BlockGeom, rotate_point, wheel_sweep
from tabletop.geometry.tolerance import EPS, mm
from tabletop.rulesets.t9a_2 import movement as t9a
from tabletop.state import Terrain

from support.t9a_support import act, block, state

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much])

manoeuvre = st.one_of(
    st.builds(lambda d: {"do": "forward", "distance": d}, st.floats(0.0, 6.0)),
    st.builds(lambda a: {"do": "wheel", "angle": a}, st.floats(-120.0, 120.0)),
)


@st.composite
def scenes(draw: st.DrawFn) -> tuple[object, list[dict[str, object]]]:
    files = draw(st.integers(1, 6))
    models = draw(st.integers(files, 3 * files))
    mover = block("u", at=(36.0, 30.0), facing=draw(st.floats(0, 360)), models=models,
                  files=files, Adv=draw(st.floats(2, 8)), Mar=16)
    others = []
    for i in range(draw(st.integers(1, 4))):
        others.append(block(f"o{i}", draw(st.sampled_from(["red", "blue"])),
                            at=(draw(st.floats(20, 52)), draw(st.floats(14, 40))),
                            facing=draw(st.floats(0, 360)), models=5, files=5))
    terrain = [Terrain("rock", "impassable",
                       ((x, y), (x + 3, y), (x + 3, y + 2), (x, y + 2)))
               for x, y in [(draw(st.floats(20, 50)), draw(st.floats(14, 40)))]]
    st0 = state(mover, *others, terrain=terrain)
    polys = [t9a.block_geom(u).polygon for u in st0.units]
    for i, p in enumerate(polys):
        assume(p.distance(terrain[0].shape) > 0)
        for q in polys[i + 1:]:
            assume(p.distance(q) > 0)
    move = draw(st.sampled_from(["advance", "march"]))
    actions = [{"do": "select", "unit": "u", "move": move},
               *draw(st.lists(manoeuvre, min_size=1, max_size=4)), {"do": "commit"}]
    return st0, actions


@pytest.mark.slow
@SETTINGS
@given(scenes())
def test_committed_move_is_clear_and_within_cap(scene: tuple[object, list]) -> None:
    st0, actions = scene
    s = st0
    start = t9a.block_geom(st0.unit("u"))  # type: ignore[attr-defined]
    committed = False
    failed_test = False
    for a in actions:
        s, ok, _reasons, events = act(s, a)  # type: ignore[arg-type]
        failed_test |= any(e["kind"] == "march-test" and not e["passed"] for e in events)
        if a["do"] == "commit":
            committed = ok
    assume(committed)
    u = s.unit("u")
    # a unit that stays where it was may stay within 1" (it did not move there by choice)
    assume(t9a.block_geom(u) != start)
    end = t9a.block_geom(u).polygon
    for other in s.units:
        if other.id != "u":
            assert end.distance(t9a.block_geom(other).polygon) > 1.0 + EPS
    for t in s.terrain:
        assert end.distance(t.shape) > 1.0 + EPS
    cap = u.Mar if actions[0]["move"] == "march" and not failed_test else u.Adv
    disp = start.displacements(t9a.block_geom(u))
    assert disp.max() <= cap + EPS


@SETTINGS
@given(scenes())
def test_every_staged_position_respects_the_cap(scene: tuple[object, list]) -> None:
    st0, actions = scene
    s = st0
    start = t9a.block_geom(st0.unit("u"))  # type: ignore[attr-defined]
    for a in actions[:-1]:
        s, _ok, _, _ = act(s, a)  # type: ignore[arg-type]
        u = s.unit("u")
        cap = u.Mar if actions[0]["move"] == "march" else u.Adv
        assert start.displacements(t9a.block_geom(u)).max() <= cap + EPS


@pytest.mark.slow
@SETTINGS
@given(files=st.integers(1, 6), ranks=st.integers(1, 4), angle=st.floats(30.0, 150.0),
       sign=st.sampled_from([1.0, -1.0]), frac=st.floats(0.3, 0.7), inward=st.floats(0.2, 0.9),
       facing=st.floats(0, 360))
def test_wheel_over_obstacle_refused_even_if_end_clear(files: int, ranks: int, angle: float,
                                                       sign: float, frac: float, inward: float,
                                                       facing: float) -> None:
    u = block("u", at=(36.0, 24.0), facing=facing, models=files * ranks, files=files,
              Adv=40, Mar=80, base="rect 25x25mm")
    g = t9a.block_geom(u)
    a = sign * angle
    pivot = g.wheel_pivot(a)
    outer = g.corners["fl" if a > 0 else "fr"]
    mid = rotate_point(outer, pivot, a * frac)
    # a point swept by the front edge, strictly inside the sector
    p = (pivot[0] + (mid[0] - pivot[0]) * inward, pivot[1] + (mid[1] - pivot[1]) * inward)
    rock = box(p[0] - 0.05, p[1] - 0.05, p[0] + 0.05, p[1] + 0.05)
    end = g.wheeled(a)
    assume(end.polygon.distance(rock) > 1.0 + 1e-3)
    assume(g.polygon.distance(rock) > 1e-3)
    assert wheel_sweep(g, a).intersects(rock)
    terrain = Terrain("rock", "impassable", tuple(rock.exterior.coords)[:-1])
    base_state = state(u, size=(72.0, 48.0))
    s, ok, _, _ = act(base_state, {"do": "select", "unit": "u", "move": "advance"})
    _free, ok_free, _r, _ = act(s, {"do": "wheel", "angle": a})
    assume(ok_free)  # without the rock the wheel is legal (on the battlefield)
    blocked = state(u, terrain=[terrain])
    s, ok, _, _ = act(blocked, {"do": "select", "unit": "u", "move": "advance"})
    _, ok, reasons, _ = act(s, {"do": "wheel", "angle": a})
    assert not ok
    assert any("impassable terrain rock" in x for x in reasons)
    lo, hi = t9a.wheel_range(s)
    assert (hi if a > 0 else -lo) < abs(a)


@SETTINGS
@given(files=st.integers(1, 8), ranks=st.integers(1, 5), angle=st.floats(-170.0, 170.0),
       facing=st.floats(0, 360))
# wheels so slight that no point moves 1e-6" (the sector and band were slivers GEOS dropped)
@example(files=7, ranks=1, angle=5.960464477539063e-08, facing=149.75)
@example(files=1, ranks=1, angle=1.2907267445133615e-76, facing=0.0)
@example(files=8, ranks=5, angle=-2e-5, facing=33.0)
def test_wheel_sweep_contains_every_intermediate_position(files: int, ranks: int, angle: float,
                                                          facing: float) -> None:
    g = BlockGeom(mm(20), mm(40), files * ranks - (ranks > 1), files, (30.0, 30.0), facing)
    sweep = wheel_sweep(g, angle)
    grown = sweep.buffer(1e-9)
    for k in range(21):
        assert grown.contains(g.wheeled(angle * k / 20).polygon)
    # and is not much larger than the union of those positions' hull of arcs
    r = math.hypot(g.width, g.depth)
    assert sweep.area <= g.polygon.area * 2 + math.pi * r * r * abs(angle) / 360 + 1e-6

"""Where the window labels a refusal: by the offending model, on the part of its base the rule
is about (never at the middle of a geometry far from it, like the battlefield's whole edge)."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest
from shapely.geometry import LineString, Point, Polygon

from tabletop.rules.violation import Violation
from tabletop.rulesets import apply_action
from tabletop.scenario.io import load_scenario, shipped
from tabletop.state import GameState
from tabletop.view.boardlabels import mark_of
from tabletop.view.render import Mark, mark_anchor

from support.view_support import LR_AT, demo_land_raider, key, post, small_state


def ok(state: GameState, action: dict) -> GameState:  # type: ignore[type-arg]
    out = apply_action(state, action)
    assert out.ok, out.reasons
    return out.state


def anchors(state: GameState, violations: tuple[Violation, ...]
            ) -> list[tuple[Violation, Point]]:
    return [(v, Point(mark_anchor(state, mark_of(v)))) for v in violations]


def base_of(state: GameState, mid: str) -> Polygon:
    return state.model(mid)[1].footprint


def test_a_turn_off_the_battlefield_is_labelled_at_the_part_of_the_base_by_the_edge() -> None:
    st = demo_land_raider()
    out = apply_action(st, {"do": "move", "model": "lr1", "path": [[*LR_AT, 195.0]]})
    assert not out.ok
    rules = {v.rule for v in out.violations}
    assert {"off-battlefield", "leaves-battlefield"} <= rules
    lr = base_of(st, "lr1")
    for v, a in anchors(st, out.violations):
        assert lr.distance(a) < 1e-6, v.rule  # on the Land Raider's base
        if v.rule == "off-battlefield":
            assert a.x < 1.5, a  # by the left edge, not the board's middle (30, 22)


def test_commit_refusals_are_labelled_by_their_models() -> None:
    # terrain: the Land Raider turned onto barricade-west
    st = demo_land_raider((4.0, 17.4))
    st = ok(st, {"do": "move", "model": "lr1", "path": [[4.0, 17.4, 165.0]]})
    out = apply_action(st, {"do": "commit"})
    (v, a), = [(v, a) for v, a in anchors(st, out.violations) if v.rule == "terrain"]
    barricade = next(t.shape for t in st.terrain if t.id == "barricade-west")
    assert barricade.buffer(1e-6).contains(a) and base_of(st, "lr1").buffer(1e-6).contains(a)
    # coherency: the middle of the segment between the pair's closest points
    st = ok(load_scenario(shipped("demo.toml")),
            {"do": "select", "unit": "intercessors", "move": "normal"})
    st = ok(st, {"do": "move", "model": "int1", "path": [[11.5, 17.1]]})
    out = apply_action(st, {"do": "commit"})
    coh = [(v, a) for v, a in anchors(st, out.violations) if v.rule.startswith("coherency")]
    assert coh
    for v, a in coh:
        assert v.distance is not None
        assert base_of(st, v.models[0]).distance(a) == pytest.approx(v.distance / 2, abs=1e-6)
    # engagement: between the Scout and the Genestealer, by the Scout
    st = ok(load_scenario(shipped("demo.toml")),
            {"do": "select", "unit": "scouts", "move": "fall-back", "mode": "desperate-escape"})
    out = apply_action(st, {"do": "commit"})
    eng = [(v, a) for v, a in anchors(st, out.violations) if v.rule == "engaged"]
    assert eng
    for v, a in eng:
        assert v.distance is not None
        assert base_of(st, v.models[0]).distance(a) <= v.distance / 2 + 1e-6
    # overlapping bases: where they overlap
    st = small_state()
    st = ok(st, {"do": "move", "model": "s1", "path": [[6.0, 10.4]]})
    out = apply_action(st, {"do": "commit"})
    (v, a), = [(v, a) for v, a in anchors(st, out.violations) if v.rule == "overlap"]
    both = base_of(st, "s1").intersection(base_of(st, "s2"))
    assert both.buffer(1e-6).contains(a)


def test_any_geometry_far_from_the_model_is_labelled_at_the_base_nearest_it() -> None:
    st = small_state()  # s1 (32 mm) at (5, 10)
    s1 = base_of(st, "s1")
    far = Polygon([(20, 0), (22, 0), (22, 2), (20, 2)])  # e.g. a transport to be set up near
    a = Point(mark_anchor(st, Mark(label="9\"", geometry=far, models=("s1",))))
    assert s1.distance(a) < 1e-6 and a.x > 5.0 and a.y < 10.0  # its side towards it
    ring = Polygon([(0, 0), (30, 0), (30, 20), (0, 20)]).exterior
    a = Point(mark_anchor(st, Mark(label="x", geometry=ring, models=("s1",))))
    assert s1.distance(a) < 1e-6 and a.x < 5.0  # the side nearest the left edge
    line = LineString([(5.6, 10.0), (9.6, 10.0)])
    assert mark_anchor(st, Mark(label="x", geometry=line, models=("s1",))) == \
        pytest.approx((7.6, 10.0))
    # a model not on the board: a point of the geometry; nothing at all: its model
    gone = replace(st, units=tuple(u for u in st.units if u.id != "squad"))
    assert far.contains(Point(mark_anchor(gone, Mark(geometry=far, models=("s1",)))))
    assert mark_anchor(st, Mark(models=("s1",))) == (5.0, 10.0)


def test_the_window_draws_the_turn_refusal_label_by_the_land_raider(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(demo_land_raider())
    vp = app.ctrl.viewport
    post(app, pygame.MOUSEMOTION, pos=vp.to_px(*LR_AT), rel=(0, 0), buttons=(0, 0, 0))
    key(app, pygame.K_e)
    assert app.refusal is not None and not app.refusal.ok
    labelled = [m for m in app._marks() if m.label]
    assert labelled and any(m.label.endswith('" off the battlefield') for m in labelled)
    assert not any("limit 0" in m.label for m in labelled)
    lr = base_of(app.ctrl.state, "lr1")
    for m in labelled:
        assert lr.distance(Point(mark_anchor(app.ctrl.state, m))) < 1e-6


def test_a_turn_refusal_is_listed_under_the_battlefield_edge() -> None:
    from tabletop.view.panel import group_refusals

    st = demo_land_raider()
    out = apply_action(st, {"do": "move", "model": "lr1", "path": [[*LR_AT, 195.0]]})
    groups = dict(group_refusals(out.reasons, out.violations))
    assert list(groups) == ["Battlefield edge"] and len(groups["Battlefield edge"]) == 2
    st = ok(demo_land_raider((4.0, 17.4)), {"do": "move", "model": "lr1",
                                            "path": [[4.0, 17.4, 165.0]]})
    out = apply_action(st, {"do": "commit"})
    assert "Terrain" in dict(group_refusals(out.reasons, out.violations))

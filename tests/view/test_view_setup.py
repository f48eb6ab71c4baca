"""Setting models up in the window: dragged from the panel's list or from their transport on the
board, with the list's rows staying where they are while models are placed."""

from __future__ import annotations

from dataclasses import replace

import pygame
import pytest

from tabletop.geometry.footprints import parse_base
from tabletop.scenario.io import load_scenario, shipped
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Selection, Unit
from tabletop.view.controller import Controller, setup_source
from tabletop.view.viewport import Viewport

from support.view_support import DiscZone, key, panel_text, post

VP = Viewport(scale=10.0, ox=0.0, oy=0.0)
B32 = parse_base("32mm")
HULL = ((-2.0, -3.0), (2.0, -3.0), (2.0, 3.0), (-2.0, 3.0))


def transport_board(*, selected: bool = True) -> GameState:
    """A Rhino with three Riders aboard, the Riders selected to disembark."""
    rhino = Unit("rhino", "red", ("VEHICLE", "TRANSPORT"), 12, 10, 6, 2,
                 (Model("rh1", parse_base("hull", HULL), at=(10.0, 10.0)),), name="Rhino")
    riders = Unit("riders", "red", ("INFANTRY",), 6, 1, 7, 1,
                  tuple(Model(f"r{i}", B32) for i in range(1, 4)), location="embarked",
                  transport="rhino", name="Riders")
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2, (Model("f0", B32, at=(26.0, 18.0)),))
    sel = Selection(unit="riders", move="disembark", mode="tactical") if selected else None
    return GameState("setup", "wh40k-11e",
                     Battle(2, "red", "movement", step="move-units", selection=sel),
                     (Player("red"), Player("blue")), Battlefield(30.0, 22.0),
                     units=(rhino, riders, foe))


def test_a_press_on_the_transport_starts_placing_the_next_waiting_model() -> None:
    st = transport_board()
    calls: list[str] = []

    def zone_fn(state, mid):  # type: ignore[no-untyped-def]
        calls.append(mid)
        return DiscZone((10.0, 15.0), 2.0)

    c = Controller(st, VP, zone_fn=zone_fn)
    src = setup_source(st, st)
    assert src is not None and src.waiting == ("r1", "r2", "r3") and src.source == "rhino"
    c.setup = src
    assert c.pointer_down(VP.to_px(10.5, 9.0)) == []  # on the Rhino, off its centre
    d = c.drag
    assert d is not None and d.placing and d.anchor == "r1" and calls == ["r1"]
    assert c.focus == "riders"  # the panel stays on the unit being set up
    c.pointer_move(VP.to_px(10.0, 14.0))
    (intent,) = c.pointer_up(VP.to_px(10.0, 14.0))
    assert intent.data["actions"] == [{"do": "place", "model": "r1", "at": [10.0, 14.0]}]
    # once r1 is placed (the board as drawn has it), r2 is next
    shown = st.with_unit(replace(st.unit("riders"), models=tuple(  # type: ignore[arg-type]
        replace(m, at=(10.0, 14.0)) if m.id == "r1" else m
        for m in st.unit("riders").models)))  # type: ignore[union-attr]
    assert setup_source(st, shown).waiting == ("r2", "r3")  # type: ignore[union-attr]
    # Ctrl+click on the transport is not a placement; without a set-up a press only shows it
    c.pointer_down(VP.to_px(10.0, 10.0), ctrl=True)
    assert c.drag is None
    free = transport_board(selected=False)
    c2 = Controller(free, VP, zone_fn=zone_fn)
    assert setup_source(free, free) is None
    (focus,) = c2.pointer_down(VP.to_px(10.0, 10.0))
    assert focus.kind == "focus" and focus.data["unit"] == "rhino" and c2.drag is None


def test_a_unit_from_reserves_has_no_board_source() -> None:
    st = transport_board()
    riders = replace(st.unit("riders"), location="strategic-reserves", transport=None)
    st = st.with_unit(riders)  # type: ignore[arg-type]
    st = replace(st, battle=replace(st.battle, selection=Selection(unit="riders",
                                                                   move="ingress")))
    src = setup_source(st, st)
    assert src is not None and src.source is None and src.waiting == ("r1", "r2", "r3")
    c = Controller(st, VP, zone_fn=lambda s, m: DiscZone((3.0, 3.0), 2.0))
    c.setup = src
    (focus,) = c.pointer_down(VP.to_px(10.0, 10.0))  # the Rhino is only shown
    assert focus.kind == "focus" and c.drag is None


@pytest.fixture
def demo(app_factory):  # type: ignore[no-untyped-def]
    return app_factory(load_scenario(shipped("demo.toml")))


def place_rows(app):  # type: ignore[no-untyped-def]
    return {r.value: r.rect for r in app.rows if r.kind in ("place", "placed")}


def test_the_terminators_disembark_by_dragging_from_the_land_raider(demo) -> None:  # type: ignore[no-untyped-def]
    app = demo
    app.ctrl.focus = "assault-terminators"
    key(app, pygame.K_d)
    assert app.state.battle.selection is not None, app.message
    rows = place_rows(app)
    assert list(rows) == ["at1", "at2", "at3", "at4", "at5"]
    vp = app.ctrl.viewport
    lr = app.state.model("lr1")[1].at
    # at1 beside the Land Raider, at2 on its other side: coherency goes from ok to a failure
    for mid, spot in (("at1", (8.2, 6.5)), ("at2", (-1.0, 12.5)), ("at3", (8.2, 8.2))):
        post(app, pygame.MOUSEBUTTONDOWN, pos=vp.to_px(*lr), button=1)
        d = app.ctrl.drag
        assert d is not None and d.placing and d.anchor == mid, app.message
        assert app.ctrl.focus == "assault-terminators"
        zone = d.zones[mid]
        x, y = zone.nearest(*spot)
        post(app, pygame.MOUSEMOTION, pos=vp.to_px(x, y), rel=(0, 0), buttons=(1, 0, 0))
        post(app, pygame.MOUSEBUTTONUP, pos=vp.to_px(x, y), button=1)
        staged = app.state.battle.selection.staged  # type: ignore[union-attr]
        assert staged[-1]["do"] == "place" and staged[-1]["model"] == mid, app.message
        assert place_rows(app) == rows  # the rows did not move
        assert "Land Raider" not in [r.value for r in app.rows if r.kind == "move"]
    assert app.coherency("assault-terminators"), "at2 is out of coherency: the panel changed"
    assert [r.value for r in app.rows if r.kind == "place"] == ["at4", "at5"]
    # a placed model's row stays, greyed: a press on it gives the next model to place
    post(app, pygame.MOUSEBUTTONDOWN, pos=rows["at1"].center, button=1)
    d = app.ctrl.drag
    assert d is not None and d.placing and d.anchor == "at4" and "at1 is placed" in app.message


def test_the_panel_names_where_the_models_come_from(demo, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    app = demo
    app.ctrl.focus = "assault-terminators"
    key(app, pygame.K_d)
    assert "Drag each model from this list or from the Land Raider onto the shaded area:" \
        in panel_text(app, monkeypatch)
    app.ctrl.focus = "bladeguard"
    key(app, pygame.K_ESCAPE)  # the Terminators' selection taken back
    key(app, pygame.K_i)
    text = panel_text(app, monkeypatch)
    assert "Drag each model from this list onto the shaded area:" in text, text


def test_the_set_up_area_is_shaded_as_soon_as_the_unit_is_selected(app_factory) -> None:  # type: ignore[no-untyped-def]
    import numpy as np

    app = app_factory(transport_board(selected=False))
    app.draw()
    before = pygame.surfarray.array3d(app.screen).copy()
    app.ctrl.focus = "riders"
    key(app, pygame.K_d)
    assert app.state.battle.selection is not None, app.message
    area = app.setup_area()
    assert area is not None and not area.is_empty  # within 3" of the Rhino
    assert area.distance(app.state.model("rh1")[1].footprint) < 3.0 + 1e-6
    app.draw()
    after = pygame.surfarray.array3d(app.screen)
    c = area.representative_point()
    x, y = (round(v) for v in app.ctrl.viewport.to_px(c.x, c.y))
    assert not np.array_equal(before[x, y], after[x, y])  # shaded there, no drag begun
    assert app.ctrl.drag is None

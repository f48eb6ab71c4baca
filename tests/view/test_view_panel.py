"""The side panel: drawn from one frozen view value, returning what it drew, its regions fixed
whatever they hold (the tabs never move under the pointer)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pygame
import pytest

from tabletop.scenario.io import load_scenario, shipped
from tabletop.view import panel
from tabletop.view.app import App

from support.view_support import click, drag, key, post


def _fixed(app: App) -> tuple[object, ...]:
    app.step()
    tabs = tuple((r.value, tuple(r.rect)) for r in app.rows if r.kind == "tab")
    nxt = tuple(next(r.rect for r in app.rows if r.kind == "next"))
    return tabs, nxt, tuple(app.unit_area), tuple(app.list_area)


def test_regions_stay_put_through_selection_steps_and_refusals(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(load_scenario(shipped("demo.toml")))
    seen = {_fixed(app)}
    click(app, app.state.model("int1")[1].at)  # type: ignore[arg-type]
    seen.add(_fixed(app))
    key(app, pygame.K_n)
    seen.add(_fixed(app))
    a = app.state.model("int1")[1].at
    assert a is not None
    drag(app, a, (a[0] - 3.0, a[1] - 5.0))  # far from the others: out of coherency
    seen.add(_fixed(app))
    key(app, pygame.K_RETURN)  # refused: the refusals tab comes up
    assert app.tab == "refusals"
    seen.add(_fixed(app))
    key(app, pygame.K_r)
    key(app, pygame.K_ESCAPE)
    click(app, app.state.model("hg1")[1].at)  # type: ignore[arg-type]  # an enemy unit
    seen.add(_fixed(app))
    assert len(seen) == 1, seen


def test_clicking_a_tab_only_changes_the_tab(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(load_scenario(shipped("demo.toml")))
    click(app, app.state.model("int1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_n)
    app.step()
    focus, sel = app.ctrl.focus, app.state.battle.selection
    for name in ("dice", "refusals", "messages", "roster"):
        r = next(r for r in app.rows if r.kind == "tab" and r.value == name)
        post(app, pygame.MOUSEBUTTONDOWN, pos=r.rect.center, button=1)
        post(app, pygame.MOUSEBUTTONUP, pos=r.rect.center, button=1)
        assert app.tab == name
        assert app.ctrl.focus == focus and app.state.battle.selection == sel


def test_the_panel_draws_one_frozen_view_and_returns_what_it_drew(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(load_scenario(shipped("demo.toml")))
    click(app, app.state.model("int1")[1].at)  # type: ignore[arg-type]
    view = app.panel_view()
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.tab = "dice"  # type: ignore[misc]
    surfaces = [pygame.Surface((panel.PANEL_W, view.height)) for _ in range(2)]
    drawn = [panel.draw_panel(view, s) for s in surfaces]
    a, b = (pygame.surfarray.array3d(s) for s in surfaces)
    assert np.array_equal(a, b)
    assert drawn[0] == drawn[1]
    assert {r.kind for r in drawn[0].rows} >= {"next", "tab", "move", "unit"}
    assert all(r.rect.x >= view.x_screen for r in drawn[0].rows)  # screen coordinates
    # a view of another tab draws another list, nothing else of the app is read
    other = panel.draw_panel(dataclasses.replace(view, tab="dice"), surfaces[0])
    assert other.tab_bar == drawn[0].tab_bar and other.unit_area == drawn[0].unit_area


def test_the_unit_region_scrolls_when_it_holds_more_than_fits(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tabletop.scenario.io import save_scenario

    app = App(load_scenario(shipped("demo.toml")), save_path=tmp_path / "g.toml",
              size=(1000, 460), saver=save_scenario)
    try:
        app.step()
        click(app, app.state.model("int1")[1].at)  # type: ignore[arg-type]
        app.step()
        assert app.scroll_max.get("unit", 0) > 0
        first = [r.rect.y for r in app.rows if r.kind == "move"]
        post(app, pygame.MOUSEMOTION, pos=app.unit_area.center, rel=(0, 0), buttons=(0, 0, 0))
        post(app, pygame.MOUSEWHEEL, x=0, y=-1)
        app.step()
        assert app.scroll["unit"] > 0
        assert [r.rect.y for r in app.rows if r.kind == "move"] != first
        assert all(app.unit_area.contains(r.rect) for r in app.rows if r.kind == "move")
    finally:
        pygame.display.quit()


@pytest.mark.parametrize(("name", "skipped"), [("demo.toml", "Shooting, Charge and Fight"),
                                               ("t9a-lines.toml", "")])
def test_phases_not_simulated_are_named(app_factory, monkeypatch, name: str,  # type: ignore[no-untyped-def]
                                        skipped: str) -> None:
    from support.view_support import panel_text

    app = app_factory(load_scenario(shipped(name)))
    text = panel_text(app, monkeypatch)
    assert "not simulated:" in text
    said = []
    for _ in range(8):
        app.next_step(confirmed=frozenset({"pending", "removal"}))
        if app.dialog is not None:
            key(app, pygame.K_RETURN)
        said.append(app.message)
    if skipped:
        assert any(f"Passed through the {skipped} phases: tabletop does not simulate them"
                   in m for m in said), said
    else:  # t9a stops in each phase it does not play, and says so
        assert any("phase is not simulated: Space goes on" in m for m in said), said


def test_move_types_refused_for_one_reason_say_it_once(app_factory, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """An enemy unit's move types are greyed chips on a line or two, the reason said once; a
    click on one says why and selects nothing."""
    from support.view_support import panel_text

    app = app_factory(load_scenario(shipped("demo.toml")))
    click(app, app.state.model("hg1")[1].at)  # type: ignore[arg-type]  # an enemy unit
    app.step()
    moves = [r for r in app.rows if r.kind == "move"]
    assert len(moves) >= 3 and not any(r.enabled for r in moves)
    assert len({r.rect.y for r in moves}) < len(moves)  # chips, not a row each
    text = panel_text(app, monkeypatch)
    assert text.count("belongs to Blue") == 1, text
    sel = app.state.battle.selection
    post(app, pygame.MOUSEBUTTONDOWN, pos=moves[-1].rect.center, button=1)
    post(app, pygame.MOUSEBUTTONUP, pos=moves[-1].rect.center, button=1)
    assert app.state.battle.selection == sel and "belongs to Blue" in app.message

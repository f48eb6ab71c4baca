"""A whole turn of the shipped demo played through the window, both players, every move type.

Everything goes through posted mouse and keyboard events (SDL's dummy driver): clicks on the
roster and the board, move keys, drags, Enter, Space and its confirmation, Insane Bravery from the
panel, undo and redo, a cancelled selection, Ctrl+S. The session's action log then replays with
``tabletop apply`` to the very file the window saved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from tabletop.cli import main
from tabletop.scenario.io import load_scenario, save_scenario, shipped
from tabletop.state import Unit
from tabletop.view.app import App

from support.view_support import key, post, roll


@pytest.fixture
def app(tmp_path: Path):  # type: ignore[no-untyped-def]
    a = App(load_scenario(shipped("demo.toml")), save_path=tmp_path / "demo.save.toml",
            size=(1280, 820), saver=save_scenario)
    a.step()
    yield a
    pygame.display.quit()


def click_px(app: App, p: tuple[float, float]) -> None:
    post(app, pygame.MOUSEBUTTONDOWN, pos=p, button=1)
    post(app, pygame.MOUSEBUTTONUP, pos=p, button=1)


def click_at(app: App, at: tuple[float, float]) -> None:
    click_px(app, app.ctrl.viewport.to_px(*at))


def roster_click(app: App, unit: str) -> None:
    """Click ``unit`` in the roster, scrolling the list until it shows."""
    if app.tab != "roster":
        click_px(app, next(r for r in app.rows if r.kind == "tab" and r.value == "roster"
                           ).rect.center)
    for _ in range(30):
        rows = [r for r in app.rows if r.kind == "unit" and r.value == unit]
        if rows:
            click_px(app, rows[0].rect.center)
            assert app.ctrl.focus == unit
            return
        post(app, pygame.MOUSEMOTION, pos=app.list_area.center, rel=(0, 0), buttons=(0, 0, 0))
        post(app, pygame.MOUSEWHEEL, x=0, y=-1)
    raise AssertionError(f"{unit} not in the roster")


def drag_px(app: App, a: tuple[float, float], b: tuple[float, float], *, mod: int = 0,
            steps: int = 5) -> None:
    post(app, pygame.MOUSEBUTTONDOWN, pos=a, button=1, mod=mod)
    for k in range(1, steps + 1):
        t = k / steps
        post(app, pygame.MOUSEMOTION, pos=(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t),
             rel=(0, 0), buttons=(1, 0, 0))
    post(app, pygame.MOUSEBUTTONUP, pos=b, button=1)


def unit_drag(app: App, unit: str, d: tuple[float, float]) -> None:
    """Shift-drag the whole unit by ``d`` inches (grabbing its first model)."""
    u = app.state.unit(unit)
    assert isinstance(u, Unit)
    m = next(m for m in u.models if m.at is not None)
    assert m.at is not None
    vp = app.ctrl.viewport
    drag_px(app, vp.to_px(*m.at), vp.to_px(m.at[0] + d[0], m.at[1] + d[1]),
            mod=pygame.KMOD_SHIFT)


def place_from_list(app: App, spots: list[tuple[float, float]]) -> None:
    """Drag each waiting model from the panel's list to (the legal point nearest) a spot."""
    for spot in spots:
        row = next(r for r in app.rows if r.kind == "place")
        post(app, pygame.MOUSEBUTTONDOWN, pos=row.rect.center, button=1)
        d = app.ctrl.drag
        assert d is not None and d.placing
        zone = d.zones[d.anchor]
        x, y = zone.nearest(*spot) if not zone.contains(*spot) else spot
        target = app.ctrl.viewport.to_px(x, y)
        post(app, pygame.MOUSEMOTION, pos=target, rel=(0, 0), buttons=(1, 0, 0))
        post(app, pygame.MOUSEBUTTONUP, pos=target, button=1)
        assert app.state.battle.selection.staged[-1]["do"] == "place", app.message  # type: ignore[union-attr]


def commit(app: App) -> None:
    key(app, pygame.K_RETURN)
    assert app.state.battle.selection is None, app.message


def space_until(app: App, player: str, phase: str, step: str) -> None:
    for _ in range(12):
        b = app.state.battle
        if (b.active_player, b.phase, b.step) == (player, phase, step):
            return
        key(app, pygame.K_SPACE)
        if app.dialog is not None:  # units have not moved, or dice: confirm
            assert app.dialog.purpose in ("next", "dice")
            key(app, pygame.K_RETURN)
    raise AssertionError(f"never reached {player} {phase} {step}: {app.state.battle}")


@pytest.mark.slow
def test_a_whole_turn_of_the_demo_through_the_window(app: App, tmp_path: Path) -> None:
    st = app.state
    assert (st.battle.active_player, st.battle.phase, st.battle.step) == (
        "red", "movement", "move-units")
    # -- Red: a normal move, committed, undone and redone
    click_at(app, st.model("int1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_n)
    unit_drag(app, "intercessors", (0.0, 1.5))
    commit(app)
    moved = app.state
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.state.battle.selection is not None  # the commit taken back
    key(app, pygame.K_y, pygame.KMOD_CTRL)
    assert app.state is moved
    # -- a selection cancelled with Esc keeps its roll when selected again
    used = app.state.battle.dice_used
    click_at(app, st.model("lt1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_a)
    assert roll(app) == ["Advance roll for Lieutenant: 1 die.",  # asked first
                         "Dice stand once rolled: undo cannot take them back."]
    die = app.state.battle.selection.roll  # type: ignore[union-attr]
    key(app, pygame.K_ESCAPE)
    assert app.state.battle.selection is None and "cancelled" in app.message
    key(app, pygame.K_a)  # its roll stands: nothing to ask
    assert app.dialog is None and app.state.battle.selection.roll == die  # type: ignore[union-attr]
    key(app, pygame.K_n)  # and another move type instead, without moving anything
    assert app.state.battle.selection.move == "normal"  # type: ignore[union-attr]
    key(app, pygame.K_ESCAPE)
    # -- an advance; Ctrl+Z takes the selection back, its roll stands, and no die is rolled
    # twice: the Lieutenant's die was used once, the Assault Intercessors get the next one
    click_at(app, st.model("asl1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_a)
    roll(app)
    assert app.state.battle.dice_used == used + 2
    die = app.state.battle.selection.roll  # type: ignore[union-attr]
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert app.state.battle.selection is None and "roll stands" in app.message
    key(app, pygame.K_z, pygame.KMOD_CTRL)
    assert "stand" in app.message and app.state.unit("intercessors").flags  # no further back
    key(app, pygame.K_a)
    assert app.state.battle.selection.roll == die  # type: ignore[union-attr]
    assert app.state.battle.dice_used == used + 2
    unit_drag(app, "assault", (0.0, 2.5))
    commit(app)
    # -- a fall back: battle-shocked, so Desperate Escape, with hazard rolls tied to models
    roster_click(app, "scouts")
    key(app, pygame.K_f)
    assert app.state.battle.selection is None  # nothing rolled before the player agrees
    assert roll(app)[0] == "Desperate Escape hazard rolls for Scout Squad: 5 dice."
    sel = app.state.battle.selection
    assert sel is not None and sel.mode == "desperate-escape", app.message
    hazard = [r for r in app.tray if "hazard" in r.purpose]
    assert hazard and all(m is not None for _, m in hazard[-1].dice)
    unit_drag(app, "scouts", (0.0, -3.5))
    commit(app)
    # -- remain stationary
    click_at(app, st.model("term1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_s)
    assert "remained-stationary" in app.state.unit("terminators").flags
    # -- ingress from strategic reserves, picked in the roster
    roster_click(app, "bladeguard")
    key(app, pygame.K_i)
    place_from_list(app, [(3.0, 17.0), (3.0, 18.7), (4.6, 17.8)])
    commit(app)
    assert app.state.unit("bladeguard").location == "battlefield"  # type: ignore[union-attr]
    # -- disembark from the Land Raider, picked in the roster
    roster_click(app, "assault-terminators")
    key(app, pygame.K_d)
    place_from_list(app, [(8.3, 6.2), (8.3, 8.0), (8.3, 9.8), (10.0, 7.1), (10.0, 8.9)])
    commit(app)
    assert app.state.unit("assault-terminators").location == "battlefield"  # type: ignore[union-attr]
    # a tactical disembark: its normal or advance move comes right after it (18.04)
    key(app, pygame.K_n)
    commit(app)
    assert "normal-move" in app.state.unit("assault-terminators").flags, app.message
    # -- Space asks first: four units have not moved (they remain stationary)
    key(app, pygame.K_SPACE)
    assert app.dialog is not None and "not moved" in app.dialog.lines[0]
    key(app, pygame.K_SPACE)  # a second Space does not skip the step
    assert app.dialog is not None and app.state.battle.step == "move-units"
    key(app, pygame.K_RETURN)
    assert app.dialog is None and app.state.battle.step == "end"
    # -- Blue: the Command phase, Insane Bravery for the Hormagaunts from the panel
    space_until(app, "blue", "command", "battle-shock")
    row = next(r for r in app.rows if r.kind == "next-choice" and r.value == "hormagaunts")
    click_px(app, row.rect.center)
    assert app.next_choice == {"insane-bravery": "hormagaunts"}
    key(app, pygame.K_SPACE)  # no die: Insane Bravery passes it (nothing to ask)
    brave = [r for r in app.tray if "Insane Bravery" in r.result]
    assert brave and brave[-1].unit == "Hormagaunts"
    assert "insane-bravery" in app.state.player("blue").used
    space_until(app, "blue", "movement", "move-units")
    # -- Blue moves: a normal move and an advance
    click_at(app, app.state.model("gs1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_n)
    unit_drag(app, "genestealers", (0.0, -2.0))
    commit(app)
    click_at(app, app.state.model("ta1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_a)
    roll(app)
    unit_drag(app, "termagants-a", (1.0, -2.0))
    commit(app)
    space_until(app, "red", "command", "start")
    assert app.state.battle.round == 3
    # nothing the end of the turn would remove: every unit still has all its models
    assert not [e for r in app.history.entries for e in r.events
                if e.get("kind") == "destroyed" and e.get("reason") == "coherency"]
    # -- save, and replay the session's log with tabletop apply to the same file
    key(app, pygame.K_s, pygame.KMOD_CTRL)
    assert app.save_path.is_file() and not app.history.unsaved, app.message
    assert app.log_path is not None and app.start_path is not None
    out = tmp_path / "replayed.toml"
    assert main(["apply", str(app.start_path), str(app.log_path), "-o", str(out)]) == 0
    assert out.read_text() == app.save_path.read_text()
    log = json.loads(app.log_path.read_text())
    moves = {a.get("move") for a in log if a.get("do") == "select"}
    assert {"normal", "advance", "fall-back", "remain-stationary", "ingress",
            "disembark"} <= moves

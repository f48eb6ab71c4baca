"""A battle made from army lists on a current layout (``tabletop new --layout ID --roster
LIST``) opens in the window and is played there: a unit selected and moved as a whole on the
imported board, the result still legal. (What it looks like was checked by eye under Xvfb.)"""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from tabletop.cli import main
from tabletop.scenario.checks import check_state
from tabletop.scenario.io import load_scenario
from tabletop.state import Unit

from support.army_lists import BATTLESCRIBE_ROS, GW_APP
from support.current_data import needs_wh40kdc
from support.view_support import click, drag, key

pytestmark = needs_wh40kdc


def test_a_roster_battle_opens_in_the_window_and_a_unit_moves(
        app_factory, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    red, blue = tmp_path / "gw.txt", tmp_path / "strike.ros"
    red.write_text(GW_APP, encoding="utf-8")
    blue.write_text(BATTLESCRIBE_ROS, encoding="utf-8")
    path = tmp_path / "battle.toml"
    assert main(["new", "--layout", "bm-take-vs-take-01", "--roster", str(red), "--roster",
                 str(blue), "-o", str(path)]) == 0
    capsys.readouterr()
    state = load_scenario(path)
    app = app_factory(state)
    squad = state.unit("red-intercessor-squad")
    assert isinstance(squad, Unit) and len(squad.models) == 5
    at = squad.models[0].at
    assert at is not None
    key(app, pygame.K_SPACE)  # to the Move Units step
    assert app.state.battle.step == "move-units", app.message
    click(app, at)
    key(app, pygame.K_n)
    sel = app.state.battle.selection
    assert sel is not None and sel.unit == squad.id and sel.move == "normal", app.message
    drag(app, at, (at[0], at[1] + 1.5), mod=pygame.KMOD_SHIFT)  # the whole unit, 1.5" south
    key(app, pygame.K_RETURN)
    assert "normal move committed (5 models moved" in app.message, app.message
    moved = app.state.unit(squad.id)
    assert isinstance(moved, Unit)
    for before, after in zip(squad.models, moved.models, strict=True):
        assert before.at is not None and after.at is not None
        assert after.at == pytest.approx((before.at[0], before.at[1] + 1.5), abs=1e-6)
    assert check_state(app.state) == []

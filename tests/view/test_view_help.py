"""H lists every key for the board in front of the player, and only the keys its ruleset uses;
a reform key that can do nothing says why."""

from __future__ import annotations

import pygame

from tabletop import rulesets
from tabletop.scenario.io import load_scenario, shipped
from tabletop.view.helpkeys import help_rows

from support.view_support import click, key


def _keys(name: str) -> dict[str, str]:
    st = load_scenario(shipped(name))
    r = rulesets.of(st)
    return {k: t for k, t in help_rows(r.move_types, tuple(r.tools)) if k}


def test_help_is_complete_for_wh40k() -> None:
    keys = _keys("demo.toml")
    for k in ("N", "A", "F", "S", "I", "D", "Q / E", "Shift+drag", "Ctrl+click, box",
              "Backspace", "Enter", "R", "Esc", "Ctrl+Z / Ctrl+Y", "Space", "M", "T", "O", "2", "G",
              "Ctrl+S", "Ctrl+Shift+S", "P, F12", "Ctrl+Q", "H, F1", "click an alert"):
        assert k in keys, k
    assert "Desperate Escape" in keys["F"] and "15°" in keys["Q / E"]


def test_help_for_t9a_has_its_keys_and_none_of_the_model_tools() -> None:
    keys = _keys("t9a-lines.toml")
    assert keys["A"] == "Advance" and keys["Q"] == "March" and keys["F"] == "Reform"
    for k in ("[ ]  ↑ ↓", ", .", "← →"):
        assert k in keys
    for k in ("T", "O", "2", "Q / E", "Shift+drag", "Backspace"):
        assert k not in keys, k


def test_the_help_overlay_is_drawn(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(load_scenario(shipped("t9a-lines.toml")))
    key(app, pygame.K_h)
    assert app.help
    app.draw()
    key(app, pygame.K_h)
    assert not app.help


def test_more_files_than_models_says_so(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(load_scenario(shipped("t9a-lines.toml")))
    while app.state.battle.step != "move-units":
        key(app, pygame.K_SPACE)
        if app.dialog is not None:
            key(app, pygame.K_RETURN)
    knights = app.state.unit("knights")
    click(app, knights.at)  # type: ignore[union-attr]
    key(app, pygame.K_LEFTBRACKET)  # not reforming: says why
    assert app.message.startswith("no reform now:"), app.message
    key(app, pygame.K_f)  # the Reform move
    assert app.state.battle.selection is not None, app.message
    for _ in range(knights.models):  # type: ignore[union-attr]
        key(app, pygame.K_RIGHTBRACKET)
    assert app.message == f"{knights.models} files at most: the unit has {knights.models} models"  # type: ignore[union-attr]

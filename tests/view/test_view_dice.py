"""Dice only when asked: a key that would roll dice says what it rolls and asks first, once per
unit and purpose; declining rolls nothing."""

from __future__ import annotations

import pygame

from tabletop.scenario.io import load_scenario, shipped

from support.view_support import click, key, roll


def test_fall_back_of_a_battle_shocked_unit_asks_before_the_hazards(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(load_scenario(shipped("demo.toml")))
    used = app.state.battle.dice_used
    models = len(app.state.unit("scouts").models)  # type: ignore[union-attr]
    click(app, app.state.model("sc1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_f)
    d = app.dialog
    assert d is not None and d.purpose == "dice" and d.title == "Roll dice?"
    assert d.lines[0] == f"Desperate Escape hazard rolls for Scout Squad: {models} dice."
    key(app, pygame.K_ESCAPE)  # not now: nothing rolled, nothing selected
    assert app.dialog is None and app.message == "no dice rolled"
    assert app.state.battle.dice_used == used and app.state.battle.selection is None
    assert len(app.state.unit("scouts").models) == models  # type: ignore[union-attr]
    key(app, pygame.K_f)  # asked again: the player never agreed
    roll(app)
    assert app.state.battle.dice_used == used + models
    assert app.state.battle.selection is not None
    # the same unit and roll again: its dice stand, no question
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_f)
    assert app.dialog is None and app.state.battle.selection is not None


def test_moves_without_dice_never_ask(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(load_scenario(shipped("demo.toml")))
    click(app, app.state.model("int1")[1].at)  # type: ignore[arg-type]
    key(app, pygame.K_n)
    assert app.dialog is None and app.state.battle.selection is not None
    key(app, pygame.K_ESCAPE)
    key(app, pygame.K_a)  # an advance rolls: asked
    assert app.dialog is not None and app.dialog.lines[0] == \
        "Advance roll for Intercessor Squad: 1 die."

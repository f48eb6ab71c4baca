"""Shift-drag of a whole unit: every model by one vector, along its own legal path, as far as the
whole unit may go, the model that stops it named; Enter then accepts the move."""

from __future__ import annotations

import math

import pygame
import pytest

from tabletop.geometry.footprints import parse_base
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Terrain, Unit
from tabletop.view.app import App
from tabletop.view.unitdrag import largest_offset, move_order

from support.view_support import DiscZone, click, drag, key

B32 = parse_base("32mm")
R32 = 32 / 25.4 / 2


def column(*, enemy: tuple[float, float] | None = (12.0, 8.0), wall: bool = False) -> GameState:
    """Red's squad of three in a column at x = 6 (y = 8, 9.5, 11); a blue model at ``enemy``;
    with ``wall``, a dense wall the squad may cross but not end in."""
    squad = Unit("squad", "red", ("INFANTRY",), 6, 1, 7, 2,
                 tuple(Model(f"s{i}", B32, at=(6.0, 8.0 + 1.5 * i)) for i in range(3)),
                 name="Squad")
    foes = (Model("f0", B32, at=enemy),) if enemy is not None else (
        Model("f0", B32, at=(28.0, 20.0)),)
    terrain = (Terrain("wall", "dense", ((8.5, 10.0), (9.0, 10.0), (9.0, 14.0), (8.5, 14.0)),
                       height=3.0),) if wall else ()
    return GameState(
        name="column", ruleset="wh40k-11e",
        battle=Battle(2, "red", "movement", seed=3, step="move-units"),
        players=(Player("red"), Player("blue")), battlefield=Battlefield(30.0, 22.0),
        terrain=terrain, units=(squad, Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2, foes)))


def shift_drag(app: App, grab: tuple[float, float], d: tuple[float, float]) -> None:
    drag(app, grab, (grab[0] + d[0], grab[1] + d[1]), mod=pygame.KMOD_SHIFT)


def positions(app: App) -> list[tuple[float, float]]:
    return [app.state.model(f"s{i}")[1].at for i in range(3)]  # type: ignore[misc]


def test_the_unit_stops_where_its_first_model_would_engage(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(column())
    click(app, (6.0, 11.0))
    key(app, pygame.K_n)
    before = positions(app)
    shift_drag(app, (6.0, 11.0), (5.0, 0.0))  # s0, at the enemy's height, stops them all
    after = positions(app)
    moved = [(a[0] - b[0], a[1] - b[1]) for a, b in zip(after, before, strict=True)]
    assert all(m == pytest.approx(moved[0], abs=1e-9) for m in moved)  # one vector
    # s0 ends just over 2" from the enemy (edge to edge): the largest legal offset
    gap = math.dist(after[0], (12.0, 8.0)) - 2 * R32
    assert 2.0 < gap < 2.02, gap
    assert "s0 stops it going further" in app.message
    assert "from enemy model f0" in app.message  # why, in the rules' words
    # the unit's words, not one model's figures
    assert app.message.startswith("Squad: the whole unit moved "), app.message
    assert app.message.endswith("; drag again to go on, Enter commits."), app.message
    assert "s0 moved" not in app.message
    key(app, pygame.K_RETURN)
    assert app.state.battle.selection is None, app.message  # the commit is accepted


def test_a_wall_the_unit_may_cross_but_not_end_in(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(column(enemy=None, wall=True))
    click(app, (6.0, 8.0))
    key(app, pygame.K_n)
    # asked 3" right: s1 and s2 would end in the wall (x 8.5-9); s0 passes above it
    shift_drag(app, (6.0, 8.0), (3.0, 0.0))
    xs = [p[0] for p in positions(app)]
    assert xs[0] == pytest.approx(xs[1]) == pytest.approx(xs[2])
    assert xs[0] + R32 <= 8.5 + 1e-6  # stopped short of the wall
    assert "stops it going further" in app.message
    key(app, pygame.K_RETURN)
    assert app.state.battle.selection is None, app.message
    # beyond the wall is legal again: a longer drag goes all the way (across it)
    app2 = app_factory(column(enemy=None, wall=True))
    click(app2, (6.0, 8.0))
    key(app2, pygame.K_n)
    shift_drag(app2, (6.0, 8.0), (4.5, 0.0))
    assert [p[0] for p in positions(app2)] == pytest.approx([10.5] * 3)
    key(app2, pygame.K_RETURN)
    assert app2.state.battle.selection is None, app2.message


def test_along_its_own_column_no_model_lands_on_one_not_moved_yet(app_factory) -> None:  # type: ignore[no-untyped-def]
    app = app_factory(column(enemy=None))
    click(app, (6.0, 8.0))
    key(app, pygame.K_n)
    shift_drag(app, (6.0, 8.0), (0.0, 3.0))  # s0 onto s2's spot, s1 onto where s2 was...
    flat = [v for p in positions(app) for v in p]
    assert flat == pytest.approx([6.0, 11.0, 6.0, 12.5, 6.0, 14.0], abs=0.02)
    assert 'the whole unit moved 3.00"; every model may end there' in app.message, app.message
    key(app, pygame.K_RETURN)
    assert app.state.battle.selection is None, app.message


def test_largest_offset_and_order_by_hand() -> None:
    zones = {"a": DiscZone((0.0, 0.0), 5.0), "b": DiscZone((1.0, 0.0), 2.0)}
    starts = {"a": (0.0, 0.0), "b": (1.0, 0.0)}
    off = largest_offset(zones, starts, (4.0, 0.0))
    assert off.t == pytest.approx(0.5, abs=1e-3) and off.limit == "b"
    assert largest_offset(zones, starts, (1.0, 0.0)).limit is None
    exact = largest_offset(zones, starts, (4.0, 0.0), exact=True)
    assert exact.t <= off.t and zones["b"].contains(1.0 + exact.t * 4.0, 0.0)
    assert list(move_order(starts, (1.0, 0.0))) == ["b", "a"]
    assert list(move_order(starts, (-1.0, 0.0))) == ["a", "b"]

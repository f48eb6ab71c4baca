"""Off-screen pictures: deterministic, the zone layer's fixed palette, tabletop show."""

from __future__ import annotations

import numpy as np
import pytest
from shapely.geometry import Point, box

from tabletop.view import render, zonelayer
from tabletop.view.render import Overlays, PathOverlay
from tabletop.view.zonelayer import ZONE_PALETTE

from support.view_support import small_state


def test_two_renders_of_the_board_are_identical() -> None:
    s = small_state()
    zone = Point(5, 10).buffer(6).difference(Point(20, 10).buffer(3.3))
    ov = Overlays(zone=zone, path=PathOverlay(((5, 10), (8, 11)), 3.2, 6.0),
                  marks=[render.Mark('2.10"', models=("s1",))], engagement_player="blue",
                  ruler=((1, 1), (4, 5), '5.00"'))
    a = render.surface_array(render.render_board(s, overlays=ov, grid=True))
    b = render.surface_array(render.render_board(s, overlays=ov, grid=True))
    assert a.shape == (20 * 20 + 40 + 28, 30 * 20 + 40, 3)
    assert np.array_equal(a, b)
    # the zone, the path and the players' colours are on it
    plain = render.surface_array(render.render_board(s))
    assert not np.array_equal(a, plain)
    colours = {tuple(c) for c in plain.reshape(-1, 3)}
    assert render.PLAYER_COLOURS[0] in colours and render.PLAYER_COLOURS[1] in colours


def test_zone_layer_uses_only_the_fixed_palette_and_size() -> None:
    s = small_state()
    # a zone with a hole and an island inside the hole
    zone = box(2, 2, 14, 14).difference(box(5, 5, 11, 11)).union(box(7, 7, 9, 9))
    surf = zonelayer.render_zone_layer(zone, s.battlefield, (600, 400))
    img = render.surface_array(surf)
    assert img.shape == (400, 600, 3)
    colours = {tuple(int(v) for v in c) for c in np.unique(img.reshape(-1, 3), axis=0)}
    assert colours <= set(ZONE_PALETTE.values())
    scale = 20.0  # 30" x 20" fills 600 x 400 exactly

    def at(x: float, y: float) -> tuple[int, ...]:
        return tuple(int(v) for v in img[int(y * scale), int(x * scale)])

    assert at(3, 3) == ZONE_PALETTE["zone"]
    assert at(6, 6) == ZONE_PALETTE["battlefield"]  # the hole
    assert at(8, 8) == ZONE_PALETTE["zone"]  # the island in the hole
    assert at(20, 15) == ZONE_PALETTE["battlefield"]
    again = render.surface_array(zonelayer.render_zone_layer(zone, s.battlefield, (600, 400)))
    assert np.array_equal(img, again)


def test_zone_layer_changes_with_a_small_change_of_the_zone() -> None:
    s = small_state()
    a = render.surface_array(zonelayer.render_zone_layer(Point(10, 10).buffer(2.0), s.battlefield))
    b = render.surface_array(zonelayer.render_zone_layer(Point(10, 10).buffer(2.05), s.battlefield))
    assert int(np.any(a != b, axis=2).sum()) > 20


def test_render_zone_png_is_the_zone_layer(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from support.pngio import read_png

    s = small_state()

    class Z:
        geometry = Point(10, 10).buffer(3)

    out = zonelayer.render_zone_png(s, Z(), None, tmp_path / "z.png")
    expected = render.surface_array(zonelayer.render_zone_layer(Z.geometry, s.battlefield))
    assert np.array_equal(read_png(out), expected)


def test_blocks_are_drawn() -> None:
    from tabletop.geometry.footprints import parse_base
    from tabletop.state import Battle, Battlefield, Block, GameState, Player

    blk = Block("kn", "red", 8, 16, 8, parse_base("rect 25x50mm"), 7, 4, (20, 20), 30.0)
    s = GameState("t9a", "t9a-2", Battle(1, "red", "movement"), (Player("red"), Player("blue")),
                  Battlefield(48, 48), units=(blk,))
    img = render.surface_array(render.render_board(s, labels=False, title=False))
    colours = {tuple(c) for c in img.reshape(-1, 3)}
    assert render.PLAYER_COLOURS[0] in colours


@pytest.mark.parametrize("name", ["demo.toml"])
def test_tabletop_show_writes_a_picture(tmp_path, name: str) -> None:  # type: ignore[no-untyped-def]
    from tabletop.cli import main
    from tabletop.scenario.io import shipped

    from support.pngio import read_png

    out = tmp_path / "board.png"
    assert main(["show", str(shipped(name)), "-o", str(out)]) == 0
    img = read_png(out)
    assert img.shape == (44 * 20 + 40 + 28, 60 * 20 + 40, 3)


def test_tabletop_show_refuses_a_bad_player(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from tabletop.cli import main
    from tabletop.scenario.io import shipped

    out = tmp_path / "board.png"
    assert main(["show", str(shipped("demo.toml")), "-o", str(out), "--engagement", "nobody"]) == 2
    assert "unknown player" in capsys.readouterr().err
    assert not out.exists()

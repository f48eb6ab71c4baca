"""A turning model's witness path ends: a turn node's witness is its first layer's path as that
layer was when the node was found (issue 25: a 60x35 mm oval against a wall, whose witness went
round the layers' sources for ever, a RecursionError)."""

from __future__ import annotations

from tabletop import legal_zone, validate_path
from tabletop.geometry.footprints import Oval
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Terrain, Unit


def _rect(tid: str, x0: float, y0: float, x1: float, y1: float) -> Terrain:
    return Terrain(tid, "impassable", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 5.0)


def test_the_oval_against_the_wall_has_a_witness_the_path_check_accepts() -> None:
    bike = Unit("red", "red", ("MOUNTED",), 8.0, 2, 6, 1,
                (Model("bike", Oval(60.0, 35.0), (15.0, 12.0), 0.0),))
    state = GameState("witness", "wh40k-11e", Battle(2, "red", "movement"),
                      (Player("red"), Player("blue")), Battlefield(24.0, 24.0),
                      (_rect("wall", 15.689, 6.0, 16.5, 18.0),
                       _rect("pillar", 11.0, 8.5, 12.5, 10.0)), (), (bike,))
    zone = legal_zone(state, "bike", "normal")
    assert zone.contains(10.729, 7.371)
    path = zone.path_to(10.729, 7.371)
    assert path is not None and path.length <= 8.0
    assert path.points[-1][:2] == (10.729, 7.371)
    check = validate_path(state, "bike", "normal", path.points)
    assert check.legal, check.violations

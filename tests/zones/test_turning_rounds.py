"""A turning model's searches and turns on the way on the native engine (the compiled core's
``turn_rounds``, one call a pick-up) against the Python engine's (the reference): the same
layers in the same order, the same searches, the same sources with the same witnesses; the
Python's answer where a layer's start stands in one of its pieces (docs: exactness and speed,
two engines)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop import legal_zone, validate_path
from tabletop.geometry import engine
from tabletop.state import GameState

from support.engines import on_engine
from support.turning import hull_unit, l_bend, witnesses_hold
from support.zones_boards import rect, state, unit

pytestmark = pytest.mark.skipif(engine.native_module() is None, reason=engine.native_problem())


def _bike(at: tuple[float, float], facing: float, M: float):  # type: ignore[no-untyped-def]
    return unit("a", "red", [("mv", *at)], base="oval 60x35mm", keywords=("MOUNTED",), M=M,
                facing=facing)


BOARDS = {
    # turns on the way in a bend, a bike and a hull
    "bike in a bend": lambda: l_bend(_bike((21.0, 11.0), 90.0, 7.0), 2.0, 26.0),
    "hull in a bend": lambda: l_bend(hull_unit("a", (18.0, 13.25), 90.0, M=12.0), 6.5, 30.0),
    # its side against the corridor's wall: it moves off it to turn (exits to the hub)
    "hull against a wall": lambda: l_bend(hull_unit("a", (18.0, 12.0), 90.0, M=12.0), 6.5,
                                          30.0),
    # in the open at a facing off the grid (the start's own layer, paths bending once)
    "hull in the open off the grid": lambda: state([hull_unit("a", (30.0, 22.0), 37.0, M=6.0)],
                                                   [rect("r", "impassable", 36, 18, 38, 30)]),
    # against a wall (no clear circle at the start: exits to the hub)
    "bike against a wall": lambda: state([_bike((15.0, 12.0), 0.0, 8.0)],
                                         [rect("wall", "impassable", 15.689, 6.0, 16.5, 18.0),
                                          rect("pillar", "impassable", 11.0, 8.5, 12.5, 10.0)],
                                         width=24.0, depth=24.0),
}


NODES = 1e-5
"""How far apart the engines' turn nodes (and so the lengths through them) may lie: each
engine places them on its own turn regions, the core's within 4.5e-7" of GEOS's (farther along
an edge that crosses the lattice at a glancing angle)."""


def _reach(st: GameState, name: str):  # type: ignore[no-untyped-def]
    with on_engine(name):
        zone = legal_zone(st, "mv", "normal")
        reach = zone.reach
        assert reach is not None
        return zone, reach


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_the_core_finds_the_layers_sources_and_witnesses_of_the_python(board: str) -> None:
    st = BOARDS[board]()
    _, ref = _reach(st, "python")
    zone, got = _reach(st, "native")
    # the core's searches (no Python search state), the same layers in the same order
    assert all(lay.disk.search_state is None for lay in got.layers.values())
    assert list(got.layers) == list(ref.layers)
    turned = 0
    for f, lay in ref.layers.items():
        mine = got.layers[f]
        assert mine.disk.n_sources == lay.disk.n_sources, f
        assert np.allclose(mine.disk.nodes, lay.disk.nodes, rtol=0, atol=NODES), f
        assert np.allclose(mine.disk.dist, lay.disk.dist, rtol=0, atol=NODES), f
        assert len(mine.sources) == len(lay.sources)
        for a, b in zip(mine.sources, lay.sources, strict=True):
            assert np.allclose(a.point, b.point, rtol=0, atol=NODES), (f, a.point, b.point)
            assert math.isclose(a.dist, b.dist, abs_tol=NODES)
            assert np.allclose(a.before, b.before, rtol=0, atol=NODES), (f, a.point)
        turned += len(lay.sources) - 1
    assert (got.hub is None) == (ref.hub is None)
    if ref.hub is not None and got.hub is not None:
        assert np.allclose(got.hub.disk.dist, ref.hub.disk.dist, rtol=0, atol=1e-9)
    if "bend" in board:
        assert turned > 0  # the bend is crossed by turning on the way
    # every native witness is a legal path
    with on_engine("native"):
        assert witnesses_hold(st, zone, n=12) == 12


def test_a_start_standing_in_a_piece_is_the_python_engines() -> None:
    # the hull overlaps the rock (a footprint in an obstacle, not in contact): its layers'
    # start stands in a piece, which the Python search cuts; the core leaves it to the Python
    st = state([hull_unit("a", (20.0, 20.0), 0.0, M=5.0)],
               [rect("rock", "impassable", 21.9, 15.0, 23.0, 25.0)])
    _, ref = _reach(st, "python")
    _, got = _reach(st, "native")
    assert all(lay.disk.search_state is not None for lay in got.layers.values())
    assert list(got.layers) == list(ref.layers)


def test_a_witness_through_turns_on_the_way_is_accepted_on_both_engines() -> None:
    st = BOARDS["bike in a bend"]()
    for name in ("python", "native"):
        with on_engine(name):
            zone = legal_zone(st, "mv", "normal")
            # down the second corridor: only by turning in the bend
            assert zone.contains(25.0, 14.0), name
            path = zone.path_to(25.0, 14.0)
            assert path is not None, name
            assert len({round(p[2] % 180.0, 6) for p in path.points}) > 1, name
            check = validate_path(st, "mv", "normal", path.points)
            assert check.legal, (name, check.violations)

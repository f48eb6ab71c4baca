"""A legal zone computes on every 40kdc layout for a model in each deployment zone (issue 8, 4)."""

from __future__ import annotations

import json
import math

import pytest
import shapely
from shapely.geometry import Point

from tabletop import legal_zone
from tabletop.importers.kdc import load_data
from tabletop.importers.kdc_units import new_battle, read_units
from tabletop.state import GameState, Unit

from support.paths import KDC_DATA

DATA = KDC_DATA
LAYOUTS = DATA / "terrain-layouts.json"
UNITS = DATA / "units_11e_provisional_all.csv"
IDS = [lay["id"] for lay in json.loads(LAYOUTS.read_text(encoding="utf-8"))] \
    if LAYOUTS.exists() else []
needs_data = pytest.mark.skipif(not UNITS.exists(), reason=f"40kdc data not found at {DATA}")


@pytest.fixture(scope="module")
def catalogue():  # type: ignore[no-untyped-def]
    if not UNITS.exists():
        pytest.skip(f"40kdc data not found at {DATA}")
    return read_units(UNITS)


def _check_zone(state: GameState, unit: Unit) -> None:
    model = unit.models[0]
    assert model.at is not None
    zone = legal_zone(state, model.id, "normal")
    assert zone.area > 1.0, f"{model.id}: empty zone"
    assert zone.contains(*model.at), "staying put is a legal end point"
    far = max(math.dist(p, model.at) for p in shapely.get_coordinates(zone.geometry))
    assert far <= unit.M + 1e-6
    inner = zone.geometry.representative_point()
    assert zone.explain(inner.x, inner.y) == []
    inradius = Point(0, 0).distance(model.base.local_polygon().exterior)
    for t in state.terrain:
        if t.kind in ("light", "dense", "impassable"):
            assert zone.geometry.distance(t.shape) >= inradius - 1e-6, t.id


@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("layout_id", IDS)
def test_zone_in_each_deployment_zone(catalogue, layout_id: str) -> None:  # type: ignore[no-untyped-def]
    state = new_battle(load_data(LAYOUTS, layout_id).state(), catalogue,
                       [("red", "Intercessor Squad x5"), ("blue", "Boyz x10")])
    units = [u for u in state.units if isinstance(u, Unit)]
    assert {u.player for u in units} == {"red", "blue"}
    for unit in units:
        _check_zone(state, unit)


@needs_data
@pytest.mark.parametrize("layout_id", ["gw-11e-crucible", "take-and-hold-mirror-1"])
def test_vehicle_and_oval_zones(catalogue, layout_id: str) -> None:  # type: ignore[no-untyped-def]
    state = new_battle(load_data(LAYOUTS, layout_id).state(), catalogue,
                       [("red", "Redemptor Dreadnought"), ("blue", "Outrider Squad")])
    for unit in state.units:
        assert isinstance(unit, Unit)
        _check_zone(state, unit)

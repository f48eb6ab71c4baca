"""Every published 40kdc layout imports, maps its terrain as documented and passes the checks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from shapely.geometry import box

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.importers.kdc import (
    CREDIT,
    deployment_zones,
    layout_state,
    list_lines,
    load_data,
    read_layouts,
)
from tabletop.importers.kdc_layouts import Affine, resolve_layout
from tabletop.scenario.checks import check_state
from tabletop.scenario.io import load_scenario

from support.paths import KDC_DATA

DATA = KDC_DATA
LAYOUTS = DATA / "terrain-layouts.json"
DEPLOYMENTS = DATA / "deployment-patterns.json"
needs_data = pytest.mark.skipif(not LAYOUTS.exists(), reason=f"40kdc data not found at {DATA}")
IDS = [lay["id"] for lay in json.loads(LAYOUTS.read_text(encoding="utf-8"))] \
    if LAYOUTS.exists() else []


@needs_data
def test_there_are_33_layouts_and_6_maps() -> None:
    assert len(IDS) == 33
    assert len(json.loads(DEPLOYMENTS.read_text(encoding="utf-8"))) == 6


@needs_data
@pytest.mark.parametrize("layout_id", IDS)
def test_layout_imports_and_passes_checks(layout_id: str, tmp_path: Path) -> None:
    state = layout_state(LAYOUTS, layout_id)
    assert check_state(state) == []
    assert state.ruleset == "wh40k-11e"
    kinds = {t.kind for t in state.terrain}
    assert kinds <= {"area", "light", "dense"} and {"area", "light", "dense"} <= kinds
    board = box(0, 0, 60, 44)
    assert all(board.contains(t.shape) for t in state.terrain)
    assert all(t.height > 0 for t in state.terrain if t.kind != "area")
    assert all(t.height == 0 for t in state.terrain if t.kind == "area")
    zones = [p.zone_polygon for p in state.players]
    assert [p.id for p in state.players] == ["red", "blue"]
    assert all(z is not None and z.area > 100 for z in zones)
    assert len(state.objectives) == 5
    assert CREDIT in (state.description or "")
    out = tmp_path / "layout.toml"
    assert main(["import-layout", str(LAYOUTS), "--layout", layout_id, "-o", str(out)]) == 0
    assert load_scenario(out) == load_scenario(out, check=False)
    assert len(load_scenario(out).terrain) == len(state.terrain)


@needs_data
def test_terrain_mapping_matches_templates() -> None:
    state = layout_state(LAYOUTS, "take-and-hold-mirror-1")
    layout = next(lay for lay in read_layouts(LAYOUTS) if lay["id"] == "take-and-hold-mirror-1")
    by_id = {t.id: t for t in state.terrain}
    expect = {"area-large": ("area", 0.0), "corner-short": ("light", 5.0),
              "barricade": ("light", 2.0), "pipe": ("light", 2.0), "gantry": ("dense", 3.0),
              "catwalk": ("dense", 3.0), "generator": ("dense", 3.0),
              "corner-ruin-balanced-right": ("dense", 5.0), "corner-tiny": ("light", 5.0)}
    seen = 0
    for piece in layout["pieces"]:
        if piece["template"] in expect:
            t = by_id[piece["id"]]
            assert (t.kind, t.height) == expect[piece["template"]], piece["id"]
            seen += 1
    assert seen > 10


@needs_data
def test_upper_floor_pieces_are_left_out() -> None:
    data = load_data(LAYOUTS, "gw-11e-crucible")
    assert data.layout is not None
    floors = [p for p in data.layout["pieces"] if p.get("floor", 0) > 0]
    assert floors
    ids = {t.id for t in data.state().terrain}
    assert not any(p["id"] in ids for p in floors)
    assert len(ids) == len(data.layout["pieces"]) - len(floors)


@needs_data
def test_zones_follow_attacker_red_defender_blue() -> None:
    state = layout_state(LAYOUTS, "take-and-hold-mirror-2")  # dawn of war
    red, blue = (p.zone_polygon for p in state.players)
    assert red is not None and blue is not None
    assert red.bounds == (0.0, 32.0, 60.0, 44.0)
    assert blue.bounds == (0.0, 0.0, 60.0, 12.0)
    other = layout_state(LAYOUTS, "take-and-hold-mirror-2", deployment_id="hammer-and-anvil")
    assert other.player("red").zone_polygon.bounds == (42.0, 0.0, 60.0, 44.0)  # type: ignore[union-attr]


def test_placement_mirror_then_rotate() -> None:
    t = Affine.placement((10.0, 20.0), 90.0, "horizontal")
    x, y = t.apply((1.0, 0.0))  # mirrored to (-1, 0), turned 90 clockwise to (0, -1)
    assert (round(x, 12), round(y, 12)) == (10.0, 19.0)


def test_parent_loop_and_unknown_parent_are_refused() -> None:
    templates = [{"id": "sq", "kind": "area",
                  "footprint": {"type": "rectangle", "width": 2, "height": 2}}]
    loop = {"id": "l", "pieces": [
        {"id": "a", "template": "sq", "position": {"x": 1, "y": 1}, "parent_area_id": "b"},
        {"id": "b", "template": "sq", "position": {"x": 1, "y": 1}, "parent_area_id": "a"}]}
    with pytest.raises(UserError, match="loop"):
        resolve_layout(loop, templates)
    orphan = {"id": "o", "pieces": [
        {"id": "a", "template": "sq", "position": {"x": 1, "y": 1}, "parent_area_id": "zz"}]}
    with pytest.raises(UserError, match=r"parent_area_id.*zz"):
        resolve_layout(orphan, templates)


# -- bad input -------------------------------------------------------------------------------
@needs_data
def test_unknown_layout_lists_the_ids() -> None:
    with pytest.raises(UserError) as exc:
        layout_state(LAYOUTS, "no-such-layout")
    assert 'no layout with id "no-such-layout"' in exc.value.lines[0]
    assert str(LAYOUTS) in exc.value.lines[0]
    assert "  gw-11e-crucible" in exc.value.lines


@needs_data
def test_unknown_deployment_lists_the_ids() -> None:
    with pytest.raises(UserError) as exc:
        layout_state(LAYOUTS, "gw-11e-crucible", deployment_id="nowhere")
    assert 'no deployment map with id "nowhere"' in exc.value.lines[0]
    assert "  dawn-of-war" in exc.value.lines


@needs_data
def test_list_names_layouts_maps_and_credit(capsys: pytest.CaptureFixture[str]) -> None:
    lines = list_lines(LAYOUTS)
    assert lines[0].startswith("Layouts in") and "(33)" in lines[0]
    assert any("search-and-destroy" in line and "Search and Destroy" in line for line in lines)
    assert main(["import-layout", str(LAYOUTS), "--list"]) == 0
    out = capsys.readouterr().out
    assert "take-and-hold-mirror-1" in out and "Deployment maps" in out and CREDIT in out


def _copy(tmp_path: Path, layouts_text: str | None = None, templates: bool = True) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "terrain-layouts.json").write_text(
        layouts_text if layouts_text is not None else LAYOUTS.read_text(encoding="utf-8"),
        encoding="utf-8")
    if templates:
        shutil.copy(DATA / "terrain-templates.json", folder / "terrain-templates.json")
    return folder / "terrain-layouts.json"


def _first_layout_with(mutate: object) -> str:
    layouts = json.loads(LAYOUTS.read_text(encoding="utf-8"))
    mutate(layouts[0])  # type: ignore[operator]
    return json.dumps(layouts)


@needs_data
@pytest.mark.parametrize(("mutate", "expected"), [
    (lambda lay: lay["pieces"][0].update(position={"x": "left", "y": 3}),
     r"layout gw-11e-crucible\.pieces\[0\]\.position\.x: expected a number, got the string"),
    (lambda lay: lay["pieces"][0].update(template="tower"),
     r"pieces\[0\]\.template: unknown template the string \"tower\"; the templates file has: "),
    (lambda lay: lay["pieces"][0].update(mirror="diagonal"),
     r"pieces\[0\]\.mirror: expected one of none, horizontal, vertical"),
    (lambda lay: lay["pieces"][0].update(footprint={"type": "circle", "radius": 3}),
     r"footprint\.type: unknown footprint type the string \"circle\"; accepted: \"rectangle\""),
    (lambda lay: lay["pieces"][0].pop("position"),
     r"pieces\[0\]\.position: expected an object \{\"x\": number, \"y\": number\}, got null"),
    (lambda lay: lay.update(pieces={"a": 1}), r"\.pieces: expected a JSON array, got an object"),
])
def test_malformed_layout_names_file_field_and_accepted(tmp_path: Path, mutate: object,
                                                        expected: str) -> None:
    path = _copy(tmp_path, _first_layout_with(mutate))
    with pytest.raises(UserError, match=expected) as exc:
        layout_state(path, "gw-11e-crucible")
    assert str(path) in exc.value.lines[0]


@needs_data
def test_not_json_and_missing_templates(tmp_path: Path) -> None:
    path = _copy(tmp_path, '[{"id": "x", "pieces": [}')
    with pytest.raises(UserError, match=r"line 1, column 25: invalid JSON: Expecting value"):
        layout_state(path, "x")
    other = tmp_path / "other"
    other.mkdir()
    (other / "terrain-layouts.json").write_text(LAYOUTS.read_text(encoding="utf-8"),
                                                encoding="utf-8")
    with pytest.raises(UserError, match=r"terrain-templates.json: no such file \(the terrain "
                       r"templates must be beside terrain-layouts.json\)"):
        layout_state(other / "terrain-layouts.json", "gw-11e-crucible")
    with pytest.raises(UserError, match="no such file"):
        layout_state(tmp_path / "missing.json", "x")


def test_bad_zone_shape_is_named() -> None:
    pattern = {"id": "p", "zones": [{"player": "attacker", "position": {"x": 0, "y": 0},
                                     "shape": {"type": "circle", "radius": 4}}]}
    with pytest.raises(UserError, match=r"zones\[0\]\.shape\.type: unknown zone shape"):
        deployment_zones(pattern)
    pattern["zones"][0]["player"] = "neutral"  # type: ignore[index]
    with pytest.raises(UserError, match=r'zones\[0\]\.player: expected "attacker" or "defender"'):
        deployment_zones(pattern)


@needs_data
def test_cli_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import-layout", str(LAYOUTS), "--layout", "nope", "-o",
                 str(tmp_path / "x.toml")]) == 2
    assert 'no layout with id "nope"' in capsys.readouterr().err
    assert main(["import-layout", str(LAYOUTS), "-o", str(tmp_path / "x.toml")]) == 2
    assert "--layout ID" in capsys.readouterr().err
    assert main(["import-layout", str(LAYOUTS), "--layout", "gw-11e-crucible"]) == 2
    assert "-o SCENARIO" in capsys.readouterr().err
    assert not (tmp_path / "x.toml").exists()

"""Every class of bad input gives the exact message a user can act on, all problems at once."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.scenario.bounds import (
    MAX_BYTES,
    MAX_ITEMS,
    MAX_TOML_BYTES,
    MAX_TOML_LINE,
    MAX_TOML_LINES,
)
from tabletop.scenario.io import load_scenario, loads_scenario

BASE_HELP = 'write "32mm", "oval 60x35mm", "rect 25x50mm" or "hull"'
R = 0.5 * 32 / 25.4  # radius of a 32mm base


def wh40k() -> dict[str, Any]:
    return {
        "format": 1, "name": "Test", "ruleset": "wh40k-11e",
        "battle": {"round": 2, "active_player": "red", "phase": "movement", "seed": 1},
        "players": [{"id": "red"}, {"id": "blue"}],
        "terrain": [{"id": "rock", "kind": "impassable",
                     "polygon": [[40.0, 10.0], [44.0, 10.0], [44.0, 14.0], [40.0, 14.0]]}],
        "units": [
            {"id": "squad", "player": "red", "keywords": ["INFANTRY"], "M": 6, "W": 2, "Ld": 6,
             "OC": 2, "models": [{"id": "s1", "base": "32mm", "at": [20.0, 22.0]},
                                 {"id": "s2", "base": "32mm", "at": [21.5, 22.0]}]},
            {"id": "rhino", "player": "red", "keywords": ["VEHICLE", "TRANSPORT"], "M": 12,
             "W": 10, "Ld": 6, "OC": 2,
             "models": [{"id": "rh1", "base": "hull", "at": [10.0, 10.0],
                         "hull": [[-2.0, -3.5], [2.0, -3.5], [2.0, 3.5], [-2.0, 3.5]]}]},
            {"id": "gants", "player": "blue", "keywords": ["INFANTRY"], "M": 6, "W": 1, "Ld": 8,
             "OC": 2, "models": [{"id": "g1", "base": "25mm", "at": [30.0, 30.0]}]},
        ],
    }


def t9a() -> dict[str, Any]:
    return {
        "format": 1, "name": "Lines", "ruleset": "t9a-2",
        "battlefield": {"width": 72.0, "depth": 48.0},
        "battle": {"round": 1, "active_player": "red", "phase": "movement"},
        "players": [{"id": "red"}, {"id": "blue"}],
        "terrain": [{"id": "rocks", "kind": "impassable",
                     "polygon": [[34.0, 20.0], [40.0, 20.0], [40.0, 26.0], [34.0, 26.0]]}],
        "units": [
            {"id": "spears", "player": "red", "Adv": 4, "Mar": 8, "Dis": 7,
             "base": "rect 20x20mm", "models": 20, "files": 5, "at": [20.0, 30.0]},
            {"id": "orcs", "player": "blue", "Adv": 4, "Mar": 8, "Dis": 7,
             "base": "rect 25x25mm", "models": 10, "files": 5, "at": [20.0, 10.0],
             "facing": 180},
        ],
    }


def problems(doc: dict[str, Any] | str, tmp_path: Path, suffix: str = ".toml") -> list[str]:
    """Write ``doc`` and load it; return the error lines with the file name replaced by FILE."""
    path = tmp_path / f"s{suffix}"
    if isinstance(doc, str):
        path.write_text(doc, encoding="utf-8")
    elif suffix == ".json":
        path.write_text(json.dumps(doc), encoding="utf-8")
    else:
        path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(UserError) as info:
        load_scenario(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written
    return [line.replace(str(path), "FILE") for line in info.value.lines]


def test_valid_documents_are_valid(tmp_path: Path) -> None:
    for doc in (wh40k(), t9a()):
        for suffix in (".toml", ".json"):
            path = tmp_path / f"ok{suffix}"
            path.write_text(json.dumps(doc) if suffix == ".json" else tomli_w.dumps(doc))
            load_scenario(path)


# -- schema ---------------------------------------------------------------------------------------

def test_unknown_base(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][0]["models"][1]["base"] = "33 mm"
    assert problems(doc, tmp_path) == [
        f'FILE: units[0].models[1].base (model "s2"): unknown base "33 mm"; {BASE_HELP}']


def test_unknown_key_with_suggestion(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][2]["keywrods"] = doc["units"][2].pop("keywords")
    assert problems(doc, tmp_path) == [
        'FILE: units[2].keywrods (unit "gants"): unknown key (did you mean "keywords"?); allowed '
        'here: id, name, '
        "player, keywords, M, W, Ld, OC, starting_strength, battle_shocked, location, transport, "
        "models, flags"]


def test_wrong_types_and_ranges_all_at_once(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][0]["M"] = "6"
    doc["units"][0]["W"] = 2.5
    doc["units"][0]["battle_shocked"] = "no"
    doc["battle"]["round"] = 0
    doc["battle"]["phase"] = "shooting"
    doc["units"][0]["models"][0]["at"] = [20.0]
    doc["players"][1]["cp"] = -1
    doc["units"][1]["location"] = "reserves"
    assert problems(doc, tmp_path, ".json") == [
        "FILE: battle.round: must be at least 1, got 0",
        'FILE: battle.phase: unknown value "shooting"; write "command" or "movement"',
        "FILE: players[1].cp: must be at least 0, got -1",
        'FILE: units[0].M (unit "squad"): expected a number, got "6"',
        "FILE: units[0].W (unit \"squad\"): expected a whole number, got 2.5",
        'FILE: units[0].battle_shocked (unit "squad"): expected true or false, got "no"',
        "FILE: units[0].models[0].at (model \"s1\"): a point is [x, y] (two numbers, inches), got "
        "[20.0]",
        'FILE: units[1].location (unit "rhino"): unknown value "reserves"; write "battlefield", '
        '"strategic-reserves" or "embarked"',
    ]


def test_missing_keys_ruleset_and_format(tmp_path: Path) -> None:
    doc = wh40k()
    del doc["units"][0]["W"]
    doc["format"] = 2
    assert problems(doc, tmp_path) == [
        "FILE: format: unsupported format 2; this program reads format 1",
        "FILE: units[0].W (unit \"squad\"): required key is missing",
    ]
    doc = wh40k()
    doc["ruleset"] = "wh40k-10e"
    assert problems(doc, tmp_path) == [
        'FILE: ruleset: unknown value "wh40k-10e"; write "wh40k-11e" or "t9a-2"']
    del doc["ruleset"]
    assert problems(doc, tmp_path) == [
        'FILE: ruleset: required key is missing; write "wh40k-11e" or "t9a-2"']


def test_terrain_kind_depends_on_ruleset(tmp_path: Path) -> None:
    doc = t9a()
    doc["terrain"][0]["kind"] = "dense"
    assert problems(doc, tmp_path) == [
        'FILE: terrain[0].kind: unknown value "dense"; write "open", "impassable" or "dangerous"']


def test_t9a_base_must_be_rect_and_wh40k_keys_are_unknown(tmp_path: Path) -> None:
    doc = t9a()
    doc["units"][0]["base"] = "25mm"
    doc["units"][1]["W"] = 1
    assert problems(doc, tmp_path) == [
        'FILE: units[0].base (unit "spears"): a block of ranks and files stands on rectangular '
        'bases: write "rect FxDmm", '
        'e.g. "rect 20x20mm", got "25mm"',
        "FILE: units[1].W (unit \"orcs\"): unknown key; allowed here: id, name, player, Adv, Mar, "
        "Dis, base, "
        "models, files, starting_models, at, facing, fleeing, flags",
    ]


def test_hull_needs_polygon_and_polygon_needs_points(tmp_path: Path) -> None:
    doc = wh40k()
    del doc["units"][1]["models"][0]["hull"]
    doc["terrain"][0]["polygon"] = [[0.0, 0.0], [1.0, 1.0]]
    assert problems(doc, tmp_path) == [
        "FILE: terrain[0].polygon: a polygon needs at least 3 points, got 2",
        'FILE: units[1].models[0] (model "rh1"): base "hull" needs a "hull" polygon (inches, '
        'relative to the '
        "model's centre, facing 0)",
    ]


def test_a_hull_must_surround_its_models_centre(tmp_path: Path) -> None:
    # a hull written in board coordinates or shifted: the model would stand, turn and be
    # measured from a point off its footprint (fuzzing: a 2" square 1" off its centre swept
    # a circle of 4.2" as it turned, 24 facing layers of it, 3.5 s a zone)
    doc = wh40k()
    for hull in ([[1.0, 1.0], [3.0, 1.0], [3.0, 3.0], [1.0, 3.0]],  # off it
                 [[0.0, 0.0], [3.0, 0.0], [3.0, 3.0]]):  # on a corner of it
        doc["units"][1]["models"][0]["hull"] = hull
        assert problems(doc, tmp_path) == [
            'FILE: units[1].models[0].hull (model "rh1"): the hull lies wholly to one side of '
            "the model's centre [0, 0]: hull points are inches relative to the model's centre, "
            'facing 0 (a 4x7" tank: [[-2, -3.5], [2, -3.5], [2, 3.5], [-2, 3.5]])']
    # an L-shaped hull with its centre between its arms is a hull
    doc["units"][1]["models"][0]["hull"] = [[-2.0, -2.0], [2.0, -2.0], [2.0, -1.0], [-1.0, -1.0],
                                            [-1.0, 2.0], [-2.0, 2.0]]
    path = tmp_path / "l.toml"
    path.write_text(tomli_w.dumps(doc), encoding="utf-8")
    load_scenario(path)


def test_not_a_table_and_nan(tmp_path: Path) -> None:
    assert problems("[1, 2]", tmp_path, ".json") == [
        "FILE: a scenario file is a table of keys (format, name, ruleset, battle, players, "
        "units, ...), got [1, 2]"]
    doc = wh40k()
    doc["units"][0]["models"][0]["facing"] = float("nan")
    assert problems(doc, tmp_path) == [
        "FILE: units[0].models[0].facing (model \"s1\"): expected a finite number, got NaN"]


def test_staged_actions_are_checked(tmp_path: Path) -> None:
    doc = wh40k()
    doc["battle"]["selection"] = {
        "unit": "squad", "move": "normal",
        "start": [{"model": "s1", "at": [20.0, 22.0]}, {"model": "zz", "at": [1.0, 1.0]}],
        "staged": [{"do": "move", "model": "s1", "path": [[21.0, 23.0]]}, {"do": "jump"}],
    }
    assert problems(doc, tmp_path) == [
        'FILE: battle.selection.staged[1].do: unknown value "jump"; write "move", "place", '
        '"forward", "backward", "sideways", "wheel" or "reform"']
    doc["battle"]["selection"]["staged"].pop()
    assert problems(doc, tmp_path) == [
        'FILE: battle.selection.start[1].model: "zz" is not a model of unit "squad"']


# -- beyond the schema ----------------------------------------------------------------------------

def test_duplicate_ids(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][2]["models"][0]["id"] = "s1"
    doc["terrain"][0]["id"] = "red"
    doc["units"][1]["id"] = "squad"
    assert problems(doc, tmp_path) == [
        'FILE: terrain[0].id: duplicate id "red" (first used at players[0].id)',
        'FILE: units[1].id (unit "squad"): duplicate id "squad" (first used at units[0].id)',
        'FILE: units[2].models[0].id (model "s1"): duplicate id "s1" (first used at '
        'units[0].models[0].id)',
    ]


def test_unknown_players_and_two_players(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][2]["player"] = "bleu"
    doc["battle"]["active_player"] = "rouge"
    assert problems(doc, tmp_path) == [
        'FILE: battle.active_player: unknown player "rouge"; the players are "red" and "blue"',
        'FILE: units[2].player (unit "gants"): unknown player "bleu"; the players are "red" and '
        '"blue"',
    ]
    doc = wh40k()
    doc["players"].append({"id": "green"})
    assert problems(doc, tmp_path) == ["FILE: players: exactly two players are needed, found 3"]


def test_transports(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][0]["location"] = "embarked"
    for m in doc["units"][0]["models"]:
        del m["at"]
    assert problems(doc, tmp_path) == [
        'FILE: units[0].transport (unit "squad"): required when location = "embarked"']
    doc["units"][0]["transport"] = "rhyno"
    assert problems(doc, tmp_path) == [
        'FILE: units[0].transport (unit "squad"): unknown unit "rhyno"']
    doc["units"][0]["transport"] = "gants"
    assert problems(doc, tmp_path) == [
        'FILE: units[0].transport (unit "squad"): unit "gants" is not a TRANSPORT (its keywords: '
        '"INFANTRY")']
    doc["units"][0]["transport"] = "rhino"
    load_scenario_ok(doc, tmp_path)
    doc["units"][0]["location"] = "battlefield"
    doc["units"][0]["models"][0]["at"] = [20.0, 22.0]
    doc["units"][0]["models"][1]["at"] = [21.5, 22.0]
    assert problems(doc, tmp_path) == [
        'FILE: units[0].transport (unit "squad"): only for location = "embarked" (this unit\'s '
        'location is '
        '"battlefield")']


def load_scenario_ok(doc: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / "ok.toml"
    path.write_text(tomli_w.dumps(doc))
    load_scenario(path)


def test_positions_and_locations(tmp_path: Path) -> None:
    doc = wh40k()
    del doc["units"][0]["models"][1]["at"]
    doc["units"][2]["location"] = "strategic-reserves"
    assert problems(doc, tmp_path) == [
        "FILE: units[0].models[1].at (model \"s2\"): required key is missing: a model on the "
        "battlefield needs "
        "a position [x, y]",
        'FILE: units[2].models[0].at (model "g1"): a model in strategic-reserves has no position; '
        'remove "at" '
        "(or set the unit's location = \"battlefield\")",
    ]


def test_wounds_above_w(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][0]["models"][0]["wounds"] = 3
    assert problems(doc, tmp_path) == [
        "FILE: units[0].models[0].wounds (model \"s1\"): 3 wounds left is more than the unit's W "
        "of 2"]


def test_overlapping_bases_and_touching_is_fine(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][0]["models"][1]["at"] = [20.0 + 2 * R, 22.0]  # exactly touching
    load_scenario_ok(doc, tmp_path)
    doc["units"][0]["models"][1]["at"] = [20.0 + 2 * R - 1e-3, 22.0]
    assert problems(doc, tmp_path) == [
        'FILE: units[0].models[1] (model "s2"): the base overlaps model "s1" (units[0].models[0])']
    # a round base against the hull: touching the side is fine, 0.01" into it is not
    doc = wh40k()
    doc["units"][2]["models"][0]["at"] = [12.0 + 0.5 * 25 / 25.4, 10.0]
    load_scenario_ok(doc, tmp_path)
    doc["units"][2]["models"][0]["at"] = [12.0 + 0.5 * 25 / 25.4 - 0.01, 10.0]
    assert problems(doc, tmp_path) == [
        'FILE: units[2].models[0] (model "g1"): the base overlaps model "rh1" '
        '(units[1].models[0])']


def test_ovals_overlap(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"].append({"id": "bikes", "player": "red", "keywords": ["MOUNTED"], "M": 12,
                         "W": 3, "Ld": 6, "OC": 2, "models": [
                             {"id": "b1", "base": "oval 75x42mm", "at": [5.0, 30.0]},
                             {"id": "b2", "base": "oval 75x42mm", "at": [5.0 + 42 / 25.4, 30.0]},
                         ]})
    load_scenario_ok(doc, tmp_path)  # side by side, touching
    doc["units"][3]["models"][1]["facing"] = 90  # turned: its long axis reaches into b1
    assert problems(doc, tmp_path) == [
        'FILE: units[3].models[1] (model "b2"): the base overlaps model "b1" (units[3].models[0])']


def test_overlapping_impassable_terrain(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][2]["models"][0]["at"] = [40.0 - 0.5 * 25 / 25.4, 12.0]  # touching: fine
    load_scenario_ok(doc, tmp_path)
    doc["units"][2]["models"][0]["at"] = [40.2, 12.0]
    assert problems(doc, tmp_path) == [
        'FILE: units[2].models[0] (model "g1"): the base overlaps impassable terrain "rock"']


def test_off_the_battlefield(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][0]["models"][0]["at"] = [R, 22.0]  # touching the edge: fine
    load_scenario_ok(doc, tmp_path)
    doc["units"][0]["models"][0]["at"] = [0.5, 22.0]
    doc["units"][1]["models"][0]["at"] = [10.0, 3.0]
    doc["objectives"] = [[61.0, 10.0]]
    assert problems(doc, tmp_path) == [
        'FILE: objectives[0]: (61, 10) is not on the battlefield (60 x 44")',
        'FILE: units[0].models[0].at (model "s1"): (0.5, 22): the base is not wholly on the '
        'battlefield '
        '(60 x 44")',
        'FILE: units[1].models[0].at (model "rh1"): (10, 3): the base is not wholly on the '
        'battlefield '
        '(60 x 44")',
    ]


def test_invalid_polygons(tmp_path: Path) -> None:
    doc = wh40k()
    doc["terrain"][0]["polygon"] = [[40.0, 10.0], [44.0, 14.0], [44.0, 10.0], [40.0, 14.0]]
    doc["players"][0]["deployment_zone"] = [[0.0, 0.0], [10.0, 0.0], [20.0, 0.0]]
    doc["units"][1]["models"][0]["hull"] = [[-2.0, -3.5], [2.0, 3.5], [2.0, -3.5], [-2.0, 3.5]]
    assert problems(doc, tmp_path) == [
        "FILE: players[0].deployment_zone: invalid polygon: the outline crosses or touches itself "
        "at (10, 0)",
        "FILE: terrain[0].polygon: invalid polygon: the outline crosses or touches itself at "
        "(42, 12)",
        "FILE: units[1].models[0].hull (model \"rh1\"): invalid polygon: the outline crosses or "
        "touches itself "
        "at (0, 0)",
    ]


def test_t9a_blocks(tmp_path: Path) -> None:
    doc = t9a()
    doc["units"][0]["files"] = 25
    assert problems(doc, tmp_path) == [
        "FILE: units[0].files (unit \"spears\"): 25 files but only 20 models; files must be "
        "between 1 and models"]
    doc = t9a()
    doc["units"][0]["files"] = 0
    assert problems(doc, tmp_path) == [
        'FILE: units[0].files (unit "spears"): must be at least 1, got 0']
    doc = t9a()
    doc["units"][0]["at"] = [1.0, 30.0]
    doc["units"][1]["at"] = [36.0, 20.0]
    doc["units"].append({"id": "wolves", "player": "blue", "Adv": 9, "Mar": 18, "Dis": 5,
                         "base": "rect 25x50mm", "models": 5, "files": 5, "at": [37.0, 19.5]})
    assert problems(doc, tmp_path) == [
        'FILE: units[0].at (unit "spears"): the unit\'s block (5 files x 4 ranks, 3.937 x 3.15" '
        'around (1, 30)) '
        'is not wholly on the battlefield (72 x 48")',
        'FILE: units[1] (unit "orcs"): the block overlaps impassable terrain "rocks"',
        'FILE: units[2] (unit "wolves"): the block overlaps unit "orcs"',
        'FILE: units[2] (unit "wolves"): the block overlaps impassable terrain "rocks"',
    ]


def test_t9a_blocks_touching_are_fine(tmp_path: Path) -> None:
    doc = t9a()
    # spears: 5 x 20mm wide, 4 ranks of 20mm deep, centred (20, 30): top edge at y = 30 - 1.5748
    top = 30.0 - 2 * 20 / 25.4
    # orcs: 2 ranks of 25 mm: put their back edge (facing 180: the top) on the spears' front edge
    doc["units"][1]["at"] = [20.0, top - 25 / 25.4]
    load_scenario_ok(doc, tmp_path)


# -- malformed and absurd files -------------------------------------------------------------------

def test_malformed_toml_and_json_give_line_and_column(tmp_path: Path) -> None:
    text = 'format = 1\nname = "x"\nruleset "wh40k-11e"\n'
    assert problems(text, tmp_path) == [
        "FILE: line 3, column 9: invalid TOML: Expected '=' after a key in a key/value pair"]
    assert problems('{"format": 1,\n "name": }', tmp_path, ".json") == [
        "FILE: line 2, column 10: invalid JSON: Expecting value"]
    assert problems('{"format": 1, "format": 1}', tmp_path, ".json") == [
        'FILE: invalid JSON: the key "format" appears twice in one object']
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'name = "\xff"\n')
    with pytest.raises(UserError) as info:
        load_scenario(bad)
    assert info.value.lines == [
        f"{bad}: not UTF-8 text (byte 0xff at offset 8); save the file as UTF-8"]


def test_format_by_content_without_suffix(tmp_path: Path) -> None:
    for name, text in (("a.scenario", json.dumps(wh40k())), ("b", tomli_w.dumps(wh40k()))):
        (tmp_path / name).write_text(text)
        assert load_scenario(tmp_path / name).name == "Test"


def test_absurd_input_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    with big.open("wb") as fh:
        fh.truncate(MAX_BYTES + 1)
    with pytest.raises(UserError) as info:
        load_scenario(big)
    assert info.value.lines == [
        f"{big}: the file is too large ({MAX_BYTES + 1:,} bytes; the limit is 50 MB)"]

    deep = "[" * 100_000 + "]" * 100_000
    for text, suffix in ((f'{{"format": {deep}}}', ".json"), (f"format = {deep}\n", ".toml")):
        assert problems(text, tmp_path, suffix) == [
            "FILE: nested deeper than 32 levels; a scenario file needs far fewer"]
    assert problems('{"a":' * 40 + "1" + "}" * 40, tmp_path, ".json") == [
        "FILE: nested deeper than 32 levels; a scenario file needs far fewer"]
    # counted on a JSON file's text: brackets in strings and escapes are not nesting, and 32
    # levels are taken (the file is then refused for what it holds)
    for levels, refused in ((32, False), (33, True)):
        text = ('{"name": "[[[{\\\"[[", "a": ' + "[" * (levels - 1) + '"]]]\\"[["'
                + "]" * (levels - 1) + "}")
        got = problems(text, tmp_path, ".json")
        assert (got == ["FILE: nested deeper than 32 levels; a scenario file needs far fewer"]
                ) == refused, got
        assert refused or not any("invalid JSON" in line for line in got), got

    # TOML is parsed by pure Python: bulky TOML is refused before parsing
    assert problems("x = 1\n" + "a.b.c.d = 1\n", tmp_path) == [
        "FILE: line 2: a dotted key of more than 3 parts (a.b.c); a scenario file needs no more"]
    assert problems("[" + "1," * (MAX_ITEMS + 1) + "1]", tmp_path, ".json") == [
        f"FILE: too many values ({MAX_ITEMS + 1:,} commas; a scenario file needs fewer than "
        f"{MAX_ITEMS:,})"]
    assert problems("#" * (MAX_TOML_BYTES + 1), tmp_path) == [
        f"FILE: too large for TOML ({MAX_TOML_BYTES + 1:,} characters; the limit is 8 MB); save "
        "it as JSON (same keys)"]
    assert problems("x = 1\n" * (MAX_TOML_LINES + 1), tmp_path) == [
        f"FILE: too many lines ({MAX_TOML_LINES + 1:,}; the limit for TOML is "
        f"{MAX_TOML_LINES:,}; JSON has no such limit)"]
    assert problems('x = "' + "a" * MAX_TOML_LINE + '"\n', tmp_path) == [
        f"FILE: line 1 is too long ({MAX_TOML_LINE + 6:,} characters; the limit for TOML is "
        f"{MAX_TOML_LINE:,})"]

    doc = wh40k()
    doc["units"][0]["models"] = [{"id": f"m{i}", "base": "25mm", "at": [1.0, 1.0]}
                                 for i in range(10_001)]
    assert problems(doc, tmp_path, ".json") == [
        "FILE: too many models (10,003; the limit is 10,000)"]
    doc = t9a()
    doc["units"][0]["models"] = 10**12
    assert problems(doc, tmp_path) == [
        "FILE: too many models (1,000,000,000,010; the limit is 10,000)"]


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(UserError) as info:
        load_scenario(tmp_path / "nope.toml")
    assert info.value.lines == [f"{tmp_path / 'nope.toml'}: cannot read the file: No such file "
                                "or directory"]
    with pytest.raises(UserError) as info:
        load_scenario(tmp_path)
    assert info.value.lines == [f"{tmp_path}: is a folder, not a scenario file"]


# -- the check command ----------------------------------------------------------------------------

def test_check_command_exit_codes_and_output(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.toml"
    good.write_text(tomli_w.dumps(wh40k()))
    doc = copy.deepcopy(wh40k())
    doc["units"][0]["models"][0]["base"] = "33"
    doc["units"][0]["models"][1]["wounds"] = 0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    before = sorted(p.name for p in tmp_path.iterdir())

    assert main(["check", str(good)]) == 0
    out = capsys.readouterr()
    assert (out.out, out.err) == (f"{good}: ok\n", "")

    assert main(["check", str(bad), str(good)]) == 2
    out = capsys.readouterr()
    assert out.out == f"{good}: ok\n"
    assert out.err.splitlines() == [
        f'{bad}: units[0].models[0].base (model "s1"): unknown base "33"; {BASE_HELP}',
        f'{bad}: units[0].models[1].wounds (model "s2"): must be at least 1, got 0',
    ]
    assert "Traceback" not in out.err
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_absurd_numbers_are_refused(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][0]["models"][0]["facing"] = 1e300
    doc["units"][0]["models"][1]["base"] = "1" + "0" * 400 + "mm"
    assert problems(doc, tmp_path) == [
        'FILE: units[0].models[0].facing (model "s1"): 1e+300 is out of range: numbers in a '
        "scenario are at most 1000000 in size",
        f'FILE: units[0].models[1].base (model "s2"): base "1{"0" * 39}"… (403 characters) is '
        "too large: at most 10000 mm across",
    ]


# -- schema problems and checks beyond the schema in one run --------------------------------------

def test_schema_and_check_problems_in_one_run_in_file_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = wh40k()
    doc["units"][2]["models"][0]["id"] = "s1"  # duplicate id
    doc["units"][1]["models"][0]["at"] = [10.0, 1.0]  # the hull reaches off the top edge
    doc["units"][0]["models"][1]["base"] = "33 mm"  # schema
    doc["units"][0]["models"][0]["wounds"] = 3  # W is 2
    expected = [
        "FILE: units[0].models[0].wounds (model \"s1\"): 3 wounds left is more than the unit's W "
        "of 2",
        f'FILE: units[0].models[1].base (model "s2"): unknown base "33 mm"; {BASE_HELP}',
        'FILE: units[1].models[0].at (model "rh1"): (10, 1): the base is not wholly on the '
        'battlefield '
        '(60 x 44")',
        'FILE: units[2].models[0].id (model "s1"): duplicate id "s1" (first used at '
        'units[0].models[0].id)',
    ]
    assert problems(doc, tmp_path) == expected
    assert problems(doc, tmp_path, ".json") == expected

    path = tmp_path / "both.json"
    path.write_text(json.dumps(doc))
    before = sorted(p.name for p in tmp_path.iterdir())
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.splitlines() == [line.replace("FILE", str(path)) for line in expected]
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_broken_players_still_reports_unit_problems(tmp_path: Path) -> None:
    doc = wh40k()
    doc["players"] = "red, blue"
    doc["units"][2]["player"] = "nobody"  # cannot be checked without the players
    doc["units"][0]["models"][0]["wounds"] = 3
    doc["units"][2]["models"][0]["at"] = [21.0, 22.5]  # on top of s1 and s2
    assert problems(doc, tmp_path) == [
        'FILE: players: expected an array, got "red, blue"',
        "FILE: units[0].models[0].wounds (model \"s1\"): 3 wounds left is more than the unit's W "
        "of 2",
        'FILE: units[2].models[0] (model "g1"): the base overlaps models "s1" '
        '(units[0].models[0]) and "s2" (units[0].models[1])',
    ]
    # one bad player: its id is still known, so references and the count are checked
    doc = wh40k()
    doc["players"][0]["cp"] = "3"
    doc["players"].append({"id": "green"})
    doc["units"][2]["player"] = "nobody"
    assert problems(doc, tmp_path) == [
        "FILE: players: exactly two players are needed, found 3",
        'FILE: players[0].cp: expected a whole number, got "3"',
        'FILE: units[2].player (unit "gants"): unknown player "nobody"; the players are "red", '
        '"blue" and '
        '"green"',
    ]
    # a player without a readable id: no player references are checked
    doc["players"][0]["id"] = ""
    doc["units"][2]["models"][0]["wounds"] = 2
    assert problems(doc, tmp_path) == [
        "FILE: players: exactly two players are needed, found 3",
        "FILE: players[0].id: an id must not be empty",
        'FILE: players[0].cp: expected a whole number, got "3"',
        "FILE: units[2].models[0].wounds (model \"g1\"): 2 wounds left is more than the unit's W "
        "of 1",
    ]


def test_items_left_out_cause_no_follow_on_problems(tmp_path: Path) -> None:
    doc = wh40k()
    doc["units"][1]["W"] = "10"  # the rhino is left out ...
    doc["units"][0]["location"] = "embarked"  # ... but the squad may still embark on it
    doc["units"][0]["transport"] = "rhino"
    for m in doc["units"][0]["models"]:
        del m["at"]
    doc["units"][2]["models"].append({"id": "g2", "base": "25mm ", "at": [32.0, 30.0]})
    doc["battle"]["selection"] = {"unit": "gants", "move": "normal",
                                  "start": [{"model": "g1", "at": [30.0, 30.0]},
                                            {"model": "g2", "at": [32.0, 30.0]},
                                            {"model": "g3", "at": [34.0, 30.0]}]}
    doc["triggers"] = [{"at": "movement.start", "effect": "flag", "unit": "rhino", "flag": "x"},
                       {"at": "movement.start", "effect": "flag", "unit": "ghost", "flag": "x"}]
    assert problems(doc, tmp_path) == [
        'FILE: battle.selection.start[2].model: "g3" is not a model of unit "gants"',
        'FILE: units[1].W (unit "rhino"): expected a whole number, got "10"',
        f'FILE: units[2].models[1].base (model "g2"): unknown base "25mm "; {BASE_HELP}',
        'FILE: triggers[1].unit: unknown unit "ghost"',
    ]
    # a unit left out still counts for duplicate ids, and so do its models
    doc["units"][1]["id"] = "squad"
    doc["units"][1]["models"][0]["id"] = "s2"
    doc["units"][0]["transport"] = "squad"
    doc["triggers"].pop()
    assert problems(doc, tmp_path) == [  # and no unit is called "rhino" any more
        'FILE: battle.selection.start[2].model: "g3" is not a model of unit "gants"',
        'FILE: units[0].transport (unit "squad"): unit "squad" is not a TRANSPORT '
        '(its keywords: "INFANTRY")',
        'FILE: units[1].id (unit "squad"): duplicate id "squad" (first used at units[0].id)',
        'FILE: units[1].W (unit "squad"): expected a whole number, got "10"',
        'FILE: units[1].models[0].id (model "s2"): duplicate id "s2" (first used at '
        'units[0].models[1].id)',
        f'FILE: units[2].models[1].base (model "g2"): unknown base "25mm "; {BASE_HELP}',
        'FILE: triggers[0].unit: unknown unit "rhino"',
    ]


def test_items_left_out_do_not_shift_paths(tmp_path: Path) -> None:
    doc = wh40k()
    doc["players"][0]["cp"] = -1
    doc["players"][1]["deployment_zone"] = [[0.0, 0.0], [10.0, 10.0], [10.0, 0.0], [0.0, 10.0]]
    doc["terrain"].insert(0, {"id": "wood", "kind": "forest", "polygon": [[1, 1], [2, 1], [2, 2]]})
    doc["objectives"] = [[1.0, "x"], [70.0, 1.0]]
    doc["units"][0]["models"][0]["base"] = "hull"  # no hull polygon
    doc["units"][0]["models"][1]["at"] = [41.5, 12.0]  # on the rock, now terrain[1]
    doc["units"][2]["models"][0]["at"] = [40.5, 12.0]  # on the rock and on s2
    assert problems(doc, tmp_path) == [
        "FILE: players[0].cp: must be at least 0, got -1",
        "FILE: players[1].deployment_zone: invalid polygon: the outline crosses or touches "
        "itself at (5, 5)",
        'FILE: terrain[0].kind: unknown value "forest"; write "area", "light", "dense" or '
        '"impassable"',
        'FILE: objectives[0]: a point is [x, y] (two numbers, inches), got [1.0, "x"]',
        'FILE: objectives[1]: (70, 1) is not on the battlefield (60 x 44")',
        'FILE: units[0].models[0] (model "s1"): base "hull" needs a "hull" polygon (inches, '
        'relative to the '
        "model's centre, facing 0)",
        'FILE: units[0].models[1] (model "s2"): the base overlaps impassable terrain "rock"',
        'FILE: units[2].models[0] (model "g1"): the base overlaps model "s2" (units[0].models[1])',
        'FILE: units[2].models[0] (model "g1"): the base overlaps impassable terrain "rock"',
    ]


def test_broken_battle_and_battlefield_skip_what_needs_them(tmp_path: Path) -> None:
    doc = wh40k()
    doc["battlefield"] = {"width": 0.0, "depth": 44.0}
    doc["battle"]["round"] = 0
    doc["battle"]["active_player"] = "rouge"  # needs a valid battle
    doc["units"][0]["models"][0]["at"] = [0.2, 22.0]  # off the edge: needs the battlefield
    doc["units"][2]["models"][0]["at"] = [21.0, 22.5]
    assert problems(doc, tmp_path) == [
        "FILE: battlefield.width: must be more than 0, got 0.0",
        "FILE: battle.round: must be at least 1, got 0",
        'FILE: units[2].models[0] (model "g1"): the base overlaps model "s2" (units[0].models[1])',
    ]
    # the unit being moved may stand on others even when the rest of the battle is broken
    doc["battle"]["selection"] = {"unit": "gants", "move": "normal"}
    assert problems(doc, tmp_path) == [
        "FILE: battlefield.width: must be more than 0, got 0.0",
        "FILE: battle.round: must be at least 1, got 0",
    ]


def test_t9a_schema_and_block_problems_in_one_run(tmp_path: Path) -> None:
    doc = t9a()
    doc["units"][0]["Adv"] = "4"
    doc["units"][1]["files"] = 11
    doc["units"][1]["id"] = "rocks"
    doc["units"].append({"id": "wolves", "player": "bleu", "Adv": 9, "Mar": 18, "Dis": 5,
                         "base": "rect 25x50mm", "models": 5, "files": 5, "at": [37.0, 23.0]})
    assert problems(doc, tmp_path) == [
        'FILE: units[0].Adv (unit "spears"): expected a number, got "4"',
        'FILE: units[1].id (unit "rocks"): duplicate id "rocks" (first used at terrain[0].id)',
        "FILE: units[1].files (unit \"rocks\"): 11 files but only 10 models; files must be between "
        "1 and models",
        'FILE: units[2] (unit "wolves"): the block overlaps impassable terrain "rocks"',
        'FILE: units[2].player (unit "wolves"): unknown player "bleu"; the players are "red" and '
        '"blue"',
    ]


def _noisy() -> dict[str, Any]:
    """A wh40k document with many problems beyond the schema (and none of the schema)."""
    doc = wh40k()
    doc["battlefield"] = {"width": 60.0, "depth": 44.0}
    doc["objectives"] = [[61.0, 10.0], [5.0, 5.0]]
    doc["units"][2]["models"][0]["id"] = "s1"  # duplicate id
    doc["units"][2]["player"] = "bleu"
    doc["units"][2]["models"].append({"id": "g2", "base": "25mm", "at": [11.0, 2.0]})  # on rh1
    doc["units"][0]["models"][0]["wounds"] = 3
    doc["units"][1]["models"][0]["at"] = [10.0, 1.0]  # off the top edge
    doc["units"].append({"id": "cargo", "player": "red", "keywords": ["INFANTRY"], "M": 6,
                         "W": 1, "Ld": 7, "OC": 1, "location": "embarked", "transport": "rhino",
                         "models": [{"id": "c1", "base": "25mm"}]})
    doc["units"].append({"id": "lost", "player": "blue", "keywords": [], "M": 6, "W": 1,
                         "Ld": 7, "OC": 1, "location": "embarked", "transport": "gants",
                         "models": [{"id": "l1", "base": "25mm"}]})
    doc["battle"]["selection"] = {"unit": "squad", "move": "normal",
                                  "start": [{"model": "s2", "at": [21.5, 22.0]},
                                            {"model": "zz", "at": [1.0, 1.0]}]}
    doc["triggers"] = [
        {"at": "movement.start", "effect": "flag", "unit": "rhino", "flag": "x", "amount": 1},
        {"at": "movement.start", "effect": "gain-cp", "target": "green", "amount": 1},
        {"at": "movement.start", "effect": "battle-shock-roll", "unit": "cargo"},
    ]
    return doc


_BREAKABLE: list[tuple[tuple[str | int, ...], str]] = [
    (("battle",), "round"), (("battlefield",), "width"), (("players", 0), "cp"),
    (("players", 1), "cp"), (("terrain", 0), "height"), (("units", 0), "M"), (("units", 1), "M"),
    (("units", 2), "M"), (("units", 3), "M"), (("units", 0, "models", 0), "facing"),
    (("units", 0, "models", 1), "facing"), (("units", 1, "models", 0), "facing"),
    (("units", 2, "models", 1), "facing"), (("units", 3, "models", 0), "facing"),
    (("triggers", 0), "amount"),
]
"""Places in :func:`_noisy` where a wrong type breaks one item (never an id)."""


def _lines(doc: dict[str, Any], *, check: bool) -> list[str]:
    try:
        loads_scenario(json.dumps(doc), fmt="json", source="FILE", check=check)
    except UserError as exc:
        return exc.lines
    return []


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(range(len(_BREAKABLE))), min_size=1))
def test_breaking_items_only_removes_check_problems(broken: set[int]) -> None:
    doc = _noisy()
    clean = _lines(doc, check=True)
    assert len(clean) == 9 and _lines(doc, check=False) == []
    for k in broken:
        where, key = _BREAKABLE[k]
        item: Any = doc
        for part in where:
            item = item[part]
        item[key] = "junk"
    found = _lines(doc, check=True)
    schema = _lines(doc, check=False)
    assert len(found) == len(set(found))
    assert set(schema) <= set(found)
    assert len(schema) == len(broken)
    # every problem beyond the schema was there before: nothing follows from a part left out
    assert set(found) - set(schema) <= set(clean)


def test_every_problem_of_a_unit_with_a_bad_key(tmp_path: Path) -> None:
    """A unit whose M (or W, or an unknown key) is wrong still has its models checked: one
    bad characteristic no longer hides a model off the table, wounds above W, overlaps."""
    doc = wh40k()
    squad = doc["units"][0]
    squad["M"] = "six"
    squad["moove"] = 6
    squad["models"] = [{"id": "s1", "base": "32mm", "at": [-3.0, 22.0]},
                       {"id": "s2", "base": "32mm", "at": [21.5, 22.0], "wounds": 3},
                       {"id": "s3", "base": "32mm", "at": [21.6, 22.0]}]
    assert problems(doc, tmp_path) == [
        'FILE: units[0].M (unit "squad"): expected a number, got "six"',
        'FILE: units[0].models[0].at (model "s1"): (-3, 22): the base is not wholly on the '
        'battlefield (60 x 44")',
        'FILE: units[0].models[1].wounds (model "s2"): 3 wounds left is more than the unit\'s '
        'W of 2',
        'FILE: units[0].models[2] (model "s3"): the base overlaps model "s2" '
        '(units[0].models[1])',
        'FILE: units[0].moove (unit "squad"): unknown key; allowed here: id, name, player, '
        'keywords, M, W, Ld, OC, starting_strength, battle_shocked, location, transport, '
        'models, flags',
    ]
    # a bad W: the wounds cannot be judged against it, the rest still is
    squad["W"] = 0
    lines = problems(doc, tmp_path)
    assert 'FILE: units[0].W (unit "squad"): must be at least 1, got 0' in lines
    assert not any("wounds" in line for line in lines)
    assert sum("not wholly on the battlefield" in line or "overlaps" in line
               for line in lines) == 2
    # a key the checks need (the player) still leaves the unit out, with no follow-on problems
    squad["player"] = 7
    lines = problems(doc, tmp_path)
    assert not any("models[" in line for line in lines)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.floats(), st.integers(-(10**7), 10**7), st.booleans(),
                          st.sampled_from([1e6, -1e6, 1e6 + 1e-9, float("nan"), -0.0])),
                min_size=0, max_size=3),
       st.booleans())
def test_a_point_is_taken_as_each_number_alone_would_be(values: list[Any], as_tuple: bool) -> None:
    """``[x, y]`` of two floats in range is taken as it is (the fast way); any other value is
    taken or refused as the format says: two numbers (not booleans), finite, at most
    1,000,000 in size."""
    import math

    from pydantic import TypeAdapter, ValidationError

    from tabletop.scenario.schema import MAX_NUMBER, Point

    value = tuple(values) if as_tuple else values
    try:
        got: object = TypeAdapter(Point).validate_python(value)
    except ValidationError:
        got = "refused"
    ok = (len(values) == 2
          and all(isinstance(v, int | float) and not isinstance(v, bool) for v in values)
          and all(math.isfinite(v) and abs(v) <= MAX_NUMBER for v in values))
    assert got == ((float(values[0]), float(values[1])) if ok else "refused")

"""Army lists onto the table: a list in each format ``wh40kdc`` reads becomes a legal scenario,
its bases come from the data, and what does not fit says which unit and why."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from shapely.geometry import Polygon

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.geometry.footprints import footprint_distance
from tabletop.importers import battlefields, dataset
from tabletop.importers.deployment import Group, set_up
from tabletop.importers.rosters import armies, read_army
from tabletop.importers.unit_bases import (
    base_catalogue,
    base_of,
    model_rows,
    outer_points,
    row_base,
    unit_record,
)
from tabletop.rulesets.wh40k_11e.checks import (
    coherency_violations,
    edge_violations,
    engagement_violations,
    overlap_violations,
    terrain_violations,
)
from tabletop.scenario.checks import check_state
from tabletop.scenario.io import load_scenario
from tabletop.state import GameState, Model, Unit

from support.army_lists import (
    BATTLESCRIBE_ROS,
    GW_APP,
    KNIGHTS_14,
    LISTFORGE_TEXT,
    NEWRECRUIT_SIMPLE_NO_MODEL_LINES,
    TEXTS,
    battlescribe_rosz,
    every_format,
)
from support.current_data import HAVE_WH40KDC, needs_wh40kdc

pytestmark = needs_wh40kdc

LAYOUT = "bm-take-vs-take-01"


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def assert_legal_set_up(state: GameState) -> None:
    """Every unit wholly within its player's zone, coherent, on nothing, unengaged; and the
    file the state makes is valid."""
    assert check_state(state) == []
    for u in state.units:
        assert isinstance(u, Unit)
        zone = state.player(u.player).zone_polygon
        assert zone is not None
        for m in u.models:
            assert zone.buffer(1e-6, join_style="mitre").contains(m.footprint), m.id
        problems = [*coherency_violations(u), *overlap_violations(state, u),
                    *edge_violations(state, u), *terrain_violations(state, u),
                    *engagement_violations(state, u)]
        assert not problems, [v.message for v in problems]


@pytest.fixture(scope="module")
def board() -> GameState:
    return battlefields.layout_state(LAYOUT)


@pytest.mark.parametrize("fmt", [*TEXTS, "newrecruit-json", "rosterizer", "roster-json",
                                 "listforge"] if HAVE_WH40KDC else [])
def test_a_list_in_each_format_becomes_a_legal_scenario(fmt: str, tmp_path: Path,
                                                        board: GameState) -> None:
    text = every_format()[fmt]
    path = _write(tmp_path, f"{fmt}.txt", text)
    army = read_army(path)
    assert army.format == fmt.replace("-app", "").replace("-headerless", "")
    placed = armies(board, [path], opponent="mirror")
    state = placed.state
    assert_legal_set_up(state)
    red = [u for u in state.units if u.player == "red"]
    blue = [u for u in state.units if u.player == "blue"]
    assert len(red) == len(blue) == sum(1 + len(leaders) for _, leaders in army.groups)
    names = {u.name for u in red}
    assert {"Captain", "Intercessor Squad"} <= names
    squad = next(u for u in red if u.name == "Intercessor Squad")
    assert isinstance(squad, Unit) and len(squad.models) == 5
    assert {m.base.spec for m in squad.models} == {"32mm"}
    assert "INFANTRY" in squad.keywords and squad.M == 6 and squad.W == 2


def test_bases_per_model_row_ovals_hulls_and_stand_ins(board: GameState, tmp_path: Path
                                                       ) -> None:
    placed = armies(board, [_write(tmp_path, "gw.txt", GW_APP)])
    units = {u.name: u for u in placed.state.units if isinstance(u, Unit)}
    outriders = units["Outrider Squad"]
    assert {m.base.spec for m in outriders.models} == {"oval 90x52.5mm"}
    assert units["Redemptor Dreadnought"].models[0].base.spec == "90mm"
    rhino = units["Rhino"].models[0]
    assert rhino.base.spec == "hull"
    # the data's Rhino is a draft hull without a size: the stand-in is said
    assert any("Rhino" in line and "hull without a size" in line and "stands in" in line
               for line in placed.lines)
    assert_legal_set_up(placed.state)


def test_a_composition_rows_own_base_wins_over_its_units() -> None:
    """Guardian Defenders (28.5 mm) have a Heavy Weapon Platform on 40 mm."""
    record = unit_record("guardian-defenders", "aeldari")
    assert record is not None
    bases = {r["name"]: row_base(record, r).spec for r in model_rows(record)}
    assert bases["Guardian Defender"] == "28.5mm"
    assert bases["Heavy Weapon Platform"] == "40mm"


def test_an_oval_takes_its_long_axis_along_the_facing_and_drafts_are_said() -> None:
    b = base_of({"shape": "oval", "width": 170, "length": 109})
    assert b.spec == "oval 170x109mm" and b.source == "data"
    b = base_of({"shape": "oval", "width": 109, "length": 170})
    assert b.spec == "oval 170x109mm"
    b = base_of({"shape": "flying-base", "size": "large", "width": 120, "length": 92,
                 "draft": True}, unit_id="wave-serpent")
    assert b.spec == "oval 120x92mm" and b.source == "draft" and "draft" in (b.note or "")
    b = base_of(None, keywords=["Infantry"])
    assert b.spec == "32mm" and b.source == "fallback"
    b = base_of({"shape": "unique", "draft": True}, keywords=["Vehicle", "Aircraft"])
    assert b.spec == "hull" and b.source == "fallback" and "stands in" in (b.note or "")


def test_a_titanic_draft_hull_stands_in_on_the_knights_oval_not_a_rhino() -> None:
    """A Baneblade (a TITANIC VEHICLE whose hull the data marks draft, without a size) takes
    the commonest sized TITANIC base of the data, the Knights' oval, said in its warning; a
    Rhino (a draft hull, not TITANIC) the stand-in hull."""
    bane = unit_record("baneblade", "astra-militarum")
    assert bane is not None and (bane.get("base_size_mm") or {}).get("draft")
    b = row_base(bane, None)
    assert (b.spec, b.source) == ("oval 170x109mm", "fallback")
    assert b.note == ("the data's base is a hull without a size; the TITANIC fallback base "
                      "oval 170x109mm stands in")
    titanic = [base_of(u.get("base_size_mm"), keywords=u.get("keywords") or [])
               for u in dataset.raw()["units"]
               if "TITANIC" in {k.upper() for k in u.get("keywords") or []}]
    sized = [x.spec for x in titanic if x.source == "data"]
    assert max(set(sized), key=sized.count) == "oval 170x109mm"
    rhino = unit_record("rhino", "adeptus-astartes")
    assert rhino is not None and row_base(rhino, None).key == "Rhino hull (stand-in)"


def test_the_traced_falcon_hull_is_never_smaller_and_fits_the_format() -> None:
    b = base_of({"shape": "flying-base", "size": "large", "width": 120, "length": 92,
                 "draft": True}, unit_id="falcon")
    assert b.spec == "hull" and b.source == "traced" and b.hull is not None
    assert len(b.hull) <= 64
    raw = [(p["x"], p["y"]) for p in dataset.by_id("hull_shapes")["falcon"]["points"]]
    traced = Polygon(raw)
    c = traced.centroid
    centred = Polygon([(x - c.x, y - c.y) for x, y in raw])
    mine = Polygon(b.hull)
    assert mine.is_valid and mine.buffer(1e-5).contains(centred)
    assert mine.area < 1.05 * centred.area < centred.convex_hull.area  # not its convex hull


def test_outer_points_keeps_a_polygon_and_contains_it() -> None:
    star = [(round(3 * (1 if k % 2 else 0.4) * math.cos(k * 0.0785), 6),
             round(3 * (1 if k % 2 else 0.4) * math.sin(k * 0.0785), 6)) for k in range(80)]
    got = outer_points(star, 64)
    assert len(got) <= 64
    assert Polygon(got).is_valid and Polygon(got).buffer(1e-9).contains(Polygon(star))
    circle = [(math.cos(k / 20), math.sin(k / 20)) for k in range(126)]
    got = outer_points(circle, 16)  # convex: edges dropped by extending their neighbours
    assert len(got) <= 16 and Polygon(got).buffer(1e-9).contains(Polygon(circle))


def test_the_catalogue_counts_every_distinct_base_traced_hulls_included() -> None:
    cat = base_catalogue()
    names = [e["name"] for e in cat]
    assert len(names) == len(set(names))
    assert {"32mm", "40mm", "oval 170x109mm", "Falcon hull", "Rhino hull (stand-in)"} <= \
        set(names)
    by = {e["name"]: e for e in cat}
    assert by["Falcon hull"]["units"] == 1 and by["Falcon hull"]["sources"] == {"traced": 1}
    assert by["oval 120x92mm"]["sources"].get("draft", 0) > 0
    assert set(by["oval 170x109mm"]["sources"]) == {"data", "fallback"}  # TITANIC stand-ins
    # every unit of the data is counted at least once
    assert sum(e["units"] for e in cat) >= len(dataset.raw()["units"])
    assert [e["units"] for e in cat] == sorted((e["units"] for e in cat), reverse=True)


def test_a_list_without_model_lines_gets_its_points_tier(board: GameState,
                                                         tmp_path: Path) -> None:
    path = _write(tmp_path, "nr.txt", NEWRECRUIT_SIMPLE_NO_MODEL_LINES)
    placed = armies(board, [path])
    units = {u.name: u for u in placed.state.units if isinstance(u, Unit)}
    assert len(units["Intercessor Squad"].models) == 10  # 150 pts: the tier of 6 to 10
    assert len(units["Hellblaster Squad"].models) >= 5
    assert sum("fewer than its datasheet allows" in line for line in placed.lines) == 2
    assert_legal_set_up(placed.state)


def test_an_attached_leader_stands_beside_its_bodyguard(board: GameState,
                                                        tmp_path: Path) -> None:
    placed = armies(board, [_write(tmp_path, "lf.txt", LISTFORGE_TEXT)])
    state = placed.state
    units = [u for u in state.units if isinstance(u, Unit)]
    lieutenant = next(u for u in units if u.name == "Lieutenant")
    squads = [u for u in units if u.name == "Intercessor Squad"]
    def gap(a: Model, b: Model) -> float:
        assert a.at is not None and b.at is not None
        return footprint_distance(a.base, a.at, a.facing, b.base, b.at, b.facing)

    lt = lieutenant.models[0]
    assert min(gap(lt, m) for m in squads[0].models) <= 2.0
    others = [m for u in units if u not in (lieutenant, squads[0]) for m in u.models]
    assert min(gap(lt, m) for m in others) >= 1.0 - 1e-9
    assert_legal_set_up(state)


def test_an_army_that_does_not_fit_names_the_unit_and_why(board: GameState) -> None:
    def squad(i: int) -> Unit:
        return Unit(id=f"red-horde-{i}", player="red", keywords=("INFANTRY",), M=6, W=1,
                    Ld=7, OC=2, name="Horde",
                    models=tuple(Model(id=f"red-horde-{i}-{k}", base=base_of(
                        {"shape": "round", "diameter": 60}).footprint) for k in range(20)))
    with pytest.raises(UserError) as err:
        set_up(board, "red", [Group(squad(i)) for i in range(12)], who="--roster horde.txt")
    (line,) = err.value.lines
    assert line.startswith("--roster horde.txt: Horde (20 models on 60mm) does not fit in "
                           "player red's deployment zone: no room for its models in coherency")
    assert "units set up before it" in line
    huge = Unit(id="red-huge", player="red", keywords=("VEHICLE",), M=6, W=1, Ld=7, OC=2,
                models=(Model(id="red-huge-1", base=base_of(
                    {"shape": "round", "diameter": 2000}).footprint),), name="Huge")
    with pytest.raises(UserError) as err:
        set_up(board, "red", [Group(huge)])
    assert "its base (2000mm) fits nowhere wholly within the zone" in err.value.lines[0]


def test_a_tight_zone_takes_the_largest_bases_first_and_the_army_faces_square(
        tmp_path: Path) -> None:
    """King of the Colosseum's 9"-deep zone, an arena wall through it: in the list's order the
    Rhino found no room left after the Outriders and the Redemptor (before the retry); set up
    again with the largest bases first, all five units fit, listed in the list's order.
    Tipping Point's stepped zones face square to the long edges (their middles lie 7 degrees
    off the line to the battlefield's middle)."""
    path = _write(tmp_path, "gw.txt", GW_APP)
    kotc = battlefields.layout_state("kotc-colosseum")
    placed = armies(kotc, [path])
    assert [u.name for u in placed.state.units] == ["Captain", "Intercessor Squad",
                                                    "Outrider Squad", "Redemptor Dreadnought",
                                                    "Rhino"]
    assert_legal_set_up(placed.state)
    tipping = armies(battlefields.layout_state(LAYOUT), [path], opponent="mirror")
    assert "facing 270 degrees" in tipping.lines[0]
    blue = [line for line in tipping.lines if line.startswith("blue:")]
    assert "facing 90 degrees" in blue[0]
    assert {m.facing for u in tipping.state.units for m in u.models if u.player == "red"
            if isinstance(u, Unit)} <= {270.0, 0.0}


def test_an_army_that_fits_only_closer_than_an_inch_is_set_up_so(board: GameState,
                                                                  tmp_path: Path) -> None:
    """14 Knights do not fit Take vs Take 01's zone 1" apart (12 did); the units may then stand
    as close as the models of one unit, and all 14 are set up, legally."""
    placed = armies(board, [_write(tmp_path, "knights.txt", KNIGHTS_14)])
    knights = [u for u in placed.state.units if isinstance(u, Unit)]
    assert len(knights) == 14 and {u.models[0].base.spec for u in knights} == {
        "oval 170x109mm"}
    assert_legal_set_up(placed.state)
    gaps = [footprint_distance(a.base, a.at, a.facing, b.base, b.at, b.facing)
            for i, ua in enumerate(knights) for ub in knights[i + 1:]
            for a in ua.models for b in ub.models]
    assert min(gaps) < 1.0


def test_new_with_two_rosters_writes_a_scenario_that_checks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    red = _write(tmp_path, "red.txt", GW_APP)
    blue = _write(tmp_path, "blue.txt", LISTFORGE_TEXT)
    out = tmp_path / "battle.toml"
    assert main(["new", "--layout", "bm-disrupt-vs-recon-02", "--roster", str(red),
                 "--roster", str(blue), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "red: Strike Test (gw, 5 units" in said and "blue: Strike Test (listforge-text" in said
    assert main(["check", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"{out}: ok"
    assert_legal_set_up(load_scenario(out))


def test_battlescribes_own_files_become_legal_scenarios(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """BattleScribe's roster (.ros, XML) and the same zipped (.rosz): read as the JSON tree a
    NewRecruit export of it would be, each unit with its model lines, written and checked."""
    ros = _write(tmp_path, "strike.ros", BATTLESCRIBE_ROS)
    rosz = tmp_path / "strike.rosz"
    rosz.write_bytes(battlescribe_rosz())
    for path in (ros, rosz):
        army = read_army(path)
        assert army.format == "battlescribe" and army.name == "Strike Test"
        rows = {g[0]["name"]: [r["name"] for r in g[0]["models"]] for g in army.groups}
        assert rows == {"Captain": ["Captain"],
                        "Intercessor Squad": ["Intercessor Sergeant", *["Intercessor"] * 4],
                        "Redemptor Dreadnought": ["Redemptor Dreadnought"], "Rhino": ["Rhino"]}
    out = tmp_path / "battle.toml"
    assert main(["new", "--layout", LAYOUT, "--roster", str(rosz), "--roster", str(ros),
                 "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert "red: Strike Test (battlescribe, 4 units" in said
    assert main(["check", str(out)]) == 0
    assert capsys.readouterr().out.strip() == f"{out}: ok"
    assert_legal_set_up(load_scenario(out))


@pytest.mark.parametrize(("data", "says"), [
    (b"PK\x03\x04 not really a zip", "a damaged zip"),
    (battlescribe_rosz(BATTLESCRIBE_ROS[:400]) if HAVE_WH40KDC else b"",
     "not well-formed XML"),
    (b'<?xml version="1.0"?><!DOCTYPE roster [<!ENTITY a "aaaa">]><roster>&a;</roster>',
     "document type declaration"),
    (b"<roster>" + b"<selections>" * 70 + b"</selections>" * 70 + b"</roster>",
     "elements deep"),
    (b"<catalogue><roster/></catalogue>", "is <catalogue>, not a BattleScribe <roster>"),
])
def test_a_bad_battlescribe_file_is_one_line(data: bytes, says: str, tmp_path: Path) -> None:
    path = tmp_path / "bad.rosz"
    path.write_bytes(data)
    with pytest.raises(UserError) as err:
        read_army(path)
    (line,) = err.value.lines
    assert line.startswith(f"--roster {path}: ") and says in line, line


def test_a_zipped_roster_is_read_no_further_than_its_limit(tmp_path: Path) -> None:
    """A .rosz whose member unzips past the limit (a zip bomb) is refused without reading
    it all."""
    path = tmp_path / "bomb.rosz"
    path.write_bytes(battlescribe_rosz(" " * 50_000_000, "bomb.ros"))
    assert path.stat().st_size < 100_000
    with pytest.raises(UserError, match="unzips to more than 2,000,000 bytes"):
        read_army(path)


def test_a_share_link_is_a_list_in_itself(board: GameState) -> None:
    link = every_format()["listforge"]
    placed = armies(board, [link])
    assert [u.name for u in placed.state.units] == ["Captain", "Intercessor Squad",
                                                    "Redemptor Dreadnought", "Rhino"]
    assert placed.lines[0].startswith("red: Strike Test (listforge, 4 units")
    assert_legal_set_up(placed.state)


@pytest.mark.parametrize(("args", "says"), [
    (["--roster", "missing.txt"], "--roster missing.txt: no such file"),
    (["--roster", "{bad}"], "not an army list wh40kdc"),
    (["--roster", "{unknown}"], 'unit "Glorbs of Doom" is not in wh40kdc'),
    (["--roster", "{ok}", "--roster", "{ok}", "--roster", "{ok}"], "at most two army lists"),
    (["--roster", "{ok}", "--roster", "{ok}", "--opponent", "mirror"], "--opponent: chooses"),
])
def test_bad_lists_are_one_line_and_write_nothing(args: list[str], says: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    files = {"bad": _write(tmp_path, "bad.txt", "hello there\nthis is not a list\n"),
             "unknown": _write(tmp_path, "unknown.txt",
                               GW_APP.replace("Redemptor Dreadnought", "Glorbs of Doom")),
             "ok": _write(tmp_path, "ok.txt", GW_APP)}
    args = [a.format(**{k: str(v) for k, v in files.items()}) for a in args]
    out = tmp_path / "x.toml"
    assert main(["new", "--layout", LAYOUT, *args, "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert says in err and err.count("\n") == 1 and "Traceback" not in err
    assert not out.exists()

"""`tabletop new`: armies from the 40kdc units file, deployed legally on imported layouts."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.importers.kdc import load_data
from tabletop.importers.kdc_units import (
    ArmyEntry,
    deploy,
    model_profiles,
    new_battle,
    parse_army,
    read_units,
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
from tabletop.state import GameState, Unit

from support.paths import KDC_DATA

DATA = KDC_DATA
LAYOUTS = DATA / "terrain-layouts.json"
UNITS = DATA / "units_11e_provisional_all.csv"
needs_data = pytest.mark.skipif(not UNITS.exists(), reason=f"40kdc data not found at {DATA}")

RED = ("Intercessors x10, Redemptor Dreadnought, Heavy Intercessor Squad x10, "
       "Outrider Squad x6, Hellblaster Squad x10")
BLUE = "Boyz x20, Meganobz x5, Gretchin x11, Attilan Rough Riders x10, Soul Grinder"


def _one_layout_per_map() -> list[str]:
    if not LAYOUTS.exists():
        return []
    first: dict[str, str] = {}
    for lay in json.loads(LAYOUTS.read_text(encoding="utf-8")):
        first.setdefault(lay["deployment_pattern_id"], lay["id"])
    return sorted(first.values())


@pytest.fixture(scope="module")
def catalogue():  # type: ignore[no-untyped-def]
    if not UNITS.exists():
        pytest.skip(f"40kdc data not found at {DATA}")
    return read_units(UNITS)


def _assert_legal(state: GameState) -> None:
    assert check_state(state) == []
    for u in state.units:
        assert isinstance(u, Unit)
        problems = (coherency_violations(u) + overlap_violations(state, u)
                    + terrain_violations(state, u) + edge_violations(state, u)
                    + engagement_violations(state, u))
        assert problems == [], [v.message for v in problems]
        zone = state.player(u.player).zone_polygon
        assert zone is not None
        for m in u.models:
            assert zone.contains(m.footprint), f"{m.id} is not wholly inside its zone"


@pytest.mark.slow
@needs_data
@pytest.mark.parametrize("layout_id", _one_layout_per_map())
def test_new_battle_is_legal_on_every_map(catalogue, layout_id: str) -> None:  # type: ignore[no-untyped-def]
    state = new_battle(load_data(LAYOUTS, layout_id).state(), catalogue,
                       [("red", RED), ("blue", BLUE)])
    _assert_legal(state)
    assert [len(u.models) for u in state.units if u.player == "red"] == [10, 1, 10, 6, 10]
    assert [len(u.models) for u in state.units if u.player == "blue"] == [20, 5, 11, 10, 1]


@needs_data
def test_profiles_bases_and_keywords_come_from_the_file(catalogue) -> None:  # type: ignore[no-untyped-def]
    state = new_battle(load_data(LAYOUTS, "take-and-hold-mirror-2").state(), catalogue,
                       [("red", "Intercessors x5, Redemptor Dreadnought, Outrider Squad"),
                        ("blue", "Gretchin")])
    units = {u.name: u for u in state.units if isinstance(u, Unit)}
    rows = {(r["unit_name"], r["profile_name"]): r
            for r in csv.DictReader(UNITS.read_text(encoding="utf-8").splitlines())}
    intercessors = units["Intercessor Squad"]
    row = rows[("Intercessor Squad", "Intercessor")]
    assert (intercessors.M, intercessors.W, intercessors.Ld, intercessors.OC) == \
        (float(row["M"]), int(row["W"]), int(row["Ld"]), int(row["OC"]))
    assert intercessors.keywords == ("INFANTRY", "BATTLELINE")
    assert {m.base.spec for m in intercessors.models} == {"32mm"}
    assert units["Redemptor Dreadnought"].models[0].base.spec == "90mm"
    assert units["Redemptor Dreadnought"].keywords == ("VEHICLE", "WALKER")
    outriders = units["Outrider Squad"]
    assert len(outriders.models) == 3  # the minimum
    assert {m.base.spec for m in outriders.models} == {"oval 90x52.5mm"}
    assert outriders.W == 4  # the Outrider, not the Invader ATV (W 8)
    gretchin = units["Gretchin"]
    assert len(gretchin.models) == 11 and gretchin.W == 1 and gretchin.Ld == 8
    entry = catalogue.find("Gretchin")
    assert [p.name for p in model_profiles(entry, 11)] == ["Runtherd"] + ["Gretchin"] * 10
    _assert_legal(state)


@needs_data
def test_names_match_loosely_and_by_faction(catalogue) -> None:  # type: ignore[no-untyped-def]
    assert catalogue.find("intercessors").name == "Intercessor Squad"
    assert catalogue.find("INTERCESSOR-SQUAD").unit_id == "intercessor-squad"
    assert catalogue.find("adeptus-astartes/Terminator Squad").faction == "adeptus-astartes"
    with pytest.raises(UserError, match=r'no unit "Intercesor Squadd"; did you mean: '
                       r".*Intercessor Squad"):
        catalogue.find("Intercesor Squadd")
    with pytest.raises(UserError, match='no faction "elves"'):
        catalogue.find("elves/Archers")


def test_parse_army() -> None:
    assert parse_army("Intercessors x10, Redemptor Dreadnought") == [
        ArmyEntry("Intercessors", 10), ArmyEntry("Redemptor Dreadnought", None)]
    assert parse_army("10x Boyz, 5 Meganobz,Gretchin ×11") == [
        ArmyEntry("Boyz", 10), ArmyEntry("Meganobz", 5), ArmyEntry("Gretchin", 11)]
    with pytest.raises(UserError, match="empty army"):
        parse_army("  ")
    with pytest.raises(UserError, match="two commas in a row"):
        parse_army("Boyz,,Gretchin")
    with pytest.raises(UserError, match="at least 1 model"):
        parse_army("Boyz x0")


@needs_data
def test_bad_armies_say_what_is_wrong(catalogue) -> None:  # type: ignore[no-untyped-def]
    state = load_data(LAYOUTS, "take-and-hold-mirror-1").state()
    with pytest.raises(UserError) as exc:
        new_battle(state, catalogue, [("red", "Land Raider, Intercessors x30"),
                                      ("blue", "Boyzz")])
    lines = exc.value.lines
    assert any('"Land Raider" has no base size' in ln and "base_shape: hull" in ln
               for ln in lines)
    assert any('"Intercessor Squad" has 5 to 10 models' in ln and "not 30" in ln
               for ln in lines)
    assert any(ln.startswith("--blue:") and 'no unit "Boyzz"; did you mean: ' in ln
               and "Boyz" in ln for ln in lines)
    with pytest.raises(UserError, match=r"--red: the army does not fit in player red's "
                       r'deployment zone: no room for "Ares Gunship"'):
        new_battle(state, catalogue, [("red", ", ".join(["Ares Gunship"] * 30))])
    bare = load_data(None, None).state()
    with pytest.raises(UserError, match="player red has no deployment zone"):
        deploy(bare, "red", [ArmyEntry("Boyz", None)], catalogue)


@needs_data
def test_cli_new_writes_a_valid_battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                       ) -> None:
    out = tmp_path / "battle.toml"
    rc = main(["new", "--units", str(UNITS), "--layout", "take-and-hold-mirror-1",
               "--red", "Intercessors x10, Redemptor Dreadnought", "--blue", "Boyz x20",
               "-o", str(out)])
    assert rc == 0, capsys.readouterr().err
    state = load_scenario(out)
    _assert_legal(state)
    assert [u.name for u in state.units] == ["Intercessor Squad", "Redemptor Dreadnought", "Boyz"]
    printed = capsys.readouterr().out
    assert "Alpaca Software and the 40kdc community contributors" in printed
    other = tmp_path / "open.json"
    assert main(["new", "--units", str(UNITS), "--deployment", "dawn-of-war",
                 "--blue", "Gretchin", "-o", str(other)]) == 0
    assert load_scenario(other).terrain == ()


@needs_data
def test_cli_new_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "battle.toml"
    base = ["new", "--units", str(UNITS), "-o", str(out)]
    assert main([*base, "--layout", "take-and-hold-mirror-1", "--red", "Land Raider"]) == 2
    assert '"Land Raider" has no base size' in capsys.readouterr().err
    assert main([*base, "--red", "Boyz"]) == 2
    assert "give --layout ID" in capsys.readouterr().err
    assert main([*base, "--layout", "take-and-hold-mirror-1"]) == 2
    assert "give at least one army" in capsys.readouterr().err
    assert main(["new", "--units", str(tmp_path / "none.csv"), "--deployment", "dawn-of-war",
                 "--red", "Boyz", "-o", str(out)]) == 2
    assert "none.csv: no such file" in capsys.readouterr().err
    assert main([*base[:-1], str(tmp_path / "no" / "x.toml"), "--deployment", "dawn-of-war",
                 "--red", "Boyz"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert not out.exists()

"""The spec's examples and the shipped scenarios load unchanged, mean what they say, round-trip."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.geometry.footprints import Hull, Oval, Round, footprint_distance
from tabletop.rulesets.wh40k_11e.checks import coherency_violations, is_engaged
from tabletop.scenario.checks import block_polygon, check_state
from tabletop.scenario.io import (
    dumps_scenario,
    load_scenario,
    loads_scenario,
    save_scenario,
    shipped,
)
from tabletop.scenario.schema import json_schema
from tabletop.state import Block, GameState, Unit

from support.paths import REPO

REPO = REPO
SHIPPED = REPO / "tabletop" / "scenarios"
SPEC_EXAMPLES = REPO / ".." / "shared" / "spec" / "examples"
ALL = sorted(p.name for p in SHIPPED.iterdir() if p.suffix in (".toml", ".json"))


def _unit(state: GameState, uid: str) -> Unit:
    u = state.unit(uid)
    assert isinstance(u, Unit)
    return u


def _block(state: GameState, uid: str) -> Block:
    u = state.unit(uid)
    assert isinstance(u, Block)
    return u


def _min_distance(a: Unit, b: Unit) -> float:
    return min(footprint_distance(m.base, m.at, m.facing, o.base, o.at, o.facing)
               for m in a.models for o in b.models if m.at and o.at)


def test_shipped_copies_are_unchanged() -> None:
    if not SPEC_EXAMPLES.is_dir():
        pytest.skip("../shared/spec/examples is not there (a clone without the shared folder)")
    for spec in SPEC_EXAMPLES.iterdir():
        assert (SHIPPED / spec.name).read_bytes() == spec.read_bytes(), spec.name


def test_scenarios_symlink_points_to_package_data() -> None:
    assert (REPO / "scenarios").resolve() == SHIPPED.resolve()
    assert shipped("demo.toml") == SHIPPED / "demo.toml"


@pytest.mark.parametrize("name", ALL)
def test_loads_and_round_trips(name: str, tmp_path: Path) -> None:
    state = load_scenario(SHIPPED / name)
    assert check_state(state) == []
    for fmt in ("toml", "json"):
        assert loads_scenario(dumps_scenario(state, fmt), fmt=fmt) == state  # type: ignore[arg-type]
        out = tmp_path / f"saved.{fmt}"
        save_scenario(state, out)
        assert load_scenario(out) == state
    # nothing but the two saved files: no temporary file left behind
    assert sorted(p.name for p in tmp_path.iterdir()) == ["saved.json", "saved.toml"]
    # saving twice gives the same text: the output is canonical
    assert dumps_scenario(load_scenario(tmp_path / "saved.toml")) == dumps_scenario(state)


def test_command_phase_means_what_it_says() -> None:
    s = load_scenario(SHIPPED / "command-phase.toml")
    assert (s.battle.round, s.battle.active_player, s.battle.phase) == (3, "red", "command")
    assert (s.player("red").cp, s.player("blue").cp) == (0, 4)
    scouts, guard, bikers = _unit(s, "scouts"), _unit(s, "guard"), _unit(s, "bikers")
    tank, full = _unit(s, "tank"), _unit(s, "full")
    assert scouts.battle_shocked and scouts.strength == 3
    assert (len(guard.models), guard.strength) == (5, 10)  # at half-strength
    assert (len(bikers.models), bikers.strength) == (2, 5)  # below half-strength
    assert tank.strength == 1 and tank.wounds_of(tank.models[0]) == 3 and tank.W == 11
    assert isinstance(tank.models[0].base, Hull)
    assert full.strength == 2 and not full.battle_shocked
    assert isinstance(bikers.models[0].base, Oval) and bikers.models[0].facing == 90.0
    assert isinstance(scouts.models[0].base, Round) and scouts.models[0].base.diameter_mm == 28.5


def test_fall_back_means_what_it_says() -> None:
    s = load_scenario(SHIPPED / "fall-back.toml")
    squad, mob = _unit(s, "squad"), _unit(s, "mob")
    assert _min_distance(squad, mob) <= 2.0  # engaged
    wall = s.terrain[0]
    assert wall.kind == "impassable" and wall.shape.bounds[2] < min(
        m.at[0] for m in squad.models if m.at)  # the wall is to the squad's left
    assert squad.wounds_of(squad.models[4]) == 1 and squad.wounds_of(squad.models[0]) == 2
    assert not squad.battle_shocked
    # The JSON example is the same scenario.
    assert load_scenario(SHIPPED / "fall-back.json") == s


def test_reserves_and_transport_means_what_it_says() -> None:
    s = load_scenario(SHIPPED / "reserves-and-transport.toml")
    passengers, reserves = _unit(s, "passengers"), _unit(s, "reserve-squad")
    assert passengers.location == "embarked" and passengers.transport == "rhino"
    assert _unit(s, "rhino").has("TRANSPORT")
    assert reserves.location == "strategic-reserves"
    assert all(m.at is None for m in passengers.models + reserves.models)
    by_id = {t.id: t for t in s.terrain}
    assert by_id["ruin-north"].kind == "area" and by_id["ruin-north-wall"].kind == "dense"
    assert by_id["ruin-north-wall"].height == 4.0
    gap = by_id["pillar"].shape.distance(by_id["ruin-north-wall"].shape)
    assert math.isclose(gap, 0.5)
    assert len(s.objectives) == 5 and s.objectives[0] == (30.0, 22.0)


def test_top_level_key_after_a_table_is_an_error_with_the_fix() -> None:
    # TOML puts `objectives = [...]` written after the last [[units]] header into that unit.
    text = (SHIPPED / "reserves-and-transport.toml").read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("objectives"))
    moved = text.replace(line + "\n", "") + line + "\n"
    with pytest.raises(UserError) as err:
        loads_scenario(moved, fmt="toml", source="moved.toml")
    assert err.value.lines == [
        'moved.toml: units[5].objectives (unit "walker"): unknown key; "objectives" belongs at '
        'the top level '
        "of the file (in TOML, a key written after a [[units]] header belongs to that table: "
        "move it above the first [[...]] header)"]


def test_t9a_lines_means_what_it_says() -> None:
    s = load_scenario(SHIPPED / "t9a-lines.toml")
    assert s.ruleset == "t9a-2" and s.battlefield.width == 72.0
    spear, archers, knights = _block(s, "spearmen"), _block(s, "archers"), _block(s, "knights")
    warband = _block(s, "warband")
    assert spear.ranks == 5 and warband.ranks == 4
    assert 5.5 < block_polygon(spear).distance(block_polygon(warband)) < 6.5  # "about 6"
    assert archers.fleeing and 4 * archers.models <= archers.start_models
    assert block_polygon(knights).distance(block_polygon(warband)) > 20
    assert [t.kind for t in s.terrain] == ["impassable", "dangerous"]


def test_demo_is_realistic() -> None:
    s = load_scenario(shipped("demo.toml"))
    units = [u for u in s.units if isinstance(u, Unit)]
    models = [m for u in units for m in u.models if m.at is not None]
    assert 90 <= len(models) <= 110
    assert len(s.terrain) == 8 and len(s.objectives) == 5
    kinds = [t.kind for t in s.terrain]
    assert kinds.count("impassable") >= 2 and "light" in kinds and "dense" in kinds
    assert (s.battle.round, s.battle.active_player, s.battle.phase) == (2, "red", "movement")
    assert s.battle.seed is not None
    bases = {m.base.spec for m in models}
    assert {"25mm", "28.5mm", "32mm", "40mm", "hull"} <= bases
    assert any(isinstance(m.base, Oval) for m in models)
    assert any(u.has("MONSTER") and u.models[0].base.spec in ("60mm", "100mm") for u in units)
    # every move type is reachable: reserves, a transport's passengers, an engaged unit
    locations = {u.location for u in units}
    assert {"battlefield", "strategic-reserves", "embarked"} <= locations
    red = [u for u in units if u.player == "red" and u.location == "battlefield"]
    assert any(is_engaged(s, u) for u in red)
    # a legal position: every unit on the battlefield in coherency (the rules' own check, so the
    # end of the turn removes nothing), no base on a terrain feature
    for u in units:
        if u.location == "battlefield":
            assert coherency_violations(u) == [], u.id
    features = [t for t in s.terrain if t.kind != "area"]
    for m in models:
        assert all(not m.footprint.intersects(t.shape) for t in features), m.id


def test_check_command_passes_on_every_shipped_scenario(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    files = [str(SHIPPED / n) for n in ALL]
    assert main(["check", *files]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [f"{f}: ok" for f in files]


def test_schema_command_prints_the_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema == json_schema()
    assert schema["discriminator"]["propertyName"] == "ruleset"
    defs = schema["$defs"]
    assert {"Wh40kScenario", "T9aScenario", "Wh40kUnit", "T9aUnit"} <= set(defs)
    assert defs["Wh40kUnit"]["additionalProperties"] is False
    assert "selection" in defs["BattleModel"]["properties"]

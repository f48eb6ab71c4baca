"""Property: any valid scenario state saved as TOML or JSON loads back to an identical state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop import rulesets
from tabletop.geometry.footprints import Hull, Oval, Rect, Round
from tabletop.scenario.checks import check_state
from tabletop.scenario.io import dumps_scenario, load_scenario, loads_scenario, save_scenario
from tabletop.state import (
    Battle,
    Battlefield,
    Block,
    GameState,
    Model,
    Player,
    Selection,
    Terrain,
    Unit,
)

INT64 = 2**63 - 1
finite = st.floats(-1e6, 1e6)  # schema: numbers are at most 1e6 in size
coord = finite
positive = st.floats(min_value=0.0, max_value=1e6, exclude_min=True)
non_negative = st.floats(min_value=0.0, max_value=1e6)
base_mm = st.floats(min_value=0.0, max_value=1e4, exclude_min=True)
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
ident = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=6)
point = st.tuples(coord, coord)
polygon = st.lists(point, min_size=3, max_size=6).map(tuple)
small_int = st.integers(0, 20)


def opt(s: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), s)


bases = st.one_of(st.builds(Round, base_mm), st.builds(Oval, base_mm, base_mm),
                  st.builds(Rect, base_mm, base_mm), polygon.map(Hull))

models = st.builds(Model, id=ident, base=bases, at=opt(point), facing=finite,
                   wounds=opt(st.integers(1, INT64)), M=opt(non_negative))

wh40k_units = st.builds(
    Unit, id=ident, player=ident, keywords=st.lists(text, max_size=3).map(tuple),
    M=non_negative, W=st.integers(1, INT64), Ld=st.integers(-INT64 - 1, INT64),
    OC=st.integers(0, INT64), models=st.lists(models, min_size=1, max_size=4).map(tuple),
    name=opt(text), starting_strength=opt(st.integers(1, INT64)), battle_shocked=st.booleans(),
    location=st.sampled_from(["battlefield", "strategic-reserves", "embarked"]),
    transport=opt(ident), flags=st.lists(text, max_size=2).map(tuple))

blocks = st.builds(
    Block, id=ident, player=ident, Adv=non_negative, Mar=non_negative,
    Dis=st.integers(-INT64 - 1, INT64), base=st.builds(Rect, base_mm, base_mm),
    models=st.integers(1, 3000), files=st.integers(1, INT64), at=point, facing=finite,
    name=opt(text), starting_models=opt(st.integers(1, INT64)), fleeing=st.booleans(),
    flags=st.lists(text, max_size=2).map(tuple))

json_point = point.map(list)
actions = st.one_of(
    st.builds(lambda m, p, f: {"do": "move", "model": m, "path": p, **f}, ident,
              st.lists(json_point, min_size=1, max_size=3),
              st.one_of(st.just({}), finite.map(lambda f: {"facing": f}))),
    st.builds(lambda m, p: {"do": "place", "model": m, "at": p}, ident, json_point),
    st.builds(lambda d, x: {"do": d, "distance": x},
              st.sampled_from(["forward", "backward", "sideways"]), finite),
    st.builds(lambda a: {"do": "wheel", "angle": a}, finite),
    st.builds(lambda n, f: {"do": "reform", "files": n, "facing": f},
              st.integers(1, INT64), finite),
)
selections = st.builds(
    Selection, unit=ident, move=text, mode=opt(text), roll=opt(st.integers(-INT64 - 1, INT64)),
    start=st.lists(st.tuples(ident, opt(point), finite), max_size=3).map(tuple),
    staged=st.lists(actions, max_size=3).map(tuple), files=opt(st.integers(1, INT64)))

battles = st.builds(Battle, round=st.integers(1, INT64), active_player=ident,
                    phase=st.sampled_from(["command", "movement"]),
                    seed=opt(st.integers(0, INT64)), step=opt(text),
                    dice_used=st.integers(0, INT64), selection=opt(selections))
players = st.builds(Player, id=ident, name=opt(text), cp=st.integers(0, INT64),
                    deployment_zone=opt(polygon))


@st.composite
def states(draw: st.DrawFn) -> GameState:
    ruleset = draw(st.sampled_from(["wh40k-11e", "t9a-2"]))
    terrain = draw(st.lists(st.builds(Terrain, id=ident,
                                      kind=st.sampled_from(rulesets.get(ruleset).terrain_kinds),
                                      polygon=polygon, height=non_negative), max_size=3))
    units = draw(st.lists(wh40k_units if ruleset == "wh40k-11e" else blocks, max_size=3))
    return GameState(
        name=draw(text), ruleset=ruleset, battle=draw(battles),
        players=(draw(players), draw(players)),
        battlefield=Battlefield(draw(positive), draw(positive)),
        terrain=tuple(terrain), objectives=tuple(draw(st.lists(point, max_size=3))),
        units=tuple(units), description=draw(opt(text)))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states())
def test_round_trip_through_toml_and_json(state: GameState) -> None:
    for fmt in ("toml", "json"):
        text_ = dumps_scenario(state, fmt)  # type: ignore[arg-type]
        assert loads_scenario(text_, fmt=fmt, check=False) == state  # type: ignore[arg-type]
    # the checks never crash, whatever the state, and see the same problems after loading
    back = loads_scenario(dumps_scenario(state), check=False)
    assert check_state(back) == check_state(state)


@settings(max_examples=25, deadline=None)
@given(states())
def test_save_scenario_writes_exactly_one_file(tmp_path_factory: Any, state: GameState) -> None:
    folder: Path = tmp_path_factory.mktemp("save")
    for name in ("s.toml", "s.json"):
        save_scenario(state, folder / name)
        assert load_scenario(folder / name, check=False) == state
    assert sorted(p.name for p in folder.iterdir()) == ["s.json", "s.toml"]

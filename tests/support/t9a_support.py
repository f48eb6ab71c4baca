"""Helpers for the t9a-2 tests: build states by hand or from the example scenario."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tabletop.geometry.footprints import parse_base
from tabletop.rulesets.t9a_2 import RULESET
from tabletop.rulesets.t9a_2 import movement as t9a
from tabletop.state import Battle, Battlefield, Block, GameState, Player, Terrain

from support.paths import SHARED

SHARED = SHARED
EXAMPLE = SHARED / "spec" / "examples" / "t9a-lines.toml"


def block(uid: str, player: str = "blue", *, at: tuple[float, float] = (30.0, 30.0),
          facing: float = 0.0, models: int = 5, files: int = 5, base: str = "rect 20x20mm",
          Adv: float = 5, Mar: float = 10, Dis: int = 7, **kw: Any) -> Block:
    return Block(id=uid, player=player, Adv=Adv, Mar=Mar, Dis=Dis, base=parse_base(base),
                 models=models, files=files, at=at, facing=facing, **kw)


def state(*units: Block, terrain: Sequence[Terrain] = (), step: str | None = "move-units",
          phase: str = "movement", seed: int = 1, size: tuple[float, float] = (72.0, 48.0),
          active: str = "blue") -> GameState:
    return GameState(name="t", ruleset="t9a-2",
                     battle=Battle(round=2, active_player=active, phase=phase, seed=seed,
                                   step=step),
                     players=(Player("red"), Player("blue")),
                     battlefield=Battlefield(*size), terrain=tuple(terrain), units=units)


def load_example() -> GameState:
    """The example scenario through the scenario loader."""
    from tabletop.scenario.io import load_scenario
    return load_scenario(EXAMPLE)


def act(st: GameState, action: dict[str, Any]) -> tuple[GameState, bool, list[str],
                                                        list[dict[str, Any]]]:
    """Apply one action (forced dice included) with the t9a-2 rules, as the registry does."""
    if action.get("do") == "next":
        res = RULESET.apply(st, action)
    else:
        res = t9a.act(st, action)
    return res.state, res.ok, list(res.reasons), list(res.events)


def run(st: GameState, actions: Sequence[dict[str, Any]]) -> tuple[GameState, list[Any]]:
    """Apply actions in order; a refused action leaves the state as the rules returned it."""
    results = []
    for a in actions:
        st, ok, reasons, events = act(st, a)
        results.append((ok, reasons, events))
    return st, results

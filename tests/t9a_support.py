"""Helpers for the t9a-2 tests: build states by hand or from the example scenario."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tabletop.geometry.footprints import parse_base
from tabletop.rules.dice import Dice
from tabletop.rulesets import t9a
from tabletop.state import T9A, Battle, Battlefield, Block, GameState, Player, Terrain

SHARED = Path(__file__).resolve().parents[1] / ".." / "shared"
EXAMPLE = SHARED / "spec" / "examples" / "t9a-lines.toml"


def block(uid: str, player: str = "blue", *, at: tuple[float, float] = (30.0, 30.0),
          facing: float = 0.0, models: int = 5, files: int = 5, base: str = "rect 20x20mm",
          Adv: float = 5, Mar: float = 10, Dis: int = 7, **kw: Any) -> Block:
    return Block(id=uid, player=player, Adv=Adv, Mar=Mar, Dis=Dis, base=parse_base(base),
                 models=models, files=files, at=at, facing=facing, **kw)


def state(*units: Block, terrain: Sequence[Terrain] = (), step: str | None = "move-units",
          phase: str = "movement", seed: int = 1, size: tuple[float, float] = (72.0, 48.0),
          active: str = "blue") -> GameState:
    return GameState(name="t", ruleset=T9A,
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
    """Apply one action with its forced dice, as the dispatcher does."""
    return t9a.apply_action(st, action, dice=Dice(st, action.get("dice")))


def run(st: GameState, actions: Sequence[dict[str, Any]]) -> tuple[GameState, list[Any]]:
    """Apply actions in order; a refused action leaves the state as the rules returned it."""
    results = []
    for a in actions:
        st, ok, reasons, events = act(st, a)
        results.append((ok, reasons, events))
    return st, results

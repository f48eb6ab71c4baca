"""Building small wh40k-11e states for the rules tests (through the real scenario loader)."""

from __future__ import annotations

import json
from typing import Any

from tabletop.rules.result import ActionResult
from tabletop.rulesets import apply_action
from tabletop.scenario.io import loads_scenario
from tabletop.state import GameState, Unit


def unit(uid: str, player: str, positions: list[tuple[float, float] | None], *,
         base: str = "32mm", M: float = 6, W: int = 1, Ld: int = 7,
         keywords: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    """A unit table; ``positions`` None entries make models off the battlefield."""
    models = []
    for i, p in enumerate(positions):
        m: dict[str, Any] = {"id": f"{uid}{i + 1}", "base": base}
        if p is not None:
            m["at"] = [float(p[0]), float(p[1])]
        models.append(m)
    d: dict[str, Any] = {"id": uid, "player": player, "keywords": keywords or ["INFANTRY"],
                         "M": M, "W": W, "Ld": Ld, "OC": 1, "models": models}
    d.update(kw)
    return d


def scenario(units: list[dict[str, Any]], *, round: int = 2, phase: str = "movement",
             step: str | None = "move-units", seed: int = 1, terrain: list[Any] | None = None,
             zones: bool = False, cp: tuple[int, int] = (0, 0)) -> GameState:
    """A wh40k-11e state with players red (active) and blue."""
    players: list[dict[str, Any]] = [{"id": "red", "cp": cp[0]}, {"id": "blue", "cp": cp[1]}]
    if zones:
        players[0]["deployment_zone"] = [[0, 0], [60, 0], [60, 12], [0, 12]]
        players[1]["deployment_zone"] = [[0, 32], [60, 32], [60, 44], [0, 44]]
    battle: dict[str, Any] = {"round": round, "active_player": "red", "phase": phase,
                              "seed": seed}
    if step is not None:
        battle["step"] = step
    doc = {"format": 1, "name": "test", "ruleset": "wh40k-11e", "battle": battle,
           "players": players, "terrain": terrain or [], "units": units}
    return loads_scenario(json.dumps(doc), fmt="json")


def act(state: GameState, **action: Any) -> ActionResult:
    """Apply one action given as keyword arguments (``do=...``)."""
    return apply_action(state, action)


def ok(state: GameState, **action: Any) -> GameState:
    """Apply an action that must be accepted; return the new state."""
    res = apply_action(state, action)
    assert res.ok, res.reasons
    return res.state


def get(state: GameState, uid: str) -> Unit:
    """The wh40k unit ``uid``."""
    u = state.unit(uid)
    assert isinstance(u, Unit)
    return u


def kinds(res: ActionResult, kind: str) -> list[dict[str, Any]]:
    """The events of ``kind``."""
    return [e for e in res.events if e["kind"] == kind]

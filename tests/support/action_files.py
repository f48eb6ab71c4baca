"""Playing a scenario with an action file through ``tabletop apply``, as a user does."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import tomli_w

from tabletop.cli import main

from support.rules_helpers import unit as squad

__all__ = ["block", "events", "play", "squad", "t9a", "wh40k"]


def play(tmp_path: Path, scenario: dict[str, Any], actions: list[dict[str, Any]],
         *extra: str) -> dict[str, Any]:
    """Write ``scenario`` (TOML) and ``actions`` (JSON), run ``tabletop apply``, return its
    output; the exit code must be 0."""
    sc = tmp_path / "scenario.toml"
    sc.write_text(tomli_w.dumps(scenario), encoding="utf-8")
    acts = tmp_path / "actions.json"
    acts.write_text(json.dumps(actions), encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["apply", str(sc), str(acts), *extra]) == 0
    result: dict[str, Any] = json.loads(out.getvalue())
    assert len(result["results"]) == len(actions)
    return result


def events(result: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    """The events of ``kind`` of one action's result."""
    return [e for e in result["events"] if e["kind"] == kind]


def wh40k(units: list[dict[str, Any]], *, step: str = "move-units", round: int = 2,
          phase: str = "movement", terrain: list[dict[str, Any]] | None = None,
          seed: int = 1, **extra: Any) -> dict[str, Any]:
    """A wh40k-11e scenario with players red (active) and blue on a 60" x 44" battlefield."""
    return {"format": 1, "name": "regression", "ruleset": "wh40k-11e",
            "battle": {"round": round, "active_player": "red", "phase": phase, "seed": seed,
                       "step": step},
            "players": [{"id": "red", "cp": 2}, {"id": "blue", "cp": 2}],
            "terrain": terrain or [], "units": units, **extra}


def t9a(units: list[dict[str, Any]], *, step: str = "move-units",
        terrain: list[dict[str, Any]] | None = None, seed: int = 1) -> dict[str, Any]:
    """A t9a-2 scenario, blue active, on a 72" x 48" battlefield."""
    return {"format": 1, "name": "regression", "ruleset": "t9a-2",
            "battlefield": {"width": 72.0, "depth": 48.0},
            "battle": {"round": 2, "active_player": "blue", "phase": "movement", "seed": seed,
                       "step": step},
            "players": [{"id": "red"}, {"id": "blue"}], "terrain": terrain or [], "units": units}


def block(uid: str, player: str = "blue", *, at: tuple[float, float] = (30.0, 30.0),
          facing: float = 0.0, models: int = 5, files: int = 5, Adv: float = 5,
          Mar: float = 10, Dis: int = 7, **kw: Any) -> dict[str, Any]:
    """A t9a-2 unit table on 20 x 20 mm bases."""
    return {"id": uid, "player": player, "Adv": Adv, "Mar": Mar, "Dis": Dis,
            "base": "rect 20x20mm", "models": models, "files": files, "at": list(at),
            "facing": facing, **kw}


def load_doc(doc: dict[str, Any]) -> Any:
    """The game state of a scenario document (as the JSON scenario format reads it)."""
    from tabletop.scenario.io import loads_scenario

    return loads_scenario(json.dumps(doc), fmt="json")

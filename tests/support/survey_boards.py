"""Hand-made survey boards: scenario texts, jobs, round bases and a tiny 40kdc data set.

Boards are small (tens of inches, a few pieces) so that a reach job on them takes well under a
second.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tabletop.geometry.footprints import parse_base
from tabletop.survey.jobs import entry


def board_text(width: float, depth: float, terrain: list[tuple[str, str, list[tuple]]],
               zones: dict[str, list[tuple]], objectives: list[tuple], *,
               name: str = "survey test") -> str:
    """A scenario (TOML) with terrain, deployment zones and objectives, no units."""
    first = next(iter(zones), "red")
    lines = ['format = 1', f'name = "{name}"', 'ruleset = "wh40k-11e"',
             f"objectives = {json.dumps([list(o) for o in objectives])}",
             "[battlefield]", f"width = {width}", f"depth = {depth}",
             "[battle]", "round = 1", f'active_player = "{first}"', 'phase = "movement"']
    for pid, zone in zones.items():
        lines += ["[[players]]", f'id = "{pid}"',
                  f"deployment_zone = {json.dumps([list(p) for p in zone])}"]
    for tid, kind, poly in terrain:
        lines += ["[[terrain]]", f'id = "{tid}"', f'kind = "{kind}"', "height = 5.0",
                  f"polygon = {json.dumps([list(p) for p in poly])}"]
    return "\n".join(lines) + "\n"


def job(text: str, base: dict[str, Any], measure: str, side: str | None = None,
        **params: Any) -> dict[str, Any]:
    """A job of ``measure`` on the board ``text``."""
    return {"id": f"t-{measure}", "board": "t__t", "layout": "t", "deployment": "t",
            "scenario": text, "base": base, "measure": measure, "side": side,
            "params": params}


def round_base(d_mm: float, keywords: tuple[str, ...] = ("INFANTRY",)) -> dict[str, Any]:
    """A catalogue entry of a round base ``d_mm`` across."""
    spec = f"{d_mm:g}mm"
    return entry(spec, spec, parse_base(spec), 0, keywords)


def rect(x0: float, y0: float, x1: float, y1: float) -> list[tuple[float, float]]:
    return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]


def fake_data(folder: Path, layout_ids: list[str],
              own: dict[str, str | None] | None = None) -> Path:
    """A layouts file of hand-made layouts (one 4" dense block in the middle, keystones on
    its first vertex), the template, and two deployment maps: ``dep`` (zones along the top
    and bottom edges) and ``other`` (along the left and right edges). ``own``: each layout's
    own map (default ``dep``; ``None``: none named)."""
    own = own or {}
    templates = [{"id": "block", "name": "Block", "kind": "feature",
                  "terrain_category": "dense", "height_inches": 4,
                  "footprint": {"type": "rectangle", "width": 4, "height": 4}}]
    layouts = []
    for i, lid in enumerate(layout_ids):
        lay: dict[str, Any] = {
            "id": lid, "name": f"Layout {i}", "mission_matchup_id": "take-vs-take",
            "pieces": [{"id": "b1", "template": "block", "position": {"x": 30, "y": 22},
                        "keystones": [{"edge": "left", "ref": {"kind": "vertex", "index": 0}},
                                      {"edge": "top", "ref": {"kind": "vertex", "index": 0}}]}]}
        mine = own.get(lid, "dep")
        if mine is not None:
            lay["deployment_pattern_id"] = mine
        layouts.append(lay)
    objectives = [{"x": x, "y": y} for x, y in [(30, 5), (10, 22), (30, 22), (50, 22), (30, 39)]]

    def zone(side: str, x: float, y: float, w: float, h: float) -> dict[str, Any]:
        return {"player": side, "position": {"x": x, "y": y},
                "shape": {"type": "rectangle", "width": w, "height": h}}

    deps = [{"id": "dep", "name": "Dep", "objectives": objectives,
             "zones": [zone("attacker", 0, 0, 60, 10), zone("defender", 0, 34, 60, 10)]},
            {"id": "other", "name": "Other", "objectives": objectives,
             "zones": [zone("attacker", 0, 0, 12, 44), zone("defender", 48, 0, 12, 44)]}]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "terrain-layouts.json").write_text(json.dumps(layouts))
    (folder / "terrain-templates.json").write_text(json.dumps(templates))
    (folder / "deployment-patterns.json").write_text(json.dumps(deps))
    return folder / "terrain-layouts.json"

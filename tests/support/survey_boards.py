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
    lines = ['format = 1', f"name = {json.dumps(name)}", 'ruleset = "wh40k-11e"',
             f"objectives = {json.dumps([list(o) for o in objectives])}",
             "[battlefield]", f"width = {width}", f"depth = {depth}",
             "[battle]", "round = 1", f'active_player = "{first}"', 'phase = "movement"']
    for pid, zone in zones.items():
        lines += ["[[players]]", f'id = "{pid}"',
                  f"deployment_zone = {json.dumps([list(p) for p in zone])}"]
    for tid, kind, poly in terrain:
        lines += ["[[terrain]]", f"id = {json.dumps(tid)}", f'kind = "{kind}"', "height = 5.0",
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


def survey_in_process(plan: dict[str, Any], folder: Path, *,
                      made_up: tuple[str, ...] = ()) -> Any:
    """Run every job of ``plan`` in this process (those of the measures ``made_up``: made up
    by :func:`made_up_reach`), write the survey folder as the runner would (plan.json without
    the scenario texts, one result a job) and read it back."""
    from tabletop.survey.jobs import run_job
    from tabletop.survey.report_data import load

    (folder / "results").mkdir(parents=True, exist_ok=True)
    for j in plan["jobs"]:
        result = made_up_reach(plan, j) if j["measure"] in made_up else run_job(j)
        (folder / "results" / f"{j['id']}.json").write_text(json.dumps(result),
                                                            encoding="utf-8")
    bare = {**plan, "jobs": [{k: v for k, v in j.items() if k != "scenario"}
                             for j in plan["jobs"]]}
    (folder / "plan.json").write_text(json.dumps(bare), encoding="utf-8")
    return load(folder)


def vehicle_base(d_mm: float) -> dict[str, Any]:
    """A round base that dense terrain taller than 2" stops."""
    return round_base(d_mm, ("VEHICLE",))


GAP_BOARD = {
    "west": rect(2.0, 5.0, 13.9, 15.0),
    "east": rect(16.1, 5.0, 27.0, 15.0),
}
"""Two dense ruins 2.2" apart on a 30" x 20" board (a 50 mm base passes with 0.23" to
spare, a 60 mm base does not)."""


def gap_board(*, east_x: float = 16.1, extra: list[tuple[str, str, list[tuple]]] | None = None,
              name: str = "gap board") -> str:
    """The scenario of :data:`GAP_BOARD`, its east ruin's west face at ``east_x``; zones along
    the top and bottom edges, an objective in the middle of the gap and one in each zone."""
    terrain = [("west", "dense", GAP_BOARD["west"]),
               ("east", "dense", rect(east_x, 5.0, east_x + 10.9, 15.0)), *(extra or [])]
    return board_text(30, 20, terrain, {"red": rect(0, 0, 30, 3), "blue": rect(0, 17, 30, 20)},
                      [(15, 10), (5, 1.5), (25, 18.5)], name=name)


def made_up_reach(plan: dict[str, Any], job: dict[str, Any]) -> dict[str, Any]:
    """A result of a reach or advance-odds job of ``plan`` made up, not measured: phases that
    differ by base and side (so a card shows one table per base, its largest verdicts)."""
    info = plan["boards"][job["board"]]
    n = len(info["objectives"])
    k = 1 + sorted(str(b["name"]) for b in plan["bases"]).index(str(job["base"]["name"]))
    s = 0 if job["side"] == info_sides(info)[0] else 1
    ms = ("5", "6", "8", "10", "12")
    if job["measure"] == "reach":
        value: dict[str, Any] = {
            "objectives": info["objectives"],
            "moves": {m: [(i + k + s) % 7 or None for i in range(n)] for m in ms},
            "centre": dict.fromkeys(ms, k + s),
            "area": {m: [100.0 * (1 + s), 200.0, 300.0] for m in ms}, "rings": {}}
    else:
        value = {"M": 6, "start": [10, 10], "bands": [],
                 "objectives": [(i % 6) + 1 for i in range(n)], "centre": 3}
    return {"id": job["id"], "job": {a: b for a, b in job.items() if a != "scenario"},
            "ok": True, "error": None, "seconds": 0, "value": value}


def info_sides(info: dict[str, Any]) -> list[str]:
    return list(info["zones"])

"""What the traced outlines of terrain areas cost (the current community layouts, ``wh40kdc``).

The Battlemaster layouts' terrain areas have outlines of up to 348 points; the scenario format
lets a kind without effect on movement (``area``) have up to 1,024 while every piece a move
reads keeps 64. This times, on every current layout, the two ways a user could have it: the
outlines as published, and the same boards with each area outline reduced to its 64-point
simplification (what a lower limit would force on an importer), alternately in one run:

- reading a scenario file (TOML text -> checked state),
- drawing the board (``tabletop show``'s picture, headless),
- a Normal move zone of a 32 mm Intercessor in the red zone, cold (every cache cleared).

Prints the median of each per layout set and the ratio published / simplified.

    python benchmarks/area_outlines.py [--repeat 3] [--layouts 12]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from dataclasses import replace

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from shapely.geometry import Polygon

from tabletop import legal_zone, zones
from tabletop.geometry.footprints import parse_base
from tabletop.importers import battlefields
from tabletop.importers.deployment import Group, set_up
from tabletop.scenario.io import dumps_scenario, loads_scenario
from tabletop.state import GameState, Model, Terrain, Unit
from tabletop.view.render import render_board


def simplified(state: GameState) -> GameState:
    """``state`` with every area outline of more than 64 points simplified to at most 64."""
    out = []
    for t in state.terrain:
        if t.kind == "area" and len(t.polygon) > 64:
            poly, tol = Polygon(t.polygon), 0.005
            pts = list(poly.exterior.coords)[:-1]
            while len(pts) > 64:
                pts = list(poly.simplify(tol).exterior.coords)[:-1]
                tol *= 1.5
            t = Terrain(id=t.id, kind=t.kind, polygon=tuple(pts), height=t.height)
        out.append(t)
    return replace(state, terrain=tuple(out))


def with_mover(state: GameState) -> tuple[GameState, str]:
    unit = Unit(id="bench", player="red", keywords=("INFANTRY",), M=6, W=2, Ld=6, OC=2,
                models=(Model(id="bench-1", base=parse_base("32mm")),), name="Intercessor")
    placed = set_up(state, "red", [Group(unit)])
    return placed, "bench-1"


def timed(fn) -> float:  # type: ignore[no-untyped-def]
    t = time.process_time()
    fn()
    return time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--layouts", type=int, default=12)
    args = ap.parse_args()
    ids = [i for i in battlefields.layout_ids() if i.startswith("bm-")][: args.layouts]
    boards = []
    for lid in ids:
        full, model = with_mover(battlefields.layout_state(lid))
        boards.append((lid, {"published": full, "simplified": simplified(full)}, model))
    times: dict[str, dict[str, list[float]]] = {
        k: {"published": [], "simplified": []} for k in ("read", "draw", "zone")}
    for _ in range(args.repeat):
        for _lid, pair, model in boards:
            for name in ("published", "simplified"):  # alternately, in one run
                state = pair[name]
                text = dumps_scenario(state)
                times["read"][name].append(timed(lambda t=text: loads_scenario(t)))
                times["draw"][name].append(timed(lambda s=state: render_board(s)))
                zones.clear_caches()
                times["zone"][name].append(timed(
                    lambda s=state, m=model: legal_zone(s, m, "normal")))
    points = [len(t.polygon) for _, pair, _ in boards for t in pair["published"].terrain
              if t.kind == "area"]
    print(f"{len(boards)} layouts x {args.repeat}, area outlines: median "
          f"{statistics.median(points):.0f} points, max {max(points)} (simplified: at most 64)")
    print(f"{'step':<6} {'published ms':>13} {'simplified ms':>14} {'ratio':>6}")
    for step, by in times.items():
        a, b = statistics.median(by["published"]) * 1e3, statistics.median(by["simplified"]) * 1e3
        print(f"{step:<6} {a:13.1f} {b:14.1f} {a / b:6.2f}")


if __name__ == "__main__":
    main()

"""Boards for the zone tests and the benchmark, built directly from :mod:`tabletop.state`."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from tabletop.geometry.footprints import parse_base
from tabletop.geometry.visibility import ReachMap
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Terrain, Unit

R32 = 16 / 25.4
"""Radius of a 32 mm base, inches."""


def unit(uid: str, player: str, models: Sequence[tuple[str, float, float]], *, base: str = "32mm",
         keywords: Sequence[str] = ("INFANTRY",), M: float = 6.0, battle_shocked: bool = False,
         facing: float = 0.0) -> Unit:
    """A unit of ``models`` given as ``(id, x, y)``."""
    fp = parse_base(base)
    return Unit(uid, player, tuple(keywords), M, 2, 6, 1,
                tuple(Model(mid, fp, (float(x), float(y)), facing) for mid, x, y in models),
                battle_shocked=battle_shocked)


def state(units: Sequence[Unit], terrain: Sequence[Terrain] = (), *, width: float = 60.0,
          depth: float = 44.0, round: int = 2,
          zones: tuple[tuple[tuple[float, float], ...] | None, ...] = (None, None)) -> GameState:
    """A wh40k state with players ``red`` (active) and ``blue``."""
    return GameState("test", "wh40k-11e", Battle(round, "red", "movement"),
                     (Player("red", deployment_zone=zones[0]),
                      Player("blue", deployment_zone=zones[1])),
                     Battlefield(width, depth), tuple(terrain), (), tuple(units))


def rect(tid: str, kind: str, x0: float, y0: float, x1: float, y1: float,
         height: float = 5.0) -> Terrain:
    """A rectangular terrain piece."""
    return Terrain(tid, kind, ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), height)


def random_board(seed: int, enemies: int, *, friends: int = 4, terrain: int = 3,
                 groups: int | None = None, width: float = 60.0, depth: float = 44.0,
                 mover_keywords: Sequence[str] = ("INFANTRY",), M: float = 6.0,
                 battle_shocked: bool = False) -> GameState:
    """A random board: the mover ``mv`` near the middle, enemies in tight groups, walls.

    Models never overlap each other; the mover stands clear of terrain.
    """
    rng = np.random.default_rng(seed)
    taken: list[tuple[float, float]] = []
    walls: list[Terrain] = []
    for k in range(terrain):
        cx, cy = rng.uniform([8, 8], [width - 8, depth - 8])
        if rng.random() < 0.5:
            w, h = rng.uniform(0.3, 1.0), rng.uniform(3, 9)
        else:
            w, h = rng.uniform(3, 9), rng.uniform(0.3, 1.0)
        kind = ["impassable", "dense", "light"][k % 3]
        walls.append(rect(f"t{k}", kind, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2,
                          height=float(rng.uniform(1, 5))))
    mover = (width / 2 + rng.uniform(-3, 3), depth / 2 + rng.uniform(-3, 3))

    def free(x: float, y: float, gap: float) -> bool:
        if not (R32 <= x <= width - R32 and R32 <= y <= depth - R32):
            return False
        if any(math.hypot(x - a, y - b) < 2 * R32 + gap for a, b in taken):
            return False
        for t in walls:
            xs = [p[0] for p in t.polygon]
            ys = [p[1] for p in t.polygon]
            dx = max(min(xs) - x, 0, x - max(xs))
            dy = max(min(ys) - y, 0, y - max(ys))
            if math.hypot(dx, dy) < R32 + 0.01:
                return False
        return True

    while not free(*mover, 0.0):
        mover = (mover[0] + 1.0, mover[1])
    taken.append(mover)
    groups = groups or max(1, enemies // 6)
    centres = [rng.uniform([3, 3], [width - 3, depth - 3]) for _ in range(groups)]
    placed: list[tuple[str, float, float]] = []
    tries = 0
    while len(placed) < enemies and tries < 50 * enemies + 500:
        tries += 1
        c = centres[tries % groups]
        x, y = c + rng.normal(0, 2.5, 2)
        if math.hypot(x - mover[0], y - mover[1]) < 2 * R32 + 2.2:
            continue
        if free(x, y, float(rng.uniform(0.0, 0.6))):
            taken.append((x, y))
            placed.append((f"e{len(placed)}", x, y))
    fr: list[tuple[str, float, float]] = []
    while len(fr) < friends and tries < 100 * enemies + 2000:
        tries += 1
        x, y = mover + rng.normal(0, 3, 2)
        if free(x, y, 0.1):
            taken.append((x, y))
            fr.append((f"f{len(fr)}", x, y))
    red = unit("red-squad", "red", [("mv", *mover), *fr], keywords=mover_keywords, M=M,
               battle_shocked=battle_shocked)
    blue = unit("blue-mob", "blue", placed)
    return state([red, blue], walls, width=width, depth=depth)


def random_reach_map(rng: np.random.Generator) -> ReachMap:
    """A 20" x 20" reach map for a 0.5" mover among 6 random rectangles and 8 circles."""
    polygons = []
    for _ in range(6):
        x, y = rng.uniform(3, 17, 2)
        w, h = rng.uniform(0.5, 3, 2)
        polygons.append(((x, y), (x + w, y), (x + w, y + h), (x, y + h)))
    circles = [(*rng.uniform(2, 18, 2), 0.6) for _ in range(8)]
    return ReachMap(20.0, 20.0, 0.5, circles, polygons)

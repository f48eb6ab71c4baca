"""Draw the zone pipeline of the design page: ``python docs/pictures/zone_pipeline.py``.

Needs the ``plots`` extra (matplotlib). Writes ``assets/zone-pipeline.png``. The five panels
follow the construction of a legal zone step by step on a small board: the board; the obstacles
grown by the mover's base; the tangent visibility graph and the geodesic distance of each
corner (Dijkstra); the wedges of what each corner sees within the distance it has left; and the
zone, their union less where the model may not end. Panels 2-4 are drawn by this script with
shapely, coarsely, to show the idea; panel 5 is the zone :func:`tabletop.legal_zone` computes.
"""

from __future__ import annotations

import heapq
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.patches import Circle
from matplotlib.patches import Polygon as Patch
from shapely import LineString, Point, Polygon, box, unary_union
from shapely.geometry.base import BaseGeometry

import tabletop
from tabletop.scenario.io import loads_scenario

OUT = Path(__file__).resolve().parents[2] / "assets" / "zone-pipeline.png"
W, H = 18.0, 12.0
R = 16.0 / 25.4  # a 32 mm base
D = 12.0
START = (3.0, 6.0)
TARGET = (9.5, 8.5)
WALL = [(6.0, 2.5), (7.0, 2.5), (7.0, 10.0), (6.0, 10.0)]
RUIN = [(11.0, 3.0), (15.0, 3.0), (15.0, 4.0), (12.0, 4.0), (12.0, 7.5), (11.0, 7.5)]
ENEMIES = [(9.0, 1.6), (14.5, 9.0)]
ENGAGEMENT = 2.0

SCENARIO = f"""
format = 1
name = "Zone pipeline"
ruleset = "wh40k-11e"
[battlefield]
width = {W}
depth = {H}
[battle]
round = 2
active_player = "red"
phase = "movement"
[[players]]
id = "red"
[[players]]
id = "blue"
[[terrain]]
id = "wall"
kind = "impassable"
polygon = {[list(p) for p in WALL]}
[[terrain]]
id = "ruin"
kind = "impassable"
polygon = {[list(p) for p in RUIN]}
[[units]]
id = "squad"
player = "red"
keywords = ["INFANTRY"]
M = {D}
W = 1
Ld = 6
OC = 1
models = [{{ id = "m", base = "32mm", at = {list(START)} }}]
[[units]]
id = "foes"
player = "blue"
keywords = ["INFANTRY"]
M = 6
W = 1
Ld = 6
OC = 1
models = [{", ".join(f'{{ id = "e{i}", base = "32mm", at = {list(p)} }}'
                      for i, p in enumerate(ENEMIES))}]
"""

GROWN_COLOUR = "#c9b18a"
TERRAIN_COLOUR = "#6d5a43"
ENEMY_COLOUR = "#c0392b"
MOVER_COLOUR = "#2c6fbb"
ZONE_COLOUR = "#3fa34d"


def grown_obstacles() -> list[Polygon]:
    """Terrain and enemy bases grown by the mover's radius, coarse (few corners)."""
    pieces = [Polygon(WALL).buffer(R, quad_segs=2, join_style="mitre", mitre_limit=1.5),
              Polygon(RUIN).buffer(R, quad_segs=2, join_style="mitre", mitre_limit=1.5)]
    pieces += [Point(p).buffer(2 * R / math.cos(math.pi / 8), quad_segs=2) for p in ENEMIES]
    return pieces


def free_space(pieces: list[Polygon]) -> BaseGeometry:
    return box(R, R, W - R, H - R).difference(unary_union(pieces))


def corners(pieces: list[Polygon], free: BaseGeometry) -> list[tuple[float, float]]:
    near = free.buffer(1e-6)
    out = []
    for piece in pieces:
        ring = list(piece.exterior.coords)[:-1]
        for k, (x, y) in enumerate(ring):
            (ax, ay), (bx, by) = ring[k - 1], ring[(k + 1) % len(ring)]
            convex = (x - ax) * (by - y) - (y - ay) * (bx - x) < 0  # clockwise in y-down
            if near.contains(Point(x, y)) and (convex or piece.exterior.is_ccw):
                out.append((x, y))
    return out


def sees(a: tuple[float, float], b: tuple[float, float], free: BaseGeometry) -> bool:
    return free.buffer(1e-6).covers(LineString([a, b]))


def dijkstra(nodes: list[tuple[float, float]], free: BaseGeometry
             ) -> tuple[dict[int, float], list[tuple[int, int]]]:
    edges = [(i, j) for i in range(len(nodes)) for j in range(i + 1, len(nodes))
             if sees(nodes[i], nodes[j], free)]
    adj: dict[int, list[int]] = {i: [] for i in range(len(nodes))}
    for i, j in edges:
        adj[i].append(j)
        adj[j].append(i)
    dist = {0: 0.0}
    heap = [(0.0, 0)]
    while heap:
        d, i = heapq.heappop(heap)
        if d > dist.get(i, math.inf):
            continue
        for j in adj[i]:
            nd = d + math.dist(nodes[i], nodes[j])
            if nd <= D and nd < dist.get(j, math.inf):
                dist[j] = nd
                heapq.heappush(heap, (nd, j))
    return dist, edges


def visible(apex: tuple[float, float], reach: float, free: BaseGeometry) -> Polygon:
    """What ``apex`` sees within ``reach``: rays cast every degree, each cut where it leaves
    the free space."""
    near = free.buffer(1e-6)
    pts = []
    for k in range(360):
        a = math.radians(k)
        ray = LineString([apex, (apex[0] + reach * math.cos(a), apex[1] + reach * math.sin(a))])
        part = ray.intersection(near)
        pieces = getattr(part, "geoms", [part])
        first = min(pieces, key=lambda g: g.distance(Point(apex)))
        far = max(first.coords, key=lambda c: math.dist(c, apex)) if not first.is_empty else apex
        pts.append(far)
    return Polygon(pts).buffer(0)


def draw_board(ax: plt.Axes, *, terrain: bool = True, mover: bool = True) -> None:
    ax.add_patch(Patch([(0, 0), (W, 0), (W, H), (0, H)], closed=True, fill=False, lw=1.2,
                       ec="#444"))
    if terrain:
        for poly in (WALL, RUIN):
            ax.add_patch(Patch(poly, closed=True, fc=TERRAIN_COLOUR, ec="none"))
        for p in ENEMIES:
            ax.add_patch(Circle(p, R, fc=ENEMY_COLOUR, ec="none"))
    if mover:
        ax.add_patch(Circle(START, R, fc=MOVER_COLOUR, ec="none"))


def fill(ax: plt.Axes, geom: BaseGeometry, **kw: object) -> None:
    for g in getattr(geom, "geoms", [geom]):
        if g.is_empty or g.geom_type != "Polygon":
            continue
        ax.add_patch(Patch(list(g.exterior.coords), closed=True, **kw))
        for hole in g.interiors:
            ax.add_patch(Patch(list(hole.coords), closed=True, fc="white", ec="none"))


def dijkstra_tree(nodes: list[tuple[float, float]], dist: dict[int, float],
                  edges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The edge each reached corner's shortest path arrives by."""
    tree = []
    for j in dist:
        if j == 0:
            continue
        best = min((i for e in edges for i in e if j in e and i != j and i in dist),
                   key=lambda i: dist[i] + math.dist(nodes[i], nodes[j]))
        tree.append((best, j))
    return tree


def main() -> int:
    state = loads_scenario(SCENARIO, fmt="toml", source="zone-pipeline.toml")
    zone = tabletop.legal_zone(state, "m", "normal")
    path = zone.path_to(*TARGET)
    pieces = grown_obstacles()
    free = free_space(pieces)
    nodes = [START, *corners(pieces, free)]
    dist, edges = dijkstra(nodes, free)

    fig, grid = plt.subplots(3, 2, figsize=(12, 12.6))
    axes = list(grid.flat)
    titles = [f"1. The board: a 32 mm model, M {D:g}\"",
              "2. Obstacles grown by the base",
              "3. Visibility graph and Dijkstra:\n   distance to each corner",
              "4. A wedge per corner: what it sees\n   within the distance it has left",
              "5. Their union, less where it may not end:\n   the legal zone, a shortest path"]
    for ax, title in zip(axes[:5], titles, strict=True):
        ax.set_xlim(-0.3, W + 0.3)
        ax.set_ylim(H + 0.3, -0.3)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(title, fontsize=16, loc="left")

    ax = axes[0]
    draw_board(ax)
    arc = Point(START).buffer(D, 64).exterior.intersection(box(0, 0, W, H))
    for line in getattr(arc, "geoms", [arc]):
        ax.plot(*line.xy, ls="--", color=MOVER_COLOUR, lw=1)
    ax.annotate("impassable wall", (6.5, 11.2), ha="center", fontsize=12)
    ax.annotate("ruin", (13.5, 2.6), ha="center", fontsize=12)
    ax.annotate("enemy", (ENEMIES[0][0] + 1.0, ENEMIES[0][1] + 0.2), fontsize=12,
                color=ENEMY_COLOUR)
    ax.annotate("enemy", (ENEMIES[1][0] + 1.0, ENEMIES[1][1] + 0.2), fontsize=12,
                color=ENEMY_COLOUR)
    ax.annotate("a circle of M:\nwhat others draw", (0.6, 1.3), fontsize=12,
                color=MOVER_COLOUR)

    ax = axes[1]
    for piece in pieces:
        fill(ax, piece, fc=GROWN_COLOUR, ec="#8a7453", lw=0.8)
    draw_board(ax)
    ax.add_patch(Patch([(R, R), (W - R, R), (W - R, H - R), (R, H - R)], closed=True,
                       fill=False, ls=":", ec="#444", lw=1))
    ax.annotate("the free space of the base's centre:\nthe board shrunk, obstacles grown",
                (W / 2, H - 0.9), ha="center", fontsize=12)

    ax = axes[2]
    for piece in pieces:
        fill(ax, piece, fc=GROWN_COLOUR, ec="none")
    draw_board(ax, mover=False)
    for i, j in edges:
        ax.plot(*zip(nodes[i], nodes[j], strict=True), color="#ccc", lw=0.4, zorder=1)
    for i, j in dijkstra_tree(nodes, dist, edges):
        ax.plot(*zip(nodes[i], nodes[j], strict=True), color=MOVER_COLOUR, lw=1.2, zorder=2)
    labelled: list[tuple[float, float]] = []
    for i, (x, y) in enumerate(nodes):
        reached = i in dist
        ax.plot(x, y, "o", ms=4, color=MOVER_COLOUR if reached else "#bbb", zorder=3)
        if reached and i and all(math.dist((x, y), q) > 1.2 for q in labelled):
            labelled.append((x, y))
            ax.annotate(f"{dist[i]:.1f}", (x, y), textcoords="offset points", xytext=(3, 3),
                        fontsize=11, color=MOVER_COLOUR)
    ax.add_patch(Circle(START, R, fc=MOVER_COLOUR, ec="none"))

    ax = axes[3]
    for i, d in sorted(dist.items(), key=lambda kv: kv[1]):
        w = visible(nodes[i], D - d, free).intersection(Point(nodes[i]).buffer(D - d, 64))
        fill(ax, w, fc=ZONE_COLOUR if i == 0 else "#8ecae6", ec="#1d6f8a", lw=0.6,
             alpha=0.35 if i == 0 else 0.25)
    for piece in pieces:
        fill(ax, piece, fc=GROWN_COLOUR, ec="none", alpha=0.6)
    draw_board(ax)

    ax = axes[4]
    for p in ENEMIES:
        fill(ax, Point(p).buffer(2 * R + ENGAGEMENT, 64).intersection(box(0, 0, W, H)),
             fc="#f3c1bb", ec="none")
    fill(ax, zone.geometry, fc=ZONE_COLOUR, ec="#1e6b2a", lw=0.8, alpha=0.75)
    draw_board(ax)
    if path is not None:
        ax.plot(*zip(*[p[:2] for p in path.points], strict=True), color="black", lw=1.5)
        ax.plot(*TARGET, "x", color="black", ms=7)
        ax.annotate(f'{path.length:.1f}" / {D:g}"', TARGET, textcoords="offset points",
                    xytext=(6, -12), fontsize=12)
    ax.annotate("engagement range:\nno end within 2\"", (ENEMIES[1][0], ENEMIES[1][1] + 2.4),
                ha="center", fontsize=12, color=ENEMY_COLOUR)

    ax = axes[5]
    ax.axis("off")
    ax.text(0.0, 0.95, "\n".join([
        "Per phase (cached: enemies and terrain",
        "do not move in your Movement phase):",
        "  2. grow every obstacle by the base",
        "  3. corners and their visibility graph",
        "",
        "Per pick-up (the model you drag):",
        "  3. Dijkstra from the model, up to M",
        "  4. one wedge per reached corner, cut by",
        "     rays cast against the obstacles",
        "  5. union, then the end rules removed",
        "",
        "Arcs inscribed, obstacles circumscribed:",
        "the zone never holds a point that is not",
        "legal. Panels 2-4 are drawn coarsely;",
        "panel 5 is the zone tabletop computes.",
    ]), va="top", fontsize=14, family="DejaVu Sans")

    fig.tight_layout()
    fig.savefig(OUT, dpi=100)
    print(OUT)
    return 0


if __name__ == "__main__":
    sys.exit(main())

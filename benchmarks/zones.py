"""Benchmark of legal move zones (issue 3): our exact zones against fast marching.

Run ``python benchmarks/zones.py`` from the repository root. It builds a realistic board
(60" x 44", 8 terrain pieces: four L-shaped ruins and four rectangles, all impassable so that
they shape every path; enemy models on 32 mm bases in tight groups of six; a 32 mm INFANTRY
mover) with 10, 30, 100 and 300 enemies and prints, for a normal move of D = 0.5, 6, 12 and 20,
on each zone engine (Python and, where it is built, the compiled core; alternately, each first
on every other board):

- our zone, CPU median ms per zone: *cold* (every cache cleared first, as in a new program:
  inflating the obstacles, corners, visibility graph, end region) and *cached* (a pick-up in
  the same phase: the per-phase work is in the caches, the Dijkstra, the wedges and the end
  overlay are computed again; median of 31);
- the same zone by scikit-fmm fast marching at 0.05" cells (masks, travel time and end rules
  on the cells), CPU median ms of 9, and its area error against the Python engine's zone;
- the ratio fmm / ours (cached), per engine.

Add ``--synthetic-only`` to skip the real layouts.

Then the same boards for models that turn as they move (issue 12): a 60x35 mm oval (a bike,
MOUNTED) and a 4x7" hull (a tank, VEHICLE: it passes over the infantry), normal move (D = 6
and 12), on each engine, cold and cached (a pick-up on a board object of its own: the
per-phase caches are warm, the zone is computed again; CPU ms), against what a user could
pick instead: the round engine with the model's circumscribed circle (the previous
approximation: never permissive, but it finds no gap narrower than the circle), its time and
how much of our zone it misses.

When the 40kdc data is present (``<repo>/../shared/data/40kdc``, or ``--data FOLDER``: its unit
list sets the armies up) it also times zones on the real layouts (issue 8, item 4): the 46
current layouts of the community's ``wh40kdc`` package, each on its own deployment map
(``--source files``: the 33 older layouts of the 40kdc files, superseded). Each layout gets a
battle with ``tabletop new``'s deployment (red: Intercessor Squad x10, Redemptor Dreadnought;
blue: Boyz x20, Outrider Squad x3) and a normal-move zone is timed for the first model of every
unit *cold* (every cache cleared, footprint sums included: a new program on a new layout) and
for its second model *cached* (same base, same phase: a pick-up during the move), and that
second model *again* (the window's next drag of it), each after a full collection of the
garbage before it (as every timing here), and that model once more right after on a new state
object with no collection between (*warm*: the program's data still in the processor's caches,
which a full collection's pass over the heap evicts; a window between two drags is somewhere
between the two). Wall and CPU time (the CPU time is what a shared, busy machine does not
inflate). Two turning units join red on every layout, set up in red's zone facing the middle:
two 4x7" tanks and three 60x35 mm bikes.
Prints median, p95 and max ms per mover and over all movers (``--layouts N``: only the first N
layouts; ``--real-only``: skip the synthetic boards), and for the cached pick-ups the CPU time
spent inside GEOS's overlays (``shapely.union_all``, ``union``, ``difference``,
``intersection``: the polygons the construction builds, unioned and cut; what a pick-up costs
however fast the Python around them, a floor of this construction).

The real layouts are timed on both zone engines where the compiled core is built (Python and
native, alternately per layout, each first on every other one), with a table of native / Python
CPU medians.

    .venv/bin/python benchmarks/zones.py [--data ../shared/data/40kdc] [--layouts N]
        [--source current|files] [--real-only | --synthetic-only]

scikit-fmm is a test-only dependency; the synthetic part needs it. 40kdc data: Alpaca Software
and the 40kdc community contributors, CC BY 4.0.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import shapely
from shapely.geometry import Polygon

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tabletop import Zone, legal_zone, zones
from tabletop.geometry import engine
from tabletop.geometry.footprints import Hull, Round, parse_base
from tabletop.state import (
    Battle,
    Battlefield,
    GameState,
    Model,
    Player,
    Terrain,
    Unit,
)

ENGINES = ("python", "native") if engine.native_module() is not None else ("python",)
"""The zone engines compared side by side (tabletop.geometry.engine)."""

R = 16 / 25.4
W, H = 60.0, 44.0
START = (30.0, 22.0)


def _terrain() -> list[Terrain]:
    def l_ruin(tid: str, x: float, y: float, sx: float, sy: float) -> Terrain:
        pts = [(0, 0), (6, 0), (6, 0.4), (0.4, 0.4), (0.4, 4), (0, 4)]
        return Terrain(tid, "impassable", tuple((x + sx * a, y + sy * b) for a, b in pts), 4.0)

    def rect(tid: str, x0: float, y0: float, x1: float, y1: float) -> Terrain:
        return Terrain(tid, "impassable", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), 3.0)

    return [l_ruin("ruin-nw", 20, 12, 1, 1), l_ruin("ruin-ne", 40, 12, -1, 1),
            l_ruin("ruin-sw", 20, 32, 1, -1), l_ruin("ruin-se", 40, 32, -1, -1),
            rect("crate-n", 28, 8, 32, 10), rect("crate-s", 28, 34, 32, 36),
            rect("wall-w", 14, 19, 15, 25), rect("wall-e", 45, 19, 46, 25)]


def board(enemies: int, seed: int = 1) -> GameState:
    """The benchmark board with ``enemies`` enemy models in groups of six."""
    rng = np.random.default_rng(seed)
    terrain = _terrain()
    polys = [Polygon(t.polygon) for t in terrain]
    placed: list[tuple[float, float]] = [START]
    groups = max(1, math.ceil(enemies / 6))
    out: list[Model] = []
    base = parse_base("32mm")
    g = 0
    while len(out) < enemies:
        # group centres spread over the board, the first ones near the mover
        ring = 4.5 + 3.0 * (g % 3) + rng.uniform(0, 2)
        ang = rng.uniform(0, 2 * math.pi)
        cx, cy = (START[0] + ring * math.cos(ang), START[1] + ring * math.sin(ang)) if \
            g < 6 else tuple(rng.uniform([2, 2], [W - 2, H - 2]))
        g += 1
        k = 0
        for _ in range(60):
            if k == 6 or len(out) == enemies:
                break
            x, y = cx + rng.normal(0, 1.2), cy + rng.normal(0, 1.2)
            if not (R <= x <= W - R and R <= y <= H - R):
                continue
            if any(math.hypot(x - a, y - b) < 2 * R + 0.05 for a, b in placed):
                continue
            if math.hypot(x - START[0], y - START[1]) < 2 * R + 2.3:
                continue
            if any(p.distance(shapely.Point(x, y)) < R + 0.05 for p in polys):
                continue
            placed.append((x, y))
            out.append(Model(f"e{len(out)}", base, (x, y)))
            k += 1
        if g > 10 * groups + 50:
            break
    red = Unit("red", "red", ("INFANTRY",), 6.0, 2, 6, 1, (Model("mv", base, START),))
    blue = Unit("blue", "blue", ("INFANTRY",), 6.0, 1, 7, 1, tuple(out))
    return GameState("bench", "wh40k-11e", Battle(2, "red", "movement"),
                     (Player("red"), Player("blue")), Battlefield(W, H), tuple(terrain), (),
                     (red, blue))


def with_move(state: GameState, D: float) -> GameState:
    """``state`` with the mover's M set to ``D`` (a normal move of D inches)."""
    red = state.units[0]
    return replace(state, units=(replace(red, M=float(D)), *state.units[1:]))


def ours(state: GameState, D: float) -> Zone:
    """Our zone of the mover's normal move of ``D`` on ``state`` (see :func:`with_move`)."""
    return legal_zone(state, "mv", "normal")


def use(eng: str) -> None:
    """Choose the zone engine ``eng`` for what follows (caches kept: each engine keeps its
    own per-phase geometry where they differ)."""
    os.environ[engine.ENV] = eng


def clear() -> None:
    zones.clear_caches()


class Fmm:
    """The zone by fast marching on cells of ``h``: masks per phase, travel time per pick-up.

    Like our zones, the masks that do not depend on the pick-up (obstacles and end rules of
    the enemies and terrain near the start) are built once (:meth:`__init__`); :meth:`area`
    is the per-pick-up work: travel time and the threshold.
    """

    def __init__(self, state: GameState, D: float, h: float) -> None:
        px, py = START
        x0, x1 = max(0.0, px - D - 1), min(W, px + D + 1)
        y0, y1 = max(0.0, py - D - 1), min(H, py + D + 1)
        X, Y = np.meshgrid(np.arange(x0 + h / 2, x1, h), np.arange(y0 + h / 2, y1, h))
        blocked = (X < R) | (X > W - R) | (Y < R) | (Y > H - R)
        legal = ~blocked
        for _, m in state.placed_models():
            if m.id == "mv":
                continue
            mx, my = m.at  # type: ignore[misc]
            if abs(mx - px) > D + 4 or abs(my - py) > D + 4:
                continue
            d = np.hypot(X - mx, Y - my)
            blocked |= d < 2 * R
            legal &= d > 2 * R + 2.0
        pts = shapely.points(X.ravel(), Y.ravel())
        for t in state.terrain:
            d = shapely.distance(t.shape, pts).reshape(X.shape)
            blocked |= d < R
            legal &= d >= R
        self.h, self.D, self.blocked, self.legal = h, D, blocked, legal
        self.phi0 = np.hypot(X - px, Y - py) - 0.75 * h

    def area(self) -> float:
        import skfmm

        phi = np.ma.MaskedArray(self.phi0, self.blocked)
        tt = skfmm.travel_time(phi, np.ones_like(self.phi0), dx=self.h, order=2)
        T = np.where(np.ma.getmaskarray(tt), np.inf, np.ma.getdata(tt)) + 0.75 * self.h
        return float((self.legal & (T <= self.D)).sum() * self.h * self.h)


def median_ms(fn, runs: int, clock=time.perf_counter) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        t = clock()
        fn()
        times.append((clock() - t) * 1000)
    return statistics.median(times)


KDC = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "40kdc"
KDC_ARMIES = [("red", "Intercessor Squad x10, Redemptor Dreadnought"),
              ("blue", "Boyz x20, Outrider Squad")]


OVERLAYS = ("union_all", "union", "difference", "intersection")
"""The GEOS overlay functions whose CPU time :class:`OverlayClock` counts."""


class OverlayClock:
    """While active, the CPU seconds spent inside GEOS's overlays (:data:`OVERLAYS`, which the
    geometries' methods call too) add up in ``seconds``."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._saved: dict[str, object] = {}

    def __enter__(self) -> OverlayClock:
        for name in OVERLAYS:
            real = getattr(shapely, name)
            self._saved[name] = real

            def timed(*args, _real=real, **kwargs):  # type: ignore[no-untyped-def]
                c0 = time.process_time()
                try:
                    return _real(*args, **kwargs)
                finally:
                    self.seconds += time.process_time() - c0

            setattr(shapely, name, timed)
        return self

    def __exit__(self, *exc: object) -> None:
        for name, real in self._saved.items():
            setattr(shapely, name, real)


def _stats(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"{statistics.median(values):>7.1f} {p95:>7.1f} {max(values):>7.1f}"


def real_layouts(data: Path, limit: int | None, source: str = "current") -> None:
    """Median, p95 and max ms per zone on the real layouts, cold and cached, per mover
    (``source``: ``current``, the community's current layouts of the ``wh40kdc`` package, each
    on its own deployment map; ``files``: the older 40kdc files in ``data``)."""
    from tabletop.importers.kdc import load_data, read_layouts
    from tabletop.importers.kdc_units import new_battle, read_units

    layouts = data / "terrain-layouts.json"
    catalogue = read_units(data / "units_11e_provisional_all.csv")
    if source == "current":
        from tabletop.importers import battlefields

        ids = battlefields.layout_ids()[:limit]

        def layout_state(layout_id: str) -> GameState:
            return battlefields.layout_state(layout_id)
    else:
        ids = [lay["id"] for lay in read_layouts(layouts)][:limit]

        def layout_state(layout_id: str) -> GameState:
            return load_data(layouts, layout_id).state()
    times: dict[str, dict[str, list[tuple[float, float]]]] = {}
    overlays: dict[str, list[float]] = {}

    def timed(state: GameState, model_id: str, collect: bool = True) -> tuple[float, float]:
        """Wall and CPU ms of one zone (CPU: what a busy shared machine does not inflate);
        the garbage of the zones before is collected first, not in this one's time (unless
        not ``collect``: then the pick-up just before leaves the program's data in the
        processor's caches, which a full collection's pass over the heap evicts)."""
        if collect:
            gc.collect()
        t0, c0 = time.perf_counter(), time.process_time()
        legal_zone(state, model_id, "normal")
        return (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000

    for k, layout_id in enumerate(ids):
        state = new_battle(layout_state(layout_id), catalogue, KDC_ARMIES)
        state = with_turning_units(state)
        for unit in state.units:
            assert isinstance(unit, Unit)
            name = f"{unit.name or unit.id} ({unit.models[0].base.spec})"
            # the engines alternately, each first on every other layout
            for eng in ENGINES if k % 2 == 0 else ENGINES[::-1]:
                os.environ[engine.ENV] = eng
                key = f"{name} [{eng}]"
                row = times.setdefault(key, {"cold": [], "cached": [], "again": [], "warm": []})
                clear()
                row["cold"].append(timed(state, unit.models[0].id))
                if len(unit.models) > 1:
                    with OverlayClock() as clock:
                        row["cached"].append(timed(replace(state), unit.models[1].id))
                    overlays.setdefault(key, []).append(clock.seconds * 1000)
                    row["again"].append(timed(state, unit.models[1].id))
                    row["warm"].append(timed(replace(state), unit.models[1].id, collect=False))
    print()
    print(f"Real layouts: {len(ids)} {source} layouts, normal move, ms per zone (cold: every cache "
          "cleared; cached: the next model of the unit; again: the same model again; warm: "
          "once more with no collection before it)")
    print(f"{'mover':<40} {'':>6} {'median':>7} {'p95':>7} {'max':>7}   CPU: "
          f"{'median':>7} {'p95':>7} {'max':>7}")
    total: dict[str, list[tuple[float, float]]] = {"cold": [], "cached": [], "again": [],
                                                   "warm": []}
    for name, row in times.items():
        for kind, values in row.items():
            if values:
                total[kind].extend(values)
                print(f"{name:<40} {kind:>6} {_stats([w for w, _ in values])}        "
                      f"{_stats([c for _, c in values])}")
    for kind, values in total.items():
        print(f"{'all movers':<40} {kind:>6} {_stats([w for w, _ in values])}        "
              f"{_stats([c for _, c in values])}")
    if len(ENGINES) > 1:
        print("\nNative against Python, CPU medians (same boards, engines alternately): "
              "native / python")
        print(f"{'mover':<40} {'cold':>7} {'cached':>7} {'again':>7} {'warm':>7}")
        names = sorted({key.rsplit(" [", 1)[0] for key in times})
        for name in names:
            py, nat = times.get(f"{name} [python]"), times.get(f"{name} [native]")
            if py is None or nat is None:
                continue
            cells = []
            for kind in ("cold", "cached", "again", "warm"):
                a, b = [c for _, c in py[kind]], [c for _, c in nat[kind]]
                cells.append(f"{statistics.median(b) / statistics.median(a):>7.2f}"
                             if a and b and statistics.median(a) > 0 else f"{'-':>7}")
            print(f"{name:<40} {' '.join(cells)}")
    print("\nOf each cached pick-up, CPU ms inside GEOS's overlays (union_all, union, difference, "
          "intersection)")
    print(f"{'mover':<40} {'median':>7} {'p95':>7} {'max':>7}   share of the pick-up's CPU")
    for name, values in overlays.items():
        cpu = [c for _, c in times[name]["cached"]]
        share = statistics.median(v / c for v, c in zip(values, cpu, strict=True) if c > 0)
        print(f"{name:<40} {_stats(values)}   {100 * share:.0f} %")


TANK = Hull(((-2.0, -3.5), (2.0, -3.5), (2.0, 3.5), (-2.0, 3.5)))
BIKE = parse_base("oval 60x35mm")
TURNING = [("Tank (4x7in hull)", "tank", TANK, ("VEHICLE",), 10.0, 2),
           ("Bike (oval 60x35mm)", "bike", BIKE, ("MOUNTED",), 12.0, 3)]


def with_turning_units(state: GameState) -> GameState:
    """``state`` with red's turning units set up in red's zone (see the module docstring):
    each model at the first free spot of a 1" scan, facing the middle, clear of everyone by 1"
    (a unit with no such spot left out, and said so)."""
    from tabletop.rulesets.wh40k_11e.zones import move_query

    zone = state.player("red").zone_polygon
    assert zone is not None
    x0, y0, x1, y1 = zone.bounds
    cx, cy = state.battlefield.width / 2, state.battlefield.depth / 2
    units = list(state.units)
    for _, uid, base, kw, M, n in TURNING:
        models: list[Model] = []
        for x in np.arange(x0 + 4.5, x1 - 4.0, 1.0):
            for y in np.arange(y0 + 4.5, y1 - 4.0, 1.0):
                if len(models) == n:
                    break
                facing = math.degrees(math.atan2(cx - x, -(cy - y))) % 360.0
                if not zone.contains(base.placed(float(x), float(y), facing)):
                    continue
                m = Model(f"{uid}{len(models) + 1}", base, (float(x), float(y)), facing)
                trial = replace(state, units=(*units, Unit(uid, "red", kw, M, 10, 6, 2,
                                                           (*models, m))))
                q = move_query(trial, m.id, "normal")
                if zones.end_violations(q.board, q.mover, float(x), float(y)):
                    continue
                if any(math.dist(o.at, m.at) < o.footprint.radius + base.radius + 1.0
                       for o in q.board.models if o.id != m.id):
                    continue
                models.append(m)
        if not models:
            # (a deployment zone too narrow for the scan: kotc-colosseum's for the tank)
            print(f"(no spot for the {uid} in red's deployment zone of this layout: left out)")
            continue
        units.append(Unit(uid, "red", kw, M, 10, 6, 2, tuple(models)))
    return replace(state, units=tuple(units))


def turning_boards() -> None:
    """Turning movers on the synthetic boards, both engines alternately, against the
    circumscribed circle."""
    print()
    print("Models that turn as they move (facing layers), normal move from the board's start,")
    print("each engine; CPU median ms (cold: every cache cleared, median of 3; cached: a pick-up")
    print("on a board object of its own, median of 11); circle = the round engine with the")
    print("model's circumscribed circle (what was used before): its time per pick-up on the")
    print("same engine and how much of our zone it misses.")
    print(f"{'mover':<20} {'enemies':>7} {'D':>3} {'engine':>7} {'cold ms':>8} {'cached ms':>9} "
          f"{'area':>8} {'circle ms':>9} {'circle misses':>13}")
    k = 0
    for name, _, base, kw, _, _ in TURNING:
        for n in (30, 100, 300):
            st0 = board(n)
            for D in (6.0, 12.0):
                mover = Unit("red", "red", kw, D, 2, 6, 1, (Model("mv", base, START, 90.0),))
                st = replace(st0, units=(mover, *st0.units[1:]))
                circle = replace(st, units=(replace(mover, models=(Model(
                    "mv", Round(2 * base.radius * 25.4), START, 90.0),)), *st0.units[1:]))
                for eng in ENGINES if k % 2 == 0 else ENGINES[::-1]:
                    use(eng)

                    def cold(st: GameState = st) -> None:
                        clear()
                        legal_zone(st, "mv", "normal")
                    t_cold = median_ms(cold, 3, time.process_time)
                    legal_zone(st, "mv", "normal")

                    # a pick-up on a board object of its own (the same model again on the
                    # same object is the board's memo, not the engine)
                    def again(st: GameState = st) -> None:
                        legal_zone(replace(st), "mv", "normal")
                    c_cached = median_ms(again, 11, time.process_time)
                    z = legal_zone(st, "mv", "normal")
                    legal_zone(circle, "mv", "normal")
                    t_circle = median_ms(lambda c=circle: legal_zone(c, "mv", "normal"), 11,
                                         time.process_time)
                    zc = legal_zone(circle, "mv", "normal")
                    miss = z.geometry.difference(zc.geometry).area / z.area * 100 if z.area \
                        else 0.0
                    print(f"{name:<20} {n:>7} {D:>3.0f} {eng:>7} {t_cold:>8.1f} "
                          f"{c_cached:>9.2f} {z.area:>8.2f} {t_circle:>9.2f} {miss:>12.1f}%")
                k += 1


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=KDC, help="folder of the 40kdc files")
    ap.add_argument("--layouts", type=int, default=None, help="only the first N real layouts")
    ap.add_argument("--source", choices=("current", "files"), default="current",
                    help="real layouts: the wh40kdc package's current ones (default) or the "
                    "older 40kdc files of --data")
    ap.add_argument("--real-only", action="store_true", help="skip the synthetic boards")
    ap.add_argument("--synthetic-only", action="store_true", help="skip the real layouts")
    args = ap.parse_args(argv)
    if not args.real_only:
        synthetic()
        turning_boards()
    if args.synthetic_only:
        return
    if (args.data / "units_11e_provisional_all.csv").is_file():
        real_layouts(args.data, args.layouts, args.source)
    else:
        print(f"\nReal layouts: skipped ({args.data} not found)")


def synthetic() -> None:
    """Our zones on both engines (alternately) against fast marching on the synthetic boards."""
    h = 0.05
    print("Legal zones of the round mover, CPU median ms per zone, each engine (cold: every cache")
    print("cleared; cached: a pick-up in the same phase, median of 31); fast marching at "
          f"{h}\" cells")
    print("(per pick-up, its masks built beforehand; its area error against the Python zone);")
    print("fmm/x: fast marching's time over the engine's cached pick-up.")
    names = "  ".join(f"{e + ' cold':>12} {e[:3] + ' cached':>10}" for e in ENGINES)
    ratios = " ".join(f"{'fmm/' + e[:3]:>8}" for e in ENGINES)
    print(f"{'enemies':>7} {'D':>4}  {names} {'area':>8} {'fmm ms':>7} {'fmm err':>8} {ratios}")
    k = 0
    for n in (10, 30, 100, 300):
        st0 = board(n)
        for D in (0.5, 6.0, 12.0, 20.0):
            st = with_move(st0, D)
            got: dict[str, tuple[float, float, float]] = {}
            for eng in ENGINES if k % 2 == 0 else ENGINES[::-1]:
                use(eng)

                def cold(st: GameState = st, D: float = D) -> None:
                    clear()
                    ours(st, D)
                t_cold = median_ms(cold, 5, time.process_time)
                ours(st, D)
                t_cached = median_ms(lambda st=st, D=D: ours(st, D), 31, time.process_time)
                got[eng] = (t_cold, t_cached, ours(st, D).area)
            k += 1
            area = got["python"][2]
            f = Fmm(st, D, h)
            fa = f.area()
            t_fmm = median_ms(f.area, 9, time.process_time)
            err = (fa - area) / area * 100 if area else float("nan")
            cells = "  ".join(f"{got[e][0]:>12.1f} {got[e][1]:>10.3f}" for e in ENGINES)
            rat = " ".join(f"{t_fmm / got[e][1]:>7.1f}x" for e in ENGINES)
            print(f"{n:>7} {D:>4} {cells} {area:>8.2f} {t_fmm:>7.2f} {err:>+7.2f}% {rat}")


if __name__ == "__main__":
    main()

"""Benchmark of threat ranges and safe ground (issue 30).

Run ``python benchmarks/threat.py`` from the repository root. Two parts:

1. **The demo, one unit at a time** (what the window's T costs): for every unit of the shipped
   demo that can charge, its threat (11 bands) timed three ways, median CPU and wall ms:

   - *cold*: every cache cleared first (the engine's and the threat's own: a new program);
   - *warm*: the same board as a new object (the per-board reach maps and end regions are in
     the caches, the threat is computed again: T on a unit after another unit's T, or after a
     model of the other side moved back);
   - *cached*: the same board object again (the ruleset's threat tool keeps the answer per board:
     T pressed again, or after the window computed it while idle).

   Against what a user could pick instead, alternately on the same boards: the window's
   previous T (each model's legal zones of a normal move and of an advance of 6, grown by its
   circumscribed radius and engagement range: no charge, no odds).

2. **A whole army on a real layout** (when the 40kdc data is there, ``<repo>/../shared/data/40kdc``
   or ``--data``): ``tabletop new`` on ``gw-11e-crucible`` (``--layout``) with two armies of the
   older units file, then every unit of the defender's army (10 units, 74 models) cold and
   warm, in total; and safe ground of three attacker units at 9+ (every enemy unit counted or
   skipped), cold and warm.

3. **The window** (``--window``; in a real X11 window when ``Xvfb`` is installed, as
   ``benchmarks/frame.py`` does): the demo, a unit clicked, then T; wall ms from the key to the
   frame that shows the threat, with the threat computed while the window was idle after the
   click (a second of a person moving the mouse: what the window does) and without (T at once,
   the window's prefetch off), alternately per unit; and O (safe ground at 9+) for a few of red's
   units.

Prints the machine's load average before and after (a shared machine: read the ratios, which
come from alternating runs, rather than the absolute figures).

    .venv/bin/python benchmarks/threat.py [--runs N] [--data FOLDER] [--layout ID] [--window]
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import shapely

from tabletop.errors import UserError
from tabletop.rules.threat import parse_odds
from tabletop.rulesets.wh40k_11e import rulings, zones
from tabletop.rulesets.wh40k_11e import threat as th
from tabletop.scenario.io import load_scenario, shipped
from tabletop.state import GameState, Unit
from tabletop.zones import clear_caches

REPO = Path(__file__).resolve().parents[1]
RED = ("Intercessor Squad x10, Assault Intercessor Squad x10, Terminator Squad x5, Redemptor "
       "Dreadnought, Captain in Terminator Armour, Intercessor Squad x5, Heavy Intercessor Squad "
       "x5")
BLUE = ("Termagants x20, Hormagaunts x20, Genestealers x10, Tyranid Warriors with Melee "
        "Bio-weapons x3, Exocrine, Winged Hive Tyrant, Carnifexes x2, Termagants x10, "
        "Neurotyrant, Zoanthropes x3")


def clear() -> None:
    clear_caches()
    th.clear_caches()


def fresh(state: GameState) -> GameState:
    """The same board as a new object (nothing keyed by the object's identity finds it)."""
    return dataclasses.replace(state, units=tuple(state.units))


def previous_t(state: GameState, unit_id: str) -> object:
    """The window's T before issue 30: each model's legal zones of a normal move and of an
    advance rolled at 6, grown by its circumscribed radius and 2" (engagement)."""
    unit = state.unit(unit_id)
    assert isinstance(unit, Unit)
    parts = []
    for m in unit.models:
        if m.at is None:
            continue
        try:
            z = zones.legal_zone(state, m.id, "normal").geometry
            a = zones.legal_zone(state, m.id, "advance", roll=6).geometry
        except UserError:
            continue
        r = (m.base.radius + rulings.ENGAGEMENT_RANGE) / math.cos(math.pi / 32)
        parts += [z.buffer(r, quad_segs=8), a.buffer(r, quad_segs=8)]
    return shapely.union_all(parts) if parts else None


def timed(fn: object) -> tuple[float, float]:
    """(CPU ms, wall ms) of one call."""
    c0, w0 = time.process_time(), time.perf_counter()
    fn()  # type: ignore[operator]
    return (time.process_time() - c0) * 1e3, (time.perf_counter() - w0) * 1e3


def med(xs: list[float]) -> str:
    return f"{statistics.median(xs):7.1f}" if xs else "      -"


def demo(runs: int) -> None:
    state = load_scenario(shipped("demo.toml"))
    units = [u.id for u in state.units if isinstance(u, Unit) and u.location == "battlefield"
             and not th.engaged(state, u)]
    print(f"\n1. demo: threat of one unit (11 bands), median of {runs}, CPU / wall ms; "
          "previous T alternately")
    print(f"{'unit':<14} {'models':>6} | {'cold cpu':>8} {'wall':>7} | {'warm cpu':>8} "
          f"{'wall':>7} | {'cached':>7} | {'prev cold':>9} {'prev warm':>9} | warm/prev")
    ratios = []
    for uid in units:
        t: dict[str, list[tuple[float, float]]] = {k: [] for k in
                                                   ("cold", "warm", "cached", "pcold", "pwarm")}
        for i in range(runs):
            order = ("new", "old") if i % 2 == 0 else ("old", "new")
            for which in order:
                if which == "new":
                    clear()
                    b = fresh(state)
                    t["cold"].append(timed(lambda b=b, uid=uid: th.unit_threat(b, uid)))
                    b = fresh(state)
                    t["warm"].append(timed(lambda b=b, uid=uid: th.unit_threat(b, uid)))
                    from tabletop import rulesets

                    tool = rulesets.threat_queries(b)
                    tool.threat(b, uid)
                    t["cached"].append(timed(lambda b=b, tool=tool, uid=uid: tool.threat(b, uid)))
                else:
                    clear()
                    b = fresh(state)
                    t["pcold"].append(timed(lambda b=b, uid=uid: previous_t(b, uid)))
                    b = fresh(state)
                    t["pwarm"].append(timed(lambda b=b, uid=uid: previous_t(b, uid)))
        n = len([m for m in state.unit(uid).models if m.at is not None])  # type: ignore[union-attr]
        cpu = {k: [c for c, _ in v] for k, v in t.items()}
        wall = {k: [w for _, w in v] for k, v in t.items()}
        ratio = statistics.median(cpu["warm"]) / statistics.median(cpu["pwarm"])
        ratios.append(ratio)
        print(f"{uid:<14} {n:>6} | {med(cpu['cold'])}  {med(wall['cold'])} | "
              f"{med(cpu['warm'])}  {med(wall['warm'])} | {med(wall['cached'])} | "
              f"{med(cpu['pcold'])}   {med(cpu['pwarm'])} | {ratio:5.2f}")
    print(f"median warm / previous-T ratio over units: {statistics.median(ratios):.2f}")


def real(data: Path, layout: str) -> None:
    units_csv = data / "units_11e_provisional_all.csv"
    if not units_csv.is_file():
        print(f"\n2. real layout: skipped ({units_csv} not found)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "battle.toml"
        subprocess.run([sys.executable, "-m", "tabletop", "new", "--units", str(units_csv),
                        "--layout", layout, "--red", RED, "--blue", BLUE, "-o", str(out)],
                       check=True, capture_output=True)
        state = load_scenario(out)
    blue = [u for u in state.units if isinstance(u, Unit) and u.player != state.players[0].id]
    red = [u for u in state.units if isinstance(u, Unit) and u.player == state.players[0].id]
    models = sum(len(u.models) for u in blue)
    print(f"\n2. {layout}: the defender's whole army, {len(blue)} units, {models} models "
          f"({len(state.terrain)} terrain pieces, {len(state.placed_models())} models on the "
          "board)")
    for label in ("cold", "warm"):
        if label == "cold":
            clear()
        b = fresh(state)
        per = []
        c0, w0 = time.process_time(), time.perf_counter()
        for u in blue:
            per.append((u.id, timed(lambda u=u, b=b: th.unit_threat(b, u.id))))
        cpu, wall = (time.process_time() - c0) * 1e3, (time.perf_counter() - w0) * 1e3
        print(f"  {label}: {cpu:.0f} ms CPU, {wall:.0f} ms wall in all; per unit (CPU ms): "
              + ", ".join(f"{uid} {c:.0f}" for uid, (c, _) in per))
    odds = parse_odds("9+")
    for label in ("cold", "warm"):
        if label == "cold":
            clear()
        b = fresh(state)
        for u in red[:3]:
            sg = None

            def run(u: Unit = u, b: GameState = b) -> None:
                nonlocal sg
                sg = th.safe_ground(b, u.id, "normal", odds)

            c, w = timed(run)
            assert sg is not None
            print(f"  safe ground of {u.id} at 9+, {label}: {c:.0f} ms CPU, {w:.0f} ms wall "
                  f"({len(sg.counted)} enemy units counted, {len(sg.skipped)} skipped)")


def window(size: tuple[int, int] = (1280, 820)) -> None:
    sys.path.insert(0, str(Path(__file__).parent))
    from frame import start_xvfb

    xvfb = start_xvfb() if not os.environ.get("SDL_VIDEODRIVER") else None
    if xvfb is not None:
        os.environ["DISPLAY"] = xvfb[1]
        os.environ["SDL_VIDEODRIVER"] = "x11"
        where = f"a real X11 window (Xvfb on {xvfb[1]})"
    else:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
        where = "SDL's dummy driver (no display time)"
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from tabletop.scenario.io import save_scenario
    from tabletop.view.app import App

    def step_ms(app: App, kind: int, **kw: object) -> float:
        pygame.event.post(pygame.event.Event(kind, **kw))
        t, c = time.perf_counter(), time.process_time()
        app.step()
        cpu.append((time.process_time() - c) * 1e3)
        return (time.perf_counter() - t) * 1e3

    cpu: list[float] = []

    def click(app: App, uid: str) -> None:
        m = next(m for m in app.state.unit(uid).models if m.at is not None)  # type: ignore[union-attr]
        at = app.ctrl.viewport.to_px(*m.at)
        step_ms(app, pygame.MOUSEBUTTONDOWN, pos=at, button=1)
        step_ms(app, pygame.MOUSEBUTTONUP, pos=at, button=1)

    def idle(app: App, seconds: float) -> None:
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            app.step(wait=True)

    print(f"\n3. the window, {size[0]}x{size[1]} in {where}: T after a click, ms to the frame")
    state = load_scenario(shipped("demo.toml"))
    units = [u.id for u in state.units if isinstance(u, Unit) and u.location == "battlefield"]
    got: dict[bool, list[float]] = {True: [], False: []}
    cpus: dict[bool, list[float]] = {True: [], False: []}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for i, uid in enumerate(units):
                row: dict[object, float] = {}
                for ahead in ((True, False) if i % 2 == 0 else (False, True)):
                    clear()
                    app = App(load_scenario(shipped("demo.toml")),
                              save_path=Path(tmp) / "b.save.toml", size=size,
                              saver=save_scenario)
                    app.prefetch = ahead
                    app.step()
                    idle(app, 0.5)  # the first frame and the slow zones of nothing selected
                    click(app, uid)
                    if ahead:
                        idle(app, 2.0)
                    row[ahead] = step_ms(app, pygame.KEYDOWN, key=pygame.K_t, mod=0,
                                         unicode="t", scancode=0)
                    row[(ahead, "cpu")] = cpu[-1]
                    assert app.threats.threat_unit == uid, app.message
                    pygame.display.quit()
                got[True].append(row[True])
                got[False].append(row[False])
                cpus[True].append(row[(True, "cpu")])
                cpus[False].append(row[(False, "cpu")])
                print(f"  {uid:<14} computed while idle {row[True]:7.1f} ms (CPU "
                      f"{row[(True, 'cpu')]:6.1f}), at the key {row[False]:7.1f} ms (CPU "
                      f"{row[(False, 'cpu')]:6.1f})")
            print(f"  median: {statistics.median(got[True]):.1f} ms computed while idle, "
                  f"{statistics.median(got[False]):.1f} ms at the key; max "
                  f"{max(got[True]):.1f} / {max(got[False]):.1f}; CPU medians "
                  f"{statistics.median(cpus[True]):.1f} / {statistics.median(cpus[False]):.1f} "
                  f"ms, max {max(cpus[True]):.1f} / {max(cpus[False]):.1f}")
            for uid in ("intercessors", "lieutenant", "terminators"):
                clear()
                app = App(load_scenario(shipped("demo.toml")),
                          save_path=Path(tmp) / "b.save.toml", size=size, saver=save_scenario)
                app.step()
                click(app, uid)
                app.threats.odds = parse_odds("9+")
                ms = step_ms(app, pygame.KEYDOWN, key=pygame.K_o, mod=0, unicode="o",
                             scancode=0)
                sg = app.threats.safe
                assert sg is not None, app.message
                print(f"  O on {uid} (safe ground at 9+, {len(sg.counted)} enemy units "
                      f"counted): {ms:.0f} ms to the frame")
                pygame.display.quit()
    finally:
        if xvfb is not None:
            xvfb[0].terminate()
            xvfb[0].wait(timeout=10)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "40kdc")
    p.add_argument("--layout", default="gw-11e-crucible")
    p.add_argument("--window", action="store_true", help="also time T and O in the window")
    p.add_argument("--only-window", action="store_true", help="only the window part")
    args = p.parse_args()
    from tabletop.geometry.engine import describe

    print(f"{describe()}; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if not args.only_window:
        demo(args.runs)
        real(args.data, args.layout)
    if args.window or args.only_window:
        window()
    print(f"\nload average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()

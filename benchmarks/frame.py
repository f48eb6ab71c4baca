"""Frame time of the window while a model is dragged on the demo board, headless.

Opens the window on the shipped demo (about 100 models, 8 terrain pieces) with SDL's dummy video
driver, selects a unit for a normal move, picks up a model and drags it around a circle, one
pointer motion per frame. Prints the median (and 95th percentile) time per frame — event handling
plus drawing — and, for comparison, the time of one legal-zone computation (done once, on
pick-up). Target: under 8 ms per frame.

With ``--t9a`` it does the same for a rank-and-file block on the shipped ``t9a-lines`` board:
the knights' front edge dragged forwards and back, then a front corner dragged to wheel, one
pointer motion per frame (each frame asks the rules for a preview of the manoeuvre); it prints
the time of the range computations done once per pick-up (straight ranges, wheel range).

    .venv/bin/python benchmarks/frame.py [--frames 300] [--size 1280x820] [--t9a]
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame

from tabletop.scenario.io import load_scenario, save_scenario, shipped
from tabletop.view.app import App


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=300)
    ap.add_argument("--size", default="1280x820")
    ap.add_argument("--unit", default=None, help="unit to move (default: the first red unit "
                    "that may make a normal move)")
    ap.add_argument("--t9a", action="store_true", help="drag a t9a-2 block on t9a-lines")
    args = ap.parse_args(argv)
    w, h = (int(v) for v in args.size.split("x"))
    if args.t9a:
        return bench_t9a(args.frames, (w, h))
    state = load_scenario(shipped("demo.toml"))
    with tempfile.TemporaryDirectory() as tmp:
        app = App(state, save_path=Path(tmp) / "bench.save.toml", size=(w, h),
                  saver=save_scenario)
        app.step()
        if app.state.battle.step != "move-units":
            app.apply({"do": "next"})
        unit_id = args.unit
        if unit_id is None:
            for u in app.state.units:
                moves = app.rules.eligibility(app.state, u.id)
                if u.player == app.state.battle.active_player and any(
                        e.ok and e.move == "normal" for e in moves):
                    unit_id = u.id
                    break
        if unit_id is None:
            print("no unit may make a normal move on the demo board", file=sys.stderr)
            return 1
        out = app.apply({"do": "select", "unit": unit_id, "move": "normal"})
        if not out.ok:
            print(f"select refused: {out.reasons}", file=sys.stderr)
            return 1
        unit = app.state.unit(unit_id)
        model = next(m for m in unit.models if m.at is not None)  # type: ignore[union-attr]
        assert model.at is not None
        vp = app.ctrl.viewport
        centre = vp.to_px(*model.at)
        t0 = time.perf_counter()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1))
        app.step()
        pickup = time.perf_counter() - t0
        drag = app.ctrl.drag
        if drag is None:
            print("the pick-up did not start a drag", file=sys.stderr)
            return 1
        times = []
        radius = vp.length(8.0)
        for k in range(args.frames):
            a = 2 * math.pi * k / 120
            pos = (centre[0] + radius * math.cos(a) * (k % 60) / 60,
                   centre[1] + radius * math.sin(a) * (k % 60) / 60)
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                                 buttons=(1, 0, 0)))
            t = time.perf_counter()
            app.step()
            times.append(time.perf_counter() - t)
        times_ms = sorted(x * 1000 for x in times[10:])
        med = statistics.median(times_ms)
        p95 = times_ms[int(0.95 * (len(times_ms) - 1))]
        zone_s = app.zone_seconds
        n_models = sum(len(getattr(u, "models", ())) if not isinstance(getattr(u, "models", 0), int)
                       else u.models for u in app.state.units)  # type: ignore[union-attr]
        print(f"board: {state.name}, {n_models} models, {len(state.terrain)} terrain pieces, "
              f"window {w}x{h}")
        print(f"frame while dragging {model.id} ({unit_id}): median {med:.2f} ms, "
              f"p95 {p95:.2f} ms over {len(times_ms)} frames (target < 8 ms)")
        if zone_s and drag.zones.get(drag.anchor) is not None:
            first = zone_s[-1] * 1000
            # release (stages the move), then pick up the next model of the unit: same base,
            # same enemies and terrain, so only the mover's own work is redone
            pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
            app.step()
            again = []
            for other in [m for m in unit.models if m.at is not None][1:4]:  # type: ignore[union-attr]
                n0 = len(app.zone_seconds)
                pygame.event.post(pygame.event.Event(
                    pygame.MOUSEBUTTONDOWN, pos=vp.to_px(*other.at), button=1))
                app.step()
                if len(app.zone_seconds) > n0:
                    again.append(app.zone_seconds[-1] * 1000)
                pygame.event.post(pygame.event.Event(
                    pygame.MOUSEBUTTONUP, pos=vp.to_px(*other.at), button=1))
                app.step()
            print(f"legal zone computation on pick-up: first {first:.1f} ms (empty caches; "
                  f"pick-up frame total {pickup * 1000:.1f} ms)" + (
                      f", next models of the unit after staging a move: median "
                      f"{statistics.median(again):.1f} ms over {len(again)}" if again else "")
                  + "; once per pick-up, never per frame")
        else:
            print("legal zone computation: the zone engine is not available "
                  f"(pick-up frame {pickup * 1000:.1f} ms)")
        pygame.display.quit()
    return 0


def _frames(app: App, points: list[tuple[float, float]]) -> list[float]:
    """Post one pointer motion per frame; the time of each frame (events and drawing), ms."""
    times = []
    for pos in points:
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0),
                                             buttons=(1, 0, 0)))
        t = time.perf_counter()
        app.step()
        times.append((time.perf_counter() - t) * 1000)
    return times


def _summary(times_ms: list[float]) -> str:
    xs = sorted(times_ms[10:] or times_ms)
    return (f"median {statistics.median(xs):.2f} ms, p95 {xs[int(0.95 * (len(xs) - 1))]:.2f} ms "
            f"over {len(xs)} frames")


def bench_t9a(frames: int, size: tuple[int, int]) -> int:
    """Frame time while dragging the knights of t9a-lines straight, then wheeling them."""
    state = load_scenario(shipped("t9a-lines.toml"))
    with tempfile.TemporaryDirectory() as tmp:
        app = App(state, save_path=Path(tmp) / "bench.save.toml", size=size,
                  saver=save_scenario)
        app.step()
        while app.state.battle.step != "move-units":
            app.apply({"do": "next"})
        out = app.apply({"do": "select", "unit": "knights", "move": "advance"})
        if not out.ok:
            print(f"select refused: {out.reasons}", file=sys.stderr)
            return 1
        tool = app.ctrl.blocks
        assert tool is not None
        vp = app.ctrl.viewport
        g = app.rules.block_geom(app.state.unit("knights"))  # type: ignore[arg-type]
        front = vp.to_px(*g.to_world(0.3, g.depth / 2 - 0.05))
        t0 = time.perf_counter()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=front, button=1))
        app.step()
        pickup = (time.perf_counter() - t0) * 1000
        if tool.drag is None:
            print("the pick-up did not start a block drag", file=sys.stderr)
            return 1
        span = vp.length(10.0)
        pts = [(front[0], front[1] - span * abs(math.sin(math.pi * k / 90)))
               for k in range(frames)]
        straight = _frames(app, pts)
        previews = tool.preview_calls
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=front, button=1))
        app.step()
        fl, fr = vp.to_px(*g.corners["fl"]), vp.to_px(*g.corners["fr"])
        t0 = time.perf_counter()
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=fl, button=1))
        app.step()
        wheel_pickup = (time.perf_counter() - t0) * 1000
        if tool.drag is None:
            print("the corner pick-up did not start a wheel", file=sys.stderr)
            return 1
        r = math.dist(fl, fr)
        pts = []
        for k in range(frames):
            a = math.radians(150.0 * abs(math.sin(math.pi * k / 120)))
            pts.append((fr[0] - r * math.cos(a), fr[1] - r * math.sin(a)))
        wheel = _frames(app, pts)
        print(f"board: {state.name} (t9a-2), {len(state.units)} blocks, window {size[0]}x{size[1]}")
        print(f"frame while dragging the knights' front edge: {_summary(straight)} "
              f"(target < 8 ms; {previews} rules previews, one per pointer motion)")
        print(f"frame while wheeling the knights: {_summary(wheel)}")
        print(f"pick-up of the front edge (straight ranges, 4 directions): {pickup:.1f} ms; "
              f"of a front corner (wheel range): {wheel_pickup:.1f} ms; once per manoeuvre, "
              f"never per frame (range computations: {tool.range_calls} straight, "
              f"{tool.wheel_calls} wheel)")
        pygame.display.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Small hand-built states for the view tests (no scenario files needed)."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pygame
from shapely.geometry import Point, Polygon

from tabletop.geometry.footprints import parse_base
from tabletop.state import Battle, Battlefield, GameState, Model, Player, Selection, Terrain, Unit
from tabletop.view.app import App


def small_state(*, selected: bool = True) -> GameState:
    """Two red models and one blue model on a 30" x 20" board, red's squad selected (normal)."""
    b32 = parse_base("32mm")
    squad = Unit("squad", "red", ("INFANTRY",), 6, 2, 6, 2,
                 (Model("s1", b32, at=(5.0, 10.0)), Model("s2", b32, at=(6.5, 10.0))),
                 name="Squad")
    foe = Unit("foe", "blue", ("INFANTRY",), 6, 1, 7, 2, (Model("f1", b32, at=(20.0, 10.0)),))
    sel = None
    if selected:
        sel = Selection(unit="squad", move="normal",
                        start=(("s1", (5.0, 10.0), 0.0), ("s2", (6.5, 10.0), 0.0)))
    return GameState(
        name="small", ruleset="wh40k-11e",
        battle=Battle(2, "red", "movement", step="move-units", selection=sel),
        players=(Player("red"), Player("blue")),
        battlefield=Battlefield(30.0, 20.0),
        terrain=(Terrain("wall", "dense", ((10, 4), (11, 4), (11, 8), (10, 8)), height=3.0),),
        objectives=((15.0, 15.0),),
        units=(squad, foe),
    )


class DiscZone:
    """A stand-in legal zone: a disc of ``radius`` about ``centre`` (for the controller tests)."""

    def __init__(self, centre: tuple[float, float], radius: float) -> None:
        self.centre = centre
        self.max_distance = radius
        self.geometry: Polygon = Point(centre).buffer(radius, quad_segs=32)

    def contains(self, x: float, y: float) -> bool:
        return bool(self.geometry.covers(Point(x, y)))

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        from shapely.ops import nearest_points

        p = nearest_points(self.geometry, Point(x, y))[0]
        return (p.x, p.y)

    def path_to(self, x: float, y: float) -> tuple[list[tuple[float, float]], float]:
        import math

        return [self.centre, (x, y)], math.dist(self.centre, (x, y))


def post(app: App, kind: int, **kw: object) -> None:
    """Post one pygame event to the window and run one step of its loop."""
    pygame.event.post(pygame.event.Event(kind, **kw))
    app.step()


def roll(app: App) -> list[str]:
    """Answer the window's "Roll dice?" question with Enter; what it said it would roll."""
    d = app.dialog
    assert d is not None and d.purpose == "dice", (d, app.message)
    said = list(d.lines)
    key(app, pygame.K_RETURN)
    return said


def drag(app: App, a: tuple[float, float], b: tuple[float, float], *, steps: int = 6,
         mod: int = 0) -> None:
    """Drag with the left button from board point ``a`` to ``b`` (inches)."""
    vp = app.ctrl.viewport
    pa, pb = vp.to_px(*a), vp.to_px(*b)
    post(app, pygame.MOUSEBUTTONDOWN, pos=pa, button=1, mod=mod)
    for k in range(1, steps + 1):
        t = k / steps
        post(app, pygame.MOUSEMOTION, pos=(pa[0] + (pb[0] - pa[0]) * t,
                                          pa[1] + (pb[1] - pa[1]) * t),
             rel=(0, 0), buttons=(1, 0, 0))
    post(app, pygame.MOUSEBUTTONUP, pos=pb, button=1)


def click(app: App, at: tuple[float, float], button: int = 1) -> None:
    """Click board point ``at`` (inches)."""
    p = app.ctrl.viewport.to_px(*at)
    post(app, pygame.MOUSEBUTTONDOWN, pos=p, button=button)
    post(app, pygame.MOUSEBUTTONUP, pos=p, button=button)


def key(app: App, k: int, mod: int = 0) -> None:
    """Press key ``k`` (with modifier keys ``mod``) in the window."""
    post(app, pygame.KEYDOWN, key=k, mod=mod, unicode="", scancode=0)


LR_AT = (3.4713656387665193, 15.995594713656388)
"""Where a normal move down the left edge of the demo left its Land Raider (facing 180)."""


def demo_land_raider(at: tuple[float, float] = LR_AT) -> GameState:
    """The shipped demo with the Land Raider selected for a normal move and staged at ``at``."""
    from tabletop.rulesets import apply_action
    from tabletop.scenario.io import load_scenario, shipped

    st = load_scenario(shipped("demo.toml"))
    for action in ({"do": "select", "unit": "land-raider", "move": "normal"},
                   {"do": "move", "model": "lr1", "path": [[at[0], at[1], 180.0]]}):
        out = apply_action(st, action)
        assert out.ok, out.reasons
        st = out.state
    return st


def panel_text(app: App, monkeypatch: Any) -> str:
    """The side panel's text as drawn now, its wrapped lines joined."""
    from tabletop.view import panel, render

    seen: list[str] = []
    real = render.text

    def spy(surface: pygame.Surface, s: str, pos: Any, **kw: Any) -> pygame.Rect:
        seen.append(s)
        return real(surface, s, pos, **kw)

    with monkeypatch.context() as m:
        m.setattr(render, "text", spy)
        panel.draw_panel(app.panel_view(), pygame.Surface((panel.PANEL_W, app.screen.get_height())))
    return " ".join(" ".join(seen).split())


@contextlib.contextmanager
def small_disk(folder: Path, kib: int = 512) -> Iterator[Path | None]:
    """A tmpfs of ``kib`` KiB mounted on ``folder`` (made here), unmounted after; ``None``
    when this process may not mount one (not root, no mount namespace)."""
    folder.mkdir(parents=True, exist_ok=True)
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={kib}k", "tmpfs",
                               str(folder)], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        yield None
        return
    if done.returncode != 0:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=30)


def fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte with one file (returned)."""
    filler = folder / "filler.bin"
    chunk = b"\0" * 4096
    with open(filler, "wb", buffering=0) as fh:
        try:
            while True:
                fh.write(chunk)
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
        try:
            while True:
                fh.write(b"\0")
        except OSError as exc:
            if exc.errno != errno.ENOSPC:
                raise
    assert os.statvfs(folder).f_bavail == 0
    return filler

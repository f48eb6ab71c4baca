"""Whole turns played in the real window, as a person plays them: ``tabletop play`` in a private
X server (Xvfb), driven with xdotool (pointer and keys only), nothing else touched. Used by the
suite (``tests/view/test_view_x11.py``) and by ``benchmarks/window_turns.py`` (which also takes
screenshots of each step, to look at).

- wh40k-11e, the shipped demo, both players: Red's battle-shocked Scout Squad falls back (the
  Desperate Escape dice asked first) by a Shift-drag of the whole unit; the Assault Terminators
  disembark from the Land Raider (a tactical disembark) and make their normal move by a
  Shift-drag that the Intercessors stop; the Bladeguard Veterans arrive from strategic reserves;
  the ruler from the Lieutenant to the Terminators; Ctrl+S; Space through the phases not
  simulated and Blue's Battle-shock step; Blue's Genestealers Shift-dragged until 2" from the
  scouts stops them, the Hormagaunts advance (dice asked); Ctrl+S; the window stopped by SIGTERM.
  Then a second session in the same folder: its Ctrl+S must not replace the first session's save
  (it saves beside it), and a save changed by another program makes the game unsaved again.
- t9a-2, ``t9a-lines``: the rally test (asked), the spearmen advance by their front edge, the
  knights march and wheel by a front corner, Space to Red's turn, the warband reforms; Ctrl+S;
  SIGTERM.

Each session's action log is replayed with ``tabletop apply --strict`` and must give the state
saved. Needs Xvfb and xdotool (Debian: xvfb, xdotool); screenshots ImageMagick's ``import``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any


def start_xvfb() -> tuple[subprocess.Popen[bytes], str] | None:
    """A private Xvfb on the first free display number from 90, or ``None``."""
    exe = shutil.which("Xvfb")
    if exe is None:
        return None
    for n in range(90, 140):
        if Path(f"/tmp/.X11-unix/X{n}").exists() or Path(f"/tmp/.X{n}-lock").exists():
            continue
        proc = subprocess.Popen([exe, f":{n}", "-screen", "0", "1600x1000x24", "-nolisten",
                                 "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(50):
            if Path(f"/tmp/.X11-unix/X{n}").exists():
                return proc, f":{n}"
            if proc.poll() is not None:
                break
            time.sleep(0.1)
        proc.kill()
    return None

def missing_tools() -> list[str]:
    """Which of the programs a session needs are not installed."""
    return [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]


@contextlib.contextmanager
def x_server() -> Iterator[str]:
    """A private Xvfb for the block (its display name); every window started in it, and the
    server, stopped at the end whatever happened."""
    xvfb = start_xvfb()
    if xvfb is None:
        raise RuntimeError("Xvfb did not start")
    try:
        yield xvfb[1]
    finally:
        for proc in OPEN:
            if proc.poll() is None:
                proc.kill()
                proc.wait(timeout=30)
        OPEN.clear()
        xvfb[0].terminate()
        xvfb[0].wait(timeout=30)


Pt = tuple[float, float]
OPEN: list[subprocess.Popen[bytes]] = []
"""Every window started (stopped at the end whatever happened)."""


class Window:
    """One ``tabletop play`` process in ``folder`` on ``display``, driven with xdotool; a mirror
    App (SDL's dummy driver, same size) of the state its action log holds finds where things
    are on the screen."""

    def __init__(self, name: str, folder: Path, display: str, size: tuple[int, int],
                 shots: Path | None, tag: str, pace: float = 1.0) -> None:
        self.pace = pace  # the waits a person leaves between actions, times this
        self.name, self.folder, self.size, self.shots, self.tag = name, folder, size, shots, tag
        self.env = {**os.environ, "DISPLAY": display}
        self.env.pop("SDL_VIDEODRIVER", None)
        self.env.pop("SDL_AUDIODRIVER", None)
        self.env.pop("SDL_NO_SIGNAL_HANDLERS", None)  # as a player's desktop starts it
        self.earlier = set(folder.glob("*.session-*.actions.json"))  # other sessions' logs
        exe = Path(sys.executable).with_name("tabletop")
        self.err = open(folder / f"{tag}.stderr", "w")
        self.proc = subprocess.Popen([str(exe), "play", name, "--size",
                                      f"{size[0]}x{size[1]}"], cwd=folder, env=self.env,
                                     stdout=subprocess.DEVNULL, stderr=self.err)
        OPEN.append(self.proc)
        self.n_shot = 0
        self.wid, self.origin = self._wait_window()
        self.pause(5.0)  # mapped is not drawn: the first frame comes after the scenario's layout
        self.settle()

    def pause(self, seconds: float) -> None:
        time.sleep(seconds * self.pace)

    def xdo(self, *args: str) -> str:
        done = subprocess.run(["xdotool", *args], env=self.env, capture_output=True, text=True,
                              timeout=60)
        return done.stdout.strip()

    def _wait_window(self) -> tuple[str, tuple[int, int]]:
        """This process's window (by its _NET_WM_PID: an earlier session's window may still be
        on the server a moment after its process ended) and where it is, once it is mapped."""
        for _ in range(240):
            if self.proc.poll() is not None:
                raise RuntimeError(f"tabletop play {self.name} stopped: {self._said()}")
            for wid in self.xdo("search", "--pid", str(self.proc.pid)).split():
                geo = self.xdo("getwindowgeometry", "--shell", wid)
                pos = dict(line.split("=", 1) for line in geo.split() if "=" in line)
                if "X" in pos and "Y" in pos:
                    return wid, (int(pos["X"]), int(pos["Y"]))
            time.sleep(0.25)
        raise RuntimeError("no window appeared in 60 s")

    def settle(self, timeout: float = 120.0) -> None:
        """Wait until the window has handled what was sent and rests (its CPU time still for
        half a second), as a person waits to see what a click did; the idle window's own work
        ahead (zones, the focused unit's threat) is waited out too."""
        tick = os.sysconf("SC_CLK_TCK")

        def cpu() -> float:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / tick

        end = time.monotonic() + timeout
        time.sleep(0.3)
        while time.monotonic() < end and self.proc.poll() is None:
            before = cpu()
            time.sleep(0.5)
            if cpu() - before < 0.03:
                return

    # -- the game as the log holds it -----------------------------------------------------
    def log(self) -> tuple[Path, Path] | None:
        logs = sorted(set(self.folder.glob("*.session-*.actions.json")) - self.earlier,
                      key=os.path.getmtime)
        if not logs:
            return None
        actions = logs[-1]
        return Path(str(actions).replace(".actions.json", ".start.toml")), actions

    def actions(self) -> list[dict[str, Any]]:
        self.settle()
        found = self.log()
        return [] if found is None else json.loads(found[1].read_text())

    def state(self) -> Any:
        from tabletop.rulesets import apply_actions
        from tabletop.scenario.io import load_scenario, shipped

        self.settle()
        found = self.log()
        if found is None:
            return load_scenario(shipped(self.name))
        start, actions = found
        state, results = apply_actions(load_scenario(start), json.loads(actions.read_text()))
        assert all(r.ok for r in results)
        return state

    def mirror(self) -> Any:
        """An App on the logged state, laid out as the window is (roster tab)."""
        import pygame

        from tabletop.scenario.io import save_scenario
        from tabletop.view.app import App

        app = App(self.state(), save_path=self.folder / "mirror.toml", size=self.size,
                  saver=save_scenario)
        app.tab = "roster"
        sel = app.state.battle.selection
        if sel is not None:  # the window shows the unit being moved (its list of models)
            app.ctrl.focus = sel.unit
        app.step()
        self._pg = pygame
        return app

    def at(self, app: Any, p: Pt) -> tuple[int, int]:
        """The screen point of board point ``p`` (inches)."""
        x, y = app.ctrl.viewport.to_px(*p)
        return round(x) + self.origin[0], round(y) + self.origin[1]

    def row(self, app: Any, kind: str, value: str) -> tuple[int, int]:
        """The screen point of the panel row ``kind``/``value``."""
        r = next(r for r in app.rows if r.kind == kind and r.value == value)
        return r.rect.centerx + self.origin[0], r.rect.centery + self.origin[1]

    def model(self, app: Any, mid: str) -> tuple[int, int]:
        return self.at(app, app.state.model(mid)[1].at)

    # -- a person's hands ----------------------------------------------------------------
    def click(self, p: tuple[int, int], wait: float = 1.0) -> None:
        self.xdo("mousemove", str(p[0]), str(p[1]), "click", "1")
        self.pause(wait)

    def key(self, *keys: str, wait: float = 1.2) -> None:
        self.xdo("mousemove", str(self.origin[0] + 300), str(self.origin[1] + self.size[1] - 5))
        for k in keys:
            self.xdo("key", k)
            self.pause(wait)

    def drag(self, a: tuple[int, int], b: tuple[int, int], *, shift: bool = False,
             shot: str | None = None) -> None:
        """Press at ``a``, move to ``b`` in steps, (a screenshot while held), release."""
        if shift:
            self.xdo("keydown", "shift")
        self.xdo("mousemove", str(a[0]), str(a[1]), "mousedown", "1")
        self.pause(0.6)
        for i in range(1, 9):
            self.xdo("mousemove", str(a[0] + (b[0] - a[0]) * i // 8),
                     str(a[1] + (b[1] - a[1]) * i // 8))
            self.pause(0.15)
        self.pause(1.0)
        if shot:
            self.shot(shot)
        self.xdo("mouseup", "1")
        self.pause(0.3)
        if shift:
            self.xdo("keyup", "shift")
        self.pause(1.0)

    def shot(self, what: str) -> Path | None:
        """A screenshot of the screen once the window rests (none without a folder for them:
        the window is waited for all the same)."""
        self.settle()
        if self.shots is None:
            return None
        self.n_shot += 1
        path = self.shots / f"{self.tag}-{self.n_shot:02d}-{what}.png"
        subprocess.run(["import", "-window", "root", str(path)], env=self.env, check=True,
                       timeout=60)
        return path

    def until(self, test: Callable[[Any], bool], step: Callable[[], None], what: str,
              tries: int = 12) -> Any:
        """Do ``step`` until the logged state passes ``test``."""
        for _ in range(tries):
            st = self.state()
            if test(st):
                return st
            step()
        raise AssertionError(f"{self.tag}: never reached {what}")

    def stop(self) -> str:
        """SIGTERM, as a session manager would; the line the window said."""
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(timeout=60)
        self.err.close()
        return self._said()

    def _said(self) -> str:
        """The last line the window wrote to its stderr."""
        lines = Path(self.err.name).read_text().strip().splitlines()
        return lines[-1] if lines else "(nothing)"


def replayed(folder: Path, log: tuple[Path, Path], save: Path) -> str:
    """Replay the session's log with ``tabletop apply --strict``; whether it gives ``save``."""
    from tabletop.scenario.io import load_scenario

    exe = Path(sys.executable).with_name("tabletop")
    out = folder / "replayed.toml"
    done = subprocess.run([str(exe), "apply", str(log[0]), str(log[1]), "--strict", "-o",
                           str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    same = load_scenario(out) == load_scenario(save)
    assert same, f"the replay of {log[1].name} differs from {save.name}"
    return done.stderr.strip().splitlines()[-1]


def changed(w: Window, st: Any, unit: str) -> bool:
    """Whether ``unit`` stands elsewhere (or otherwise) than when the session began."""
    from tabletop.scenario.io import load_scenario

    found = w.log()
    assert found is not None
    before, after = load_scenario(found[0]).unit(unit), st.unit(unit)
    return getattr(before, "models", None) != getattr(after, "models", None) or \
        getattr(before, "at", None) != getattr(after, "at", None) or \
        getattr(before, "files", None) != getattr(after, "files", None)


def space_on(w: Window, test: Callable[[Any], bool], what: str) -> Any:
    """Space (Enter for a question it asks) until the logged state passes ``test``."""
    def step() -> None:
        w.key("space")
        w.key("Return")  # a question (units still to move, dice): yes; otherwise nothing
    return w.until(test, step, what, tries=16)


def wh40k(folder: Path, display: str, size: tuple[int, int], shots: Path | None,
          pace: float = 1.0) -> None:
    w = Window("demo.toml", folder, display, size, shots, "wh40k", pace)
    w.shot("start")
    app = w.mirror()
    # Red: the Scout Squad falls back, the whole unit by one Shift-drag
    w.click(w.model(app, "sc1"))
    w.key("f")
    w.shot("dice-asked")
    w.key("Return", wait=2.0)
    w.shot("desperate-escape")
    app = w.mirror()
    sc = app.state.unit("scouts").models[0]
    w.drag(w.at(app, sc.at), w.at(app, (sc.at[0] + 0.3, sc.at[1] - 4.2)), shift=True,
           shot="scouts-shift-drag")
    w.key("Return", wait=2.0)
    st = w.state()
    assert st.battle.selection is None and changed(w, st, "scouts"), "the fall back"
    print("wh40k: Scout Squad fell back (Desperate Escape asked first), whole unit Shift-dragged")
    # the Assault Terminators disembark from the Land Raider, then make their normal move
    app = w.mirror()
    w.click(w.row(app, "unit", "assault-terminators"))
    w.shot("terminators-clicked")
    w.key("d")
    w.shot("disembark-area")
    app = w.mirror()
    for mid, p in zip(("at1", "at2", "at3", "at4", "at5"),
                      ((7.82, 3.91), (7.82, 5.83), (7.82, 7.74), (7.82, 9.77), (7.82, 11.57)),
                      strict=True):
        w.drag(w.row(app, "place", mid), w.at(app, p))
    w.shot("disembark-staged")
    w.key("Return", wait=2.0)
    app = w.mirror()
    assert app.state.unit("assault-terminators").location == "battlefield", "the disembark"
    w.click(w.model(app, "at1"))
    w.key("n")
    a = w.model(app, "at1")
    w.drag(a, (a[0] + 80, a[1] + 10), shift=True, shot="terminators-stopped")
    w.key("Return", wait=2.0)
    print("wh40k: Assault Terminators disembarked (tactical), then Shift-dragged until the "
          "Intercessors stopped them")
    # the Bladeguard Veterans arrive from strategic reserves
    app = w.mirror()
    w.click(w.row(app, "unit", "bladeguard"))
    w.key("i")
    w.shot("reserves-area")
    app = w.mirror()
    for mid, p in zip(("bg1", "bg2", "bg3"), ((2.34, 14.55), (2.34, 16.47), (2.34, 18.38)),
                      strict=True):
        w.drag(w.row(app, "place", mid), w.at(app, p))
    w.key("Return", wait=2.0)
    assert w.state().unit("bladeguard").location == "battlefield", "the ingress"
    print("wh40k: Bladeguard Veterans arrived from strategic reserves")
    # the ruler, base to base; then Ctrl+S
    app = w.mirror()
    w.key("m")
    w.drag(w.model(app, "lt1"), w.model(app, "term1"), shot="ruler")
    w.key("m", "ctrl+s")
    save = folder / "demo.save.toml"
    assert save.is_file(), "Ctrl+S"
    # Space through Shooting, Charge and Fight (not simulated) to Blue's Move Units step
    space_on(w, lambda s: s.battle.active_player == "blue" and s.battle.step == "move-units",
             "Blue's Move Units step")
    w.shot("blue-move-units")
    app = w.mirror()
    w.click(w.model(app, "gs1"))
    w.key("n")
    g = w.model(app, "gs1")
    w.drag(g, (g[0], g[1] - 90), shift=True, shot="genestealers-stopped")
    w.key("Return", wait=2.0)
    w.click(w.model(app, "hg1"))
    w.key("a")
    w.shot("advance-asked")
    w.key("Return", wait=2.0)
    h = w.model(app, "hg1")
    w.drag(h, (h[0] - 60, h[1] - 70), shift=True, shot="hormagaunts-advance")
    w.key("Return", wait=2.0)
    st = w.state()
    assert changed(w, st, "genestealers") and changed(w, st, "hormagaunts"), "Blue's moves"
    print("wh40k: Blue's Genestealers Shift-dragged until 2\" from the scouts, Hormagaunts "
          "advanced (dice asked)")
    space_on(w, lambda s: s.battle.round == 3, "round 3")
    w.shot("round-3")
    w.key("ctrl+s")
    note = w.stop()
    assert "nothing unsaved" in note, note
    print(f"wh40k: stopped by SIGTERM: {note.split(': ', 1)[1]}")
    first = w.log()
    assert first is not None
    print(f"wh40k: {replayed(folder, first, save)}; the replay is the save")
    # a second session: its Ctrl+S keeps the first one's save; another program's change is seen
    before = hashlib.sha256(save.read_bytes()).hexdigest()
    w2 = Window("demo.toml", folder, display, size, shots, "wh40k-2", pace)
    app = w2.mirror()
    w2.click(w2.model(app, "sc1"))
    w2.key("s", "ctrl+s")
    w2.shot("replace-asked")
    w2.key("Return", wait=2.0)  # the default: save beside it
    assert w2.actions(), "the second session's move"
    beside = folder / "demo-2.save.toml"
    assert hashlib.sha256(save.read_bytes()).hexdigest() == before, "the first save replaced"
    assert beside.is_file(), "no save beside the first one"
    other = folder / "other.toml"
    shutil.copy(save, other)
    os.replace(other, beside)  # another program saves over this window's save
    time.sleep(3)
    w2.key("g", "g")  # anything: the idle window looks at its save
    w2.shot("changed-alert")
    note = w2.stop()
    assert "with unsaved changes" in note and f"-o {beside.resolve()}`" not in note, note
    print("wh40k, second session: Ctrl+S saved beside the first session's save "
          f"({beside.name}); after another program replaced it: {note.split(': ', 1)[1][:90]}...")


def t9a(folder: Path, display: str, size: tuple[int, int], shots: Path | None,
        pace: float = 1.0) -> None:
    w = Window("t9a-lines.toml", folder, display, size, shots, "t9a", pace)
    w.shot("start")
    w.key("h")
    w.shot("help")
    w.key("h")
    space_on(w, lambda s: s.battle.step == "move-units", "the Move Units step")
    w.shot("rallied-or-fled")
    app = w.mirror()
    spear = app.state.unit("spearmen")
    g = app.rules.block_geom(spear)
    front = w.at(app, g.to_world(0.0, g.depth / 2 - 0.05))
    w.click(w.at(app, spear.at))
    w.key("a")
    w.drag(front, (front[0], front[1] - round(app.ctrl.viewport.length(3.0))),
           shot="spearmen-advance")
    w.key("Return", wait=2.0)
    knights = app.state.unit("knights")
    g = app.rules.block_geom(knights)
    w.click(w.at(app, knights.at))
    w.key("q")
    fl = w.at(app, g.corners["fl"])
    w.drag(fl, (fl[0] + 20, fl[1] - 75), shot="knights-wheel")
    w.key("Return", wait=2.0)
    st = w.state()
    assert changed(w, st, "spearmen") and changed(w, st, "knights"), "Blue's moves"
    print("t9a: spearmen advanced by their front edge, knights marched and wheeled by a corner")
    space_on(w, lambda s: s.battle.active_player == "red" and s.battle.step == "move-units",
             "Red's Move Units step")
    app = w.mirror()
    w.click(w.at(app, app.state.unit("warband").at))
    w.key("f", "bracketright")
    w.shot("warband-reform")
    w.key("Return", wait=2.0)
    assert changed(w, w.state(), "warband"), "the reform"
    print("t9a: Red's warband reformed to 6 files")
    w.key("ctrl+s")
    note = w.stop()
    assert "nothing unsaved" in note, note
    log = w.log()
    assert log is not None
    print(f"t9a: {replayed(folder, log, folder / 't9a-lines.save.toml')}; the replay is the "
          "save")

"""``tabletop play [FILE]``: the window (drag models, see their legal zones, commit moves)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from tabletop.cli._output import emit

ORDER = 10

NO_DISPLAY = ("tabletop play: no display found (DISPLAY and WAYLAND_DISPLAY are not set); "
              "without a screen use `tabletop show FILE -o board.png` for a picture, "
              "`tabletop zone` for legal zones and `tabletop apply` to play actions")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``play`` sub-command."""
    p = subparsers.add_parser(
        "play",
        help="open the window on a scenario (default: the shipped demo)",
        description="Open a window on a scenario: pick a unit and a move type, drag its models "
        "inside their exact legal zones, commit the move. Ctrl+S saves beside FILE as "
        "NAME.save.toml (a file already named *.save.* is saved in place; the shipped demo in "
        "the current folder), and asks before replacing a file this window did not write; "
        "Ctrl+Shift+S saves as another file; each session also writes its own action log "
        "beside the save (NAME.save.session-N.*), which tabletop apply replays. "
        "Without FILE: the demo shipped with the package; the shipped scenarios are played by "
        "name, e.g. t9a-lines.toml (--list, or tabletop scenarios, lists them with the game "
        "each plays). Keys: H in the window.",
    )
    p.add_argument("file", metavar="FILE", nargs="?", help="scenario file (.toml or .json), "
                   "or the name of a shipped one (demo.toml, t9a-lines.toml, ...)")
    p.add_argument("--list", action="store_true",
                   help="list the shipped scenarios (as tabletop scenarios does) and exit")
    p.add_argument("--save", metavar="PATH",
                   help="where Ctrl+S saves (default: NAME.save.toml beside FILE)")
    p.add_argument("--size", metavar="WxH", default="1280x820", help="window size in pixels")
    p.set_defaults(func=run)


def _has_display() -> bool:
    if os.environ.get("SDL_VIDEODRIVER") or os.environ.get("SDL_VIDEO_DRIVER"):
        return True
    if sys.platform.startswith("linux") or "bsd" in sys.platform:
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def default_save_path(opened: Path, *, shipped: bool = False, cwd: Path | None = None) -> Path:
    """Where Ctrl+S saves a game opened from ``opened``: ``NAME.save.SUFFIX`` beside it, or the
    file itself when it is already a save (never ``NAME.save.save``); a scenario shipped inside
    the package is saved in the current folder instead."""
    folder = (cwd or Path.cwd()) if shipped else opened.parent
    suffix = opened.suffix if opened.suffix.lower() in (".toml", ".json") else ".toml"
    stem = opened.stem if opened.suffix.lower() in (".toml", ".json") else opened.name
    if stem.endswith(".save"):
        return folder / f"{stem}{suffix}"
    return folder / f"{stem}.save{suffix}"


def run(args: argparse.Namespace) -> int:
    """Load the scenario and run the window until it is closed."""
    from tabletop.errors import UserError
    from tabletop.scenario.io import load_scenario, save_scenario, shipped

    if args.list:
        from tabletop.cli.scenarios import lines

        emit(lines())
        return 0
    path = Path(args.file) if args.file else shipped("demo.toml")
    is_shipped = path.resolve().parent == shipped("demo.toml").resolve().parent
    state = load_scenario(path)
    try:
        w, h = (int(v) for v in str(args.size).lower().split("x"))
    except ValueError:
        raise UserError(f"--size: {args.size!r} is not WxH, e.g. 1280x820") from None
    if not (400 <= w <= 10000 and 300 <= h <= 10000):
        raise UserError(f"--size: {w}x{h} is out of range (400x300 to 10000x10000)")
    save = Path(args.save) if args.save else default_save_path(path, shipped=is_shipped)
    if not _has_display():
        emit(NO_DISPLAY, err=True)
        return 2
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from tabletop.geometry.engine import describe, engine_name
    from tabletop.view.app import NoDisplay, play

    if engine_name() == "python":
        emit(f"tabletop play: {describe()}", err=True)

    try:
        return play(state, save_path=save, size=(w, h), saver=save_scenario,
                    opened=path.resolve())
    except NoDisplay as exc:
        emit(f"tabletop play: cannot open a window ({exc}); {NO_DISPLAY.split('; ', 1)[1]}",
             err=True)
        return 2

"""Play a whole turn of each ruleset in the real window, as a person would, and check nothing is
lost, with screenshots of each step to look at: the sessions of ``tests/support/window_play.py``
(which the suite runs too, without screenshots), in a private X server (Xvfb), driven with
xdotool (pointer and keys only). The script prints what it checked and where the screenshots
are; open them to look.

    .venv/bin/python benchmarks/window_turns.py [--out DIR] [--size 1500x950]

Needs Xvfb, xdotool and ImageMagick's ``import`` (Debian: xvfb, xdotool, imagemagick).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # this process's own App: a mirror, no display
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from support.window_play import missing_tools, t9a, wh40k, x_server


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, help="folder for the screenshots (default: a new one)")
    ap.add_argument("--size", default="1500x950")
    args = ap.parse_args(argv)
    missing = missing_tools() + ([] if shutil.which("import") else ["import (ImageMagick)"])
    if missing:
        print(f"window_turns: not installed: {', '.join(missing)}", file=sys.stderr)
        return 2
    w, h = (int(v) for v in args.size.split("x"))
    shots = args.out or Path(tempfile.mkdtemp(prefix="window-turns-"))
    shots.mkdir(parents=True, exist_ok=True)
    with x_server() as display:
        for play in (wh40k, t9a):
            folder = shots / play.__name__  # the saves, the logs, what the windows said
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir()
            play(folder, display, (w, h), shots)
    print(f"screenshots: {shots} (the games' folders beside them)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

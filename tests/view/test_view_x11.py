"""Whole turns in the real window, as a person plays them: ``tabletop play`` in a private X
server (Xvfb), driven by xdotool's pointer and keys, both players of a wh40k-11e turn and a
t9a-2 turn; each session's save must be what its action log replays to, a second session must
not replace the first one's save, and a save another program changed makes the game unsaved
again (``tests/support/window_play.py`` says every step). CI installs Xvfb and xdotool."""

from __future__ import annotations

from pathlib import Path

import pytest

from support import window_play

pytestmark = [
    pytest.mark.slow,
    pytest.mark.processes,
    pytest.mark.skipif(bool(window_play.missing_tools()),
                       reason=f"not installed: {', '.join(window_play.missing_tools())} "
                              "(Debian: apt-get install -y xvfb xdotool)"),
]

SIZE = (1500, 950)
PACE = 0.35  # a quick player: the window is waited for until it rests after each action


def test_a_wh40k_turn_of_both_players_then_a_second_session_on_the_same_save(
        tmp_path: Path) -> None:
    with window_play.x_server() as display:
        window_play.wh40k(tmp_path, display, SIZE, None, pace=PACE)


def test_a_t9a_turn_of_blocks(tmp_path: Path) -> None:
    with window_play.x_server() as display:
        window_play.t9a(tmp_path, display, SIZE, None, pace=PACE)

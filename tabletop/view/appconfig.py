"""Sizes, colours, timings and the signals of the window (:mod:`tabletop.view.app`)."""

from __future__ import annotations

import signal

import pygame

STATUS_H = 40
"""Height of the status line: two lines of text (:mod:`tabletop.view.notices`)."""
BAD_RED = (255, 110, 110)
OK_GREEN = (120, 210, 120)
ACCENT = (255, 226, 110)

LEGEND_W = 560
"""Widest line of the threat legend, pixels (longer ones wrap)."""

WAIT_MS = 500
"""How long the idle loop sleeps waiting for an event (nothing is drawn while it waits)."""

WATCH_S = 1.0
"""How often, at most, the idle window looks whether another process changed its save."""

THREAT_AHEAD_AFTER_S = 1.0
"""The focused unit's threat is computed ahead (so that T finds it ready) only once the pointer
and keys have rested this long: it takes up to a second of CPU, during which a click or a key
waits, and a person moving the mouse or clicking through units is about to act."""

MAX_MESSAGES = 500
"""Status messages kept for the Messages tab (the oldest go first)."""

SCROLL_STEP = 40

INPUT_EVENTS = (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEWHEEL,
          pygame.KEYDOWN)

STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP", "SIGINT")
                     if hasattr(signal, name))
"""Signals that stop the window at once, without asking (a signal is not a person at the
keyboard; the session's action log already holds every action). SDL would turn them into a
quit event, which asks about unsaved changes, so its handlers are kept out."""

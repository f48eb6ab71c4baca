"""The pygame-ce view: off-screen pictures and the interactive window.

This is the only package of ``tabletop`` that imports pygame. :mod:`tabletop.view.viewport` and
:mod:`tabletop.view.controller` are pure and import nothing from pygame, so they can be tested
without SDL.
"""

from __future__ import annotations

import os

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

"""Viewport arithmetic (no SDL)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tabletop.view.viewport import MAX_SCALE, MIN_SCALE, Viewport


def test_round_trip_and_length() -> None:
    v = Viewport(scale=12.5, ox=30.0, oy=-7.0)
    assert v.to_px(2.0, 4.0) == (55.0, 43.0)
    assert v.to_inches(55.0, 43.0) == (2.0, 4.0)
    assert v.length(2.0) == 25.0


def test_fit_centres_the_battlefield() -> None:
    v = Viewport.fit(60.0, 44.0, (0, 0, 1000, 1000), margin=20)
    assert v.scale == pytest.approx(960 / 60)
    x0, y0 = v.to_px(0, 0)
    x1, y1 = v.to_px(60, 44)
    assert x0 == pytest.approx(20.0)
    assert x1 == pytest.approx(980.0)
    assert (y0 + y1) / 2 == pytest.approx(500.0)  # centred vertically


@given(st.floats(0.2, 5.0), st.floats(0, 1200), st.floats(0, 800))
def test_zoom_keeps_the_point_under_the_cursor(factor: float, px: float, py: float) -> None:
    v = Viewport(scale=16.0, ox=10.0, oy=20.0)
    before = v.to_inches(px, py)
    z = v.zoomed(factor, (px, py))
    assert MIN_SCALE <= z.scale <= MAX_SCALE
    after = z.to_inches(px, py)
    assert after[0] == pytest.approx(before[0], abs=1e-9)
    assert after[1] == pytest.approx(before[1], abs=1e-9)


def test_zoom_is_clamped_and_pan_moves_pixels() -> None:
    v = Viewport(scale=16.0)
    assert v.zoomed(1e6, (0, 0)).scale == MAX_SCALE
    assert v.zoomed(1e-6, (0, 0)).scale == MIN_SCALE
    p = v.panned(5, -3)
    assert p.to_px(1, 1) == (21.0, 13.0)


def test_viewport_and_controller_do_not_import_pygame() -> None:
    import subprocess

    code = ("import sys; import tabletop.view.viewport, tabletop.view.controller; "
            "assert 'pygame' not in sys.modules, 'pygame imported'")
    subprocess.run([sys.executable, "-c", code], check=True)

"""The ruler (M) measures as players do: it snaps to bases and gives the closest-points distance
between two models, a model and terrain, a base and a point; checked against an independent
measure (densely sampled outlines)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tabletop.geometry.footprints import parse_base
from tabletop.state import Model
from tabletop.view.controller import Controller
from tabletop.view.ruler import SNAP_PX
from tabletop.view.viewport import Viewport

from support.view_support import small_state

VP = Viewport(scale=20.0, ox=0.0, oy=0.0)
R32 = 32 / 25.4 / 2


def ruler(c: Controller, a: tuple[float, float], b: tuple[float, float]):  # type: ignore[no-untyped-def]
    c.pointer_down(VP.to_px(*a))
    c.pointer_move(VP.to_px(*b))
    c.pointer_up(VP.to_px(*b))
    assert c.ruler is not None
    return c.ruler


def controller(**models: Model) -> Controller:
    st = small_state(selected=False)
    for m in models.values():
        st = st.with_model(m)
    c = Controller(st, VP)
    c.key("m")
    return c


def sampled(m: Model, n: int = 4000) -> np.ndarray:
    """Points along ``m``'s true base outline (the analytic circle or ellipse, the rectangle's
    sides), placed as the model stands: an outline the ruler never sees."""
    from shapely import affinity
    from shapely.geometry import MultiPoint

    from tabletop.geometry.footprints import Oval, Rect, Round, mm

    assert m.at is not None
    t = np.linspace(0, 2 * math.pi, n, endpoint=False)
    base = m.base
    if isinstance(base, Round):
        local = np.column_stack([base.radius * np.cos(t), base.radius * np.sin(t)])
    elif isinstance(base, Oval):
        local = np.column_stack([mm(base.width_mm) / 2 * np.cos(t),
                                 mm(base.length_mm) / 2 * np.sin(t)])
    else:
        assert isinstance(base, Rect)
        hw, hd = mm(base.frontage_mm) / 2, mm(base.depth_mm) / 2
        corners = np.array([(-hw, -hd), (hw, -hd), (hw, hd), (-hw, hd), (-hw, -hd)])
        s = np.linspace(0, 1, n // 4, endpoint=False)[:, None]
        local = np.vstack([corners[i] + (corners[i + 1] - corners[i]) * s for i in range(4)])
    pts = affinity.rotate(MultiPoint(local), m.facing, origin=(0.0, 0.0))
    return np.asarray([(p.x + m.at[0], p.y + m.at[1]) for p in pts.geoms])


def closest(a: np.ndarray, b: np.ndarray) -> float:
    """The smallest distance between two point sets (in chunks)."""
    best = math.inf
    for i in range(0, len(a), 500):
        d = np.hypot(a[i:i + 500, None, 0] - b[None, :, 0], a[i:i + 500, None, 1] - b[None, :, 1])
        best = min(best, float(d.min()))
    return best


def test_a_press_near_a_base_snaps_to_it_and_measures_base_to_base() -> None:
    c = controller()
    snap = (SNAP_PX - 2) / VP.scale  # inches: within the snap, outside the base
    r = ruler(c, (5.0 - R32 - snap, 10.0), (20.0, 10.0 + R32 + snap))
    assert (r.a_model, r.b_model) == ("s1", "f1")
    assert r.distance == pytest.approx(15.0 - 2 * R32, abs=1e-9)
    assert r.label.endswith("base to base")
    # the line is drawn between the closest points, on each base's edge
    assert math.dist(r.a, (5.0, 10.0)) == pytest.approx(R32)
    assert math.dist(r.b, (20.0, 10.0)) == pytest.approx(R32)
    # far from any base: point to point
    r = ruler(c, (3.0, 2.0), (3.0, 5.0))
    assert r.a_model is None and r.distance == pytest.approx(3.0) and r.label == '3.000"'


def test_base_to_terrain_and_base_to_a_point() -> None:
    c = controller()
    r = ruler(c, (5.0, 10.0), (10.5, 6.0))  # s1 to the wall (x 10-11, y 4-8)
    expected = math.dist((5.0, 10.0), (10.0, 8.0)) - R32
    assert r.distance == pytest.approx(expected, abs=1e-9)
    assert "base to terrain wall" in r.label
    r = ruler(c, (10.5, 6.0), (5.0, 10.0))  # from the terrain to the model: the same
    assert r.distance == pytest.approx(expected, abs=1e-9)
    r = ruler(c, (5.0, 10.0), (5.0, 15.0))  # from the base's edge to where the pointer is
    assert r.distance == pytest.approx(5.0 - R32) and r.label.endswith("from the base")


@pytest.mark.parametrize("base", ["oval 90x52mm", "rect 25x50mm", "60mm"])
def test_closest_points_against_dense_outlines(base: str) -> None:
    b = parse_base(base)
    big = Model("s2", b, at=(9.0, 13.0), facing=35.0)
    c = controller(s2=big)
    r = ruler(c, (5.0, 10.0), (9.0, 13.0))  # s1 (32 mm) to s2
    assert (r.a_model, r.b_model) == ("s1", "s2")
    dense = closest(sampled(c.state.model("s1")[1]), sampled(big))
    # the sampled outlines lie on the true ones: their distance is the true one plus at most
    # the sampling's spacing
    assert r.distance <= dense + 1e-9
    assert dense - r.distance < 2e-3
    # the drawn ends are on the two outlines, as far apart as the reading
    assert math.dist(r.a, r.b) == pytest.approx(r.distance, abs=1e-4)


def test_the_same_model_at_both_ends_measures_from_its_base() -> None:
    c = controller()
    r = ruler(c, (5.0, 10.0), (5.1, 10.1))  # inside its own base: 0 from it
    assert r.a_model == "s1" and r.b_model is None and r.distance == 0.0
    assert r.label.endswith("from the base")


def test_no_hover_card_over_the_reading_and_the_hover_follows_the_end(app_factory,  # type: ignore[no-untyped-def]
                                                                      monkeypatch) -> None:
    """Measured from the Lieutenant to a Terminator in the window: the reading stays in sight
    (no model's hover card is drawn while the ruler is on), and the hover is the model where
    the ruler ended, not the one it began on."""
    import pygame

    from tabletop.scenario.io import load_scenario, shipped

    from support.view_support import drag, key

    app = app_factory(load_scenario(shipped("demo.toml")))
    key(app, pygame.K_m)
    a, b = app.state.model("lt1")[1].at, app.state.model("term1")[1].at
    drag(app, a, b)
    assert app.ctrl.ruler is not None and "base to base" in app.ctrl.ruler.label
    assert app.ctrl.hover == "term1"
    cards: list[object] = []
    monkeypatch.setattr(app, "_draw_hover",
                        lambda mid: cards.append(mid) or pygame.Rect(0, 0, 0, 0))
    app.dirty = True
    app.step()
    assert not cards
    key(app, pygame.K_m)  # the ruler off: the card is back
    assert cards and set(cards) == {"term1"}

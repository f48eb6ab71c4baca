"""Two engines, one answer: the same zone through the Python engine (the reference) and the
native one.

Stated tolerance (docs: exactness and speed): the two zones differ by at most :data:`REL` of
the zone's area (at least 1e-4 sq in) in their symmetric difference; where the native zone
holds area the Python one does not, farther than EPS from it, that area is still legal (a
point of every such part has a witness path that ``validate_path`` accepts), and a native
witness to points across the zone is accepted too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
import shapely
from shapely.geometry.base import BaseGeometry

from tabletop import Zone, legal_zone, validate_path, zones
from tabletop.geometry import engine
from tabletop.geometry.tolerance import EPS
from tabletop.state import GameState

REL = 1e-4
"""Largest symmetric difference of the two zones, a fraction of the zone's area."""


@contextmanager
def on_engine(name: str) -> Iterator[None]:
    """Every zone inside on the engine ``name`` (caches cleared on the way in and out)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(engine.ENV, name)
        zones.clear_caches()
        yield
    zones.clear_caches()


def _parts(g: BaseGeometry) -> list[BaseGeometry]:
    return [p for p in shapely.get_parts(g) if p.area > 1e-9]


def _witnessed(state: GameState, model: str, move: str, zone: Zone, x: float, y: float,
               **kw: object) -> bool:
    path = zone.path_to(x, y)
    if path is None:
        return False
    return validate_path(state, model, move, path.points, **kw).legal  # type: ignore[arg-type]


def same_zone_on_both_engines(state: GameState, model: str, move: str,
                              step: float | None = None, **kw: object) -> None:
    """Assert that both engines give ``model``'s zone (``step``: a turning mover's facing
    step) within the stated tolerance (module docstring); skips where the native core is not
    built."""
    if engine.native_module() is None:
        pytest.skip(engine.native_problem())
    at = {} if step is None else {"step": step}
    with on_engine("python"):
        ref = legal_zone(state, model, move, **at, **kw)  # type: ignore[arg-type]
    with on_engine("native"):
        got = legal_zone(state, model, move, **at, **kw)  # type: ignore[arg-type]
        a, b = ref.geometry, got.geometry
        sym = a.symmetric_difference(b).area
        assert sym <= REL * max(1.0, a.area), (model, move, sym, a.area)
        # native-only area farther than EPS from the reference zone is legal: a witness the
        # path check accepts (closer, the grid's rounding of 1.5e-7" at most: slivers of 1e-9
        # sq in along the grown obstacles' edges)
        for part in _parts(b.difference(a.buffer(EPS))):
            p = part.representative_point()
            assert _witnessed(state, model, move, got, p.x, p.y, **kw), (model, p)
        # native witnesses across the zone
        if not b.is_empty:
            rng = np.random.default_rng(7)
            x0, y0, x1, y1 = b.bounds
            pts = shapely.points(rng.uniform(x0, x1, 60), rng.uniform(y0, y1, 60))
            inside = list(pts[shapely.contains(b, pts)])[:8]
            for p in inside:
                assert _witnessed(state, model, move, got, p.x, p.y, **kw), (model, p)

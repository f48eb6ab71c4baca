"""``zones.clear_caches`` forgets every zone input kept so far: a benchmark's cold zone is then
made as the first zone of a new program makes it (the figures of `benchmarks/zones.py` say
"every cache cleared")."""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace

import pytest

import tabletop.geometry
import tabletop.zones
from tabletop import legal_zone, zones
from tabletop.geometry import engine

from support import hostile

KEPT = {
    # what depends on no scenario nor base, made in microseconds: kept on purpose
    ("tabletop.geometry.cspace", "period"),  # a footprint's period of turning
    ("tabletop.geometry.engine", "_load"),  # the compiled module itself
    ("tabletop.geometry.footprints", "_unit_polygon"),  # cos and sin of n angles
    ("tabletop.geometry.turning", "nearly_round"),  # one comparison of a footprint's sides
}


def _caches() -> dict[tuple[str, str], object]:
    out: dict[tuple[str, str], object] = {}
    for pkg in (tabletop.geometry, tabletop.zones):
        for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            mod = importlib.import_module(info.name)
            for name, obj in vars(mod).items():
                if hasattr(obj, "cache_info") and getattr(obj, "__module__", None) == info.name:
                    out[info.name, name] = obj
    return out


@pytest.mark.parametrize("which", ["python", "native"])
def test_clear_caches_forgets_every_zone_input(monkeypatch: pytest.MonkeyPatch,
                                               which: str) -> None:
    if which == "native" and engine.native_module() is None:
        pytest.skip(engine.native_problem())
    monkeypatch.setenv(engine.ENV, which)
    caches = _caches()
    # (what other tests left kept, such as a threat's maps, is not this test's)
    for c in caches.values():
        c.cache_clear()  # type: ignore[attr-defined]
    # a turning unit (its first zone and its next model's) and a round model
    st = hostile.turning_state("demo.toml", "out1", None, None, None)
    assert st is not None
    legal_zone(st, "out1", "normal")
    legal_zone(replace(st), "out2", "normal")
    st2 = hostile.shipped_state("demo.toml")
    m = next(m for u in st2.units for m in u.models if m.at)
    legal_zone(st2, m.id, "normal")
    filled = {k for k, c in caches.items() if c.cache_info().currsize}  # type: ignore[attr-defined]
    assert ("tabletop.geometry.cspace", "pieces_at") in filled
    zones.clear_caches()
    left = {k for k, c in caches.items() if c.cache_info().currsize}  # type: ignore[attr-defined]
    assert left <= KEPT, sorted(left - KEPT)

"""Visual regression of legal move zones: the catalogue in tests/zones/ against tests/goldens/.

Three tiers per case (see tests/zone_goldens.py): the geometry as text (exact), the zone layer
picture (pixel for pixel) and, for a few cases, the full board picture (at most
``FULL_MAX_PIXELS`` pixels may differ). ``pytest --update-goldens`` writes goldens; nothing else
does. Failure artefacts and an HTML page go to ``zone-failures/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import shapely
import zone_goldens as zg

pytest.importorskip("tabletop.rules.zones", reason="the zone engine has not landed yet")

CASES = zg.all_cases()
PICTURE_CASES = tuple(c for c in CASES if c.picture)


def _ids(cases: tuple[zg.ZoneCase, ...]) -> list[str]:
    return [c.name for c in cases]


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


def _run(case: zg.ZoneCase, tier: str, update: bool) -> None:
    out = zg.check(case, tier, update=update)
    assert out.ok, out.message


# -- the catalogue itself -------------------------------------------------------------------------
def test_catalogue_has_at_least_40_cases_with_one_line_descriptions() -> None:
    assert len(CASES) >= 40
    names = [c.name for c in CASES]
    assert len(set(names)) == len(names)
    for c in CASES:
        assert re.fullmatch(r"[a-z0-9][a-z0-9.\-]*", c.name), f"{c.name}: use lower-case-dashes"
        assert len(c.description) <= 160, f"{c.name}: keep the description to one short line"


def test_catalogue_covers_the_required_situations() -> None:
    moves = {(c.move, c.mode) for c in CASES if c.move}
    assert ("fall-back", "ordered-retreat") in moves
    assert ("fall-back", "desperate-escape") in moves
    assert {c.setup for c in CASES if c.setup} >= {"ingress", "disembark"}
    kinds = {t["kind"] for c in CASES if c.scenario for t in c.scenario.get("terrain", [])}
    assert {"impassable", "dense", "light", "area"} <= kinds
    bases = {m.get("base") for c in CASES if c.scenario for u in c.scenario.get("units", [])
             if isinstance(u.get("models"), list) for m in u["models"]}
    assert "hull" in bases
    assert sum(1 for b in bases if str(b).startswith("oval")) >= 2
    assert {"gap-1.3in-32mm-fits", "gap-1.3in-40mm-blocked"} <= {c.name for c in CASES}
    assert len(PICTURE_CASES) >= 3


def test_every_golden_belongs_to_a_case() -> None:
    names = {c.name for c in CASES}
    pictured = {c.name for c in PICTURE_CASES}
    orphans = []
    for tier in zg.TIERS:
        for f in sorted((zg.GOLDENS / tier).glob("*")):
            if f.stem not in (pictured if tier == "full" else names):
                orphans.append(zg._rel(f))
    assert not orphans, f"goldens without a case (delete them): {orphans}"


# -- the three tiers ------------------------------------------------------------------------------
@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_zone_geometry(case: zg.ZoneCase, update_goldens: bool) -> None:
    _run(case, "geometry", update_goldens)


@pytest.mark.parametrize("case", CASES, ids=_ids(CASES))
def test_zone_picture(case: zg.ZoneCase, update_goldens: bool) -> None:
    _run(case, "zone", update_goldens)


@pytest.mark.parametrize("case", PICTURE_CASES, ids=_ids(PICTURE_CASES))
def test_full_picture(case: zg.ZoneCase, update_goldens: bool) -> None:
    _run(case, "full", update_goldens)


# -- the harness catches what it must -------------------------------------------------------------
def test_geometry_golden_sees_a_boundary_moved_by_005_inch() -> None:
    """Growing or shrinking a zone by 0.05" changes both the area line and the WKT."""
    c = zg.case("crowd-enemy-pair")
    geom = zg.evaluated(c.name).geometry
    base = zg.geometry_text(c, geom)
    for d in (0.05, -0.05):
        moved = zg.geometry_text(c, shapely.buffer(geom, d, quad_segs=32))
        assert zg._field(moved, "area") != zg._field(base, "area")
        assert moved.split("wkt:")[1] != base.split("wkt:")[1]
    # and a 0.05" shift of one part only (the zone moved sideways)
    shifted = zg.geometry_text(c, shapely.affinity.translate(geom, 0.05, 0.0))
    assert shifted.split("wkt:")[1] != base.split("wkt:")[1]


def test_a_missing_golden_fails_and_says_how_to_create_it(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(zg, "GOLDENS", tmp_path / "goldens")
    c = CASES[0]
    for tier in ("geometry", "zone"):
        out = zg.check(c, tier, artefacts=tmp_path / "fail")
        assert not out.ok
        assert c.name in out.message and "--update-goldens" in out.message
    assert not (tmp_path / "goldens").exists(), "goldens must never be written without asking"


def test_a_picture_failure_writes_artefacts_and_the_html_page(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    c = zg.case("crowd-enemy-pair")
    monkeypatch.setattr(zg, "GOLDENS", tmp_path / "goldens")
    assert zg.check(c, "zone", update=True).ok
    real = zg.evaluated(c.name)
    grown = zg.Evaluated(real.case, real.state, real.zone, shapely.buffer(real.geometry, 0.05))
    monkeypatch.setattr(zg, "evaluate", lambda _c: grown)
    out = zg.check(c, "zone", fresh=True, artefacts=tmp_path / "fail")
    assert not out.ok and c.name in out.message and str(tmp_path / "fail") in out.message
    for f in ("zone-expected.png", "zone-actual.png", "zone-diff.png", "report.json"):
        assert (tmp_path / "fail" / c.name / f).is_file()
    page = (tmp_path / "fail" / "index.html").read_text()
    assert c.name in page and "zone-diff.png" in page


def _clear_engine_caches() -> None:
    """Drop any cache the zone engine keeps between calls, so a patched constant takes effect."""
    import functools

    import tabletop.rules.zones as zones

    for value in vars(zones).values():
        if isinstance(value, functools._lru_cache_wrapper):
            value.cache_clear()
    clear = getattr(zones, "clear_caches", None)
    if callable(clear):
        clear()


def _failures_under(tier: str, tmp_path: Path) -> Iterator[zg.Outcome]:
    return zg.failing_cases(tier, artefacts=tmp_path, before=_clear_engine_caches)

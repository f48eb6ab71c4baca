"""Visual regression of legal move zones: the catalogue in tests/zone_cases/ against tests/goldens/.

Three tiers per case (see tests/support/zone_goldens.py): the geometry as text (where the text
differs: within ``GEOMETRY_TOLERANCE`` of the golden's), the zone layer picture (at most
``ZONE_MAX_PIXELS`` pixels may differ) and, for a few cases, the full board picture (at most
``FULL_MAX_PIXELS``). ``pytest --update-goldens`` writes goldens; nothing else
does. Failure artefacts and an HTML page go to ``zone-failures/``.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import shapely

from support import zone_goldens as zg

CASES = zg.all_cases()
PICTURE_CASES = tuple(c for c in CASES if c.picture)


def _ids(cases: tuple[zg.ZoneCase, ...]) -> list[str]:
    return [c.name for c in cases]


@pytest.fixture(autouse=True)
def reference_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    """The goldens are the Python engine's zones, byte for byte (the reference); the native
    engine is held to them within a stated tolerance by tests/zones/test_engines.py."""
    monkeypatch.setenv("TABLETOP_ENGINE", "python")


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
                orphans.append(zg.rel_path(f))
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
        assert zg.text_field(moved, "area") != zg.text_field(base, "area")
        assert moved.split("wkt:")[1] != base.split("wkt:")[1]
    # and a 0.05" shift of one part only (the zone moved sideways)
    shifted = zg.geometry_text(c, shapely.affinity.translate(geom, 0.05, 0.0))
    assert shifted.split("wkt:")[1] != base.split("wkt:")[1]


def test_geometry_tolerance_passes_float_noise_and_catches_a_base_one_mm_larger() -> None:
    """Where the text differs, the geometry tier compares shapes within GEOMETRY_TOLERANCE: a
    zone moved by 1e-7" (the last bits differing between processors) passes; grown, shrunk or
    shifted by 0.0197" (a 32 mm base read as 33 mm) or 0.05" it fails."""
    for name in ("crowd-enemy-pair", "hull-ruins-pillar-gap"):
        geom = zg.evaluated(name).geometry
        golden = zg.parse_geometry_text(zg.geometry_text(zg.case(name), geom))
        assert zg.within_tolerance(golden, geom)[0], name
        assert zg.within_tolerance(golden, shapely.affinity.translate(geom, 1e-7, -1e-7))[0]
        for d in (0.0197, 0.05):
            for moved in (shapely.buffer(geom, d, quad_segs=32),
                          shapely.buffer(geom, -d, quad_segs=32),
                          shapely.affinity.translate(geom, d, 0.0),
                          shapely.affinity.translate(geom, 0.0, -d)):
                ok, out, miss = zg.within_tolerance(golden, moved)
                assert not ok and max(out, miss) > 1e-3, (name, d)


def test_a_zone_snapped_to_other_grid_points_passes_the_geometry_tier_and_a_moved_one_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A zone 0.0002" from the golden's that snaps to other grid points (its text differs)
    passes; one 0.02" away fails, saying how far."""
    c = zg.case("crowd-enemy-pair")
    monkeypatch.setattr(zg, "GOLDENS", tmp_path / "goldens")
    real = zg.evaluated(c.name)

    def at(d: float) -> zg.Evaluated:
        return zg.Evaluated(real.case, real.state, real.zone,
                            shapely.affinity.translate(real.geometry, d, d))

    monkeypatch.setattr(zg, "evaluate", lambda _c: at(0.0049))
    assert zg.check(c, "geometry", update=True, fresh=True).ok
    for d, ok in ((0.0051, True), (0.0249, False)):
        monkeypatch.setattr(zg, "evaluate", lambda _c, d=d: at(d))
        assert zg.geometry_text(c, at(d).geometry) != zg.geometry_text(c, at(0.0049).geometry)
        out = zg.check(c, "geometry", fresh=True, artefacts=tmp_path / "fail")
        assert out.ok is ok, out.message
        if not ok:
            assert "farther than 0.01\" from the golden" in out.message


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


# -- the suite catches real rules bugs ------------------------------------------------------------
ENGAGEMENT_CONSTANT = "ENGAGEMENT_RANGE"
"""The engagement range's name in wh40k-11e's rulings (2")."""

ENGAGEMENT_SENSITIVE = frozenset({
    "crowd-enemy-mob-30", "crowd-enemy-pair", "crowd-enemy-screen", "crowd-engaged-start-normal",
    "crowd-friends-and-foes", "crowd-just-unengaged", "crowd-mixed-bases",
    "disembark-near-enemy-and-wall", "fall-back-battle-shocked", "fall-back-desperate-escape",
    "fall-back-ordered-retreat", "fall-back-ring-desperate", "fall-back-wall-behind",
    "gap-between-enemies", "infantry-blocked-by-screen", "monster-blocked-by-monster",
    "monster-over-infantry", "oval-75x42-facing-0", "oval-75x42-facing-135",
    "oval-75x42-facing-45", "oval-75x42-facing-90", "shipped-fall-back-desperate",
    "shipped-fall-back-ordered", "vehicle-hull-over-infantry",
})
"""Cases whose zone has an engagement buffer on its boundary: 2.05" must fail every one."""

BASE_SENSITIVE = frozenset({
    "edge-left-32mm", "corner-top-left-32mm",
    "wall-shadow-long", "wall-corridor", "gap-1.3in-32mm-fits", "crowd-enemy-pair",
    "crowd-enemy-screen", "fall-back-ordered-retreat", "fall-back-desperate-escape",
    "fall-back-ring-desperate", "infantry-blocked-by-screen", "monster-over-infantry",
    "dense-infantry-crosses", "ingress-round2", "disembark-open", "shipped-fall-back-ordered",
    "shipped-demo-intercessor-advance", "shipped-reserves-ingress",
})
"""Cases with a 32 mm mover or 32 mm neighbours: reading 32 mm as 33 mm must fail every one."""


def _clear_engine_caches() -> None:
    """Drop every cache kept by tabletop modules, so a patched constant or base counts."""
    import functools
    import sys

    from tabletop.zones import clear_caches

    clear_caches()
    for mod_name, mod in list(sys.modules.items()):
        if not mod_name.startswith("tabletop.") or mod is None:
            continue
        for value in list(vars(mod).values()):
            if isinstance(value, functools._lru_cache_wrapper):
                value.cache_clear()


def _wh40k_models(state: Any) -> list[Any]:
    return [m for u in state.units if isinstance(getattr(u, "models", None), tuple)
            for m in u.models]


def _has_enemy(c: zg.ZoneCase) -> bool:
    if c.kind == "block":
        return False
    state = zg.evaluated(c.name).state
    me = state.battle.active_player
    return any(u.player != me for u, _ in state.placed_models())


def _has_32mm(c: zg.ZoneCase) -> bool:
    from tabletop.geometry.footprints import Round

    return c.kind != "block" and any(
        isinstance(m.base, Round) and m.base.diameter_mm == 32
        for m in _wh40k_models(zg.evaluated(c.name).state))


def _assert_mutation_caught(tmp_path: Path, must_fail: frozenset[str],
                            run: tuple[zg.ZoneCase, ...], controls: int) -> None:
    """The cases of ``run`` fail exactly where they must, each message naming its case."""
    for name in must_fail:  # they pass unmutated, so the failures below are the mutation's
        assert zg.check(zg.case(name), "geometry").ok, name
    _clear_engine_caches()
    failed = {o.case: o.message for o in zg.failing_cases("geometry", cases=run,
                                                           artefacts=tmp_path)}
    _clear_engine_caches()
    missed = must_fail - set(failed)
    assert not missed, f"the mutation went unnoticed by: {sorted(missed)}"
    spurious = set(failed) - must_fail
    assert len(spurious) <= len(run) - len(must_fail) - controls, spurious
    for name, message in failed.items():
        assert f"zone case {name!r}" in message, message
    page = (tmp_path / "index.html").read_text()
    assert all(name in page for name in failed)


@pytest.mark.slow
def test_engagement_range_of_205_inches_is_caught(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    """2" -> 2.05" fails the geometry golden of every case with an engagement buffer on its
    zone's boundary, names each of them, and leaves cases without enemies alone."""
    from tabletop.rulesets.wh40k_11e import rulings

    assert getattr(rulings, ENGAGEMENT_CONSTANT) == 2.0
    assert ENGAGEMENT_SENSITIVE <= {c.name for c in CASES if _has_enemy(c)}
    controls = tuple(zg.case(n) for n in ("open-32mm-normal", "wall-shadow-long",
                                          "gap-1.3in-32mm-fits"))
    run = tuple(zg.case(n) for n in sorted(ENGAGEMENT_SENSITIVE)) + controls
    monkeypatch.setattr(rulings, ENGAGEMENT_CONSTANT, 2.05)
    try:
        _assert_mutation_caught(tmp_path, ENGAGEMENT_SENSITIVE, run, len(controls))
    finally:
        monkeypatch.undo()
        _clear_engine_caches()


@pytest.mark.slow
def test_a_32mm_base_read_as_33mm_is_caught(monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    """Every 32 mm base read as 33 mm (as if the base parser slipped by 1 mm) fails the
    geometry golden of the cases with 32 mm models and names each of them."""
    from tabletop.geometry.footprints import Round

    assert BASE_SENSITIVE <= {c.name for c in CASES if _has_32mm(c)}
    real_state = zg.case_state

    def misread(c: zg.ZoneCase) -> Any:
        state = real_state(c)
        units = []
        for u in state.units:
            if isinstance(getattr(u, "models", None), tuple):
                u = replace(u, models=tuple(
                    replace(m, base=Round(33.0))
                    if isinstance(m.base, Round) and m.base.diameter_mm == 32 else m
                    for m in u.models))
            units.append(u)
        return replace(state, units=tuple(units))

    controls = tuple(zg.case(n) for n in ("open-25mm-normal-m5", "hull-open",
                                          "oval-170x109-facing-30"))
    run = tuple(zg.case(n) for n in sorted(BASE_SENSITIVE)) + controls
    monkeypatch.setattr(zg, "case_state", misread)
    _assert_mutation_caught(tmp_path, BASE_SENSITIVE, run, len(controls))


# -- the command line draws the golden picture ----------------------------------------------------
MOVE_CASES = tuple(c for c in CASES if c.kind == "move")


@pytest.mark.slow
@pytest.mark.parametrize("case", MOVE_CASES, ids=_ids(MOVE_CASES))
def test_zone_command_png_is_the_zone_picture_golden(case: zg.ZoneCase, tmp_path: Path) -> None:
    """``tabletop zone FILE --model ... --format layer`` writes exactly the zone-picture golden
    (``--format png`` draws the zone on the whole board)."""
    import json

    from tabletop.cli import main

    from support.pngio import read_png

    golden = case.golden("zone")
    if not golden.is_file():
        pytest.fail(zg.missing_golden(case, "zone"))
    if case.scenario is not None:
        scenario = tmp_path / "scenario.json"
        scenario.write_text(json.dumps(case.scenario), encoding="utf-8")
    else:
        scenario = next(d / str(case.scenario_ref) for d in zg.SCENARIO_DIRS
                        if (d / str(case.scenario_ref)).is_file())
    out = tmp_path / "zone.png"
    argv = ["zone", str(scenario), "--model", case.model, "--move", str(case.move),
            "--format", "layer", "-o", str(out)]
    if case.roll is not None:
        argv += ["--roll", str(case.roll)]
    if case.mode is not None:
        argv += ["--mode", case.mode]
    assert main(argv) == 0
    expected, actual = read_png(golden), read_png(out)
    assert expected.shape == actual.shape
    differing = int((expected != actual).any(axis=2).sum())
    assert differing <= zg.ZONE_MAX_PIXELS, \
        f"zone case {case.name!r}: the zone command's picture differs from " \
        f"{zg.rel_path(golden)} in {differing} pixels (allowed: {zg.ZONE_MAX_PIXELS})"

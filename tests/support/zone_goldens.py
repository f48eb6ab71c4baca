"""The zone-golden harness: load the catalogue of zone cases, compute zones, compare with goldens.

A zone case is a TOML file in ``tests/zone_cases/`` (see ``tests/zone_cases/README.md``). Each
case is checked in up to three tiers, against files in ``tests/goldens/``:

``geometry/<case>.txt``
    the zone snapped to a 0.01" grid and normalised, as WKT, with its area and bounds; compared
    as text, and where the text differs, as geometry: the zone must lie within
    :data:`GEOMETRY_TOLERANCE` of the golden's and the golden's within it of the zone, with the
    same facts (:func:`within_tolerance`).
``zone/<case>.png``
    the zone layer alone, drawn by :func:`tabletop.view.zonelayer.render_zone_layer` at its default
    size (the picture ``tabletop zone ... --format png`` writes); at most
    :data:`ZONE_MAX_PIXELS` pixels may differ.
``full/<case>.png``
    only for cases with ``picture = true``: the whole board with terrain, models, labels, the
    zone and a path, drawn by :func:`tabletop.view.render.render_board`; at most
    :data:`FULL_MAX_PIXELS` pixels may differ.

On a mismatch the expected, actual and difference pictures and the geometric difference go to
:data:`FAILURES` (``zone-failures/`` at the repository root unless ``TABLETOP_ZONE_FAILURES`` says
otherwise) with one ``index.html`` showing every failed case side by side.

Goldens are written only on request (``pytest --update-goldens``); a case without a golden fails.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from support.paths import REPO
from support.pngio import read_png, write_png

REPO = REPO
CASES_DIR = REPO / "tests" / "zone_cases"
GOLDENS = REPO / "tests" / "goldens"
SCENARIO_DIRS = (REPO / "tabletop" / "scenarios", REPO / "scenarios")

GRID = 0.01
"""Grid the geometry golden is snapped to, in inches."""

GEOMETRY_TOLERANCE = 0.01
"""How far (inches) a zone may lie from its geometry golden where the golden's text differs.

The same code and packages gave zones that differ in their last bits on another processor
(goldens made on an earlier machine failed on an AMD EPYC without AVX-512; numpy's vectorised
functions take other code paths with AVX-512, the likely cause), and a vertex that close to the
middle of two grid points snaps to the other one: the text changes by one grid step while the
zone has not moved. The golden, snapped, lies within 0.0071" of the zone it was made from,
so a zone that moved by 0.0197" (a 32 mm base read as 33 mm) or by 0.05" (an engagement range
of 2.05") is farther than this from it and fails."""

ZONE_MAX_PIXELS = 10
"""Zone pictures: at most this many pixels may differ from the golden (any channel, any amount).

A pixel whose centre lies on the zone's boundary flips with the last bits of the boundary
(see :data:`GEOMETRY_TOLERANCE`); a boundary moved by 0.05" (0.8 px at 16 px per inch) flips
pixels along its whole length, far more than this on every case of the catalogue."""

FULL_MAX_PIXELS = 40
"""Full pictures: at most this many pixels may differ from the golden (any channel, any amount).

Not a mean: a zone boundary moved by 0.05" on a 20 px/in picture changes a few pixels along its
whole length, hundreds on any case in the catalogue, and fails.
"""

TIERS = ("geometry", "zone", "full")

IMAGE_ORDER = ("expected", "actual", "difference")
"""Order of the pictures of a failure on the HTML page."""

UPDATE_HINT = ("create or refresh it on purpose with\n"
               "    .venv/bin/python -m pytest tests/zones/test_zone_goldens.py --update-goldens"
               " -k {case}\n"
               "then look at the new files in tests/goldens/ and commit them")

CASE_KEYS = {"description", "scenario", "model", "unit", "move", "roll", "mode", "setup",
             "picture", "target", "error", "dice"}


def rel_path(path: Path) -> str:
    """``path`` relative to the repository when it is inside it."""
    try:
        return str(path.relative_to(REPO))
    except ValueError:
        return str(path)


def failures_dir() -> Path:
    """Where failure artefacts go (``TABLETOP_ZONE_FAILURES`` or ``<repo>/zone-failures``)."""
    return Path(os.environ.get("TABLETOP_ZONE_FAILURES", REPO / "zone-failures"))


# -- cases ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ZoneCase:
    """One entry of the catalogue: a scenario, a model and a move (or a set-up kind)."""

    name: str
    path: Path
    description: str
    model: str
    move: str | None = None
    roll: int | None = None
    mode: str | None = None
    setup: str | None = None
    unit: str | None = None
    picture: bool = False
    target: tuple[float, float] | None = None
    error: str | None = None
    dice: tuple[int, ...] | None = None
    scenario: dict[str, Any] | None = field(default=None, compare=False, hash=False)
    scenario_ref: str | None = None

    @property
    def kind(self) -> str:
        """``move``, ``setup`` or ``block`` (a t9a-2 unit's move: no ``model``)."""
        if self.setup:
            return "setup"
        return "block" if not self.model else "move"

    def golden(self, tier: str) -> Path:
        """The golden file of ``tier`` for this case."""
        return GOLDENS / tier / (self.name + (".txt" if tier == "geometry" else ".png"))


def load_case(path: Path) -> ZoneCase:
    """Read one case file; raise ``ValueError`` naming the file for anything malformed."""
    with path.open("rb") as f:
        data = tomllib.load(f)
    unknown = set(data) - CASE_KEYS
    if unknown:
        raise ValueError(f"{path.name}: unknown keys {sorted(unknown)}")
    desc = data.get("description")
    if not isinstance(desc, str) or not desc.strip() or "\n" in desc:
        raise ValueError(f"{path.name}: `description` must be one line of text")
    if "model" not in data and "unit" not in data:
        raise ValueError(f"{path.name}: give `model` (or `unit` for a t9a-2 block)")
    if bool(data.get("move")) == bool(data.get("setup")):
        raise ValueError(f"{path.name}: give exactly one of `move` and `setup`")
    scen = data.get("scenario")
    if isinstance(scen, str):
        inline, ref = None, scen
    elif isinstance(scen, dict):
        inline, ref = scen, None
    else:
        raise ValueError(f"{path.name}: `scenario` must be a file name or an inline table")
    target = data.get("target")
    return ZoneCase(
        name=path.stem, path=path, description=desc.strip(), model=str(data.get("model", "")),
        move=data.get("move"), roll=data.get("roll"), mode=data.get("mode"),
        setup=data.get("setup"), unit=data.get("unit"), picture=bool(data.get("picture", False)),
        target=(float(target[0]), float(target[1])) if target else None,
        error=data.get("error"), scenario=inline, scenario_ref=ref,
        dice=tuple(int(d) for d in data["dice"]) if "dice" in data else None,
    )


@cache
def all_cases() -> tuple[ZoneCase, ...]:
    """Every case of the catalogue, sorted by name."""
    return tuple(load_case(p) for p in sorted(CASES_DIR.glob("*.toml")))


def case(name: str) -> ZoneCase:
    """The case called ``name``."""
    for c in all_cases():
        if c.name == name:
            return c
    raise KeyError(name)


def case_state(c: ZoneCase) -> Any:
    """The scenario of ``c`` as a :class:`tabletop.state.GameState`."""
    from tabletop.scenario.io import load_scenario, loads_scenario

    if c.scenario is not None:
        return loads_scenario(json.dumps(c.scenario), fmt="json", source=f"{c.path}:scenario")
    for folder in SCENARIO_DIRS:
        if (folder / str(c.scenario_ref)).is_file():
            return load_scenario(folder / str(c.scenario_ref))
    raise FileNotFoundError(f"{c.path.name}: no shipped scenario {c.scenario_ref!r}")


# -- computing ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Evaluated:
    """A case worked out: its state, the zone object and the zone geometry (inches)."""

    case: ZoneCase
    state: Any
    zone: Any
    geometry: BaseGeometry
    error: str | None = None
    facts: tuple[str, ...] = ()
    """Extra lines for the geometry golden (t9a-2 ranges)."""


def evaluate(c: ZoneCase) -> Evaluated:
    """Compute the zone of ``c`` now (no caching: mutation tests rely on that)."""
    state = case_state(c)
    if c.kind == "block":
        return _block_reach(c, state)
    try:
        if c.setup:
            zone = _setup_zone(state, c)
        else:
            from tabletop import legal_zone

            zone = legal_zone(state, c.model, c.move, roll=c.roll, mode=c.mode)
    except Exception as exc:
        if c.error is None or c.error.lower() not in str(exc).lower():
            raise
        return Evaluated(c, state, None, shapely.Polygon(), error=str(exc))
    if c.error is not None:
        raise AssertionError(f"{c.name}: expected the engine to refuse with {c.error!r}")
    geom = getattr(zone, "geometry", zone)
    return Evaluated(c, state, zone, geom)


def _setup_zone(state: Any, c: ZoneCase) -> Any:
    from tabletop import setup_zone

    return setup_zone(state, c.model, c.setup, mode=c.mode)


def _block_reach(c: ZoneCase, state: Any) -> Evaluated:
    """A t9a-2 block's ranges from where it stands after being selected for ``c.move``.

    The golden stores the furthest legal straight move in each direction, the legal wheel angles
    and, as geometry, everything the block may sweep in one manoeuvre: the straight sweeps to
    the furthest legal positions and the wheel sweeps to both wheel limits, plus the block.
    """
    from dataclasses import replace

    from tabletop.geometry.blocks import straight_sweep, wheel_sweep
    from tabletop.rulesets.t9a_2 import movement as t9a

    st = replace(state, battle=replace(state.battle, step="move-units", selection=None))
    action: dict[str, Any] = {"do": "select", "unit": c.unit, "move": c.move}
    if c.dice:
        action["dice"] = list(c.dice)
    res = t9a.act(st, action)
    st, ok, reasons = res.state, res.ok, res.reasons
    if not ok or st.battle.selection is None:
        raise ValueError(f"{c.name}: selecting {c.unit} for {c.move} was refused: {reasons}")
    g = t9a.block_geom(st.unit(c.unit))
    ranges = {
        "forward": t9a.straight_range(st, "forward"),
        "backward": t9a.straight_range(st, "backward"),
        "sideways-right": t9a.straight_range(st, "sideways", 1.0),
        "sideways-left": t9a.straight_range(st, "sideways", -1.0),
    }
    lo, hi = t9a.wheel_range(st)
    parts = [g.polygon]
    for key, d in ranges.items():
        if d > 0:
            direction = "sideways" if key.startswith("sideways") else key
            sign = -1.0 if key == "sideways-left" else 1.0
            parts.append(straight_sweep(g, g.moved(direction, sign * d)))  # type: ignore[arg-type]
    for angle in (lo, hi):
        if angle:
            parts.append(wheel_sweep(g, angle))
    facts = [f"{k}: {v:.3f}" for k, v in ranges.items()]
    facts.append(f"wheel: {lo:.2f} {hi:.2f}")
    facts.append(f"march-mode: {st.battle.selection.mode or '-'}")
    return Evaluated(c, st, None, shapely.union_all(parts), facts=tuple(facts))


@cache
def evaluated(name: str) -> Evaluated:
    """:func:`evaluate`, once per case per process (the three tiers share it)."""
    return evaluate(case(name))


# -- tier 1: geometry -----------------------------------------------------------------------------
def snapped(geom: BaseGeometry) -> BaseGeometry:
    """The zone snapped to :data:`GRID` and normalised (what the geometry golden stores)."""
    return shapely.normalize(shapely.set_precision(geom, GRID))


def geometry_text(c: ZoneCase, geom: BaseGeometry, facts: tuple[str, ...] = ()) -> str:
    """The geometry golden of ``c`` for ``geom``: a header, facts, area, bounds, parts, WKT."""
    g = snapped(geom)
    wkt = shapely.to_wkt(g, rounding_precision=2)
    bounds = "empty" if g.is_empty else " ".join(f"{v:.2f}" for v in g.bounds)
    polys = [p for p in getattr(g, "geoms", [g]) if p.geom_type == "Polygon" and not p.is_empty]
    holes = sum(len(p.interiors) for p in polys)
    lines = [
        f"# {c.name}: {c.description}",
        f"# snapped to {GRID}\" and normalised; regenerate with pytest --update-goldens",
        *facts,
        f"area: {g.area:.4f}",
        f"bounds: {bounds}",
        f"parts: {len(polys)}",
        f"holes: {holes}",
        "wkt:",
        wkt.replace("), (", "),\n (").replace(")), ((", ")),\n ((") if wkt else wkt,
    ]
    return "\n".join(lines) + "\n"


def _data_lines(text: str) -> list[str]:
    """The compared lines of a geometry golden (``#`` comment lines are for readers only)."""
    return [line for line in text.splitlines() if not line.startswith("#")]


def parse_geometry_text(text: str) -> BaseGeometry:
    """The geometry stored in a geometry golden."""
    body = text.split("\nwkt:\n", 1)[1]
    return shapely.from_wkt(" ".join(body.split()))


def within_tolerance(golden: BaseGeometry, zone: BaseGeometry,
                     tolerance: float = GEOMETRY_TOLERANCE) -> tuple[bool, float, float]:
    """Whether ``zone`` lies within ``tolerance`` of ``golden`` and ``golden`` within it of
    ``zone`` (each inside the other grown by ``tolerance``, up to 1e-6 sq in of the arcs'
    chords), and the area of each that lies farther: outside the golden grown, and of the
    golden outside the zone grown (square inches)."""
    out = shapely.difference(zone, shapely.buffer(golden, tolerance, quad_segs=32)).area
    miss = shapely.difference(golden, shapely.buffer(zone, tolerance, quad_segs=32)).area
    return max(out, miss) <= 1e-6, float(out), float(miss)


def _facts(text: str) -> list[str]:
    """The compared lines of a geometry golden other than those the geometry gives (its area,
    bounds, parts, holes and WKT): a t9a-2 block's ranges and limits."""
    head = text.split("\nwkt:")[0]
    return [line for line in _data_lines(head)
            if line.split(":")[0] not in ("area", "bounds", "parts", "holes")]


def geometry_change(expected: BaseGeometry, actual: BaseGeometry) -> tuple[float, float]:
    """Area added and area removed going from ``expected`` to ``actual`` (square inches)."""
    added = shapely.difference(actual, expected)
    removed = shapely.difference(expected, actual)
    return float(added.area), float(removed.area)


# -- tiers 2 and 3: pictures ----------------------------------------------------------------------
def zone_picture(ev: Evaluated) -> np.ndarray:
    """The zone layer of ``ev`` as drawn by ``tabletop zone ... --format png``."""
    from tabletop.view.render import surface_array
    from tabletop.view.zonelayer import render_zone_layer

    return surface_array(render_zone_layer(ev.geometry, ev.state.battlefield))


def _path_for(ev: Evaluated) -> Any:
    """The path drawn on a full picture: to ``target`` if the case gives one, else to a point
    of the zone chosen deterministically (its representative point)."""
    if ev.zone is None or ev.geometry.is_empty or not hasattr(ev.zone, "path_to"):
        return None
    if ev.case.target is not None:
        x, y = ev.case.target
    else:
        p = ev.geometry.representative_point()
        x, y = round(p.x, 2), round(p.y, 2)
    return ev.zone.path_to(x, y)


def full_picture(ev: Evaluated) -> np.ndarray:
    """The whole board with the zone, a path and labels (anti-aliased, bundled font)."""
    from tabletop.view.render import (
        SETUP_FILL,
        ZONE_FILL,
        Overlays,
        PathOverlay,
        render_board,
        surface_array,
    )

    path = _path_for(ev)
    overlay_path = None
    if path is not None:
        # (a turning model's points carry facings: the picture draws the lines)
        pts = tuple((float(p[0]), float(p[1])) for p in getattr(path, "points", path))
        length = float(getattr(path, "length", shapely.LineString(pts).length))
        cap = getattr(ev.zone, "max_distance", None)
        overlay_path = PathOverlay(points=pts, length=length,
                                   cap=float(cap) if cap is not None else None)
    unit = None
    try:
        unit = ev.state.model(ev.case.model)[0].id
    except KeyError:
        unit = ev.case.unit
    ov = Overlays(zone=ev.geometry, path=overlay_path, selected_unit=unit,
                  zone_colour=SETUP_FILL if ev.case.setup else ZONE_FILL)
    return surface_array(render_board(ev.state, overlays=ov))


# -- comparison -----------------------------------------------------------------------------------
@dataclass
class Outcome:
    """The result of checking one tier of one case: ``ok`` or a message (naming the case)."""

    case: str
    tier: str
    ok: bool
    message: str = ""
    created: bool = False


def check(c: ZoneCase, tier: str, *, update: bool = False, fresh: bool = False,
          artefacts: Path | None = None) -> Outcome:
    """Compare tier ``tier`` of case ``c`` with its golden.

    Parameters
    ----------
    update:
        Write the golden instead of comparing (``--update-goldens``).
    fresh:
        Recompute the zone instead of using the per-process cache.
    artefacts:
        Folder for failure artefacts (default :func:`failures_dir`); ``None`` uses the default.
    """
    ev = evaluate(c) if fresh else evaluated(c.name)
    golden = c.golden(tier)
    out_dir = artefacts if artefacts is not None else failures_dir()
    if tier == "geometry":
        actual_text = geometry_text(c, ev.geometry, ev.facts)
        if update:
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(actual_text, encoding="utf-8")
            return Outcome(c.name, tier, True, created=True)
        if not golden.is_file():
            return Outcome(c.name, tier, False, missing_golden(c, tier))
        expected_text = golden.read_text(encoding="utf-8").replace("\r\n", "\n")
        if _data_lines(expected_text) == _data_lines(actual_text) or (
                _facts(expected_text) == _facts(actual_text)
                and within_tolerance(_parsed(expected_text), ev.geometry)[0]):
            _forget(out_dir, c, tier)
            return Outcome(c.name, tier, True)
        return Outcome(c.name, tier, False,
                       _geometry_failure(c, ev, expected_text, actual_text, out_dir))
    make = zone_picture if tier == "zone" else full_picture
    actual = make(ev)
    if update:
        write_png(golden, actual)
        return Outcome(c.name, tier, True, created=True)
    if not golden.is_file():
        return Outcome(c.name, tier, False, missing_golden(c, tier))
    expected = read_png(golden)
    allowed = ZONE_MAX_PIXELS if tier == "zone" else FULL_MAX_PIXELS
    if expected.shape == actual.shape:
        differing = int(np.any(expected != actual, axis=2).sum())
        if differing <= allowed:
            _forget(out_dir, c, tier)
            return Outcome(c.name, tier, True)
        what = f"{differing} pixels differ (allowed: {allowed})"
    else:
        what = f"picture size {actual.shape[1]}x{actual.shape[0]}, golden " \
               f"{expected.shape[1]}x{expected.shape[0]}"
    return Outcome(c.name, tier, False, _picture_failure(c, ev, tier, expected, actual, what,
                                                          out_dir))


def missing_golden(c: ZoneCase, tier: str) -> str:
    """What a check says of case ``c`` when its ``tier`` golden is missing."""
    return (f"zone case {c.name!r} ({rel_path(c.path)}): no {tier} golden "
            f"{rel_path(c.golden(tier))}; " + UPDATE_HINT.format(case=c.name))


def _parsed(text: str) -> BaseGeometry:
    """The geometry of a golden's text (empty where it cannot be read)."""
    try:
        return parse_geometry_text(text)
    except Exception:
        return shapely.Polygon()


def _geometry_failure(c: ZoneCase, ev: Evaluated, expected_text: str, actual_text: str,
                      out_dir: Path) -> str:
    expected = _parsed(expected_text)
    actual = snapped(ev.geometry)
    _, out, miss = within_tolerance(expected, ev.geometry)
    added, removed = geometry_change(expected, actual)
    folder = out_dir / c.name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "geometry-expected.txt").write_text(expected_text, encoding="utf-8")
    (folder / "geometry-actual.txt").write_text(actual_text, encoding="utf-8")
    (folder / "geometry-added.wkt").write_text(
        shapely.to_wkt(shapely.difference(actual, expected), rounding_precision=2) + "\n")
    (folder / "geometry-removed.wkt").write_text(
        shapely.to_wkt(shapely.difference(expected, actual), rounding_precision=2) + "\n")
    images = {}
    try:
        from tabletop.view.render import surface_array
        from tabletop.view.zonelayer import render_zone_layer

        bf = ev.state.battlefield
        exp_img = surface_array(render_zone_layer(expected, bf))
        act_img = surface_array(render_zone_layer(actual, bf))
        write_png(folder / "geometry-expected.png", exp_img)
        write_png(folder / "geometry-actual.png", act_img)
        write_png(folder / "geometry-diff.png", diff_picture(exp_img, act_img))
        images = {"expected": "geometry-expected.png", "actual": "geometry-actual.png",
                  "difference": "geometry-diff.png"}
    except ImportError:
        pass
    changed = [f"{e.split(':')[0]} {e.split(':', 1)[1].strip()} -> {a.split(':', 1)[1].strip()}"
               for e, a in zip(_data_lines(expected_text.split("\nwkt:")[0]),
                               _data_lines(actual_text.split("\nwkt:")[0]), strict=False)
               if e != a and ":" in e and ":" in a and e.split(":")[0] == a.split(":")[0]]
    msg = (f"zone case {c.name!r}: geometry differs from {rel_path(c.golden('geometry'))}"
           f": area {text_field(expected_text, 'area')} -> {actual.area:.4f} sq in "
           f"(+{added:.4f} added, -{removed:.4f} removed); bounds "
           f"{text_field(expected_text, 'bounds')} -> {text_field(actual_text, 'bounds')}; "
           f"changed: {', '.join(changed) or 'the WKT only'}; farther than "
           f"{GEOMETRY_TOLERANCE}\" from the golden: {out:.4f} sq in of the zone, {miss:.4f} of "
           f"the golden. Artefacts: {folder}")
    _record(out_dir, c, "geometry", msg, images)
    return msg


def text_field(text: str, key: str) -> str:
    """The value of the line ``key: value`` of a geometry golden's text (empty if none)."""
    for line in text.splitlines():
        if line.startswith(key + ":"):
            return line.split(":", 1)[1].strip()
    return "?"


def diff_picture(expected: np.ndarray, actual: np.ndarray) -> np.ndarray:
    """A difference picture: the expected picture faded, changed pixels bright.

    Zone-layer colours are read as zone/not zone: pixels in the zone only now are green, pixels
    in the zone only before are red, any other change is magenta.
    """
    from tabletop.view.zonelayer import ZONE_PALETTE

    h = max(expected.shape[0], actual.shape[0])
    w = max(expected.shape[1], actual.shape[1])

    def pad(a: np.ndarray) -> np.ndarray:
        out = np.zeros((h, w, 3), dtype=np.uint8)
        out[:a.shape[0], :a.shape[1]] = a
        return out

    e, a = pad(expected), pad(actual)
    grey = e.mean(axis=2, keepdims=True)
    out = (np.repeat(grey, 3, axis=2) * 0.35 + 150).astype(np.uint8)
    changed = np.any(e != a, axis=2)
    zone = np.array(ZONE_PALETTE["zone"], dtype=np.uint8)
    in_e = np.all(e == zone, axis=2)
    in_a = np.all(a == zone, axis=2)
    out[changed] = (255, 0, 255)
    out[changed & in_a & ~in_e] = (0, 200, 0)
    out[changed & in_e & ~in_a] = (230, 0, 0)
    return out


def _picture_failure(c: ZoneCase, ev: Evaluated, tier: str, expected: np.ndarray,
                     actual: np.ndarray, what: str, out_dir: Path) -> str:
    folder = out_dir / c.name
    write_png(folder / f"{tier}-expected.png", expected)
    write_png(folder / f"{tier}-actual.png", actual)
    write_png(folder / f"{tier}-diff.png", diff_picture(expected, actual))
    msg = (f"zone case {c.name!r}: {tier} picture differs from "
           f"{rel_path(c.golden(tier))}: {what}. Artefacts: {folder}")
    _record(out_dir, c, tier, msg, {"expected": f"{tier}-expected.png",
                                    "actual": f"{tier}-actual.png",
                                    "difference": f"{tier}-diff.png"})
    return msg


# -- failure report -------------------------------------------------------------------------------
def _record(out_dir: Path, c: ZoneCase, tier: str, message: str, images: dict[str, str]) -> None:
    """Add one failure to ``<out_dir>/<case>/report.json`` and rebuild ``index.html``."""
    folder = out_dir / c.name
    folder.mkdir(parents=True, exist_ok=True)
    report = folder / "report.json"
    data = json.loads(report.read_text()) if report.is_file() else {
        "case": c.name, "description": c.description, "file": str(rel_path(c.path)),
        "failures": {}}
    data["failures"][tier] = {"message": message, "images": images}
    report.write_text(json.dumps(data, indent=1, sort_keys=True))
    write_index(out_dir)


def _forget(out_dir: Path, c: ZoneCase, tier: str) -> None:
    """Remove the artefacts of an earlier failure of ``tier`` of ``c`` (it passes now).

    The folder is never emptied wholesale: other test sessions may be writing to it.
    """
    folder = out_dir / c.name
    report = folder / "report.json"
    if not report.is_file():
        return
    data = json.loads(report.read_text())
    if data["failures"].pop(tier, None) is None:
        return
    for f in folder.glob(f"{tier}-*"):
        f.unlink(missing_ok=True)
    if data["failures"]:
        report.write_text(json.dumps(data, indent=1, sort_keys=True))
    else:
        shutil.rmtree(folder, ignore_errors=True)
    write_index(out_dir)


def write_index(out_dir: Path) -> Path:
    """Write ``index.html``: every failed case, expected / actual / difference side by side."""
    rows = []
    reports = sorted(out_dir.glob("*/report.json"))
    for rp in reports:
        data = json.loads(rp.read_text())
        name = html.escape(data["case"])
        rows.append(f"<h2 id='{name}'>{name}</h2><p>{html.escape(data['description'])}"
                    f" <code>{html.escape(data['file'])}</code></p>")
        for tier in TIERS:
            fail = data["failures"].get(tier)
            if not fail:
                continue
            rows.append(f"<h3>{tier}</h3><pre>{html.escape(fail['message'])}</pre>")
            if fail["images"]:
                cells = "".join(
                    f"<figure><a href='{name}/{src}'><img src='{name}/{src}'></a>"
                    f"<figcaption>{label}</figcaption></figure>"
                    for label, src in sorted(fail["images"].items(),
                                             key=lambda kv: IMAGE_ORDER.index(kv[0])))
                rows.append(f"<div class='row'>{cells}</div>")
    page = ("<!doctype html><meta charset='utf-8'><title>zone golden failures</title>"
            "<style>body{font-family:sans-serif;margin:1em}.row{display:flex;gap:8px}"
            "figure{margin:0;flex:1}img{width:100%;border:1px solid #888;"
            "image-rendering:pixelated}pre{white-space:pre-wrap;background:#f4f4f4;padding:4px}"
            "</style>"
            f"<h1>Zone golden failures: {len(reports)} case(s)</h1>"
            "<p>Difference pictures: green = zone now and not before, red = zone before and not"
            " now, magenta = any other change.</p>"
            + "".join(f"<a href='#{html.escape(json.loads(r.read_text())['case'])}'>"
                      f"{html.escape(json.loads(r.read_text())['case'])}</a> " for r in reports)
            + "".join(rows))
    index = out_dir / "index.html"
    if not reports:
        index.unlink(missing_ok=True)
        return index
    out_dir.mkdir(parents=True, exist_ok=True)
    index.write_text(page, encoding="utf-8")
    return index


# -- helpers for the mutation tests ---------------------------------------------------------------
def failing_cases(tier: str, *, cases: tuple[ZoneCase, ...] | None = None,
                  artefacts: Path | None = None) -> Iterator[Outcome]:
    """Check ``tier`` of every case (or of ``cases``) afresh; yield the outcomes that fail."""
    for c in cases if cases is not None else all_cases():
        out = check(c, tier, fresh=True, artefacts=artefacts)
        if not out.ok:
            yield out

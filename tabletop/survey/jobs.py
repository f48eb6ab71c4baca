"""The layout survey's jobs as plain data: the base catalogue, the plan, one job's run, balance.

A *plan* lists every board (a layout on a deployment map, its own by default, as scenario TOML
text: from a 40kdc file with :func:`plan`, the current community layouts with
:func:`plan_dataset`, scenario files with :func:`plan_scenarios`, any boards with
:func:`plan_boards`) and every job on it; a *job* is a JSON-serialisable dict that
:func:`run_job` answers with a JSON-serialisable result, in any process, in any order (the
contract is on the docs' Survey and cards page and in ``tabletop.survey``'s docstring). What
the measures mean is in :mod:`tabletop.survey.measures`.
"""

from __future__ import annotations

import hashlib
import re
import time
import tomllib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tabletop import rulesets
from tabletop.errors import UserError, quote
from tabletop.geometry.footprints import BaseParseError, Footprint, Round, parse_base
from tabletop.geometry.passages import least_width
from tabletop.importers import kdc
from tabletop.scenario.bases import normalise_base
from tabletop.scenario.io import dumps_scenario, load_scenario, loads_scenario, shipped
from tabletop.state import GameState
from tabletop.survey import measures
from tabletop.survey.setup import dataset_marks, edge_marks, keystone_marks

__all__ = [
    "DEFAULT_SIZE",
    "HULLS",
    "MEASURES",
    "REACH_PARAMS",
    "UNITS_FILE",
    "PlannedBoard",
    "balance",
    "board_info",
    "catalogue",
    "entry",
    "movement_keywords",
    "parse_bases",
    "plan",
    "plan_boards",
    "plan_dataset",
    "plan_scenarios",
    "run_job",
    "safe_id",
    "scenario_board",
    "sides_of",
]

UNITS_FILE = "units_11e_provisional_all.csv"
"""The 40kdc unit data, read from beside the layouts file for the default catalogue."""
DEFAULT_SIZE = 18
"""Bases of the unit data in the default catalogue (the most used; the data has 18 distinct
ones), before the hulls."""
MEASURES = ("gap-fit", "reach", "advance-odds")
REACH_PARAMS: dict[str, Any] = {"moves": [5, 6, 8, 10, 12], "phases": 3, "objective_range": 3.0}
ADVANCE_M = 6
SIDES = ("red", "blue")
"""The importer's players: the attacker's zone is red's, the defender's blue's."""

HULLS = (
    ("Land Raider hull", "demo.toml", "lr1"),
    ("Rhino hull", "reserves-and-transport.toml", "rh1"),
)
"""The vehicle hulls of the catalogue: (name, shipped scenario, model id). Their polygons are
read from those scenarios, so the catalogue and the shipped battles never disagree."""

BUILT_IN = ("25mm", "28.5mm", "32mm", "40mm", "50mm", "60mm", "80mm", "90mm", "100mm",
            "130mm", "160mm", "oval 60x35.5mm", "oval 75x42mm", "oval 90x52.5mm",
            "oval 105x70mm", "oval 120x92mm", "oval 150x95mm", "oval 170x109mm")
"""The catalogue without the unit data: the 18 distinct bases of the 40kdc unit data
(``units`` 0: not counted); their keywords follow :func:`_built_in_keywords`."""

CROSSERS = rulesets.get(kdc.RULESET).crossing_keywords
"""Keywords of the data's ruleset whose models cross terrain that stops the others."""
BIG = rulesets.get(kdc.RULESET).big_keywords
"""Keywords of the data's ruleset whose models pass over smaller models."""


# --------------------------------------------------------------------------------------------
# ids
# --------------------------------------------------------------------------------------------
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
ID_PART = 60
"""Most characters of one part of an id (a longer one is cut and gets a hash)."""


def safe_id(text: str) -> str:
    """``text`` as a filename-safe id part ([A-Za-z0-9._-], at most :data:`ID_PART` + 9
    characters); a text that had to change gets ``-`` and 8 hex digits of its hash, so two
    texts never share a part."""
    s = _UNSAFE.sub("-", str(text)).strip("-")
    if s == str(text) and s and not s.startswith(".") and len(s) <= ID_PART \
            and "__" not in s:
        return s
    s = s.replace("__", "-").lstrip(".-")[:ID_PART] or "x"
    return f"{s}-{hashlib.sha256(str(text).encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


# --------------------------------------------------------------------------------------------
# the catalogue
# --------------------------------------------------------------------------------------------
def entry(name: str, spec: Any, fp: Footprint, units: int, keywords: Sequence[str]
          ) -> dict[str, Any]:
    """A catalogue entry (``keywords``, an addition to the contract, decide which dense
    terrain stops the base: INFANTRY and the like cross it)."""
    if isinstance(fp, Round):
        width = length = 2 * fp.radius
    else:
        width = least_width(fp)[0]
        pts = np.asarray(fp.local_polygon().convex_hull.exterior.coords)
        length = float(np.max(np.hypot(*(pts[:, None, :] - pts[None, :, :]).T)))
    return {"name": name, "spec": spec, "units": int(units), "width": round(width, 6),
            "length": round(length, 6), "keywords": list(keywords)}


def movement_keywords(counts: Counter[tuple[str, ...]]) -> list[str]:
    """The keyword that decides where most units on a base may go: the commonest
    dense-crossing keyword when most of them have one, else the commonest of VEHICLE and
    MONSTER, else none."""
    total = sum(counts.values())
    cross: Counter[str] = Counter()
    big: Counter[str] = Counter()
    n_cross = 0
    for kws, n in counts.items():
        got = [k for k in kws if k in CROSSERS]
        if got:
            n_cross += n
            cross[got[0]] += n
        for k in kws:
            if k in BIG:
                big[k] += n
                break
    if 2 * n_cross >= total and cross:
        return [cross.most_common(1)[0][0]]
    return [big.most_common(1)[0][0]] if big else []


def _built_in_keywords(spec: str) -> list[str]:
    """Without the unit data: INFANTRY for round bases up to 50 mm, else VEHICLE (the data's
    majority for every base but 80 and 130 mm, where it is split)."""
    fp = parse_base(spec)
    return ["INFANTRY"] if isinstance(fp, Round) and fp.radius <= 25.0 / 25.4 + 1e-9 \
        else ["VEHICLE"]


@lru_cache(maxsize=1)
def hulls() -> tuple[dict[str, Any], ...]:
    """The catalogue's vehicle hulls, read from the shipped scenarios (:data:`HULLS`)."""
    out = []
    for name, scenario, model_id in HULLS:
        doc = tomllib.loads(shipped(scenario).read_text(encoding="utf-8"))
        for unit in doc.get("units", []):
            for m in unit.get("models", []):
                if m.get("id") == model_id:
                    poly = [[float(x), float(y)] for x, y in m["hull"]]
                    fp = parse_base("hull", tuple((x, y) for x, y in poly))
                    kws = [k for k in unit.get("keywords", []) if k in BIG] or ["VEHICLE"]
                    out.append(entry(name, poly, fp, 0, kws[:1]))
    return tuple(out)


def catalogue(units_csv: str | Path | None = None) -> list[dict[str, Any]]:
    """The default catalogue: the :data:`DEFAULT_SIZE` bases of the 40kdc unit data used by
    the most units (ties by name), with how many units use each, then :func:`hulls`.

    A unit is counted once per distinct base among its profiles; units with no base size in
    the file (vehicles on their hulls, most of the 313) are left out (:func:`base_counts`
    counts them). Without ``units_csv``: the built-in list :data:`BUILT_IN`, ``units`` 0.
    """
    if units_csv is None:
        return [entry(s, s, parse_base(s), 0, _built_in_keywords(s)) for s in BUILT_IN] + \
            [dict(h) for h in hulls()]
    counts, kws, _ = base_counts(units_csv)
    top = sorted(counts, key=lambda b: (-counts[b], b))[:DEFAULT_SIZE]
    return [entry(b, b, parse_base(b), counts[b], movement_keywords(kws[b])) for b in top] + \
        [dict(h) for h in hulls()]


def base_counts(units_csv: str | Path) -> tuple[Counter[str], dict[str, Counter[tuple[str, ...]]],
                                                int]:
    """For each distinct base of the unit data: how many units use it, their keyword sets;
    and how many units have no base size."""
    from tabletop.importers.kdc_units import read_units

    counts: Counter[str] = Counter()
    kws: dict[str, Counter[tuple[str, ...]]] = defaultdict(Counter)
    none = 0
    for unit in read_units(units_csv).units:
        bases = {p.base for p in unit.profiles if p.base}
        if not bases:
            none += 1
        for b in bases:
            counts[b] += 1
            kws[b][unit.keywords] += 1
    return counts, kws, none


def parse_bases(text: str, *, known: Sequence[Mapping[str, Any]] | None = None
                ) -> list[dict[str, Any]]:
    """``--bases``: comma-separated names of ``known`` entries (default: the built-in
    catalogue and the hulls) or base specs of the scenario format (``"32mm"``, ``"oval
    60x35mm"``, ``"rect 25x50mm"``). A spec that is a known entry's takes that entry (its
    count and keywords); another gets the keywords of :func:`_built_in_keywords`."""
    pool = list(known) if known is not None else catalogue(None)
    by_name = {str(e["name"]).lower(): e for e in pool}
    by_spec = {e["spec"]: e for e in pool if isinstance(e["spec"], str)}
    out: list[dict[str, Any]] = []
    items = [t.strip() for t in str(text).split(",")]
    if not any(items):
        raise UserError("--bases: give at least one base (a name such as \"32mm\" or \"Land "
                        "Raider hull\", or a base such as \"oval 60x35mm\")")
    for item in items:
        if not item:
            continue
        got = by_name.get(item.lower())
        if got is None:
            try:
                spec = normalise_base(item)
                fp = parse_base(spec)
            except (BaseParseError, ValueError) as exc:
                names = ", ".join(str(e["name"]) for e in pool)
                raise UserError(f"--bases: {quote(item)} is not a base: {exc}; give base "
                                f"sizes such as \"32mm\", \"oval 60x35mm\" or \"rect "
                                f"25x50mm\", or one of {names}") from None
            got = by_spec.get(fp.spec) or by_spec.get(spec)
            if got is None:
                got = entry(fp.spec, fp.spec, fp, 0, _built_in_keywords(fp.spec)
                            if not fp.spec.startswith("rect") else ["INFANTRY"])
        if all(e["name"] != got["name"] for e in out):
            out.append(dict(got))
    return out


# --------------------------------------------------------------------------------------------
# the plan
# --------------------------------------------------------------------------------------------
def _wkt(g: Any) -> str:
    import shapely

    return shapely.to_wkt(g, rounding_precision=6, trim=True)


def board_info(board: str, layout: str, deployment: str, state: GameState, *,
               own: bool = True, mission: str | None = None,
               setup: Sequence[Mapping[str, Any]] = (), setup_source: str = "keystones",
               source: str = "40kdc") -> dict[str, Any]:
    """What the report needs of a board: size, terrain, zones and objectives as WKT; whether
    the deployment map is the layout's own (``own``), its mission matchup, the table set-up
    marks (:mod:`tabletop.survey.setup`; ``setup_source``: ``"keystones"`` from the data, or
    ``"nearest edges"`` measured here) and where the board comes from (``source``)."""
    from shapely.geometry import Polygon

    return {
        "board": board, "layout": layout, "deployment": deployment, "name": state.name,
        "credit": state.description, "own": bool(own), "mission": mission, "source": source,
        "width": state.battlefield.width, "height": state.battlefield.depth,
        "terrain": [{"id": t.id, "kind": t.kind, "height": t.height, "wkt": _wkt(t.shape)}
                    for t in state.terrain],
        "zones": {p.id: _wkt(Polygon(p.deployment_zone)) for p in state.players
                  if p.deployment_zone},
        "objectives": [[float(x), float(y)] for x, y in state.objectives],
        "setup": [dict(m) for m in setup], "setup_source": setup_source,
    }


def _pick(items: Sequence[Mapping[str, Any]], wanted: Iterable[str] | None, what: str,
          path: Path) -> list[Mapping[str, Any]]:
    if wanted is None:
        return list(items)
    wanted = list(wanted)
    ids = {str(x.get("id")): x for x in items}
    missing = [w for w in wanted if w not in ids]
    if missing:
        shown = ", ".join(list(ids)[:40])
        raise UserError(f"{path}: no {what} {', '.join(quote(m) for m in missing)}; the file "
                        f"has {shown}")
    return [ids[w] for w in dict.fromkeys(wanted)]


def _pairs(layouts: Sequence[Mapping[str, Any]], patterns: Sequence[Mapping[str, Any]],
           deployments: Iterable[str] | None, all_pairings: bool, lpath: Path, dpath: Path
           ) -> list[tuple[Mapping[str, Any], Mapping[str, Any]]]:
    """The boards of a plan: every layout with its own deployment map (by default), with the
    maps asked for, or with every map."""
    if deployments is not None or all_pairings:
        chosen = _pick(patterns, None if all_pairings else deployments, "deployment map", dpath)
        return [(lay, dep) for lay in layouts for dep in chosen]
    by_id = {str(p.get("id")): p for p in patterns}
    out = []
    for lay in layouts:
        own = lay.get("deployment_pattern_id")
        if not isinstance(own, str) or own not in by_id:
            raise UserError(
                f"{lpath}: layout {quote(str(lay.get('id')))} names "
                + (f"the deployment map {quote(own)}, which {dpath} does not have"
                   if isinstance(own, str) else "no deployment map (deployment_pattern_id)")
                + "; give --deployments ID,... or --all-pairings")
        out.append((lay, by_id[own]))
    return out


def plan(layouts_path: str | Path, *, templates_path: str | Path | None = None,
         deployments_path: str | Path | None = None, layouts: Iterable[str] | None = None,
         deployments: Iterable[str] | None = None,
         bases: Sequence[Mapping[str, Any]] | None = None, all_pairings: bool = False,
         reach_bases: Iterable[str] | None = None) -> dict[str, Any]:
    """The boards of 40kdc layouts and every job on them (see :func:`plan_boards`).

    A board is a layout with a deployment map: its own (``deployment_pattern_id``) by default,
    the maps ``deployments`` names, or every map with ``all_pairings``. ``bases`` default to
    :func:`catalogue` of the unit data beside the layouts file (:data:`UNITS_FILE`), or the
    built-in list without it (the plan's ``catalogue`` says which).
    """
    lpath = Path(layouts_path)
    tpath = Path(templates_path) if templates_path is not None else \
        lpath.parent / kdc.TEMPLATES_FILE
    dpath = Path(deployments_path) if deployments_path is not None else \
        lpath.parent / kdc.DEPLOYMENTS_FILE
    for p, opt in ((tpath, "--templates"), (dpath, "--deployments")):
        if not p.is_file():
            raise UserError(f"{p}: no such file (give {opt} FILE or put it beside "
                            f"{lpath.name})")
    all_layouts = kdc.read_layouts(lpath)
    templates = kdc.read_templates(tpath)
    patterns = kdc.read_deployments(dpath)
    chosen_l = _pick(all_layouts, layouts, "layout", lpath)
    pairs = _pairs(chosen_l, patterns, deployments, all_pairings, lpath, dpath)
    upath = lpath.parent / UNITS_FILE
    chosen_b, source = _catalogue_for(bases, upath)
    boards = []
    for lay, dep in pairs:
        lid, did = str(lay.get("id")), str(dep.get("id"))
        where = f"{lpath}: layout {lid}"
        state = kdc.build_state(lay, templates, dep, where=where,
                                deployment_where=f"{dpath}: deployment {did}")
        mission = lay.get("mission_matchup_id")
        boards.append(PlannedBoard(
            lid, did, state, own=did == lay.get("deployment_pattern_id"),
            mission=mission if isinstance(mission, str) else None,
            setup=keystone_marks(lay, templates, where=where)))
    return plan_boards(boards, chosen_b, catalogue_source=source, reach_bases=reach_bases)


def plan_dataset(*, layouts: Iterable[str] | None = None,
                 deployments: Iterable[str] | None = None, all_pairings: bool = False,
                 bases: Sequence[Mapping[str, Any]] | None = None,
                 reach_bases: Iterable[str] | None = None) -> dict[str, Any]:
    """The boards of the current community layouts (``wh40kdc``,
    :mod:`tabletop.importers.battlefields`) and every job on them: every layout (or those of
    ``layouts``) with its own deployment map, the maps of ``deployments``, or every map
    (``all_pairings``); set-up marks from the data's keystones. ``bases`` default to every
    distinct base of the data's units (:func:`tabletop.survey.current.catalogue`)."""
    from tabletop.importers import battlefields

    known = battlefields.layouts()
    if layouts is None:
        chosen = known
    else:
        chosen = [battlefields.layout(lid) for lid in dict.fromkeys(layouts)]
    if all_pairings:
        maps: list[str | None] | None = list(battlefields.deployment_ids())
    else:
        maps = None if deployments is None else list(dict.fromkeys(deployments))
    boards = []
    for lay in chosen:
        if maps is None and lay.deployment is None:
            raise UserError(f"wh40kdc layout {quote(lay.id)} names no deployment map; give "
                            "--deployments ID,... or --all-pairings")
        for dep in maps if maps is not None else [lay.deployment]:
            b = battlefields.board(lay.id, dep)
            boards.append(PlannedBoard(lay.id, str(b.deployment), b.state,
                                       own=b.deployment == lay.deployment,
                                       mission=lay.mission_matchup,
                                       setup=dataset_marks(lay.id), source="wh40kdc"))
    if bases is None:
        from tabletop.survey import current

        chosen_b = current.catalogue()
        source = current.source(chosen_b)
    else:
        chosen_b, source = _catalogue_for(bases, None)
    return plan_boards(boards, chosen_b, catalogue_source=source, reach_bases=reach_bases)


def _catalogue_for(bases: Sequence[Mapping[str, Any]] | None, upath: Path | None
                   ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The plan's bases and its ``catalogue`` note: ``bases``, or the catalogue of the unit
    data at ``upath``, or the built-in one."""
    source: dict[str, Any]
    have_units = upath is not None and upath.is_file()
    if bases is None:
        if have_units:
            assert upath is not None
            bases = catalogue(upath)
            counts = base_counts(upath)
            source = {"source": str(upath), "distinct": len(counts[0]),
                      "units_without_base": counts[2]}
        else:
            bases = catalogue(None)
            note = f"{upath} not found: " if upath is not None else ""
            source = {"source": "built-in", "note": f"{note}the built-in list of 18 bases and "
                      "2 hulls, units not counted (give --bases to choose)"}
    else:
        source = {"source": "--bases"}
    chosen_b: list[dict[str, Any]] = [dict(b) for b in bases]
    if source["source"] == "--bases" and have_units:
        assert upath is not None
        # bases the unit data has get its counts and keywords
        n_units, kws, _ = base_counts(upath)
        for b in chosen_b:
            if isinstance(b["spec"], str) and b["spec"] in n_units:
                b["units"] = n_units[b["spec"]]
                b["keywords"] = movement_keywords(kws[b["spec"]])
        source["units"] = str(upath)
    return chosen_b, source


@dataclass(frozen=True)
class PlannedBoard:
    """A board to plan: a layout with a deployment map, as a scenario state (with two or more
    players that have deployment zones), and what the report shows of it besides."""

    layout: str
    deployment: str
    state: GameState
    own: bool = True
    """Whether the map is the layout's own."""
    mission: str | None = None
    setup: Sequence[Mapping[str, Any]] | None = None
    """Set-up marks from the data (keystones); ``None``: measured from the nearest edges."""
    source: str = "40kdc"


def sides_of(state: GameState) -> list[str]:
    """The players of a board that have a deployment zone, in the file's order."""
    return [p.id for p in state.players if p.deployment_zone]


def plan_boards(boards: Sequence[PlannedBoard], bases: Sequence[Mapping[str, Any]], *,
                catalogue_source: Mapping[str, Any] | None = None,
                reach_bases: Iterable[str] | None = None) -> dict[str, Any]:
    """The plan of ``boards`` for ``bases``.

    Per board and base: one gap-fit job; per side (each player with a deployment zone: red,
    the attacker's, and blue, the defender's, on 40kdc boards) one reach job and one
    advance-odds job, for the bases named in ``reach_bases`` only when it is given (reach is
    nearly all of a survey's time; a card needs it for a few bases; a name that is not among
    ``bases`` is read as ``--bases`` reads it and added).
    """
    chosen_b = [dict(b) for b in bases]
    movers = None if reach_bases is None else list(dict.fromkeys(reach_bases))
    if movers is not None:
        have = {str(b["name"]) for b in chosen_b}
        unknown = [m for m in movers if m not in have]
        if unknown:
            try:
                added = parse_bases(",".join(unknown), known=chosen_b + catalogue(None))
            except UserError as exc:
                raise UserError(str(exc).replace("--bases:", "--reach-bases:", 1)) from None
            chosen_b += [b for b in added if b["name"] not in have]
            movers = [m for m in movers if m in have] + [str(b["name"]) for b in added]
    base_ids = _unique([safe_id(str(b["name"])) for b in chosen_b])
    board_ids = _unique([f"{safe_id(b.layout)}__{safe_id(b.deployment)}" for b in boards])
    infos: dict[str, dict[str, Any]] = {}
    jobs: list[dict[str, Any]] = []
    for bid, pb in zip(board_ids, boards, strict=True):
        state = pb.state
        sides = sides_of(state)
        if len(sides) < 2:
            raise UserError(f"{pb.layout}: a survey needs two players with deployment zones; "
                            f"the board has {len(sides)}")
        text = dumps_scenario(state)
        setup = list(pb.setup) if pb.setup is not None else edge_marks(state)
        infos[bid] = board_info(bid, pb.layout, pb.deployment, state, own=pb.own,
                                mission=pb.mission, setup=setup,
                                setup_source="keystones" if pb.setup is not None
                                else "nearest edges", source=pb.source)
        for b, bname in zip(chosen_b, base_ids, strict=True):
            common = {"board": bid, "layout": pb.layout, "deployment": pb.deployment,
                      "scenario": text, "base": b}
            jobs.append({"id": f"{bid}__{bname}__gap-fit", **common, "measure": "gap-fit",
                         "side": None, "params": {}})
            if movers is not None and str(b["name"]) not in movers:
                continue
            for side in sides:
                jobs.append({"id": f"{bid}__{bname}__reach__{side}", **common,
                             "measure": "reach", "side": side,
                             "params": {k: (list(v) if isinstance(v, list) else v)
                                        for k, v in REACH_PARAMS.items()}})
                try:
                    start: list[float] | None = list(measures.start_point(state, b, side))
                except ValueError:
                    start = None     # the base fits nowhere there: the job says so
                jobs.append({"id": f"{bid}__{bname}__advance-odds__{side}", **common,
                             "measure": "advance-odds", "side": side,
                             "params": {"M": ADVANCE_M, "start": start}})
    return {"version": 1, "layouts": list(dict.fromkeys(b.layout for b in boards)),
            "deployments": list(dict.fromkeys(b.deployment for b in boards)),
            "bases": chosen_b, "catalogue": dict(catalogue_source or {"source": "--bases"}),
            "boards": infos, "jobs": jobs}


def plan_scenarios(paths: Sequence[str | Path], bases: Sequence[Mapping[str, Any]], *,
                   reach_bases: Iterable[str] | None = None,
                   catalogue_source: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The plan of scenario files (drafts of a layout): each file is a board, named after the
    file (``draft.toml``: layout ``draft``, deployment map ``own``), its set-up marks measured
    from the nearest edges."""
    boards = []
    for path in paths:
        state = load_scenario(path)
        boards.append(PlannedBoard(Path(path).stem, "own", state, setup=None,
                                   source="scenario"))
    return plan_boards(boards, bases, catalogue_source=catalogue_source,
                       reach_bases=reach_bases)


def _unique(ids: list[str]) -> list[str]:
    """``ids`` with repeats made distinct (``-2``, ``-3``, ...)."""
    seen: Counter[str] = Counter()
    out = []
    for i in ids:
        seen[i] += 1
        out.append(i if seen[i] == 1 else f"{i}-{seen[i]}")
    return out


# --------------------------------------------------------------------------------------------
# running a job
# --------------------------------------------------------------------------------------------
@lru_cache(maxsize=4)
def scenario_board(text: str) -> GameState:
    """The board of a job's scenario text (jobs of one board in one process share it, and
    with it the zone engine's caches, keyed by content)."""
    return loads_scenario(text, fmt="toml", source="survey board")


def _measure(job: Mapping[str, Any]) -> dict[str, Any]:
    board = scenario_board(job["scenario"])
    base = job["base"]
    params = job.get("params") or {}
    measure = job["measure"]
    if measure == "gap-fit":
        return measures.gap_fit(board, base)
    side = job["side"]
    if side not in {p.id for p in board.players}:
        raise ValueError(f"no player {side!r} on the board")
    if measure == "reach":
        return measures.reach(board, base, side, moves=params.get("moves",
                                                                   REACH_PARAMS["moves"]),
                              phases=int(params.get("phases", REACH_PARAMS["phases"])),
                              objective_range=float(params.get("objective_range", 3.0)))
    if measure == "advance-odds":
        return measures.advance_odds(board, base, side, M=float(params.get("M", ADVANCE_M)),
                                     start=params.get("start"),
                                     objective_range=float(params.get("objective_range",
                                                                      3.0)))
    raise ValueError(f"unknown measure {measure!r}: one of {', '.join(MEASURES)}")


def run_job(job: dict[str, Any]) -> dict[str, Any]:
    """Run one job; its own failure comes back as data (``ok`` false, ``error`` the type and
    message in one line), never as an exception."""
    t0 = time.perf_counter()
    try:
        value: dict[str, Any] | None = _measure(job)
        error = None
    except Exception as exc:  # a job's own failure is its result
        value = None
        msg = " ".join(str(exc).split())
        error = f"{type(exc).__name__}: {msg}"[:1000]
    seconds = time.perf_counter() - t0
    rest = {k: v for k, v in job.items() if k != "scenario"} if isinstance(job, Mapping) \
        else {}
    return {"id": rest.get("id"), "job": rest, "ok": error is None, "error": error,
            "seconds": round(seconds, 4), "value": value}


# --------------------------------------------------------------------------------------------
# balance
# --------------------------------------------------------------------------------------------
def balance(results: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per layout, deployment, base and M: each side's phases to every objective and areas
    after 1..3 moves, side by side, with the differences (first side minus second; ``None``
    where either is missing). ``imbalance`` is the sum of the absolute differences in phases
    (an objective one side cannot reach within the cap counts as cap + 1 phases), for
    ordering. Boards where a side's reach result is missing or failed are left out."""
    groups: dict[tuple[str, str, str], dict[str, Mapping[str, Any]]] = defaultdict(dict)
    for r in results:
        job = r.get("job") or {}
        if not r.get("ok") or job.get("measure") != "reach" or not r.get("value"):
            continue
        key = (str(job.get("layout")), str(job.get("deployment")),
               str((job.get("base") or {}).get("name")))
        groups[key][str(job.get("side"))] = r
    rows = []
    for (layout, deployment, base), sides in sorted(groups.items()):
        if len(sides) != 2:
            continue
        a, b = sorted(sides, key=lambda s: (SIDES.index(s) if s in SIDES else 9, s))
        va, vb = sides[a]["value"], sides[b]["value"]
        board = (sides[a].get("job") or {}).get("board")
        for m in va["moves"]:
            if m not in vb["moves"]:
                continue
            pa, pb = va["moves"][m], vb["moves"][m]
            diff = [None if x is None or y is None else x - y for x, y in zip(pa, pb,
                                                                              strict=False)]
            cap = measures.PHASE_CAP + 1
            imb = sum(abs((cap if x is None else x) - (cap if y is None else y))
                      for x, y in zip(pa, pb, strict=False))
            aa, ab = va["area"].get(m, []), vb["area"].get(m, [])
            rows.append({
                "board": board, "layout": layout, "deployment": deployment, "base": base,
                "M": float(m), "sides": [a, b],
                "phases": {a: pa, b: pb}, "phase_diff": diff,
                "area": {a: aa, b: ab},
                "area_diff": [round(x - y, 4) for x, y in zip(aa, ab, strict=False)],
                "imbalance": imb})
    return rows

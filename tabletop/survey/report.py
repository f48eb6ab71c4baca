"""The survey's report: ``OUT_DIR/report.html``, one static page built from the results (#16).

:func:`build_report` reads only ``OUT_DIR/plan.json`` and ``OUT_DIR/results/*.json`` (see
:mod:`tabletop.survey.report_data`) and writes one self-contained page: no script, font or
picture is fetched from anywhere (boards are inline SVG, plots inline PNG), so it opens from a
file in any browser. It has a summary, the catalogue of bases (each with the colour its gaps
get), the boards ordered by how much they favour one side, the plots (matplotlib, optional),
the failed jobs, and per board (collapsed) the board with its gaps coloured by the narrowest
base that fails them, reach heatmaps per side, the advance-odds map and the phases to each
objective by base and M. Missing and failed jobs leave holes that the page names; every string
from the files is escaped; the same files give the same bytes.
"""

from __future__ import annotations

import html
import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tabletop import __version__
from tabletop.files import atomic_write
from tabletop.importers import kdc
from tabletop.survey import report_svg as svg
from tabletop.survey.jobs import balance
from tabletop.survey.measures import PHASE_CAP
from tabletop.survey.report_data import (
    AdvanceOdds,
    Base,
    BoardInfo,
    GapFit,
    Job,
    Reach,
    Survey,
    counted,
    load,
    of_measure,
)

__all__ = ["build_report"]

GAP_RAMP = ("#7a0177", "#c51b8a", "#e34a33", "#fd8d3c", "#d9b51c", "#78c679", "#31a354",
            "#1d91c0", "#253494")
"""Colours of the bases from the narrowest (a gap it fails shuts nearly everything) up."""
PASSES_ALL = "#9a9a9a"
TOP_LEANS = 50
"""Rows of the table of the most unbalanced (board, base, M)."""
GROUND_EVEN = 0.02
"""A ground lead up to this (2 %) counts as even."""
RING_SHADES = (0.62, 0.38, 0.18)
"""Opacity of the side's colour for the ground reached in 1, 2, 3 phases."""
ODDS_RAMP = ("#fff5d6", "#fdd49e", "#fc8d59", "#d7301f", "#990000", "#4a0000")
"""Fill of the advance zones by probability: roll 6 (1/6) lightest, roll 1 (certain) darkest."""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


# ---------------------------------------------------------------------------------------------
# what the page shows, gathered from the survey


@dataclass
class Gap:
    """A passage of a board, as the bases of the catalogue found it."""

    a: str
    b: str
    width: float
    neck: tuple[tuple[float, float], tuple[float, float]]
    fails: list[str] = field(default_factory=list)
    passes: list[str] = field(default_factory=list)
    shut_by: dict[str, str] = field(default_factory=dict)


@dataclass
class Board:
    key: str
    anchor: str
    info: BoardInfo
    sides: list[str]
    gaps: list[Gap]
    reach: dict[tuple[str, str], Reach]
    """By (side, base name)."""
    odds: dict[tuple[str, str], AdvanceOdds]
    jobs: list[Job]


def _bases(survey: Survey) -> list[Base]:
    """The catalogue from the narrowest base, with any base a job names that it lacks."""
    seen = {b.name: b for b in survey.plan.bases}
    for j in survey.plan.jobs:
        seen.setdefault(j.base.name, j.base)
    return sorted(seen.values(), key=lambda b: (b.width, b.length, b.name))


def _gaps(survey: Survey, jobs: list[Job], order: dict[str, int]) -> list[Gap]:
    """The passages of a board found by any base. A base lists only the passages narrower than
    its own diameter plus 1" (``geometry.passages``): one it does not list, it gets through."""
    gaps: dict[tuple[object, ...], Gap] = {}
    measured = []
    for job, value in of_measure(survey, "gap-fit", jobs):
        assert isinstance(value, GapFit)
        measured.append(job.base.name)
        for p in value.passages:
            b = p.edge if p.b == "edge" and p.edge else p.b
            ends = sorted([(p.a, p.neck[0]), (b, p.neck[1])])
            k = tuple((name, round(x, 2), round(y, 2)) for name, (x, y) in ends)
            gap = gaps.setdefault(k, Gap(ends[0][0], ends[1][0], p.width,
                                         (ends[0][1], ends[1][1])))
            (gap.passes if p.passes else gap.fails).append(job.base.name)
            if p.shut_by is not None:
                gap.shut_by[job.base.name] = p.shut_by
    for gap in gaps.values():
        gap.passes += [n for n in measured if n not in gap.fails and n not in gap.passes]
        for names in (gap.fails, gap.passes):
            names.sort(key=lambda n: order.get(n, len(order)))
    return sorted(gaps.values(), key=lambda g: (g.width, g.a, g.b))


def _boards(survey: Survey, order: dict[str, int]) -> list[Board]:
    """The plan's boards grouped by layout (in the plan's order), each with its results."""
    plan = survey.plan
    layouts: dict[str, int] = {}
    for info in plan.boards.values():
        layouts.setdefault(info.layout, len(layouts))
    keys = sorted(plan.boards, key=lambda k: layouts[plan.boards[k].layout])
    by_board: dict[str, list[Job]] = defaultdict(list)
    for job in plan.jobs:
        by_board[job.board].append(job)
    boards = []
    for n, key in enumerate(keys, 1):
        info, jobs = plan.boards[key], by_board[key]
        sides = list(info.zones) + sorted({j.side for j in jobs if j.side} - set(info.zones))
        reach = {(j.side or "", j.base.name): v for j, v in of_measure(survey, "reach", jobs)}
        odds = {(j.side or "", j.base.name): v for j, v in of_measure(survey, "advance-odds", jobs)}
        boards.append(Board(key, f"board-{n}", info, sides, _gaps(survey, jobs, order), reach,
                            odds, jobs))
    return boards


def _shares(boards: Sequence[Board]) -> dict[str, tuple[int, int]]:
    """By base: the boards' gaps it gets through, and the gaps of the boards it was measured
    on."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for board in boards:
        for gap in board.gaps:
            for name in gap.passes:
                out[name][0] += 1
            for name in gap.passes + gap.fails:
                out[name][1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def _reference(bases: Sequence[Base], names: Iterable[str]) -> Base | None:
    """The base the maps are drawn for: the one most units use among ``names``."""
    have = set(names)
    chosen = [b for b in bases if b.name in have]
    return max(chosen, key=lambda b: b.units, default=None)


# ---------------------------------------------------------------------------------------------
# pictures


def _terrain(board: Board) -> str:
    """The board's terrain as a group, drawn in its gap picture; the other pictures of the
    board reuse it (:func:`_terrain_again`), so the page holds each outline once."""
    out = []
    kinds = sorted(board.info.terrain, key=lambda p: p.kind != "area")  # areas under features
    for piece in kinds:  # attributes, not classes: the page's style misses <use> copies
        fill, stroke, _ = svg.terrain_style(piece.kind)
        out.append(svg.shape(piece.wkt, title=f"{piece.id} ({piece.kind})", fill=fill,
                             stroke=stroke, stroke_width=0.06))
    return f'<g id="{board.anchor}-terrain">{"".join(out)}</g>'


def _terrain_again(board: Board) -> str:
    """The board's terrain, faded, over a map (the group of :func:`_terrain`)."""
    return f'<use href="#{board.anchor}-terrain" opacity="0.55"/>'


def _zones(board: Board, only: str | None = None) -> list[str]:
    out = []
    for i, side in enumerate(board.sides):
        zone = board.info.zones.get(side)
        if zone is None or (only is not None and side != only):
            continue
        c = svg.side_colour(side, i)
        out.append(svg.shape(zone, "zn", title=f"deployment zone of {side}", fill=c, stroke=c))
    return out


def _objectives(info: BoardInfo, radius: float) -> list[str]:
    out = []
    for i, (x, y) in enumerate(info.objectives, 1):
        out.append(svg.circle((x, y), radius, "or"))
        out.append(svg.circle((x, y), 0.8, "om", title=f"objective {i} ({x:.2f}, {y:.2f})"))
        out.append(svg.text((x, y), str(i), "ob"))
    return out


def _param(board: Board, measure: str, key: str, default: float) -> float:
    """A number of the board's first ``measure`` job's params (the plan gives all the same)."""
    for j in board.jobs:
        v = j.params.get(key)
        if j.measure == measure and isinstance(v, int | float) and math.isfinite(v):
            return v
    return default


def _objective_range(board: Board) -> float:
    return float(_param(board, "reach", "objective_range", 3.0))


def _gap_colour(gap: Gap, colours: dict[str, str]) -> str:
    return colours.get(gap.fails[0], PASSES_ALL) if gap.fails else PASSES_ALL


def _gap_title(n: int, gap: Gap) -> str:
    first = gap.fails[0] if gap.fails else None
    tail = (f"narrowest base that fails it: {first}" if first
            else "every base surveyed gets through")
    return f"gap {n}: {gap.a} - {gap.b}, {gap.width:.2f}\"; {tail}"


def _gap_picture(board: Board, colours: dict[str, str]) -> str:
    info = board.info
    body = [*_zones(board), _terrain(board), *_objectives(info, _objective_range(board))]
    body.append(svg.segments((g.neck for g in board.gaps), "nk0"))
    body += [svg.line(*g.neck, "nk", title=_gap_title(n, g), stroke=_gap_colour(g, colours))
             for n, g in enumerate(board.gaps, 1)]
    for n, gap in enumerate(board.gaps, 1):
        (ax, ay), (bx, by) = gap.neck
        body.append(svg.text(((ax + bx) / 2, (ay + by) / 2 - 1.0), str(n)))
    return svg.board_svg(info.width, info.height, body,
                         label=f"{info.layout}, {info.deployment}: gaps")


def _reach_picture(board: Board, side: str, index: int, reach: Reach) -> tuple[str, str]:
    m, rings = next(iter(sorted(reach.rings.items())), ("", []))
    c = svg.side_colour(side, index)
    body = _zones(board, only=side)
    for k in range(len(rings) - 1, -1, -1):
        op = RING_SHADES[min(k, len(RING_SHADES) - 1)]
        body.append(svg.shape(rings[k], title=f"{side}: reached in {k + 1} "
                              f"phase{'s' if k else ''} of M={m}", fill=c, fill_opacity=op))
    body += [_terrain_again(board), *_objectives(board.info, _objective_range(board))]
    label = f"{board.info.layout}, {board.info.deployment}: reach of {side}, M={m}"
    return svg.board_svg(board.info.width, board.info.height, body, label=label,
                         css_class="board half"), m


def _odds_picture(board: Board, side: str, index: int, odds: AdvanceOdds) -> str:
    body = _zones(board, only=side)
    for band in sorted(odds.bands, key=lambda b: -b.roll):
        body.append(svg.shape(band.wkt, title=f"{side}: roll {band.roll} or more, "
                              f"p = {band.p:.2f}", fill=ODDS_RAMP[6 - min(max(band.roll, 1), 6)]))
    body += [_terrain_again(board), *_objectives(board.info, _objective_range(board))]
    body.append(svg.circle(odds.start, 0.6, title=f"start ({odds.start[0]:.2f}, "
                           f"{odds.start[1]:.2f})", fill="#111", stroke="#fff", stroke_width=0.15))
    label = f"{board.info.layout}, {board.info.deployment}: advance odds of {side}"
    return svg.board_svg(board.info.width, board.info.height, body, label=label,
                         css_class="board half")


# ---------------------------------------------------------------------------------------------
# the page


def _table(head: Sequence[str] | str | None, rows: Iterable[Sequence[str]], *, cls: str = "",
           sortable: bool = False, numeric: Iterable[int] = ()) -> str:
    """A table of markup (escape before): ``head`` is the header cells, or the header's rows
    as markup, or none; the ``numeric`` columns are right-aligned; a cell that is a whole
    ``<td ...>`` is kept as it is."""
    classes = " ".join(x for x in (cls, "sortable" if sortable else "") if x)
    attr = f' class="{classes}"' if classes else ""
    if isinstance(head, str):
        thead = f"<thead>{head}</thead>"
    elif head:
        thead = "<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>"
    else:
        thead = ""
    right = set(numeric)
    trs = "".join("<tr>" + "".join(
        c if c.startswith("<td") else f'<td class="n">{c}</td>' if i in right else f"<td>{c}</td>"
        for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table{attr}>{thead}<tbody>{trs}</tbody></table>"


def _swatch(colour: str) -> str:
    return f'<span class="sw" style="background:{colour}"></span>'


def _summary(survey: Survey, bases: Sequence[Base], boards: Sequence[Board]) -> str:
    plan = survey.plan
    layouts = sorted({b.info.layout for b in boards})
    deployments = sorted({b.info.deployment for b in boards})
    done, failed, missing = len(survey.values), len(survey.failed), len(survey.missing)
    rows = [
        ("Layouts", f"{len(layouts)}: " + ", ".join(_e(x) for x in layouts)),
        ("Deployment maps", f"{len(deployments)}: " + ", ".join(_e(x) for x in deployments)),
        ("Boards (layout x map)", str(len(boards))),
        ("Bases", f"{len(bases)}, from {_e(bases[0].name)} to {_e(bases[-1].name)}"
         if bases else "0"),
        ("Jobs", f"{len(plan.jobs)}: {done} done, "
         + (f'<a href="#failed">{failed} failed</a>' if failed else "0 failed")
         + f", {missing} missing (no result yet)"),
        ("Compute time", f"{survey.seconds:.1f} s summed over the results"),
    ]
    for key in ("created", "started", "finished"):
        value = survey.raw_plan.get(key)
        if isinstance(value, str | int | float):
            rows.append((f"Plan {key}", _e(value)))
    if survey.stray:
        rows.append(("Other files", f"{survey.stray} result files match no job of the plan "
                     "and are left out"))
    note = ("" if not missing and not failed else
            '<p class="warn">Some jobs have no usable result: the pictures and tables below '
            "leave their cells empty (–) and each board says what it lacks. Rerun the survey "
            "on the same folder to finish it (finished jobs are not done again), then rebuild "
            "this page with <code>tabletop survey --report OUT_DIR</code>.</p>")
    return ('<section id="summary"><h2>Summary</h2>'
            + _table(None, ((f"<b>{k}</b>", v) for k, v in rows), cls="kv") + note
            + "</section>")


def _bases_section(bases: Sequence[Base], colours: dict[str, str]) -> str:
    rows = [(_swatch(colours[b.name]), _e(b.name), f"{b.width:.2f}", f"{b.length:.2f}",
             str(b.units)) for b in bases]
    rows.append((_swatch(PASSES_ALL), "every base surveyed gets through", "", "", ""))
    return ('<section id="bases"><h2>Bases</h2><p>The catalogue, from the narrowest base '
            "(least width, then greatest). On the boards each gap is drawn in the colour of "
            "the narrowest base that does <em>not</em> get through it (straight through its "
            "neck at its roomiest facing, clear of the pieces around); every base narrower "
            "than that one gets through, and most wider ones do not (a wide round base may "
            "still pass where a long oval is stopped: each board's table of gaps names the "
            "widest base through).</p>"
            + _table(("", "Base", "Least width (in)", "Greatest width (in)", "40kdc units"),
                     rows) + "</section>")


def _failed_section(survey: Survey) -> str:
    jobs = {j.id: j for j in survey.plan.jobs}
    rows = [(_e(i), _e(jobs[i].layout), _e(jobs[i].deployment), _e(jobs[i].base.name),
             _e(jobs[i].measure), _e(jobs[i].side or ""), f'<pre>{_e(err)}</pre>')
            for i, err in sorted(survey.failed.items())]
    missing = survey.missing
    body = (_table(("Job", "Layout", "Map", "Base", "Measure", "Side", "Error"), rows)
            if rows else "<p>None.</p>")
    if missing:
        shown = ", ".join(_e(j.id) for j in missing[:50])
        more = f" and {len(missing) - 50} more" if len(missing) > 50 else ""
        body += f"<p>{len(missing)} jobs have no result yet: {shown}{more}.</p>"
    return f'<section id="failed"><h2>Failed jobs</h2>{body}</section>'


def _gap_table(board: Board) -> str:
    rows = []
    for n, g in enumerate(board.gaps, 1):
        first = g.fails[0] if g.fails else None
        shut = sorted({g.shut_by[b] for b in g.fails if b in g.shut_by})
        rows.append((str(n), _e(g.a), _e(g.b), f"{g.width:.2f}",
                     _e(g.passes[-1]) if g.passes else "none",
                     _e(first) if first else "none",
                     ", ".join(_e(s) for s in shut)))
    if not rows:
        return "<p>No passage narrower than the widest base's limit.</p>"
    return _table(("Gap", "Between", "and", "Width (in)", "Widest base through",
                   "Narrowest base stopped", "Shut by (a piece beside the neck)"), rows,
                  numeric=(0, 3))


def _gap_legend(board: Board, colours: dict[str, str], bases: Sequence[Base]) -> str:
    used = {g.fails[0] for g in board.gaps if g.fails}
    items = [f"<li>{_swatch(colours[b.name])}stops {_e(b.name)} first</li>"
             for b in bases if b.name in used]
    if any(not g.fails for g in board.gaps):
        items.append(f"<li>{_swatch(PASSES_ALL)}every base surveyed gets through</li>")
    kinds = sorted({p.kind for p in board.info.terrain})
    items += [f"<li>{_swatch(svg.terrain_style(k)[0])}{_e(svg.terrain_style(k)[2])}</li>"
              for k in kinds]
    items += [f'<li>{_swatch(svg.side_colour(s, i))}deployment zone of {_e(s)}</li>'
              for i, s in enumerate(board.sides) if s in board.info.zones]
    items.append(f'<li>{_swatch("#ffd24a")}objective, dashed: its '
                 f'{_objective_range(board):g}" range</li>')
    return f'<ul class="legend">{"".join(items)}</ul>'


def _phases_table(board: Board, bases: Sequence[Base]) -> str:
    n_obj = len(board.info.objectives)
    head = ('<tr><th rowspan="2">Base</th><th rowspan="2">M</th>'
            + "".join(f'<th colspan="{n_obj + 1}">{_e(s)}: phases to objective …</th>'
                      for s in board.sides) + "</tr><tr>"
            + "".join("".join(f"<th>{i}</th>" for i in range(1, n_obj + 1))
                      + "<th>area after 1/2/3 (sq in)</th>" for s in board.sides) + "</tr>")
    rows = []
    for base in bases:
        ms = sorted({m for (s, b), r in board.reach.items() if b == base.name for m in r.moves},
                    key=float)
        for m in ms:
            row = [_e(base.name), _e(m)]
            per_side = []
            for s in board.sides:
                r = board.reach.get((s, base.name))
                moves = r.moves.get(m, []) if r else []
                per_side.append([moves[i] if i < len(moves) else None for i in range(n_obj)]
                                if r else None)
            for k, s in enumerate(board.sides):
                vals = per_side[k]
                r = board.reach.get((s, base.name))
                for i in range(n_obj):
                    v = vals[i] if vals else None
                    others = [p[i] for j, p in enumerate(per_side) if j != k and p]
                    best = bool(others) and all(_faster(v, o) for o in others)
                    cell = "–" if vals is None else _phase(v)
                    row.append(f'<td class="b">{cell}</td>' if best else cell)
                areas = r.area.get(m, []) if r else []
                row.append("/".join(f"{a:.0f}" for a in areas) if areas else "–")
            rows.append(row)
    if not rows:
        return "<p>No reach result for this board.</p>"
    return _table(head, rows, cls="phases")


def _faster(v: int | None, o: int | None) -> bool:
    if v is None:
        return False
    return o is None or v < o


def _measure_status(survey: Survey, board: Board, measure: str) -> str:
    jobs = [j for j in board.jobs if j.measure == measure]
    failed = sum(j.id in survey.failed for j in jobs)
    missing = sum(j.id not in survey.values and j.id not in survey.failed for j in jobs)
    if not failed and not missing:
        return ""
    bits = [f"{failed} failed" if failed else "", f"{missing} without a result" if missing
            else ""]
    return (f'<p class="warn">{len(jobs) - failed - missing} of {len(jobs)} {measure} jobs '
            f"done ({', '.join(b for b in bits if b)}).</p>")


def _reach_maps(board: Board, bases: Sequence[Base]) -> str:
    ref = _reference(bases, (b for (s, b), r in board.reach.items() if r.rings))
    if ref is None:
        return "<p>No reach rings for this board.</p>"
    figs = []
    m = ""
    for i, side in enumerate(board.sides):
        r = board.reach.get((side, ref.name))
        if r is None or not r.rings:
            figs.append(f"<figure><p>No reach result for {_e(side)}.</p></figure>")
            continue
        picture, m = _reach_picture(board, side, i, r)
        figs.append(f"<figure>{picture}<figcaption>{_e(side)}</figcaption></figure>")
    c = svg.side_colour(board.sides[0], 0) if board.sides else "#555"
    legend = "".join(f'<li><span class="sw" style="background:{c};opacity:{op}"></span>'
                     f"{k} phase{'s' if k > 1 else ''}</li>"
                     for k, op in enumerate(RING_SHADES, 1))
    return (f"<p>Ground a {_e(ref.name)} base ({ref.units} units) can reach from anywhere in "
            f"its deployment zone with M={_e(m)}, after 1, 2 and 3 Movement phases of normal "
            f'moves (darker: sooner).</p><div class="pair">{"".join(figs)}</div>'
            f'<ul class="legend">{legend}</ul>')


def _odds_maps(board: Board, bases: Sequence[Base]) -> str:
    ref = _reference(bases, (b for (s, b) in board.odds))
    if ref is None:
        return "<p>No advance-odds result for this board.</p>"
    figs = []
    m = ""
    for i, side in enumerate(board.sides):
        o = board.odds.get((side, ref.name))
        if o is None:
            figs.append(f"<figure><p>No advance-odds result for {_e(side)}.</p></figure>")
            continue
        m = f"{o.M:g}"
        figs.append(f"<figure>{_odds_picture(board, side, i, o)}<figcaption>{_e(side)}, from "
                    f"({o.start[0]:.1f}, {o.start[1]:.1f})</figcaption></figure>")
    legend = "".join(f'<li>{_swatch(ODDS_RAMP[6 - k])}{(7 - k) / 6:.0%} (roll {k}'
                     f'{"+" if k < 6 else ""})</li>' for k in range(1, 7))
    return (f"<p>Where one advance of a {_e(ref.name)} base with M={m} from the "
            "marked start (black dot) ends, by the chance of the D6 advance roll: the shade "
            "of a point is the probability that the roll lets the base reach it (exact, the "
            f'six zones are nested).</p><div class="pair">{"".join(figs)}</div>'
            f'<ul class="legend">{legend}</ul>')


def _board_section(survey: Survey, board: Board, bases: Sequence[Base],
                   colours: dict[str, str], leans: Sequence[Lean]) -> str:
    info = board.info
    gapfit = any(j.id in survey.values for j in board.jobs if j.measure == "gap-fit")
    if gapfit:
        shut = [g for g in board.gaps if g.fails]
        brief = (f"{len(board.gaps)} gaps, {len(shut)} stop some base"
                 + (f", narrowest {board.gaps[0].width:.2f}\"" if board.gaps else ""))
    else:
        brief = "no gap-fit result"
    if leans:
        side, lead, _ = _board_lean(leans)
        brief += f"; favours {_e(side)} by {lead:.2f} phases" if side else "; even"
    errors = [(j, survey.failed[j.id]) for j in board.jobs if j.id in survey.failed]
    parts = [f'<details id="{board.anchor}"><summary><b>{_e(info.layout)}</b> · '
             f'{_e(info.deployment)} <span class="muted">({brief}'
             f'{f", {len(errors)} failed jobs" if errors else ""})</span></summary>',
             f'<p class="muted">Board {_e(board.key)}, {info.width:g}" x {info.height:g}", '
             f"{len(info.terrain)} terrain pieces, {len(info.objectives)} objectives.</p>",
             "<h4>Gaps</h4>", _measure_status(survey, board, "gap-fit")]
    if gapfit:
        parts += [f'<div class="wide">{_gap_picture(board, colours)}</div>',
                  _gap_legend(board, colours, bases), _gap_table(board)]
    else:
        parts.append(f'<div class="wide">{_gap_picture(board, colours)}</div>'
                     "<p>No gap-fit result: the board is drawn without its gaps.</p>")
    parts += ["<h4>Reach</h4>", _measure_status(survey, board, "reach"),
              _reach_maps(board, bases),
              "<h4>Advance odds</h4>", _measure_status(survey, board, "advance-odds"),
              _odds_maps(board, bases),
              "<h4>Movement phases to each objective</h4>",
              "<p>Phases of normal moves a base needs, from the best start in its deployment "
              "zone, to come within the objective's range; the side that needs fewer is "
              "marked. Areas: the ground it can reach after 1, 2 and 3 phases.</p>",
              _phases_table(board, bases)]
    if errors:
        rows = [(_e(j.id), _e(j.base.name), _e(j.measure), _e(j.side or ""),
                 f"<pre>{_e(err)}</pre>") for j, err in errors]
        parts += ["<h4>Failed jobs</h4>", _table(("Job", "Base", "Measure", "Side", "Error"),
                                                 rows)]
    parts.append("</details>")
    return "".join(parts)


@dataclass
class Lean:
    """How far one board leans to one side for one base and M (a row of ``jobs.balance``)."""

    board: Board
    base: Base
    m: str
    sides: tuple[str, str]
    phases: tuple[list[int | None], list[int | None]]
    """Phases of the two sides to each objective (``None``: out of reach)."""
    imbalance: float
    """``jobs.balance``'s: the objectives' differences in phases, absolute, summed."""
    lead: int
    """The second side's phases summed over the objectives less the first's (see
    :func:`~tabletop.survey.report_data.counted`): positive, the first side is nearer the
    objectives as a whole. Unlike ``imbalance``, a mirrored board's home objectives cancel."""
    ground: float
    """The first side's ground after one phase less the second's, over their mean."""

    @property
    def favoured(self) -> str:
        """The side the board favours ("" if neither)."""
        if self.lead:
            return self.sides[0 if self.lead > 0 else 1]
        if abs(self.ground) > GROUND_EVEN:
            return self.sides[0 if self.ground > 0 else 1]
        return ""

    @property
    def score(self) -> tuple[float, float, float]:
        return abs(self.lead), abs(self.ground), self.imbalance

    @property
    def favoured_ground(self) -> float:
        """:attr:`ground` from the favoured side's view (the first side's when even)."""
        return -self.ground if self.favoured == self.sides[1] else self.ground


def _leans(survey: Survey, boards: Sequence[Board], bases: Sequence[Base]
           ) -> dict[str, list[Lean]]:
    """The rows of ``jobs.balance`` over the results, by board key."""
    by_key = {b.key: b for b in boards}
    by_name = {b.name: b for b in bases}
    out: dict[str, list[Lean]] = defaultdict(list)
    for row in balance(survey.results):
        board, base = by_key.get(str(row["board"])), by_name.get(str(row["base"]))
        if board is None or base is None:
            continue
        a, b = row["sides"]
        pa, pb = row["phases"][a], row["phases"][b]
        lead = sum(counted(y) - counted(x) for x, y in zip(pa, pb, strict=False))
        aa, ab = row["area"][a], row["area"][b]
        mean = (aa[0] + ab[0]) / 2 if aa and ab else 0.0
        ground = (aa[0] - ab[0]) / mean if mean > 0 else 0.0
        out[board.key].append(Lean(board, base, f"{row['M']:g}", (a, b), (pa, pb),
                                   float(row["imbalance"]), lead, ground))
    return out


def _cell(v: float, text: str) -> str:
    return f'<td class="n" data-v="{v:.6g}">{text}</td>'


def _phase(p: int | None) -> str:
    return f">{PHASE_CAP}" if p is None else str(p)


def _board_lean(leans: Sequence[Lean]) -> tuple[str, float, float]:
    """The side a board favours over all its bases and M ("" if neither), by how many phases
    (mean lead) and how much ground (mean ground lead)."""
    mean = sum(x.lead for x in leans) / len(leans)
    ground = sum(x.ground for x in leans) / len(leans)
    sides = leans[0].sides
    if abs(mean) >= 0.05:
        return sides[0 if mean > 0 else 1], abs(mean), ground if mean > 0 else -ground
    if abs(ground) > GROUND_EVEN:
        return sides[0 if ground > 0 else 1], abs(mean), abs(ground)
    return "", abs(mean), abs(ground)


def _balance_section(leans: dict[str, list[Lean]], boards: Sequence[Board]) -> str:
    summary = []
    for board in boards:
        rows = leans.get(board.key)
        if not rows:
            continue
        side, lead, ground = _board_lean(rows)
        worst = max(rows, key=lambda x: x.score)
        imb = sum(x.imbalance for x in rows) / len(rows)
        summary.append(((lead, abs(ground), imb), (
            f'<a href="#{board.anchor}">{_e(board.info.layout)}</a>', _e(board.info.deployment),
            _e(side) if side else "even", _cell(lead, f"{lead:.2f}"),
            _cell(ground, f"{ground:+.0%}"), _cell(imb, f"{imb:.1f}"),
            f"{_e(worst.base.name)}, M={_e(worst.m)}: "
            + (f"{_e(worst.favoured)} by {abs(worst.lead)}" if worst.favoured else "even"),
            _cell(len(rows), str(len(rows))))))
    if not summary:
        return ('<section id="balance"><h2>Balance</h2><p>No board has reach results for both '
                "of its sides yet.</p></section>")
    summary.sort(key=lambda r: r[0], reverse=True)
    head = ("Layout", "Map", "Favoured side", "Mean phase lead", "Mean ground lead",
            "Mean imbalance", "Largest lead (base, M)", "Base x M compared")
    board_table = _table(head, (r for _, r in summary), sortable=True)
    top = sorted((x for rows in leans.values() for x in rows), key=lambda x: x.score,
                 reverse=True)[:TOP_LEANS]
    combo = [(f'<a href="#{x.board.anchor}">{_e(x.board.info.layout)}</a>',
              _e(x.board.info.deployment), _e(x.base.name), _e(x.m),
              *(f'<td class="ph">{_e(side)}: {" ".join(_phase(p) for p in ph)}</td>'
                for side, ph in zip(x.sides, x.phases, strict=True)),
              _e(x.favoured) if x.favoured else "even", _cell(abs(x.lead), str(abs(x.lead))),
              _cell(x.favoured_ground, f"{x.favoured_ground:+.0%}"),
              _cell(x.imbalance, f"{x.imbalance:g}"))
             for x in top]
    combo_table = _table(("Layout", "Map", "Base", "M", "Phases to objectives 1, 2, …",
                          "and the other side's", "Favoured", "Phase lead",
                          "Ground lead", "Imbalance"), combo, sortable=True)
    return ('<section id="balance"><h2>Balance</h2>'
            "<p>Does a board favour one side? For each base and M, the <b>phase lead</b> is "
            "how many Movement phases fewer the favoured side needs, summed over the "
            "objectives, to bring the base within range of each (an objective out of reach "
            f"in {PHASE_CAP} phases counts as {PHASE_CAP + 1}): on a mirrored board each "
            "side's home objective cancels the other's. The <b>ground lead</b> is how much "
            "more ground the favoured side reaches in its first phase, against the two sides' "
            "mean; the <b>imbalance</b> the objectives' differences summed without their "
            "signs (how differently the two sides play the board, even when neither is "
            "ahead). Boards from the most unbalanced; click a column to sort by it.</p>"
            + board_table
            + f"<h3>The {len(top)} most unbalanced bases and moves</h3>" + combo_table
            + "</section>")


def _contents(boards: Sequence[Board]) -> str:
    by_layout: dict[str, list[Board]] = defaultdict(list)
    for b in boards:
        by_layout[b.info.layout].append(b)
    items = "".join(f"<li>{_e(layout)}: "
                    + " · ".join(f'<a href="#{b.anchor}">{_e(b.info.deployment)}</a>'
                                 for b in bs) + "</li>"
                    for layout, bs in by_layout.items())
    return ('<nav id="contents"><h2>Contents</h2><ol class="toc">'
            '<li><a href="#summary">Summary</a></li><li><a href="#bases">Bases</a></li>'
            '<li><a href="#balance">Balance</a></li><li><a href="#plots">Plots</a></li>'
            '<li><a href="#failed">Failed jobs</a></li><li><a href="#boards">Boards</a>'
            f'<ul class="layouts">{items}</ul></li></ol></nav>')


CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
margin:0 auto;max-width:1180px;padding:0 18px 40px;color:#1b1b1b;background:#fff}
h1{margin:18px 0 4px}h2{border-bottom:2px solid #ddd;padding-bottom:3px;margin-top:28px}
h3{margin:22px 0 6px}h4{margin:16px 0 4px}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{border:1px solid #d6d6d6;padding:2px 7px;text-align:left;vertical-align:top}
th{background:#f1f1f1}td.n{text-align:right}table.kv td:first-child{white-space:nowrap}
table.sortable th{cursor:pointer}table.sortable th:hover{background:#e2e8f0}
td.b{background:#dff3e3;font-weight:600}
table.phases td{text-align:right}table.phases td:first-child{text-align:left}
td.ph{white-space:nowrap}pre{margin:0;white-space:pre-wrap;max-width:560px}
.sw{display:inline-block;width:14px;height:14px;border:1px solid #555;vertical-align:-2px;
margin-right:5px}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px}
details{border:1px solid #ddd;border-radius:6px;padding:4px 10px;margin:6px 0}
details[open]{background:#fcfcfa}summary{cursor:pointer;padding:3px 0}
.muted{color:#666}.warn{background:#fff4d6;border-left:4px solid #e0a800;padding:4px 8px}
svg.board{width:100%;max-width:900px;height:auto;display:block}
svg.board.half{max-width:540px}.pair{display:flex;flex-wrap:wrap;gap:12px}
.pair figure{flex:1 1 420px;margin:0}figcaption{text-align:center;font-weight:600}
img.plot{max-width:100%;height:auto}ul.layouts{columns:2;font-size:14px}
"""

SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function(t){
  t.querySelectorAll('th').forEach(function(th,i){th.title='sort by this column';
    th.addEventListener('click',function(){
      var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),up=th.dataset.dir!=='up';
      th.dataset.dir=up?'up':'down';
      var key=function(r){var c=r.cells[i];
        return c.dataset.v!==undefined?c.dataset.v:c.textContent};
      rows.sort(function(x,y){var p=key(x),q=key(y),a=parseFloat(p),c=parseFloat(q);
        var d=(isNaN(a)||isNaN(c))?p.localeCompare(q):a-c;return up?d:-d});
      rows.forEach(function(r){b.appendChild(r)});});});});
function openTarget(){var id=decodeURIComponent(location.hash.slice(1));
  var e=id&&document.getElementById(id);if(e&&e.tagName==='DETAILS'){e.open=true}}
window.addEventListener('hashchange',openTarget);openTarget();
"""


def render(survey: Survey) -> str:
    """The page of a survey (a string of HTML)."""
    from tabletop.survey.report_plots import plots_section

    bases = _bases(survey)
    order = {b.name: i for i, b in enumerate(bases)}
    colours = {b.name: svg.ramp(GAP_RAMP, i / max(1, len(bases) - 1))
               for i, b in enumerate(bases)}
    boards = _boards(survey, order)
    leans = _leans(survey, boards, bases)
    by_layout: dict[str, list[Board]] = defaultdict(list)
    for b in boards:
        by_layout[b.info.layout].append(b)
    board_html = "".join(f"<h3>{_e(layout)}</h3>"
                         + "".join(_board_section(survey, b, bases, colours, leans.get(b.key, []))
                                   for b in bs)
                         for layout, bs in by_layout.items())
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            "<title>Layout survey</title><style>" + CSS + svg.CSS + "</style></head><body>"
            "<h1>Layout survey</h1><p class=\"muted\">Which gaps each base gets through, how "
            "many Movement phases each side needs to reach each objective, and the odds of an "
            "advance, on every layout and deployment map surveyed (tabletop survey).</p>"
            + _contents(boards) + _summary(survey, bases, boards)
            + _bases_section(bases, colours) + _balance_section(leans, boards)
            + plots_section(survey, bases, _shares(boards)) + _failed_section(survey)
            + f'<section id="boards"><h2>Boards</h2>{board_html}</section>'
            + f'<footer class="muted"><p>Terrain layouts, deployment maps and unit data: '
            f"{_e(kdc.CREDIT)}, licensed CC BY 4.0 (creativecommons.org/licenses/by/4.0), "
            "from the public repository wn-mitch/40kdc-data. Built by tabletop "
            f"{_e(__version__)} from this folder's plan.json and results.</p></footer>"
            + "<script>" + SCRIPT + "</script></body></html>\n")


def build_report(out_dir: str | Path, page: str | Path | None = None) -> Path:
    """Write ``OUT_DIR/report.html`` (or ``page``: the survey's folder may be read-only) from
    ``OUT_DIR/plan.json`` and ``OUT_DIR/results/``.

    Returns the page's path. Raises :class:`~tabletop.errors.UserError` when the plan is
    missing or unusable; missing, failed or malformed results only leave holes the page names.
    """
    survey = load(out_dir)
    return atomic_write(Path(page) if page is not None else Path(out_dir) / "report.html",
                        render(survey))

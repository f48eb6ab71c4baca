"""A layout's page of the survey report: everything measured on one layout (#16, #29).

One page per layout (``OUT_DIR/layouts/<layout>.html``), its own deployment map first and open,
any other map of the plan below it, collapsed. Per board: the gaps (the picture, the table of
every gap with the largest base through, its facing and clearance, the marginal passes, the
narrowest base stopped; then the gaps by base, identical bases in one row), the reach and
advance-odds maps of the base most units use (naming the bases whose phases are the same), the
phases to the centre and each objective (identical bases in one row), the board's balance with
its tolerance, its failed jobs and the table set-up marks.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from tabletop.survey import report_svg as svg
from tabletop.survey.compare import (
    GAP_MARGIN,
    GROUND_TIE,
    Board,
    collapse,
    ordered,
    phase_text,
)
from tabletop.survey.report_boards import (
    ODDS_RAMP,
    PASSES_ALL,
    PASSES_NONE,
    RING_SHADES,
    gap_colour,
    gap_label,
    gap_picture,
    objective_range,
    odds_picture,
    reach_picture,
)
from tabletop.survey.report_data import Base, Survey
from tabletop.survey.report_html import e, page, swatch, table
from tabletop.survey.setup import mark_text

__all__ = ["board_title", "layout_page", "lean_text", "verdict_text"]


def board_title(board: Board) -> str:
    """``layout · map`` (``(own map)`` marked)."""
    own = " (its own map)" if board.info.own else ""
    return f"{board.info.layout} · {board.info.deployment}{own}"


def _facing(facing: float | None, facings: tuple[float, float] | None) -> str:
    if facing is None:
        return ""
    text = f" at {facing:g}°"
    if facings is not None and facings[1] - facings[0] < 170:
        text += f" (±{(facings[1] - facings[0]) / 2:.1f}°)"
    return text


def _gap_table(board: Board, margin: float, colours: dict[str, str]) -> str:
    rows = []
    for n, g in enumerate(board.gaps, 1):
        big = g.largest
        if big is None:
            through = "none"
        else:
            spare = "" if big.spare is None else f", {big.spare:.2f}\" to spare"
            through = e(big.base) + e(_facing(big.facing, big.facings)) + spare
            if big.marginal(margin):
                through = f'<span class="mg">{through}</span>'
        marginal = ", ".join(f"{e(m.base)} ({m.spare:.2f}\")" for m in g.marginal(margin)
                             if m.spare is not None)
        shut = sorted({x.shut_by for x in g.by_base.values() if x.shut_by and not x.passes})
        rows.append((f'<td class="nw">{swatch(gap_colour(g, colours))}'
                     f"{e(gap_label(n, g, margin))}</td>", e(g.a), e(g.b), f"{g.width:.2f}",
                     through, marginal, e(g.fails[0]) if g.fails else "none",
                     ", ".join(e(s) for s in shut)))
    if not rows:
        return "<p>No passage narrower than the widest base's limit.</p>"
    over = [n for n in board.gaps[0].by_base if any(g.by_base[n].over for g in board.gaps)]
    note = (f"<p>{e(', '.join(over))} cross the terrain beside some of these gaps (dense "
            "terrain: INFANTRY and the like) and go over it, not through the gap.</p>"
            if over else "")
    return note + table(("Gap", "Between", "and", "Width (in)", "Largest base through (facing, "
                         "clearance)", f"Marginal passes (&lt; {margin:.2f}\")",
                         "Narrowest base stopped", "Shut by"), rows, numeric=(3,))


def _gaps_by_base(board: Board, margin: float) -> str:
    """For each base, the gaps that stop it and those it passes marginally (numbers), bases
    with the same lists in one row."""
    if not board.gaps:
        return ""
    names = list(board.gaps[0].by_base)
    keyed = []
    for name in names:
        stops = tuple(n for n, g in enumerate(board.gaps, 1) if not g.by_base[name].passes)
        close = tuple(n for n, g in enumerate(board.gaps, 1) if g.by_base[name].marginal(margin))
        over = sum(g.by_base[name].over for g in board.gaps)
        keyed.append((name, (stops, close, over)))
    rows = [(e(", ".join(group)), str(len(stops)), e(" ".join(map(str, stops)) or "none"),
             str(len(close)), e(" ".join(map(str, close)) or "none"),
             str(over) if over else "")
            for group, (stops, close, over) in collapse(keyed)]
    return ("<h5>Gaps by base (bases with the same gaps in one row)</h5>"
            + table(("Bases", "Gaps that stop it", "which", "Marginal passes", "which",
                     "Gaps it goes over the terrain of"), rows, numeric=(1, 3, 5)))


def _legend(board: Board, bases: Sequence[Base], colours: dict[str, str]) -> str:
    used = {g.largest.base for g in board.gaps if g.fails and g.largest is not None}
    items = [f"<li>{swatch(colours[b.name])}{e(b.name)} the largest through</li>"
             for b in bases if b.name in used]
    if any(g.fails and g.largest is None for g in board.gaps):
        items.append(f"<li>{swatch(PASSES_NONE)}no base through</li>")
    if any(not g.fails for g in board.gaps):
        items.append(f"<li>{swatch(PASSES_ALL)}every base surveyed gets through</li>")
    items.append(f'<li>{swatch("#555", "dash")}N!: marginal</li>')
    kinds = sorted({p.kind for p in board.info.terrain})
    items += [f"<li>{swatch(svg.terrain_style(k)[0])}{e(svg.terrain_style(k)[2])}</li>"
              for k in kinds]
    items += [f"<li>{swatch(svg.side_colour(s, i))}deployment zone of {e(s)}</li>"
              for i, s in enumerate(board.sides) if s in board.info.zones]
    items.append(f'<li>{swatch("#ffd24a")}objective, dashed: its '
                 f'{objective_range(board):g}" range</li>')
    return f'<ul class="legend">{"".join(items)}</ul>'


def _reference(board: Board, bases: Sequence[Base], with_rings: bool) -> str | None:
    """The base the maps are drawn for: the one most units use among those with results."""
    have = [b for b in bases if all(
        (s, b.name) in (board.reach if with_rings else board.odds) for s in board.sides)]
    if with_rings:
        have = [b for b in have if all(board.reach[(s, b.name)].rings for s in board.sides)]
    best = max(have, key=lambda b: b.units, default=None)
    return None if best is None else best.name


def _reach_maps(board: Board, bases: Sequence[Base], anchor: str) -> str:
    ref = _reference(board, bases, True)
    if ref is None:
        return "<p>No reach rings for this board.</p>"
    figs = []
    m = ""
    for i, side in enumerate(board.sides):
        picture, m = reach_picture(board, anchor, side, i, board.reach[(side, ref)])
        figs.append(f"<figure>{picture}<figcaption>{e(side)}</figcaption></figure>")
    same = next((g for g, _ in board.phase_groups() if ref in g), [ref])
    also = [n for n in same if n != ref]
    note = (f" The phases of {e(', '.join(also))} are the same as this base's." if also else "")
    c = svg.side_colour(board.sides[0], 0) if board.sides else "#555"
    legend = "".join(f'<li><span class="sw" style="background:{c};opacity:{op}"></span>'
                     f"{k} phase{'s' if k > 1 else ''}</li>"
                     for k, op in enumerate(RING_SHADES, 1))
    return (f"<p>Ground a {e(ref)} base can reach from anywhere in its deployment zone with "
            f"M={e(m)}, after 1, 2 and 3 Movement phases of normal moves (darker: sooner)."
            f'{note}</p><div class="pair">{"".join(figs)}</div><ul class="legend">{legend}</ul>')


def _odds_maps(board: Board, bases: Sequence[Base], anchor: str) -> str:
    ref = _reference(board, bases, False)
    if ref is None:
        return "<p>No advance-odds result for this board.</p>"
    figs = []
    m = ""
    for side in board.sides:
        o = board.odds[(side, ref)]
        m = f"{o.M:g}"
        figs.append(f"<figure>{odds_picture(board, anchor, side, o)}<figcaption>{e(side)}, "
                    f"from ({o.start[0]:.1f}, {o.start[1]:.1f})</figcaption></figure>")
    legend = "".join(f'<li>{swatch(ODDS_RAMP[6 - k])}{(7 - k) / 6:.0%} (roll {k}'
                     f'{"+" if k < 6 else ""})</li>' for k in range(1, 7))
    return (f"<p>Where one advance of a {e(ref)} base with M={m} from the marked start "
            "(black dot) ends, by the chance of the D6 advance roll: the shade of a point is "
            "the probability that the roll lets the base reach it (exact, the six zones are "
            f'nested).</p><div class="pair">{"".join(figs)}</div>'
            f'<ul class="legend">{legend}</ul>')


def _phases_table(board: Board) -> str:
    groups = board.phase_groups()
    if not groups:
        return "<p>No reach result for this board.</p>"
    n_obj = len(board.info.objectives)
    head = ('<tr><th rowspan="2">Bases</th><th rowspan="2">M</th>'
            + "".join(f'<th colspan="{n_obj + 2}">{e(s)}: phases to the centre and objective '
                      "…</th>" for s in board.sides) + "</tr><tr>"
            + "".join("<th>C</th>" + "".join(f"<th>{i}</th>" for i in range(1, n_obj + 1))
                      + "<th>ground after 1/2/3 (sq in)</th>" for _ in board.sides) + "</tr>")
    rows = []
    for names, _ in groups:
        base = names[0]
        for m in board.ms(base):
            per = [board.targets(s, base, m) for s in board.sides]
            row = [e(", ".join(names)), e(m)]
            for k, s in enumerate(board.sides):
                for i in range(n_obj + 1):
                    v = per[k][i]
                    others = [p[i] for j, p in enumerate(per) if j != k]
                    best = v is not None and bool(others) and all(o is None or v < o
                                                                  for o in others)
                    row.append(f'<td class="b">{e(phase_text(v))}</td>' if best
                               else e(phase_text(v)))
                areas = board.reach[(s, base)].area.get(m, [])
                row.append("/".join(f"{a:.0f}" for a in areas) if areas else "–")
            rows.append(row)
    return table(head, rows, cls="phases")


def lean_text(x: object) -> str:
    """What one lean says: ``red by 2 phases`` / ``blue: 6% more ground`` / ``tie``."""
    from tabletop.survey.compare import Lean

    assert isinstance(x, Lean)
    if not x.favoured:
        return "tie"
    if x.beyond[0]:
        n = abs(x.lead)
        return f"{x.favoured} by {n} phase{'s' if n != 1 else ''}"
    g = abs(x.ground_lead)
    return f"{x.favoured}: {g:.0%} more ground"


def verdict_text(board: Board) -> str:
    """The board's balance in a few words (escaped)."""
    v = board.verdict
    if v is None:
        return "no reach result for both sides"
    if v.largest is None:
        return f"tie in all {v.ties} (base, M) within the tolerance"
    a, b = v.sides
    parts = [f"{e(a)} ahead in {v.ahead[0]}", f"{e(b)} in {v.ahead[1]}", f"ties {v.ties}"]
    return ", ".join(parts) + f"; largest: {e(v.largest.base)}, M={e(v.largest.m)}, " \
        f"{e(lean_text(v.largest))}"


def _balance(board: Board) -> str:
    beyond, ties = ordered(board.leans)
    if not board.leans:
        return "<p>No reach result for both sides.</p>"
    keyed = collapse((x.base, x.key()) for x in beyond)
    by_key = {x.key(): x for x in beyond}
    rows = []
    for names, key in keyed:
        x = by_key[key]
        rows.append((e(", ".join(names)), e(x.m),
                     *(f'<td class="ph">{e(s)}: C {e(phase_text(c))}; '
                       f'{" ".join(e(phase_text(p)) for p in ph)}</td>'
                       for s, c, ph in zip(x.sides, x.centre, x.phases, strict=True)),
                     e(lean_text(x)), f"{x.ground_lead:+.0%}"))
    tie_names = collapse((x.base, x.m) for x in ties)
    tie_text = "; ".join(f"{e(', '.join(n))} at M={e(m)}" for n, m in tie_names)
    out = f"<p><b>{verdict_text(board)}</b>.</p>"
    if rows:
        out += table(("Bases", "M", "Phases: centre; objectives 1, 2, …", "and the other's",
                      "Ahead", "Ground lead"), rows)
    if ties:
        out += (f'<p class="muted">Ties within the tolerance (equal phases, ground within '
                f"{GROUND_TIE:.0%}): {tie_text}.</p>")
    return out


def _setup_table(board: Board) -> str:
    info = board.info
    if not info.setup:
        return "<p>No set-up marks.</p>"
    by_piece = defaultdict(list)
    for m in info.setup:
        by_piece[m.piece].append(m)
    how = ("from the data's keystones" if info.setup_source == "keystones"
           else "each piece's nearest vertex to the nearest edges (the file has no keystones)")
    items = "".join(
        f"<li><b>{e(p)}</b>{' (' + e(ms[0].name) + ')' if ms[0].name and ms[0].name != p else ''}"
        f": {e(mark_text([m.model_dump() for m in ms]))}</li>" for p, ms in by_piece.items())
    return f"<p>Inches from the battlefield's edges, {e(how)}.</p><ul class=\"setup\">{items}</ul>"


def _failed(survey: Survey, board: Board) -> str:
    errors = [(j, survey.failed[j.id]) for j in board.jobs if j.id in survey.failed]
    missing = [j for j in board.jobs if j.id not in survey.values and j.id not in survey.failed]
    out = ""
    if errors:
        out += "<h4>Failed jobs</h4>" + table(
            ("Job", "Base", "Measure", "Side", "Error"),
            [(e(j.id), e(j.base.name), e(j.measure), e(j.side or ""), f"<pre>{e(err)}</pre>")
             for j, err in errors])
    if missing:
        out += (f'<p class="warn">{len(missing)} jobs of this board have no result yet: '
                + e(", ".join(j.id for j in missing[:20]))
                + (" …" if len(missing) > 20 else "") + "</p>")
    return out


def _board(survey: Survey, board: Board, bases: Sequence[Base], colours: dict[str, str],
           n: int, margin: float, first: bool) -> str:
    anchor = f"b{n}"
    info = board.info
    gapfit = any(j.id in survey.values for j in board.jobs if j.measure == "gap-fit")
    body = [f'<p class="muted">Board {e(board.key)}, {info.width:g}" x {info.height:g}", '
            f"{len(info.terrain)} terrain pieces, {len(info.objectives)} objectives"
            + (f", mission matchup {e(info.mission)}" if info.mission else "") + ".</p>",
            "<h4>Gaps</h4>",
            f'<div class="wide">{gap_picture(board, colours, anchor, margin=margin)}</div>',
            _legend(board, bases, colours)]
    body.append(_gap_table(board, margin, colours) + _gaps_by_base(board, margin) if gapfit
                else "<p>No gap-fit result: the board is drawn without its gaps.</p>")
    body += ["<h4>Reach</h4>", _reach_maps(board, bases, anchor),
             "<h4>Advance odds</h4>", _odds_maps(board, bases, anchor),
             "<h4>Movement phases to the centre and each objective</h4>",
             "<p>Phases of normal moves a base needs, from the best start in its deployment "
             "zone, to come within range of the board's centre (C) and of each objective; the "
             "side that needs fewer is marked; bases with the same phases share a row. "
             "Ground: the area it can reach after 1, 2 and 3 phases.</p>",
             _phases_table(board), "<h4>Balance</h4>", _balance(board),
             _failed(survey, board), "<h4>Table set-up</h4>", _setup_table(board)]
    title = f"<b>{e(board_title(board))}</b> <span class=\"muted\">({verdict_text(board)})</span>"
    if first:
        return f'<section id="{anchor}"><h2>{title}</h2>{"".join(body)}</section>'
    return (f'<details id="{anchor}"><summary>{title}</summary>{"".join(body)}</details>')


def layout_page(survey: Survey, boards: Iterable[Board], bases: Sequence[Base],
                colours: dict[str, str], *, margin: float = GAP_MARGIN,
                index: str = "../report.html", card: str | None = None) -> str:
    """The page of one layout's ``boards`` (its own map first)."""
    boards = list(boards)
    info = boards[0].info
    links = [f'<a href="{e(index)}">all layouts</a>']
    if card:
        links.append(f'<a href="{e(card)}">the layout&rsquo;s card (print it on A4 or '
                     "Letter)</a>")
    body = (f"<h1>{e(info.name or info.layout)}</h1><p>{' · '.join(links)}</p>"
            + "".join(_board(survey, b, bases, colours, n, margin, n == 1)
                      for n, b in enumerate(boards, 1)))
    credits = " ".join(dict.fromkeys(e(b.info.credit) for b in boards if b.info.credit))
    return page(f"{info.layout}: layout survey", body, credits)

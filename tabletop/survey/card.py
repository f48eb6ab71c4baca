"""A layout's card: the one printable page an organiser publishes for a layout (#29 item 1).

The card is one static HTML page (inline SVG and style, nothing fetched) laid out to print on
one sheet of A4 or Letter (it fits the area both share, 194 x 263 mm inside 8 mm margins: the
board in a box of 166 x 112 mm whatever its shape, every list bounded; ``paper`` fixes the
sheet for a PDF), and to read on a screen. It shows:

- the board: terrain, deployment zones, objectives with their range, the set-up marks (each a
  dashed line from its edge to the point it measures, with the distance), and the gaps that
  stop some base of the catalogue, each coloured by the largest base that gets through,
  numbered, with a "!" where that pass is marginal;
- the gaps (the narrowest that stop some base, at most :data:`CARD_GAPS`, one line each): width,
  the largest base through with its facing (and the range of facings when it is narrow), its
  clearance (in red when marginal), the narrowest base stopped;
- the movement verdicts: per side, the Movement phases to the centre and to each objective
  for each M, for the bases with reach results (identical bases in one table, at most
  :data:`CARD_GROUPS` tables), the side that needs fewer marked, and the chance that one
  advance from the start nearest the centre gets there;
- the set-up marks as a table, the mission matchup, the data's credit, the margin and the
  tolerances used.

:func:`card_html` renders it from a survey's results; :mod:`tabletop.survey.browser` prints it
to PDF or PNG.
"""

from __future__ import annotations

import html
from collections import defaultdict
from collections.abc import Sequence

from tabletop import __version__
from tabletop.survey import report_svg as svg
from tabletop.survey.compare import (
    GAP_MARGIN,
    GROUND_TIE,
    Board,
    Gap,
    phase_text,
)
from tabletop.survey.report_boards import (
    PASSES_NONE,
    base_colours,
    gap_colour,
    gap_label,
    gap_picture,
    objective_range,
)
from tabletop.survey.report_data import Base, Mark
from tabletop.survey.setup import mark_text

__all__ = ["CARD_GAPS", "PAPERS", "card_html"]

PAPERS = {"a4": "210mm 297mm", "letter": "8.5in 11in"}
"""The sheets a card is printed on (CSS page sizes)."""
CARD_GAPS = 11
"""Most gaps a card lists (the narrowest that stop some base; the layout's page has all)."""
CARD_MARKS = 40
"""Most pieces whose set-up marks the card's table lists (the board draws every mark)."""
CARD_GROUPS = 2
"""Most tables of phases a card shows (bases with identical phases share one; the layout's
page has them all)."""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _facing(g: object) -> str:
    facing = getattr(g, "facing", None)
    facings = getattr(g, "facings", None)
    if facing is None:
        return ""
    text = f"{facing:.0f}&deg;"
    if facings is not None:
        lo, hi = facings
        if hi - lo < 170:
            text += f" &plusmn;{(hi - lo) / 2:.0f}&deg;"
    return text


def _shown_gaps(board: Board, margin: float) -> list[tuple[int, Gap]]:
    """The gaps a card draws and lists: those that stop some base, or that some base passes
    only marginally, narrowest first."""
    return [(n, g) for n, g in enumerate(board.gaps, 1) if g.fails or g.marginal(margin)]


def _gap_rows(shown: Sequence[tuple[int, Gap]], colours: dict[str, str], margin: float
              ) -> list[str]:
    rows = []
    for n, g in shown[:CARD_GAPS]:
        big = g.largest
        colour = gap_colour(g, colours)
        sw = f'<span class="sw" style="background:{colour}"></span>'
        through = "none" if big is None else _e(big.base)
        facing = "" if big is None else _facing(big)
        spare = "" if big is None or big.spare is None else f"{big.spare:.2f}"
        if big is not None and big.marginal(margin):
            spare = f'<b class="mg">{spare}</b>'
        first = g.fails[0] if g.fails else ""
        rows.append(f'<tr><td class="n">{sw}{_e(gap_label(n, g, margin))}</td>'
                    f'<td class="n">{g.width:.2f}</td><td>{through}</td><td>{facing}</td>'
                    f'<td class="n">{spare}</td><td>{_e(first)}</td></tr>')
    return rows


def _gaps_block(board: Board, colours: dict[str, str], margin: float) -> str:
    shown = _shown_gaps(board, margin)
    if not any(j.measure == "gap-fit" for j in board.jobs):
        return "<p>No gap-fit results.</p>"
    if not shown:
        return ("<h2>Gaps</h2><p>No gap stops any base surveyed, and none is passed with "
                f"less than {margin:.2f}&Prime; to spare.</p>")
    more = len(shown) - CARD_GAPS
    notes = [f"and {more} more gaps on the layout&rsquo;s page."] if more > 0 else []
    over = [n for n in (board.gaps[0].by_base if board.gaps else {})
            if any(g.by_base[n].over for g in board.gaps)]
    if over:
        notes.append(f"{_e(_span(over))} cross the terrain beside some gaps (dense terrain: "
                     "INFANTRY and the like) and go over it instead.")
    tail = "".join(f'<p class="more">{n}</p>' for n in notes)
    cols = "".join(f'<col class="c{i}">' for i in range(1, 7))
    return ("<h2>Gaps (the narrowest that stop a base)</h2><table class=\"gaps\">"
            f"<colgroup>{cols}</colgroup><thead><tr>"
            "<th>#</th><th>in</th><th>Largest base through</th><th>facing</th><th>spare</th>"
            "<th>Narrowest stopped</th></tr></thead><tbody>"
            + "".join(_gap_rows(shown, colours, margin)) + "</tbody></table>" + tail)


def _span(names: Sequence[str]) -> str:
    """``25mm to 50mm`` for three or more names in order, else them all."""
    return f"{names[0]} to {names[-1]}" if len(names) > 2 else " and ".join(names)


def _phase_cell(v: int | None, others: Sequence[int | None]) -> str:
    faster = v is not None and all(o is None or v < o for o in others) and bool(others)
    return f'<td class="b">{_e(phase_text(v))}</td>' if faster else f"<td>{_e(phase_text(v))}</td>"


def _verdicts(board: Board) -> str:
    """Phases to the centre and each objective per side and M, bases with identical rows
    together; then the chance of one advance."""
    movers = board.reach_bases()
    if not movers:
        return "<h2>Movement</h2><p>No reach results for this board.</p>"
    n_obj = len(board.info.objectives)
    sides = board.sides
    head = ('<tr><th rowspan="2">M</th>'
            + "".join(f'<th colspan="{n_obj + 1}" class="sd s{i}">{_e(s)}</th>'
                      for i, s in enumerate(sides)) + "</tr><tr>"
            + "".join("<th>C</th>" + "".join(f"<th>{i}</th>" for i in range(1, n_obj + 1))
                      for _ in sides) + "</tr>")
    parts = []
    groups = board.phase_groups()
    for names, _ in groups[:CARD_GROUPS]:
        base = names[0]
        rows = []
        for m in board.ms(base):
            per_side = [board.targets(s, base, m) for s in sides]
            cells = []
            for k in range(len(sides)):
                for i in range(n_obj + 1):
                    others = [p[i] for j, p in enumerate(per_side) if j != k]
                    cells.append(_phase_cell(per_side[k][i], others))
            rows.append(f"<tr><td>{_e(m)}</td>{''.join(cells)}</tr>")
        odds = _odds_row(board, base, n_obj)
        parts.append(f'<h3>{_e(", ".join(names))}</h3><table class="ph"><thead>{head}</thead>'
                     f"<tbody>{''.join(rows)}{odds}</tbody></table>")
    more = len(groups) - CARD_GROUPS
    if more > 0:
        parts.append(f'<p class="more">and {more} more bases on the layout&rsquo;s page.</p>')
    return ("<h2>Movement phases to the centre (C) and each objective</h2>"
            + "".join(parts))


def _odds_row(board: Board, base: str, n_obj: int) -> str:
    cells = []
    m = ""
    for s in board.sides:
        o = board.odds.get((s, base))
        if o is None or o.objectives is None:
            cells.append(f'<td colspan="{n_obj + 1}">no advance result</td>')
            continue
        m = f"{o.M:g}"
        for k in [o.centre, *o.objectives]:
            cells.append(f"<td>{'&ndash;' if k is None else round(100 * (7 - k) / 6)}</td>")
    return (f'<tr class="adv"><td title="one advance (M {_e(m)} + D6) from the start nearest '
            f'the centre">adv%</td>{"".join(cells)}</tr>')


def _setup_block(marks: Sequence[Mark], source: str) -> str:
    if not marks:
        return ""
    by_piece: dict[str, list[Mark]] = defaultdict(list)
    for m in marks:
        by_piece[m.piece].append(m)
    items = []
    for piece, ms in list(by_piece.items())[:CARD_MARKS]:
        name = ms[0].name
        title = f' title="{_e(name)}"' if name and name != piece else ""
        items.append(f"<li{title}><b>{_e(piece)}</b> "
                     f"{_e(mark_text([m.model_dump() for m in ms], short=True))}</li>")
    more = len(by_piece) - CARD_MARKS
    tail = f"<li>and {more} more pieces (drawn on the board)</li>" if more > 0 else ""
    how = ("the data's keystones" if source == "keystones"
           else "each piece's nearest vertex to the nearest edges; the file has no keystones")
    return (f"<h2>Set-up: inches from the Left, Right, Top and Bottom edge ({_e(how)})</h2>"
            f'<ul class="setup">' + "".join(items) + tail + "</ul>")


def _legend(board: Board, colours: dict[str, str], shown: Sequence[tuple[int, Gap]],
            bases: Sequence[Base]) -> str:
    used = {g.largest.base for _, g in shown if g.largest is not None}
    items = [f'<li><span class="sw" style="background:{colours[b.name]}"></span>'
             f"{_e(b.name)} through</li>" for b in bases if b.name in used]
    if any(g.largest is None for _, g in shown):
        items.append(f'<li><span class="sw" style="background:{PASSES_NONE}"></span>'
                     "no base through</li>")
    items.append('<li><span class="sw dash"></span>marginal (N!)</li>')
    items += [f'<li><span class="sw" style="background:{svg.terrain_style(k)[0]}"></span>'
              f"{_e(svg.terrain_style(k)[2])}</li>"
              for k in sorted({p.kind for p in board.info.terrain})]
    items.append(f'<li><span class="sw" style="background:#ffd24a"></span>objective, '
                 f"dashed: {objective_range(board):g}&Prime;</li>")
    return f'<ul class="legend">{"".join(items)}</ul>'


CSS = """
@page{margin:8mm}
*{box-sizing:border-box}
body{margin:0;font:8.4pt/1.25 "DejaVu Sans",system-ui,sans-serif;color:#111;background:#fff}
.card{width:194mm;margin:0 auto;padding:0}
h1{font-size:14pt;margin:0 0 1mm}h2{font-size:9pt;margin:2.2mm 0 .8mm}
h3{font-size:8.4pt;margin:1.5mm 0 .5mm}
p{margin:.6mm 0}.muted{color:#555}.sub{margin-bottom:1.2mm}
svg.board{width:166mm;height:112mm;display:block;margin:0 auto}
table{border-collapse:collapse;font-size:7.6pt;width:100%}
th,td{border:.2mm solid #bbb;padding:.2mm 1mm;text-align:left;vertical-align:top}
th{background:#eee}td.n{text-align:right;white-space:nowrap}
table.ph{table-layout:fixed;font-size:7.2pt}
table.ph td,table.ph th{text-align:center;padding:.1mm 0}
table.ph td:first-child,table.ph th:first-child{width:8mm}table.ph td{white-space:nowrap}
table.gaps{table-layout:fixed;font-size:7.2pt}
table.gaps td{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
table.gaps td,table.gaps th{padding:.2mm .6mm}table.gaps td.n{text-overflow:clip}
table.gaps col.c1{width:10mm}table.gaps col.c2{width:8.5mm}table.gaps col.c4{width:12.5mm}
table.gaps col.c5{width:9mm}table.gaps col.c6{width:25.5mm}
table.gaps .sw{width:2.4mm;height:2.4mm;margin-right:.6mm}
td.b{background:#dff3e3;font-weight:700}tr.adv td{background:#fbf6e6}
th.s0{color:#c0392b}th.s1{color:#2b6cb0}
.cols{display:flex;gap:3mm}.cols>div{flex:1 1 0;min-width:0}.cols>div:first-child{flex:1.08 1 0}
.sw{display:inline-block;width:3mm;height:3mm;border:.2mm solid #444;vertical-align:-.5mm;
margin-right:1mm}.sw.dash{border:none;border-top:.8mm dashed #555;height:0;vertical-align:.6mm}
ul.legend{list-style:none;padding:0;margin:1mm 0;display:flex;flex-wrap:wrap;gap:.5mm 3mm;
font-size:7.4pt}
ul.setup{columns:4;column-gap:2.5mm;padding:0;margin:0;list-style:none;font-size:6.6pt;
line-height:1.15}
ul.setup li{break-inside:avoid}
.mg{color:#a4262c;font-weight:600}.more{font-size:7.4pt;color:#555}
footer{margin-top:1.2mm;font-size:6.4pt;line-height:1.2;color:#555}
"""
SCREEN = """@media screen{body{background:#e8e8e8}.card{background:#fff;padding:6mm;margin:6mm auto;
width:206mm;box-shadow:0 1px 4px #0003}}"""
"""On a screen, the card as a sheet on a grey desk."""
SHEET = "@media screen{.card{padding:8mm 0}}"
"""On a screen for a picture of the sheet (:func:`card_html`'s ``sheet``): the print margins."""


def card_html(board: Board, bases: Sequence[Base], *, margin: float = GAP_MARGIN,
              paper: str | None = None, title: str | None = None, credit: str | None = None,
              layout_page: str | None = None, sheet: bool = False) -> str:
    """The card of ``board`` (a layout on a deployment map) as a page of HTML.

    ``bases``: the catalogue in its order (the gaps' colours); ``margin``: the clearance under
    which a pass is marginal; ``paper``: ``"a4"`` or ``"letter"`` to fix the sheet (default:
    the printer's); ``layout_page``: a link to the layout's page of the report; ``sheet``:
    on a screen too, the bare sheet (for a picture of it), not a sheet on a desk.
    """
    if paper is not None and paper not in PAPERS:
        raise ValueError(f"paper {paper!r}: one of {', '.join(PAPERS)}")
    info = board.info
    colours = base_colours(bases)
    shown = _shown_gaps(board, margin)
    anchor = "card"
    picture = gap_picture(board, colours, anchor, margin=margin, gaps=shown, setup=True)
    name = title or info.name or info.layout
    bits = [f"layout <b>{_e(info.layout)}</b>",
            f"deployment map <b>{_e(info.deployment)}</b>"
            + ("" if info.own else " (not the layout&rsquo;s own)")]
    if info.mission:
        bits.append(f"mission matchup <b>{_e(info.mission)}</b>")
    bits.append(f"{info.width:g}&Prime; x {info.height:g}&Prime;")
    page = (f"@page{{size:{PAPERS[paper]}}}" if paper else "")
    link = (f' &middot; <a href="{_e(layout_page)}">everything measured on this layout</a>'
            if layout_page else "")
    sides = " and ".join(f"{_e(s)} ({'attacker' if i == 0 else 'defender'})"
                         if info.source == "40kdc" and s in ("red", "blue") else _e(s)
                         for i, s in enumerate(board.sides))
    foot = (f"Marginal: less than {margin:.2f}&Prime; to spare at the roomiest facing. "
            "Phases: Movement phases of normal moves from the deployment zone until the base "
            f"is within {objective_range(board):g}&Prime; of the objective&rsquo;s marker (C: "
            "of the centre); fewer shaded; &gt;12: not within 12. adv%: the chance one advance "
            f"from the start nearest the centre gets there. Sides: {sides}. Ties: equal "
            f"phases, ground within {GROUND_TIE:.0%}. {_e(credit or info.credit or '')} "
            f"tabletop {_e(__version__)}{link}.")
    body = (f'<div class="card"><h1>{_e(name)}</h1><p class="sub muted">{" &middot; ".join(bits)}'
            f"</p>{picture}{_legend(board, colours, shown, bases)}"
            f'<div class="cols"><div>{_gaps_block(board, colours, margin)}</div>'
            f"<div>{_verdicts(board)}</div></div>"
            f"{_setup_block(info.setup, info.setup_source)}<footer>{foot}</footer></div>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(name)}: layout card</title><style>{CSS}{SHEET if sheet else SCREEN}"
            f"{page}{svg.CSS}</style></head>"
            f"<body>{body}</body></html>\n")


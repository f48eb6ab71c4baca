"""The survey's report: an index page, a page per layout and a card per layout (#16, #29).

:func:`build_report` reads only ``OUT_DIR/plan.json`` and ``OUT_DIR/results/*.json`` (see
:mod:`tabletop.survey.report_data`) and writes static pages that fetch nothing (boards are
inline SVG, plots inline PNG), so they open from the files in any browser:

- ``OUT_DIR/report.html``, the index: a summary; the **comparison** of every surveyed layout
  side by side (the gaps that stop each base, bases with the same counts on every board in one
  row; the phases to the centre and to each objective per side, for each M); the **balance**
  (boards ordered by what differs beyond the tolerance, ties shown as ties); the catalogue of
  bases with their colours; the plots; the failed jobs; links to every layout's page and card;
- ``OUT_DIR/layouts/<layout>.html``: everything measured on one layout
  (:mod:`tabletop.survey.report_layout`);
- ``OUT_DIR/cards/<layout>.html``: the layout's printable card (:mod:`tabletop.survey.card`),
  drawn for its own deployment map (the first map of the plan when its own is not there).

Missing and failed jobs leave holes that the pages name; every string from the files is
escaped; the same files give the same bytes. What "ties", "marginal" and "identical bases" mean
is in :mod:`tabletop.survey.compare`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tabletop.files import atomic_write
from tabletop.survey.card import card_html
from tabletop.survey.compare import (
    GAP_MARGIN,
    GROUND_TIE,
    Board,
    boards_of,
    collapse,
    ordered,
    phase_text,
)
from tabletop.survey.jobs import safe_id
from tabletop.survey.report_boards import PASSES_ALL, base_colours
from tabletop.survey.report_data import Base, Survey, load
from tabletop.survey.report_html import cell, e, page, swatch, table
from tabletop.survey.report_layout import board_title, layout_page, lean_text

__all__ = ["CARDS", "INDEX", "LAYOUTS", "TOP_LEANS", "Pages", "build_report", "card_of",
           "render", "sorted_bases"]

INDEX = "report.html"
LAYOUTS = "layouts"
"""The folder of OUT_DIR holding one page per layout."""
CARDS = "cards"
"""The folder of OUT_DIR holding one card per layout."""
TOP_LEANS = 50
"""Rows of the table of the (board, bases, M) furthest beyond the tolerance."""


@dataclass(frozen=True)
class Pages:
    """A survey's pages: the index, and by layout its page and its card (file stems)."""

    index: str
    layouts: dict[str, str]
    cards: dict[str, str]


def sorted_bases(survey: Survey) -> list[Base]:
    """The catalogue from the narrowest base, with any base a job names that it lacks."""
    seen = {b.name: b for b in survey.plan.bases}
    for j in survey.plan.jobs:
        seen.setdefault(j.base.name, j.base)
    return sorted(seen.values(), key=lambda b: (b.width, b.length, b.name))


def _by_layout(boards: Sequence[Board]) -> dict[str, list[Board]]:
    out: dict[str, list[Board]] = defaultdict(list)
    for b in boards:
        out[b.info.layout].append(b)
    return dict(out)


def _stems(layouts: Sequence[str]) -> dict[str, str]:
    """The file stem of each layout's page and card (distinct even when ids clash once
    cleaned)."""
    out: dict[str, str] = {}
    used: set[str] = set()
    for lay in layouts:
        stem, n = safe_id(lay), 1
        while stem.lower() in used:
            n += 1
            stem = f"{safe_id(lay)}-{n}"
        used.add(stem.lower())
        out[lay] = stem
    return out


def _card_board(boards: Sequence[Board]) -> Board:
    """The board a layout's card shows: its own map's, else the first."""
    return next((b for b in boards if b.info.own), boards[0])


# ---------------------------------------------------------------------------------------------
# the index


def _summary(survey: Survey, bases: Sequence[Base], boards: Sequence[Board]) -> str:
    plan = survey.plan
    layouts = list(dict.fromkeys(b.info.layout for b in boards))
    own = all(b.info.own for b in boards)
    done, failed, missing = len(survey.values), len(survey.failed), len(survey.missing)
    rows = [
        ("Layouts", str(len(layouts))),
        ("Boards", f"{len(boards)}: " + ("each layout on its own deployment map" if own else
                                         "layouts paired with deployment maps, its own map "
                                         "first")),
        ("Bases", f"{len(bases)}, from {e(bases[0].name)} to {e(bases[-1].name)}"
         if bases else "0"),
        ("Jobs", f"{len(plan.jobs)}: {done} done, "
         + (f'<a href="#failed">{failed} failed</a>' if failed else "0 failed")
         + f", {missing} missing (no result yet)"),
        ("Compute time", f"{survey.seconds:.1f} s summed over the results"),
    ]
    if survey.stray:
        rows.append(("Other files", f"{survey.stray} result files match no job of the plan "
                     "and are left out"))
    note = ("" if not missing and not failed else
            '<p class="warn">Some jobs have no usable result: the tables leave their cells '
            "empty (–) and each layout's page says what it lacks. Rerun the survey on the same "
            "folder to finish it (finished jobs are not done again), then rebuild the pages "
            "with <code>tabletop survey --report OUT_DIR</code>.</p>")
    return ('<section id="summary"><h2>Summary</h2>'
            + table(None, ((f"<b>{k}</b>", v) for k, v in rows), cls="kv") + note
            + "</section>")


def _layouts_section(by_layout: dict[str, list[Board]], stems: dict[str, str]) -> str:
    items = []
    for lay, boards in by_layout.items():
        stem = stems[lay]
        v = _card_board(boards)
        items.append(f'<li><a href="{LAYOUTS}/{e(stem)}.html">{e(v.info.name or lay)}</a> '
                     f'<span class="muted">({e(lay)}; {len(boards)} board'
                     f'{"s" if len(boards) > 1 else ""})</span> · '
                     f'<a href="{CARDS}/{e(stem)}.html">card</a></li>')
    return ('<section id="layouts"><h2>Layouts</h2><p>Each layout has a page of everything '
            "measured on it and a card to print (one page of A4 or Letter).</p>"
            f'<ul class="layouts">{"".join(items)}</ul></section>')


def _column(board: Board, stems: dict[str, str], n: int) -> str:
    """A board's header cell in the comparison (a link to its section)."""
    own = "" if board.info.own else f" · {board.info.deployment}"
    return (f'<th class="v"><a href="{LAYOUTS}/{e(stems[board.info.layout])}.html#b{n}" '
            f'title="{e(board_title(board))}">{e(board.info.layout)}{e(own)}</a></th>')


def _numbered(by_layout: dict[str, list[Board]]) -> list[tuple[int, Board]]:
    """Every board with its number on its layout's page."""
    return [(n, b) for boards in by_layout.values() for n, b in enumerate(boards, 1)]


def _gap_comparison(numbered: Sequence[tuple[int, Board]], stems: dict[str, str],
                    bases: Sequence[Base], margin: float) -> str:
    keyed = []
    for base in bases:
        key: list[tuple[int, int] | None] = []
        for _, board in numbered:
            measured = board.gaps and base.name in board.gaps[0].by_base
            has = any(j.measure == "gap-fit" and j.base.name == base.name for j in board.jobs)
            if not has:
                key.append(None)
            elif not measured:
                key.append((0, 0))
            else:
                key.append((sum(not g.by_base[base.name].passes for g in board.gaps),
                            sum(g.by_base[base.name].marginal(margin) for g in board.gaps)))
        keyed.append((base.name, tuple(key)))
    head = ("<tr><th>Bases</th>" + "".join(_column(b, stems, n) for n, b in numbered)
            + "</tr>")
    rows = []
    for names, counts in collapse(keyed):
        if all(k is None for k in counts):
            continue
        cells = [f'<td class="nw">{"<br>".join(e(n) for n in names)}</td>']
        for k in counts:
            if k is None:
                cells.append("–")
            else:
                stop, close = k
                cells.append(f"{stop}" + (f' <span class="mg">+{close}!</span>' if close
                                          else ""))
        rows.append(cells)
    return ("<h3>Gaps that stop each base</h3><p>How many gaps of each board stop the base; "
            f'<span class="mg">+N!</span>: N more it passes with less than {margin:.2f}" to '
            "spare (marginal). Bases with the same counts on every board share a row.</p>"
            + f'<div class="wrap">{table(head, rows, numeric=range(1, len(numbered) + 1))}'
            "</div>")


def _phase_comparison(numbered: Sequence[tuple[int, Board]], stems: dict[str, str],
                      bases: Sequence[Base]) -> str:
    movers = [b.name for b in bases if any(b.name in bd.reach_bases() for _, bd in numbered)]
    if not movers:
        return "<h3>Phases to the centre and the objectives</h3><p>No reach results yet.</p>"

    def key(name: str) -> tuple[object, ...]:
        return tuple(bd.phases_key(name) if name in bd.reach_bases() else None
                     for _, bd in numbered)

    n_obj = max((len(bd.info.objectives) for _, bd in numbered), default=0)
    parts = []
    for names, _ in collapse((n, key(n)) for n in movers):
        base = names[0]
        ms = sorted({m for _, bd in numbered if base in bd.reach_bases()
                     for m in bd.ms(base)}, key=float)
        for m in ms:
            rows = []
            for n, bd in numbered:
                if base not in bd.reach_bases():
                    continue
                per = [(s, bd.targets(s, base, m) + [None] * (n_obj - len(bd.info.objectives)))
                       for s in bd.sides[:2]]
                row = [f'<a href="{LAYOUTS}/{e(stems[bd.info.layout])}.html#b{n}">'
                       f"{e(bd.info.layout)}</a>"
                       + ("" if bd.info.own else f" · {e(bd.info.deployment)}")]
                for k, (s, vals) in enumerate(per):
                    row.append(e(s))
                    for i, v in enumerate(vals):
                        other = per[1 - k][1][i] if len(per) == 2 else v
                        row.append(_versus(v, other))
                rows.append(row)
            head = ("<tr><th>Layout</th>" + ("<th>side</th><th>C</th>"
                                             + "".join(f"<th>{i}</th>"
                                                       for i in range(1, n_obj + 1))) * 2
                    + "</tr>")
            tab = table(head, rows, cls="phases")
            title = f"{e(', '.join(names))}, M={e(m)}"
            opened = " open" if m == "6" or (m == ms[0] and "6" not in ms) else ""
            parts.append(f"<details{opened}><summary><b>{title}</b></summary>{tab}</details>")
    return ("<h3>Phases to the centre and the objectives</h3><p>Movement phases of normal "
            "moves from each side's deployment zone to within range of the board's centre "
            "(C) and of each objective (numbered as on the layout's pictures: the numbers are "
            "each map's own); the side that needs fewer is shaded, equal phases (a tie) are "
            f"grey; &gt;12: not within 12. Bases with the same phases on every board share a "
            f"table.</p>{''.join(parts)}")


def _versus(v: int | None, other: int | None) -> str:
    text = e(phase_text(v))
    if v == other:
        return f'<td class="tie">{text}</td>'
    if v is not None and (other is None or v < other):
        return f'<td class="b">{text}</td>'
    return text


def _balance_section(numbered: Sequence[tuple[int, Board]], stems: dict[str, str]) -> str:
    rows = []
    for n, board in numbered:
        v = board.verdict
        if v is None:
            continue
        link = (f'<a href="{LAYOUTS}/{e(stems[board.info.layout])}.html#b{n}">'
                f"{e(board.info.layout)}</a>")
        big = v.largest
        rows.append((v.score, (
            link, e(board.info.deployment), e(v.favoured) if v.favoured else
            ("tie" if big is None else "neither"),
            cell(v.ahead[0], f"{e(v.sides[0])} {v.ahead[0]}"),
            cell(v.ahead[1], f"{e(v.sides[1])} {v.ahead[1]}"), cell(v.ties, str(v.ties)),
            "–" if big is None else f"{e(big.base)}, M={e(big.m)}: {e(lean_text(big))}")))
    if not rows:
        return ('<section id="balance"><h2>Balance</h2><p>No board has reach results for both '
                "of its sides yet.</p></section>")
    rows.sort(key=lambda r: r[0], reverse=True)
    board_table = table(("Layout", "Map", "Favoured", "(base, M) ahead", "the other side",
                         "Ties", "Largest lead beyond the tolerance"),
                        (r for _, r in rows), sortable=True)
    every = [(n, x) for n, b in numbered for x in b.leans]
    beyond, ties = ordered(x for _, x in every)
    number = {id(x): n for n, x in every}
    groups = collapse((x.base, (x.board, x.key())) for x in beyond)
    first = {(x.board, x.key()): x for x in reversed(beyond)}
    lines = []
    for names, key in groups[:TOP_LEANS]:
        x = first[key]
        board = next(b for _, b in numbered if b.key == x.board)
        lines.append((
            f'<a href="{LAYOUTS}/{e(stems[board.info.layout])}.html#b{number[id(x)]}">'
            f"{e(board.info.layout)}</a>", e(board.info.deployment), e(", ".join(names)),
            e(x.m), *(f'<td class="ph">{e(s)}: {" ".join(e(phase_text(p)) for p in ph)}</td>'
                      for s, ph in zip(x.sides, x.phases, strict=True)),
            e(lean_text(x)), cell(x.ground_lead, f"{x.ground_lead:+.0%}")))
    lean_table = (table(("Layout", "Map", "Bases", "M", "Phases to objectives 1, 2, …",
                         "and the other side's", "Ahead", "Ground lead"), lines, sortable=True)
                  if lines else "<p>None: every comparison is a tie.</p>")
    return ('<section id="balance"><h2>Balance</h2>'
            "<p>Does a board favour one side? For each base and M the two sides are compared "
            "by the Movement phases each needs, summed over the objectives (an objective out of "
            "reach in 12 phases counts as 13; on a mirrored board each side's home objective "
            "cancels the other's), then by the ground each reaches in its first phase. "
            f"<b>Tolerance</b>: equal phases are a tie; ground within {GROUND_TIE:.0%} of the "
            "two sides' mean is a tie (the reach measure's own error is well under that). "
            "Only what differs beyond the tolerance puts a side ahead and orders the tables; "
            "a tie is shown as a tie.</p>" + board_table
            + f"<h3>Furthest beyond the tolerance ({len(groups)} rows, bases with the same "
            "result in one row)</h3>" + lean_table
            + f'<p class="muted">{len(ties)} (board, base, M) are ties.</p></section>')


def _bases_section(bases: Sequence[Base], colours: dict[str, str]) -> str:
    rows = [(swatch(colours[b.name]), e(b.name), f"{b.width:.2f}", f"{b.length:.2f}",
             str(b.units)) for b in bases]
    rows.append((swatch(PASSES_ALL), "every base surveyed gets through", "", "", ""))
    return ('<section id="bases"><h2>Bases</h2><p>The catalogue, from the narrowest base '
            "(least width, then greatest). On the boards each gap is drawn in the colour of "
            "the largest base that gets through it (straight through its neck at its roomiest "
            "facing, clear of the pieces around); a base that crosses the terrain beside a gap "
            "(INFANTRY over dense terrain) goes over it, not through it.</p>"
            + table(("", "Base", "Least width (in)", "Greatest width (in)", "Units"), rows)
            + "</section>")


def _failed_section(survey: Survey) -> str:
    jobs = {j.id: j for j in survey.plan.jobs}
    rows = [(e(i), e(jobs[i].layout), e(jobs[i].deployment), e(jobs[i].base.name),
             e(jobs[i].measure), e(jobs[i].side or ""), f"<pre>{e(err)}</pre>")
            for i, err in sorted(survey.failed.items())]
    missing = survey.missing
    body = (table(("Job", "Layout", "Map", "Base", "Measure", "Side", "Error"), rows)
            if rows else "<p>None.</p>")
    if missing:
        shown = ", ".join(e(j.id) for j in missing[:50])
        more = f" and {len(missing) - 50} more" if len(missing) > 50 else ""
        body += f"<p>{len(missing)} jobs have no result yet: {shown}{more}.</p>"
    return f'<section id="failed"><h2>Failed jobs</h2>{body}</section>'


def _shares(boards: Sequence[Board]) -> dict[str, tuple[int, int]]:
    """By base: the boards' gaps it gets through, and the gaps of the boards it was measured
    on."""
    out: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for board in boards:
        for gap in board.gaps:
            for name, g in gap.by_base.items():
                out[name][0] += g.passes
                out[name][1] += 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def _contents() -> str:
    items = [("summary", "Summary"), ("layouts", "Layouts"), ("comparison", "Comparison"),
             ("balance", "Balance"), ("bases", "Bases"), ("plots", "Plots"),
             ("failed", "Failed jobs")]
    return ('<nav id="contents"><h2>Contents</h2><ol class="toc">'
            + "".join(f'<li><a href="#{a}">{t}</a></li>' for a, t in items) + "</ol></nav>")


def render(survey: Survey, *, margin: float = GAP_MARGIN) -> Pages:
    """The pages of a survey."""
    from tabletop.survey.report_plots import plots_section

    bases = sorted_bases(survey)
    colours = base_colours(bases)
    boards = boards_of(survey, bases)
    by_layout = _by_layout(boards)
    stems = _stems(list(by_layout))
    numbered = _numbered(by_layout)
    credits = " ".join(dict.fromkeys(e(b.info.credit) for b in boards if b.info.credit))
    index = page("Layout survey", (
        "<h1>Layout survey</h1><p class=\"muted\">Which gaps each base gets through, how many "
        "Movement phases each side needs to reach the centre and each objective, the odds of "
        "an advance and the balance of the sides, on every layout surveyed (tabletop "
        "survey).</p>" + _contents() + _summary(survey, bases, boards)
        + _layouts_section(by_layout, stems)
        + '<section id="comparison"><h2>Comparison</h2>'
        + _gap_comparison(numbered, stems, bases, margin)
        + _phase_comparison(numbered, stems, bases) + "</section>"
        + _balance_section(numbered, stems) + _bases_section(bases, colours)
        + plots_section(survey, bases, _shares(boards)) + _failed_section(survey)), credits)
    layouts = {}
    cards = {}
    for lay, bs in by_layout.items():
        stem = stems[lay]
        layouts[stem] = layout_page(survey, bs, bases, colours, margin=margin,
                                    index=f"../{INDEX}", card=f"../{CARDS}/{stem}.html")
        cards[stem] = card_html(_card_board(bs), bases, margin=margin,
                                layout_page=f"../{LAYOUTS}/{stem}.html")
    return Pages(index, layouts, cards)


def card_of(survey: Survey, layout: str, *, margin: float = GAP_MARGIN,
            paper: str | None = None, sheet: bool = False) -> str:
    """The card of ``layout`` from a survey (its own map's board; see
    :func:`tabletop.survey.card.card_html`)."""
    from tabletop.errors import UserError, quote

    bases = sorted_bases(survey)
    boards = [b for b in boards_of(survey, bases) if b.info.layout == layout]
    if not boards:
        have = ", ".join(dict.fromkeys(b.layout for b in survey.plan.boards.values()))
        raise UserError(f"--card {quote(layout)}: the survey in {survey.out_dir} has no such "
                        f"layout; it has {have}")
    return card_html(_card_board(boards), bases, margin=margin, paper=paper, sheet=sheet)


def build_report(out_dir: str | Path, page: str | Path | None = None, *,
                 margin: float = GAP_MARGIN) -> Path:
    """Write ``OUT_DIR/report.html``, ``OUT_DIR/layouts/*.html`` and ``OUT_DIR/cards/*.html``
    from ``OUT_DIR/plan.json`` and ``OUT_DIR/results/``; with ``page``, the index there and the
    layouts' pages and cards in folders beside it (the survey's folder may be read-only).

    Returns the index's path. Raises :class:`~tabletop.errors.UserError` when the plan is
    missing or unusable, or a page cannot be written; missing, failed or malformed results
    only leave holes the pages name.
    """
    from tabletop.errors import UserError, printable

    out = Path(out_dir)
    index = Path(page) if page is not None else out / INDEX
    pages = render(load(out), margin=margin)
    written = atomic_write(index, pages.index)
    for folder, files in ((index.parent / LAYOUTS, pages.layouts),
                          (index.parent / CARDS, pages.cards)):
        try:
            folder.mkdir(exist_ok=True)
        except OSError as exc:
            raise UserError(f"{printable(str(folder))}: cannot make the folder: "
                            f"{exc.strerror or exc}") from None
        for stem, text in files.items():
            atomic_write(folder / f"{stem}.html", text)
    return written

"""The survey's board pictures (inline SVG): gaps, set-up marks, reach and advance odds (#16, #29).

Every picture is a board in inches (:mod:`tabletop.survey.report_svg`). A page may hold several
pictures of one board: the first draws its terrain as a group with an id (``ANCHOR-terrain``)
and the others reuse it, so the page holds each outline once.

Gaps are drawn as their necks, in the colour of the largest base of the catalogue that gets
through (:data:`GAP_RAMP` from the narrowest base of the catalogue to the widest; grey: every
base gets through; black: none does); a pass under the margin is drawn dashed and its number
gets a "!".
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.survey import report_svg as svg
from tabletop.survey.compare import GAP_MARGIN, Board, Gap
from tabletop.survey.report_data import AdvanceOdds, Base, BoardInfo, Reach

__all__ = [
    "GAP_RAMP",
    "ODDS_RAMP",
    "PASSES_ALL",
    "PASSES_NONE",
    "RING_SHADES",
    "base_colours",
    "gap_colour",
    "gap_label",
    "gap_picture",
    "objective_range",
    "odds_picture",
    "reach_picture",
]

GAP_RAMP = ("#7a0177", "#c51b8a", "#e34a33", "#fd8d3c", "#d9b51c", "#78c679", "#31a354",
            "#1d91c0", "#253494")
"""Colours of the largest base through, from the catalogue's narrowest base to its widest."""
PASSES_ALL = "#9a9a9a"
PASSES_NONE = "#111111"
RING_SHADES = (0.62, 0.38, 0.18)
"""Opacity of the side's colour for the ground reached in 1, 2, 3 phases."""
ODDS_RAMP = ("#fff5d6", "#fdd49e", "#fc8d59", "#d7301f", "#990000", "#4a0000")
"""Fill of the advance zones by probability: roll 6 (1/6) lightest, roll 1 (certain) darkest."""


def base_colours(bases: Sequence[Base]) -> dict[str, str]:
    """The colour of each base (in the catalogue's order) on the gap pictures."""
    return {b.name: svg.ramp(GAP_RAMP, i / max(1, len(bases) - 1))
            for i, b in enumerate(bases)}


def gap_colour(gap: Gap, colours: dict[str, str]) -> str:
    """The colour of the largest base through, grey when every base passes, black when none."""
    if not gap.fails:
        return PASSES_ALL
    big = gap.largest
    return PASSES_NONE if big is None else colours.get(big.base, PASSES_ALL)


def gap_label(n: int, gap: Gap, margin: float = GAP_MARGIN) -> str:
    """The number drawn beside a gap: ``7``, or ``7!`` when its largest pass is marginal."""
    big = gap.largest
    return f"{n}!" if big is not None and big.marginal(margin) else str(n)


def _gap_title(n: int, gap: Gap, margin: float) -> str:
    big = gap.largest
    if not gap.fails:
        tail = "every base surveyed gets through"
    elif big is None:
        tail = "no base surveyed gets through"
    else:
        spare = f", {big.spare:.2f}\" to spare" if big.spare is not None else ""
        facing = f" at {big.facing:g} degrees" if big.facing is not None else ""
        tail = (f"largest base through: {big.base}{facing}{spare}"
                + (" (marginal)" if big.marginal(margin) else ""))
    return f"gap {n}: {gap.a} - {gap.b}, {gap.width:.2f}\"; {tail}"


def terrain(info: BoardInfo, anchor: str) -> str:
    """The board's terrain as a group (areas under features), for reuse by :func:`again`."""
    out = []
    for piece in sorted(info.terrain, key=lambda p: p.kind != "area"):
        fill, stroke, _ = svg.terrain_style(piece.kind)
        out.append(svg.shape(piece.wkt, title=f"{piece.id} ({piece.kind})", fill=fill,
                             stroke=stroke, stroke_width=0.06))
    return f'<g id="{anchor}-terrain">{"".join(out)}</g>'


def again(anchor: str) -> str:
    """The board's terrain drawn again, faded, over a map."""
    return f'<use href="#{anchor}-terrain" opacity="0.55"/>'


def zones(info: BoardInfo, sides: Sequence[str], only: str | None = None) -> list[str]:
    out = []
    for i, side in enumerate(sides):
        zone = info.zones.get(side)
        if zone is None or (only is not None and side != only):
            continue
        c = svg.side_colour(side, i)
        out.append(svg.shape(zone, "zn", title=f"deployment zone of {side}", fill=c, stroke=c))
    return out


def objectives(info: BoardInfo, radius: float) -> list[str]:
    out = []
    for i, (x, y) in enumerate(info.objectives, 1):
        out.append(svg.circle((x, y), radius, "or"))
        out.append(svg.circle((x, y), 0.8, "om", title=f"objective {i} ({x:.2f}, {y:.2f})"))
        out.append(svg.text((x, y), str(i), "ob"))
    return out


def objective_range(board: Board) -> float:
    """The objective range of the board's reach jobs (3" unless the plan says otherwise)."""
    for j in board.jobs:
        v = j.params.get("objective_range")
        if j.measure == "reach" and isinstance(v, int | float) and not isinstance(v, bool):
            return float(v)
    return 3.0


def setup_marks(info: BoardInfo) -> list[str]:
    """Each set-up mark as a thin line from its edge to the point measured, with the
    distance written along it."""
    out = []
    for m in info.setup:
        x, y = m.at
        start = {"left": (0.0, y), "right": (info.width, y), "top": (x, 0.0),
                 "bottom": (x, info.height)}[m.edge]
        title = f"{m.name or m.piece}: {m.distance:.2f}\" from the {m.edge} edge"
        out.append(svg.line(start, (x, y), "su", title=title))
        out.append(svg.circle((x, y), 0.18, "sp"))
        mx, my = (start[0] + x) / 2, (start[1] + y) / 2
        vertical = m.edge in ("top", "bottom")
        out.append(svg.text((mx, my), f"{m.distance:.2f}", "sl" + (" v" if vertical else "")))
    return out


def gap_picture(board: Board, colours: dict[str, str], anchor: str, *,
                margin: float = GAP_MARGIN, gaps: Sequence[tuple[int, Gap]] | None = None,
                setup: bool = False, css_class: str = "board") -> str:
    """The board with terrain, zones, objectives (and their range) and its gaps' necks,
    numbered (``gaps``: the numbered gaps to draw, default all); ``setup``: the set-up
    marks too."""
    info = board.info
    shown = list(enumerate(board.gaps, 1)) if gaps is None else list(gaps)
    body = [*zones(info, board.sides), terrain(info, anchor)]
    if setup:
        body += setup_marks(info)
    body.append(svg.segments((g.neck for _, g in shown), "nk0"))
    for n, g in shown:
        marginal = gap_label(n, g, margin).endswith("!")
        body.append(svg.line(*g.neck, "nk nm" if marginal else "nk",
                             title=_gap_title(n, g, margin), stroke=gap_colour(g, colours)))
    body += objectives(info, objective_range(board))  # over the necks
    for n, g in shown:
        x, y = g.middle
        body.append(svg.text((x, y - 1.0), gap_label(n, g, margin)))
    return svg.board_svg(info.width, info.height, body,
                         label=f"{info.layout}, {info.deployment}: gaps", css_class=css_class)


def reach_picture(board: Board, anchor: str, side: str, index: int, reach: Reach
                  ) -> tuple[str, str]:
    """The ground one side reaches in 1, 2, 3 phases (the reach rings), and its M."""
    m, rings = next(iter(sorted(reach.rings.items())), ("", []))
    c = svg.side_colour(side, index)
    body = zones(board.info, board.sides, only=side)
    for k in range(len(rings) - 1, -1, -1):
        op = RING_SHADES[min(k, len(RING_SHADES) - 1)]
        body.append(svg.shape(rings[k], title=f"{side}: reached in {k + 1} "
                              f"phase{'s' if k else ''} of M={m}", fill=c, fill_opacity=op))
    body += [again(anchor), *objectives(board.info, objective_range(board))]
    label = f"{board.info.layout}, {board.info.deployment}: reach of {side}, M={m}"
    return svg.board_svg(board.info.width, board.info.height, body, label=label,
                         css_class="board half"), m


def odds_picture(board: Board, anchor: str, side: str, odds: AdvanceOdds) -> str:
    """The six nested advance zones of one side, shaded by their chance."""
    body = zones(board.info, board.sides, only=side)
    for band in sorted(odds.bands, key=lambda b: -b.roll):
        body.append(svg.shape(band.wkt, title=f"{side}: roll {band.roll} or more, "
                              f"p = {band.p:.2f}", fill=ODDS_RAMP[6 - min(max(band.roll, 1), 6)]))
    body += [again(anchor), *objectives(board.info, objective_range(board))]
    body.append(svg.circle(odds.start, 0.6, title=f"start ({odds.start[0]:.2f}, "
                           f"{odds.start[1]:.2f})", fill="#111", stroke="#fff", stroke_width=0.15))
    label = f"{board.info.layout}, {board.info.deployment}: advance odds of {side}"
    return svg.board_svg(board.info.width, board.info.height, body, label=label,
                         css_class="board half")

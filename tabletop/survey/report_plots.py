"""Plots of the survey report (matplotlib, the optional extra ``plots``), as inline PNG (#16).

matplotlib is imported lazily, with its non-interactive Agg backend: without it the page says
which plots are missing and the command that installs them. The PNGs carry no metadata (no
software version, no date), so the same results give the same bytes.
"""

from __future__ import annotations

import base64
import html
import io
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from tabletop import DISTRIBUTION
from tabletop.survey.measures import PHASE_CAP
from tabletop.survey.report_data import Base, Reach, Survey, counted

__all__ = ["PLOTS", "plots_section"]

PLOTS = (
    "Movement phases to an objective by base size, per side and M",
    "Share of the gaps each base gets through, by base size",
)
INSTALL = f'pip install "{DISTRIBUTION}[plots]"  (in a checkout: pip install -e ".[plots]")'


def _phases_by_base(survey: Survey) -> dict[str, dict[str, dict[str, list[float]]]]:
    """M -> side -> base name -> phases to each objective of every board (:func:`counted`)."""
    out: dict[str, dict[str, dict[str, list[float]]]] = defaultdict(
        lambda: defaultdict(lambda: defaultdict(list)))
    for job in survey.plan.jobs:
        value = survey.values.get(job.id)
        if not isinstance(value, Reach):
            continue
        for m, moves in value.moves.items():
            out[m][job.side or ""][job.base.name] += [counted(v) for v in moves]
    return out


def _plain(text: str, limit: int = 40) -> str:
    """A name from the files as matplotlib shows it: no mathtext, at most ``limit`` characters."""
    text = text if len(text) <= limit else text[:limit - 1] + "…"
    return text.replace("$", r"\$")


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _img(uri: str, alt: str) -> str:
    return f'<figure><img class="plot" src="{uri}" alt="{html.escape(alt)}"></figure>'


def plots_section(survey: Survey, bases: Sequence[Base],
                  shares: dict[str, tuple[int, int]]) -> str:
    """The plots' section: the plots, or what is missing and how to install it. ``shares``:
    by base name, how many of the boards' gaps it gets through and how many it was measured
    against."""
    head = '<section id="plots"><h2>Plots</h2>'
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        items = "".join(f"<li>{html.escape(p)}</li>" for p in PLOTS)
        return (head + '<p class="warn">These plots need matplotlib, which is not installed: '
                f"<code>{html.escape(INSTALL)}</code>, then rebuild the page with "
                f"<code>tabletop survey --report OUT_DIR</code>.</p><ul>{items}</ul></section>")
    from tabletop.survey.report_svg import side_colour

    order = {b.name: b for b in bases}
    parts = []
    phases = _phases_by_base(survey)
    if phases:
        ms = sorted(phases, key=float)
        sides = sorted({s for m in ms for s in phases[m]})
        fig, axes = plt.subplots(1, len(ms), figsize=(2.3 * len(ms) + 1.2, 3.2), sharey=True,
                                 squeeze=False)
        for ax, m in zip(axes[0], ms, strict=True):
            for i, side in enumerate(sides):
                pts = sorted((order[n].width * 25.4, sum(v) / len(v))
                             for n, v in phases[m][side].items() if n in order and v)
                if pts:
                    ax.plot(*zip(*pts, strict=True), marker="os^v"[i % 4], ms=3.5, lw=1.3,
                            ls=("-", "--", ":", "-.")[i % 4], mfc="none" if i else None,
                            color=side_colour(side, i), label=_plain(side))
            ax.set_title(f"M = {_plain(m)}", fontsize=10)
            ax.set_xlabel("base least width (mm)", fontsize=8)
            ax.tick_params(labelsize=8)
            ax.grid(alpha=0.3)
        axes[0][0].set_ylabel("mean phases to an objective", fontsize=8)
        axes[0][-1].legend(fontsize=8)
        fig.suptitle(PLOTS[0] + f" (all boards; out of reach in {PHASE_CAP} counted as "
                     f"{PHASE_CAP + 1})", fontsize=10)
        fig.tight_layout()
        parts.append(_img(_png(fig), PLOTS[0]))
        plt.close(fig)
    if shares:
        shown = sorted((order[n].width * 25.4, 100 * ok / total, n)
                     for n, (ok, total) in shares.items() if n in order and total)
        if shown:
            fig, ax = plt.subplots(figsize=(8, 3.6))
            ax.plot([p[0] for p in shown], [p[1] for p in shown], marker="o", ms=4, color="#444")
            for x, y, n in shown:
                ax.annotate(_plain(n), (x, y), fontsize=7, xytext=(3, 3),
                            textcoords="offset points")
            ax.set_xlabel("base least width (mm)", fontsize=9)
            ax.set_ylabel("% of its gaps it gets through", fontsize=9)
            ax.set_ylim(-3, 103)
            ax.grid(alpha=0.3)
            ax.set_title(PLOTS[1] + "\n(every passage any base found, on every board)",
                         fontsize=10)
            fig.tight_layout()
            parts.append(_img(_png(fig), PLOTS[1]))
            plt.close(fig)
    if not parts:
        parts.append("<p>No reach or gap-fit results to plot yet.</p>")
    return head + "".join(parts) + "</section>"

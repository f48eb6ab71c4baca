"""Markup shared by the survey's pages: escaping, tables, swatches, the pages' style and script.

Every string from the survey's files goes through :func:`e` before it reaches the markup; the
tables take cells that are markup already.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from tabletop import __version__
from tabletop.survey import report_svg as svg

__all__ = ["CSS", "SCRIPT", "cell", "e", "page", "swatch", "table"]


def e(text: object) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


def table(head: Sequence[str] | str | None, rows: Iterable[Sequence[str]], *, cls: str = "",
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


def cell(v: float, text: str) -> str:
    """A right-aligned cell that sorts by ``v``."""
    return f'<td class="n" data-v="{v:.6g}">{text}</td>'


def swatch(colour: str, cls: str = "") -> str:
    return f'<span class="sw{" " + cls if cls else ""}" style="background:{colour}"></span>'


CSS = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
margin:0 auto;max-width:1180px;padding:0 18px 40px;color:#1b1b1b;background:#fff}
h1{margin:18px 0 4px}h2{border-bottom:2px solid #ddd;padding-bottom:3px;margin-top:28px}
h3{margin:22px 0 6px}h4{margin:16px 0 4px}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}
th,td{border:1px solid #d6d6d6;padding:2px 7px;text-align:left;vertical-align:top}
th{background:#f1f1f1}td.n{text-align:right}table.kv td:first-child{white-space:nowrap}
table.sortable th{cursor:pointer}table.sortable th:hover{background:#e2e8f0}
td.b{background:#dff3e3;font-weight:600}td.tie{color:#777}
table.phases td{text-align:right}table.phases td:first-child{text-align:left}
td.ph,td.nw{white-space:nowrap}pre{margin:0;white-space:pre-wrap;max-width:560px}
th.v{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap;font-weight:500;
padding:5px 2px}
.wrap{overflow-x:auto}
.sw{display:inline-block;width:14px;height:14px;border:1px solid #555;vertical-align:-2px;
margin-right:5px}.sw.dash{border:none;border-top:3px dashed #555;height:0;vertical-align:4px}
ul.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:4px 16px;font-size:13px}
details{border:1px solid #ddd;border-radius:6px;padding:4px 10px;margin:6px 0}
details[open]{background:#fcfcfa}summary{cursor:pointer;padding:3px 0}
.muted{color:#666}.warn{background:#fff4d6;border-left:4px solid #e0a800;padding:4px 8px}
.mg{color:#a4262c;font-weight:600}
svg.board{width:100%;max-width:900px;height:auto;display:block}
svg.board.half{max-width:540px}.pair{display:flex;flex-wrap:wrap;gap:12px}
.pair figure{flex:1 1 420px;margin:0}figcaption{text-align:center;font-weight:600}
img.plot{max-width:100%;height:auto}ul.layouts{columns:2;font-size:14px}
ul.setup{columns:3;font-size:13px;padding-left:18px}
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


def page(title: str, body: str, footer: str) -> str:
    """A whole page: ``title`` (text), ``body`` and ``footer`` (markup)."""
    return ("<!DOCTYPE html>\n"
            '<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{e(title)}</title><style>{CSS}{svg.CSS}</style></head><body>{body}"
            f'<footer class="muted"><p>{footer} Built by tabletop {e(__version__)} from the '
            "survey folder's plan.json and results.</p></footer>"
            f"<script>{SCRIPT}</script></body></html>\n")

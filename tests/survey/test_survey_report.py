"""The survey's report (#16 item 3): one static page from plan.json and results/ alone.

The fixture is a survey folder written by hand to the contract (``tabletop.survey.jobs``): two
layouts of one toy board (two dense ruins with a 2.2" gap between them, a light piece 1.5" off
the bottom edge), one deployment map, four bases, every measure, with one failed job, one
malformed result and one missing result, and ids, names and errors that try to forge markup.
"""

from __future__ import annotations

import html
import json
import math
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
import shapely
from shapely.geometry import Point, box

from tabletop.errors import UserError
from tabletop.survey.jobs import safe_id
from tabletop.survey.measures import PHASE_CAP
from tabletop.survey.report import build_report

from support.paths import KDC_DATA
from support.pngio import read_png

HOSTILE = '<script>alert("x")</script>\'"&amp;'
LAYOUTS = ["toy-open", f"lay{HOSTILE}"]
DEPLOYMENT = "strips"
W, H = 60.0, 44.0
TERRAIN = [
    ("area-1", "area", box(22, 6, 31, 38)),
    ("ruin-a", "dense", box(24, 8, 29, 20)),
    ("ruin-b", "dense", box(24, 22.2, 29, 36)),
    (f"crate{HOSTILE}", "light", box(40, 40.5, 44, 42.5)),
]
ZONES = {"red": box(0, 0, 12, H), "blue": box(48, 0, W, H)}
LEANING = {"red": box(0, 0, 12, H), "blue": box(54, 0, W, H)}
"""The second layout's zones: blue's is 6" further from the objectives."""
OBJECTIVES = [[30.0, 22.0], [15.0, 8.0], [45.0, 36.0], [15.0, 36.0], [45.0, 8.0]]
MOVES = [5, 6, 8]
PHASES = 3
BASES = [  # name, spec, units, least width, greatest width (inches)
    ("25mm", "25mm", 40, 0.984, 0.984),
    ("50mm", "50mm", 12, 1.969, 1.969),
    ("60mm", "60mm", 9, 2.362, 2.362),
    (f"hull{HOSTILE}", [[0, 0], [3.5, 0], [3.5, 5], [0, 5]], 0, 3.5, 5.0),
]


def _base(entry: tuple[object, ...]) -> dict[str, object]:
    return dict(zip(("name", "spec", "units", "width", "length"), entry, strict=True))


def _zones(layout: str) -> dict[str, shapely.Geometry]:
    return ZONES if layout == LAYOUTS[0] else LEANING


def _board_info(layout: str) -> dict[str, object]:
    return {"board": f"{layout}__{DEPLOYMENT}", "layout": layout, "deployment": DEPLOYMENT,
            "width": W, "height": H,
            "terrain": [{"id": i, "kind": k, "wkt": g.wkt} for i, k, g in TERRAIN],
            "zones": {p: z.wkt for p, z in _zones(layout).items()}, "objectives": OBJECTIVES,
            "mission": f"take{HOSTILE}", "own": True, "credit": f"Drawn by hand {HOSTILE}.",
            "setup": [{"piece": "ruin-a", "name": f"Ruin{HOSTILE}", "edge": "left",
                       "distance": 24.0, "at": [24.0, 8.0]},
                      {"piece": "ruin-a", "name": f"Ruin{HOSTILE}", "edge": "top",
                       "distance": 8.0, "at": [24.0, 8.0]}]}


def _blocked() -> shapely.Geometry:
    return shapely.union_all([g for _, k, g in TERRAIN if k == "dense"])


def _value(job: dict[str, object]) -> dict[str, object]:
    base = job["base"]
    assert isinstance(base, dict)
    if job["measure"] == "gap-fit":
        wide = base["width"]
        return {"passages": [
            {"a": "ruin-a", "b": "ruin-b", "width": 2.2, "passes": wide <= 2.2,
             "facing": None, "neck": [[26.5, 20.0], [26.5, 22.2]],
             "shut_by": None, "needs": wide, "spare": round(2.2 - wide, 6)},
            {"a": f"crate{HOSTILE}", "b": "edge", "edge": "bottom edge", "width": 1.5,
             "passes": wide <= 1.5, "facing": None,
             "neck": [[42.0, 42.5], [42.0, 44.0]], "needs": wide,
             "spare": round(1.5 - wide, 6),
             "shut_by": "ruin-b" if base["name"] == "50mm" else None},
        ], "stopped_by": [t[0] for t in TERRAIN if t[1] != "area"]}
    table = box(0, 0, W, H).difference(_blocked())
    zone = _zones(str(job["layout"]))[str(job["side"])]
    if job["measure"] == "reach":
        moves, area, rings, centre = {}, {}, {}, {}
        for m in MOVES:
            need = [math.ceil(max(0.0, zone.distance(Point(o)) - 3.0) / m) for o in OBJECTIVES]
            moves[str(m)] = [n if n <= PHASE_CAP else None for n in need]
            centre[str(m)] = need[0]
            if str(base["name"]).startswith("hull"):
                moves[str(m)][0] = None  # as if the hull could not get to the middle one
            grown = [zone.buffer(k * m).intersection(table) for k in (1, 2, 3)]
            area[str(m)] = [round(g.area, 1) for g in grown]
            if m == 6:
                rings[str(m)] = [g.wkt for g in grown]
        return {"objectives": OBJECTIVES, "moves": moves, "area": area, "rings": rings,
                "centre": centre}
    start = list(zone.centroid.coords[0])
    return {"M": 6, "start": start, "bands": [
        {"roll": k, "p": (7 - k) / 6, "wkt": Point(start).buffer(6 + k).intersection(table).wkt}
        for k in range(1, 7)], "objectives": [None, 3, None, 4, None], "centre": None}


def write_fixture(out: Path) -> dict[str, object]:
    """A survey folder: plan.json and results/, with a failed, a malformed and a missing job."""
    jobs: list[dict[str, object]] = []
    for layout in LAYOUTS:
        board = f"{layout}__{DEPLOYMENT}"
        for entry in BASES:
            base = _base(entry)
            jobs.append({"measure": "gap-fit", "side": None, "params": {}, "base": base})
            for side in ZONES:
                jobs.append({"measure": "reach", "side": side, "base": base, "params": {
                    "moves": MOVES, "phases": PHASES, "objective_range": 3.0}})
                if entry[0] == "25mm":
                    jobs.append({"measure": "advance-odds", "side": side, "base": base,
                                 "params": {"M": 6, "start": [6.0, 22.0]}})
        for job in jobs:
            job.setdefault("board", board)
            job.setdefault("layout", layout)
            job.setdefault("deployment", DEPLOYMENT)
    for n, job in enumerate(jobs):
        job["id"] = f"{n:03d}-{job['measure']}"
    plan = {"version": 1, "layouts": LAYOUTS, "deployments": [DEPLOYMENT],
            "bases": [_base(b) for b in BASES],
            "boards": {f"{lay}__{DEPLOYMENT}": _board_info(lay) for lay in LAYOUTS},
            "jobs": jobs}
    (out / "results").mkdir(parents=True)
    (out / "plan.json").write_text(json.dumps(plan, indent=1), encoding="utf-8")
    def find(measure: str, side: str | None, base: str, layout: str) -> object:
        return next(j["id"] for j in jobs if (j["measure"], j["side"], j["layout"]) == (
            measure, side, layout) and j["base"]["name"] == base)  # type: ignore[index]

    failed = find("reach", "blue", "25mm", LAYOUTS[0])
    malformed = find("reach", "red", "50mm", LAYOUTS[0])
    missing = find("advance-odds", "blue", "25mm", LAYOUTS[1])
    for job in jobs:
        if job["id"] == missing:
            continue
        ok = job["id"] != failed
        result = {"id": job["id"], "job": job, "ok": ok, "seconds": 0.25,
                  "error": None if ok else f"ValueError: {HOSTILE}",
                  "value": _value(job) if ok else None}
        if job["id"] == malformed:
            result["value"] = {"objectives": "all of them"}
        (out / "results" / f"{job['id']}.json").write_text(json.dumps(result), encoding="utf-8")
    return plan


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """The survey folder and every page written, by path relative to it."""
    out = tmp_path_factory.mktemp("survey")
    write_fixture(out)
    build_report(out)
    return out, pages(out)


def pages(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): p.read_text(encoding="utf-8")
            for p in sorted(out.rglob("*.html"))}


STEMS = [safe_id(lay) for lay in LAYOUTS]


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.refs: list[str] = []
        self.tags: list[str] = []
        self.details: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append(tag)
        if a.get("id"):
            self.ids.add(str(a["id"]))
            if tag == "details":
                self.details.append(str(a["id"]))
        for key in ("href", "src"):
            if a.get(key) is not None:
                self.refs.append(str(a[key]))


def links_of(text: str) -> _Links:
    links = _Links()
    links.feed(text)
    return links


def test_an_index_a_page_and_a_card_per_layout(report: tuple[Path, dict[str, str]]) -> None:
    _, got = report
    assert sorted(got) == sorted(["report.html"] + [f"layouts/{s}.html" for s in STEMS]
                                 + [f"cards/{s}.html" for s in STEMS])
    index = links_of(got["report.html"])
    for section in ("contents", "summary", "layouts", "comparison", "balance", "bases",
                    "plots", "failed"):
        assert section in index.ids, section
    for stem, layout in zip(STEMS, LAYOUTS, strict=True):
        text = got[f"layouts/{stem}.html"]
        assert html.escape(layout) in text
        # the gap picture, reach x 2 sides (of 60 mm: 25 and 50 mm lack a side on the first
        # layout), odds x 2 sides (of 25 mm, the only base with odds: blue's is missing on
        # the second layout)
        pictures = 1 + 2 + (2 if layout == LAYOUTS[0] else 0)
        assert text.count("<svg") == pictures, (layout, text.count("<svg"))
        assert len(re.findall(r'class="nk( nm)?"', text)) == 2 and "objective 5" in text
        assert f"&gt;{PHASE_CAP}" in text  # the hull's centre objective out of reach
        card = got[f"cards/{stem}.html"]
        assert card.count("<svg") == 1 and "Set-up" in card


def test_gaps_take_the_colour_of_the_largest_base_through(
        report: tuple[Path, dict[str, str]]) -> None:
    _, got = report
    text = got[f"layouts/{STEMS[1]}.html"]
    # narrowest first: 1 is the 1.5" gap (25 mm through), 2 the 2.2" one (50 mm through with
    # 0.23" to spare: marginal under 0.25")
    assert "largest base through: 25mm, 0.52&quot; to spare<" in text
    assert "largest base through: 50mm, 0.23&quot; to spare (marginal)" in text
    assert ">2!<" in text and ">1<" in text
    assert "<td>ruin-b</td>" in text   # what shuts the 1.5" gap for 50mm
    card = got[f"cards/{STEMS[1]}.html"]
    assert "marginal (N!)" in card and 'class="mg">0.23<' in card


def test_a_wider_margin_or_a_narrower_one(tmp_path: Path) -> None:
    from tabletop.survey.report import render
    from tabletop.survey.report_data import load

    write_fixture(tmp_path)
    survey = load(tmp_path)
    strict = render(survey, margin=0.6).layouts[STEMS[1]]
    loose = render(survey, margin=0.2).layouts[STEMS[1]]
    assert ">1!<" in strict and ">2!<" in strict    # 0.52" and 0.23" both under 0.6"
    assert "!<" not in loose.replace("+", "")


def test_identical_bases_share_a_row(report: tuple[Path, dict[str, str]]) -> None:
    _, got = report
    index = got["report.html"]
    comparison = index[index.index('id="comparison"'):index.index('id="balance"')]
    # the hull and 60 mm are stopped by both gaps everywhere: one row; 25 mm by none
    assert f'<td class="nw">60mm<br>{html.escape(BASES[3][0])}</td>' in comparison
    assert '<td class="nw">25mm</td>' in comparison
    # the fixture's phases do not depend on the base: one table for 25 and 50 mm, which
    # both lack one side on the first layout, one for 60 mm, which has both
    assert "25mm, 50mm, M=6" in comparison and "<b>60mm, M=6" in comparison
    page = got[f"layouts/{STEMS[1]}.html"]
    assert "<td>25mm, 50mm, 60mm</td>" in page


def test_balance_shows_ties_as_ties(report: tuple[Path, dict[str, str]]) -> None:
    _, got = report
    index = got["report.html"]
    balance = index[index.index('id="balance"'):index.index('id="bases"')]
    boards = balance[:balance.index("Furthest beyond the tolerance")]
    # the second layout leans to red (blue deploys 6" further off): it comes first; the
    # first is mirrored: every comparison a tie
    first, second = (boards.index(f">{html.escape(lay)}</a>") for lay in LAYOUTS[::-1])
    assert first < second
    assert "<td>red</td>" in boards and "<td>tie</td>" in boards
    rows = balance[balance.index("Furthest beyond the tolerance"):]
    assert html.escape(LAYOUTS[0]) + "</a>" not in rows and "red by" in rows
    assert "Tolerance</b>: equal phases are a tie; ground within 2%" in balance
    assert "(board, base, M) are ties" in balance


def test_counts_failed_and_missing_jobs(report: tuple[Path, dict[str, str]]) -> None:
    _, got = report
    index = got["report.html"]
    assert "2 failed</a>, 1 missing" in index
    assert "the value is not a reach value" in index
    assert html.escape(f"ValueError: {HOSTILE}") in index
    assert "1 jobs of this board have no result yet" in got[f"layouts/{STEMS[1]}.html"]


def test_hostile_strings_are_escaped(report: tuple[Path, dict[str, str]]) -> None:
    _, got = report
    for name, text in got.items():
        assert 'alert("x")' not in text, name
        tags = links_of(text).tags
        scripts = 0 if name.startswith("cards/") else 1  # the pages' own sorting script
        assert tags.count("script") == scripts and text.count("<script") == scripts, name


def test_no_broken_link_or_image(report: tuple[Path, dict[str, str]]) -> None:
    out, got = report
    parsed = {name: links_of(text) for name, text in got.items()}
    for name, links in parsed.items():
        for ref in links.refs:
            if ref.startswith("data:"):
                assert ref.startswith(("data:image/png;base64,", "data:image/svg+xml")), ref
                continue
            assert "://" not in ref, ref
            path, _, anchor = ref.partition("#")
            target = (out / name).parent / path if path else out / name
            target = target.resolve()
            assert target.is_file(), (name, ref)
            if anchor:
                assert anchor in parsed[str(target.relative_to(out.resolve()))].ids, (name, ref)


def test_rebuilding_gives_the_same_bytes(report: tuple[Path, dict[str, str]]) -> None:
    out, got = report
    build_report(out)
    assert pages(out) == got


def test_no_page_over_a_few_megabytes(report: tuple[Path, dict[str, str]]) -> None:
    _, got = report
    assert max(len(t.encode()) for t in got.values()) < 1_000_000


def test_without_matplotlib_the_page_names_the_missing_plots(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write_fixture(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    text = build_report(tmp_path).read_text(encoding="utf-8")
    assert "need matplotlib" in text and "tabletop-zones[plots]" in text
    assert "Movement phases to an objective by base size" in text
    assert "data:image/png" not in text


def test_a_plan_it_cannot_use_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"plan\.json: no such file"):
        build_report(tmp_path)
    (tmp_path / "plan.json").write_text('{"version": 1, "boards": {}, "jobs": [{"id": 3}]}',
                                        encoding="utf-8")
    with pytest.raises(UserError, match=r"plan\.json: not a survey plan: jobs\[0\]"):
        build_report(tmp_path)
    assert not (tmp_path / "report.html").exists()


@pytest.mark.slow
@pytest.mark.browser
def test_opens_in_headless_chromium(report: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    out, got = report
    # headless screenshots are of the top of the page: for the boards, a copy with every
    # board's details open (the page's own script opens the one a link points to)
    opened = out / "layouts" / "open.html"
    opened.write_text(got[f"layouts/{STEMS[1]}.html"].replace("<details ", "<details open "),
                      encoding="utf-8")
    try:
        for name, url, size in (("page.png", (out / "report.html").as_uri(), "1200,2400"),
                                ("boards.png", opened.as_uri(), "1200,6000")):
            shot = tmp_path / name
            subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                            "--hide-scrollbars", f"--screenshot={shot}",
                            f"--window-size={size}", url], check=True, capture_output=True,
                           timeout=120)
            pixels = read_png(shot).reshape(-1, 3)
            colours = np.unique(pixels // 16, axis=0)
            assert len(colours) > 20, f"{name} looks blank"
            assert (pixels.min(axis=1) < 200).mean() > 0.02, f"{name} has almost nothing drawn"
    finally:
        opened.unlink()


DATA = KDC_DATA


@pytest.mark.slow
@pytest.mark.skipif(not (DATA / "terrain-layouts.json").is_file(),
                    reason=f"the 40kdc data is not beside the repository ({DATA})")
def test_report_of_real_layouts(tmp_path: Path) -> None:
    """Two real layouts on their own maps, their gap-fit and advance-odds jobs run in-process
    (reach, seconds a job, left without results): the pages draw both boards and name what is
    missing."""
    from tabletop.survey import parse_bases, plan, run_job

    layouts = ["take-and-hold-mirror-1", "gw-11e-crucible"]
    p = plan(DATA / "terrain-layouts.json", layouts=layouts,
             bases=parse_bases("32mm,oval 75x42mm,60mm"))
    (tmp_path / "results").mkdir()
    for job in p["jobs"]:
        if job["measure"] != "reach":
            result = run_job(job)
            assert result["ok"], result["error"]
            (tmp_path / "results" / f"{job['id']}.json").write_text(json.dumps(result),
                                                                    encoding="utf-8")
        del job["scenario"]
    (tmp_path / "plan.json").write_text(json.dumps(p), encoding="utf-8")
    build_report(tmp_path)
    got = pages(tmp_path)
    reach_jobs = sum(j["measure"] == "reach" for j in p["jobs"])
    assert f"0 failed, {reach_jobs} missing" in got["report.html"]
    for layout in layouts:
        text = got[f"layouts/{layout}.html"]
        assert len(re.findall(r'class="nk( nm)?"', text)) >= 5  # gaps drawn
        assert text.count("<svg") == 1 + 2  # gaps and both sides' advance odds
        assert "No reach rings for this board" in text
        assert "Set-up" in got[f"cards/{layout}.html"]


def test_a_result_keyed_by_no_number_counts_as_failed(tmp_path: Path) -> None:
    plan = write_fixture(tmp_path)
    job = next(j for j in plan["jobs"] if j["measure"] == "reach")  # type: ignore[union-attr]
    path = tmp_path / "results" / f"{job['id']}.json"
    result = json.loads(path.read_text(encoding="utf-8"))
    result["value"]["moves"]["<b>six</b>"] = [1, 2, 3, 4, 5]
    path.write_text(json.dumps(result), encoding="utf-8")
    text = build_report(tmp_path).read_text(encoding="utf-8")
    assert "3 failed</a>" in text and "a key of M must be a number" in text
    assert "<b>six" not in text


def test_a_card_and_the_pages_from_a_survey_folder(report: tuple[Path, dict[str, str]],
                                                   tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop.cli import main

    out, got = report
    card = tmp_path / "card.html"
    assert main(["survey", "--card", LAYOUTS[1], "--report", str(out), "-o", str(card)]) == 0
    assert capsys.readouterr().out == f"card: {card}\n"
    # the report's card but for its link to the layout's page (a card written elsewhere)
    link = re.compile(r' &middot; <a href="\.\./layouts/[^"]*">[^<]*</a>')
    assert card.read_text(encoding="utf-8") == link.sub("", got[f"cards/{STEMS[1]}.html"])
    assert main(["survey", "--card", "nowhere", "--report", str(out), "-o", str(card)]) == 2
    assert "has no such layout" in capsys.readouterr().err
    # the pages elsewhere (a survey on read-only storage): the index, and beside it the rest
    elsewhere = tmp_path / "pages" / "index.html"
    elsewhere.parent.mkdir()
    assert main(["survey", "--report", str(out), "-o", str(elsewhere)]) == 0
    assert elsewhere.read_text(encoding="utf-8") == got["report.html"]
    assert (elsewhere.parent / "layouts" / f"{STEMS[0]}.html").is_file()
    assert (elsewhere.parent / "cards" / f"{STEMS[0]}.html").is_file()

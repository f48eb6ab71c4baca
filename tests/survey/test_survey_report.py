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
            "zones": {p: z.wkt for p, z in _zones(layout).items()}, "objectives": OBJECTIVES}


def _blocked() -> shapely.Geometry:
    return shapely.union_all([g for _, k, g in TERRAIN if k == "dense"])


def _value(job: dict[str, object]) -> dict[str, object]:
    base = job["base"]
    assert isinstance(base, dict)
    if job["measure"] == "gap-fit":
        wide = base["width"]
        return {"passages": [
            {"a": "ruin-a", "b": "ruin-b", "width": 2.2, "passes": wide <= 2.2,
             "facing": 0.0 if wide <= 2.2 else None, "neck": [[26.5, 20.0], [26.5, 22.2]],
             "shut_by": None},
            {"a": f"crate{HOSTILE}", "b": "edge", "width": 1.5, "passes": wide <= 1.5,
             "facing": 0.0 if wide <= 1.5 else None, "neck": [[42.0, 42.5], [42.0, 44.0]],
             "shut_by": "ruin-b" if base["name"] == "50mm" else None},
        ]}
    table = box(0, 0, W, H).difference(_blocked())
    zone = _zones(str(job["layout"]))[str(job["side"])]
    if job["measure"] == "reach":
        moves, area, rings = {}, {}, {}
        for m in MOVES:
            need = [math.ceil(max(0.0, zone.distance(Point(o)) - 3.0) / m) for o in OBJECTIVES]
            moves[str(m)] = [n if n <= PHASE_CAP else None for n in need]
            if str(base["name"]).startswith("hull"):
                moves[str(m)][0] = None  # as if the hull could not get to the middle one
            grown = [zone.buffer(k * m).intersection(table) for k in (1, 2, 3)]
            area[str(m)] = [round(g.area, 1) for g in grown]
            if m == 6:
                rings[str(m)] = [g.wkt for g in grown]
        return {"objectives": OBJECTIVES, "moves": moves, "area": area, "rings": rings}
    start = list(zone.centroid.coords[0])
    return {"M": 6, "start": start, "bands": [
        {"roll": k, "p": (7 - k) / 6, "wkt": Point(start).buffer(6 + k).intersection(table).wkt}
        for k in range(1, 7)]}


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
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    out = tmp_path_factory.mktemp("survey")
    write_fixture(out)
    page = build_report(out)
    return page, page.read_text(encoding="utf-8")


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


def test_every_board_and_section(report: tuple[Path, str]) -> None:
    page, text = report
    assert page.name == "report.html"
    links = _Links()
    links.feed(text)
    for section in ("contents", "summary", "bases", "balance", "plots", "failed", "boards"):
        assert section in links.ids, section
    assert len(links.details) == len(LAYOUTS)
    for layout in LAYOUTS:
        assert html.escape(layout) in text
    # the board pictures: terrain, zones, objectives with their range, necks coloured
    # per board: gaps, reach x 2 sides, odds x 2 sides, but the failed and the missing job's
    assert text.count("<svg") == len(LAYOUTS) * (1 + 2 + 2) - 2
    assert "No reach result for blue" in text and "No advance-odds result for blue" in text
    assert text.count('class="nk"') == len(LAYOUTS) * 2
    assert "objective 5" in text and text.count('class="or"') == len(LAYOUTS) * 5 * 5 - 2 * 5
    # the 2.2" gap stops 60mm first, the 1.5" one 50mm (shut by ruin-b)
    assert "narrowest base that fails it: 60mm" in text
    assert "narrowest base that fails it: 50mm" in text
    assert "<td>ruin-b</td>" in text
    assert f">{PHASE_CAP}</td>" in text  # the hull's objective out of reach


def test_balance_is_ordered_by_imbalance(report: tuple[Path, str]) -> None:
    _, text = report
    balance = text[text.index('id="balance"'):text.index('id="plots"')]
    boards = balance[:balance.index("most unbalanced bases")]
    # the second layout leans to red (blue deploys 6" further off): it comes first
    first, second = (boards.index(f">{html.escape(lay)}</a>") for lay in LAYOUTS[::-1])
    assert first < second
    assert "<td>red</td>" in boards and "<td>even</td>" in boards
    assert text.count("; favours red by") == 1 and text.count("; even") == 1  # board summaries


def test_counts_failed_and_missing_jobs(report: tuple[Path, str]) -> None:
    _, text = report
    assert "2 failed</a>, 1 missing" in text
    assert "the value is not a reach value" in text
    assert html.escape(f"ValueError: {HOSTILE}") in text


def test_hostile_strings_are_escaped(report: tuple[Path, str]) -> None:
    _, text = report
    assert text.count("<script") == 1  # the page's own sorting script
    assert 'alert("x")' not in text
    links = _Links()
    links.feed(text)
    assert "script" not in links.tags[:-1] and links.tags.count("script") == 1


def test_no_broken_link_or_image(report: tuple[Path, str]) -> None:
    page, text = report
    links = _Links()
    links.feed(text)
    assert links.refs
    for ref in links.refs:
        if ref.startswith("#"):
            assert ref[1:] in links.ids, ref
        elif ref.startswith("data:"):
            assert ref.startswith(("data:image/png;base64,", "data:image/svg+xml")), ref[:40]
        else:
            assert "://" not in ref and (page.parent / ref).is_file(), ref


def test_rebuilding_gives_the_same_bytes(report: tuple[Path, str]) -> None:
    page, text = report
    assert build_report(page.parent).read_text(encoding="utf-8") == text


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
def test_opens_in_headless_chromium(report: tuple[Path, str], tmp_path: Path) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    page, text = report
    # headless screenshots are of the top of the page: for the boards, a copy with every
    # board's details open (the page's own script opens the one a link points to)
    opened = tmp_path / "report-open.html"
    opened.write_text(text.replace("<details ", "<details open "), encoding="utf-8")
    for name, url, size in (("page.png", page.as_uri(), "1200,2400"),
                            ("boards.png", opened.as_uri(), "1200,9000")):
        shot = tmp_path / name
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu",
                        "--hide-scrollbars", f"--screenshot={shot}", f"--window-size={size}",
                        url], check=True, capture_output=True, timeout=120)
        pixels = read_png(shot).reshape(-1, 3)
        colours = np.unique(pixels // 16, axis=0)
        assert len(colours) > 20, f"{name} looks blank"
        assert (pixels.min(axis=1) < 200).mean() > 0.02, f"{name} has almost nothing drawn"


DATA = KDC_DATA


@pytest.mark.slow
@pytest.mark.skipif(not (DATA / "terrain-layouts.json").is_file(),
                    reason=f"the 40kdc data is not beside the repository ({DATA})")
def test_report_of_real_layouts(tmp_path: Path) -> None:
    """Two real layouts, their gap-fit and advance-odds jobs run in-process (reach, seconds a
    job, left without results): the report draws both boards and names what is missing."""
    from tabletop.survey import parse_bases, plan, run_job

    layouts = ["take-and-hold-mirror-1", "gw-11e-crucible"]
    p = plan(DATA / "terrain-layouts.json", layouts=layouts, deployments=["tipping-point"],
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
    text = build_report(tmp_path).read_text(encoding="utf-8")
    links = _Links()
    links.feed(text)
    assert len(links.details) == 2 and all(lay in text for lay in layouts)
    reach_jobs = sum(j["measure"] == "reach" for j in p["jobs"])
    assert f"0 failed, {reach_jobs} missing" in text
    assert text.count('class="nk"') > 10  # gaps drawn on both boards
    assert text.count("<svg") == 2 * (1 + 2)  # gaps and both sides' advance odds
    assert "No reach rings for this board" in text
    for ref in links.refs:
        assert ref.startswith(("#", "data:")) and (ref[0] != "#" or ref[1:] in links.ids)


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

"""``tabletop survey``: gap-fit, reach and advance odds of every base over real layouts."""

from __future__ import annotations

import argparse
import os
from collections import Counter
from pathlib import Path
from typing import Any

from tabletop.cli._output import emit

ORDER = 45
PAPERS = ("a4", "letter")
"""The sheets of a card (``tabletop.survey.card.PAPERS``; survey modules load on use only)."""
GAP_MARGIN = 0.25
"""``tabletop.survey.compare.GAP_MARGIN``."""
REACH_BASES = ("32mm", "60mm")
"""``tabletop.survey.publish.REACH_BASES``."""


USAGE = """tabletop survey [LAYOUTS.json] [--layouts ID,...] [--deployments ID,... | --all-pairings]
                [--bases BASE,...] [--reach-bases BASE,...] [--measures NAME,...] -o OUT_DIR
                [--executor local|dask] [--workers N] [--scheduler ADDRESS] [--retry-failed]
       tabletop survey --report OUT_DIR [-o PAGE.html] [--margin IN]
       tabletop survey [LAYOUTS.json] --card LAYOUT -o CARD.html|.pdf|.png [--paper a4|letter]
       tabletop survey --card LAYOUT --report OUT_DIR -o CARD.html|.pdf|.png
       tabletop survey diff A B [--layouts-file LAYOUTS.json] [-o DIFF.html|.svg|.png]"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``survey`` sub-command."""
    p = subparsers.add_parser(
        "survey", usage=USAGE,
        help="survey layouts: which gaps each base gets through, moves to the objectives, "
        "advance odds, side balance; a printable card per layout; two drafts compared",
        description="Survey terrain layouts for every base of a catalogue: the passages each "
        "base gets through (gap-fit), the Movement phases each side needs to reach the centre "
        "and each objective (reach), the odds of an advance (advance-odds), and the balance of "
        "the two sides. Without LAYOUTS.json (the 40kdc terrain-layouts.json, with "
        "terrain-templates.json and deployment-patterns.json beside it) the current community "
        "layouts of wh40kdc (the 40kdc extra). Each layout is surveyed on its own deployment "
        "map. One result file per job goes into OUT_DIR/results as it comes; the same command "
        "again resumes. OUT_DIR/report.html (an index), OUT_DIR/layouts/ (a page per layout) "
        "and OUT_DIR/cards/ (a printable card per layout) are written at the end (--report "
        "OUT_DIR writes them again). --card LAYOUT writes one layout's card (LAYOUT: a layout "
        "id, or a scenario file) without a survey. 'tabletop survey diff A B' compares two "
        "layouts or two scenario files of one layout for movement: exit 0 and 'no movement "
        "difference' when there is none, 1 when there is.",
    )
    p.add_argument("args", nargs="*", metavar="LAYOUTS.json",
                   help="the 40kdc terrain-layouts.json (default: the current layouts of "
                   "wh40kdc); or: diff A B")
    p.add_argument("--layouts", dest="layout_ids", metavar="ID,...",
                   help="only these layouts (default: every layout)")
    p.add_argument("--deployments", dest="deployment_ids", metavar="ID,...",
                   help="pair every layout with these deployment maps (default: each layout "
                   "with its own map)")
    p.add_argument("--all-pairings", action="store_true",
                   help="pair every layout with every deployment map (6 boards a layout)")
    p.add_argument("--bases", metavar="BASE,...",
                   help='bases to survey, by catalogue name or as the scenario format writes '
                   'them ("32mm", "oval 60x35mm", "rect 25x50mm"), comma-separated (default: '
                   "the distinct bases of the 40kdc unit data, and common vehicle hulls)")
    p.add_argument("--reach-bases", metavar="BASE,...",
                   help="measure reach and advance odds for these bases only (added to the "
                   "bases when missing; default: every base for a survey, "
                   f"{','.join(REACH_BASES)} for --card and diff); gap-fit is measured for "
                   "every base")
    p.add_argument("--measures", metavar="NAME,...",
                   help="only these measures: gap-fit, reach, advance-odds (default: all; "
                   "reach takes the most time by far)")
    p.add_argument("--templates", metavar="FILE",
                   help="terrain-templates.json (default: the one beside LAYOUTS.json)")
    p.add_argument("--deployments-file", metavar="FILE",
                   help="deployment-patterns.json (default: the one beside LAYOUTS.json)")
    p.add_argument("--layouts-file", metavar="LAYOUTS.json",
                   help="with diff: the 40kdc file A and B are layouts of (default: the "
                   "current layouts of wh40kdc)")
    p.add_argument("-o", "--output", metavar="OUT",
                   help="the survey's folder (made if missing; the same folder resumes); "
                   "with --card, the card (.html, .pdf or .png); with diff, a picture of "
                   "the difference (.html, .svg or .png)")
    p.add_argument("--card", metavar="LAYOUT",
                   help="write the card of one layout (an id, or a scenario file) to -o")
    p.add_argument("--paper", choices=PAPERS,
                   help="the card's sheet (default: the printer's for .html, A4 for .pdf and "
                   ".png)")
    p.add_argument("--margin", type=float, default=GAP_MARGIN, metavar="IN",
                   help="a pass with less clearance than this is marginal (default "
                   f"{GAP_MARGIN:g} inches)")
    p.add_argument("--executor", choices=("local", "dask"),
                   help="local: a pool of worker processes on this machine (the default); "
                   "dask: a dask.distributed cluster (needs the cluster extra)")
    p.add_argument("--workers", type=int, metavar="N",
                   help="worker processes (default: the CPU count); with --executor dask and "
                   "no --scheduler, the size of the local Dask cluster")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="address of a running Dask scheduler (tcp://HOST:8786; implies "
                   "--executor dask)")
    p.add_argument("--report", metavar="OUT_DIR",
                   help="only write the report's pages again from the results in OUT_DIR "
                   "(with -o PAGE.html: the index there and the layouts' pages and cards "
                   "beside it, e.g. for a read-only OUT_DIR; with --card: that layout's card)")
    p.add_argument("--retry-failed", action="store_true",
                   help="run again the jobs whose result is a failure")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bar (there is none when standard error is not a terminal)")
    p.set_defaults(func=run)


def _ids(text: str | None, option: str) -> list[str] | None:
    from tabletop.errors import UserError

    if text is None:
        return None
    ids = [t.strip() for t in text.split(",") if t.strip()]
    if not ids:
        raise UserError(f"{option}: give one or more ids separated by commas")
    return ids


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def describe(plan: dict[str, Any]) -> str:
    """``"3 layouts x 1 deployment map x 20 bases: 240 jobs (gap-fit 60, reach 120, ...)"``."""
    jobs = plan["jobs"]
    measures = Counter(j["measure"] for j in jobs)
    mix = ", ".join(f"{m} {n}" for m, n in measures.items())
    return (f"{_plural(len(plan['layouts']), 'layout')} x "
            f"{_plural(len(plan['deployments']), 'deployment map')} x "
            f"{_plural(len(plan['bases']), 'base')}: {_plural(len(jobs), 'job')} ({mix})")


def run(args: argparse.Namespace) -> int:
    """Dispatch: a diff, a card, a report, or a survey."""
    from tabletop.errors import UserError

    if args.workers is not None and args.workers < 1:
        raise UserError(f"--workers {args.workers}: give a whole number of at least 1")
    if not args.margin >= 0 or args.margin > 100:
        raise UserError(f"--margin {args.margin:g}: give inches from 0 to 100")
    if args.args[:1] == ["diff"]:
        return _diff(args)
    if len(args.args) > 1:
        raise UserError(f"survey: give at most one LAYOUTS.json, not {len(args.args)} files "
                        "(to compare two layouts: tabletop survey diff A B)")
    if args.layouts_file is not None:
        raise UserError("--layouts-file: goes with 'tabletop survey diff A B'; give the "
                        "layouts file of a survey or a card as LAYOUTS.json")
    layouts = args.args[0] if args.args else None
    if args.card is not None:
        return _card(args, layouts)
    if args.report is not None:
        if layouts is not None:
            raise UserError("--report OUT_DIR: rebuilds the report of a survey already run; "
                            "give no LAYOUTS.json with it (-o PAGE.html: where to write it)")
        return _report(Path(args.report), args.margin,
                       Path(args.output) if args.output else None)
    return _survey(args, layouts)


def _bases(args: argparse.Namespace, current_data: bool = False
           ) -> tuple[Any, list[str] | None]:
    from tabletop.survey.jobs import parse_bases

    known = None
    if current_data and args.bases is not None:
        from tabletop.survey import current

        known = current.known()
    bases = parse_bases(args.bases, known=known) if args.bases is not None else None
    movers = _ids(args.reach_bases, "--reach-bases")
    return bases, movers


def _survey(args: argparse.Namespace, layouts: str | None) -> int:
    """Plan the survey, run it, write the report."""
    from tabletop.errors import UserError, printable, quote
    from tabletop.survey import run as survey_run

    if not args.output:
        raise UserError("survey: give -o OUT_DIR, the folder to write the survey in")
    if args.scheduler and args.executor == "local":
        raise UserError("--scheduler: names a Dask scheduler; use it with --executor dask")
    if args.all_pairings and args.deployment_ids is not None:
        raise UserError("--all-pairings: pairs every layout with every deployment map; give "
                        "it or --deployments, not both")
    if args.scheduler and args.workers is not None:
        raise UserError("--workers: a running Dask scheduler has its own workers; leave "
                        "--workers out with --scheduler (start more with 'dask worker')")
    executor = args.executor or ("dask" if args.scheduler else "local")
    out = Path(args.output)
    if out.exists() and not out.is_dir():
        raise UserError(f"-o {printable(str(out))}: is a file; give the folder to write the "
                        "survey in (made if missing)")
    if executor == "dask":
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise UserError(survey_run.DASK_MISSING) from None

    from tabletop.survey.jobs import MEASURES, plan, plan_dataset

    measures = _ids(args.measures, "--measures")
    unknown = [m for m in measures or [] if m not in MEASURES]
    if unknown:
        raise UserError(f"--measures: {quote(unknown[0])} is not a measure; give some of "
                        f"{', '.join(MEASURES)}")
    bases, movers = _bases(args, current_data=layouts is None)
    chosen = _ids(args.layout_ids, "--layouts")
    deployments = _ids(args.deployment_ids, "--deployments")
    if layouts is not None:
        the_plan = plan(layouts, templates_path=args.templates,
                        deployments_path=args.deployments_file, layouts=chosen,
                        deployments=deployments, bases=bases, all_pairings=args.all_pairings,
                        reach_bases=movers)
    else:
        if args.templates or args.deployments_file:
            raise UserError("--templates, --deployments-file: go with a 40kdc LAYOUTS.json; "
                            "the current layouts of wh40kdc carry their own")
        the_plan = plan_dataset(layouts=chosen, deployments=deployments, bases=bases,
                                all_pairings=args.all_pairings, reach_bases=movers)
    if measures is not None:
        the_plan["jobs"] = [j for j in the_plan["jobs"] if j["measure"] in measures]
    n = args.workers or os.cpu_count() or 1
    where = f"the Dask cluster at {args.scheduler}" if args.scheduler else \
        f"a Dask LocalCluster of {_plural(n, 'worker')}" if executor == "dask" else \
        f"{_plural(n, 'local worker')}" + ("" if args.workers else " (one per CPU)")
    emit(f"survey of {describe(the_plan)} into {out}/ on {where}")
    try:
        s = survey_run.run_survey(the_plan, out, executor=executor, workers=args.workers,
                                  scheduler=args.scheduler, progress=not args.no_progress,
                                  retry_failed=args.retry_failed)
    except KeyboardInterrupt:
        kept = len(survey_run.load_results(out))
        emit(f"interrupted: {kept} of {len(the_plan['jobs'])} jobs have their result in "
             f"{out / survey_run.RESULTS}; run the same command again to resume", err=True)
        return 130
    for note in s["notes"]:
        emit(note)
    done = f"{s['done_before']} done before" + (
        f" ({s['redone']} result files done again)" if s["redone"] else "")
    if s["ran"]:
        emit(f"{s['jobs']} jobs: {done}, {s['ran']} run ({s['failed']} failed) in "
             f"{s['seconds']:.1f} s on {s['workers']} {s['executor']} workers"
             + (f" ({s['restarts']} times a worker died and the pool was rebuilt)"
                if s["restarts"] else ""))
    else:
        emit(f"{s['jobs']} jobs: {done}, nothing to run")
    emit(f"results: {out / survey_run.RESULTS}/")
    try:
        _report(out, args.margin)
    except UserError as exc:  # a read-only folder: the survey stands, its page goes elsewhere
        emit(f"report: not written ({exc.lines[0]}); write it elsewhere with: tabletop survey "
             f"--report {printable(str(out))} -o PAGE.html", err=True)
    return _failed(s["failures"], len(the_plan["jobs"]))


SHOWN_FAILURES = 10
"""Failed jobs listed by name at the end of a run (all of them are in the report)."""


def _failed(failures: dict[str, str], jobs: int) -> int:
    """List the failed jobs of the survey on stderr; exit code 1 if there are any."""
    from tabletop.errors import ident, printable

    if not failures:
        return 0
    emit([f"{len(failures):,} of {jobs:,} jobs failed (their results say why; "
          "--retry-failed runs them again):",
          *(f"  {ident(jid)}: {printable(error)[:200]}"
            for jid, error in list(failures.items())[:SHOWN_FAILURES]),
          *([f"  ... and {len(failures) - SHOWN_FAILURES:,} more (all in the report)"]
            if len(failures) > SHOWN_FAILURES else [])], err=True)
    return 1


def _report(out: Path, margin: float, page: Path | None = None) -> int:
    from tabletop.errors import UserError, printable
    from tabletop.survey.report import build_report

    if not (out / "plan.json").is_file():
        raise UserError(f"--report {printable(str(out))}: no survey there (no plan.json); give "
                        "the OUT_DIR of a tabletop survey run")
    emit(f"report: {build_report(out, page, margin=margin)}")
    return 0


def _card(args: argparse.Namespace, layouts: str | None) -> int:
    """One layout's card: from a survey's results (with --report), or measured now."""
    from tabletop.errors import UserError, printable
    from tabletop.survey import publish
    from tabletop.survey.card import card_html
    from tabletop.survey.compare import boards_of
    from tabletop.survey.report import card_of, sorted_bases

    if not args.output:
        raise UserError("--card: give -o CARD.html, CARD.pdf or CARD.png, the card to write")
    if args.all_pairings or args.layout_ids is not None:
        raise UserError("--card: one layout on one deployment map; leave out --layouts and "
                        "--all-pairings (--deployments ID chooses another map)")
    target = Path(args.output)
    if target.suffix.lower() not in publish.CARD_FORMATS:
        raise UserError(f"-o {printable(str(target))}: a card is written as "
                        f"{', '.join(publish.CARD_FORMATS)}; give a file name ending so")
    if args.report is not None:
        from tabletop.survey.report_data import load

        survey = load(Path(args.report))
        written = publish.write_card(
            lambda paper, sheet: card_of(survey, args.card, margin=args.margin, paper=paper,
                                         sheet=sheet), target, paper=args.paper)
        emit(f"card: {written}")
        return 0
    deployments = _ids(args.deployment_ids, "--deployments")
    if deployments is not None and len(deployments) > 1:
        raise UserError("--deployments: a card shows one deployment map; give one id")
    bases, movers = _bases(args)
    the_plan = publish.boards_plan([args.card], layouts_path=layouts,
                                   deployment=deployments[0] if deployments else None,
                                   bases=bases, reach_bases=movers or list(REACH_BASES))
    emit(f"measuring {describe(the_plan)}")
    survey = publish.measure(the_plan, workers=args.workers, progress=not args.no_progress)
    bases_sorted = sorted_bases(survey)
    board = boards_of(survey, bases_sorted)[0]
    written = publish.write_card(
        lambda paper, sheet: card_html(board, bases_sorted, margin=args.margin, paper=paper,
                                       sheet=sheet), target, paper=args.paper)
    failed = len(survey.failed)
    emit(f"card: {written}" + (f" ({failed} jobs failed: the card leaves their cells empty)"
                               if failed else ""))
    return 0


def _diff(args: argparse.Namespace) -> int:
    """Two layouts or two drafts compared: exit 0 when no movement difference, else 1."""
    from tabletop.errors import UserError, printable
    from tabletop.files import atomic_write
    from tabletop.survey import browser, publish
    from tabletop.survey.compare import boards_of
    from tabletop.survey.diff import diff_boards, diff_svg
    from tabletop.survey.report import sorted_bases
    from tabletop.survey.report_html import page

    specs = args.args[1:]
    if len(specs) != 2:
        raise UserError(f"survey diff: give two layouts or two scenario files (A B), not "
                        f"{len(specs)}")
    if args.card is not None or args.report is not None or args.all_pairings:
        raise UserError("survey diff: --card, --report and --all-pairings do not go with diff")
    target = Path(args.output) if args.output else None
    if target is not None and target.suffix.lower() not in (".html", ".svg", ".png"):
        raise UserError(f"-o {printable(str(target))}: the picture of a diff is written as "
                        ".html, .svg or .png; give a file name ending so")
    deployments = _ids(args.deployment_ids, "--deployments")
    if deployments is not None and len(deployments) > 1:
        raise UserError("--deployments: a diff compares the boards on one map; give one id")
    bases, movers = _bases(args)
    the_plan = publish.boards_plan(specs, layouts_path=args.layouts_file,
                                   deployment=deployments[0] if deployments else None,
                                   bases=bases, reach_bases=movers or list(REACH_BASES))
    if len(the_plan["boards"]) != 2:
        raise UserError("survey diff: A and B are the same board; give two")
    emit(f"measuring {describe(the_plan)}", err=True)
    survey = publish.measure(the_plan, workers=args.workers, progress=not args.no_progress)
    order = list(the_plan["boards"])
    by_key = {b.key: b for b in boards_of(survey, sorted_bases(survey))}
    a, b = by_key[order[0]], by_key[order[1]]
    diff = diff_boards(a, b, margin=args.margin, names=(specs[0], specs[1]))
    emit(diff.lines())
    if survey.failed:
        emit(f"{len(survey.failed)} jobs failed; what they measure is not compared: "
             + "; ".join(f"{k}: {v}" for k, v in sorted(survey.failed.items())[:3]), err=True)
    if target is not None:
        picture = diff_svg(a, b, diff)
        suffix = target.suffix.lower()
        if suffix == ".svg":
            atomic_write(target, picture + "\n")
        else:
            text = "".join(f"<p>{line}</p>" for line in _escaped(diff.lines()))
            html = page(f"{specs[0]} -> {specs[1]}", f"{picture}{text}", "")
            if suffix == ".html":
                atomic_write(target, html)
            else:
                browser.screenshot(html, target, scale=1.5)
        emit(f"picture: {target}", err=True)
    return 0 if diff.empty else 1


def _escaped(lines: list[str]) -> list[str]:
    import html

    return [html.escape(line) for line in lines]

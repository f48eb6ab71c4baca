"""``tabletop survey``: gap-fit, reach and advance odds of every base over real layouts."""

from __future__ import annotations

import argparse
import os
from collections import Counter
from pathlib import Path
from typing import Any

from tabletop.cli._output import emit

ORDER = 45


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``survey`` sub-command."""
    p = subparsers.add_parser(
        "survey",
        help="survey 40kdc layouts: which gaps each base gets through, moves to the "
        "objectives, advance odds, side balance",
        description="Survey the 40kdc terrain layouts (terrain-layouts.json, with "
        "terrain-templates.json and deployment-patterns.json beside it) for every base of a "
        "catalogue: the passages each base gets through (gap-fit), the Movement phases each "
        "side needs to reach each objective and the area it reaches (reach), the odds of an "
        "advance reaching each point (advance-odds), and the balance of the two sides. One "
        "result file per job goes into OUT_DIR/results as it comes; running the same command "
        "again resumes, doing no finished job twice. OUT_DIR/report.html is written at the "
        "end (--report OUT_DIR writes it again). Data: Alpaca Software and the 40kdc "
        "community contributors, CC BY 4.0.",
    )
    p.add_argument("layouts", metavar="LAYOUTS.json", nargs="?",
                   help="the 40kdc terrain-layouts.json")
    p.add_argument("--layouts", dest="layout_ids", metavar="ID,...",
                   help="only these layouts (default: every layout of the file)")
    p.add_argument("--deployments", dest="deployment_ids", metavar="ID,...",
                   help="pair every layout with these deployment maps (default: each layout "
                   "with its own map)")
    p.add_argument("--all-pairings", action="store_true",
                   help="pair every layout with every deployment map (6 boards a layout)")
    p.add_argument("--bases", metavar="BASE,...",
                   help='bases to survey, by catalogue name or as the scenario format writes '
                   'them ("32mm", "oval 60x35mm", "rect 25x50mm"), comma-separated (default: '
                   "the distinct bases of the 40kdc unit data, and common vehicle hulls)")
    p.add_argument("--measures", metavar="NAME,...",
                   help="only these measures: gap-fit, reach, advance-odds (default: all; "
                   "reach takes the most time by far)")
    p.add_argument("--templates", metavar="FILE",
                   help="terrain-templates.json (default: the one beside LAYOUTS.json)")
    p.add_argument("--deployments-file", metavar="FILE",
                   help="deployment-patterns.json (default: the one beside LAYOUTS.json)")
    p.add_argument("-o", "--output", metavar="OUT_DIR",
                   help="folder of the survey (made if missing; the same folder resumes)")
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
                   help="only write OUT_DIR/report.html again from the results there (with "
                   "-o PAGE.html: write the page there instead, e.g. for a read-only OUT_DIR)")
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
    """Plan the survey, run it, write the report."""
    from tabletop.errors import UserError, printable, quote
    from tabletop.survey import run as survey_run

    if args.report is not None:
        if args.layouts is not None:
            raise UserError("--report OUT_DIR: rebuilds the report of a survey already run; "
                            "give no LAYOUTS.json with it (-o PAGE.html: where to write it)")
        return _report(Path(args.report), Path(args.output) if args.output else None)
    if args.workers is not None and args.workers < 1:
        raise UserError(f"--workers {args.workers}: give a whole number of at least 1")
    if args.layouts is None:
        raise UserError("survey: give LAYOUTS.json, the 40kdc terrain-layouts.json")
    if not args.output:
        raise UserError("survey: give -o OUT_DIR, the folder to write the survey in")
    if args.all_pairings and args.deployment_ids is not None:
        raise UserError("--all-pairings: pairs every layout with every deployment map; give "
                        "it or --deployments, not both")
    if args.scheduler and args.executor == "local":
        raise UserError("--scheduler: names a Dask scheduler; use it with --executor dask")
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

    from tabletop.survey.jobs import MEASURES, parse_bases, plan

    measures = _ids(args.measures, "--measures")
    unknown = [m for m in measures or [] if m not in MEASURES]
    if unknown:
        raise UserError(f"--measures: {quote(unknown[0])} is not a measure; give some of "
                        f"{', '.join(MEASURES)}")
    bases = parse_bases(args.bases) if args.bases is not None else None
    the_plan = plan(args.layouts, templates_path=args.templates,
                    deployments_path=args.deployments_file,
                    layouts=_ids(args.layout_ids, "--layouts"),
                    deployments=_ids(args.deployment_ids, "--deployments"), bases=bases,
                    all_pairings=args.all_pairings)
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
        _report(out)
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


def _report(out: Path, page: Path | None = None) -> int:
    from tabletop.errors import UserError, printable
    from tabletop.survey.report import build_report

    if not (out / "plan.json").is_file():
        raise UserError(f"--report {printable(str(out))}: no survey there (no plan.json); give "
                        "the OUT_DIR of a tabletop survey run")
    emit(f"report: {build_report(out, page)}")
    return 0

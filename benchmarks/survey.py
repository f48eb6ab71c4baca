"""Benchmark of the layout survey's executors (issue 16): the same real jobs on 1 and 2 local
workers and on Dask with 2 workers, and the projected time of the full survey.

Run ``python benchmarks/survey.py`` from the repository root (the 40kdc data at
``<repo>/../shared/data/40kdc``, or ``--data FOLDER``; the Dask runs need the ``cluster``
extra). The sample is a fixed set of real jobs: the ``--layouts`` (default 2) first layouts of
the file, each on its own deployment map (``deployment_pattern_id``; ``--deployment`` to pick
one for all), for the bases of ``--bases`` (default a 32 mm round base, the Rhino's hull and
a Knight's 170x109 mm oval: one of each kind), every measure. Each
configuration runs the whole sample into a fresh folder ``--repeat`` times (default 3, the
configurations taking turns so that a change of the machine's load hits them alike):

- ``local x1``: one worker process, the baseline a user gets without parallelism (the runner's
  own overhead included: spawning the worker, writing the result files);
- ``local x2``: two worker processes;
- ``dask x2``: a ``LocalCluster`` of two worker processes (one thread each), started once before
  the runs (its start-up is printed apart, as a cluster is started once for many surveys);
- ``local x2, chunk 1``: two workers, each job sent alone, to show what grouping a board's
  jobs in one chunk saves (the per-board caches are built by every worker that gets a job of
  the board).

With both engines built (the compiled core and the Python reference), ``local x1`` runs once
per engine (``--engines``, default ``native,python`` where the core is built), the engines
taking turns: it prints each job kind's CPU seconds on both and their ratio; the other
configurations and the projection use the first engine.

It prints, per configuration, the median wall time, jobs per second, the ratio to ``local x1``
and the parallel efficiency (jobs per second / (workers x jobs per second of ``local x1``)).

Then the projection of the full survey (every layout x every deployment map x the default
catalogue of bases x the measures: the plan is built, not run, so its job mix is exact): the
mean CPU seconds of one job measured inside the worker (``cpu_seconds``: unlike the wall time it
does not grow with the machine's load) in the ``local x1`` runs, by measure and by kind of base
(round, oval, or hull: a rectangle counts as a hull; a kind missing from the sample is projected
from another, and said so), failed jobs left out, times the number of jobs of that measure and
kind in the full plan, divided by the workers and by the measured parallel efficiency (this
machine: ``local x2``'s; a 64-core cluster: ``dask x2``'s, assumed to hold at 64), and at 100 %
(the CPU-bound floor). What it ignores: the layouts and bases outside the sample may cost more
or less than the sampled ones; on a cluster, scheduler and network overheads and the per-board
cache builds grow with the number of workers, and the last jobs leave cores idle (tail); other
users of the machine. 40kdc data: Alpaca Software and the 40kdc community contributors, CC BY 4.0.

    .venv/bin/python benchmarks/survey.py [--data ../shared/data/40kdc] [--layouts 2]
        [--bases 32mm,...] [--repeat 3] [--no-dask] [--engines native,python]
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tabletop.geometry import engine
from tabletop.geometry.footprints import Oval, Round, parse_base
from tabletop.importers import kdc
from tabletop.survey.jobs import parse_bases, plan
from tabletop.survey.run import load_results, run_survey

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "40kdc"
FULL_CORES = 64


def base_kind(entry: dict[str, Any]) -> str:
    """``"round"``, ``"oval"`` or ``"hull"`` (a hull or a rectangle): the three cost apart
    (a base that turns has facing layers, an oval twice as many as its outline needs)."""
    spec = entry.get("spec")
    if isinstance(spec, str):
        try:
            fp = parse_base(spec)
        except Exception:
            return "hull"
        return "round" if isinstance(fp, Round) else "oval" if isinstance(fp, Oval) else "hull"
    return "hull"


def timed_run(the_plan: dict[str, Any], **kw: Any) -> tuple[float, dict[str, Any], Path]:
    out = Path(tempfile.mkdtemp(prefix="survey-bench-")) / "out"
    start = time.perf_counter()
    summary = run_survey(the_plan, out, progress=False, **kw)
    wall = time.perf_counter() - start
    assert summary["ran"] == len(the_plan["jobs"]), summary
    return wall, summary, out


def values(out: Path) -> dict[str, Any]:
    return {jid: (r["ok"], r["value"]) for jid, r in load_results(out).items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--layouts", type=int, default=2, help="layouts in the sample")
    ap.add_argument("--deployment", help="deployment map of the sample (default: each "
                    "layout's own)")
    ap.add_argument("--bases", default="32mm,Rhino hull,oval 170x109mm",
                    help="bases of the sample (default: %(default)s)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-dask", action="store_true")
    ap.add_argument("--source", choices=("current", "files"), default="current",
                    help="layouts: the wh40kdc package's current ones (default; the full survey "
                    "of their catalogue of bases) or the older 40kdc files of --data")
    ap.add_argument("--engines", help="zone engines of the local x1 runs, the first for the "
                    "rest (default: native,python where the core is built, else python)")
    args = ap.parse_args()
    engines = [e.strip() for e in args.engines.split(",")] if args.engines else \
        (["native", "python"] if engine.core() is not None else ["python"])
    first = engines[0]
    bases = parse_bases(args.bases)
    deployments = [args.deployment] if args.deployment else None
    if args.source == "current":
        from tabletop.importers import battlefields
        from tabletop.survey import current
        from tabletop.survey.jobs import plan_dataset

        layout_ids = battlefields.layout_ids()[: args.layouts]
        sample = plan_dataset(layouts=layout_ids, bases=bases, deployments=deployments)
        # the full plan's jobs counted, not built (building its 276 boards takes minutes):
        # per board and base one gap-fit, and per side a reach and an advance-odds job
        full_bases = current.catalogue()
        n_layouts, n_maps = len(battlefields.layout_ids()), len(battlefields.deployment_ids())
        full_jobs: list[dict[str, Any]] = [{"measure": m, "base": b} for b in full_bases
                     for m in ("gap-fit", "reach", "reach", "advance-odds", "advance-odds")
                     for _ in range(n_layouts * n_maps)]
    else:
        layouts_path = args.data / "terrain-layouts.json"
        if not layouts_path.exists():
            sys.exit(f"no 40kdc data at {args.data}; give --data FOLDER")
        full_plan = plan(layouts_path, all_pairings=True)
        own = {lay["id"]: lay.get("deployment_pattern_id")
               for lay in kdc.read_layouts(layouts_path)}
        layout_ids = list(own)[: args.layouts]
        sample = plan(layouts_path, layouts=layout_ids, bases=bases,  # each on its own map
                      deployments=deployments)
        full_bases = full_plan["bases"]
        n_layouts, n_maps = len(full_plan["layouts"]), len(full_plan["deployments"])
        full_jobs = full_plan["jobs"]
    n = len(sample["jobs"])
    mix = Counter(j["measure"] for j in sample["jobs"])
    print(f"sample: {len(layout_ids)} layouts ({', '.join(layout_ids)}), bases "
          f"{', '.join(b['name'] for b in bases)}: {n} jobs ({dict(mix)})")
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at the start")

    configs: list[tuple[str, int, dict[str, Any]]] = [
        ("local x1", 1, {"executor": "local", "workers": 1}),
        *[(f"local x1 [{e}]", 1, {"executor": "local", "workers": 1}) for e in engines[1:]],
        ("local x2", 2, {"executor": "local", "workers": 2}),
        ("local x2, chunk 1", 2, {"executor": "local", "workers": 2, "chunk": 1}),
    ]
    cluster = None
    if not args.no_dask:
        from distributed import LocalCluster

        t0 = time.perf_counter()
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=":0", silence_logs=logging.ERROR)
        print(f"dask LocalCluster of 2 workers started in {time.perf_counter() - t0:.1f} s")
        configs.append(("dask x2", 2, {"executor": "dask",
                                       "scheduler": cluster.scheduler_address}))
    walls: dict[str, list[float]] = defaultdict(list)
    job_seconds: dict[tuple[str, str], list[float]] = defaultdict(list)
    by_engine: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    failed: Counter[tuple[str, str]] = Counter()
    # each engine's results against its own first run (the engines' regions are the same
    # point sets, not the same vertex lists: tests/zones/test_engines.py compares them)
    reference: dict[str, dict[str, Any]] = {}
    kinds = {b["name"]: base_kind(b) for b in sample["bases"]}
    try:
        for r in range(args.repeat):
            for name, _, kw in configs:
                # the workers inherit the engine chosen in the environment
                eng = name.split("[")[1].rstrip("]") if "[" in name else first
                os.environ[engine.ENV] = eng
                wall, _summary, out = timed_run(sample, **kw)
                walls[name].append(wall)
                got = values(out)
                if eng not in reference:
                    reference[eng] = got
                elif got != reference[eng]:
                    print(f"!! {name} run {r + 1}: results differ from the first run")
                if name.startswith("local x1"):
                    for res in load_results(out).values():
                        key = (res["job"]["measure"], kinds.get(res["job"]["base"]["name"],
                                                                "round"))
                        if res["ok"]:  # a failure's cost is not that of an answer
                            by_engine[(eng, *key)].append(res["cpu_seconds"])
                            if name == "local x1":
                                job_seconds[key].append(res["cpu_seconds"])
                        elif name == "local x1":
                            failed[key] += 1
                print(f"  run {r + 1} {name}: {wall:.1f} s", flush=True)
    finally:
        if cluster is not None:
            cluster.close()
    print(f"load average {os.getloadavg()[0]:.2f} at the end\n")

    base = statistics.median(walls["local x1"])
    print(f"{'configuration':<20} {'median s':>9} {'jobs/s':>7} {'vs x1':>6} {'efficiency':>10}")
    eff: dict[str, float] = {}
    for name, w, _ in configs:
        if "[" in name:
            continue
        med = statistics.median(walls[name])
        eff[name] = base / (med * w)
        print(f"{name:<20} {med:>9.1f} {n / med:>7.2f} {base / med:>6.2f} {eff[name]:>10.0%}")

    print(f"\nCPU seconds of one job in its worker (local x1 runs, engine {first}): median, "
          "mean, max, jobs, failed")
    for (measure, kind), secs in sorted(job_seconds.items()):
        print(f"  {measure:<13} {kind:<8} {statistics.median(secs):7.3f} "
              f"{statistics.fmean(secs):7.3f} {max(secs):7.3f} {len(secs):5d} "
              f"{failed[(measure, kind)]:5d}")
    if len(engines) > 1:
        print(f"\nThe engines alternately (local x1): median CPU seconds of a job, "
              f"{' / '.join(engines)}, and {engines[0]} / {engines[1]}")
        for (measure, kind) in sorted(job_seconds):
            meds = [statistics.median(by_engine[(e, measure, kind)]) if
                    by_engine.get((e, measure, kind)) else float("nan") for e in engines]
            ratio = meds[0] / meds[1] if meds[1] > 0 else float("nan")
            print(f"  {measure:<13} {kind:<8} " + " / ".join(f"{m:.3f}" for m in meds) +
                  f"   {ratio:.2f}")

    full_mix = Counter((j["measure"], base_kind(j["base"])) for j in full_jobs)
    cpu = 0.0
    for (measure, kind), count in full_mix.items():
        # a kind the sample lacks: another base that turns, else the round one
        secs = job_seconds.get((measure, kind)) or \
            (kind != "round" and (job_seconds.get((measure, "hull")) or
                                  job_seconds.get((measure, "oval")))) or \
            job_seconds.get((measure, "round")) or [0.0]
        if (measure, kind) not in job_seconds:
            print(f"  (no {kind} base in the sample: its {measure} jobs are projected from "
                  "another kind's)")
        cpu += count * statistics.fmean(secs)
    print(f"\nfull survey ({args.source} layouts): {len(full_jobs)} jobs ({n_layouts} layouts x "
          f"{n_maps} deployment maps x {len(full_bases)} bases), "
          f"{dict(Counter(j['measure'] for j in full_jobs))}; bases by kind "
          f"{dict(Counter(base_kind(b) for b in full_bases))}")
    print(f"  CPU: {cpu / 3600:.1f} h of one worker (the mean CPU seconds of a sampled job by "
          "measure and base kind x the full plan's count of each)")
    here = cpu / (2 * eff["local x2"])
    print(f"  this machine, 2 local workers at the measured efficiency {eff['local x2']:.0%}: "
          f"{here / 3600:.1f} h (at 100 %: {cpu / 2 / 3600:.1f} h)")
    cl_eff = eff.get("dask x2", eff["local x2"])
    far = cpu / (FULL_CORES * cl_eff)
    print(f"  a {FULL_CORES}-core Dask cluster at the measured dask x2 efficiency {cl_eff:.0%}: "
          f"{far / 60:.0f} min (at 100 %, CPU-bound: {cpu / FULL_CORES / 60:.0f} min)")
    print(json.dumps({"engine": first,
                      "jobs_per_s": {k: n / statistics.median(v) for k, v in walls.items()},
                      "efficiency": eff, "cpu_hours": cpu / 3600}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

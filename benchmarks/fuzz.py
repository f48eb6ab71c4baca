"""Fuzz the program with hostile inputs and count what happens.

    python benchmarks/fuzz.py [-n 100000] [--family scenario,actions,...] [--seed S]

Runs the generators of ``tests/support/hostile.py`` and ``tests/support/hostile_data.py`` (the
ones the fuzz tests run a few dozen to a few hundred times in CI): mutated scenario files
(models given ovals, rects and hulls among the mutations), action files (paths with facings),
zone queries, zone queries of models that turn as they move, ``tabletop fit`` command lines and
other command lines; hostile 40kdc files for the importer (templates, layouts, deployment maps,
the units CSV: ``import-layout`` and ``new``), survey folders changed after a finished run (edited,
cut, corrupt and unsealed results, FIFOs, corrupt or foreign plans, a held lock: the survey run
again and reported) and what may answer at a ``--scheduler`` address (fake servers on
127.0.0.1: silence, HTTP, random bytes, greeting-like frames); N inputs in all, shared between
the families. Prints, per family and in all, how many inputs were accepted,
refused with a message (``UserError``), crashed (any other exception, or an accepted file that
does not save and load back identically) and were slow (over 2 s of CPU time, which other work on
a shared machine does not inflate; each input is stopped at 30 s of wall time and counted as
slow), how many took over 2 s of wall time, the CPU time per input (median, p99, max) and the
first few crashing and slow inputs. The garbage collector runs between inputs, not within their
timing (hypothesis keeps every input's choices: a full collection over them is not the
program's time). Memory is capped (``--memory-gb``, default 4) so a memory
bomb is a crash, not a dead machine; the peak resident memory of each family's process is
printed. The goal: no crash, no slow input, peak memory under 1 GB.
"""

from __future__ import annotations

import argparse
import collections
import gc
import multiprocessing
import os
import resource
import signal
import statistics
import sys
import time
import traceback
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from hypothesis import HealthCheck, Phase, given, seed, settings

from tabletop.zones import clear_caches

from support import hostile, hostile_data

FAMILIES = {
    "scenario": (hostile.scenario_files(),  # and the zone engine on each board accepted
                 lambda data, suffix: hostile.run_scenario_file(data, suffix, zone=True)),
    "actions": (hostile.action_files(), hostile.run_action_file),
    "zones": (hostile.zone_queries(), hostile.run_zone_query),
    "turning": (hostile.turning_queries(), hostile.run_turning_query),
    "fit": (hostile.fit_lines(), hostile.run_command),
    "commands": (hostile.command_lines(), hostile.run_command),
    **{f"kdc-{key}": (hostile_data.kdc_files(key), (lambda k: lambda data: hostile_data.run_kdc(
        k, data))(key)) for key in hostile_data.KDC_FILES},
    "survey": (hostile_data.survey_folders(), hostile_data.run_survey_folder),
    "scheduler": (hostile_data.scheduler_answers(), hostile_data.run_scheduler),
}
SINGLE = {"commands", "fit", "survey", "kdc-templates", "kdc-layouts", "kdc-deployments",
          "kdc-units"}
"""Families whose input is one value (the others' are argument tuples)."""
SLOW = 2.0
"""Seconds after which an input counts as slow."""
STOP = 30.0
"""Seconds after which an input is stopped (and counted as slow)."""


class _TooLong(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _TooLong


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 300 else text[:300] + f"... ({len(text):,} characters)"


def _keep(folder: Path | None, name: str, kind: str, k: int, value: Any) -> None:
    """Write an input that crashed or was slow as a Python literal, to replay it."""
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{name}-{kind}-{k}.py").write_text(repr(value) + "\n", encoding="utf-8")


def run_family(name: str, n: int, seed_value: int, keep: Path | None = None,
               slow_s: float = SLOW) -> dict[str, Any]:
    strategy, run = FAMILIES[name]
    counts: collections.Counter[str] = collections.Counter()
    times: list[float] = []
    crashes: list[str] = []
    slow: list[str] = []

    @seed(seed_value)
    @settings(max_examples=n, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def fuzz(value: Any) -> None:
        args = (value,) if name in SINGLE else value
        if len(times) % 200 == 0:
            gc.collect()  # outside the timing: a full collection over the harness's own data
        gc.disable()  # (hypothesis keeps every input's choices) is not the program's time
        signal.setitimer(signal.ITIMER_REAL, STOP)
        start, cpu = time.perf_counter(), time.process_time()
        try:
            outcome = run(*args)
        except _TooLong:
            outcome = "stopped"
        except Exception as exc:  # a crash: counted, not raised (no shrinking in a census)
            outcome = "crashed"
            _keep(keep, name, "crash", counts["crashed"], value)
            if len(crashes) < 5:
                crashes.append(f"{_short(value)}\n    {type(exc).__name__}: {_short(str(exc))}\n"
                               + "".join(traceback.format_tb(exc.__traceback__)[-3:]))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            gc.enable()
        took, wall = time.process_time() - cpu, time.perf_counter() - start
        times.append(took)
        counts[outcome] += 1
        counts["wall"] += wall > slow_s
        if took > slow_s or outcome == "stopped":
            counts["slow"] += 1
            _keep(keep, name, "slow", counts["slow"], value)
            if len(slow) < 5:
                slow.append(f"{took:.1f} s CPU, {wall:.1f} s wall: {_short(value)}")
        if len(times) % 5000 == 0:
            clear_caches()  # a long run must not grow the zone caches without end
            print(f"  {name}: {len(times):,} inputs, {dict(counts)}", file=sys.stderr, flush=True)

    fuzz()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return {"counts": counts, "times": times, "crashes": crashes, "slow": slow, "peak_mb": peak}


def _family_task(task: tuple[str, int, int, Path | None, float]) -> tuple[str, dict[str, Any]]:
    return task[0], run_family(*task)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100_000, help="inputs in all (default 100,000)")
    parser.add_argument("--family", default=",".join(FAMILIES),
                        help="comma-separated families (default: all)")
    parser.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    parser.add_argument("--memory-gb", type=float, default=4.0, help="address space cap")
    parser.add_argument("--slow", type=float, default=SLOW, metavar="SECONDS",
                        help=f"CPU time over which an input counts as slow (default {SLOW:g})")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="run the families in N processes at once (CPU times are each "
                        "process's own)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="write each crashing or slow input to DIR as a Python literal")
    args = parser.parse_args()
    families = [f.strip() for f in args.family.split(",") if f.strip()]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown family {unknown[0]!r}; one of {', '.join(FAMILIES)}")
    cap = int(args.memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    signal.signal(signal.SIGALRM, _alarm)
    share = [args.n // len(families) + (i < args.n % len(families)) for i in range(len(families))]
    total: collections.Counter[str] = collections.Counter()
    all_times: list[float] = []
    print(f"fuzz: {args.n:,} inputs, seed {args.seed}, memory capped at {args.memory_gb:g} GB, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
    print(f"{'family':<16} {'inputs':>8} {'accepted':>9} {'refused':>9} {'crashed':>8} "
          f"{'slow':>5} {f'wall>{args.slow:g}s':>8} {'median':>9} {'p99':>9} {'max':>8} "
          f"{'peak MB':>8}  (CPU time; peak resident memory of the family's process)")
    reports = []
    peaks: list[float] = []
    started = time.perf_counter()
    tasks = [(name, n, args.seed, args.keep, args.slow)
             for name, n in zip(families, share, strict=True) if n]
    with multiprocessing.get_context("fork").Pool(max(1, args.jobs)) as pool:
        for name, r in pool.imap(_family_task, tasks) if args.jobs > 1 else map(
                _family_task, tasks):
            c, t = r["counts"], sorted(r["times"])
            total.update(c)
            all_times += t
            reports.append((name, r))
            print(f"{name:<16} {len(t):>8,} {c['accepted']:>9,} {c['refused']:>9,} "
                  f"{c['crashed']:>8,} {c['slow']:>5,} {c['wall']:>8,} "
                  f"{statistics.median(t) * 1e3:>7.1f}ms "
                  f"{t[int(0.99 * (len(t) - 1))] * 1e3:>7.1f}ms {t[-1]:>7.2f}s "
                  f"{r['peak_mb']:>8,.0f}", flush=True)
            peaks.append(r["peak_mb"])
    t = sorted(all_times)
    print(f"{'all':<16} {len(t):>8,} {total['accepted']:>9,} {total['refused']:>9,} "
          f"{total['crashed']:>8,} {total['slow']:>5,} {total['wall']:>8,} "
          f"{statistics.median(t) * 1e3:>7.1f}ms "
          f"{t[int(0.99 * (len(t) - 1))] * 1e3:>7.1f}ms {t[-1]:>7.2f}s "
          f"{max(peaks, default=0):>8,.0f}")
    print(f"wall time {time.perf_counter() - started:,.0f} s, load average now "
          f"{os.getloadavg()[0]:.1f}")
    for name, r in reports:
        for line in r["crashes"]:
            print(f"\ncrash ({name}): {line}")
        for line in r["slow"]:
            print(f"\nslow ({name}): {line}")
    return 1 if total["crashed"] or total["slow"] else 0


if __name__ == "__main__":
    sys.exit(main())

"""Run a survey plan's jobs in parallel, streaming one result file per job into a folder.

:func:`run_survey` takes a plan (:func:`tabletop.survey.jobs.plan`) and a folder, OUT_DIR,
kept as :mod:`tabletop.survey.store` says: ``OUT_DIR/plan.json`` (the plan without the scenario
texts), ``OUT_DIR/results/<id>.json`` (one job's result, written atomically as soon as it
reaches this process and sealed with a checksum of its content and its job; with
``cpu_seconds``, the CPU time of the worker process for the job, which unlike ``seconds`` does
not grow when other programs load the machine), and a lock that keeps a second run of the
folder out while one writes to it.

Jobs go to the workers in *chunks*: a few jobs of one board (layout x deployment map) run one
after the other in one worker, so that a worker builds a board's caches once for the chunk
(and keeps them for its next chunk of that board). Chunks are small enough that results stream
and the workers stay busy to the end: at most :data:`CHUNK_MAX` jobs, and at most a quarter of
each worker's share.

Resuming: a rerun into the same OUT_DIR skips every job whose result file is there, is the
result of this very job (same id, job and scenario text) and whose seal holds; any other result
file (not valid JSON, edited, cut short, of another plan) is done again, and the summary's
``notes`` say so in one line. A failed job (``ok`` false) is a result like any other and is not
retried (``retry_failed=True`` does them again); the summary's ``failures`` lists every failed
job of the plan. OUT_DIR may hold the survey of the same plan or of a plan this one *extends*
(every job of the old plan, unchanged, plus new ones: a layout, a deployment map or a base
added); any other plan there is refused, so that results of two plans never mix. A folder
holding other files, and no plan, is refused too.

Lost workers: with the ``local`` executor, a worker process that dies (SIGKILL, out of memory,
a crash in a C library) breaks the ``ProcessPoolExecutor``; the pool is built again and every
unfinished chunk is sent again. Each worker marks the chunk it is running with a file in a
private folder (removed when the chunk ends, or when the pool stops the worker with SIGTERM),
so the chunks whose worker died are known: their jobs are sent again one by one, and a job
whose worker died :data:`MAX_DEATHS` times is recorded as failed instead of killing the run
forever. With ``dask`` the scheduler moves the tasks of a lost worker to others by itself, up to
``distributed.scheduler.allowed-failures`` times (3 by default) per task; a chunk it gives up
on (``KilledWorker``) is sent again one job at a time, and a single job it gives up on is
recorded as failed.

Ctrl+C (``KeyboardInterrupt``) stops the workers at once and propagates; every result written
so far is kept whole, and a rerun carries on from there. A runner killed outright leaves no
worker (each watches its parent) and no folder of chunk markers (its workers remove it, and the
next local run removes any whose process is gone). A Dask scheduler that goes away mid-run, or
an address where no Dask scheduler answers (:mod:`tabletop.survey.scheduler`), is one
:class:`~tabletop.errors.UserError` line; the results written are kept.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import gc
import json
import logging
import math
import multiprocessing
import os
import re
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.errors import UserError, printable, quote
from tabletop.files import atomic_write, process_alive
from tabletop.geometry import engine
from tabletop.survey import store
from tabletop.survey.jobs import run_job
from tabletop.survey.scheduler import DASK_MISSING, connect
from tabletop.survey.store import PLAN_FILE, RESULTS, load_results

__all__ = ["CHUNK_MAX", "CONNECT_TIMEOUT", "MAX_DEATHS", "PLAN_FILE", "RESULTS", "chunks",
           "load_results", "remove_stale_markers", "run_chunk", "run_survey", "running_marker"]

JobFn = Callable[[dict[str, Any]], dict[str, Any]]

EXECUTORS = ("local", "dask")

CHUNK_MAX = 8
"""Most jobs of one board sent to a worker together."""

MAX_DEATHS = 3
"""A job whose worker process died this many times while running it is recorded as failed."""

CONNECT_TIMEOUT = 10.0
"""Seconds to wait for a Dask scheduler to answer, and for it to have a worker."""



# -- the plan and the results on disk --------------------------------------------------------


_SAFE_ID = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")


def _check_plan(plan: dict[str, Any]) -> None:
    """A plan's jobs have unique, filename-safe ids (the contract)."""
    seen: set[str] = set()
    for job in plan.get("jobs", []):
        jid = job.get("id") if isinstance(job, dict) else None
        if not isinstance(jid, str) or not _SAFE_ID.fullmatch(jid):
            raise ValueError(f"survey plan: job id {jid!r} is not a file name of "
                             "[A-Za-z0-9._-] (not starting with a dot)")
        if jid in seen:
            raise ValueError(f"survey plan: job id {jid!r} appears twice")
        seen.add(jid)


def _failure(job: dict[str, Any], error: str, seconds: float = 0.0) -> dict[str, Any]:
    return {"id": job["id"], "job": store.bare(job), "ok": False, "error": error,
            "seconds": seconds, "value": None}


# -- what a worker runs ----------------------------------------------------------------------

_RUNNING: Path | None = None
"""In a local worker: the marker file of the chunk it is running."""


def running_marker() -> Path | None:
    """In a local worker: the marker file of the chunk it is running (``None`` between
    chunks and outside a worker)."""
    return _RUNNING


def _worker_init(markers: str | None = None) -> None:
    """A local worker leaves Ctrl+C to the runner, removes its marker when stopped, and ends
    when the runner is gone (killed: nothing else would stop it), removing the runner's marker
    folder then."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _on_sigterm)
    threading.Thread(target=_orphan_watch, args=(os.getppid(), markers), daemon=True).start()
    # the modules imported by now (about 150,000 objects the collector tracks) live as long as
    # the worker: a full collection walked them all, 0.1 s, about once per reach job
    gc.freeze()
    # the workers fill the processors: no threads of the zone engine's besides (unless asked)
    os.environ.setdefault(engine.THREADS_ENV, "1")


def _orphan_watch(parent: int, markers: str | None = None) -> None:  # pragma: no cover
    while os.getppid() == parent:
        time.sleep(0.5)
    if markers is not None:  # the runner was killed: nobody else removes its folder
        shutil.rmtree(markers, ignore_errors=True)
    os._exit(1)


def _on_sigterm(signum: int, frame: object) -> None:  # pragma: no cover - in a worker
    if _RUNNING is not None:
        with contextlib.suppress(OSError):
            _RUNNING.unlink()
    os._exit(128 + signum)


def run_chunk(job_fn: JobFn, jobs: list[dict[str, Any]],
               marker: str | None = None) -> list[dict[str, Any]]:
    """Run ``jobs`` one after the other; a job function that raises gives a failed result.

    What every executor runs for one chunk (in a worker process, or inline in a test's pool);
    ``marker``, when given, is the running-marker file written for the chunk's lifetime.
    """
    global _RUNNING
    if marker is not None:
        _RUNNING = Path(marker)
        _RUNNING.write_text(str(os.getpid()), encoding="ascii")
    try:
        out = []
        for job in jobs:
            start, cpu = time.perf_counter(), time.process_time()
            try:
                result = job_fn(job)
            except Exception as exc:
                result = _failure(job, f"{type(exc).__name__}: {exc}",
                                  time.perf_counter() - start)
            if isinstance(result, dict):
                result["cpu_seconds"] = round(time.process_time() - cpu, 4)
            out.append(result)
        return out
    finally:
        if marker is not None:
            _RUNNING = None
            with contextlib.suppress(OSError):
                os.unlink(marker)


# -- executors -------------------------------------------------------------------------------


@dataclass
class _Chunk:
    key: str
    jobs: list[dict[str, Any]]


MARKERS_PREFIX = "tabletop-survey-"
"""The marker folders of local runs, in the temporary folder: ``tabletop-survey-PID-XXXX``."""


def remove_stale_markers() -> None:
    """Remove the marker folders of local runs whose process is gone (a runner killed with
    SIGKILL, its workers too, leaves its folder: the next run removes it)."""
    root = Path(tempfile.gettempdir())
    with contextlib.suppress(OSError):
        for entry in os.scandir(root):
            name = entry.name
            if not name.startswith(MARKERS_PREFIX):
                continue
            pid = name[len(MARKERS_PREFIX):].split("-", 1)[0]
            try:
                if not entry.is_dir(follow_symlinks=False) \
                        or entry.stat(follow_symlinks=False).st_uid != os.getuid():
                    continue
            except OSError:
                continue
            if pid.isdigit() and not process_alive(int(pid)):
                shutil.rmtree(entry.path, ignore_errors=True)


class _Local:
    """A ``ProcessPoolExecutor`` of spawned worker processes, built again when one dies."""

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        remove_stale_markers()
        self.markers = Path(tempfile.mkdtemp(prefix=f"{MARKERS_PREFIX}{os.getpid()}-"))
        self.pool = self._pool()

    def _pool(self) -> cf.ProcessPoolExecutor:
        return cf.ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                      initializer=_worker_init, initargs=(str(self.markers),))

    def submit(self, job_fn: JobFn, chunk: _Chunk) -> cf.Future[list[dict[str, Any]]]:
        return self.pool.submit(run_chunk, job_fn, chunk.jobs, str(self.markers / chunk.key))

    @staticmethod
    def lost_pool(exc: BaseException) -> bool:
        return isinstance(exc, BrokenProcessPool)

    @staticmethod
    def gave_up(exc: BaseException) -> bool:
        return False

    def recover(self) -> set[str]:
        """A new pool; the keys of the chunks that were running in a worker that died."""
        self.pool.shutdown(wait=True, cancel_futures=True)  # the others are stopped (SIGTERM)
        dead = {p.name for p in self.markers.iterdir()}
        for name in dead:
            with contextlib.suppress(OSError):
                (self.markers / name).unlink()
        self.pool = self._pool()
        return dead

    def close(self, *, now: bool = False) -> None:
        if now:  # Ctrl+C: stop the workers at once
            for proc in list((getattr(self.pool, "_processes", None) or {}).values()):
                with contextlib.suppress(Exception):
                    proc.kill()
        self.pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self.markers, ignore_errors=True)


class _Dask:
    """dask.distributed through ``Client.get_executor()``: a running scheduler or a
    ``LocalCluster`` of ``workers`` processes with one thread each."""

    name = "dask"

    def __init__(self, workers: int | None, scheduler: str | None) -> None:
        try:
            from distributed import Client, LocalCluster
            from distributed.scheduler import KilledWorker
        except ImportError:
            raise UserError(DASK_MISSING) from None
        self.killed = KilledWorker
        self.cluster: Any = None
        if scheduler:
            self.client = connect(scheduler, CONNECT_TIMEOUT)
        else:
            self.cluster = LocalCluster(n_workers=workers or os.cpu_count() or 1,
                                        threads_per_worker=1, processes=True,
                                        dashboard_address=":0", silence_logs=logging.ERROR)
            self.client = Client(self.cluster, set_as_default=False)
        self.workers = sum(w.get("nthreads", 1) for w in
                           self.client.scheduler_info()["workers"].values()) or 1
        self.executor = self.client.get_executor(pure=False)

    def submit(self, job_fn: JobFn, chunk: _Chunk) -> cf.Future[list[dict[str, Any]]]:
        return self.executor.submit(run_chunk, job_fn, chunk.jobs)

    @staticmethod
    def lost_pool(exc: BaseException) -> bool:
        return False

    def gave_up(self, exc: BaseException) -> bool:
        return isinstance(exc, self.killed)

    def recover(self) -> set[str]:  # pragma: no cover - the scheduler recovers by itself
        return set()

    def close(self, *, now: bool = False) -> None:
        with contextlib.suppress(Exception):
            self.executor.shutdown(wait=not now)
        with contextlib.suppress(Exception):
            self.client.close()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()


# -- the run ---------------------------------------------------------------------------------


@dataclass
class _Run:
    results: Path
    bar: Any
    written: int = 0
    failed: int = 0
    failures: dict[str, str] = field(default_factory=dict)
    """Job id -> error of every failed result written."""
    deaths: Counter[str] = field(default_factory=Counter)
    restarts: int = 0
    serial: int = 0

    def chunk(self, jobs: list[dict[str, Any]]) -> _Chunk:
        self.serial += 1
        return _Chunk(f"c{self.serial}", jobs)

    def write(self, job: dict[str, Any], result: Any) -> None:
        """Write ``result`` of ``job`` to its file, sealed (:func:`store.seal`; a result that
        is not a result of this job, or not JSON, is written as a failure saying so)."""
        if not isinstance(result, dict) or result.get("id") != job["id"]:
            result = _failure(job, f"the job function returned {type(result).__name__}, not "
                              "this job's result")
        result = dict(result)
        result.setdefault("job", store.bare(job))
        result["scenario_sha256"] = store.sha(str(job.get("scenario", "")))
        try:
            result = store.seal(result)
            text = json.dumps(result, allow_nan=False)
        except (TypeError, ValueError, RecursionError) as exc:
            result = store.seal({**_failure(job, f"the result is not JSON: {exc}"),
                                 "scenario_sha256": result["scenario_sha256"]})
            text = json.dumps(result)
        atomic_write(self.results / f"{job['id']}.json", text + "\n")
        self.written += 1
        if not result.get("ok"):
            self.failed += 1
            self.failures[job["id"]] = str(result.get("error") or "failed without a message")
        else:
            self.failures.pop(job["id"], None)
        self.bar.update(1)
        if self.failed:
            self.bar.set_postfix(failed=self.failed, refresh=False)


def chunks(jobs: list[dict[str, Any]], workers: int, size: int | None) -> Iterator[
        list[dict[str, Any]]]:
    """``jobs`` in chunks of one board each, near-equal, at most ``size`` jobs (default: at
    most :data:`CHUNK_MAX` and a quarter of each worker's share)."""
    if size is None:
        size = max(1, min(CHUNK_MAX, math.ceil(len(jobs) / (4 * workers))))
    boards: dict[str, list[dict[str, Any]]] = {}
    for job in jobs:
        boards.setdefault(str(job.get("board", "")), []).append(job)
    for board_jobs in boards.values():
        n = math.ceil(len(board_jobs) / size)
        for i in range(n):
            yield board_jobs[i * len(board_jobs) // n:(i + 1) * len(board_jobs) // n]


def _progress_bar(total: int, initial: int, enabled: bool) -> Any:
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="job", file=sys.stderr, dynamic_ncols=True,
                desc="survey", disable=not (enabled and sys.stderr.isatty()))


def run_survey(plan: dict[str, Any], out_dir: str | os.PathLike[str], *,
               executor: str = "local", workers: int | None = None,
               scheduler: str | None = None, progress: bool = True,
               job_fn: JobFn = run_job, chunk: int | None = None,
               retry_failed: bool = False) -> dict[str, Any]:
    """Run the jobs of ``plan`` that have no result in ``out_dir`` yet; a summary.

    ``executor``: ``"local"`` (a process pool of ``workers`` processes, default the CPU count)
    or ``"dask"`` (``scheduler``: the address of a running Dask scheduler; without it a
    ``LocalCluster`` of ``workers`` processes). ``job_fn`` (default
    :func:`tabletop.survey.jobs.run_job`) must be importable by the workers (a function of a
    module, pickled by reference). ``chunk``: most
    jobs of a board sent together (default: see :func:`chunks`). The folder is checked, locked
    and written as :mod:`tabletop.survey.store` says: nothing is written when nothing is to be
    done and the plan there is this one (a read-only folder is fine then).

    The summary: ``jobs``, ``done_before`` (skipped), ``redone`` (result files done again:
    corrupt, edited, of another plan), ``ran``, ``failed`` (of those run), ``failures`` (job
    id -> error of every job of the plan whose result is a failure, run now or before),
    ``notes`` (one-line notes: a corrupt plan.json written again, the results done again),
    ``restarts`` (local pools built again after a worker died), ``seconds``, ``executor``,
    ``workers``, ``out_dir``.
    """
    if executor not in EXECUTORS:
        raise UserError(f"--executor {quote(executor)}: give one of {', '.join(EXECUTORS)}")
    if workers is not None and workers < 1:
        raise UserError(f"--workers {workers}: give at least 1")
    if chunk is not None and chunk < 1:
        raise ValueError(f"chunk {chunk}: give at least 1")
    _check_plan(plan)
    folder = store.Folder.open(out_dir, plan)
    writable = folder.lock()  # False: read-only storage
    try:
        return _run_in(folder, plan, writable, executor=executor, workers=workers,
                       scheduler=scheduler, progress=progress, job_fn=job_fn, chunk=chunk,
                       retry_failed=retry_failed)
    finally:
        folder.unlock()


def _run_in(folder: store.Folder, plan: dict[str, Any], writable: bool, *, executor: str,
            workers: int | None, scheduler: str | None, progress: bool, job_fn: JobFn,
            chunk: int | None, retry_failed: bool) -> dict[str, Any]:
    """:func:`run_survey` once the folder is open (and locked when ``writable``)."""
    jobs = plan["jobs"]
    state = {job["id"]: folder.status(job) for job in jobs}
    todo = [job for job in jobs if state[job["id"]] == "missing"
            or (retry_failed and state[job["id"]] == "failed")]
    out = folder.out
    if (todo or folder.plan_state != "same") and not writable:
        why = "is read-only" if out.is_dir() else "cannot be made"
        raise UserError(f"{printable(str(out))}: the folder {why}; "
                        + (f"{len(todo):,} jobs have no result there yet" if todo else
                           f"its {PLAN_FILE} must be written") + "; give another -o folder")
    results = folder.write_plan() if writable else out / RESULTS
    notes = list(folder.notes)
    redone = folder.redone_note()
    if redone:
        notes.append(redone)
    failures = {} if retry_failed else {
        job["id"]: "" for job in jobs if state[job["id"]] == "failed"}
    started = time.perf_counter()
    summary: dict[str, Any] = {
        "out_dir": str(out), "jobs": len(jobs), "done_before": len(jobs) - len(todo),
        "redone": len(folder.redone), "ran": 0, "failed": 0, "failures": failures,
        "notes": notes, "restarts": 0, "executor": executor, "workers": 0, "seconds": 0.0}
    if failures:  # their errors, for the list the command prints
        for jid in failures:
            result = store.read_result(results / f"{jid}.json")
            failures[jid] = str(result.get("error") or "failed without a message") \
                if isinstance(result, dict) else "failed"
    if not todo:
        return summary
    pool: _Local | _Dask = _Dask(workers, scheduler) if executor == "dask" else \
        _Local(workers or os.cpu_count() or 1)
    bar = _progress_bar(len(jobs), len(jobs) - len(todo), progress)
    run = _Run(results, bar)
    try:
        _drive(pool, run, job_fn, [run.chunk(c) for c in chunks(todo, pool.workers, chunk)])
    except (KeyboardInterrupt, UserError):
        pool.close(now=True)
        raise
    except Exception as exc:
        pool.close(now=True)
        if not isinstance(pool, _Dask):
            raise
        where = f"the Dask scheduler at {quote(scheduler)}" if scheduler else \
            "the Dask LocalCluster"
        why = " ".join(printable(str(exc)).replace("\\n", " ").split())[:160]
        raise UserError(f"the run on {where} failed ({type(exc).__name__}: {why}); "
                        f"{run.written:,} results written this run are kept in "
                        f"{printable(str(results))}: run the same command again to resume"
                        ) from None
    else:
        pool.close()
    finally:
        bar.close()
    failures.update(run.failures)
    summary.update(ran=run.written, failed=run.failed, restarts=run.restarts,
                   workers=pool.workers, seconds=time.perf_counter() - started,
                   failures={jid: failures[jid] for jid in (j["id"] for j in jobs)
                             if jid in failures})
    return summary


def _drive(pool: _Local | _Dask, run: _Run, job_fn: JobFn, chunks: list[_Chunk]) -> None:
    """Submit ``chunks``, write results as they come, send lost work again."""
    pending = {pool.submit(job_fn, c): c for c in chunks}
    written = idle = 0  # pool breaks in a row with no job on a dead worker and no result
    while pending:
        done, _ = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
        lost: list[_Chunk] = []
        if any(f.exception() is not None and pool.lost_pool(f.exception())  # type: ignore[arg-type]
               for f in done):
            cf.wait(pending)  # a broken pool fails every pending future at once
            done = set(pending)
        again: list[_Chunk] = []
        for fut in done:
            chunk = pending.pop(fut)
            exc = fut.exception()
            if exc is None:
                for job, result in zip(chunk.jobs, fut.result(), strict=True):
                    run.write(job, result)
            elif pool.lost_pool(exc):
                lost.append(chunk)
            elif pool.gave_up(exc):
                again += _after_deaths(run, chunk.jobs, MAX_DEATHS if len(chunk.jobs) == 1
                                       else 1)
            else:
                raise exc
        if lost:
            run.restarts += 1
            dead = pool.recover()
            idle = 0 if dead or run.written > written else idle + 1
            written = run.written
            if idle >= MAX_DEATHS:
                raise UserError(f"the local worker processes died {idle} times in a row "
                                "before finishing any job and with none running; check that "
                                "'python -c \"import tabletop.survey\"' works")
            for chunk in lost:
                if chunk.key in dead:
                    again += _after_deaths(run, chunk.jobs, 1)
                else:
                    again.append(run.chunk(chunk.jobs))
        for chunk in again:
            pending[pool.submit(job_fn, chunk)] = chunk


def _after_deaths(run: _Run, jobs: list[dict[str, Any]], deaths: int) -> list[_Chunk]:
    """Count ``deaths`` of the worker for each of ``jobs``: a job that reached
    :data:`MAX_DEATHS` is recorded as failed, the others go again one by one (so that one job
    that kills its worker cannot take others down with it again)."""
    again = []
    for job in jobs:
        run.deaths[job["id"]] += deaths
        if run.deaths[job["id"]] >= MAX_DEATHS:
            run.write(job, _failure(job, "the worker process died each time it ran this job "
                                    "(killed, out of memory or a crash in a C library); not "
                                    "retried"))
        else:
            again.append(run.chunk([job]))
    return again

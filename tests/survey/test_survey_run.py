"""The survey runner (issue 16, item 2): executors, streaming results, resume, lost workers.

Most tests run a cheap job function (``support.survey_toys``, importable by the workers: they
are spawned with this process's ``sys.path``) on a hand-made plan, so that what they check is the
runner; the last ones run the real jobs of two 40kdc layouts on both executors.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tabletop.errors import UserError
from tabletop.survey import run as survey_run
from tabletop.survey.run import load_results, run_survey

from support.paths import REPO
from support.survey_toys import toy_job, toy_plan

ROOT = REPO
pytestmark = pytest.mark.processes
"""Every test here starts worker processes (or a Dask cluster)."""

NEEDS_DASK = 'the Dask tests need the cluster extra: pip install -e ".[cluster]"'


def calls(ctl: Path) -> list[str]:
    log = ctl / "calls.log"
    return log.read_text(encoding="ascii").split() if log.exists() else []


def values(out: Path) -> dict[str, Any]:
    """What a survey found, by job id: everything of each result but its timing."""
    return {jid: {k: v for k, v in r.items() if k not in ("seconds", "cpu_seconds", "checksum")}
            for jid, r in load_results(out).items()}


@pytest.fixture
def ctl(tmp_path: Path) -> Path:
    d = tmp_path / "ctl"
    d.mkdir()
    return d


# -- the local executor ----------------------------------------------------------------------


def test_local_run_writes_the_plan_and_one_result_per_job(tmp_path: Path, ctl: Path) -> None:
    plan = toy_plan(ctl)
    out = tmp_path / "out"
    summary = run_survey(plan, out, workers=2, job_fn=toy_job, progress=False)
    assert summary | {"seconds": 0} == {
        "out_dir": str(out), "jobs": 10, "done_before": 0, "redone": 0, "ran": 10, "failed": 0,
        "failures": {}, "notes": [], "restarts": 0, "executor": "local", "workers": 2,
        "seconds": 0}
    written = json.loads((out / "plan.json").read_text())
    assert all("scenario" not in j and len(j["scenario_sha256"]) == 64 for j in written["jobs"])
    assert [j["id"] for j in written["jobs"]] == [j["id"] for j in plan["jobs"]]
    got = values(out)
    assert sorted(got) == sorted(j["id"] for j in plan["jobs"])
    assert got["b1-j3"]["value"] == {"square": 169, "board": "layout1__map"}
    assert sorted(calls(ctl)) == sorted(got)
    assert not list((out / "results").glob(".*"))  # no temporary file left


def test_chunks_keep_to_one_board_and_stay_small() -> None:
    jobs = [{"id": f"{b}{i}", "board": b} for b in "ab" for i in range(7)]
    chunks = list(survey_run.chunks(jobs, workers=1, size=None))
    assert [len(c) for c in chunks] == [3, 4, 3, 4]  # a quarter of 14: at most 4 a chunk
    assert all(len({j["board"] for j in c}) == 1 for c in chunks)
    assert [j["id"] for c in chunks for j in c] == [j["id"] for j in jobs]
    assert [len(c) for c in survey_run.chunks(jobs, workers=2, size=None)] == [1, 2, 2, 2] * 2
    sizes = [len(c) for c in survey_run.chunks(jobs * 10, workers=1, size=None)]
    assert sizes == [7, 8, 8, 8, 7, 8, 8, 8, 8] * 2  # CHUNK_MAX: 70 jobs of a board in 9
    assert [len(c) for c in survey_run.chunks(jobs, workers=1, size=1)] == [1] * 14


@pytest.mark.slow
def test_a_rerun_does_no_finished_job_and_redoes_corrupt_or_foreign_results(
        tmp_path: Path, ctl: Path) -> None:
    plan = toy_plan(ctl)
    out = tmp_path / "out"
    run_survey(plan, out, workers=2, job_fn=toy_job, progress=False)
    first = values(out)
    (out / "results" / "b0-j1.json").write_text('{"id": "b0-j1", "ok": tr')  # cut short
    foreign = json.loads((out / "results" / "b1-j2.json").read_text())
    foreign["job"]["params"]["n"] = 99  # a result of another plan's job of that id
    (out / "results" / "b1-j2.json").write_text(json.dumps(foreign))
    (ctl / "calls.log").unlink()
    summary = run_survey(plan, out, workers=2, job_fn=toy_job, progress=False)
    assert sorted(calls(ctl)) == ["b0-j1", "b1-j2"]
    assert (summary["done_before"], summary["redone"], summary["ran"]) == (8, 2, 2)
    assert values(out) == first
    (ctl / "calls.log").unlink()
    assert run_survey(plan, out, job_fn=toy_job, progress=False)["ran"] == 0
    assert calls(ctl) == []


@pytest.mark.slow
def test_a_failed_job_is_recorded_not_retried_and_does_not_stop_the_run(
        tmp_path: Path, ctl: Path) -> None:
    plan = toy_plan(ctl, **{"b0-j2": {"raise": True}})
    out = tmp_path / "out"
    summary = run_survey(plan, out, workers=2, job_fn=toy_job, progress=False)
    assert (summary["ran"], summary["failed"]) == (10, 1)
    bad = load_results(out)["b0-j2"]
    assert (bad["ok"], bad["value"], bad["error"]) == (False, None,
                                                       "RuntimeError: no answer for b0-j2")
    assert all(r["ok"] for jid, r in load_results(out).items() if jid != "b0-j2")
    (ctl / "calls.log").unlink()
    assert run_survey(plan, out, workers=2, job_fn=toy_job, progress=False)["ran"] == 0
    summary = run_survey(plan, out, workers=2, job_fn=toy_job, progress=False,
                         retry_failed=True)
    assert calls(ctl) == ["b0-j2"] and summary["ran"] == 1


@pytest.mark.slow
def test_a_killed_worker_gives_a_complete_identical_result(tmp_path: Path, ctl: Path) -> None:
    clean = tmp_path / "clean"
    run_survey(toy_plan(ctl), clean, workers=2, job_fn=toy_job, progress=False)
    out = tmp_path / "out"
    plan = toy_plan(ctl, **{"b1-j1": {"kill": "once"}})
    summary = run_survey(plan, out, workers=2, job_fn=toy_job, progress=False)
    assert (ctl / "b1-j1.killed").exists(), "the worker was killed"
    assert summary["restarts"] >= 1 and summary["failed"] == 0
    got = values(out)
    want = values(clean)
    assert {k: v["value"] for k, v in got.items()} == {k: v["value"] for k, v in want.items()}
    assert all(r["ok"] for r in got.values())


@pytest.mark.slow
def test_a_job_that_always_kills_its_worker_is_recorded_as_failed(tmp_path: Path,
                                                                 ctl: Path) -> None:
    plan = toy_plan(ctl, per_board=4, **{"b0-j1": {"kill": "always"}})
    out = tmp_path / "out"
    summary = run_survey(plan, out, workers=2, job_fn=toy_job, progress=False)
    assert summary["failed"] == 1 and summary["ran"] == 8
    results = load_results(out)
    assert results["b0-j1"]["ok"] is False
    assert "worker process died each time" in results["b0-j1"]["error"]
    assert calls(ctl).count("b0-j1") == survey_run.MAX_DEATHS
    assert all(r["ok"] for jid, r in results.items() if jid != "b0-j1")


@pytest.mark.slow
def test_workers_that_keep_dying_with_no_job_on_them_stop_the_run(tmp_path: Path,
                                                                  ctl: Path) -> None:
    plan = toy_plan(ctl, boards=1, per_board=1, **{"b0-j0": {"kill": "unmarked"}})
    with pytest.raises(UserError, match="died 3 times in a row before finishing any job"):
        run_survey(plan, tmp_path / "out", workers=1, job_fn=toy_job, progress=False)
    assert calls(ctl) == ["b0-j0"] * 3


# -- OUT_DIR ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_out_dir_of_another_plan_is_refused_one_that_extends_it_is_accepted(
        tmp_path: Path, ctl: Path) -> None:
    out = tmp_path / "out"
    run_survey(toy_plan(ctl, boards=1), out, workers=1, job_fn=toy_job, progress=False)
    other = toy_plan(ctl, boards=1)
    other["jobs"][0]["params"]["n"] = 7
    with pytest.raises(UserError, match=r"plan.json: the folder holds the survey of another "
                       r"plan \(1 of its 5 jobs are not in this one or differ, e\.g\. \"b0-j0\""):
        run_survey(other, out, workers=1, job_fn=toy_job, progress=False)
    (ctl / "calls.log").unlink()
    summary = run_survey(toy_plan(ctl, boards=2), out, workers=1, job_fn=toy_job,
                         progress=False)
    assert (summary["done_before"], summary["ran"]) == (5, 5)
    assert sorted(calls(ctl)) == [f"b1-j{i}" for i in range(5)]
    assert len(json.loads((out / "plan.json").read_text())["jobs"]) == 10


def test_out_dir_that_is_a_file_or_holds_other_files_is_refused(tmp_path: Path,
                                                                ctl: Path) -> None:
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    with pytest.raises(UserError, match=r"notes\.txt: exists and is not a folder"):
        run_survey(toy_plan(ctl), afile, job_fn=toy_job, progress=False)
    with pytest.raises(UserError, match="holds other files and no survey"):
        run_survey(toy_plan(ctl), tmp_path, job_fn=toy_job, progress=False)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ctl", "notes.txt"]
    assert calls(ctl) == []


def test_bad_arguments(tmp_path: Path, ctl: Path) -> None:
    with pytest.raises(UserError, match="--workers 0: give at least 1"):
        run_survey(toy_plan(ctl), tmp_path / "o", workers=0, job_fn=toy_job)
    with pytest.raises(UserError, match='--executor "ray": give one of local, dask'):
        run_survey(toy_plan(ctl), tmp_path / "o", executor="ray", job_fn=toy_job)
    plan = toy_plan(ctl)
    plan["jobs"][1]["id"] = "../x"
    with pytest.raises(ValueError, match="is not a file name"):
        run_survey(plan, tmp_path / "o", job_fn=toy_job)
    assert not (tmp_path / "o").exists()


# -- Ctrl+C ----------------------------------------------------------------------------------

_JOB_SECONDS = 0.8
"""How long each job of the interrupted run takes: the signal must come before the last one
ends (at 0.3 s a loaded machine once let the run finish first)."""

_INTERRUPTED = """
import signal, sys
# Ctrl+C as a terminal sends it: a suite started in the background by a shell without job
# control inherits SIGINT ignored, and so would this runner (it then ran to the end)
signal.signal(signal.SIGINT, signal.default_int_handler)
sys.path[:0] = [{tests!r}]
from support.survey_toys import toy_job, toy_plan
from pathlib import Path
from tabletop.survey.run import run_survey
try:
    run_survey(toy_plan(Path({ctl!r}), boards=2, per_board=8,
                        **{{f"b{{b}}-j{{i}}": {{"sleep": {sleep}}}
                            for b in (0, 1) for i in range(8)}}),
               {out!r}, workers=2, job_fn=toy_job, progress=False, chunk=2)
except KeyboardInterrupt:
    sys.exit(130)
"""


def _gone(group: int, timeout: float = 15.0) -> bool:
    """True when no process of process group ``group`` is alive (zombies waiting for init to
    reap them aside) within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        alive = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError):
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == group and fields[0] != "Z":
                    alive.append(stat.parent.name)
        if not alive:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.slow
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGINT, 130), (signal.SIGKILL, -9)],
                         ids=["ctrl-c", "sigkill"])
def test_a_run_stopped_keeps_its_results_leaves_no_worker_and_a_rerun_resumes(
        tmp_path: Path, ctl: Path, sig: int, code: int) -> None:
    """Ctrl+C stops the run at once; so does SIGKILL of the runner (its workers see it gone)."""
    out = tmp_path / "out"
    script = _INTERRUPTED.format(tests=str(ROOT / "tests"), ctl=str(ctl), out=str(out),
                                 sleep=_JOB_SECONDS)
    proc = subprocess.Popen([sys.executable, "-c", script], start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(list((out / "results").glob("*.json"))) < 4:
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        markers = f"{survey_run.MARKERS_PREFIX}{proc.pid}-*"
        assert list(Path(tempfile.gettempdir()).glob(markers)), "no marker folder of the run"
        proc.send_signal(sig)
        assert proc.wait(timeout=20) == code
        assert _gone(proc.pid), "a worker process was left behind"
        # nor its folder of chunk markers (the workers remove it when they see it gone)
        left = list(Path(tempfile.gettempdir()).glob(markers))
        assert not left, left
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    kept = values(out)
    assert 4 <= len(kept) < 16
    before = len(calls(ctl))
    plan = toy_plan(ctl, boards=2, per_board=8,
                    **{f"b{b}-j{i}": {"sleep": _JOB_SECONDS} for b in (0, 1) for i in range(8)})
    summary = run_survey(plan, out, workers=2, job_fn=toy_job, progress=False)
    assert summary["done_before"] == len(kept)
    assert not set(calls(ctl)[before:]) & set(kept), "a finished job was done again"
    assert values(out).items() >= kept.items()
    assert len(values(out)) == 16
    assert {k: v["value"]["square"] for k, v in values(out).items()} == {
        f"b{b}-j{i}": (10 * b + i) ** 2 for b in (0, 1) for i in range(8)}


# -- Dask ------------------------------------------------------------------------------------


def test_dask_missing_says_what_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           ctl: Path) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(UserError, match=r'pip install -e "\.\[cluster\]"'):
        run_survey(toy_plan(ctl), tmp_path / "o", executor="dask", job_fn=toy_job)


def test_connecting_without_dask_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """``scheduler.connect`` called without the cluster extra raised ModuleNotFoundError (a
    traceback) once a server had passed the probe (found by the fuzz run of a venv without
    the extra); now it says what to install before it probes anything."""
    from tabletop.survey.scheduler import DASK_MISSING, connect

    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(UserError) as info:
        connect("tcp://127.0.0.1:1", 1.0)
    assert info.value.lines == [DASK_MISSING]


@pytest.fixture(scope="module")
def cluster(kill_dir: Path) -> Any:
    """One LocalCluster of 2 worker processes (one thread each) for this file's Dask tests
    (started after :data:`KILL_ENV` is set, so its workers see it)."""
    pytest.importorskip("distributed", reason=NEEDS_DASK)
    import logging

    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0", silence_logs=logging.ERROR) as c:
        yield c


@pytest.mark.slow
def test_dask_gives_the_results_of_the_local_executor(cluster: Any, tmp_path: Path,
                                                      ctl: Path) -> None:
    plan = toy_plan(ctl)
    run_survey(plan, tmp_path / "local", workers=2, job_fn=toy_job, progress=False)
    summary = run_survey(plan, tmp_path / "dask", executor="dask",
                         scheduler=cluster.scheduler_address, job_fn=toy_job, progress=False)
    assert (summary["ran"], summary["workers"], summary["executor"]) == (10, 2, "dask")
    assert values(tmp_path / "dask") == values(tmp_path / "local")


@pytest.mark.slow
def test_dask_a_killed_worker_gives_a_complete_identical_result(cluster: Any, tmp_path: Path,
                                                                ctl: Path) -> None:
    run_survey(toy_plan(ctl), tmp_path / "clean", workers=2, job_fn=toy_job, progress=False)
    plan = toy_plan(ctl, **{"b0-j3": {"kill": "once"}})
    summary = run_survey(plan, tmp_path / "dask", executor="dask",
                         scheduler=cluster.scheduler_address, job_fn=toy_job, progress=False)
    assert (ctl / "b0-j3.killed").exists(), "the worker was killed"
    assert summary["failed"] == 0
    got, want = values(tmp_path / "dask"), values(tmp_path / "clean")
    assert {k: v["value"] for k, v in got.items()} == {k: v["value"] for k, v in want.items()}


@pytest.mark.slow
def test_dask_scheduler_that_does_not_answer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                             ctl: Path) -> None:
    pytest.importorskip("distributed", reason=NEEDS_DASK)
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # free: nobody listens there
    monkeypatch.setattr(survey_run, "CONNECT_TIMEOUT", 1.0)
    with pytest.raises(UserError, match=rf'--scheduler "tcp://127.0.0.1:{port}": no Dask '
                       r"scheduler answered within 1 s"):
        run_survey(toy_plan(ctl), tmp_path / "o", executor="dask",
                   scheduler=f"tcp://127.0.0.1:{port}", job_fn=toy_job)


# -- real jobs: two 40kdc layouts x two bases ------------------------------------------------

DATA = ROOT.parent / "shared" / "data" / "40kdc"
KILL_ENV = "TABLETOP_TEST_SURVEY_KILL"
"""A folder: a worker about to run job ID kills itself (SIGKILL) if ``ID.kill`` is there,
renaming it ``ID.killed`` first (so one worker only, once)."""


def run_job_or_die(job: dict[str, Any]) -> dict[str, Any]:
    """:func:`tabletop.survey.jobs.run_job`, in a worker that may be killed first."""
    from tabletop.survey.jobs import run_job

    folder = os.environ.get(KILL_ENV)
    if folder:
        try:
            os.rename(Path(folder) / f"{job['id']}.kill", Path(folder) / f"{job['id']}.killed")
        except FileNotFoundError:
            pass
        else:
            os.kill(os.getpid(), signal.SIGKILL)
    return run_job(job)


@pytest.fixture(scope="module")
def real_plan() -> dict[str, Any]:
    """Two layouts on one deployment map, a 32 mm base and the Rhino's hull, the cheap measures
    (gap-fit and advance odds: reach takes seconds a job): 12 jobs."""
    layouts = DATA / "terrain-layouts.json"
    if not layouts.exists():
        pytest.skip(f"40kdc data not at {DATA}")
    from tabletop.survey.jobs import parse_bases, plan

    p = plan(layouts, layouts=["take-and-hold-mirror-1", "gw-11e-crucible"],
             deployments=["tipping-point"], bases=parse_bases("32mm,Rhino hull"))
    p["jobs"] = [j for j in p["jobs"] if j["measure"] != "reach"]
    assert len(p["jobs"]) == 12
    return p


@pytest.fixture(scope="module")
def kill_dir(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The folder of :data:`KILL_ENV`, set before any worker (of the cluster too) starts."""
    folder = tmp_path_factory.mktemp("kill")
    old = os.environ.get(KILL_ENV)
    os.environ[KILL_ENV] = str(folder)
    yield folder
    if old is None:
        del os.environ[KILL_ENV]
    else:
        os.environ[KILL_ENV] = old


@pytest.fixture(scope="module")
def real_local(real_plan: dict[str, Any], kill_dir: Path,
               tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What the local executor finds for :func:`real_plan` (2 workers, nothing killed)."""
    out = tmp_path_factory.mktemp("real") / "local"
    summary = run_survey(real_plan, out, workers=2, job_fn=run_job_or_die, progress=False)
    assert summary["ran"] == 12
    return values(out)


@pytest.mark.slow
def test_real_jobs_on_dask_give_the_local_results(cluster: Any, real_plan: dict[str, Any],
                                                  real_local: dict[str, Any],
                                                  tmp_path: Path) -> None:
    summary = run_survey(real_plan, tmp_path / "dask", executor="dask",
                         scheduler=cluster.scheduler_address, job_fn=run_job_or_die,
                         progress=False)
    assert summary["ran"] == 12
    got = values(tmp_path / "dask")
    assert got == real_local
    assert sum(r["ok"] for r in got.values()) >= 8  # 32 mm and gap-fit at least
    assert all(r["value"]["passages"] is not None for r in got.values()
               if r["ok"] and r["job"]["measure"] == "gap-fit")


@pytest.mark.slow
@pytest.mark.parametrize("executor", ["local", "dask"])
def test_real_jobs_a_killed_worker_gives_a_complete_identical_result(
        executor: str, cluster: Any, real_plan: dict[str, Any], real_local: dict[str, Any],
        kill_dir: Path, tmp_path: Path) -> None:
    victim = real_plan["jobs"][4]["id"]
    (kill_dir / f"{victim}.kill").touch()
    summary = run_survey(real_plan, tmp_path / executor, executor=executor, workers=2,
                         scheduler=cluster.scheduler_address if executor == "dask" else None,
                         job_fn=run_job_or_die, progress=False)
    assert (kill_dir / f"{victim}.killed").exists(), "the worker was killed"
    (kill_dir / f"{victim}.killed").unlink()
    assert summary["ran"] == 12
    assert values(tmp_path / executor) == real_local

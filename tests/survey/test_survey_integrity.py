"""Issue 28, the survey's folder and network: sealed results (an edited or corrupt one is done
again, said in one line), a lock per folder, FIFOs and deep JSON in the folder, a corrupt
plan.json, a non-zero exit with the failed jobs listed, reports from read-only folders, and
bounded waits on a ``--scheduler`` address whatever answers there (fake servers on 127.0.0.1).
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.survey import run as survey_run
from tabletop.survey import store
from tabletop.survey.run import load_results, run_survey

from support import kdc_toys
from support.fake_servers import fake_scheduler
from support.hostile_files import deep_json, fifo, long_number, within
from support.paths import REPO
from support.survey_toys import toy_job, toy_plan

pytestmark = pytest.mark.processes


def calls(ctl: Path) -> list[str]:
    log = ctl / "calls.log"
    return log.read_text(encoding="ascii").split() if log.exists() else []


@pytest.fixture
def ctl(tmp_path: Path) -> Path:
    d = tmp_path / "ctl"
    d.mkdir()
    return d


def _run(plan: dict[str, Any], out: Path, **kw: Any) -> dict[str, Any]:
    return run_survey(plan, out, workers=1, job_fn=toy_job, progress=False, **kw)


# -- sealed results --------------------------------------------------------------------------


def test_results_are_sealed_with_their_content_and_job(tmp_path: Path, ctl: Path) -> None:
    out = tmp_path / "out"
    _run(toy_plan(ctl, boards=1, per_board=2), out)
    result = json.loads((out / "results" / "b0-j1.json").read_text())
    assert result["checksum"] == store.checksum(result) and store.unsealed(result) is None
    for key, value in (("value", {"square": 2, "board": "layout0__map"}), ("ok", False),
                       ("job", {**result["job"], "params": {}}), ("scenario_sha256", "0" * 64)):
        assert store.unsealed({**result, key: value}) == \
            "edited or corrupt (the checksum does not match)", key
    # the same content in another layout (indented, keys reordered) keeps its seal
    same = json.loads(json.dumps(dict(reversed(result.items())), indent=3))
    assert store.unsealed(same) is None


@pytest.mark.slow
def test_an_edited_or_corrupt_result_is_done_again_and_said_in_one_line(
        tmp_path: Path, ctl: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plan = toy_plan(ctl, boards=1, per_board=6)
    out = tmp_path / "out"
    _run(plan, out)
    first = {jid: r["value"] for jid, r in load_results(out).items()}
    results = out / "results"
    edited = json.loads((results / "b0-j1.json").read_text())
    edited["value"]["square"] = 2  # still valid JSON, still the result of this job
    (results / "b0-j1.json").write_text(json.dumps(edited))
    unsealed = json.loads((results / "b0-j2.json").read_text())
    del unsealed["checksum"]
    (results / "b0-j2.json").write_text(json.dumps(unsealed))
    (results / "b0-j3.json").write_text(deep_json())
    (results / "b0-j4.json").write_text(f'{{"id": "b0-j4", "n": {long_number()}}}')
    (ctl / "calls.log").unlink()
    summary = _run(plan, out)
    assert sorted(calls(ctl)) == ["b0-j1", "b0-j2", "b0-j3", "b0-j4"]
    assert summary["redone"] == 4 and summary["notes"] == [
        f"4 result files in {results} done again (2 not valid JSON, 1 edited or corrupt (the "
        "checksum does not match), 1 no checksum (written by an earlier version, or edited)): "
        "b0-j1, b0-j2, b0-j3, b0-j4"]
    assert {jid: r["value"] for jid, r in load_results(out).items()} == first
    (ctl / "calls.log").unlink()
    assert _run(plan, out)["ran"] == 0 and calls(ctl) == []


@pytest.mark.slow
def test_the_report_names_an_edited_result(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(_toy_survey(tmp_path, "--bases", "32mm,Rhino hull", "--measures", "gap-fit",
                            "-o", str(out))) == 0
    path = next((out / "results").glob("*Rhino*"))
    result = json.loads(path.read_text())
    result["seconds"] = 0.5  # any edit at all
    path.write_text(json.dumps(result))
    assert main(["survey", "--report", str(out)]) == 0
    page = (out / "report.html").read_text()
    assert "edited or corrupt (the checksum does not match); run the survey again to redo " \
           "it" in page
    capsys.readouterr()


# -- what else may be in the folder ----------------------------------------------------------


def test_a_fifo_in_the_folder_is_refused_at_once(tmp_path: Path, ctl: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    plan = toy_plan(ctl, boards=1, per_board=2)
    out = tmp_path / "out"
    _run(plan, out)
    pipe = out / "results" / "b0-j1.json"
    pipe.unlink()
    with fifo(pipe):
        with pytest.raises(UserError) as info:
            within(10, _run, plan, out)
        assert info.value.lines == [f"{pipe}: is a FIFO (named pipe), not a survey result; "
                                    "remove it; give a regular file"]
        with pytest.raises(UserError):
            within(10, load_results, out)  # (what the report reads)
    (out / "plan.json").unlink()
    with fifo(out / "plan.json"):
        with pytest.raises(UserError) as info:
            within(10, _run, plan, out)
        assert info.value.lines == [f"{out / 'plan.json'}: is a FIFO (named pipe), not a "
                                    "survey plan; give a regular file"]


def test_a_corrupt_plan_is_written_again_and_the_survey_goes_on(tmp_path: Path,
                                                                ctl: Path) -> None:
    plan = toy_plan(ctl, boards=1, per_board=3)
    out = tmp_path / "out"
    _run(plan, out)
    for bad, why in ((deep_json(), "nested deeper than 64 levels (arrays and objects); no file "
                      "of this kind needs that many"),
                     (f'{{"jobs": {long_number()}}}', "line 1: a number of 5,000 digits; "
                      "numbers of over 4,300 digits cannot be read"),
                     ('{"jobs": 3}', "no list of jobs with ids")):
        (out / "plan.json").write_text(bad)
        (ctl / "calls.log").unlink(missing_ok=True)
        summary = _run(plan, out)
        assert summary["notes"] == [f"{out / 'plan.json'}: was not a survey plan ({why}): "
                                    "written again; each result there is checked against its "
                                    "job"]
        assert summary["ran"] == 0 and calls(ctl) == []
        assert json.loads((out / "plan.json").read_text())["jobs"][0]["id"] == "b0-j0"
    # a valid plan of another survey is still refused
    other = toy_plan(ctl, boards=1, per_board=3, **{"b0-j0": {"n": 5}})
    with pytest.raises(UserError, match="holds the survey of another plan"):
        _run(other, out)


def test_a_plan_or_result_over_its_size_limit_is_not_read(tmp_path: Path, ctl: Path) -> None:
    """A plan.json of 1 GB (of zeros) was read whole: 49 s and a gigabyte of memory before it
    was found corrupt. Over the limits (sparse files here) neither is read."""
    plan = toy_plan(ctl, boards=1, per_board=2)
    out = tmp_path / "out"
    _run(plan, out)
    for path, limit in ((out / "plan.json", store.PLAN_BYTES),
                        (out / "results" / "b0-j1.json", store.RESULT_BYTES)):
        path.unlink()
        with open(path, "wb") as f:
            f.truncate(limit + 1)
    (ctl / "calls.log").unlink()
    summary = within(10, _run, plan, out)
    assert calls(ctl) == ["b0-j1"] and summary["redone"] == 1
    assert summary["notes"][0] == (f"{out / 'plan.json'}: was not a survey plan (the file is too "
                                   f"large: {store.PLAN_BYTES + 1:,} bytes; a plan has at most 64 "
                                   "MB): written again; each result there is checked against its "
                                   "job"), summary["notes"]
    assert summary["notes"][1] == f"1 result file in {out / 'results'} done again (1 too large)" \
        ": b0-j1", summary["notes"]


@pytest.mark.slow
def test_a_corrupt_plan_beside_a_report_is_written_again(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The report's layout pages (OUT_DIR/layouts) counted as files of the user's: a survey
    whose plan.json was cut was refused ("the folder holds other files and no survey")."""
    out = tmp_path / "out"
    argv = _toy_survey(tmp_path, "--bases", "32mm", "--measures", "gap-fit", "-o", str(out))
    assert main(argv) == 0 and (out / "layouts").is_dir()
    (out / "plan.json").write_text('{"jobs": [')
    capsys.readouterr()
    assert main(argv) == 0
    got = capsys.readouterr()
    assert f"{out / 'plan.json'}: was not a survey plan (" in got.out + got.err, got


def test_the_same_plan_is_never_written_again(tmp_path: Path, ctl: Path) -> None:
    plan = toy_plan(ctl, boards=1, per_board=2)
    out = tmp_path / "out"
    _run(plan, out)
    before = os.stat(out / "plan.json")
    _run(plan, out)
    after = os.stat(out / "plan.json")
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


# -- one run per folder ----------------------------------------------------------------------


def test_a_second_run_of_a_folder_is_refused_while_the_first_holds_it(
        tmp_path: Path, ctl: Path) -> None:
    plan = toy_plan(ctl, boards=1, per_board=2)
    out = tmp_path / "out"
    out.mkdir()
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, os, sys, time\n"
         f"fd = os.open({str(out / store.LOCK_FILE)!r}, os.O_RDWR | os.O_CREAT)\n"
         "fcntl.flock(fd, fcntl.LOCK_EX)\nos.write(fd, str(os.getpid()).encode())\n"
         "print('locked', flush=True)\ntime.sleep(60)\n"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "locked\n"
        with pytest.raises(UserError) as info:
            _run(plan, out)
        assert info.value.lines == [f"{out}: another tabletop survey (process {holder.pid}) is "
                                    "running in this folder; wait for it to end, or give "
                                    "another -o folder"]
        assert calls(ctl) == []
    finally:
        holder.kill()  # SIGKILL: the kernel drops its lock
        holder.wait()
    assert _run(plan, out)["ran"] == 2


@pytest.mark.slow
def test_two_runs_of_one_folder_do_not_do_the_same_work(tmp_path: Path, ctl: Path) -> None:
    plan_args = "boards=1, per_board=4, **{f'b0-j{i}': {'sleep': 0.5} for i in range(4)}"
    script = "\n".join([
        "import sys", f"sys.path[:0] = [{str(REPO / 'tests')!r}]", "from pathlib import Path",
        "from support.survey_toys import toy_job, toy_plan",
        "from tabletop.errors import UserError", "from tabletop.survey.run import run_survey",
        "try:",
        f"    s = run_survey(toy_plan(Path({str(ctl)!r}), {plan_args}), "
        f"{str(tmp_path / 'out')!r}, workers=1, job_fn=toy_job, progress=False)",
        "    print('ran', s['ran'])", "except UserError as e:", "    print('refused', e.lines[0])",
        ""])
    runs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
            for _ in range(2)]
    outs = sorted(r.communicate(timeout=120)[0] for r in runs)
    ran = [o for o in outs if o.startswith("ran")]
    assert sorted(calls(ctl)) == [f"b0-j{i}" for i in range(4)], outs  # each job once
    assert ran and all(o in ("ran 4\n", "ran 0\n") or o.startswith("refused") for o in outs)


def test_a_stale_marker_folder_of_a_killed_runner_is_removed(tmp_path: Path) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = Path(tempfile.mkdtemp(prefix=f"{survey_run.MARKERS_PREFIX}{dead.pid}-"))
    (stale / "c1").write_text("123")
    mine = Path(tempfile.mkdtemp(prefix=f"{survey_run.MARKERS_PREFIX}{os.getpid()}-"))
    try:
        survey_run.remove_stale_markers()
        assert not stale.exists() and mine.exists()
    finally:
        shutil.rmtree(stale, ignore_errors=True)
        shutil.rmtree(mine, ignore_errors=True)


# -- failures, read-only folders: the command line -------------------------------------------


def _toy_survey(tmp_path: Path, *extra: str) -> list[str]:
    paths = kdc_toys.write(tmp_path / "data")
    return ["survey", str(paths["layouts"]), "--no-progress", "--workers", "1", *extra]


@pytest.mark.slow
def test_a_survey_with_failed_jobs_exits_1_and_lists_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    argv = _toy_survey(tmp_path, "--bases", "32mm,9000mm", "--measures", "advance-odds",
                       "-o", str(out))
    assert main(argv) == 1
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert lines[0] == "2 of 4 jobs failed (their results say why; --retry-failed runs them " \
                       "again):", err
    assert all(line.startswith("  toy-layout__toy-map__9000mm__advance-odds__") for line in
               lines[1:]) and len(lines) == 3, err
    assert main(argv) == 1  # nothing run, the failures stand: still 1
    assert "2 of 4 jobs failed" in capsys.readouterr().err
    assert main(_toy_survey(tmp_path, "--bases", "32mm", "--measures", "advance-odds",
                            "-o", str(tmp_path / "good"))) == 0


def _read_only(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``folder`` read-only: by its permissions, or for root (whom permissions do not
    stop) by refusing in this process every write under it as a read-only file system does
    (``EROFS``): any attempt to write there fails, so none may be made."""
    if os.getuid() != 0:
        for path in (folder, *folder.rglob("*")):
            os.chmod(path, 0o555 if path.is_dir() else 0o444)
        return
    inside = str(folder.resolve()) + os.sep

    def refused(path: Any) -> bool:
        return os.path.abspath(os.fspath(path)).startswith(inside)

    def erofs(path: Any) -> OSError:
        return OSError(errno.EROFS, os.strerror(errno.EROFS), os.fspath(path))

    real_open, real_mkdir = os.open, os.mkdir
    real_replace, real_unlink = os.replace, os.unlink

    def open_(path: Any, flags: int, *args: Any, **kw: Any) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC) and refused(path):
            raise erofs(path)
        return real_open(path, flags, *args, **kw)

    def mkdir(path: Any, *args: Any, **kw: Any) -> None:
        if refused(path):
            if os.path.isdir(path):
                raise FileExistsError(errno.EEXIST, "File exists", os.fspath(path))
            raise erofs(path)
        real_mkdir(path, *args, **kw)

    def replace(src: Any, dst: Any, *args: Any, **kw: Any) -> None:
        if refused(dst):
            raise erofs(dst)
        real_replace(src, dst, *args, **kw)

    def unlink(path: Any, *args: Any, **kw: Any) -> None:
        if refused(path):
            raise erofs(path)
        real_unlink(path, *args, **kw)

    monkeypatch.setattr(os, "open", open_)
    monkeypatch.setattr(os, "mkdir", mkdir)
    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.setattr(os, "unlink", unlink)


@pytest.mark.slow
def test_a_finished_survey_on_read_only_storage_runs_again_and_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A rerun of a finished survey whose folder is read-only has nothing to do and writes
    nothing (plan.json is not written again); its report goes elsewhere with -o."""
    out = tmp_path / "out"
    argv = _toy_survey(tmp_path, "--bases", "32mm", "--measures", "gap-fit", "-o", str(out))
    assert main(argv) == 0
    capsys.readouterr()
    before = {p: os.stat(p).st_mtime_ns for p in out.rglob("*")}
    try:
        _read_only(out, monkeypatch)
        assert main(argv) == 0
        got = capsys.readouterr()
        assert "1 jobs: 1 done before, nothing to run" in got.out, got.out
        assert got.err.startswith(f"report: not written ({out / 'report.html'}: cannot write "
                                  "here: "), got.err
        assert got.err.endswith(f"write it elsewhere with: tabletop survey --report {out} -o "
                                "PAGE.html\n")
        page = tmp_path / "page.html"
        assert main(["survey", "--report", str(out), "-o", str(page)]) == 0
        assert page.is_file() and capsys.readouterr().out == f"report: {page}\n"
        assert main(["survey", "--report", str(out)]) == 2
        assert "cannot write here" in capsys.readouterr().err
        # work to do in a read-only folder is refused before any is done
        more = _toy_survey(tmp_path, "--bases", "32mm,40mm", "--measures", "gap-fit", "-o",
                           str(out))
        assert main(more) == 2
        assert capsys.readouterr().err == (f"{out}: the folder is read-only; 1 jobs have no "
                                           "result there yet; give another -o folder\n")
        assert {p: os.stat(p).st_mtime_ns for p in out.rglob("*")} == before
    finally:
        monkeypatch.undo()
        for path in (out, *out.rglob("*")):
            os.chmod(path, stat.S_IRWXU)


# -- the scheduler's address ------------------------------------------------------------------

ANSWERS = {
    "silent": "no Dask scheduler answered within 1 s (the port accepts connections and says "
              "nothing: a web server, such as Dask's dashboard on 8787?)",
    "http": 'not a Dask scheduler: it answered "HTTP/1.1 400 Bad Request\\r\\nContent-Type: " '
            '...;',
    "random": "not a Dask scheduler: it answered ",
    "close": "no Dask scheduler answered within 1 s (the port accepts connections and closes "
             "them without a word)",
    "greeting-too-big": "not a Dask scheduler: it answered ",
    "refused": "no Dask scheduler answered within 1 s (connection refused)",
}


@pytest.mark.parametrize("mode", sorted(ANSWERS))
def test_a_scheduler_address_where_no_dask_answers_is_one_line_in_time(
        mode: str, tmp_path: Path, ctl: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed", reason='the Dask tests need the cluster extra')
    monkeypatch.setattr(survey_run, "CONNECT_TIMEOUT", 1.0)
    with fake_scheduler(mode) as address:
        start = time.monotonic()
        with pytest.raises(UserError) as info:
            within(10, run_survey, toy_plan(ctl), tmp_path / "o", executor="dask",
                   scheduler=address, job_fn=toy_job, progress=False)
        took = time.monotonic() - start
    line, = info.value.lines
    assert line.startswith(f'--scheduler "{address}": {ANSWERS[mode]}'), line
    assert line.endswith("start one with 'dask scheduler' and give the address it prints "
                         "(tcp://HOST:8786)")
    assert took < 3.0, took
    assert calls(ctl) == []


def test_a_scheduler_address_that_is_no_address_is_one_line() -> None:
    """A host name with a label of over 63 characters made the name lookup raise UnicodeError
    (a traceback); a scheme Dask cannot use here was said to be a scheduler that did not answer
    within the timeout, though it failed at once."""
    pytest.importorskip("distributed", reason='the Dask tests need the cluster extra')
    from tabletop.survey.scheduler import connect

    long_host = f"tcp://{'a' * 300}:8786"
    with pytest.raises(UserError) as info:
        within(5, connect, long_host, 1.0)
    line, = info.value.lines
    assert line.startswith('--scheduler "tcp://aaaa') and "(311 characters)" in line, line
    assert line.endswith(": not an address (the host name: encoding with 'idna' codec failed "
                         "(UnicodeError: label too long)); give tcp://HOST:PORT"), line
    with pytest.raises(UserError) as info:
        within(5, connect, "inproc://x", 1.0)
    line, = info.value.lines
    assert line.startswith('--scheduler "inproc://x": Dask\'s client could not connect ('), line


@pytest.mark.slow
def test_a_scheduler_killed_mid_run_is_one_line_and_the_results_are_kept(
        tmp_path: Path, ctl: Path) -> None:
    pytest.importorskip("distributed", reason='the Dask tests need the cluster extra')
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    bin_ = Path(sys.executable).parent
    env = {**os.environ, "PYTHONPATH": str(REPO / "tests")}  # the toy job, on both sides
    scheduler = subprocess.Popen([str(bin_ / "dask"), "scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--dashboard-address", ":0",
                                  "--no-show"], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    worker = subprocess.Popen([str(bin_ / "dask"), "worker", address, "--nthreads", "1",
                               "--nworkers", "1", "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=env,
                              start_new_session=True)
    deadline = time.monotonic() + 60
    while True:  # the scheduler listens
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert time.monotonic() < deadline and scheduler.poll() is None
            time.sleep(0.2)
    plan = toy_plan(ctl, boards=1, per_board=12,
                    **{f"b0-j{i}": {"sleep": 0.5} for i in range(12)})
    out = tmp_path / "out"
    try:
        def kill_later() -> None:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and \
                    len(list((out / "results").glob("*.json"))) < 2:
                time.sleep(0.05)
            os.killpg(scheduler.pid, signal.SIGKILL)

        import threading
        threading.Thread(target=kill_later, daemon=True).start()
        with pytest.raises(UserError) as info:
            within(120, run_survey, plan, out, executor="dask", scheduler=address,
                   job_fn=toy_job, progress=False, chunk=1)
    finally:
        for proc in (scheduler, worker):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    line, = info.value.lines
    assert line.startswith(f'the run on the Dask scheduler at "{address}" failed ('), line
    kept = load_results(out)
    assert 2 <= len(kept) < 12, line
    assert line.endswith(
        f"results written this run are kept in {out / 'results'}: run the same command again "
        "to resume")
    assert all(store.unsealed(r) is None for r in kept.values())


def test_the_lock_file_is_what_a_survey_writes(tmp_path: Path, ctl: Path) -> None:
    """A run killed between taking its lock and writing plan.json leaves a folder that the
    next run takes as its own (not "other files")."""
    out = tmp_path / "out"
    out.mkdir()
    fd = os.open(out / store.LOCK_FILE, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.close(fd)  # released, as by a killed process
    assert _run(toy_plan(ctl, boards=1, per_board=1), out)["ran"] == 1

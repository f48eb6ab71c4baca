"""Hostile data and hostile networks for the fuzzer (issue 28): the 40kdc files the importer
reads (templates, layouts, deployment maps, the units CSV), the folders a survey resumes from,
and what may answer at a ``--scheduler`` address (loopback only). Used by
``tests/cli/test_fuzz.py`` (a few dozen each) and ``benchmarks/fuzz.py`` (100,000 in all).

Each ``run_*`` function feeds one input to the program as a user would and returns
``"accepted"`` or ``"refused"`` (exit code 2, or a :class:`~tabletop.errors.UserError`); any
other outcome raises (a crash). What is accepted must hold up: an imported scenario loads back
with every check, a survey run leaves every job of the plan a sealed result of that very job.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import math
import os
import shutil
import tempfile
from concurrent.futures import Future
from functools import cache
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import strategies as st

from tabletop.cli import main
from tabletop.errors import UserError
from tabletop.importers.kdc_json import MAX_FILE_BYTES
from tabletop.scenario.io import load_scenario
from tabletop.survey import run as survey_run
from tabletop.survey import store
from tabletop.survey.jobs import parse_bases, plan
from tabletop.survey.report import build_report
from tabletop.survey.scheduler import connect, probe

from support import kdc_toys
from support.fake_servers import MODES, fake_scheduler
from support.hostile import HOSTILE_NUMBERS, HOSTILE_STRINGS, mutated_doc
from support.hostile_files import LATIN1, deep_json, long_number

KDC_FILES = ("templates", "layouts", "deployments", "units")
BOMBS = ("templates-fan-out", "zone-1000000-points", "layout-200000-pieces")
"""Named changes too big to write 25,000 times (each has its regression test): the fuzzer
draws smaller ones of the same kinds (:func:`_scaled`)."""


OVER_LIMIT = MAX_FILE_BYTES + 1024
"""Bytes a drawn 40kdc file is cut to when a mutation made it larger: just over the importer's
20 MB limit. A zone of 20,000 points repeated 300 times made a 200 MB file that took the harness
7 s of CPU to write, counted in the input's time (the program refuses it by its size at once)."""


def _rarely(draw: st.DrawFn, n: int) -> bool:
    return bool(draw(st.integers(0, n - 1)) == n - 1)


# -- the importer ----------------------------------------------------------------------------

def _scaled(draw: st.DrawFn, data: kdc_toys.Data, key: str) -> None:
    """A bulk change around the limits: fan-out, many pieces, zone points, objectives."""
    if key == "templates":
        kdc_toys.fan_out(data, depth=draw(st.integers(1, 6)), width=draw(st.integers(1, 12)))
    elif key == "layouts":
        n = draw(st.sampled_from([100, 999, 1_000, 1_001, 5_000]))
        pieces = data.layouts[0]["pieces"]
        data.layouts[0]["pieces"] = [dict(pieces[k % len(pieces)], id=f"p{k}")
                                     for k in range(n)]
        if _rarely(draw, 3):  # parents in a chain
            for k, p in enumerate(data.layouts[0]["pieces"][:40]):
                if k:
                    p["parent_area_id"] = f"p{k - 1}"
    elif key == "deployments":
        n = draw(st.sampled_from([3, 64, 65, 1_000, 20_000]))
        if draw(st.booleans()):
            data.deployments[0]["zones"][0]["shape"] = {"type": "polygon", "points": [
                {"x": round(6 + 5 * math.cos(2 * math.pi * k / n), 6),
                 "y": round(22 + 5 * math.sin(2 * math.pi * k / n), 6)} for k in range(n)]}
        else:
            data.deployments[0]["objectives"] = [{"x": 30, "y": 22}] * n


def _damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """``data`` as text damaged: a flipped bit, cut short, bytes inserted, nesting, a BOM,
    another encoding, a 5,000-digit number."""
    if not data:
        return data
    i = draw(st.integers(0, len(data) - 1))
    kind = draw(st.sampled_from(["flip", "cut", "insert", "deep", "bom", "latin1", "digits"]))
    if kind == "flip":
        return data[:i] + bytes([data[i] ^ (1 << draw(st.integers(0, 7)))]) + data[i + 1:]
    if kind == "cut":
        return data[:i]
    if kind == "insert":
        return data[:i] + draw(st.binary(min_size=1, max_size=8)) + data[i:]
    if kind == "deep":
        n = draw(st.sampled_from([40, 70, 1000, 100_000]))
        return data[:i] + deep_json(n).encode() + data[i:]
    if kind == "bom":
        return b"\xef\xbb\xbf" + data
    if kind == "digits":
        return data[:i] + long_number(draw(st.sampled_from([400, 4_301, 5_000]))).encode() \
            + data[i:]
    return data.replace(b"o", LATIN1[:3], 3)


def _csv_cell(draw: st.DrawFn, data: kdc_toys.Data) -> None:
    """A cell of the units file given a hostile value (a number, a string, a quote)."""
    rows = data.units
    row = draw(st.sampled_from(rows))
    col = draw(st.sampled_from(kdc_toys.COLUMNS))
    value = draw(st.one_of(st.sampled_from([str(v) for v in HOSTILE_NUMBERS]),
                           st.sampled_from(HOSTILE_STRINGS[:-12]),
                           st.sampled_from(['"', '"x', "a,b", "\n", "0", "-1", "", "1e400"]),
                           st.text(max_size=12)))
    row[col] = value.replace("\x00", "").replace("\ud800", "?")


@st.composite
def kdc_files(draw: st.DrawFn, key: str) -> kdc_toys.Data:
    """The toy 40kdc data set with its ``key`` file (``templates``, ``layouts``,
    ``deployments``, ``units``) changed 1 to 3 times: a named hostile change of issue 28, a
    mutation of its structure or cells, a bulk change near a limit, damaged bytes."""
    data = kdc_toys.Data()
    named = [n for n, (k, _) in kdc_toys.HOSTILE.items() if k == key and n not in BOMBS]
    for _ in range(draw(st.integers(1, 3))):
        value = getattr(data, key)
        kind = draw(st.sampled_from(["named", "mutate", "mutate", "mutate", "scaled", "bytes"]))
        if kind == "named" and named:
            change = kdc_toys.HOSTILE[draw(st.sampled_from(named))][1]
            with contextlib.suppress(Exception):  # (a change an earlier one broke: skipped)
                change(data)
        elif kind == "mutate" and isinstance(value, list) and key == "units":
            _csv_cell(draw, data)
        elif kind == "mutate" and isinstance(value, list | dict):
            setattr(data, key, draw(mutated_doc(value)))
        elif kind == "scaled" and isinstance(value, list):
            with contextlib.suppress(Exception):  # (a change an earlier one broke: skipped)
                _scaled(draw, data, key)
        elif kind == "bytes":
            raw = kdc_toys.write_bytes(data, key)
            setattr(data, key, _damaged(draw, raw))
        if kind in ("mutate", "scaled") and not isinstance(getattr(data, key), bytes):
            raw = kdc_toys.write_bytes(data, key, OVER_LIMIT + 1)
            if len(raw) > OVER_LIMIT:  # (refused by its size alike, and cheap to write)
                setattr(data, key, raw[:OVER_LIMIT])
    return data


ARMIES = ["Trooper Squad x10, Walker", "Rider Squad", "Trooper Squad x5", "toys/Walker",
          "Rider Squad x6, Trooper Squad", "nobody", "Trooper Squad x100000000"]


def run_kdc(key: str, data: kdc_toys.Data) -> str:
    """``tabletop import-layout`` (and ``tabletop new`` when ``key`` is the units file) on the
    data written to a scratch folder: exit 0 with a scenario that loads back, or exit 2."""
    with tempfile.TemporaryDirectory() as folder:
        paths = kdc_toys.write(Path(folder), data)
        out = Path(folder) / "out.toml"
        argv = ["import-layout", str(paths["layouts"]), "--layout", kdc_toys.LAYOUT, "-o",
                str(out)]
        if key == "units":
            argv = ["new", "--units", str(paths["units"]), "--layouts", str(paths["layouts"]),
                    "--deployments", str(paths["deployments"]), "--layout", kdc_toys.LAYOUT,
                    "--red", ARMIES[len(str(data.units)) % len(ARMIES)], "-o", str(out)]
        code = _cli(argv)
        if code == 0:
            load_scenario(out)  # what was written loads back, with every check
        return "accepted" if code == 0 else "refused"


def _cli(argv: list[str]) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    assert "Traceback" not in err.getvalue()
    assert code in (0, 1, 2), (code, err.getvalue()[-300:])
    if code == 2:
        assert err.getvalue().strip(), "refused without a word"
    return int(code)


# -- survey folders --------------------------------------------------------------------------


class InlinePool:
    """The local executor's interface, running each chunk at once in this process (the
    fuzzer tests the folder, not the process pool: spawning workers 10,000 times would be
    most of its time)."""

    name = "local"

    def __init__(self, workers: int) -> None:
        self.workers = 1

    def submit(self, job_fn: Any, chunk: Any) -> Future[list[dict[str, Any]]]:
        fut: Future[list[dict[str, Any]]] = Future()
        fut.set_result(survey_run.run_chunk(job_fn, chunk.jobs))
        return fut

    @staticmethod
    def lost_pool(exc: BaseException) -> bool:
        return False

    @staticmethod
    def gave_up(exc: BaseException) -> bool:
        return False

    def recover(self) -> set[str]:
        return set()

    def close(self, *, now: bool = False) -> None:
        pass


@cache
def _survey() -> tuple[dict[str, Any], dict[str, bytes]]:
    """The plan of a small survey of the toy data (gap-fit and advance odds of two bases) and
    the files of its finished folder."""
    root = Path(tempfile.mkdtemp(prefix="tabletop-fuzz-survey-"))
    try:
        paths = kdc_toys.write(root / "data")
        the_plan = plan(paths["layouts"], bases=parse_bases("32mm,oval 60x35mm"))
        the_plan["jobs"] = [j for j in the_plan["jobs"] if j["measure"] != "reach"]
        with mock.patch.object(survey_run, "_Local", InlinePool):
            survey_run.run_survey(the_plan, root / "out", progress=False)
        files = {str(p.relative_to(root / "out")): p.read_bytes()
                 for p in (root / "out").rglob("*") if p.is_file()}
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return the_plan, files


FOLDER_CHANGES = ["edit-value", "edit-seconds", "drop-checksum", "cut", "flip", "deep",
                  "digits", "not-utf8", "empty", "null", "fifo", "folder", "delete",
                  "plan-deep", "plan-cut", "plan-other", "plan-delete", "plan-fifo",
                  "results-file", "extra-file", "lock-held", "devzero", "foreign"]


@st.composite
def survey_folders(draw: st.DrawFn) -> list[tuple[str, int, int]]:
    """1 to 4 changes to a finished survey's folder: ``(change, which result, a byte)``."""
    return draw(st.lists(st.tuples(st.sampled_from(FOLDER_CHANGES), st.integers(0, 50),
                                   st.integers(0, 10_000)), min_size=1, max_size=4))


def _change(out: Path, change: str, which: int, byte: int, held: list[int]) -> None:
    results = sorted((out / "results").glob("*.json")) if (out / "results").is_dir() else []
    path = results[which % len(results)] if results else out / "results" / "x.json"
    plan_path = out / "plan.json"
    if (path.is_fifo() and not change.startswith(("plan-", "lock-"))) or (
            plan_path.is_fifo() and change in ("plan-deep", "plan-cut", "plan-other")):
        return  # (writing to a FIFO an earlier change made would wait for a reader forever)
    with contextlib.suppress(Exception):  # (an edit of a file an earlier change broke)
        data = path.read_bytes() if path.is_file() else b""
        if change in ("edit-value", "edit-seconds", "drop-checksum", "foreign") and data:
            doc = json.loads(data)
            if change == "edit-value":
                doc["value"] = {"edited": byte}
            elif change == "edit-seconds":
                doc["seconds"] = byte / 7
            elif change == "foreign":
                doc["job"] = {**doc.get("job", {}), "params": {"n": byte}}
            else:
                doc.pop("checksum", None)
            path.write_text(json.dumps(doc))
        elif change == "cut" and data:
            path.write_bytes(data[:byte % len(data)])
        elif change == "flip" and data:
            i = byte % len(data)
            path.write_bytes(data[:i] + bytes([data[i] ^ 1]) + data[i + 1:])
        elif change == "deep":
            path.write_text(deep_json())
        elif change == "digits":
            path.write_text(f'{{"id": "x", "n": {long_number()}}}')
        elif change == "not-utf8":
            path.write_bytes(LATIN1)
        elif change == "empty":
            path.write_bytes(b"")
        elif change == "null":
            path.write_text("null")
        elif change in ("fifo", "plan-fifo"):
            target = plan_path if change == "plan-fifo" else path
            target.unlink(missing_ok=True)
            os.mkfifo(target)
        elif change == "folder":
            path.unlink(missing_ok=True)
            path.mkdir()
        elif change == "delete":
            path.unlink(missing_ok=True)
        elif change == "plan-deep":
            plan_path.write_text(deep_json())
        elif change == "plan-cut" and plan_path.is_file():
            plan_path.write_bytes(plan_path.read_bytes()[:byte])
        elif change == "plan-other" and plan_path.is_file():
            doc = json.loads(plan_path.read_bytes())
            doc["jobs"][which % len(doc["jobs"])]["params"] = {"other": byte}
            plan_path.write_text(json.dumps(doc))
        elif change == "plan-delete":
            plan_path.unlink(missing_ok=True)
        elif change == "results-file":
            shutil.rmtree(out / "results", ignore_errors=True)
            (out / "results").write_text("not a folder")
        elif change == "extra-file":
            (out / f"notes-{byte}.txt").write_text("mine")
        elif change == "lock-held":
            fd = os.open(out / store.LOCK_FILE, os.O_RDWR | os.O_CREAT)
            held.append(fd)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # (held already: OSError)
        elif change == "devzero":
            path.unlink(missing_ok=True)
            path.symlink_to("/dev/zero")


def run_survey_folder(changes: list[tuple[str, int, int]]) -> str:
    """The finished toy survey's folder with ``changes``, then the same survey run again
    (jobs in this process) and its report written: accepted, or refused with one line. An
    accepted run leaves every job of the plan its sealed result, and a report."""
    the_plan, files = _survey()
    held: list[int] = []
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "out"
        for name, data in files.items():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            (out / name).write_bytes(data)
        try:
            for change in changes:
                _change(out, *change, held)
            with mock.patch.object(survey_run, "_Local", InlinePool):
                survey_run.run_survey(the_plan, out, progress=False)
            build_report(out)
        except UserError as exc:
            assert exc.lines and all("\n" not in line for line in exc.lines)
            return "refused"
        finally:
            for fd in held:
                os.close(fd)
            for p in out.rglob("*"):  # a FIFO left would block nothing, but tidy up
                if p.is_fifo():
                    p.unlink()
        opened = store.Folder.open(out, the_plan)
        for job in the_plan["jobs"]:
            assert opened.status(job) in ("done", "failed"), (job["id"], opened.redone)
        assert (out / "report.html").is_file()
    return "accepted"


# -- scheduler addresses ---------------------------------------------------------------------

PROBE_TIMEOUT = 0.5
"""Seconds the fuzzer gives an address (the command gives 10)."""


@st.composite
def scheduler_answers(draw: st.DrawFn) -> tuple[str, bytes | None]:
    """What answers at the address: one of the fake servers' modes, random bytes, or a frame
    that looks like a Dask greeting (a plausible length, sometimes the handshake's keys)."""
    kind = draw(st.sampled_from(["mode", "bytes", "greeting"]))
    if kind == "mode":
        return draw(st.sampled_from(MODES)), None
    if kind == "bytes":
        return "bytes", draw(st.binary(max_size=200))
    body = draw(st.binary(max_size=120))
    if draw(st.booleans()):
        body += b"pickle-protocol"
    size = draw(st.sampled_from([len(body), len(body) + 5, 3 << 60, 0]))
    return "bytes", size.to_bytes(8, "little") + body


def run_scheduler(mode: str, payload: bytes | None) -> str:
    """Probe (and, if the probe passes, connect to) a fake server on 127.0.0.1 answering
    ``payload`` (or as ``mode``): refused in one line within the timeout, or connected."""
    with fake_scheduler(mode if payload is None else "silent", payload=payload) as address:
        try:
            probe(address, PROBE_TIMEOUT)
            client = connect(address, PROBE_TIMEOUT)
        except UserError as exc:
            assert len(exc.lines) == 1 and address in exc.lines[0]
            return "refused"
        with contextlib.suppress(Exception):
            client.close()
    return "accepted"


__all__ = ["KDC_FILES", "InlinePool", "kdc_files", "run_kdc", "run_scheduler",
           "run_survey_folder", "scheduler_answers", "survey_folders"]

"""A survey's folder on disk: its plan, one sealed result per job, and who may write to it.

OUT_DIR holds:

- ``plan.json``: the plan with the scenario texts left out of its jobs (each job holds
  ``scenario_sha256``, the SHA-256 of its scenario's text instead). It is written when the
  folder is new, when the plan extends the one there (jobs added), or when the one there is
  not a plan at all (corrupt: said in one line); a plan that is the same is never written again,
  so a finished survey on read-only storage can be run again (nothing to do) and reported;
- ``results/<id>.json``: one job's result, *sealed*: besides the job's own result (``id``,
  ``job``, ``ok``, ``error``, ``seconds``, ``value``) it holds ``scenario_sha256`` and
  ``checksum``, the SHA-256 of the rest of the result as canonical JSON (:func:`checksum`), so
  the result's content and the job it answers are both covered. On resume a result is trusted
  only if it is the result of this very job (same id, job and scenario) and its checksum holds:
  an edited, cut or corrupt result, or one without a checksum, is done again, and the command
  says so in one line;
- ``.survey.lock``: locked (``flock``) by the run writing to the folder, so that a second run
  of the same folder does not do the same work: it is refused with the process id of the first.
  The kernel drops the lock when that process ends, however it ends.

Every file is read as a regular file of bounded size (:func:`tabletop.files.read_regular`): a
FIFO or a folder named like a result is refused with one line, never waited on.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.errors import UserError, idents, printable, quote
from tabletop.files import (
    atomic_write,
    collector_paused,
    decode_utf8,
    json_error,
    nested_deeper,
    read_regular,
)

__all__ = ["CHECKSUM", "LOCK_FILE", "PLAN_FILE", "RESULTS", "Folder", "checksum", "load_results",
           "read_result", "seal", "unsealed"]

PLAN_FILE = "plan.json"
RESULTS = "results"
"""The folder of OUT_DIR holding one ``<id>.json`` per job."""
LOCK_FILE = ".survey.lock"
CHECKSUM = "checksum"
"""The key of a result's seal."""
PLAN_BYTES = 64 << 20
"""Largest plan.json read: 64 MB, five times the full survey's plan (19,800 jobs, about 12 MB);
a larger one is corrupt (written again). At 1 GB, reading and refusing a plan.json of zeros took
49 s and a gigabyte of memory."""
RESULT_BYTES = 16 << 20
"""Largest result file read: 16 MB (a reach result with its regions is under 1 MB); a larger one
is done again."""
DEPTH = 64
"""Deepest nesting of a plan or a result read (they need under 10)."""
MADE_HERE = re.compile(r"(results|\.survey\.lock|report.*|card.*|layouts)")
"""What a survey writes in its folder: such files and no plan.json mean a plan was lost."""


# -- jobs as the folder holds them -------------------------------------------------------------


def sha(text: str) -> str:
    """SHA-256 of ``text`` (UTF-8), hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def record(job: dict[str, Any]) -> dict[str, Any]:
    """``job`` as plan.json holds it: without its scenario text, with the text's SHA-256."""
    out = {k: v for k, v in job.items() if k != "scenario"}
    out["scenario_sha256"] = sha(str(job.get("scenario", "")))
    return out


def bare(job: dict[str, Any]) -> dict[str, Any]:
    """``job`` as a result holds it (the contract's "job"): without its scenario text."""
    return {k: v for k, v in job.items() if k not in ("scenario", "scenario_sha256")}


def plan_record(plan: dict[str, Any]) -> dict[str, Any]:
    """``plan`` as plan.json holds it."""
    out = dict(plan)
    out["jobs"] = [record(j) for j in plan["jobs"]]
    return out


# -- sealed results --------------------------------------------------------------------------


def checksum(result: dict[str, Any]) -> str:
    """SHA-256 of ``result`` without its ``checksum``, as canonical JSON (sorted keys, no
    spaces, ASCII): what a result file read back gives again, whatever its layout."""
    body = {k: v for k, v in result.items() if k != CHECKSUM}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def seal(result: dict[str, Any]) -> dict[str, Any]:
    """``result`` with its ``checksum``."""
    body = {k: v for k, v in result.items() if k != CHECKSUM}
    return {**body, CHECKSUM: checksum(body)}


def unsealed(result: dict[str, Any]) -> str | None:
    """Why ``result``'s seal does not hold (no checksum, or one that does not match: edited or
    corrupt), or ``None`` when it holds."""
    if CHECKSUM not in result:
        return "no checksum (written by an earlier version, or edited)"
    try:
        ok = result[CHECKSUM] == checksum(result)
    except (TypeError, ValueError):  # NaN or other non-JSON values put in by hand
        ok = False
    return None if ok else "edited or corrupt (the checksum does not match)"


def read_result(path: Path) -> dict[str, Any] | str:
    """The result in ``path``, or why it is not one (not JSON, not an object). A FIFO, a
    folder or a device there is a :class:`~tabletop.errors.UserError`: it cannot be replaced
    by a result either."""
    try:
        data = read_regular(path, RESULT_BYTES, what="a survey result; remove it")
    except UserError as exc:
        if "too large" in exc.lines[0]:
            return "too large"
        raise
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        return f"unreadable ({exc.strerror or exc})"
    try:
        text = data.decode("utf-8")
        with collector_paused():
            value = json.loads(text)
    except (ValueError, RecursionError):  # cut short, not UTF-8, 100,000 deep, 5,000 digits
        return "not valid JSON"
    if nested_deeper(text, DEPTH):
        return "not valid JSON"
    return value if isinstance(value, dict) else "not a JSON object"


def load_results(out_dir: str | os.PathLike[str]) -> dict[str, dict[str, Any]]:
    """The results in ``OUT_DIR/results`` by job id (files that are not valid JSON objects
    with a string ``id`` left out; a FIFO or a folder among them is a
    :class:`~tabletop.errors.UserError`). Their seals are not checked here:
    :func:`unsealed` says whether one holds."""
    folder = Path(out_dir) / RESULTS
    out: dict[str, dict[str, Any]] = {}
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        result = read_result(path)
        if isinstance(result, dict) and isinstance(result.get("id"), str):
            out[result["id"]] = result
    return out


# -- the folder ------------------------------------------------------------------------------


@dataclass
class Folder:
    """OUT_DIR of one run of a plan: checked on opening (nothing written), then locked and
    written only when there is something to write.

    ``status(job)`` says whether a job's result is there (``"done"``, ``"failed"``, or
    ``"missing"``) or why it must be done again."""

    out: Path
    plan: dict[str, Any]
    plan_state: str = "new"
    """``"same"`` (plan.json holds this plan), ``"extends"`` (this plan adds jobs to it),
    ``"new"`` (no plan.json) or ``"corrupt"`` (a plan.json that is no plan)."""
    notes: list[str] = field(default_factory=list)
    """One-line notes for the user (a corrupt plan.json written again, results redone)."""
    redone: dict[str, str] = field(default_factory=dict)
    """Job id -> why its result file is done again."""
    _lock: int | None = None

    @classmethod
    def open(cls, out_dir: str | os.PathLike[str], plan: dict[str, Any]) -> Folder:
        """Check OUT_DIR for ``plan`` without writing anything (see the module)."""
        out = Path(out_dir)
        shown = printable(str(out))
        if out.exists() and not out.is_dir():
            raise UserError(f"{shown}: exists and is not a folder; give the folder to write "
                            "the survey in (it is made if missing)")
        folder = cls(out, plan)
        plan_path = out / PLAN_FILE
        if plan_path.exists() or plan_path.is_symlink():
            folder.plan_state = folder._compare(plan_path)
        if folder.plan_state in ("new", "corrupt") and out.is_dir():
            others = sorted(p.name for p in out.iterdir()
                            if p.name != PLAN_FILE and not MADE_HERE.fullmatch(p.name))
            if others:
                raise UserError(f"{shown}: the folder holds other files and no survey "
                                f"({PLAN_FILE}; {idents(others, shown=3)}); give a new or empty "
                                "folder")
        results = out / RESULTS
        if results.exists() and not results.is_dir():
            raise UserError(f"{printable(str(results))}: is not a folder; remove it")
        return folder

    def _compare(self, path: Path) -> str:
        """How the plan.json there stands to this plan (refusing another plan)."""
        shown = printable(str(path))
        with contextlib.suppress(OSError):
            if path.is_file() and (size := path.stat().st_size) > PLAN_BYTES:
                self.notes.append(f"{shown}: was not a survey plan (the file is too large: "
                                  f"{size:,} bytes; a plan has at most {PLAN_BYTES >> 20} MB): "
                                  "written again; each result there is checked against its job")
                return "corrupt"
        try:
            data = read_regular(path, PLAN_BYTES, what="a survey plan")
        except OSError as exc:
            raise UserError(f"{shown}: cannot read it ({exc.strerror or exc})") from None
        try:
            text = decode_utf8(data, str(path))
            try:
                with collector_paused():
                    old = json.loads(text)
            except (ValueError, RecursionError) as exc:
                raise json_error(exc, text, str(path), DEPTH) from None
            if nested_deeper(text, DEPTH):
                raise json_error(RecursionError(), text, str(path), DEPTH)
            old_jobs = {j["id"]: j for j in old["jobs"]}
        except (UserError, KeyError, TypeError) as exc:
            why = exc.lines[0].removeprefix(f"{shown}: ") if isinstance(exc, UserError) \
                else "no list of jobs with ids"
            self.notes.append(f"{shown}: was not a survey plan ({why}): written again; each "
                              "result there is checked against its job")
            return "corrupt"
        new = plan_record(self.plan)
        new_jobs = {j["id"]: j for j in new["jobs"]}
        differ = [jid for jid, job in old_jobs.items() if new_jobs.get(jid) != job]
        if old.get("version") != new.get("version") or differ:
            example = f", e.g. {quote(differ[0])}" if differ else ""
            raise UserError(
                f"{shown}: the folder holds the survey of another plan ({len(differ)} of its "
                f"{len(old_jobs)} jobs are not in this one or differ{example}); give a new -o "
                "folder, or the same layouts, deployments and bases (a plan that only adds "
                "jobs is accepted)")
        return "same" if old == new else "extends"

    # -- reading ---------------------------------------------------------------------------

    def status(self, job: dict[str, Any]) -> str:
        """``"missing"``, ``"done"`` or ``"failed"`` for the result file of ``job``; a result
        that is not this job's sealed result is recorded in :attr:`redone` and is
        ``"missing"``."""
        path = self.out / RESULTS / f"{job['id']}.json"
        if not (path.exists() or path.is_symlink()):
            return "missing"
        result = read_result(path)
        why: str | None
        if isinstance(result, str):
            self.redone[job["id"]] = result
            return "missing"
        if result.get("id") != job["id"] or result.get("job") != bare(job):
            why = "the result of another plan's job"
        elif result.get("scenario_sha256") != sha(str(job.get("scenario", ""))):
            why = "the result of another board"
        else:
            why = unsealed(result)
        if why is not None:
            self.redone[job["id"]] = why
            return "missing"
        return "done" if result.get("ok") else "failed"

    def redone_note(self) -> str | None:
        """One line on the result files done again, or ``None``."""
        if not self.redone:
            return None
        kinds = Counter(self.redone.values())
        what = ", ".join(f"{n} {why}" for why, n in kinds.most_common())
        return (f"{len(self.redone):,} result file{'s' if len(self.redone) > 1 else ''} in "
                f"{printable(str(self.out / RESULTS))} done again ({what}): "
                f"{idents(sorted(self.redone), shown=5)}")

    # -- writing -----------------------------------------------------------------------------

    def lock(self) -> bool:
        """Take the folder's lock (making the folder if it is missing); ``False`` when the
        folder cannot be written (read-only storage: nothing may be written then). A lock
        another process holds is a :class:`~tabletop.errors.UserError` naming it."""
        path = self.out / LOCK_FILE
        try:
            self.out.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0)
                         | getattr(os, "O_NOFOLLOW", 0), 0o644)
        except OSError as exc:
            if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
                return False
            raise UserError(f"{printable(str(self.out))}: cannot make the folder or its lock: "
                            f"{exc.strerror or exc}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise UserError(f"{printable(str(self.out))}: another tabletop survey (process "
                            f"{ident_pid(holder)}) is running in this folder; wait for it to "
                            "end, or give another -o folder") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self._lock = fd
        return True

    def unlock(self) -> None:
        """Release the lock (the kernel does it anyway when the process ends)."""
        if self._lock is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock)
            self._lock = None

    def write_plan(self) -> Path:
        """Make the results folder and write plan.json unless it already holds this plan;
        the results folder."""
        results = self.out / RESULTS
        try:
            results.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"{printable(str(self.out))}: cannot make the folder: "
                            f"{exc.strerror or exc}") from None
        if self.plan_state != "same":
            atomic_write(self.out / PLAN_FILE,
                         json.dumps(plan_record(self.plan), indent=1) + "\n")
            self.plan_state = "same"
        return results


def ident_pid(text: str) -> str:
    """A process id read from a lock file, as it goes into a message."""
    return text if text.isdigit() and len(text) < 12 else quote(text)


def failures(results: Iterable[tuple[str, dict[str, Any]]]) -> dict[str, str]:
    """Job id -> error of each failed result of ``results``."""
    return {jid: str(r.get("error") or "failed without a message") for jid, r in results
            if not r.get("ok")}

"""A cheap survey job and hand-made plans, so the runner's tests check the runner.

Worker processes import :func:`toy_job` from here: they are spawned with the test process's
``sys.path``, which holds ``tests/``.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

from tabletop.survey import run as survey_run


def toy_job(job: dict[str, Any]) -> dict[str, Any]:
    """A job of a hand-made plan: logs its call, may sleep, kill its worker or raise."""
    params = job["params"]
    ctl = Path(params["ctl"])
    with open(ctl / "calls.log", "a", encoding="ascii") as fh:
        fh.write(job["id"] + "\n")
    kill = params.get("kill")
    marker = survey_run.running_marker()
    if kill == "unmarked" and marker is not None:  # as if between two chunks
        marker.unlink()
    if kill in ("always", "unmarked") or (kill == "once" and _first(ctl / f"{job['id']}.killed")):
        os.kill(os.getpid(), signal.SIGKILL)
    if params.get("raise"):
        raise RuntimeError(f"no answer for {job['id']}")
    time.sleep(params.get("sleep", 0.0))
    n = params["n"]
    return {"id": job["id"], "job": {k: v for k, v in job.items() if k != "scenario"},
            "ok": True, "error": None, "seconds": 0.001,
            "value": {"square": n * n, "board": job["board"]}}


def _first(flag: Path) -> bool:
    try:
        os.close(os.open(flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return False
    return True


def toy_plan(ctl: Path, boards: int = 2, per_board: int = 5, **special: dict[str, Any]
             ) -> dict[str, Any]:
    """``boards`` x ``per_board`` jobs; ``special`` maps a job id to extra params."""
    jobs = []
    for b in range(boards):
        for i in range(per_board):
            jid = f"b{b}-j{i}"
            jobs.append({"id": jid, "board": f"layout{b}__map", "layout": f"layout{b}",
                         "deployment": "map", "scenario": f"board {b}\n", "base": {"name": "x"},
                         "measure": "toy", "side": None,
                         "params": {"n": 10 * b + i, "ctl": str(ctl), **special.get(jid, {})}})
    return {"version": 1, "layouts": [], "deployments": [], "bases": [], "boards": {},
            "jobs": jobs}

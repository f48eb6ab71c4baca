"""Reading a survey's OUT_DIR for the report: ``plan.json`` and ``results/*.json`` (#16).

The files follow the survey contract (``tabletop.survey.jobs``); they are read through pydantic
models that keep the keys the report uses and ignore any other (the contract grows by new keys
only). A plan the report cannot use is a :class:`~tabletop.errors.UserError` naming the file
and the field; a result whose value does not have its measure's shape counts as a failed job
with that message, and a result file that is not JSON as missing (a rerun does it again), so
one bad file never stops the report.
Geometries arrive as WKT and leave as shapely geometries.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import shapely
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from shapely.geometry.base import BaseGeometry

from tabletop.errors import UserError, printable, quote
from tabletop.files import read_json
from tabletop.scenario.messages import format_path
from tabletop.survey.measures import PHASE_CAP
from tabletop.survey.store import CHECKSUM, PLAN_BYTES, PLAN_FILE, RESULTS, load_results, unsealed

__all__ = [
    "AdvanceOdds",
    "Base",
    "BoardInfo",
    "GapFit",
    "Job",
    "Mark",
    "Plan",
    "Reach",
    "Result",
    "Survey",
    "counted",
    "load",
]



def counted(phases: int | None) -> int:
    """Phases as the report adds them up: an objective out of reach (``None``: not within
    :data:`~tabletop.survey.measures.PHASE_CAP` phases) counts as one phase more than the cap."""
    return PHASE_CAP + 1 if phases is None else phases


def _from_wkt(value: object) -> object:
    if isinstance(value, str):
        try:
            return shapely.from_wkt(value)
        except shapely.errors.GEOSException as exc:
            raise ValueError(f"not a WKT geometry ({exc})") from None
    return value


def _number_key(value: str) -> str:
    try:
        ok = math.isfinite(float(value))
    except ValueError:
        ok = False
    if not ok:
        raise ValueError("a key of M must be a number, like \"6\"")
    return value


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, arbitrary_types_allowed=True)


Num = Annotated[float, Field(allow_inf_nan=False)]
XY = tuple[Num, Num]
Geometry = Annotated[BaseGeometry, BeforeValidator(_from_wkt)]
MKey = Annotated[str, AfterValidator(_number_key)]
"""A value of M as the results' keys write it (``"6"``)."""


class Base(_Model):
    """A catalogue entry."""

    name: str
    units: int = 0
    width: Num
    length: Num


class Piece(_Model):
    id: str
    kind: str
    wkt: Geometry


class Mark(_Model):
    """A table set-up measurement (:mod:`tabletop.survey.setup`)."""

    piece: str
    name: str | None = None
    edge: Literal["left", "right", "top", "bottom"]
    distance: Num
    at: XY


class BoardInfo(_Model):
    board: str
    layout: str
    deployment: str
    name: str | None = None
    credit: str | None = None
    own: bool = True
    """Whether the deployment map is the layout's own (plans before #29 had no such key)."""
    mission: str | None = None
    source: str = "40kdc"
    width: Num = 60.0
    height: Num = 44.0
    terrain: list[Piece] = []
    zones: dict[str, Geometry] = {}
    objectives: list[XY] = []
    setup: list[Mark] = []
    setup_source: str = "keystones"


class Job(_Model):
    id: str
    board: str
    layout: str
    deployment: str
    base: Base
    measure: str
    side: str | None = None
    params: dict[str, Any] = {}


class Plan(_Model):
    version: int
    bases: list[Base] = []
    boards: dict[str, BoardInfo]
    jobs: list[Job]


class Passage(_Model):
    a: str
    b: str
    edge: str | None = None
    width: Num
    passes: bool
    facing: Num | None = None
    neck: tuple[XY, XY]
    shut_by: str | None = None
    needs: Num | None = None
    spare: Num | None = None
    """Clearance at the roomiest facing (``width - needs``); ``None`` in older results."""
    facings: tuple[Num, Num] | None = None


class GapFit(_Model):
    passages: list[Passage]
    stopped_by: list[str] | None = None
    """The pieces that stop the base (``None`` in results older than #29)."""
    stops: str | None = None


class Reach(_Model):
    objectives: list[XY]
    moves: dict[MKey, list[int | None]]
    centre: dict[MKey, int | None] = {}
    area: dict[MKey, list[Num]]
    rings: dict[MKey, list[Geometry]] = {}


class Band(_Model):
    roll: int
    p: Num
    wkt: Geometry


class AdvanceOdds(_Model):
    M: Num
    start: XY
    bands: list[Band]
    objectives: list[int | None] | None = None
    """The least roll that brings the base within range of each objective (``None``)."""
    centre: int | None = None


VALUES: dict[str, type[_Model]] = {"gap-fit": GapFit, "reach": Reach, "advance-odds": AdvanceOdds}


class Result(_Model):
    id: str
    ok: bool
    error: str | None = None
    seconds: Num = 0.0
    value: dict[str, Any] | None = None


def _problems(exc: ValidationError, shown: int = 5) -> str:
    errs = exc.errors()
    lines = [f"{format_path(e['loc']) or '(top)'}: {e['msg']}" for e in errs[:shown]]
    if len(errs) > shown:
        lines.append(f"and {len(errs) - shown} more")
    return "; ".join(lines)


@dataclass
class Survey:
    """What the report is built from: the plan, and every job's outcome."""

    out_dir: Path
    plan: Plan
    raw_plan: dict[str, Any]
    values: dict[str, GapFit | Reach | AdvanceOdds] = field(default_factory=dict)
    """The value of every job that succeeded, by job id."""
    failed: dict[str, str] = field(default_factory=dict)
    """The error of every job that failed (or whose result file is unusable), by job id."""
    seconds: float = 0.0
    """Compute time of the results read, summed."""
    stray: int = 0
    """Results that match no job of the plan."""
    results: list[dict[str, Any]] = field(default_factory=list)
    """The usable result files as read (the contract's dicts, for ``jobs.balance``)."""

    @property
    def missing(self) -> list[Job]:
        """The jobs of the plan without a result file."""
        return [j for j in self.plan.jobs if j.id not in self.values and j.id not in self.failed]


def _read_json(path: Path, name: str) -> Any:
    """A JSON file of the survey (a regular file, bounded: :func:`tabletop.files.read_json`)."""
    try:
        return read_json(path, PLAN_BYTES, what="a survey plan")
    except FileNotFoundError:
        raise UserError(f"{printable(str(path))}: no such file; {name}") from None
    except OSError as exc:
        raise UserError(f"{printable(str(path))}: not a readable JSON file "
                        f"({printable(exc.strerror or str(exc))})") from None


def load(out_dir: str | Path) -> Survey:
    """Read ``OUT_DIR/plan.json`` and the results beside it (``run.load_results``: a result
    file that is not valid JSON counts as missing, as a rerun does it again)."""
    out = Path(out_dir)
    plan_path = out / PLAN_FILE
    raw = _read_json(plan_path, "a survey's folder holds the plan.json that 'tabletop survey "
                     "... -o OUT_DIR' writes")
    try:
        plan = Plan.model_validate(raw)
    except ValidationError as exc:
        raise UserError(f"{printable(str(plan_path))}: not a survey plan: {_problems(exc)}"
                        ) from None
    unknown = sorted({j.board for j in plan.jobs} - set(plan.boards))
    if unknown:
        raise UserError(f"{printable(str(plan_path))}: jobs name boards that 'boards' does not "
                        f"have: {', '.join(quote(b) for b in unknown[:5])}")
    survey = Survey(out, plan, raw)
    jobs = {j.id: j for j in plan.jobs}
    for job_id, result in sorted(load_results(out).items()):
        job = jobs.get(job_id)
        if job is None:
            survey.stray += 1
        else:
            _take(survey, job, result)
    return survey


def _take(survey: Survey, job: Job, raw: dict[str, Any]) -> None:
    where = f"{RESULTS}/{job.id}.json"
    if CHECKSUM in raw and unsealed(raw):  # edited or corrupt since it was written
        survey.failed[job.id] = f"{where}: {unsealed(raw)}; run the survey again to redo it"
        return
    try:
        result = Result.model_validate(raw)
    except ValidationError as exc:
        survey.failed[job.id] = f"{where}: not a survey result: {_problems(exc)}"
        return
    survey.seconds += result.seconds
    if not result.ok:
        survey.failed[job.id] = result.error or "failed without a message"
        return
    model = VALUES.get(job.measure)
    if model is None:
        survey.failed[job.id] = f"{where}: unknown measure {quote(job.measure)}"
        return
    try:
        survey.values[job.id] = model.model_validate(result.value)  # type: ignore[assignment]
    except ValidationError as exc:
        survey.failed[job.id] = f"{where}: the value is not a {job.measure} value: {_problems(exc)}"
        return
    survey.results.append(raw)


def of_measure(survey: Survey, measure: str, jobs: Iterable[Job]) -> Iterable[tuple[Job, Any]]:
    """Every job of ``jobs`` of ``measure`` that succeeded, with its value, in their order."""
    for job in jobs:
        if job.measure == measure and job.id in survey.values:
            yield job, survey.values[job.id]

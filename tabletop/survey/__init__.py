"""The layout survey (issue 16): many questions of the exact engine over whole layouts.

Pure (no pygame): jobs and results are plain, JSON-serialisable data, so they run in any
process of any executor. :mod:`tabletop.survey.jobs` holds the catalogue of bases, the plan,
:func:`run_job` and :func:`balance`; :mod:`tabletop.survey.measures` what each job measures;
:func:`run_survey` runs a plan's jobs on local processes or a Dask cluster and streams one
result file per job; :func:`build_report` writes the folder's ``report.html`` from those files.
"""

from tabletop.survey.jobs import (
    MEASURES,
    balance,
    board_info,
    catalogue,
    parse_bases,
    plan,
    run_job,
)
from tabletop.survey.report import build_report
from tabletop.survey.run import run_survey

__all__ = [
    "MEASURES",
    "balance",
    "board_info",
    "build_report",
    "catalogue",
    "parse_bases",
    "plan",
    "run_job",
    "run_survey",
]

"""The layout survey (issues 16 and 29): many questions of the exact engine over whole layouts.

Pure (no pygame): jobs and results are plain, JSON-serialisable data, so they run in any
process of any executor. :mod:`tabletop.survey.jobs` holds the catalogue of bases, the plans
(:func:`plan` of a 40kdc file, :func:`plan_dataset` of the current community layouts,
:func:`plan_scenarios` of scenario files), :func:`run_job` and :func:`balance`;
:mod:`tabletop.survey.measures` what each job measures; :func:`run_survey` runs a plan's jobs on
local processes or a Dask cluster and streams one result file per job; :func:`build_report`
writes the folder's report (an index, a page and a card per layout) from those files;
:mod:`tabletop.survey.compare` is what the pages compare (ties, balance, identical bases),
:mod:`tabletop.survey.card` a layout's printable card and :mod:`tabletop.survey.diff` two
boards compared for movement.
"""

from tabletop.survey.jobs import (
    MEASURES,
    balance,
    board_info,
    catalogue,
    parse_bases,
    plan,
    plan_dataset,
    plan_scenarios,
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
    "plan_dataset",
    "plan_scenarios",
    "run_job",
    "run_survey",
]

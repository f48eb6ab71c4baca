"""The layout survey (issue 16): many zone-engine questions over real layouts, as plain data.

Pure (no pygame): jobs and results are JSON-serialisable dicts; :func:`run_survey` runs a plan's
jobs on local processes or a Dask cluster and streams one result file per job.
"""

from tabletop.survey.run import run_survey

__all__ = ["run_survey"]

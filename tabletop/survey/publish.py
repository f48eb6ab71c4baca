"""What ``tabletop survey --card`` and ``tabletop survey diff`` do without a whole survey (#29).

A card or a comparison of two drafts needs a few boards measured, not a survey folder: the
boards are planned (:func:`boards_plan`: scenario files, layouts of a 40kdc file or of the
current community data), their jobs run on local worker processes in a temporary folder
(:func:`measure`, through :func:`tabletop.survey.run.run_survey`, which is removed afterwards)
and the results read back as a :class:`~tabletop.survey.report_data.Survey`.
:func:`write_card` writes a card as HTML, PDF or PNG by the target's suffix.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tabletop.errors import UserError, printable, quote
from tabletop.files import atomic_write
from tabletop.survey import browser
from tabletop.survey.jobs import catalogue, plan, plan_dataset, plan_scenarios
from tabletop.survey.report_data import Survey, load
from tabletop.survey.run import run_survey

__all__ = ["CARD_FORMATS", "REACH_BASES", "boards_plan", "is_scenario", "measure",
           "write_card"]

REACH_BASES = ("32mm", "60mm")
"""The bases whose reach and advance odds a card or a diff measures by default (an infantry
base and one that dense terrain stops); gap-fit is measured for every base."""
CARD_FORMATS = (".html", ".pdf", ".png")
SCENARIO_SUFFIXES = (".toml", ".json")


def is_scenario(spec: str) -> bool:
    """Whether ``spec`` names a scenario file (a draft) rather than a layout id."""
    return Path(spec).suffix.lower() in SCENARIO_SUFFIXES and Path(spec).exists()


def boards_plan(specs: Sequence[str], *, layouts_path: str | Path | None = None,
                deployment: str | None = None, bases: Sequence[dict[str, Any]] | None = None,
                reach_bases: Sequence[str] | None = REACH_BASES) -> dict[str, Any]:
    """The plan of the boards ``specs`` name: scenario files, or layout ids of the 40kdc file
    ``layouts_path`` (or, without it, of the current community data), each on its own
    deployment map (or ``deployment``). ``bases`` default to the built-in catalogue (or the
    unit data beside ``layouts_path``); ``reach_bases`` (reach and advance odds; ``None``:
    every base) that are not in it are added."""
    for s in specs:
        if Path(s).suffix.lower() in SCENARIO_SUFFIXES and not Path(s).is_file():
            raise UserError(f"{printable(s)}: no such scenario file (a layout is named by its "
                            "id, a draft by its .toml or .json file)")
    files = [s for s in specs if is_scenario(s)]
    ids = [s for s in specs if not is_scenario(s)]
    if files and ids:
        raise UserError(f"give two scenario files or two layout ids, not one of each "
                        f"({quote(files[0])}, {quote(ids[0])})")
    movers = list(reach_bases) if reach_bases is not None else None
    if files:
        if deployment is not None:
            raise UserError("--deployments: a scenario file has its own deployment zones")
        return plan_scenarios(files, bases if bases is not None else catalogue(None),
                              reach_bases=movers)
    deployments = None if deployment is None else [deployment]
    if layouts_path is not None:
        return plan(layouts_path, layouts=ids, deployments=deployments, bases=bases,
                    reach_bases=movers)
    return plan_dataset(layouts=ids, deployments=deployments, bases=bases, reach_bases=movers)


def measure(the_plan: dict[str, Any], *, workers: int | None = None,
            progress: bool = False) -> Survey:
    """Run every job of ``the_plan`` on local workers in a temporary folder; the results."""
    with tempfile.TemporaryDirectory(prefix="tabletop-survey-") as tmp:
        run_survey(the_plan, tmp, workers=workers, progress=progress)
        return load(tmp)


def write_card(render: Callable[[str | None, bool], str], target: str | os.PathLike[str], *,
               paper: str | None = None) -> Path:
    """Write a card to ``target`` by its suffix: ``.html`` (for the printer's paper, or
    ``paper``), ``.pdf`` printed on ``paper`` (default A4), ``.png`` a picture of the sheet.
    ``render(paper, sheet)`` gives the card's HTML (``sheet``: for a picture, the bare
    sheet)."""
    path = Path(target)
    suffix = path.suffix.lower()
    if suffix not in CARD_FORMATS:
        raise UserError(f"-o {printable(str(path))}: a card is written as "
                        f"{', '.join(CARD_FORMATS)}; give a file name ending so")
    if suffix == ".html":
        return atomic_write(path, render(paper, False))
    if suffix == ".pdf":
        return browser.print_pdf(render(paper or "a4", False), path)
    return browser.screenshot(render(paper or "a4", True), path, paper=paper or "a4")

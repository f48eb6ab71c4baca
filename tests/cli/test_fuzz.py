"""Fuzzing in CI: hostile scenario files (with the zone of a mover, and of one that turns, on
each board accepted), action files (paths with facings), zone queries (of models that turn too,
with their witnesses checked), ``tabletop fit`` and other command lines, 40kdc files for the
importer, survey folders and what answers at a scheduler's address never crash, hang or write a
file that does not load back (a few dozen to a few hundred examples each;
``benchmarks/fuzz.py`` runs the same generators for 100,000)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from support import hostile, hostile_data, kdc_toys


def fuzz(examples: int) -> settings:
    return settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.slow
@fuzz(150)
@given(hostile.scenario_files())
def test_scenario_files(file: tuple[bytes, str]) -> None:
    hostile.run_scenario_file(*file, zone=True)


@pytest.mark.slow
@fuzz(100)
@given(hostile.action_files())
def test_action_files(plan: tuple[str, list[dict[str, Any]]]) -> None:
    hostile.run_action_file(*plan)


@pytest.mark.slow
@fuzz(100)
@given(hostile.zone_queries())
def test_zone_queries(query: tuple[Any, ...]) -> None:
    hostile.run_zone_query(*query)


@pytest.mark.slow
@fuzz(60)
@given(hostile.turning_queries())
def test_turning_zone_queries(query: tuple[Any, ...]) -> None:
    hostile.run_turning_query(*query)


@fuzz(40)
@given(hostile.fit_lines())
def test_fit_command_lines(argv: list[str]) -> None:
    hostile.run_command(argv)


@fuzz(40)
@given(hostile.command_lines())
def test_command_lines(argv: list[str]) -> None:
    hostile.run_command(argv)


# -- issue 28: hostile data and hostile networks ---------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("key", hostile_data.KDC_FILES)
def test_40kdc_files(key: str) -> None:
    @fuzz(25)
    @given(hostile_data.kdc_files(key))
    def run(data: Any) -> None:
        hostile_data.run_kdc(key, data)
    run()


def test_a_drawn_40kdc_file_is_written_only_up_to_its_cut() -> None:
    """The harness makes only the bytes it keeps of a document a mutation made huge (a zone
    repeated, held once): the same bytes as the whole text's first ones."""
    data = kdc_toys.Data()
    zone = data.deployments[0]["zones"][0]
    data.deployments[0]["zones"] = [zone] * 5_000
    whole = kdc_toys.write_bytes(data, "deployments")
    for limit in (1, 1_000, len(whole) - 1, len(whole), len(whole) + 1):
        assert kdc_toys.write_bytes(data, "deployments", limit) == whole[:limit]
    data.units = "a,b\n1,2\n"
    assert kdc_toys.write_bytes(data, "units", 3) == b"a,b"


@pytest.mark.slow
@fuzz(25)
@given(hostile_data.survey_folders())
def test_survey_folders(changes: list[tuple[str, int, int]]) -> None:
    hostile_data.run_survey_folder(changes)


@fuzz(15)
@given(hostile_data.scheduler_answers())
def test_scheduler_addresses(answer: tuple[str, bytes | None]) -> None:
    pytest.importorskip("distributed", reason="the Dask tests need the cluster extra")
    hostile_data.run_scheduler(*answer)

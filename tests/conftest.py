"""Shared pytest configuration."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
# SDL would turn SIGTERM into a quit event (which asks about unsaved changes): a test run stopped
# by `timeout` would never stop
os.environ.setdefault("SDL_NO_SIGNAL_HANDLERS", "1")


@pytest.fixture
def app_factory(tmp_path):  # type: ignore[no-untyped-def]
    """Make windows (``App``) on states, saving to ``tmp_path``; the display closes after."""
    import pygame

    from tabletop.scenario.io import save_scenario
    from tabletop.view.app import App

    def make(state):  # type: ignore[no-untyped-def]
        app = App(state, save_path=tmp_path / "game.toml", size=(1100, 700), saver=save_scenario)
        app.step()
        return app

    yield make
    pygame.display.quit()


# -- zone goldens (tests/test_zone_goldens.py) ----------------------------------------------------
def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", default=False,
                     help="write the zone goldens in tests/goldens/ from the current code "
                          "instead of comparing (review the diff before committing)")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from support.zone_goldens import failures_dir

    index = failures_dir() / "index.html"
    if index.is_file():
        terminalreporter.write_line(f"zone golden failures: {index}  (expected, actual and "
                                    f"difference pictures in {failures_dir()})", red=True)

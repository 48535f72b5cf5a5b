"""Shared pytest options, and the hypothesis profile.

``HYPOTHESIS_PROFILE=ci`` (set by ``.ci/run``) derandomizes the property tests: each test
draws the same examples on every run, so CI passes or fails on the code, not on the draw.
Locally the default profile draws new examples every run, which is how the property tests
keep finding new edge cases; a failing example found that way gets a regression test.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="Rewrite tests/golden/ from the current output instead of comparing.",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))

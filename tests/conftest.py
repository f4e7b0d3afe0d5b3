"""Shared fixtures."""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from click.testing import CliRunner

_CACHE = tempfile.mkdtemp(prefix="printkit-test-cache-")
os.environ["PRINTKIT_CACHE_DIR"] = _CACHE  # the suite (and every command it runs) never writes the user's cache
os.environ.pop("PRINTKIT_NO_CACHE", None)
_DATA = tempfile.mkdtemp(prefix="printkit-test-data-")
os.environ["PRINTKIT_DATA_DIR"] = _DATA  # nor the user's game history (`score --record`)


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the suite's cache and data folders."""
    shutil.rmtree(_CACHE, ignore_errors=True)
    shutil.rmtree(_DATA, ignore_errors=True)


@pytest.fixture
def runner() -> CliRunner:
    """A CliRunner that keeps stderr apart from stdout."""
    return CliRunner()

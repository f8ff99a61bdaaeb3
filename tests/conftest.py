"""Shared pytest setup: run the CLI in-process through click's runner."""

from __future__ import annotations

import pytest
from click.testing import CliRunner


@pytest.fixture
def run_cli():
    """Invoke ``kibitz ARGS...`` in-process; returns click's Result (exit_code, output)."""
    from cli import main

    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    return invoke

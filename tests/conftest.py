"""Shared pytest setup: run the CLI in-process through click's runner; compile the numba kernels once
before the whole suite starts its workers (pytest-xdist, ``-n auto`` in pyproject.toml)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent

# Bytecode is cached even where the environment says not to (PYTHONDONTWRITEBYTECODE, as in some CI images): else
# every test worker rewrites every test module's asserts (~8 CPU-s each) and every CLI started by a test compiles
# the project's modules again (~0.4 s each).  Set here, before xdist starts its workers, so that they inherit it.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# A shell that starts the suite in the background (``cmd &`` without job control) ignores SIGINT, and children
# inherit an ignored signal: then no CLI under test could be stopped by Ctrl-C.  A handled signal is reset to
# the default in every child, so the interrupt tests see what a user's terminal gives.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

def _warm_up_numba(say: Callable[[str], None]) -> str:
    """Run ``kibitz warmup`` unless every kernel group is compiled for these sources; what happened, in words.

    The README's set-up command runs ``kibitz warmup`` already; this covers a checkout whose kernels changed
    since, so that the test workers load the kernels instead of each compiling them inside timed tests."""
    from solvers.warmup import GROUPS, is_compiled

    missing = [name for name in GROUPS if not is_compiled(name)]
    if not missing:
        return ""
    say(f"compiling the numba kernels for this source tree once, before the tests: kibitz warmup {' '.join(missing)}")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", "from cli import main; main()", "warmup", "--quiet", *missing],
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
    text = f"numba kernels compiled for this source tree in {time.perf_counter() - started:.1f} s"
    problems = [] if done.returncode == 0 else done.stdout.splitlines()[-5:]
    return "\n".join([text, *(f"  warm-up: {line}" for line in problems)])


#: The longest test files of the default run (15 s or more each), longest first.  xdist hands each worker whole
#: files (``--dist loadfile``: module fixtures are built once, the README test's commands run in order); these
#: start first, so that neither worker is left running one of them alone at the end.
LONGEST_FIRST = [f"tests/test_{name}.py" for name in (
    "notebooks", "readme_commands", "ctrl_c_matrix", "no_peeking", "tetromino_split", "solitaire",
    "towers_equilibrium", "recorded_games", "faults", "blokus_match", "interrupt_commands", "interrupt_playout",
    "blokus_rectangles", "parallel")]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of :data:`LONGEST_FIRST` first (each file's tests keep their order)."""
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))


@pytest.hookimpl(trylast=True)  # after the timer starts, before xdist starts its workers
def pytest_sessionstart(session: pytest.Session) -> None:
    """Before the whole suite (not a chosen file or test) starts its workers: :func:`_warm_up_numba`."""
    config = session.config
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    if config.args_source != pytest.Config.ArgsSource.TESTPATHS or os.environ.get("KIBITZ_TEST_WARM_UP") == "0":
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")

    def say(line: str) -> None:
        if reporter is not None:
            reporter.write_line(line, flush=True)

    said = _warm_up_numba(say)
    if said:
        say(said)
    _TEST_KERNELS.append(subprocess.Popen([sys.executable, "-c", "from tests.test_towers_brute import warm_up; warm_up()"],
                                          cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))


#: The tests' own numba kernels (the Rainbow Blackjack brute force, used by two files that xdist may give two
#: workers): compiled once in the background while the workers start (~8 s cold, ~1 s from the cache), so that
#: the workers load them instead of each compiling them.
_TEST_KERNELS: list[subprocess.Popen[bytes]] = []


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The background compile of :data:`_TEST_KERNELS` is long done by now; never leave it running."""
    for process in _TEST_KERNELS:
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def run_cli():
    """Invoke ``kibitz ARGS...`` in-process; returns click's Result (exit_code, output)."""
    from cli import main

    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    return invoke

"""Shared pytest setup: run the CLI in-process through click's runner; compile the numba kernels once
before the whole suite starts its workers (pytest-xdist, ``-n auto`` in pyproject.toml)."""

from __future__ import annotations

import hashlib
import json
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

# A shell that starts the suite in the background (``cmd &`` without job control) ignores SIGINT, and children
# inherit an ignored signal: then no CLI under test could be stopped by Ctrl-C.  A handled signal is reset to
# the default in every child, so the interrupt tests see what a user's terminal gives.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

#: Short CLI runs that compile (or load) the project's numba kernels, in two lanes run side by side:
#: Blokus and the tilings, then My Shelfie and Rainbow Blackjack.  Run before the whole suite when
#: numba's cache (keyed by the kernel sources, puzzles/numba_cache.py) is cold, so that the test
#: workers load the kernels instead of each compiling them again, inside tests that have time limits.
WARM_UP: tuple[list[list[str]], ...] = (
    [
        ["blokus", "playout", "--games", "2", "--variant", "two-player", "--bots", "mcts-rave:8,greedy", "--seed", "7",
         "--quiet"],
        ["blokus", "playout", "--games", "2", "--bots", "random", "--quiet"],
        ["tile", "6x10", "--count"],
        ["tile", "3x20", "--all", "--unique"],
        ["blokus", "solitaire", "tetrominoes"],
        ["blokus", "solitaire", "tetrominoes", "--estimate", "200"],
        ["blokus", "solitaire", "tetrominoes", "--region", "8x5", "--colors", "2", "--no-edge-rule", "--count"],
    ],
    [
        ["shelfie", "playout", "--games", "2", "--players", "2", "--bots", "lookahead,greedy", "--quiet"],
        ["shelfie", "playout", "--games", "2", "--players", "4", "--bots", "random", "--quiet"],
        ["towers", "playout", "--games", "2", "--bots", "pimc:2,greedy", "--quiet"],
        ["towers", "playout", "--games", "200", "--bots", "random", "--quiet"],
    ],
)

#: One lane: each command in this process, output discarded; a failure is only reported (the tests show it).
LANE = """
import contextlib, io, json, sys
from cli import main
for args in json.loads(sys.argv[1]):
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            main(args, standalone_mode=False)
    except BaseException as error:
        print(f"kibitz {' '.join(args)}: {error!r}", file=sys.stderr)
"""

#: Written into the keyed cache directory once its warm-up has run.
#: Named by this checkout's path too: numba files a checkout's cached kernels under its sources' absolute path, so
#: another clone of the same sources shares the keyed directory but not its compiled kernels.
WARM_MARK = f"warm-up-done-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"


def _warm_up_numba(say: Callable[[str], None]) -> str:
    """Run :data:`WARM_UP` unless this cache directory has been warmed already; what happened, in words."""
    import puzzles  # noqa: F401  # points NUMBA_CACHE_DIR at the directory of the current kernel sources

    cache = os.environ.get("NUMBA_CACHE_DIR", "")
    if not cache or (Path(cache) / WARM_MARK).exists():
        return ""
    say("compiling the numba kernels for this source tree once, before the tests (a minute or two) ...")
    started = time.perf_counter()
    lanes = [subprocess.Popen([sys.executable, "-c", LANE, json.dumps(lane)], cwd=ROOT, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True) for lane in WARM_UP]
    problems = []
    for lane in lanes:
        try:
            _, err = lane.communicate(timeout=900)
        except subprocess.TimeoutExpired:
            lane.kill()
            _, err = lane.communicate()
            err += "timed out"
        problems += [line for line in err.splitlines() if line.strip()]
    if not problems:
        (Path(cache) / WARM_MARK).write_text(f"{time.perf_counter() - started:.1f} s\n")
    text = f"numba kernels compiled for this source tree in {time.perf_counter() - started:.1f} s (cache: {cache})"
    return "\n".join([text, *(f"  warm-up: {line}" for line in problems[-5:])])


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


@pytest.fixture
def run_cli():
    """Invoke ``kibitz ARGS...`` in-process; returns click's Result (exit_code, output)."""
    from cli import main

    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(main, list(args), input=input, catch_exceptions=False)

    return invoke

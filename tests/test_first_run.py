"""The first minute: compiling is a visible step, and no ETA is shown before a unit of work has finished.

* A command whose kernels are not compiled yet says so on stderr ("compiling ... (first run only, about N s)")
  before it starts, for every game's play and playout and for the solvers; once compiled it says nothing.
* ``kibitz warmup`` compiles the groups, marks them, and lists them.
* Progress: the rate and the ETA appear only once a unit has finished, measured from then on.
* Slow suite: the README's set-up step (``kibitz warmup`` on an empty cache) then the shelfie, blokus and towers
  play/playout commands: none compiles again, none shows an ETA before its first finished unit, and each first
  run is within 2x its warm run (plus a second for starting Python).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import solvers.warmup as warmup
from commands.common import ProgressReporter

ROOT = Path(__file__).resolve().parent.parent
NOTICE = re.compile(r"compiling (.+) \(first run only, about (\d+) s;")


def _kibitz(args: list[str], env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "from cli import main; main()", *args], cwd=ROOT, env=env,
                          input=stdin, capture_output=True, text=True, timeout=600)


@pytest.fixture
def nothing_compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every group reads as not compiled, and compiling one only records its name (no real work)."""
    compiled: list[str] = []
    monkeypatch.setattr(warmup, "is_compiled", lambda name: name in compiled)
    monkeypatch.setattr(warmup, "compile_group", lambda name: compiled.append(name) or 0.0)
    return compiled


COMMANDS: list[tuple[list[str], str, str]] = [
    (["shelfie", "playout", "--games", "1", "--bots", "random", "--quiet"], "", "shelfie"),
    (["shelfie", "play", "--bots", "random", "--seed", "1"], "", "shelfie"),
    (["blokus", "playout", "--games", "1", "--variant", "duo", "--bots", "random", "--quiet"], "", "blokus"),
    (["blokus", "play", "--variant", "duo", "--bots", "human,random"], "quit\n", "blokus"),
    (["towers", "playout", "--games", "1", "--bots", "random", "--quiet"], "", "towers"),
    (["towers", "play", "--bots", "human,greedy"], "quit\n", "towers"),
    (["tile", "3x20", "--count"], "", "tilings"),
    (["blokus", "solitaire", "tetrominoes", "--region", "8x5", "--colors", "2", "--no-edge-rule"], "", "solitaire"),
    (["blokus", "solitaire", "all-pieces", "--board", "10x10", "--colors", "1", "--time-limit", "0.2"], "", "blokus"),
]


@pytest.mark.parametrize(("args", "stdin", "group"), COMMANDS, ids=[" ".join(c[0][:3]) for c in COMMANDS])
def test_a_command_says_it_compiles_before_it_starts(args: list[str], stdin: str, group: str,
                                                     nothing_compiled: list[str]) -> None:
    from cli import main

    result = CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    notices = NOTICE.findall(result.stderr)
    assert (warmup.GROUPS[group].what, str(warmup.GROUPS[group].seconds)) in notices
    assert group in nothing_compiled
    again = CliRunner().invoke(main, args, input=stdin, catch_exceptions=False)
    assert NOTICE.search(again.stderr) is None


@pytest.mark.slow  # by default: test_a_command_says_it_compiles_before_it_starts, every group in process
def test_the_notice_comes_before_any_output() -> None:
    """On an empty cache the real compile happens after the notice, and a second run says nothing (tilings: ~3 s)."""
    import tempfile

    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        first = _kibitz(["tile", "3x20", "--count"], env)
        assert first.returncode == 0, first.stderr
        assert NOTICE.search(first.stderr) is not None
        second = _kibitz(["tile", "3x20", "--count"], env)
        assert second.returncode == 0 and NOTICE.search(second.stderr) is None
        assert second.stdout == first.stdout
        listed = _kibitz(["warmup", "--list"], env)
        assert re.search(r"tilings\s+compiled", listed.stdout) and re.search(r"shelfie\s+not compiled", listed.stdout)


def test_warmup_refuses_an_unknown_group_in_one_line() -> None:
    from cli import main

    result = CliRunner().invoke(main, ["warmup", "chess"])
    assert result.exit_code == 1
    assert result.output.strip().splitlines() == ["Error: unknown kernel group 'chess'; choose from "
                                                  + ", ".join(warmup.GROUPS)]


def test_progress_has_no_rate_or_eta_before_a_unit_finished() -> None:
    progress = ProgressReporter(10, "games", enabled=False, unit="game")
    assert progress.rate_text() == ""
    progress.advance(1)  # the first unit: its time includes the start-up, so still no rate
    assert progress.rate_text() == ""
    started, done = progress._first or (0.0, 0)
    progress.advance(2)
    assert done == 1
    assert progress.rate_text(now=started + 4.0) == "0.5 game/s, ETA 00:14"  # 2 games in the 4 s since the first


def test_progress_without_total_shows_a_rate_only() -> None:
    progress = ProgressReporter(None, "nodes", enabled=False, unit="node")
    progress.advance(5)
    started, _ = progress._first or (0.0, 0)
    progress.advance(10)
    assert progress.rate_text(now=started + 2.0) == "5 node/s"


def _frames(stderr: str) -> list[str]:
    return [frame for frame in re.split(r"[\r\n]", stderr) if frame.strip()]


def _eta_before_first_unit(stderr: str) -> list[str]:
    """Progress frames that show an ETA or rate while their count is still 0."""
    return [frame for frame in _frames(stderr)
            if re.search(r"\b0(?:/\d+)? ", frame) and re.search(r"ETA|/s\b|<\d", frame)]


PLAYS: list[list[str]] = [
    ["shelfie", "playout", "--games", "6", "--players", "2", "--bots", "lookahead,greedy", "--workers", "1"],
    ["blokus", "playout", "--games", "2", "--variant", "duo", "--bots", "mcts-rave:60,greedy", "--workers", "1"],
    ["towers", "playout", "--games", "6", "--bots", "pimc:4,greedy", "--workers", "1"],
    ["shelfie", "play", "--bots", "greedy,lookahead"],
    ["blokus", "play", "--variant", "duo", "--bots", "greedy,mcts-rave:60"],
    ["towers", "play", "--bots", "pimc:4,greedy"],
]


@pytest.mark.slow
def test_after_the_set_up_no_command_compiles_and_no_eta_comes_early(tmp_path: Path) -> None:
    """The README's set-up compile step on an empty cache, then play/playout of three games: first runs are warm."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    setup = _kibitz(["warmup", "--quiet"], env)
    assert setup.returncode == 0, setup.stderr
    for args in PLAYS:
        times = []
        for _ in range(2):
            started = time.perf_counter()
            done = _kibitz(args, env)
            times.append(time.perf_counter() - started)
            assert done.returncode == 0, (args, done.stderr)
            assert NOTICE.search(done.stderr) is None, (args, done.stderr)
            assert _eta_before_first_unit(done.stderr) == [], args
        assert times[0] <= 2 * times[1] + 1.0, (args, times)


def test_a_ctrl_c_the_warm_up_work_absorbs_still_stops_the_command(monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """A group compiles by doing real work, and a count answers Ctrl-C with its partial result instead of raising;
    such a Ctrl-C during a first-run compile once went unnoticed and ``generate tiling`` ran on.  Now
    compile_group raises KeyboardInterrupt, and the group stays unmarked (it compiles again next time)."""
    import contextlib
    import signal

    def absorbed_ctrl_c() -> None:
        with contextlib.suppress(KeyboardInterrupt):  # the work returns a partial result, as ResumableSearch.count
            signal.raise_signal(signal.SIGINT)  # the user's Ctrl-C, inside the warm-up's work

    monkeypatch.setitem(warmup.GROUPS, "fake", warmup.KernelGroup("fake", "a fake group", 1, absorbed_ctrl_c))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    with pytest.raises(KeyboardInterrupt):
        warmup.ensure_compiled("fake", say=None)
    assert not warmup.is_compiled("fake")
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_the_warmup_notice_expects_the_groups_shared_between_its_processes() -> None:
    from commands.warmup import _expected_wall

    assert _expected_wall([46, 70, 43, 64, 6], 2) == 116  # 70 + 43 on one process, 64 + 46 + 6 on the other
    assert _expected_wall([46, 70, 43, 64, 6], 1) == 229 and _expected_wall([6], 2) == 6

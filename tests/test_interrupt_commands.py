"""Ctrl-C (SIGINT) sent to the real CLI process, one test per long command kind not covered elsewhere.

Each checks: exit status 130 within 2 s, the partial result printed (JSON, parseable, saying it was
interrupted), no traceback, and where there is a checkpoint, that the resumed run reaches the exact
uninterrupted total.  (Counts by ``tile``: tests/test_faults.py; playouts: test_interrupt_playout.py;
``shelfie best-shelf``: test_shelfie_cli.py; ``towers solve``: test_towers_validation.py.)
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NINE_MINUS_CENTRE = "/".join("####.####" if r == 4 else "#" * 9 for r in range(9))

#: Run in the child before the CLI: ``announce(owner, name, line, after, pause)`` wraps ``owner.name`` so that each
#: call writes ``line`` to stderr (after the call returns when ``after``, then sleeps ``pause`` s), a "ready" signal for
#: the test to wait on instead of a fixed delay (which a cold numba cache or a loaded machine can outlast).
ANNOUNCE = """
import sys
import time

def announce(owner, name, line, after=False, pause=0.0):
    original = getattr(owner, name)

    def wrapper(*args, **kwargs):
        if not after:
            print(line, file=sys.stderr, flush=True)
        result = original(*args, **kwargs)
        if after:
            print(line, file=sys.stderr, flush=True)
            time.sleep(pause)
        return result

    setattr(owner, name, wrapper)
"""


class Child:
    """``kibitz ARGS`` in a child process whose stdout and stderr are collected as they come."""

    def __init__(self, args: list[str], setup: str = "") -> None:
        command = [sys.executable, "-c", f"{ANNOUNCE}\n{setup}\nfrom cli import main\nmain()", *args] if setup \
            else [sys.executable, "-m", "cli", *args]
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(stream, lines), daemon=True)
                         for stream, lines in ((self.process.stdout, self.out), (self.process.stderr, self.err))]
        for reader in self._readers:
            reader.start()

    @staticmethod
    def _read(stream, lines: list[str]) -> None:
        for line in stream:
            lines.append(line)

    def said(self, line: str) -> bool:
        """Whether the child has written ``line`` (a whole line) to stderr."""
        return any(text.rstrip("\n") == line for text in list(self.err))

    def kill(self) -> None:
        """End a child that is still running (a test that failed must not leave it behind)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def finish(self, timeout: float) -> tuple[str, str]:
        """Wait for the exit (killing the child if it outlives ``timeout``); its whole stdout and stderr."""
        try:
            self.process.wait(timeout=timeout)
        finally:
            self.kill()
        for reader in self._readers:
            reader.join(10)
        return "".join(self.out), "".join(self.err)


def _wait_until(child: Child, ready: Callable[[], bool]) -> None:
    """Wait for ``ready()`` while the child runs; it must still be running then."""
    started = time.monotonic()
    while child.process.poll() is None and not ready():
        assert time.monotonic() - started < 300, "the job never became ready to be interrupted"
        time.sleep(0.02)
    assert child.process.poll() is None, "the job ended before it could be interrupted"


def _interrupt(child: Child, ready: Callable[[], bool]) -> tuple[dict, str]:
    """SIGINT once ``ready()`` holds; the parsed JSON output and stderr."""
    try:
        _wait_until(child, ready)
        child.process.send_signal(signal.SIGINT)
        sent = time.monotonic()
        child.process.wait(timeout=30)
        stopped = time.monotonic() - sent
    finally:
        child.kill()
    out, err = child.finish(timeout=30)
    assert stopped <= 2.0, f"stopped {stopped:.2f} s after Ctrl-C"
    assert child.process.returncode == 130, err
    assert "Traceback" not in err and "Aborted" not in err, err
    return json.loads(out), err


def _a_part_in(path: Path) -> Callable[[], bool]:
    """The checkpoint holds a finished part: a line after its header (written at the start, before any work; a
    Ctrl-C then could land before the count had set up its parts, and a clean CI run saw it do so)."""
    return lambda: path.exists() and len(path.read_text().splitlines()) >= 2


def _solitaire_count(checkpoint: Path) -> list[str]:
    """The corner-contact 9x9-minus-centre count (all three units) on two workers, checkpointed."""
    return ["blokus", "solitaire", "tetrominoes", "--region", NINE_MINUS_CENTRE, "--corner-contact", "--count",
            "--workers", "2", "--checkpoint", str(checkpoint), "--json"]


def test_solitaire_count_with_workers_stops_with_the_parts_done(tmp_path: Path) -> None:
    """Ctrl-C once the first parts are in the checkpoint: a partial count, its parts, exit 130 within 2 s."""
    checkpoint = tmp_path / "parts.json"
    partial, _ = _interrupt(Child(_solitaire_count(checkpoint)), _a_part_in(checkpoint))
    assert partial["complete"] is False and 1 <= partial["parts_done"] < partial["parts_total"]
    assert partial["count_raw"] <= 576


@pytest.mark.slow  # the resumed count is about a minute of CPU on two workers
def test_solitaire_count_with_workers_stops_and_resumes_to_the_exact_count(tmp_path: Path) -> None:
    """The same count interrupted, then resumed from its checkpoint to the exact uninterrupted total."""
    checkpoint = tmp_path / "parts.json"
    args = _solitaire_count(checkpoint)
    partial, _ = _interrupt(Child(args), _a_part_in(checkpoint))
    assert partial["complete"] is False and partial["parts_done"] < partial["parts_total"]
    assert partial["count_raw"] <= 576
    out, err = Child(args).finish(timeout=600)
    whole = json.loads(out)
    assert whole["complete"], err
    assert (whole["count_raw"], whole["count_symmetry"], whole["count_symmetry_colors"]) == (576, 72, 3)


def test_estimate_keeps_the_paths_done() -> None:
    """Ctrl-C once the first chunk of paths is done (the kernels compiled): the paths done are the estimate."""
    child = Child(["blokus", "solitaire", "tetrominoes", "--estimate", "100000000", "--json"],
                  setup="import solvers.blokus.tetromino_search as search\n"
                        "announce(search, '_probes', 'chunk done', after=True)")
    partial, _ = _interrupt(child, lambda: child.said("chunk done"))
    assert partial["interrupted"] and "interrupted" in partial["status"]
    assert 2 <= partial["probes"] < 100_000_000


def test_estimate_keeps_a_chunk_when_the_ctrl_c_lands_as_it_comes_back() -> None:
    """Ctrl-C after the first chunk's kernel returned, before the estimate's own next line: the chunk's paths are
    kept (they are folded in the kernel's thread), not lost to a KeyboardInterrupt between the two."""
    from solvers.blokus.tetromino_search import PROBE_CHUNK

    child = Child(["blokus", "solitaire", "tetrominoes", "--estimate", "100000000", "--json"],
                  setup="import solvers.blokus.tetromino_search as search\n"  # its main thread slow to come back
                        "announce(search, 'run_polling', 'chunk back', after=True, pause=5)")
    partial, _ = _interrupt(child, lambda: child.said("chunk back"))
    assert partial["interrupted"] and "interrupted" in partial["status"]
    assert partial["probes"] == PROBE_CHUNK


#: A SAT tiling search that encodes for about a second, then solves for much longer than a test waits.
SAT_TILING = ["tile", "20x15", "--pieces", "5*pentominoes", "--backend", "sat", "--json"]


def test_sat_tiling_search_is_interrupted_not_a_traceback() -> None:
    setup = ("from pysat.solvers import Solver\n"
             "announce(Solver, 'append_formula', 'encoding')\n"
             "announce(Solver, 'solve_limited', 'solving')")
    for moment in ("encoding", "solving"):
        child = Child(SAT_TILING, setup)
        partial, _ = _interrupt(child, lambda child=child, moment=moment: child.said(moment))
        assert partial["interrupted"] is True and partial["status"] in ("incomplete", "interrupted")


def test_a_killed_command_takes_its_sat_child_with_it() -> None:
    """SIGKILL, which the command cannot catch, to a SAT tiling search: its solver process does not run on."""
    psutil = pytest.importorskip("psutil")
    child = Child(SAT_TILING, "from pysat.solvers import Solver\nannounce(Solver, 'solve_limited', 'solving')")
    try:
        _wait_until(child, lambda: child.said("solving"))
        solver = psutil.Process(child.process.pid).children()
        assert solver, "the SAT search runs in a child process"
    finally:
        child.process.kill()
        child.finish(timeout=10)
    gone, alive = psutil.wait_procs(solver, timeout=5)
    assert not alive, f"the SAT process outlived its killed parent: {alive}"


def test_generate_keeps_every_challenge_found(tmp_path: Path) -> None:
    """Challenges are written as they are found: Ctrl-C keeps them (files named by seed, JSON listing them)."""
    child = Child(["generate", "tiling", "--count", "5000", "--out", str(tmp_path), "--json"])
    partial, err = _interrupt(child, lambda: any(tmp_path.glob("solution_*.svg")))  # a challenge's last file
    assert partial["interrupted"] and partial["status"] == "interrupted"
    seeds = [c["seed"] for c in partial["challenges"]]
    assert seeds and all((tmp_path / f"challenge_{s}.json").exists() for s in seeds)
    assert "challenges found and kept" in err


def _kept_challenges(partial: dict, err: str, folder: Path) -> list[tuple[dict, dict]]:
    """The interrupted run's report and its files agree: each challenge listed was written, puzzle and solution."""
    assert partial["interrupted"] and partial["status"] == "interrupted"
    assert "challenges found and kept" in err
    seeds = [c["seed"] for c in partial["challenges"]]
    assert seeds and sorted(seeds) == sorted(int(p.stem.removeprefix("solution_")) for p in folder.glob("solution_*.json"))
    return [(json.loads((folder / f"challenge_{s}.json").read_text()), json.loads((folder / f"solution_{s}.json").read_text()))
            for s in seeds]


@pytest.mark.slow  # by default: the generators' shared path (tiling, blokus fit) and test_shelfie_cli's proof Ctrl-C
def test_generate_shelfie_keeps_the_proved_shelves(tmp_path: Path) -> None:
    """Ctrl-C during the CP-SAT proof of a later draw: the challenges written so far re-score to their optimum."""
    from solvers.shelfie.challenges import verify_solution

    child = Child(["generate", "shelfie", "--count", "500", "--difficulty", "easy", "--out", str(tmp_path), "--json"])
    partial, err = _interrupt(child, lambda: any(tmp_path.glob("solution_*.svg")))  # a challenge's last file
    for puzzle, solution in _kept_challenges(partial, err, tmp_path):
        assert puzzle["seed"] == solution["seed"] and "shelf" not in puzzle
        verify_solution(solution)


def test_generate_blokus_fit_keeps_the_unique_completions(tmp_path: Path) -> None:
    """Ctrl-C mid-search: every challenge kept replays through the rule engine with the pieces it asks for."""
    from solvers.blokus.challenges import verify_solution

    child = Child(["generate", "blokus-fit", "--count", "5000", "--out", str(tmp_path), "--json"])
    partial, err = _interrupt(child, lambda: any(tmp_path.glob("solution_*.svg")))
    for puzzle, solution in _kept_challenges(partial, err, tmp_path):
        assert puzzle["seed"] == solution["seed"] and "pieces" not in puzzle
        verify_solution(puzzle, solution)


SLOW_TO_STOP = """
import json, signal, threading, time
import numpy as np
from solvers.interrupt import run_polling

def slow_to_stop(flag: np.ndarray) -> str:
    time.sleep(1.8)  # as numba compiling a kernel: nothing looks at the flag (0.6 s past the line, for a loaded machine)
    return "stopped" if flag[0] else "ran out"

threading.Timer(0.2, lambda: signal.raise_signal(signal.SIGINT)).start()
print(json.dumps(run_polling(slow_to_stop)))
"""


def test_a_kernel_slow_to_stop_after_ctrl_c_is_not_waited_for_in_silence() -> None:
    """A Ctrl-C that lands while the kernel cannot yet look at the flag (numba compiling it) is answered with one
    line on stderr after a second, then the kernel's own answer comes back interrupted."""
    done = subprocess.run([sys.executable, "-c", SLOW_TO_STOP], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == ["stopped", 1]
    assert done.stderr.count("stopping: still finishing a step") == 1

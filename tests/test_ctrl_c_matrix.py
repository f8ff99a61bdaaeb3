"""Ctrl-C matrix: every long command kind x {serial, --workers 2, --checkpoint} x backend, as a user's terminal does it.

Each cell starts the real CLI in its own process group with SIGINT at its default disposition (a job
started with a plain ``cmd &`` ignores SIGINT, which would hide a hang), waits until it is working,
sends SIGINT to the whole group, and asserts: exit 130 within 2 s, the partial result parseable JSON
saying it was interrupted, no traceback or C++ abort, and no process of the group left.

The default run has a cell for the stop paths no other file's default tests stop (a compiled count polling its
interrupt flag: the canonical solitaire count, checkpointed; CP-SAT's stop call; an MCTS move in ``play``); the
whole matrix is marked slow: every long command kind x
{serial, ``--workers 2``, ``--checkpoint``} x backend where it applies (the bitset and exact-cover
solitaire engines, which poll the same flag in their own kernels, among them).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STOP_S = 2.0  # exit within this long after SIGINT
GONE_S = 2.0  # and every process of the group gone within this long after the exit


def _default_sigint() -> None:
    """In the child before exec: SIGINT at its default disposition, whatever the test runner's is."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _group_alive(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _inputs(args: list[str], tmp_path: Path) -> list[str]:
    """``args`` with ``{tmp}`` made a folder of this test, ``{many_dlx}`` (an exact cover with 2**40 solutions)
    and ``{towers_state}`` (a position whose exact solve takes minutes) written there first."""
    if any("{many_dlx}" in a for a in args):
        k = 80
        (tmp_path / "many.dlx").write_text(" ".join(f"a{i}" for i in range(k)) + "\n" + "\n".join(
            [f"a{i}" for i in range(k)] + [f"a{i} a{i + 1}" for i in range(0, k, 2)]) + "\n")
    if any("{towers_state}" in a for a in args):
        state = subprocess.run([sys.executable, "-m", "cli", "towers", "state", "--seed", "4", "--round", "1"],
                               cwd=ROOT, capture_output=True, text=True, timeout=120, check=True)
        (tmp_path / "state.json").write_text(state.stdout)
    names = {"tmp": str(tmp_path), "many_dlx": str(tmp_path / "many.dlx"),
             "towers_state": str(tmp_path / "state.json")}
    return [a.format(**names) for a in args]


def interrupt_cell(args: list[str], after: float, tmp_path: Path) -> tuple[dict, str]:
    """``kibitz ARGS --json`` interrupted ``after`` seconds in; asserts the cell's promises, returns (JSON, stderr)."""
    args = _inputs(args, tmp_path)
    out_path, err_path = tmp_path / "out.json", tmp_path / "err.txt"
    with out_path.open("w") as out, err_path.open("w") as err:
        process = subprocess.Popen([sys.executable, "-m", "cli", *args, "--json"], cwd=ROOT, stdout=out, stderr=err,
                                   start_new_session=True, preexec_fn=_default_sigint)
    pgid = process.pid
    try:
        time.sleep(after)
        assert process.poll() is None, f"ended before it could be interrupted: {err_path.read_text()[-2000:]}"
        os.killpg(pgid, signal.SIGINT)
        sent = time.monotonic()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=30)
        stopped = time.monotonic() - sent
        gone_by = time.monotonic() + GONE_S
        while _group_alive(pgid) and time.monotonic() < gone_by:
            time.sleep(0.05)
        left = _group_alive(pgid)
    finally:
        if _group_alive(pgid):
            os.killpg(pgid, signal.SIGKILL)
        if process.poll() is None:
            process.wait()
    err_text = err_path.read_text()
    assert stopped <= STOP_S, f"stopped {stopped:.2f} s after SIGINT; stderr: {err_text[-2000:]}"
    # 130, or killed by SIGINT, which a shell reports as 130 too: CPython ends that way when a KeyboardInterrupt
    # passed through code run by eval() (as numpy's f2py import does), whatever exit status was asked for
    assert process.returncode in (130, -signal.SIGINT), err_text[-2000:]
    assert not left, "a process of the group outlived the command"
    assert "Traceback" not in err_text and "terminate called" not in err_text, err_text[-2000:]
    return json.loads(out_path.read_text()), err_text


# (id, args, seconds before SIGINT, check of the partial JSON)
TETRO = ["blokus", "solitaire", "tetrominoes"]
TILE_BIG = ["tile", "30x30", "--pieces", "15*pentominoes"]


def _count_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["complete"] is False and data["lower_bound"] is True
    assert data["parts_done"] < data["parts_total"] and data["count_raw"] >= 0


def _dp_count_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["complete"] is False and data["method"] == "dp"
    assert data["status"] == "incomplete (interrupted)" and data["count_raw"] == 0


def _tile_count_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["complete"] is False


def _find_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["found"] is False and data["status"] == "incomplete"


def _estimate_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["status"] == "estimate (interrupted: fewer paths)"
    assert data["probes"] >= 2


def _interrupted(data: dict) -> None:
    assert data["interrupted"] is True


def _towers_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["status"] == "interrupted" and data["nodes"] > 0


def _playout_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["status"] == "interrupted"
    assert data["games_requested"] == 10**6 and 0 <= data["games"] < 10**6


def _play_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["status"] == "interrupted" and isinstance(data["moves"], list)


def _cover_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["complete"] is False
    assert data["count_raw" if "count_raw" in data else "count"] >= 0  # --count: the count key set; --all: listed


def _solitaire_find_partial(data: dict) -> None:
    assert data == {"status": "interrupted", "interrupted": True, "result": None}


def _all_pieces_partial(data: dict) -> None:
    assert data["status"] == "interrupted" and data["placed"] == 0 and data["nodes"] >= 0


def _playout(game: str, *extra: str) -> list[str]:
    return [game, "playout", "--games", str(10**6), *extra]


SMOKE = [
    ("tile-find-cpsat", TILE_BIG + ["--backend", "cpsat"], 4.0, _find_partial),
    ("play-blokus-mcts-rave-move", ["blokus", "play", "--variant", "duo", "--bots", "mcts-rave:30s,random",
                                    "--seed", "1"], 3.0, _play_partial),
]

FULL = SMOKE + [
    # in the slow suite, each stop kept by default elsewhere: the estimate's by test_interrupt_commands'
    # test_estimate_keeps_the_paths_done, SAT tiling's by its test_sat_tiling_search_is_interrupted_not_a_traceback,
    # the towers solver's by test_towers_validation's test_solve_stops_on_ctrl_c_with_exit_130
    # 8x5 with two sets: paths of microseconds, so many are done by then (the 10x8's need ~6 s for two)
    ("solitaire-estimate-serial", TETRO + ["--region", "8x5", "--colors", "2", "--estimate", "1000000000"], 2.5,
     _estimate_partial),
    ("tile-find-sat", TILE_BIG + ["--backend", "sat"], 2.0, _find_partial),
    ("towers-solve", ["towers", "solve", "{towers_state}"], 2.0, _towers_partial),
    # in the slow suite: the canonical count's stop is the checkpointed one's below, and the challenge generators share
    # one interruption path (test_interrupt_commands: tiling, blokus fit; shelfie in the slow suite)
    ("solitaire-count-serial-canonical", TETRO + ["--count"], 3.0, _count_partial),
    ("generate-towers-hard", ["generate", "towers", "--count", "50", "--difficulty", "hard"], 4.0, _interrupted),
    ("solitaire-estimate-10x8", TETRO + ["--estimate", "1000000000"], 6.0, _estimate_partial),  # 2+ paths (else again)
    # the other engines serial (their workers and checkpoint runs below); the default suite keeps the canonical one, checkpointed
    ("solitaire-count-serial-bitset", TETRO + ["--count", "--engine", "bitset"], 3.0, _count_partial),
    ("solitaire-count-serial-xcc", TETRO + ["--count", "--engine", "xcc"], 3.0, _count_partial),
    ("solitaire-count-dp", TETRO + ["--count", "--method", "dp"], 8.0, _dp_count_partial),  # after loading the DP
    ("solitaire-count-workers", TETRO + ["--count", "--workers", "2"], 5.0, _count_partial),
    ("solitaire-count-workers-bitset", TETRO + ["--count", "--engine", "bitset", "--workers", "2"], 5.0,
     _count_partial),
    ("solitaire-count-workers-xcc", TETRO + ["--count", "--engine", "xcc", "--workers", "2"], 5.0, _count_partial),
    ("solitaire-count-checkpoint-bitset", TETRO + ["--count", "--engine", "bitset", "--checkpoint", "{tmp}/b.jsonl"],
     4.0, _count_partial),
    ("solitaire-count-checkpoint-xcc", TETRO + ["--count", "--engine", "xcc", "--checkpoint", "{tmp}/x.jsonl"], 4.0,
     _count_partial),
    ("solitaire-count-checkpoint-workers", TETRO + ["--count", "--workers", "2", "--checkpoint", "{tmp}/w.jsonl"],
     5.0, _count_partial),
    ("solitaire-find-dlx-corner", TETRO + ["--corner-contact", "--backend", "dlx"], 3.0,
     _solitaire_find_partial),
    ("solitaire-all-pieces-cpsat", ["blokus", "solitaire", "all-pieces", "--board", "19x19", "--colors", "4"], 5.0,
     _all_pieces_partial),
    ("tile-find-dlx", TILE_BIG, 3.0, _find_partial),
    ("tile-count-serial-dlx", ["tile", "10x8", "--pieces", "4*tetrominoes", "--count"], 3.0, _tile_count_partial),
    ("tile-count-workers-dlx", ["tile", "10x8", "--pieces", "4*tetrominoes", "--count", "--split-depth", "3",
                                "--workers", "2"], 4.0, _tile_count_partial),
    ("tile-count-checkpoint-dlx", ["tile", "10x8", "--pieces", "4*tetrominoes", "--count", "--checkpoint",
                                   "{tmp}/t.jsonl"], 3.0, _tile_count_partial),
    ("tile-count-checkpoint-workers", ["tile", "10x8", "--pieces", "4*tetrominoes", "--count", "--split-depth", "3",
                                       "--workers", "2", "--checkpoint", "{tmp}/tw.jsonl"], 4.0, _tile_count_partial),
    ("generate-tiling", ["generate", "tiling", "--count", "5000"], 4.0, _interrupted),
    ("cover-count", ["cover", "{many_dlx}", "--count"], 3.0, _cover_partial),
    ("cover-all", ["cover", "{many_dlx}", "--all"], 3.0, _cover_partial),
    ("shelfie-best-shelf", ["shelfie", "best-shelf", "--personal", "1", "--goals", "SIX_PAIRS,DIAGONAL"], 4.0,
     _interrupted),
    ("play-towers-mcts-move", ["towers", "play", "--bots", "mcts:30s,random", "--seed", "1"], 3.0, _play_partial),
    ("play-shelfie-mcts-move", ["shelfie", "play", "--bots", "mcts:30s,random", "--seed", "1"], 3.0, _play_partial),
    *[(f"playout-{game}-{mode}", _playout(game, "--workers", workers), 4.0, _playout_partial)
      for game in ("blokus", "towers", "shelfie", "projectl") for mode, workers in (("serial", "1"), ("workers", "2"))],
    ("playout-towers-checkpoint", _playout("towers", "--workers", "2", "--checkpoint", "{tmp}/p.jsonl"), 3.0,
     _playout_partial),
]


NOTHING_YET = {"status": "interrupted", "interrupted": True, "result": None}  # stopped before any result existed

#: Clean stops that came before the work began (a slow start-up under a loaded suite): the cell asks again, later.
BEFORE_THE_WORK: dict[Callable[[dict], None], Callable[[dict], bool]] = {
    _estimate_partial: lambda data: data == NOTHING_YET,  # fewer than 2 paths
    _towers_partial: lambda data: data == NOTHING_YET or (data.get("status") == "interrupted"
                                                          and data.get("nodes") == 0),  # no node searched
}
#: How many times longer each later ask waits than the one before (2 s, 6 s, 18 s for towers).
LATER = (1, 3, 9)


@pytest.mark.parametrize(("args", "after", "check"), [pytest.param(a, t, c, id=i) for i, a, t, c in SMOKE])
def test_ctrl_c_smoke(args: list[str], after: float, check, tmp_path: Path) -> None:
    _interrupt_once_working(args, after, check, tmp_path)


def _interrupt_once_working(args: list[str], after: float, check, tmp_path: Path) -> None:
    """Interrupt ``args`` after ``after`` seconds, later again while the stop came before the work; ``check`` it."""
    for factor in LATER:
        # every ask is a clean stop all the same (exit 130, JSON, no traceback: checked by interrupt_cell); a stop
        # before the work began only leaves the partial result to be asked for again, later
        data, _ = interrupt_cell(args, factor * after, tmp_path)
        if check not in BEFORE_THE_WORK or not BEFORE_THE_WORK[check](data):
            break
    check(data)


def test_ctrl_c_checkpointed_serial_count(tmp_path: Path) -> None:
    """The serial canonical count with a checkpoint: interrupted inside a part, the checkpoint stays readable."""
    checkpoint = tmp_path / "parts.json"
    data, _ = interrupt_cell(TETRO + ["--count", "--checkpoint", str(checkpoint)], 4.0, tmp_path)
    _count_partial(data)
    assert checkpoint.exists() and checkpoint.stat().st_size > 0


@pytest.mark.slow
@pytest.mark.parametrize(("args", "after", "check"), [pytest.param(a, t, c, id=i) for i, a, t, c in FULL[len(SMOKE):]])
def test_ctrl_c_matrix(args: list[str], after: float, check, tmp_path: Path) -> None:
    _interrupt_once_working(args, after, check, tmp_path)


def test_refused_up_front() -> None:
    """Sizes that would fork a thousand processes, fill the memory or never end are one-line errors."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)

    workers = run(*TETRO, "--count", "--workers", "1000")
    assert workers.returncode == 2 and "'--workers': 1000 is not in the range 1<=x<=64" in workers.stderr
    depth = run("tile", "6x10", "--split-depth", "99999999999999999999", "--count")
    assert depth.returncode == 2 and "is not in the range 0<=x<=12" in depth.stderr
    split = run(*TETRO, "--count", "--method", "direct", "--split-depth", "6", "--time-limit", "30")
    assert split.returncode == 1 and "Traceback" not in split.stderr
    assert "split depth 6 would make 2,196,025 parts" in split.stderr and "use --split-depth <= 5" in split.stderr


@pytest.mark.parametrize("engine", ["canonical", pytest.param("bitset", marks=pytest.mark.slow),
                                    pytest.param("xcc", marks=pytest.mark.slow)])
def test_solitaire_count_time_limit_is_kept(engine: str) -> None:
    """A serial count stops within about a second of its time limit (the deadline sets the kernel's flag)."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cli", *TETRO, "--count", "--engine", engine, "--time-limit", "2",
                           "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    seconds = time.monotonic() - started
    data = json.loads(done.stdout)
    assert data["status"] == "incomplete (time limit)" and data["complete"] is False
    assert seconds < 2 + 2.5, f"took {seconds:.1f} s for a 2 s limit"


LOST_CTRL_C = """
import ctypes, sys, time
if sys.argv[1] == "hook":
    from commands.common import redeliver_lost_ctrl_c
    redeliver_lost_ctrl_c()
def press_ctrl_c() -> None:
    raise KeyboardInterrupt  # as a Ctrl-C handled inside a ctypes callback (numba's loader) raises it
try:
    ctypes.CFUNCTYPE(None)(press_ctrl_c)()
    time.sleep(float(sys.argv[2]))
    print("lost")
except KeyboardInterrupt:
    print("arrived")
"""


@pytest.mark.parametrize(("mode", "wait", "expected"), [("hook", "10", "arrived"), ("plain", "0.5", "lost")])
def test_a_ctrl_c_that_python_dropped_arrives_again(mode: str, wait: str, expected: str) -> None:
    """Python drops a KeyboardInterrupt raised inside a ctypes callback; the CLI's hook sends the Ctrl-C again.
    Without the hook (the control) it is lost and the program runs on."""
    done = subprocess.run([sys.executable, "-c", LOST_CTRL_C, mode, wait], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == expected, done.stderr[-2000:]
    assert ("Exception ignored" in done.stderr) == (mode == "plain")

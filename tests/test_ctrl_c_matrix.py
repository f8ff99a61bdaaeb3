"""Ctrl-C matrix: every long command kind x {serial, --workers 2, --checkpoint} x backend, as a user's terminal does it.

Each cell starts the real CLI in its own process group with SIGINT at its default disposition (a job
started with a plain ``cmd &`` ignores SIGINT, which would hide a hang), waits until it is working,
sends SIGINT to the whole group, and asserts: exit 130 within 2 s, the partial result parseable JSON
saying it was interrupted, no traceback or C++ abort, and no process of the group left.

The default run has one cell per kind of stop path (compiled kernel polling its interrupt flag,
CP-SAT's stop call, python-sat's interrupt, worker pool, towers search, challenge generation); the
whole matrix is marked slow.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
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


def interrupt_cell(args: list[str], after: float, tmp_path: Path) -> tuple[dict, str]:
    """``kibitz ARGS --json`` interrupted ``after`` seconds in; asserts the cell's promises, returns (JSON, stderr)."""
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
    assert process.returncode == 130, err_text[-2000:]
    assert not left, "a process of the group outlived the command"
    assert "Traceback" not in err_text and "terminate called" not in err_text, err_text[-2000:]
    return json.loads(out_path.read_text()), err_text


# (id, args, seconds before SIGINT, check of the partial JSON)
TETRO = ["blokus", "solitaire", "tetrominoes"]
TILE_BIG = ["tile", "30x30", "--pieces", "15*pentominoes"]


def _count_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["complete"] is False and data["lower_bound"] is True
    assert data["parts_done"] < data["parts_total"] and data["count_raw"] >= 0


def _tile_count_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["complete"] is False


def _find_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["found"] is False and data["status"] == "incomplete"


def _estimate_partial(data: dict) -> None:
    assert data["interrupted"] is True and data["status"] == "estimate (interrupted: fewer paths)"
    assert data["probes"] >= 2


def _interrupted(data: dict) -> None:
    assert data["interrupted"] is True


SMOKE = [
    ("solitaire-count-serial-canonical", TETRO + ["--count"], 3.0, _count_partial),
    ("solitaire-estimate-serial", TETRO + ["--estimate", "1000000000"], 6.0, _estimate_partial),
    ("tile-find-cpsat", TILE_BIG + ["--backend", "cpsat"], 4.0, _find_partial),
    ("generate-towers-hard", ["generate", "towers", "--count", "50", "--difficulty", "hard"], 4.0, _interrupted),
]

FULL = SMOKE + [
    ("solitaire-count-workers", TETRO + ["--count", "--workers", "2"], 5.0, _count_partial),
    ("tile-find-sat", TILE_BIG + ["--backend", "sat"], 4.0, _find_partial),
    ("tile-find-dlx", TILE_BIG, 3.0, _find_partial),
    ("tile-count-serial-dlx", ["tile", "10x8", "--pieces", "4*tetrominoes", "--count"], 3.0, _tile_count_partial),
    ("tile-count-workers-dlx", ["tile", "10x8", "--pieces", "4*tetrominoes", "--count", "--split-depth", "3",
                                "--workers", "2"], 4.0, _tile_count_partial),
    ("generate-tiling", ["generate", "tiling", "--count", "5000"], 4.0, _interrupted),
]


@pytest.mark.parametrize(("args", "after", "check"), [pytest.param(a, t, c, id=i) for i, a, t, c in SMOKE])
def test_ctrl_c_smoke(args: list[str], after: float, check, tmp_path: Path) -> None:
    data, _ = interrupt_cell(args, after, tmp_path)
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
    data, _ = interrupt_cell(args, after, tmp_path)
    check(data)


def test_refused_up_front() -> None:
    """Sizes that would fork a thousand processes, fill the memory or never end are one-line errors."""
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "cli", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=120)

    workers = run(*TETRO, "--count", "--workers", "1000")
    assert workers.returncode == 2 and "'--workers': 1000 is not in the range 1<=x<=64" in workers.stderr
    depth = run("tile", "6x10", "--split-depth", "99999999999999999999", "--count")
    assert depth.returncode == 2 and "is not in the range 0<=x<=12" in depth.stderr
    split = run(*TETRO, "--count", "--split-depth", "8", "--time-limit", "30")
    assert split.returncode == 1 and "Traceback" not in split.stderr
    assert "split depth 8 would make 94,279,859 parts" in split.stderr and "use --split-depth <= 5" in split.stderr


def test_solitaire_count_time_limit_is_kept() -> None:
    """A serial count stops within about a second of its time limit (the deadline sets the kernel's flag)."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "cli", *TETRO, "--count", "--time-limit", "3", "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    seconds = time.monotonic() - started
    data = json.loads(done.stdout)
    assert data["status"] == "incomplete (time limit)" and data["complete"] is False
    assert seconds < 3 + 2.5, f"took {seconds:.1f} s for a 3 s limit"

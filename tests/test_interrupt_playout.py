"""Ctrl-C during a real ``kibitz <game> playout --workers 2``: it stops at once, prints every finished game
as normal JSON with ``"interrupted": true``, exits 130, and its checkpoint resumes to the uninterrupted total."""

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

from solvers.playout import make_job, playout_chunk, run_playouts

GAMES = 40
BOTS = "greedy,random"


def _kibitz(*args: str) -> list[str]:
    return [sys.executable, "-c", "from cli import main; main()", *args]


def _records(path: Path) -> int:
    if not path.exists():
        return 0
    return sum(1 for line in path.read_text().splitlines() if '"task":' in line and line.endswith("}"))


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups (POSIX)")
def test_ctrl_c_keeps_finished_games_and_resumes(tmp_path: Path) -> None:
    checkpoint = tmp_path / "playout.jsonl"
    command = _kibitz("projectl", "playout", "--games", str(GAMES), "--bots", BOTS, "--seed", "3", "--workers", "2",
                      "--checkpoint", str(checkpoint), "--json")
    # a new session, so the signal goes to the command and its workers as a terminal's Ctrl-C does
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, cwd=tmp_path)
    deadline = time.monotonic() + 120
    while _records(checkpoint) < 5 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert proc.poll() is None, "the playout ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)
    try:
        proc.wait(timeout=2)  # the acceptance figure: the first Ctrl-C stops within 2 s
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the playout did not stop within 2 s of Ctrl-C")
    out, err = proc.communicate()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    partial = json.loads(out)
    assert partial["interrupted"] is True and partial["status"] == "interrupted"
    assert 5 <= partial["games"] < GAMES
    assert partial["games"] == _records(checkpoint)  # one game per task: every finished game is kept

    resumed = subprocess.run(command, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    total = json.loads(resumed.stdout)
    reference = run_playouts("projectl", BOTS.split(","), GAMES, seed=3).summary()
    assert total["interrupted"] is False and total["games"] == GAMES
    assert total["bots"] == reference["bots"] and total["seat_win_rates"] == reference["seat_win_rates"]


def test_slow_lineups_run_one_game_per_task() -> None:
    assert playout_chunk(make_job("projectl", ["greedy", "random"]), 1000) == 1
    assert playout_chunk(make_job("shelfie", ["mcts:5"], 2), 1000) == 1
    assert playout_chunk(make_job("towers", ["random"]), 100_000) == 200


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="needs process groups (POSIX)")
def test_ctrl_c_in_process_keeps_every_finished_game(tmp_path: Path) -> None:
    """--workers 1 (the default for small jobs): games run in one worker thread and are collected one by one."""
    checkpoint = tmp_path / "serial.jsonl"
    command = _kibitz("projectl", "playout", "--games", "60", "--bots", BOTS, "--seed", "5", "--workers", "1",
                      "--checkpoint", str(checkpoint), "--json")
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, cwd=tmp_path)
    deadline = time.monotonic() + 120
    while _records(checkpoint) < 3 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.01)
    assert proc.poll() is None, "the playout ended before it could be interrupted"
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 130, err
    partial = json.loads(out)
    assert partial["interrupted"] is True and partial["games"] == _records(checkpoint) >= 3


def test_time_limit_stops_with_the_finished_games(run_cli) -> None:
    result = run_cli("projectl", "playout", "--games", "500", "--bots", "mcts:3,greedy", "--time-limit", "0.5",
                     "--json", "--quiet")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["status"] == "time limit" and data["interrupted"] is False
    assert data["games"] < data["games_requested"] == 500


#: Address-space cap of every process of a huge run (workers inherit it): an eager list of 5 * 10**9 ranges,
#: or per-game records, would hit it within seconds; the lazy run needs about 0.6 GiB of address space each.
ADDRESS_SPACE_CAP = 2 * 1024**3
#: Resident memory of the whole run (main process and workers) must stay under this.
RSS_CAP = 1024**3


def _cap_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE_CAP, ADDRESS_SPACE_CAP))


def _resident(process) -> tuple[int, list]:
    """RSS of ``process`` and its descendants (bytes), and those descendants."""
    import psutil

    total, children = 0, []
    try:
        total += process.memory_info().rss
        children = process.children(recursive=True)
    except psutil.Error:
        return total, children
    for child in children:
        with contextlib.suppress(psutil.Error):
            total += child.memory_info().rss
    return total, children


@pytest.mark.skipif(not hasattr(os, "killpg") or not sys.platform.startswith("linux"), reason="RLIMIT_AS, /proc: Linux")
@pytest.mark.parametrize(("game", "workers"), [
    ("towers", ["--workers", "2"]),
    pytest.param("towers", ["--workers", "1"], marks=pytest.mark.slow),  # in this process (one playout thread);
    # by default: its stop by test_ctrl_c_in_process_keeps_every_finished_game, the memory bound by the 2-worker run
    pytest.param("blokus", [], marks=pytest.mark.slow),  # default workers (all cores); compiles Blokus kernels
    pytest.param("shelfie", ["--workers", "2"], marks=pytest.mark.slow),
    pytest.param("projectl", ["--workers", "2"], marks=pytest.mark.slow),  # Python bots: one game per task
], ids=["towers-2-workers", "towers-in-process", "blokus-default-workers", "shelfie-2-workers", "projectl-2-workers"])
def test_sigint_stops_a_huge_playout_in_bounded_memory(tmp_path: Path, game: str, workers: list[str]) -> None:
    """10**12 games under an address-space cap: SIGINT to the main process only (``kill -INT PID``) after a few
    seconds ends it within 2 s with every finished game printed as JSON, and no worker outlives it."""
    psutil = pytest.importorskip("psutil")
    checkpoint = tmp_path / "huge.jsonl"
    command = _kibitz(game, "playout", "--games", str(10**12), *workers, "--checkpoint", str(checkpoint), "--json")
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                            start_new_session=True, preexec_fn=_cap_memory)
    main = psutil.Process(proc.pid)
    workers_seen: dict[int, object] = {}
    peak = 0
    try:
        deadline = time.monotonic() + 120
        while _records(checkpoint) < 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        running_until = time.monotonic() + 1.0  # a second of games after the first ones are in
        while proc.poll() is None and time.monotonic() < running_until:
            rss, children = _resident(main)
            peak = max(peak, rss)
            workers_seen.update({child.pid: child for child in children})
            time.sleep(0.1)
        assert proc.poll() is None, "the playout ended before it could be interrupted"
        os.kill(proc.pid, signal.SIGINT)  # the main process only, as `kill -INT <pid>` does
        try:
            proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pytest.fail("the playout did not stop within 2 s of SIGINT")
        out, err = proc.communicate()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130, err[-2000:]
    assert "Traceback" not in err and "MemoryError" not in err
    assert peak < RSS_CAP, f"{peak / 2**20:.0f} MiB resident"
    partial = json.loads(out)
    assert partial["interrupted"] is True and partial["status"] == "interrupted"
    assert partial["games_requested"] == 10**12
    chunk = playout_chunk(make_job(game, ["random"]), 10**12)  # 200 games a task (compiled kernels), else 1
    assert partial["games"] == chunk * _records(checkpoint) >= 3 * chunk  # every finished task kept
    time.sleep(0.5)  # killed workers are reaped by init
    alive = [pid for pid, child in workers_seen.items()
             if child.is_running() and child.status() != psutil.STATUS_ZOMBIE]  # type: ignore[attr-defined]
    assert not alive, f"worker processes outlived the playout: {alive}"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG: Linux")
def test_workers_die_with_a_killed_playout(tmp_path: Path) -> None:
    """SIGKILL of the main process (no cleanup runs at all): its workers are gone within 2 s."""
    psutil = pytest.importorskip("psutil")
    checkpoint = tmp_path / "killed.jsonl"
    command = _kibitz("towers", "playout", "--games", str(10**12), "--workers", "2", "--checkpoint", str(checkpoint),
                      "--quiet")
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while _records(checkpoint) < 3 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = psutil.Process(proc.pid).children(recursive=True)
        assert proc.poll() is None and len(workers) >= 2
        proc.kill()
        proc.wait(timeout=5)
        deadline = time.monotonic() + 2
        alive = workers
        while alive and time.monotonic() < deadline:
            time.sleep(0.05)
            alive = [w for w in workers if w.is_running() and w.status() != psutil.STATUS_ZOMBIE]
        assert not alive, f"workers outlived their killed parent: {[w.pid for w in alive]}"
    finally:
        if proc.poll() is None:
            proc.kill()

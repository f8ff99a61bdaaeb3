"""`kibitz blokus match` against broken GTP peers: each ends within its deadline, keeps the finished games and
leaves no process of the peer's process group behind (the peer's own children included)."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: A GTP peer that plays Duo correctly (kibitz's engine, random bot) until the 3rd genmove of game 2, then
#: misbehaves as ``mode`` says: ``exit`` (status 3), ``hang`` (sleeps), ``garbage`` (answers a non-move).  It
#: starts a grandchild (``sleep 1000``) and writes "PID GRANDCHILD_PID" to ``pidfile`` (and ``marker`` on
#: misbehaving), so a test can check that the whole group is gone.
PEER = """
import os, subprocess, sys, time
sys.path.insert(0, {root!r})
from solvers.blokus.gtp import GtpEngine

mode, pidfile, marker = sys.argv[1:4]
child = subprocess.Popen(["sleep", "1000"])
with open(pidfile, "w") as f:
    f.write(f"{{os.getpid()}} {{child.pid}}")
engine = GtpEngine("duo", "random")
games = genmoves = 0
for line in sys.stdin:
    words = line.split()
    if words[:1] == ["clear_board"]:
        games, genmoves = games + 1, 0
    if words[:1] == ["genmove"] and games == 2:
        genmoves += 1
        if genmoves == 3:
            open(marker, "w").close()
            if mode == "exit":
                os._exit(3)
            if mode == "hang":
                time.sleep(1000)
            print("= zz99\\n", flush=True)
            continue
    response = engine.handle(line)
    if response is not None:
        sys.stdout.write(response)
        sys.stdout.flush()
    if engine.quit:
        break
"""


def peer_command(tmp_path: Path, mode: str) -> tuple[str, Path, Path]:
    """The command line of a :data:`PEER` in ``mode``, its pid file and its marker file."""
    script = tmp_path / "peer.py"
    script.write_text(PEER.format(root=str(ROOT)))
    pidfile, marker = tmp_path / "peer.pid", tmp_path / "misbehaving"
    return shlex.join([sys.executable, str(script), mode, str(pidfile), str(marker)]), pidfile, marker


def shell_peer(tmp_path: Path, program: str) -> tuple[str, Path]:
    """``program`` run by a shell that first writes its pid (the peer's process group id) to a file."""
    pidfile = tmp_path / "peer.pid"
    return shlex.join(["sh", "-c", f"echo $$ > {shlex.quote(str(pidfile))}; exec {program}"]), pidfile


def running(pids: list[int], pgid: int) -> list[int]:
    """The processes among ``pids``, or in process group ``pgid``, that still run (zombies do not count)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        state, pgrp = fields[0], int(fields[2])
        if state != "Z" and (pgrp == pgid or int(entry.name) in pids):
            found.append(int(entry.name))
    return found


def assert_gone(pidfile: Path) -> None:
    """Every process the peer started is gone (within a second: SIGKILL is delivered asynchronously)."""
    pids = [int(p) for p in pidfile.read_text().split()]
    deadline = time.monotonic() + 1.0
    while running(pids, pids[0]) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert running(pids, pids[0]) == []


@pytest.fixture(scope="module", autouse=True)
def compiled() -> None:
    """The Blokus kernels compiled before any clock starts (the match command compiles them on a cold cache)."""
    from solvers.warmup import ensure_compiled

    ensure_compiled("blokus", say=None)


def match_args(opponent: str, *extra: str) -> list[str]:
    return ["blokus", "match", "--variant", "duo", "--bots", "greedy", "--opponent", opponent, "--games", "3",
            "--seed", "5", "--quiet", *extra]


@pytest.mark.parametrize("program, reason", [
    ("cat", "does not speak GTP: it answered 'name' (command 'name')"),
    ("yes", "does not speak GTP: it answered 'y' (command 'name')"),
    (f"{shlex.quote(sys.executable)} -c 'print(\"hello\")'", "does not speak GTP: it answered 'hello' (command 'name')"),
    ("sleep 1000", "did not answer within 2 s (command 'name')"),
])
def test_a_peer_that_is_not_gtp_fails_the_handshake(run_cli, tmp_path: Path, program: str, reason: str) -> None:
    command, pidfile = shell_peer(tmp_path, program)
    start = time.monotonic()
    result = run_cli(*match_args(command, "--startup-timeout", "2", "--move-timeout", "2"))
    assert time.monotonic() - start < 5
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr == f"Error: GTP engine {command!r} {reason}\n"
    assert_gone(pidfile)


@pytest.mark.parametrize("mode, reason", [
    ("exit", "exited (exit status 3) (command 'genmove b')"),
    # the time-out by default: test_a_peer_that_is_not_gtp_fails_the_handshake[sleep 1000]
    pytest.param("hang", "did not answer within 2 s (command 'genmove b')", marks=pytest.mark.slow),
])
def test_a_peer_that_fails_mid_game_keeps_the_finished_games(run_cli, tmp_path: Path, mode: str, reason: str) -> None:
    command, pidfile, marker = peer_command(tmp_path, mode)
    start = time.monotonic()
    result = run_cli(*match_args(command, "--move-timeout", "2", "--json"))
    assert time.monotonic() - start < 30 and marker.exists()
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == f"Error: game 2: GTP engine {command!r} {reason}"
    data = json.loads(result.stdout)
    assert data["status"] == "engine failed" and data["interrupted"] is False
    assert data["games"] == len(data["game_list"]) == 1 and data["games_requested"] == 3
    assert data["error"] == f"game 2: GTP engine {command!r} {reason}" and data["side_b"] == "kibitz 0.1.0"
    assert_gone(pidfile)


def test_a_peer_that_answers_garbage_keeps_the_finished_games_in_text(run_cli, tmp_path: Path) -> None:
    command, pidfile, _ = peer_command(tmp_path, "garbage")
    result = run_cli(*match_args(command, "--move-timeout", "2"))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "kibitz greedy vs kibitz 0.1.0, duo: 1 of 3 games (engine failed)"
    assert result.stdout.splitlines()[1] == "score 1.000 (95% CI 0.206-1.000): 1 wins, 0 ties, 0 losses; mean margin +9.0"
    assert result.stderr.splitlines()[-1] == ("Error: game 2: kibitz 0.1.0 answered genmove b with 'zz99': "
                                              "malformed cell 'zz99' (expected e.g. a20)")
    assert_gone(pidfile)


def test_ctrl_c_keeps_the_finished_games_and_kills_the_peer(tmp_path: Path) -> None:
    """SIGINT to the match's process group (Python's own SIGINT handler in the child, not an inherited SIG_IGN):
    exit 130 within 2 s, the finished game in the JSON, the peer's group gone."""
    command, pidfile, marker = peer_command(tmp_path, "hang")
    code = "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); from cli import main; main()"
    process = subprocess.Popen([sys.executable, "-c", code, *match_args(command, "--json")], cwd=ROOT,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert marker.exists(), process.communicate(timeout=5)
        os.killpg(process.pid, signal.SIGINT)
        start = time.monotonic()
        out, err = process.communicate(timeout=10)
        assert time.monotonic() - start < 2
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130, err.decode()
    data = json.loads(out)
    assert data["status"] == "interrupted" and data["interrupted"] is True and data["games"] == 1
    assert data["error"] is None
    assert_gone(pidfile)

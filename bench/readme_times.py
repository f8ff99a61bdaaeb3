"""The time of every ``kibitz`` command of the README: its first run after the set-up command, and a warm run.

The set-up is reproduced with an empty compile cache (``NUMBA_CACHE_DIR`` in a temporary directory) and
``kibitz warmup`` (timed: the set-up's compile step).  Then every README command runs as typed (README notation
resolved as in tests/test_readme_commands.py; interactive ones answer ``quit``), in order, in one scratch
directory, twice: "first" is what a user meets right after the set-up, "warm" the run after it.  A command still
running after ``--cap`` seconds is stopped and shown as ``>cap``: the README marks those as long jobs.

    python bench/readme_times.py [--cap 120] [--match TEXT] [--start TEXT] [--cache DIR]
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_readme_commands import SKIP, normalise, readme_commands  # noqa: E402

#: Interactive commands get this on stdin.
ANSWER = "quit\n"


def timed(command: str, cwd: Path, env: dict[str, str], cap: float) -> tuple[float, int | None]:
    """Seconds ``command`` ran (shell syntax as in the README) and its exit status (None: stopped at ``cap``)."""
    words = shlex.split(command)
    if "--checkpoint" in words:  # each run starts the job afresh, not a resume of the last one
        (cwd / words[words.index("--checkpoint") + 1]).unlink(missing_ok=True)
    kibitz = shlex.quote(str(Path(sys.executable).with_name("kibitz")))
    line = (kibitz + command.removeprefix("kibitz")).replace(" '>' ", " > ")  # a redirection, as typed
    started = time.perf_counter()
    process = subprocess.Popen(line, shell=True, cwd=cwd, env=env, stdin=subprocess.PIPE, text=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        process.communicate(ANSWER, timeout=cap)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)  # the command and every worker it started
        process.wait()
        return cap, None
    return time.perf_counter() - started, process.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cap", type=float, default=120.0, help="Stop a command after this many seconds.")
    parser.add_argument("--match", default="", help="Only the commands containing this text.")
    parser.add_argument("--start", default="", help="Begin at the first command containing this text.")
    parser.add_argument("--cache", default=None, help="Use this (already warmed) cache root instead of a fresh one.")
    args = parser.parse_args()
    cache = Path(args.cache) if args.cache else Path(tempfile.mkdtemp(prefix="kibitz-readme-cache-"))
    scratch = Path(tempfile.mkdtemp(prefix="kibitz-readme-"))
    for name in ("examples", "tests", "notebooks", "bench"):
        os.symlink(ROOT / name, scratch / name)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    try:
        if not args.cache:
            seconds, status = timed("kibitz warmup --quiet", scratch, env, 900)
            print(f"set-up compile step (kibitz warmup, empty cache, {os.cpu_count()} cores): {seconds:.1f} s "
                  f"(exit {status})", flush=True)
        print(f"{'first':>8} {'warm':>8}  command")
        commands = readme_commands()
        begin = next((i for i, command in enumerate(commands) if args.start in command), 0)
        for command in commands[begin:]:
            if not command.startswith("kibitz") or any(command.startswith(p) for p in SKIP) or args.match not in command:
                continue
            runnable = normalise(command)
            first, status = timed(runnable, scratch, env, args.cap)
            warm, _ = timed(runnable, scratch, env, args.cap)
            shown = [f">{args.cap:.0f}" if status is None else f"{first:.2f}",
                     f">{args.cap:.0f}" if warm >= args.cap else f"{warm:.2f}"]
            flag = "" if status in (0, None) else f"  (exit {status})"
            print(f"{shown[0]:>8} {shown[1]:>8}  {command}{flag}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        if not args.cache:
            shutil.rmtree(cache, ignore_errors=True)


if __name__ == "__main__":
    main()

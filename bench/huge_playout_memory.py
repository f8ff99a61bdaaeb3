"""Memory of a 10**12-game playout over time, then SIGINT to its main process only (``kill -INT PID``).

For each game (default: towers with 2 workers, towers in-process, Blokus with the default workers) it
prints the resident memory of the whole run (main process + workers, MiB) every second, the games
finished when SIGINT was sent, the seconds to exit, the exit status and whether any worker survived.
Memory must stay flat (no list of ranges, no per-game records); exit within 2 s with status 130.

Run: python bench/huge_playout_memory.py [--seconds 10]   (timings are wall-clock; they depend on the load)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import time

import psutil

RUNS = [
    ("towers, --workers 2", ["towers", "playout", "--workers", "2"]),
    ("towers, --workers 1 (in-process)", ["towers", "playout", "--workers", "1"]),
    ("blokus, default workers", ["blokus", "playout"]),
]


def resident(process: psutil.Process) -> tuple[int, list[psutil.Process]]:
    """RSS in bytes of ``process`` and its descendants, and those descendants."""
    try:
        children = process.children(recursive=True)
        total = process.memory_info().rss
    except psutil.Error:
        return 0, []
    for child in children:
        with contextlib.suppress(psutil.Error):
            total += child.memory_info().rss
    return total, children


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="run time before SIGINT")
    args = parser.parse_args()
    for name, command in RUNS:
        proc = subprocess.Popen([sys.executable, "-c", "from cli import main; main()", *command,
                                 "--games", str(10**12), "--json", "--quiet"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        main_process = psutil.Process(proc.pid)
        samples, workers = [], {}
        started = time.monotonic()
        while time.monotonic() - started < args.seconds and proc.poll() is None:
            rss, children = resident(main_process)
            samples.append(rss / 2**20)
            workers.update({child.pid: child for child in children})
            time.sleep(1.0)
        sent = time.monotonic()
        os.kill(proc.pid, signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        latency = time.monotonic() - sent
        time.sleep(0.5)
        alive = [pid for pid, child in workers.items() if child.is_running() and child.status() != psutil.STATUS_ZOMBIE]
        games = json.loads(out)["games"] if out.strip() else None
        print(f"{name}: RSS MiB per second {' '.join(f'{m:.0f}' for m in samples)}; "
              f"{games} games; exit {proc.returncode} after {latency:.2f} s; workers left: {len(alive)}")


if __name__ == "__main__":
    main()

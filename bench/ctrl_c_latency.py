"""Seconds from Ctrl-C (SIGINT to the process group, as a terminal sends it) to the exit of real CLI runs.

Prints, per command: the exit status, the latency, and how much finished work the partial answer kept.
Run: python bench/ctrl_c_latency.py  (about 1 min; timings are wall-clock and depend on the load).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RUNS = [
    ("projectl playout mcts, --workers 2", ["projectl", "playout", "--games", "200", "--bots", "mcts:5,greedy",
                                             "--workers", "2", "--json"], 8.0, "games"),
    ("projectl playout mcts, --workers 1", ["projectl", "playout", "--games", "200", "--bots", "mcts:5,greedy",
                                             "--workers", "1", "--json"], 8.0, "games"),
    ("shelfie playout lookahead, --workers 2", ["shelfie", "playout", "--games", "400", "--bots", "lookahead,greedy",
                                                 "--workers", "2", "--json"], 8.0, "games"),
    ("shelfie best-shelf (until proven)", ["shelfie", "best-shelf", "--personal", "5", "--goals",
                                            "TWO_COLUMNS_ALL_DIFFERENT,X_SHAPE", "--json"], 5.0, "score"),
]


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        for name, args, after, field in RUNS:
            command = [sys.executable, "-c", "from cli import main; main()", *args, "--quiet"]
            proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                    start_new_session=True, cwd=Path(scratch))
            time.sleep(after)
            sent = time.monotonic()
            os.killpg(proc.pid, signal.SIGINT)
            out, err = proc.communicate(timeout=120)
            latency = time.monotonic() - sent
            try:
                kept = json.loads(out).get(field)
            except json.JSONDecodeError:
                kept = f"no JSON ({err.strip().splitlines()[-1] if err.strip() else 'no stderr'})"
            print(f"{name:<42s} exit {proc.returncode:3d}  {latency:5.2f} s after Ctrl-C  {field} kept: {kept}")


if __name__ == "__main__":
    main()

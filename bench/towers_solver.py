"""Rainbow Blackjack exact solver timings (CPU time of this process; compilation excluded).

    python bench/towers_solver.py [--seeds 20] [--skip-round4] [--cli-runs 3]

1. Round-5 start to the end of the game (both second grids known, line picks
   included), 20 seeded positions: median CPU seconds for the value alone and
   for the value of every root move (target ≤ 0.2 s).
2. Round-4 start to the end of the game (the whole second grid, 24 plies), 20
   seeded positions: median CPU seconds for the exact value (target ≤ 5 s).
3. ``kibitz towers solve`` on a round-2 position in a fresh process (numba's
   cache already filled by a first run): wall seconds including start-up
   (target ≤ 1.5 s).

Positions: seeded random play (``tests/test_towers_differential.reach``), seeds
0, 1, ... skipping games that ended early.  The machine is shared, so CPU time
is reported; wall time only for the CLI run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from solvers.towers.solver import Solver, warm_up  # noqa: E402
from tests.test_towers_differential import reach  # noqa: E402


def starts(rnd: int, count: int) -> list[tuple[int, object]]:
    out, seed = [], 0
    while len(out) < count:
        s = reach(seed, rnd, "pick", 0)
        if s is not None:
            out.append((seed, s))
        seed += 1
    return out


def timed(rnd: int, count: int, all_moves: bool, label: str) -> float:
    times = []
    for seed, s in starts(rnd, count):
        solver = Solver(22)
        t = time.process_time()
        res = solver.solve(s, horizon="game", pv=False, all_moves=all_moves)  # type: ignore[arg-type]
        times.append(time.process_time() - t)
        print(f"  {label} seed {seed}: value {res.value:+d}, {res.nodes} nodes, {times[-1]:.3f} s", flush=True)
    med = statistics.median(times)
    print(f"{label}: median {med:.3f} s, max {max(times):.3f} s over {len(times)} positions", flush=True)
    return med


def cli_wall(runs: int) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "s.json")
        with open(path, "w") as fh:
            subprocess.run(["kibitz", "towers", "state", "--seed", "447362", "--round", "2"], stdout=fh, check=True)
        walls = []
        for i in range(runs + 1):
            t = time.perf_counter()
            subprocess.run(["kibitz", "towers", "solve", path, "--horizon", "round", "--json"], capture_output=True, check=True)
            if i:  # the first run may fill numba's cache
                walls.append(time.perf_counter() - t)
    med = statistics.median(walls)
    print(f"kibitz towers solve (round 2 start, fresh process): median wall {med:.2f} s over {runs} runs", flush=True)
    return med


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--skip-round4", action="store_true")
    ap.add_argument("--cli-runs", type=int, default=3)
    args = ap.parse_args()
    warm_up()
    cli_wall(args.cli_runs)
    timed(4, args.seeds, False, "round-5 start, value")
    timed(4, args.seeds, True, "round-5 start, every root move")
    if not args.skip_round4:
        timed(3, args.seeds, False, "round-4 start, value")


if __name__ == "__main__":
    main()

"""mcts-rave's simulations per CPU second compiled with LLVM's tuning for the host CPU, and with generic x86-64 tuning.

Both builds use the host's instructions (numba takes the host's features); they differ in
``NUMBA_CPU_NAME``: the host's model (numba's default, e.g. ``znver3``) or ``x86-64``, which
:mod:`puzzles.numba_target` now chooses.  Each run is a fresh process with its own compile cache (a temporary
folder, compiled on the first round, not timed), the speed bench's :func:`blokus_mcts_speed.kibitz_rate` at
each position (a warm-up search, then five searches, the median rate); the builds alternate run by run and
the table gives each position's median over ``--rounds`` with the ratio generic / host.

    python bench/numba_target.py --rounds 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from puzzles.numba_target import GENERIC_X86  # noqa: E402

POSITIONS = ["duo 0 30000", "duo 4 50000", "duo 12 150000", "duo 24 300000", "classic 0 8000", "classic 24 30000",
             "classic 48 100000"]

RUN = """
import sys
sys.path.insert(0, {bench!r})
from blokus_mcts_speed import kibitz_rate, position
for spec in {positions!r}:
    variant, plies, iterations = spec.split()
    sims, seconds = kibitz_rate(position(variant, int(plies), 11), int(iterations), 5, {knobs!r})
    print(spec, sims / seconds, flush=True)
"""


def host_name() -> str:
    import llvmlite.binding as llvm

    return str(llvm.get_host_cpu_name())


def rates(cpu: str, cache: str, positions: list[str], knobs: str) -> dict[str, float]:
    """One fresh process's rate at each position, compiled for ``cpu`` with the host's features."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CPU_FEATURES"}
    env.update(NUMBA_CPU_NAME=cpu, NUMBA_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    code = RUN.format(bench=str(ROOT / "bench"), positions=positions, knobs=knobs)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    found = {}
    for line in out.splitlines():
        *spec, rate = line.split()
        found[" ".join(spec)] = float(rate)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--knobs", default="lgr=1,quality_bonus=1")
    parser.add_argument("--only", default="", help="positions, e.g. 'duo 0 30000,classic 24 30000'")
    args = parser.parse_args()
    positions = [p.strip() for p in args.only.split(",") if p.strip()] or POSITIONS
    host = host_name()
    builds = {f"host tuning ({host})": host, f"generic tuning ({GENERIC_X86})": GENERIC_X86}
    runs: dict[str, dict[str, list[float]]] = {name: {p: [] for p in positions} for name in builds}
    with tempfile.TemporaryDirectory() as scratch:
        for cpu in builds.values():
            print(f"compiling for {cpu} (the first round's processes; about a minute each) ...", flush=True)
            rates(cpu, os.path.join(scratch, cpu), positions[:1], args.knobs)
        for r in range(args.rounds):
            order = list(builds.items()) if r % 2 == 0 else list(builds.items())[::-1]
            for name, cpu in order:
                print(f"round {r + 1}/{args.rounds}: {name} ...", flush=True)
                for p, rate in rates(cpu, os.path.join(scratch, cpu), positions, args.knobs).items():
                    runs[name][p].append(rate)
    host_build, generic_build = list(builds)
    print(f"| position (iterations) | {host_build} sims/CPU-s | {generic_build} sims/CPU-s | generic / host |")
    print("|---|---|---|---|")
    for p in positions:
        a, b = statistics.median(runs[host_build][p]), statistics.median(runs[generic_build][p])
        print(f"| {p} | {a:,.0f} | {b:,.0f} | {b / a:.3f} |")


if __name__ == "__main__":
    main()

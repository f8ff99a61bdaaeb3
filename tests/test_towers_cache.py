"""The solver's compiled kernels come from numba's cache: a second process solving a position compiles nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

SCRIPT = """
import json, random
from numba.core.registry import CPUDispatcher
from puzzles.game import CHANCE
from puzzles.towers import TowersState
from puzzles.towers import kernel as K
from solvers.towers import search as X
from solvers.towers.solver import Solver

rng = random.Random(447362)
s = TowersState()
while not (s.round == 1 and s.phase == "pick" and s.step == 0):
    s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
res = Solver(16).solve(s, horizon="round")
used = {name: d for mod in (K, X) for name, d in vars(mod).items() if isinstance(d, CPUDispatcher) and d.signatures}
print(json.dumps({
    "value": res.value,
    "used": sorted(used),
    "misses": {name: sum(d.stats.cache_misses.values()) for name, d in used.items()},
    "hits": {name: sum(d.stats.cache_hits.values()) for name, d in used.items()},
}))
"""


def run_solve() -> tuple[dict[str, Any], str]:
    env = dict(os.environ, NUMBA_DEBUG_CACHE="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    lines = proc.stdout.strip().splitlines()
    return json.loads(lines[-1]), "\n".join(lines[:-1]) + proc.stderr


def test_a_second_process_solves_without_compiling() -> None:
    run_solve()  # the first process may compile (and fill the cache)
    report, debug = run_solve()
    assert report["value"] == 0
    assert "ab_run" in report["used"]
    assert report["misses"] == {name: 0 for name in report["used"]}
    assert all(n > 0 for n in report["hits"].values())
    assert "data saved" not in debug and "index saved" not in debug

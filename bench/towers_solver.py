"""Rainbow Blackjack exact solver timings.

    python bench/towers_solver.py [--rounds 40] [--endgames 5] [--skip-round4-start]

1. Full-information round: the 6 placements of a round (both hands known),
   random positions at the start of the placement phase — median time
   (target ≤ 50 ms).
2. Endgame from the start of round 5 (both second grids known, line picks
   included) — time per position (target ≤ 10 s).
3. Round 4 (grid 2): solve from later to earlier points of round 4 — after k
   placements, after both picks, after the starter's pick, and the start of
   round 4 (the whole second grid, 24 plies) — each in a child process killed
   after 60 s; reports the largest depth (plies to the end, announcements not
   counted) solved within 60 s.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import time

from puzzles.game import CHANCE
from puzzles.towers import TowersState
from solvers.towers.solver import Solver


def advance(seed: int, stop) -> TowersState:
    rng = random.Random(seed)
    s = TowersState.new_game(seed)
    while not s.is_terminal() and not stop(s):
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
    return s


def plies_left(s: TowersState) -> int:
    """Plies (line picks and placements, no announcements) from ``s`` to the end of round 6."""
    rounds_after = 5 - s.round
    if s.phase == "pick":
        here = (2 - s.step // 2) + 6
    else:
        here = 6 - s.step
    return here + 8 * rounds_after


def _child(seed: int, stop_desc: tuple, queue) -> None:
    kind, k = stop_desc
    if kind == "placements":
        s = advance(seed, lambda s: s.round == 3 and s.phase == "place" and s.step >= k)
    elif kind == "starter_pick":
        s = advance(seed, lambda s: s.round == 3 and s.phase == "pick" and s.step >= 2)
    else:
        s = advance(seed, lambda s: s.round == 3 and s.phase == "pick")
    t = time.perf_counter()
    res = Solver(22).solve(s, horizon="game", pv=False, all_moves=False)
    queue.put((plies_left(s), time.perf_counter() - t, res.nodes, res.outcome))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=40)
    ap.add_argument("--endgames", type=int, default=5)
    ap.add_argument("--skip-round4-start", action="store_true", help="skip the start of round 4 (the longest solve)")
    ap.add_argument("--limit", type=float, default=60.0)
    args = ap.parse_args()

    solver = Solver(20)
    warm = advance(1, lambda s: s.phase == "place")
    solver.solve(warm, horizon="round")  # compile

    times = []
    for i in range(args.rounds):
        rnd = i % 6
        s = advance(1000 + i, lambda s, rnd=rnd: (s.round == rnd and s.phase == "place") or s.round > rnd)
        if s.phase != "place":
            continue
        t = time.perf_counter()
        solver.solve(s, horizon="round", pv=False)
        times.append(time.perf_counter() - t)
    print(f"full-information round (6 placements): {len(times)} positions, median {1000 * statistics.median(times):.2f} ms,"
          f" max {1000 * max(times):.1f} ms  (target ≤ 50 ms median)")

    big = Solver(22)
    ends = []
    for i in range(args.endgames):
        s = advance(2000 + i, lambda s: s.round == 4 and s.phase == "pick")
        if s.phase != "pick":
            continue
        t = time.perf_counter()
        res = big.solve(s, horizon="game", pv=False)
        ends.append(time.perf_counter() - t)
        print(f"  round-5 start, seed {2000 + i}: {ends[-1]:.3f} s, {res.nodes} nodes, {res.outcome} margin {res.margin:+d}")
    print(f"endgame from the start of round 5: median {statistics.median(ends):.3f} s, max {max(ends):.3f} s (target ≤ 10 s)")

    steps = [("placements", k) for k in (4, 2, 0)] + [("starter_pick", 0)]
    if not args.skip_round4_start:
        steps.append(("round_start", 0))
    best = None
    ctx = mp.get_context("fork")
    for desc in steps:
        queue = ctx.Queue()
        proc = ctx.Process(target=_child, args=(3000, desc, queue))
        start = time.perf_counter()
        proc.start()
        proc.join(args.limit)
        if proc.is_alive():
            proc.terminate()
            proc.join()
            print(f"  round 4, {desc[0]} {desc[1]}: not solved within {args.limit:.0f} s")
            break
        plies, secs, nodes, outcome = queue.get()
        best = plies
        print(f"  round 4, {desc[0]} {desc[1]}: {plies} plies to the end solved in {secs:.2f} s ({nodes} nodes, {outcome});"
              f" wall {time.perf_counter() - start:.1f} s")
    print(f"largest depth solved within {args.limit:.0f} s from round 4: {best} plies (round 4 start = 24 plies)")


if __name__ == "__main__":
    main()

"""Goal bounds for the perfect shelf: what the groups of a shelf meeting some common goals can be.

Lemmas per goal set, proven once by CP-SAT and stored in ``data/goal_bounds.json``:

* ``max_adjacency``: "every shelf meeting TWO_COLUMNS_ALL_DIFFERENT and X_SHAPE scores at most 32
  adjacency points".  The proof is the perfect-shelf solver itself with no personal card, a goal worth
  100 and a floor that forces it (so the optimum is 100 per goal + the best adjacency), with each group
  profile above the bound shown INFEASIBLE.  ``witness`` is a shelf that reaches the bound (it is tight).
* ``infeasible_profiles``: group profiles ``[full, groups of 3, 4, 5, 6+]`` scoring ``low`` adjacency
  points or more that no shelf meeting the goals has, each shown INFEASIBLE by CP-SAT (a profile not
  proven within the time limit is left out, so it is never used).

:func:`solvers.shelfie.best_shelf.best_shelf` uses them to drop the proof pieces whose counted goals
rule them out.  Why: two all-different columns fight big groups (a group meets such a column once at
most), and refuting that piece by piece, once per personal card, is slow; a card-free lemma is
proven once and serves all 12 cards.  The
profile notion is the solver's own (one 6-cell core per group of 6+), so a real shelf always has
the profile of its true groups and a lemma never drops a piece holding one.  Entries are for the
default TWO_SQUARES rule; goal sets with TWO_SQUARES are not used under another rule.

Prove and store (or, with no goal sets, prove the stored ones again), on 2 cores:
    python -m solvers.shelfie.goal_bounds TWO_COLUMNS_ALL_DIFFERENT+X_SHAPE --low 29 --write
writes ``./shelfie_goal_bounds.json`` (``--out``); the shipped file changes only with ``--force``, and a
stored lemma is never replaced by a weaker one (a higher bound or fewer impossible profiles).
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path
from typing import Any

from ortools.sat.python import cp_model

from puzzles.shelfie.rules import COMMON_GOAL_KEYS, adjacency_points, check_goal_key
from solvers.shelfie.best_shelf import best_shelf
from solvers.shelfie.model import BOUNDS_FILE, CLIQUE, PROBING, N, build_model, goal_lemmas, stored_bounds, tasks

__all__ = ["BOUNDS_FILE", "goal_lemmas", "profile_feasible", "prove_adjacency_bound", "stored_bounds"]
_TOKEN = 100  # a goal's worth in the lemma: more than any adjacency, so the floor forces the goals


def _pair(goals: tuple[str, ...]) -> tuple[tuple[str, str], tuple[int, int]]:
    """The solver's goal pair and token values for a lemma about one or two goals."""
    goals = tuple(sorted(check_goal_key(g) for g in goals))
    if len(goals) not in (1, 2) or len(set(goals)) != len(goals):
        raise ValueError(f"give one or two different common goals, got {goals!r}")
    if len(goals) == 2:
        return goals, (_TOKEN, _TOKEN)
    return (goals[0], next(k for k in COMMON_GOAL_KEYS if k != goals[0])), (_TOKEN, 0)


def prove_adjacency_bound(goals: tuple[str, ...], time_limit: float = 600.0, workers: int = 2,
                          low: int | None = None, profile_time_limit: float = 30.0) -> dict[str, Any]:
    """The most adjacency points a shelf meeting every goal in ``goals`` (one or two) scores, proven by
    CP-SAT; with ``low``, also the group profiles scoring ``low`` or more that such shelves cannot have."""
    pair, tokens = _pair(goals)
    counted = pair if tokens[1] else pair[:1]
    result = best_shelf(None, pair, token_values=tokens, end_token=False, time_limit=time_limit,
                        workers=workers, min_score=_TOKEN * len(counted), goal_bounds=False)
    if result.interrupted:
        raise KeyboardInterrupt
    if not result.optimal:
        raise RuntimeError(f"{'+'.join(counted)}: not proven in {time_limit:g} s (bound {result.bound:g})")
    adjacency = adjacency_points(result.shelf)
    assert adjacency == result.score - _TOKEN * len(counted)
    entry = {"goals": list(counted), "max_adjacency": adjacency, "witness": result.shelf.rows(),
             "seconds": round(result.seconds, 1), "pieces": result.pieces}
    if low is not None:
        start = time.perf_counter()
        profiles = _profiles(pair, tokens, low, adjacency)
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            answers = list(pool.map(lambda p: profile_feasible(counted, p, profile_time_limit), profiles))
        entry.update(low=low, infeasible_profiles=[list(p) for p, a in zip(profiles, answers) if a is False],
                     profile_seconds=round(time.perf_counter() - start, 1))
    return entry


def _profiles(pair: tuple[str, str], tokens: tuple[int, int], low: int, high: int) -> list[tuple[int, ...]]:
    """The (full, groups of 3, 4, 5, 6+) profiles of shelves meeting the goals that counting allows."""
    out = set()
    for _, (_, g1, g2, full, *counts) in tasks(None, tokens, False, pair):
        if g1 and (g2 or not tokens[1]) and low <= _points(counts) <= high:
            out.add((full, *counts))
    return sorted(out)


def _points(counts: list[int] | tuple[int, ...]) -> int:
    return sum(p * c for p, c in zip((2, 3, 5, 8), counts))


def profile_feasible(goals: tuple[str, ...], profile: list[int] | tuple[int, ...], time_limit: float = 30.0) -> bool | None:
    """Whether some shelf meeting ``goals`` has group profile (full, groups of 3, 4, 5, 6+): CP-SAT's
    answer, None when it is not proven within ``time_limit``."""
    base, parts, tokens = _lemma_model(tuple(sorted(goals)))
    model = base.clone()
    full, *counts = profile
    model.clear_objective()
    model.add(parts["goals"][0] == 1)
    if tokens[1]:
        model.add(parts["goals"][1] == 1)
    model.add(parts["full"] == full)
    if not full:
        model.add(parts["n_filled"] <= N - 1)
    for size, count in zip((3, 4, 5, 6), counts):
        model.add(parts["counts"][size] == count)
    solver = cp_model.CpSolver()
    solver.parameters.catch_sigint_signal = False  # CP-SAT's handler aborts the process when solves run in threads
    solver.parameters.num_workers = 1
    solver.parameters.linearization_level = 0
    solver.parameters.max_time_in_seconds = time_limit
    solver.parameters.probing_deterministic_time_limit = PROBING
    solver.parameters.merge_at_most_one_work_limit = CLIQUE
    status = solver.solve(model)
    return {cp_model.INFEASIBLE: False, cp_model.OPTIMAL: True, cp_model.FEASIBLE: True}.get(status)


@cache
def _lemma_model(goals: tuple[str, ...]):
    """The card-free shelf model of a lemma (built once, cloned for each profile), its parts and tokens."""
    pair, tokens = _pair(goals)
    model, _, _, parts, _, _ = build_model(None, pair, tokens, False, False, False)
    return model, parts, tokens


def stronger_or_equal(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether lemma ``new`` says at least what ``old`` says: a bound no higher and every impossible profile."""
    old_profiles = {tuple(p) for p in old.get("infeasible_profiles", [])}
    new_profiles = {tuple(p) for p in new.get("infeasible_profiles", [])}
    return new["max_adjacency"] <= old["max_adjacency"] and old_profiles <= new_profiles


def merge_lemmas(stored: list[dict[str, Any]], found: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """``stored`` updated with ``found``; a stored lemma is never replaced by a weaker one (those are listed)."""
    entries = {tuple(e["goals"]): e for e in stored}
    kept = []
    for entry in found:
        key = tuple(entry["goals"])
        if key in entries and not stronger_or_equal(entry, entries[key]):
            kept.append("+".join(key))
            continue
        entries[key] = entry
    return [entries[k] for k in sorted(entries)], kept


DEFAULT_OUT = "shelfie_goal_bounds.json"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("goal_sets", nargs="*", help="GOAL or GOAL+GOAL (default: the stored sets)")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--workers", "--threads", dest="workers", type=int, default=2, help="CP-SAT threads")
    parser.add_argument("--low", type=int, help="also prove which profiles scoring LOW or more are impossible")
    parser.add_argument("--profile-time-limit", type=float, default=30.0)
    parser.add_argument("--write", action="store_true",
                        help=f"store the proven lemmas in --out (default ./{DEFAULT_OUT}), the stored ones merged in")
    parser.add_argument("--out", default=DEFAULT_OUT, help="file written by --write")
    parser.add_argument("--force", action="store_true",
                        help=f"with --write: update the shipped {BOUNDS_FILE.name} itself (a stronger stored lemma "
                             "is still never replaced by a weaker one)")
    args = parser.parse_args(argv)
    sets = ([(tuple(s.split("+")), args.low) for s in args.goal_sets]
            or [(tuple(e["goals"]), e.get("low", args.low)) for e in stored_bounds()])
    for goals, _ in sets:
        try:
            _pair(goals)  # bad names are refused before any proof runs
        except ValueError as error:
            parser.error(str(error))
    found: list[dict[str, Any]] = []
    for goals, low in sets:
        try:
            entry = prove_adjacency_bound(goals, args.time_limit, args.workers, low, args.profile_time_limit)
        except KeyboardInterrupt:
            parser.exit(130, f"interrupted: {len(found)} lemmas proven, nothing written\n")
        except (RuntimeError, TimeoutError) as error:  # not proven within the time limit
            parser.exit(1, f"{error}; nothing written\n")
        found.append(entry)
        print(f"{'+'.join(entry['goals']):<45s} max adjacency {entry['max_adjacency']:2d}  "
              f"{entry['seconds']:6.1f} s {entry['pieces']:3d} pieces  {'/'.join(entry['witness'])}", flush=True)
        if low is not None:
            print(f"  {len(entry['infeasible_profiles'])} impossible profiles scoring {low}+ "
                  f"({entry['profile_seconds']:.1f} s)", flush=True)
    if args.write:
        target = BOUNDS_FILE if args.force else Path(args.out)
        entries, kept = merge_lemmas(list(stored_bounds()), found)
        for name in kept:
            print(f"{name}: the stored lemma is stronger (lower bound or more impossible profiles); kept it")
        target.write_text(json.dumps({"bounds": entries}, indent=1) + "\n")
        stored_bounds.cache_clear()
        note = "" if args.force else f" (the shipped {BOUNDS_FILE.name} is unchanged; --force updates it)"
        print(f"wrote {len(entries)} lemmas to {target}{note}")


if __name__ == "__main__":
    main()

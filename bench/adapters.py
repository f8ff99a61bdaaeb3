"""Random rollouts through the OpenSpiel and PettingZoo adapters against the native engine, and the Blokus mask cost.

Prints, per game, uniformly random games per CPU second (``time.process_time``: the
machine is shared) played three ways: the engine's own ``GameState`` loop, the
OpenSpiel adapter (``pyspiel`` state: ``legal_actions``/``chance_outcomes``/``apply_action``)
and the PettingZoo adapter (``agent_iter``/``last``/``step`` with the action mask
from every observation).  Then the Blokus legal-action mask per step: the compiled
move generation it calls and the adapter's overhead on top of it (filling the mask).

    python bench/adapters.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from puzzles import GAMES

CASES: list[tuple[str, dict[str, Any]]] = [
    ("blokus", {"players": 2, "variant": "duo"}),
    ("blokus", {"players": 4}),
    ("projectl", {"players": 2}),
    ("shelfie", {"players": 2}),
    ("towers", {}),
]


def native(game: str, params: dict[str, Any], seed: int) -> None:
    opts = {k: v for k, v in params.items() if k != "players"}
    state = GAMES[game].new_game(params.get("players"), seed, **opts)
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))


def openspiel(game: str, params: dict[str, Any], seed: int) -> None:
    from solvers.openspiel import load_game

    state = load_game(game, seed=seed, **params).new_initial_state()
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def pettingzoo(game: str, params: dict[str, Any], seed: int) -> None:
    from solvers.pettingzoo import kibitz_env

    env = kibitz_env(game, **params)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        env.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def games_per_second(run: Callable[[str, dict[str, Any], int], None], game: str, params: dict[str, Any],
                     games: int) -> float:
    run(game, params, 10_000)  # warm up (numba, tables)
    start = time.process_time()
    for seed in range(games):
        run(game, params, seed)
    return games / max(time.process_time() - start, 1e-9)


def blokus_mask(steps: int = 2000) -> tuple[float, float, float]:
    """(mask µs/step, move generation µs/step, adapter overhead µs/step) over random Duo and classic positions."""
    from puzzles.blokus.codec import BlokusCodec

    states = []
    for variant, players in (("duo", 2), ("classic", 4)):
        state = GAMES["blokus"].new_game(players, variant=variant)
        rng = random.Random(1)
        while not state.is_terminal():
            states.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    duo_codec, classic_codec = BlokusCodec(states[0]), BlokusCodec(states[-1])
    picks = [states[i % len(states)] for i in range(steps)]
    buffers = {duo_codec.num_actions: np.zeros(duo_codec.num_actions, np.int8),
               classic_codec.num_actions: np.zeros(classic_codec.num_actions, np.int8)}
    codec_of = {14: duo_codec, 20: classic_codec}
    start = time.process_time()
    for s in picks:
        c = codec_of[s.tables.size]
        c.legal_mask(s, buffers[c.num_actions])
    mask = (time.process_time() - start) / steps * 1e6
    start = time.process_time()
    for s in picks:
        s.legal_placements()
    movegen = (time.process_time() - start) / steps * 1e6
    return mask, movegen, mask - movegen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5, help="games per game and road (default 5)")
    args = parser.parse_args()
    print(f"random games per CPU second ({args.games} games each)")
    print(f"{'game':28} {'native':>9} {'openspiel':>10} {'pettingzoo':>11}")
    for game, params in CASES:
        label = game + " " + ",".join(f"{k}={v}" for k, v in params.items())
        rates = [games_per_second(run, game, params, args.games) for run in (native, openspiel, pettingzoo)]
        print(f"{label:28} {rates[0]:9.1f} {rates[1]:10.1f} {rates[2]:11.1f}")
    mask, movegen, overhead = blokus_mask()
    print(f"Blokus legal-action mask: {mask:.1f} µs/step = move generation {movegen:.1f} µs "
          f"+ adapter overhead {overhead:.1f} µs (target < 50 µs)")


if __name__ == "__main__":
    main()

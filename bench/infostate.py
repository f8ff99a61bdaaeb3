"""Cost of information states: the engine's string and tensor, OpenSpiel's resample_from_infostate and ISMCTS.

Prints, per game, the CPU microseconds (``time.process_time``: the machine is shared) of one
``information_state_string`` and one ``information_state_tensor`` call, averaged over every
decision state of a few random games; for Rainbow Blackjack, one ``resample_from_infostate``
through the OpenSpiel adapter (a replayed history, deal included) and a whole game of
OpenSpiel's ISMCTS bot (4 simulations a move, one random rollout each) against random play.

    python bench/infostate.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

from puzzles import GAMES

CASES: list[tuple[str, dict[str, Any]]] = [("towers", {}), ("projectl", {"players": 2})]


def decision_states(game: str, params: dict[str, Any], games: int) -> list[Any]:
    """Every decision state of ``games`` random games (Project L capped at 300 moves a game)."""
    out = []
    for seed in range(games):
        opts = {k: v for k, v in params.items() if k != "players"}
        state = GAMES[game].new_game(params.get("players"), seed, **opts)
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            out.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
    return out


def per_call_us(states: list[Any], call: str) -> float:
    start = time.process_time()
    for state in states:
        getattr(state, call)(state.current_player())
    return 1e6 * (time.process_time() - start) / len(states)


def openspiel_towers(games: int) -> tuple[float, float]:
    """(resample_from_infostate in ms, one ISMCTS-vs-random game in s), CPU time, towers."""
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from solvers.openspiel import load_game

    game = load_game("towers")
    resample_s, ismcts_s = 0.0, 0.0
    resamples = 0
    for seed in range(games):
        rs = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, max_simulations=4, random_state=rs)
        state = game.new_initial_state()
        start = time.process_time()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rs.choice(outcomes, p=probs)))
            elif state.current_player() == 1:
                state.apply_action(int(bot.step(state)))
            else:
                state.apply_action(int(rs.choice(state.legal_actions())))
        ismcts_s += time.process_time() - start
        replay = game.new_initial_state()
        sampler = pyspiel.UniformProbabilitySampler(seed, 0.0, 1.0)
        for action in state.history()[:-1]:
            replay.apply_action(action)
            if not replay.is_chance_node() and not replay.is_terminal():
                start = time.process_time()
                replay.resample_from_infostate(replay.current_player(), sampler)
                resample_s += time.process_time() - start
                resamples += 1
    return 1e3 * resample_s / resamples, ismcts_s / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    print("| game | decision states | shape | string (us) | tensor (us) |")
    print("|---|---|---|---|---|")
    for game, params in CASES:
        states = decision_states(game, params, args.games)
        per_call_us(states[:5], "information_state_tensor")  # warm up (imports)
        shape = states[0].information_state_tensor_shape()
        print(f"| {game} {params or ''} | {len(states)} | {shape} | {per_call_us(states, 'information_state_string'):.0f}"
              f" | {per_call_us(states, 'information_state_tensor'):.0f} |")
    try:
        resample_ms, game_s = openspiel_towers(args.games)
    except ImportError:
        print("\n(OpenSpiel not installed: pip install -e '.[openspiel]')")
        return
    print(f"\ntowers through OpenSpiel: resample_from_infostate {resample_ms:.1f} ms a call (mean over every decision),"
          f" ISMCTS (4 simulations a move) vs random {game_s:.2f} s a game ({args.games} games)")


if __name__ == "__main__":
    main()

"""Data of notebooks/project_l.ipynb: which puzzles and pieces pay back, engine growth, solo difficulty by deck.

    nice -n 10 python bench/study_projectl.py [--redo games|solo]

Seeded, one process, sections saved to ``bench/results/study_projectl.json`` as they finish.

* ``games``: 2-player games of the ``mcts`` bot against ``greedy`` (seats swapped every game), default
  deck.  Per game: every puzzle taken (card, round taken, round completed or -1), every piece placed
  (shape), every piece gained (shape, how: ``piece``/``upgrade``/``reward``), and at the start of every round
  and at the end each seat's *engine* (total level = cells of the pieces it owns) and points.
* ``solo``: the solo variant, greedy and mcts against the automated opponent, by deck (the default
  deck, generator seed 2020, and decks of generator seeds 1 and 2) and difficulty.
"""

from __future__ import annotations

import random
from typing import Any

from study_common import progress, run_study

from puzzles.projectl.cards import LEVEL
from puzzles.projectl.engine import MasterPlace, Place, ProjectLState, Take, TakePiece, Upgrade
from solvers.bots import make_bot
from solvers.projectl.deckgen import generate_deck

GAMES = 60
BOTS = ("mcts", "greedy")
SOLO_DECK_SEEDS = (2020, 1, 2)
SOLO_DIFFICULTIES = ("normal", "hard", "unbeatable")
SOLO_GAMES = {"greedy": 40, "mcts": 20}


def engine_level(state: ProjectLState, seat: int) -> int:
    """Cells of all pieces ``seat`` owns: in stock and on its unfinished puzzles."""
    on_cards = sum(LEVEL[shape] for _, _, pieces in state.puzzles[seat] for shape, _ in pieces)
    return sum(LEVEL[s] * n for s, n in enumerate(state.stock[seat])) + on_cards


def record_game(seed: int) -> dict[str, Any]:
    """One 2-player game (mcts and greedy, swapped on odd seeds) with what each seat took, placed and gained."""
    specs = list(BOTS) if seed % 2 == 0 else list(reversed(BOTS))
    bots = [make_bot("projectl", spec) for spec in specs]
    state = ProjectLState.new_game(2, seed)
    rng = random.Random(seed)
    taken: list[dict[str, Any]] = []
    placed: list[list[int]] = [[], []]
    gained: list[list[tuple[int, str]]] = [[], []]
    growth = [[[engine_level(state, p), 0] for p in range(2)]]
    while not state.is_terminal():
        seat, round_before, done_before = state.player, state.round, len(state.completions)
        action = bots[seat].choose(state, rng)
        card_taken = _card_in_row(state, action)
        state.apply(action)
        if card_taken is not None:
            taken.append({"seat": seat, "card": state.cards[card_taken].id, "round": round_before, "done": -1})
        if isinstance(action, Place | MasterPlace):
            placed[seat].append(action.shape)
        if isinstance(action, TakePiece | Upgrade):
            gained[seat].append((0 if isinstance(action, TakePiece) else action.new,
                                 "piece" if isinstance(action, TakePiece) else "upgrade"))
        for turn, who, card, reward in state.completions[done_before:]:
            _mark_done(taken, who, state.cards[card].id, turn // 2)
            if reward >= 0:
                gained[who].append((reward, "reward"))
        if state.round != round_before:
            growth.append([[engine_level(state, p), state.points(p)] for p in range(2)])
    growth.append([[engine_level(state, p), int(state.scores()[p])] for p in range(2)])  # the end of the game
    return {"seed": seed, "bots": specs, "scores": state.scores(), "rounds": state.round + 1, "taken": taken,
            "placed": placed, "gained": gained, "growth": growth}


def _card_in_row(state: ProjectLState, action: Any) -> int | None:
    """The card index a Take action takes (None for other actions)."""
    if not isinstance(action, Take):
        return None
    return (state.white_row if action.row in "WG" else state.black_row)[action.slot]


def _mark_done(taken: list[dict[str, Any]], seat: int, card: str, round_done: int) -> None:
    for row in taken:
        if row["seat"] == seat and row["card"] == card and row["done"] < 0:
            row["done"] = round_done
            return


def games() -> dict[str, Any]:
    return {"bots": list(BOTS), "games": [record_game(seed) for seed in progress(range(GAMES), "2-player games")]}


def solo() -> list[dict[str, Any]]:
    """Solo games per (bot, deck seed, difficulty): wins, player's and opponent's scores."""
    rows = []
    cases = [(bot, deck, level) for bot in ("greedy", "mcts") for deck in SOLO_DECK_SEEDS for level in SOLO_DIFFICULTIES]
    for bot, deck_seed, difficulty in progress(cases, "solo (bot x deck x difficulty)"):
        cards = generate_deck(deck_seed)
        mine, theirs, wins = [], [], 0.0
        for game in range(SOLO_GAMES[bot]):
            state = ProjectLState.new_game(1, 100 + game, solo=True, difficulty=difficulty, cards=cards)
            player = make_bot("projectl", bot)
            rng = random.Random(game)
            while not state.is_terminal():
                state.apply(player.choose(state, rng))
            wins += state.returns()[0]
            mine.append(state.scores()[0])
            theirs.append(state.opponent_score())
        rows.append({"bot": bot, "deck_seed": deck_seed, "difficulty": difficulty, "games": SOLO_GAMES[bot],
                     "wins": wins, "scores": mine, "opponent_scores": theirs})
    return rows


if __name__ == "__main__":
    run_study("projectl", {"games": games, "solo": solo}, __doc__ or "")

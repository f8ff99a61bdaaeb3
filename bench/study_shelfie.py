"""Data of notebooks/my_shelfie.ipynb: goal and card difficulty, which common goals decide games.

    nice -n 10 python bench/study_shelfie.py [--redo games]

Seeded, one process, saved to ``bench/results/study_shelfie.json``.

* ``games``: 2-player games of ``lookahead`` against itself, played whole in the numba kernel (deal
  from ``new_game(2, seed)``, refills and the bots' sampling from numba's stream seeded with the game's
  seed).  Per game: the two common goals, the personal cards, and per seat the points by source (the
  token taken on each common goal, the end-game token, personal goal, adjacency) and the winner.

The best achievable scores come from ``bench/results/shelfie_best_shelf_all.tsv`` (the proven optimum
for every personal card / goal pair), which the notebook reads directly.
"""

from __future__ import annotations

from typing import Any

from study_common import progress, run_study

from puzzles.shelfie import kernel
from puzzles.shelfie.engine import new_game
from solvers.shelfie.bots import play_logged_game

GAMES = 1500
BOT = "lookahead"


def record_game(seed: int) -> dict[str, Any]:
    """One kernel game of lookahead self-play, with every seat's points by source."""
    state = new_game(2, seed)
    _, _, _, final = play_logged_game(state, [BOT, BOT], seed)
    state.arrays = final
    seats = []
    for seat in range(2):
        parts = state.score_breakdown(seat)
        seats.append({"goal_tokens": [int(t) for t in final.tokens[seat]], "end_token": parts["end_token"],
                      "personal": parts["personal_goal"], "adjacency": parts["adjacency"], "total": parts["total"]})
    assert [s["total"] for s in seats] == [int(kernel.seat_score(final, s)) for s in range(2)]
    return {"seed": seed, "goals": list(state.common_goals), "cards": list(state.personal_cards), "seats": seats,
            "winner": state.winner()}


def games() -> dict[str, Any]:
    return {"bot": BOT, "games": [record_game(seed) for seed in progress(range(GAMES), "lookahead self-play")]}


if __name__ == "__main__":
    run_study("shelfie", {"games": games}, __doc__ or "")

"""My Shelfie challenges: the best shelf for a personal goal card and two common goals.

A challenge is a personal card (1..12) and two different common goals drawn from a seed; the
puzzle asks for a bookshelf scoring as much as possible (adjacency groups + personal card + 8 for
each common goal met + the end-game token for a full shelf, docs/rules/my-shelfie.md) and states
the score to reach.  The solution is a shelf reaching the optimum that the exact best-shelf solver
(:func:`solvers.shelfie.best_shelf.best_shelf`, CP-SAT, no time limit) proved: the shelf is
re-scored by the rules (:func:`verify_solution`) before a challenge is returned.

**Difficulty** = solver effort: the CP-SAT pieces the proof had to solve (each piece is one
(tier, group profile) part of the search; more pieces = more ways to come close to the optimum):
easy < 3, medium 3..5, hard >= 6.  The puzzle never holds the shelf; :meth:`ShelfieChallenge.solution_json`
gives it apart.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from puzzles.sheets import CHAR_EM, EMPTY_FILL, Figure, Panel, cells_figure, text
from puzzles.shelfie.render import COLOURS, GOAL_TEXT
from puzzles.shelfie.rules import (
    COLS,
    COMMON_GOAL_KEYS,
    END_GAME_TOKEN,
    LETTERS,
    ROWS,
    TYPE_NAMES,
    Bookshelf,
    adjacency_points,
    common_goal_met,
    personal_goal_card,
    personal_goal_points,
)

TOKEN = 8  # the top scoring token of a common goal (the best case the solver assumes)
#: name: [lo, hi) of CP-SAT pieces solved for the proof.
LEVELS: dict[str, tuple[int, int]] = {"easy": (0, 3), "medium": (3, 6), "hard": (6, 10**9)}


@dataclass(frozen=True)
class ShelfieChallenge:
    """A personal card and two common goals, with the proven best shelf and the solver's effort."""

    seed: int
    level: str
    personal: int
    goals: tuple[str, str]
    shelf: tuple[str, ...]  # rows top to bottom, tile letters (``.`` empty)
    score: int
    breakdown: dict[str, int]
    pieces: int  # CP-SAT pieces solved to prove the optimum
    seconds: float  # CPU seconds of the proof (this process, CP-SAT's thread included)

    def difficulty_line(self) -> str:
        bands = ", ".join(f"{name} {lo}..{hi - 1}" if hi < 10**9 else f"{name} {lo}+" for name, (lo, hi) in LEVELS.items())
        return f"Difficulty: {self.level}, {self.pieces} solver pieces to prove the optimum ({bands})"

    def task_line(self) -> str:
        return (f"Fill a bookshelf (tiles rest on the bottom or on a tile; at most 22 of a type) to score {self.score}"
                " points, the proven best: adjacent groups + personal card + 8 per common goal + 1 for a full shelf.")

    def to_text(self) -> str:
        """The puzzle as text: the card, the goals, the score to reach (no shelf)."""
        card = [["." for _ in range(COLS)] for _ in range(ROWS)]
        for r, c, t in personal_goal_card(self.personal):
            card[r][c] = LETTERS[t]
        goals = [f"  {i}. {key.replace('_', ' ').lower()}: {GOAL_TEXT.get(key, '')}" for i, key in enumerate(self.goals, 1)]
        return "\n".join([f"My Shelfie best-shelf challenge {self.seed} ({self.level}, {self.pieces} solver pieces)",
                          self.difficulty_line(), self.task_line(), f"personal goal card {self.personal}:",
                          *("  " + " ".join(row) for row in card), "common goals (8 points each):", *goals])

    def to_json(self) -> dict[str, Any]:
        """The puzzle (no shelf)."""
        return {"kind": "shelfie best-shelf challenge", "seed": self.seed, "difficulty": self.level,
                "pieces": self.pieces, "personal": self.personal, "goals": list(self.goals), "target": self.score}

    def solution_json(self) -> dict[str, Any]:
        """The answer, apart: a best shelf, its score by the rules, and how the optimum was proved."""
        return {"kind": "shelfie best-shelf challenge solution", "seed": self.seed, "difficulty": self.level,
                "personal": self.personal, "goals": list(self.goals), "shelf": list(self.shelf), "score": self.score,
                "breakdown": self.breakdown, "status": "proved",
                "proof": f"optimal: best_shelf (CP-SAT) proved no shelf scores more ({self.pieces} pieces)"}

    def solution_text(self) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in self.breakdown.items())
        return "\n".join([f"solution of the best-shelf challenge {self.seed}: {self.score} points ({parts}); "
                          "optimal, proved by the exact solver", *("  " + " ".join(row) for row in self.shelf)])

    def puzzle_panel(self) -> Panel:
        """The puzzle sheet: the personal card and the goals drawn, an empty shelf to fill in."""
        card = {(r, c): COLOURS[t] for r, c, t in personal_goal_card(self.personal)}
        card_fig = cells_figure({**{(r, c): EMPTY_FILL for r in range(ROWS) for c in range(COLS)}, **card}, ROWS, COLS,
                                caption=f"personal goal card {self.personal}", role="card",
                                marks={(r, c): LETTERS[t] for r, c, t in personal_goal_card(self.personal)})
        empty = cells_figure({(r, c): EMPTY_FILL for r in range(ROWS) for c in range(COLS)}, ROWS, COLS,
                             caption="your shelf", role="grid", cell=30)
        return Panel("puzzle", f"My Shelfie: the best shelf, challenge {self.seed}", [self.difficulty_line(), self.task_line()],
                     [card_fig, goals_figure(self.goals), legend_figure(), empty], self.to_text(), self.to_json())

    def solution_panel(self) -> Panel:
        """The solution sheet: a best shelf in tile colours, its score breakdown, the proof."""
        grid = {(r, c): COLOURS[LETTERS.index(ch)] for r, row in enumerate(self.shelf) for c, ch in enumerate(row)
                if ch in LETTERS}
        marks = {(r, c): ch for r, row in enumerate(self.shelf) for c, ch in enumerate(row) if ch in LETTERS}
        fills = {**{(r, c): EMPTY_FILL for r in range(ROWS) for c in range(COLS)}, **grid}
        shelf = cells_figure(fills, ROWS, COLS, groups=dict(marks), caption=f"{self.score} points", role="solution",
                             cell=30, marks=marks)  # thick lines around each same-type group
        parts = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in self.breakdown.items())
        lines = [f"Best score {self.score} ({parts}). Status: proved optimal by the exact solver ({self.pieces} pieces)."]
        return Panel("solution", f"Solution of My Shelfie challenge {self.seed}", lines, [shelf],
                     self.solution_text(), self.solution_json())


def goals_figure(goals: tuple[str, str]) -> Figure:
    """The two common goals in words (docs/rules/my-shelfie.md), as wide as their longest text."""
    body = "".join(text(0, 14 + 30 * i, f"{i + 1}. {key.replace('_', ' ').lower()}", 10, "bold")
                   + text(12, 27 + 30 * i, GOAL_TEXT.get(key, ""), 9) for i, key in enumerate(goals))
    width = max(260.0, *(12 + len(GOAL_TEXT.get(key, "")) * 9 * CHAR_EM for key in goals))
    return Figure(body, width, 62, "common goals (8 points each)", "goals")


def legend_figure() -> Figure:
    """The tile types: colour, letter and name."""
    body = "".join(f'<rect x="0" y="{16 * t:g}" width="12" height="12" fill="{COLOURS[t]}" stroke="#666666"/>'
                   + text(18, 16 * t + 10, f"{LETTERS[t]} {TYPE_NAMES[t]}", 9) for t in range(len(LETTERS)))
    return Figure(body, 90, 16 * len(LETTERS), "tiles", "legend")


def score_shelf(rows: list[str] | tuple[str, ...], personal: int, goals: tuple[str, str]) -> tuple[int, dict[str, int]]:
    """A shelf's score by the rules: adjacency, personal card, top tokens of the goals met, end-game token."""
    shelf = Bookshelf.from_rows(list(rows))
    breakdown = {
        "adjacency": adjacency_points(shelf),
        "personal_goal": personal_goal_points(personal, shelf),
        "common_goals": sum(TOKEN for key in goals if common_goal_met(key, shelf)),
        "end_token": END_GAME_TOKEN if shelf.is_full() else 0,
    }
    return sum(breakdown.values()), breakdown


def verify_solution(solution: dict[str, Any]) -> None:
    """Re-score a solution's shelf by the rules (ValueError when it does not reach its stated score)."""
    score, _ = score_shelf(solution["shelf"], solution["personal"], tuple(solution["goals"]))  # type: ignore[arg-type]
    if score != solution["score"] or solution.get("status") != "proved":
        raise ValueError(f"the shelf scores {score}, not the stated {solution['score']}")


def draw(seed: int) -> tuple[int, tuple[str, str]]:
    """The personal card and the two common goals of ``seed``."""
    rng = random.Random(seed)
    first, second = rng.sample(list(COMMON_GOAL_KEYS), 2)
    return rng.randint(1, 12), (first, second)


def attempt(seed: int, level: str | None = None) -> ShelfieChallenge | None:
    """The challenge of ``seed`` (proved optimal, re-scored), or None when its effort is outside ``level``."""
    from solvers.shelfie.best_shelf import best_shelf

    personal, goals = draw(seed)
    start = time.process_time()
    result = best_shelf(personal, goals, time_limit=None, workers=1, seed=seed)
    cpu = time.process_time() - start
    if result.interrupted:
        raise KeyboardInterrupt
    if not result.optimal:
        return None
    found = next(name for name, (lo, hi) in LEVELS.items() if lo <= result.pieces < hi)
    if level is not None and found != level:
        return None
    rows = tuple(result.shelf.rows())  # tile letters, "." for an empty cell
    score, breakdown = score_shelf(rows, personal, goals)
    if score != result.score:
        raise ValueError(f"seed {seed}: the solver's shelf scores {score} by the rules, not {result.score}")
    return ShelfieChallenge(seed, found, personal, goals, rows, score, breakdown, result.pieces, cpu)


def generate(count: int = 1, level: str = "medium", seed: int = 0, max_tries: int = 500) -> Iterator[ShelfieChallenge]:
    """``count`` challenges of ``level`` from seeds ``seed, seed+1, ...`` (different card/goal draws)."""
    if level not in LEVELS:
        raise ValueError(f"unknown difficulty {level!r}; use {', '.join(LEVELS)}")
    seen: set[tuple[int, tuple[str, ...]]] = set()
    found = 0
    for s in range(seed, seed + max_tries):
        if found == count:
            return
        personal, goals = draw(s)
        if (personal, tuple(sorted(goals))) in seen:
            continue
        challenge = attempt(s, level)
        if challenge is None:
            continue
        seen.add((personal, tuple(sorted(goals))))
        found += 1
        yield challenge
    if found < count:
        raise ValueError(f"only {found} {level} challenges among {max_tries} seeds")

"""Endgame challenges for Rainbow Blackjack: full-information positions where exactly one move wins (or saves a draw).

Candidates come from seeded random play into the second grid (rounds 5-6);
each is solved exactly to the end of the game by :class:`solvers.towers.solver.Solver`
(every legal move's value).  A position is a challenge when the best outcome
for the player to move is a win or a draw and exactly ONE legal move reaches
that outcome: every other move loses (or, for a draw, loses outright).

A challenge is a puzzle: its position (:meth:`Challenge.to_json`, :meth:`Challenge.to_text`) never
contains the answer, which lives apart (:meth:`Challenge.solution_json`, :meth:`Challenge.solution_text`:
the move, every move's value and a line of best play replayed to its proven result).  The
position is marked ``face_up`` (everything is known to both players), so a human's ``hint`` in
``kibitz towers play --from FILE`` is the exact solver's proven best move.

Grading (``difficulty``) is by the exact solver's effort: the nodes it searches to prove the value
of every legal move (:attr:`solvers.towers.solver.SolveResult.nodes`, a fresh search with a 2**20-entry
table, so the count is a property of the position).  The bands (:data:`LEVELS`) were calibrated on
the 149 challenges of seeds 0-399 at every depth 2-16 (``bench/towers_effort.py``,
``bench/results/towers_effort.md``): easy, below 100 nodes, are the 2-4 ply finishes (49 of the
sample); medium, 100-2,999, the round-6 lines and short round-5 ones (38); hard, 3,000 and up, the
round-5 endgames of 10-14 plies (62).  Candidates for a level are looked for at a depth where that effort is common
(:data:`SEARCH_PLIES`); the level is the band the proof's effort falls in, and a challenge also needs
at least :data:`MIN_FAILING` failing moves.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from puzzles.game import CHANCE, GameRecord
from puzzles.sheets import Figure, Panel, answer_figure
from puzzles.sheets import text as svg_text
from puzzles.towers.engine import TowersState
from puzzles.towers.render import LINE_CELLS
from solvers.towers.solver import SearchStopped, Solver

#: name: [lo, hi) of the exact solver's nodes to prove every legal move's value (calibrated on a sample).
LEVELS: dict[str, tuple[int, int]] = {"easy": (0, 100), "medium": (100, 3000), "hard": (3000, 10**9)}
#: name: plies left (line picks and placements) at which candidates for that level are drawn, lo..hi.
SEARCH_PLIES: dict[str, tuple[int, int]] = {"easy": (2, 4), "medium": (3, 10), "hard": (9, 16)}
MIN_FAILING = 3  # a puzzle offers at least three moves that fail


def level_of(nodes: int) -> str:
    """The difficulty whose band holds ``nodes`` (solver effort)."""
    return next(name for name, (lo, hi) in LEVELS.items() if lo <= nodes < hi)


def bands_text() -> str:
    """The bands in words: ``easy 0..99, medium 100..1,499, hard 1,500+`` nodes."""
    return ", ".join(f"{name} {lo:,}..{hi - 1:,}" if hi < 10**9 else f"{name} {lo:,}+" for name, (lo, hi) in LEVELS.items())


def plies_left(state: TowersState) -> int:
    """Line picks and placements from ``state`` to the end of round 6 (announcements not counted)."""
    here = (2 - state.step // 2) + 6 if state.phase == "pick" else 6 - state.step
    return here + 8 * (5 - state.round)


def outcome(value: int, seat: int) -> int:
    """+1 win, 0 draw, -1 loss for ``seat`` of a P1-side value."""
    v = value if seat == 0 else -value
    return (v > 0) - (v < 0)


@dataclass
class Challenge:
    """One endgame challenge: the face-up position, the single saving move, every move's value and a best line."""

    seed: int
    difficulty: str
    state: TowersState
    solution: str
    goal: str  # "win" or "draw"
    plies: int
    nodes: int  # the exact solver's nodes to prove every legal move's value: what the difficulty is graded by
    move_values: dict[str, int] = field(default_factory=dict)
    line: list[str] = field(default_factory=list)  # best play from the position to the end of the game
    result: str = ""  # the game's result at the end of ``line`` ("P1 wins", "P2 wins" or "draw")

    @property
    def seat(self) -> int:
        return self.state.current_player()

    @property
    def failing(self) -> list[str]:
        best = outcome(self.move_values[self.solution], self.seat)
        return [m for m, v in self.move_values.items() if outcome(v, self.seat) < best]

    def to_json(self) -> dict[str, Any]:
        """The puzzle file ``kibitz towers play --from FILE`` (or ``--load``) continues; no answer in it.

        A game record (:class:`puzzles.game.GameRecord`): the seed and the seeded random play that reach the
        position (``setup``: they set up the puzzle, they are not the game's moves), replayed through the rules
        when the file is loaded; the face-up position rides along as a cached copy (``state``).
        """
        human = self.seat
        bots = ["pimc", "pimc"]
        bots[human] = "human"
        actions = self.setup_actions()
        record = GameRecord("towers", 2, self.seed, {}, tuple(actions), setup=len(actions), face_up=True)
        return {
            **record.to_json(),
            "kind": "towers endgame challenge",
            "difficulty": self.difficulty,
            "seed": self.seed,
            "to_move": f"P{human + 1}",
            "goal": self.goal,
            "plies_left": self.plies,
            "nodes": self.nodes,
            "legal_moves": len(self.move_values),
            "failing_moves": len(self.failing),
            "bots": bots,
            "state": self.state.to_json(),
        }

    def setup_actions(self) -> list[str]:
        """The actions from the deal of :attr:`seed` to the position (the seeded random play that found it);
        ValueError for a challenge that was not found that way (no record can be written)."""
        found = _candidate_line(self.seed, *SEARCH_PLIES[self.difficulty]) if self.difficulty in SEARCH_PLIES else None
        position = self.state.clone()
        position.face_up = False
        if found is None or found[0] != position:
            raise ValueError(f"challenge seed {self.seed}: not a position found by the seeded play of a graded"
                             " challenge, so it has no record of the actions that reach it")
        return found[1]

    def solution_json(self) -> dict[str, Any]:
        """The answer, kept apart from the puzzle: the move, every move's value (P1 side), a line of best play."""
        return {
            "game": "towers",
            "kind": "towers endgame challenge solution",
            "seed": self.seed,
            "difficulty": self.difficulty,
            "to_move": f"P{self.seat + 1}",
            "goal": self.goal,
            "solution": self.solution,
            "move_values": self.move_values,
            "line": self.line,
            "result": self.result,
            "status": "proved",
            "proof": "exact solve to the end of the game",
        }

    def to_text(self) -> str:
        """The puzzle as text: who moves and what to achieve, then the face-up position (no answer)."""
        head = (f"Rainbow Blackjack endgame ({self.difficulty}, seed {self.seed}): P{self.seat + 1} to move and "
                f"{'win' if self.goal == 'win' else 'save the draw'}; {self.plies} plies to the end, "
                f"{len(self.move_values)} legal moves, exactly one {'wins' if self.goal == 'win' else 'draws'}.")
        return head + "\n" + self.difficulty_line() + "\n" + str(self.state)

    def difficulty_line(self) -> str:
        """The level with the solver effort it was graded by, and the bands."""
        return (f"Difficulty: {self.difficulty}, {self.nodes:,} solver nodes to prove every move's value "
                f"({bands_text()})")

    def goal_words(self) -> str:
        return "win" if self.goal == "win" else "save the draw"

    def puzzle_panel(self) -> Panel:
        """The puzzle sheet: who moves and to what end, the position drawn, a box for the answer (no answer)."""
        where = str(self.state).splitlines()[0]  # "round 6/6: P2 to place a stone (placement 2/6)"
        lines = [self.difficulty_line(), f"{where[0].upper()}{where[1:]}; {self.plies} plies to the end.",
                 f"P{self.seat + 1} to move and {self.goal_words()}: exactly one of the {len(self.move_values)} legal "
                 "moves does it (proved by the exact solver)."]
        return Panel("puzzle", f"Rainbow Blackjack endgame {self.seed}", lines,
                     [position_figure(self.state), answer_figure(f"P{self.seat + 1}'s move (stone>tower):")],
                     self.to_text(), self.to_json())

    def solution_panel(self) -> Panel:
        """The solution sheet: the move, every move's proven value and a line of best play."""
        values = ", ".join(f"{m} {v:+d}" for m, v in self.move_values.items())
        lines = [f"Answer: {self.solution} ({self.goal_words()}); every other move "
                 f"{'fails to win' if self.goal == 'win' else 'loses'}. Status: proved (exact solve to the end).",
                 f"Move values (P1 side: +-1000 instant win, else 64 x tower margin): {values}",
                 f"A line of best play: {' '.join(self.line)} => {self.result}"]
        return Panel("solution", f"Solution of Rainbow Blackjack endgame {self.seed}", lines,
                     [position_figure(self.state)], self.solution_text(), self.solution_json())

    def solution_text(self) -> str:
        """The answer as text: the move, why the others fail, and a line of best play to its result."""
        fails = "fails to win" if self.goal == "win" else "loses"
        values = ", ".join(f"{m} {v:+d}" for m, v in self.move_values.items())
        return (f"solution of the endgame challenge seed {self.seed} ({self.difficulty}): {self.solution}"
                f"  (every other move {fails}; proved by the exact solver to the end of the game)\n"
                f"move values (P1 side: +-1000 instant win, else 64 x tower margin): {values}\n"
                f"a line of best play: {' '.join(self.line)}  => {self.result}")


#: Stone and tower colours (docs/rules/rainbow-blackjack.md: red, orange, yellow, green, blue, purple; J = a joker, grey).
STONE_FILL = {"R": "#d62728", "O": "#ff8c1a", "Y": "#f2c318", "G": "#2ca02c", "B": "#1f77b4", "P": "#8e44ad", "J": "#9a9a9a"}
TOWER_NAMES = ("red", "orange", "yellow", "green", "blue", "purple")
STONE = 22.0


def _stone(x: float, y: float, name: str, value: int | None = None) -> str:
    """One stone: a disc in its colour with its number (a joker shows the value it took)."""
    fill = STONE_FILL[name[0]]
    label = name[1:] if name[0] != "J" else ("J" if value is None else f"J{value}")
    ink = "#111111" if name[0] in "YJ" else "#ffffff"
    return (f'<circle class="stone" cx="{x + STONE / 2:g}" cy="{y + STONE / 2:g}" r="{STONE / 2 - 1:g}" fill="{fill}" '
            f'stroke="#333333" stroke-width="0.6"/>' + svg_text(x + STONE / 2, y + STONE / 2 + 3.5, label, 9, "bold", "middle", ink))


def position_figure(state: TowersState) -> Figure:
    """The six towers (stones in order, total, owner), both players' hands and removed stones, and both
    players' grids of this half (the lines still to pick; cells of lines picked are blank)."""
    public = state.to_json()["public"]
    row = STONE + 6
    stones_x = 100
    totals_x = stones_x + max(9, *(len(t) for t in public["towers"])) * (STONE + 2) + 8
    parts = [_tower_row(state, t, stones, values, t * row, stones_x, totals_x)
             for t, (stones, values) in enumerate(zip(public["towers"], public["values"], strict=True))]
    y = 6 * row + 10
    for seat, private in enumerate(state.to_json()["private"]):
        parts.append(svg_text(0, y + 15, f"P{seat + 1} hand:", 10, "bold"))
        for i, name in enumerate(private["hand"]):
            parts.append(_stone(70 + i * (STONE + 2), y, name))
        gone = " ".join(private["removed"]) or "none"
        parts.append(svg_text(70 + max(1, len(private["hand"])) * (STONE + 2) + 10, y + 15, f"removed: {gone}", 9))
        y += row
    grids, height = _grids(state, public, y + 6)
    return Figure("".join(parts) + grids, totals_x + 80, y + 6 + height, "the position (face up: both hands known)",
                  "position")


def _tower_row(state: TowersState, t: int, stones: list[str], values: list[int | None], y: float, stones_x: float,
               totals_x: float) -> str:
    """One tower: its name on its colour, its stones bottom to top, its total and owner."""
    owner = state.owner(t)
    return (f'<rect class="tower" x="0" y="{y:g}" width="90" height="{STONE:g}" rx="4" fill="{STONE_FILL["ROYGBP"[t]]}"/>'
            + svg_text(6, y + 15, f"{TOWER_NAMES[t]} tower", 10, "bold", fill="#111111" if t == 2 else "#ffffff")
            + "".join(_stone(stones_x + i * (STONE + 2), y, name, value)
                      for i, (name, value) in enumerate(zip(stones, values, strict=True)))
            + svg_text(totals_x, y + 15, f"= {state.tower_total(t)}  " + (f"P{owner + 1}" if owner >= 0 else "none"),
                       11, "bold", cls="total"))


def _grids(state: TowersState, public: dict[str, Any], y: float) -> tuple[str, float]:
    """Both players' grids of this half side by side (rows 1-3 top to bottom, columns 1-3 left to right); the
    cells of lines already picked are left blank.  Returns the drawing and its height."""
    half = state.grid_index()
    parts = []
    for seat, private in enumerate(state.to_json()["private"]):
        x = seat * 200
        grid = private["grids"][half]
        parts.append(svg_text(x, y + 10, f"P{seat + 1} grid {half + 1}", 10, "bold"))
        spent = {c for line in public["used_lines"][seat][half] for c in LINE_CELLS[line]}
        for c in range(9):
            cx, cy = x + 34 + (c % 3) * (STONE + 2), y + 28 + (c // 3) * (STONE + 2)
            if grid is None or c in spent:
                parts.append(f'<rect class="cell spent" x="{cx:g}" y="{cy:g}" width="{STONE:g}" height="{STONE:g}" '
                             'fill="#eeeeee" stroke="#bbbbbb" stroke-width="0.6"/>')
            else:
                parts.append(_stone(cx, cy, grid[c]))
        for k in range(3):  # line labels count from 1: row1..row3 on the left, col1..col3 on top
            parts.append(svg_text(x, y + 28 + k * (STONE + 2) + 15, f"row{k + 1}", 8, fill="#444444"))
            parts.append(svg_text(x + 34 + k * (STONE + 2) + STONE / 2, y + 24, f"col{k + 1}", 7, anchor="middle",
                                  fill="#444444"))
    return f'<g class="grids">{"".join(parts)}</g>', 28 + 3 * (STONE + 2)


def _candidate(seed: int, lo: int, hi: int) -> TowersState | None:
    """Seeded random play to a decision point with lo..hi plies left (None if the game ends first)."""
    found = _candidate_line(seed, lo, hi)
    return None if found is None else found[0]


def _candidate_line(seed: int, lo: int, hi: int) -> tuple[TowersState, list[str]] | None:
    """:func:`_candidate`'s position and the actions (chance draws included) that reach it from the game dealt
    from ``seed``: what makes a challenge file a record, replayed through the rules when it is loaded."""
    rng = random.Random(seed)
    target = rng.randint(lo, hi)
    rnd = 5 - (target - 1) // 8  # round 6 (index 5) holds 1-8 plies left, round 5 9-16
    s = TowersState.new_game(seed)
    actions: list[str] = []
    while not s.is_terminal() and s.round <= rnd:
        decision = s.round == rnd and s.current_player() in (0, 1) and not (s.phase == "pick" and s.step % 2 == 1)
        if decision and plies_left(s) == target:
            return s, actions
        action = s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions())
        actions.append(s.action_to_string(action))
        s.apply(action)
    return None


def check_challenge(state: TowersState, solver: Solver, seed: int = 0, difficulty: str = "") -> Challenge | None:
    """The challenge ``state`` makes, if exactly one legal move reaches the best outcome (a win or a draw)."""
    res = solver.solve(state, horizon="game", pv=False)
    if res.status == "interrupted":  # Ctrl-C stops the whole generation, not just this candidate
        raise KeyboardInterrupt
    if res.status != "proved" or len(res.move_values) < 2:
        return None
    seat = state.current_player()
    classes = {m: outcome(v, seat) for m, v in res.move_values.items()}
    best = max(classes.values())
    if best < 0:
        return None
    winners = [m for m, c in classes.items() if c == best]
    if len(winners) != 1:
        return None
    face_up = state.clone()
    face_up.face_up = True
    try:
        line = solver.principal_variation(face_up, "game", res.value)
    except SearchStopped as stop:  # Ctrl-C while the line is drawn stops the whole generation too
        if stop.reason == "interrupted":
            raise KeyboardInterrupt from None
        raise
    return Challenge(seed, difficulty, face_up, winners[0], "win" if best > 0 else "draw", plies_left(state),
                     res.nodes, dict(res.move_values), line, replay_result(face_up, line))


def replay_result(state: TowersState, line: list[str]) -> str:
    """Play ``line`` from ``state`` through the rule engine; the result it reaches (ValueError if it does not end)."""
    work = state.clone()
    for text in line:
        action = work.string_to_action(text)
        reason = work.illegal_reason(action)
        if reason is not None:
            raise ValueError(f"the line's move {text} is illegal: {reason}")
        work.apply(action)
    if not work.is_terminal():
        raise ValueError(f"the line ends before the game does ({len(line)} moves)")
    return work.result_text()


def generate(count: int, difficulty: str = "medium", seed: int = 0, solver: Solver | None = None,
             max_tries: int = 200_000) -> Iterator[Challenge]:
    """``count`` challenges of ``difficulty`` from candidate seeds ``seed, seed+1, ...`` (each verified exactly)."""
    if difficulty not in LEVELS:
        raise ValueError(f"unknown difficulty {difficulty!r} (easy, medium or hard)")
    lo, hi = SEARCH_PLIES[difficulty]
    solver = solver or Solver(20)
    found = 0
    for s in range(seed, seed + max_tries):
        if found == count:
            return
        state = _candidate(s, lo, hi)
        if state is None:
            continue
        ch = check_challenge(state, solver, s, difficulty)
        if ch is None or level_of(ch.nodes) != difficulty or len(ch.failing) < MIN_FAILING:
            continue
        found += 1
        yield ch
    if found < count:
        raise ValueError(f"only {found} {difficulty} challenges among {max_tries} candidate seeds")

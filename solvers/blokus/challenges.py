"""Blokus "fit the pieces" challenges: a partial solitaire position with exactly one completion.

A seeded solitaire game of one color on a small board (the engine's ``solitaire-8x8-1`` variant,
docs/rules/blokus.md: the first piece covers the corner a8, every later piece touches its own color
corner to corner and never along an edge) is played out, bigger pieces first, until no piece fits.
Then ``k`` of its pieces are taken off (``k`` from the level).  The puzzle: put those pieces back so
that the whole board is a legal solitaire position.  A completion is a set of placements of the
removed pieces, on free cells, none touching a blue piece along an edge, such that every piece is
joined to the corner piece by corner contacts (then some order of play is legal).

Uniqueness is proved by an exhaustive count (:func:`count_completions`: every placement of each
removed piece, in a fixed piece order, over the cells left free, the connectivity checked at the
leaves); a challenge keeps a position only when the count is exactly 1.  The answer is replayed
through the rule engine (:class:`puzzles.blokus.engine.BlokusState`), which re-checks each move.

**Difficulty** = nodes of that exhaustive count: easy < 20, medium 20..199, hard >= 200 (with 2, 3
and 4 pieces to fit).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from puzzles.blokus.engine import BlokusState, solitaire_variant
from puzzles.blokus.render import FILL
from puzzles.blokus.tables import Move
from puzzles.polyomino import Region, piece
from puzzles.sheets import (
    EMPTY_FILL,
    Figure,
    Panel,
    board_text,
    cells_figure,
    shape_figure,
    shapes_text,
    with_coordinates,
)

Cell = tuple[int, int]
BOARD = 8  # columns and rows
EDGES = ((1, 0), (-1, 0), (0, 1), (0, -1))
CORNERS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
#: name: (pieces to fit, [lo, hi) nodes of the exhaustive count)
LEVELS: dict[str, tuple[int, tuple[int, int]]] = {"easy": (2, (0, 20)), "medium": (3, (20, 200)), "hard": (4, (200, 10**9))}
COLOR = FILL["blue"]
FIT_FILL = "#9cc3f5"  # the pieces to fit: a lighter blue, so that they stand apart on the solution sheet


@dataclass(frozen=True)
class Completion:
    """The count of completions of a position and the search nodes it took (with the completions found)."""

    count: int
    nodes: int
    found: list[list[frozenset[Cell]]] = field(default_factory=list)


def _edge_ring(cells: set[Cell] | frozenset[Cell]) -> set[Cell]:
    return {(r + dr, c + dc) for r, c in cells for dr, dc in EDGES}


def _joined(pieces: Sequence[frozenset[Cell]], corner: Cell) -> bool:
    """Whether every piece is joined to the piece on ``corner`` through corner contacts."""
    roots = [i for i, p in enumerate(pieces) if corner in p]
    if not roots:
        return False
    rings = [{(r + dr, c + dc) for r, c in p for dr, dc in CORNERS} for p in pieces]
    seen, stack = {roots[0]}, [roots[0]]
    while stack:
        i = stack.pop()
        for j, p in enumerate(pieces):
            if j not in seen and rings[i] & p:
                seen.add(j)
                stack.append(j)
    return len(seen) == len(pieces)


def count_completions(kept: Sequence[frozenset[Cell]], fit: Sequence[str], size: int = BOARD,
                      corner: Cell = (0, 0), keep: int = 2, stop_at: int | None = None) -> Completion:
    """Every completion of ``kept`` by the pieces named ``fit`` (exhaustive; ``keep`` of them are returned).

    ``stop_at``: stop once that many are found (the count is then a lower bound: enough to reject a position)."""
    occupied = set().union(*kept) if kept else set()
    free = {(r, c) for r in range(size) for c in range(size)} - occupied - _edge_ring(occupied)
    region = Region(frozenset(free), size, size)
    options = [[frozenset(cells) for cells in region.placements(piece(name))] for name in fit]
    found: list[list[frozenset[Cell]]] = []
    count = nodes = 0

    def search(i: int, chosen: list[frozenset[Cell]], blocked: frozenset[Cell]) -> None:
        nonlocal count, nodes
        nodes += 1
        if stop_at is not None and count >= stop_at:
            return
        if i == len(options):
            if _joined([*kept, *chosen], corner):
                count += 1
                if len(found) < keep:
                    found.append(list(chosen))
            return
        for cells in options[i]:
            if not cells & blocked:
                search(i + 1, [*chosen, cells], blocked | cells | _edge_ring(cells))

    search(0, [], frozenset())
    return Completion(count, nodes, found)


def replay(pieces: Sequence[tuple[str, frozenset[Cell]]], size: int = BOARD) -> BlokusState:
    """The position played through the rule engine, each piece once it touches the ones placed (re-checked)."""
    state = BlokusState(solitaire_variant(size, size, 1))
    moves = state.tables.moves
    todo = list(pieces)
    while todo:
        legal = {frozenset(moves[m].cells): moves[m] for m in state.legal_placements(0).tolist()}
        ready = [(name, cells) for name, cells in todo if cells in legal and legal[cells].piece == name]
        if not ready:
            raise ValueError(f"no legal order plays the pieces {[name for name, _ in todo]}")
        state.apply(legal[ready[0][1]])
        todo.remove(ready[0])
    return state


def playout(seed: int, size: int = BOARD) -> list[Move]:
    """A seeded solitaire game, the bigger pieces first (a random one of the two biggest sizes that fit)."""
    rng = random.Random(seed)
    state = BlokusState(solitaire_variant(size, size, 1))
    moves = state.tables.moves
    while not state.is_terminal():
        legal = [moves[m] for m in state.legal_placements(0).tolist()]
        if not legal:
            break
        biggest = max(m.size for m in legal)
        state.apply(rng.choice([m for m in legal if m.size >= biggest - 1]))
    return [m for _, m in state.moves_played if not m.is_pass]


@dataclass(frozen=True)
class FitChallenge:
    """A partial position (``kept``), the pieces to fit, the one completion and the count's nodes."""

    seed: int
    level: str
    kept: tuple[tuple[str, frozenset[Cell]], ...]
    fit: tuple[str, ...]
    solution: tuple[tuple[str, frozenset[Cell]], ...]
    nodes: int
    size: int = BOARD

    def difficulty_line(self) -> str:
        bands = ", ".join(f"{name} {lo}..{hi - 1}" if hi < 10**9 else f"{name} {lo}+" for name, (_, (lo, hi)) in LEVELS.items())
        return f"Difficulty: {self.level}, {self.nodes:,} nodes to count every completion ({bands})"

    def task_line(self) -> str:
        return (f"Place these {len(self.fit)} blue pieces so the board is a legal Blokus solitaire position: every piece "
                "joined to the corner a8 by corners, never touching blue along an edge. Exactly one way works.")

    def board_rows(self, pieces: Sequence[tuple[str, frozenset[Cell]]] = ()) -> list[str]:
        """The board as text, row 8 at the top: ``#`` a placed piece, ``+`` a piece fitted, ``.`` free."""
        cells = {cell: "#" for _, p in self.kept for cell in p} | {cell: "+" for _, p in pieces for cell in p}
        return ["".join(cells.get((r, c), ".") for c in range(self.size)) for r in range(self.size)]

    def to_text(self) -> str:
        """The puzzle as text: title, difficulty, task, the pieces drawn, the board (``#`` placed, ``.`` free)."""
        return "\n".join([f"Blokus fit-the-pieces challenge {self.seed} ({self.level}, {self.nodes} nodes)",
                          self.difficulty_line(), self.task_line(), f"pieces to fit: {' '.join(self.fit)}",
                          *shapes_text([(name, piece(name).cells) for name in self.fit]),
                          "the board (# placed, . free):", *board_text(self.board_rows())])

    def to_json(self) -> dict[str, Any]:
        """The puzzle: the board (``#`` placed), the pieces to fit (no answer)."""
        return {"kind": "blokus fit challenge", "seed": self.seed, "difficulty": self.level, "nodes": self.nodes,
                "variant": solitaire_variant(self.size, self.size, 1).name, "board": self.board_rows(),
                "fit": list(self.fit)}

    def solution_json(self) -> dict[str, Any]:
        """The answer, apart: each fitted piece's cells (row, column from 0, row 0 at the top)."""
        return {"kind": "blokus fit challenge solution", "seed": self.seed, "difficulty": self.level,
                "board": self.board_rows(), "pieces": [{"name": name, "cells": sorted(map(list, cells))}
                                                       for name, cells in self.solution],
                "status": "proved", "proof": "unique: an exhaustive count found exactly one completion"}

    def solution_text(self) -> str:
        return "\n".join([f"solution of the fit-the-pieces challenge {self.seed}: the only completion (+)",
                          *board_text(self.board_rows(self.solution))])

    def _board(self, pieces: Sequence[tuple[str, frozenset[Cell]]], role: str, caption: str) -> Figure:
        """The board: placed pieces blue, fitted ones (solution) light blue, free cells white."""
        fills = {(r, c): EMPTY_FILL for r in range(self.size) for c in range(self.size)}
        fills |= {cell: COLOR for _, p in self.kept for cell in p} | {cell: FIT_FILL for _, p in pieces for cell in p}
        groups: dict[Cell, object] = {cell: i for i, (_, p) in enumerate([*self.kept, *pieces]) for cell in p}
        return with_coordinates(cells_figure(fills, self.size, self.size, groups=groups, role=role, caption=caption,
                                             cell=24), self.size, self.size, 24)

    def puzzle_panel(self) -> Panel:
        board = self._board((), "board", "the board (corner a8 top left)")
        shapes = [shape_figure(piece(name).cells, COLOR, name) for name in self.fit]
        return Panel("puzzle", f"Blokus: fit the pieces, challenge {self.seed}", [self.difficulty_line(), self.task_line()],
                     [board, *shapes], self.to_text(), self.to_json())

    def solution_panel(self) -> Panel:
        board = self._board(self.solution, "solution", "the only completion (light blue)")
        lines = [f"Proved unique: an exhaustive count found exactly one completion ({self.nodes:,} nodes);"
                 " replayed through the rule engine."]
        return Panel("solution", f"Solution of Blokus challenge {self.seed}", lines, [board],
                     self.solution_text(), self.solution_json())


def verify_solution(puzzle: dict[str, Any], solution: dict[str, Any]) -> None:
    """Check a solution against its puzzle through the rule engine: the fitted pieces are the ones asked and the
    whole board plays legally (ValueError otherwise)."""
    kept_cells = {(r, c) for r, row in enumerate(puzzle["board"]) for c, ch in enumerate(row) if ch == "#"}
    fitted = [(p["name"], frozenset(tuple(cell) for cell in p["cells"])) for p in solution["pieces"]]
    if sorted(name for name, _ in fitted) != sorted(puzzle["fit"]):
        raise ValueError("the solution fits other pieces than the puzzle asks")
    if any(cells & kept_cells for _, cells in fitted):
        raise ValueError("a fitted piece covers a placed one")
    size = len(puzzle["board"])
    state = BlokusState(solitaire_variant(size, size, 1))
    kept = _split_pieces(kept_cells, state)
    final = replay([*kept, *fitted], size)
    if sum(len(m.cells) for _, m in final.moves_played) != len(kept_cells) + sum(len(c) for _, c in fitted):
        raise ValueError("the replay does not cover the board's pieces")


def _split_pieces(cells: set[Cell], state: BlokusState) -> list[tuple[str, frozenset[Cell]]]:
    """The placed pieces of a board drawn as ``#`` cells: its edge-connected parts (one color never touches
    itself along an edge, so each part is one piece), named by the engine's placement table."""
    moves = state.tables.moves
    by_cells = {frozenset(moves[m].cells): moves[m].piece for m in range(len(moves))}
    parts, left = [], set(cells)
    while left:
        stack = [left.pop()]
        part = set(stack)
        while stack:
            r, c = stack.pop()
            for dr, dc in EDGES:
                if (r + dr, c + dc) in left:
                    left.discard((r + dr, c + dc))
                    part.add((r + dr, c + dc))
                    stack.append((r + dr, c + dc))
        frozen = frozenset(part)
        if frozen not in by_cells:
            raise ValueError(f"the cells {sorted(part)} are not one Blokus piece")
        parts.append((by_cells[frozen], frozen))
    return parts


def attempt(seed: int, level: str) -> FitChallenge | None:
    """The challenge of ``seed`` when its position has exactly one completion in the level's node band."""
    k, (lo, hi) = LEVELS[level]
    placed = [(m.piece, frozenset(m.cells)) for m in playout(seed)]
    rng = random.Random(seed)
    if len(placed) <= k:
        return None
    taken = set(rng.sample(range(len(placed)), k))
    kept = tuple(p for i, p in enumerate(placed) if i not in taken)
    fit = tuple(placed[i][0] for i in sorted(taken))
    result = count_completions([cells for _, cells in kept], fit, stop_at=2)
    if result.count == 0:
        raise AssertionError(f"seed {seed}: the played position is not a completion")  # cannot happen
    if result.count != 1 or not lo <= result.nodes < hi:  # a count of 1 was not stopped: it is exhaustive
        return None
    solution = tuple(zip(fit, result.found[0], strict=True))
    replay([*kept, *solution])  # the engine re-checks every move of the completed board
    return FitChallenge(seed, level, kept, fit, solution, result.nodes)


def generate(count: int = 1, level: str = "medium", seed: int = 0, max_tries: int = 20_000) -> Iterator[FitChallenge]:
    """``count`` different challenges of ``level`` from seeds ``seed, seed+1, ...``."""
    if level not in LEVELS:
        raise ValueError(f"unknown difficulty {level!r}; use {', '.join(LEVELS)}")
    seen: set[tuple[str, ...]] = set()
    found = 0
    for s in range(seed, seed + max_tries):
        if found == count:
            return
        challenge = attempt(s, level)
        if challenge is None or tuple(challenge.board_rows()) in seen:
            continue
        seen.add(tuple(challenge.board_rows()))
        found += 1
        yield challenge
    if found < count:
        raise ValueError(f"only {found} {level} challenges among {max_tries} seeds")

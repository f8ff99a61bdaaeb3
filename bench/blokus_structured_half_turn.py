"""All 84 Blokus pieces on 21×17 (the centre empty), searched in structured families of half-turn layouts.

The 18×20 and 19×19 layouts are found in seconds because the mirrors (or the quarter turn) make a quarter of the
board hold one piece of every shape: a 21-piece puzzle.  On 21×17 a mirror maps its middle column (or row) onto
itself, so the mirrors cannot act on the whole board.  These families let them act on part of it:

* ``klein A B``: a band of width 2A+1 down the middle columns and one of width 2B+1 across the middle rows; the four
  corner rectangles outside the bands are the images of the top-left one (``Q``) under the two mirrors, colours
  permuted as the corners are, so each shape in ``Q`` gives one piece to every colour.  The bands hold the other
  shapes, four pieces each, in half-turn pairs (red and green are the images of blue and yellow).
* ``th`` / ``tv``: ``Q`` is the top-left 10×8, copied 10 columns right (``th``) or 8 rows down (``tv``) with the
  colours permuted by ``--sigma``, and both copies turned half a turn; the 36 cells left over form thin bands.
* ``pinwheel``: four rectangles turn around the centre, 11×8 top left, 10×9 top right and their half-turn images;
  every piece lies inside one, in half-turn pairs, and (unless ``--any-shapes``) the top left holds every shape but
  the monomino (88 cells) and the top right every shape and a second monomino (90 cells).  No bands: the rectangles
  touch each other, but it is still a 42-piece puzzle.
* ``half``: no structure, every piece in a half-turn pair anywhere; with ``--board 18x20`` a calibration (a
  half-turn layout of 18×20 is stored).  ``quarter`` (the pinwheel's top left turned a quarter at a time) and
  ``turn`` (any quarter-turn layout) are 21-piece calibrations on ``--board 19x19``, where the restarted search of
  ``kibitz blokus solitaire all-pieces --symmetric`` finds a layout in about 20 CPU-s (quarter-turn symmetric but
  for the last pieces of every colour, which CP-SAT places).

Every family is a restriction: "nothing found" in one says nothing about 21×17 itself.  SAT (CaDiCaL 1.9.5 through
python-sat, or OR-Tools CP-SAT with ``--cp-sat``) with cell-colour variables, the edge rule, a corner contact for
every piece, the start corners, and connectivity as lazy cuts.  ``--sample`` tiles ``Q`` (or a pinwheel rectangle,
``--side``) at random (a random exact cover, the shapes of ``Q`` drawn with ``--band-sets`` or at random) and asks
SAT to colour it and fill the rest, a conflict budget a try; ``--local-first`` first colours the pinwheel rectangle
alone by a randomised search (``RectangleSearch``).

    python bench/blokus_structured_half_turn.py klein --a 1 --b 1 --sample --time-limit 120
    python bench/blokus_structured_half_turn.py th --sample --band-sets "I4,I5;1,I3,I5;2,I3,I4"
    python bench/blokus_structured_half_turn.py pinwheel --cp-sat --time-limit 1800
    python bench/blokus_structured_half_turn.py turn --board 19x19 --time-limit 600

Results: ``bench/results/solitaire_all_pieces.md`` (2026-12-07, "structured families"; the pinwheel, CP-SAT and the
calibrations: 2026-12-07 evening).
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pysat.card import CardEnc, EncType  # noqa: E402
from pysat.formula import IDPool  # noqa: E402
from pysat.solvers import Solver  # noqa: E402

from puzzles.polyomino import Region, Shape, piece_set  # noqa: E402
from solvers.blokus.solitaire_sat import DIAGONALS, STEPS  # noqa: E402

Cell = tuple[int, int]
Cells = tuple[Cell, ...]
IDENTITY, LEFT_RIGHT, TOP_BOTTOM, HALF_TURN = [0, 1, 2, 3], [1, 0, 3, 2], [3, 2, 1, 0], [2, 3, 0, 1]
SIGMAS = {"h": LEFT_RIGHT, "v": TOP_BOTTOM, "c": [1, 2, 3, 0], "cc": [3, 0, 1, 2]}
CellMap = Callable[[Cells], Cells]
PIECE_CELLS = 356  # all 84 pieces


def set_board(rows: int, cols: int) -> None:
    """The board every function here works on (21×17 unless ``--board`` says otherwise; a calibration board such
    as 18×20 or 19×19 leaves some cells empty).  The pinwheel's rectangles turn around the centre cell of an odd
    board: the top left h × (w+1), the top right (h+1) × w, for a (2h+1) × (2w+1) board."""
    global ROWS, COLS, CENTRE, CORNERS, ALL_CELLS, TOP_LEFT, TOP_RIGHT
    ROWS, COLS = rows, cols
    CENTRE = (rows // 2, cols // 2) if rows % 2 and cols % 2 else (-1, -1)  # off the board when there is none
    CORNERS = [(0, 0), (0, cols - 1), (rows - 1, cols - 1), (rows - 1, 0)]  # blue, yellow, red, green
    ALL_CELLS = frozenset((r, c) for r in range(rows) for c in range(cols))
    TOP_LEFT = frozenset((r, c) for r in range(rows // 2) for c in range(cols // 2 + 1))  # 11×8 on 21×17
    TOP_RIGHT = frozenset((r, c) for r in range(rows // 2 + 1) for c in range(cols // 2 + 1, cols))  # 10×9


ROWS, COLS, CENTRE, CORNERS, ALL_CELLS, TOP_LEFT, TOP_RIGHT = 0, 0, (0, 0), [], frozenset(), frozenset(), frozenset()
set_board(17, 21)


def no_spare_cells() -> bool:
    """Whether the pieces fill the board but its centre (21×17), so every other cell is covered exactly once."""
    return len(ALL_CELLS) - (CENTRE in ALL_CELLS) == PIECE_CELLS


def around(cells: Cells | set[Cell], steps: tuple[tuple[int, int], ...]) -> set[Cell]:
    """The cells one step (``STEPS`` or ``DIAGONALS``) from ``cells``, not in them; off the board too."""
    return {(r + dr, c + dc) for r, c in cells for dr, dc in steps} - set(cells)


def sides_and_corners(p: Cells) -> tuple[set[Cell], set[Cell]]:
    """The board cells sharing an edge with piece ``p``, and those touching it only at a corner."""
    edge = around(p, STEPS)
    return edge & ALL_CELLS, (around(p, DIAGONALS) - edge) & ALL_CELLS


def mirror_lr(p: Cells) -> Cells:
    return tuple(sorted((r, COLS - 1 - c) for r, c in p))


def mirror_tb(p: Cells) -> Cells:
    return tuple(sorted((ROWS - 1 - r, c) for r, c in p))


def half_turn(p: Cells) -> Cells:
    return tuple(sorted((ROWS - 1 - r, COLS - 1 - c) for r, c in p))


def quarter_turn(p: Cells) -> Cells:
    """Clockwise about the centre of a square board: the top-left corner goes to the top-right one."""
    return tuple(sorted((c, ROWS - 1 - r) for r, c in p))


def shifted(dr: int, dc: int) -> CellMap:
    return lambda p: tuple((r + dr, c + dc) for r, c in p)


def family(name: str, a: int = 1, b: int = 1, sigma: str = "h") -> tuple[set[Cell], list[tuple[CellMap, list[int]]]]:
    """``Q`` and the maps (cells, colours) that copy a piece of ``Q`` to its four places."""
    if name == "half":  # no structure: every piece in a half-turn pair, anywhere
        return set(), []
    if name in ("quarter", "turn"):  # calibrations on a square board: the quarter turn, on the pinwheel's top left
        turns: list[tuple[CellMap, list[int]]] = [(lambda p: p, IDENTITY)]  # or anywhere (one piece an orbit)
        for _ in range(3):
            f, perm = turns[-1]
            turns.append(((lambda g: lambda p: quarter_turn(g(p)))(f), [(k + 1) % 4 for k in perm]))
        return set(TOP_LEFT) if name == "quarter" else set(ALL_CELLS - {CENTRE}), turns
    if name == "klein":
        q = {(r, c) for r in range(8 - b) for c in range(10 - a)}
        return q, [(lambda p: p, IDENTITY), (mirror_lr, LEFT_RIGHT), (mirror_tb, TOP_BOTTOM), (half_turn, HALF_TURN)]
    move = {"th": shifted(0, 10), "tv": shifted(8, 0)}[name]
    perm = SIGMAS[sigma]
    q = {(r, c) for r in range(8) for c in range(10)}
    return q, [(lambda p: p, IDENTITY), (move, perm), (half_turn, HALF_TURN),
               (lambda p: half_turn(move(p)), [HALF_TURN[perm[k]] for k in range(4)])]


def placements(region: set[Cell] | frozenset[Cell], shape: Shape) -> list[Cells]:
    """Every placement of ``shape`` (turned and flipped) inside ``region`` (cells of the board), sorted."""
    return sorted(Region(frozenset(region), ROWS, COLS).placements(shape))


class Model:
    """The SAT model of one family: a variable per placement of ``Q`` and colour (four pieces on the board) and per
    half-turn pair in the bands (two pieces), and a variable per cell and colour."""

    def __init__(self, name: str, a: int = 1, b: int = 1, sigma: str = "h", contacts: bool = True) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.shapes = piece_set("blokus")
        self.q, self.maps = self._family(name, a, b, sigma)
        self.zone = ALL_CELLS - {u for f, _ in self.maps for u in f(tuple(self.q))} - {CENTRE}
        self.pieces_of: dict[int, list[tuple[Cells, int]]] = {}  # variable -> its pieces (cells, colour)
        self.pair_variable: dict[tuple[Cells, int], int] = {}  # (piece, colour) in the bands -> its pair's variable
        self.pairs_of_shape: dict[int, list[tuple[int, Cells]]] = {}  # shape -> its pairs (variable, one piece)
        self.core_of_shape: dict[int, list[int]] = {}  # shape -> its variables in ``Q``
        self.in_q = {s: self.pool.id(("z", s)) for s in range(len(self.shapes))}
        for s in range(len(self.shapes)):
            self._shape_variables(s)
        self.colour = {(u, k): self.pool.id(("c", u, k)) for u in ALL_CELLS for k in range(4)}
        self._cover()
        self._rules(contacts)
        self.clauses += [[self.colour[(CORNERS[k], k)]] for k in range(4)]

    def _family(self, name: str, a: int, b: int, sigma: str) -> tuple[set[Cell], list[tuple[CellMap, list[int]]]]:
        return family(name, a, b, sigma)

    def _pair_allowed(self, p: Cells) -> bool:
        return True

    def core_variable(self, p: Cells, k: int) -> int:
        return self.pool.id(("q", p, k))

    def tiling_target(self, args: argparse.Namespace, rng: random.Random) -> tuple[set[Cell], list[int]]:
        """What ``--sample`` tiles at random: ``Q`` and its shapes."""
        return self.q, q_shapes(self, args, rng)

    def piece_choices(self, p: Cells) -> list[int]:
        """The variables that put a piece on exactly the cells ``p`` (any colour): in ``Q`` or in the bands."""
        if set(p) <= self.q:
            return [self.core_variable(p, k) for k in range(4)]
        return [self.pair_variable[(p, k)] for k in range(4) if (p, k) in self.pair_variable]

    def _shape_variables(self, s: int) -> None:
        """A shape is in ``Q`` once (any colour), or in the bands twice: one of blue/red and one of yellow/green."""
        core = []
        for p in placements(self.q, self.shapes[s]):
            copies = [f(p) for f, _ in self.maps]
            if len({u for c in copies for u in c}) < len(p) * len(copies):
                continue  # no piece meets its own copies
            if p != min(c for c in copies if set(c) <= self.q):
                continue  # one placement an orbit when ``Q`` holds several (``turn``)
            for k in range(4):
                x = self.core_variable(p, k)
                self.pieces_of[x] = [(f(p), perm[k]) for f, perm in self.maps]
                core.append(x)
        pairs: dict[int, list[int]] = {0: [], 1: []}
        self.pairs_of_shape[s] = []
        for p in placements(self.zone, self.shapes[s]):
            image = half_turn(p)
            if set(p) & set(image) or not self._pair_allowed(p):
                continue
            for k in range(4):
                if (p, k) < (image, HALF_TURN[k]):
                    x = self.pool.id(("x", p, k))
                    self.pieces_of[x] = [(p, k), (image, HALF_TURN[k])]
                    self.pair_variable[(p, k)] = self.pair_variable[(image, HALF_TURN[k])] = x
                    self.pairs_of_shape[s].append((x, p))
                    pairs[k % 2].append(x)
        self.core_of_shape[s] = core
        self._exactly_one_if(core, self.in_q[s])
        for k in (0, 1):
            self._exactly_one_if(pairs[k], -self.in_q[s])

    def _cover(self) -> None:
        """Every cell but the centre covered once; a cell's colour is its piece's."""
        cover: dict[Cell, list[int]] = {u: [] for u in ALL_CELLS}
        by_colour: dict[tuple[Cell, int], list[int]] = {}
        for x, pieces in self.pieces_of.items():
            for p, k in pieces:
                for u in p:
                    cover[u].append(x)
                    by_colour.setdefault((u, k), []).append(x)
                    self.clauses.append([-x, self.colour[(u, k)]])
        once = CardEnc.equals if no_spare_cells() else CardEnc.atmost
        for u in ALL_CELLS:
            if u == CENTRE:
                self.clauses += [[-x] for x in cover[u]] + [[-self.colour[(u, k)]] for k in range(4)]
                continue
            self.clauses += once(
                lits=cover[u], bound=1, vpool=self.pool, encoding=EncType.seqcounter).clauses
            self.clauses += [[-self.colour[(u, k)]] + by_colour.get((u, k), []) for k in range(4)]

    def _rules(self, contacts: bool) -> None:
        """No two pieces of a colour share an edge; every piece off its colour's corner touches its colour at one."""
        for x, pieces in self.pieces_of.items():
            for p, k in pieces:
                edge, corner = sides_and_corners(p)
                self.clauses += [[-x, -self.colour[(w, k)]] for w in edge]
                if contacts and CORNERS[k] not in p:
                    self.clauses.append([-x] + [self.colour[(w, k)] for w in corner])

    def _exactly_one_if(self, lits: list[int], when: int) -> None:
        """sum(lits) == 1 if ``when`` else 0."""
        if not lits:
            self.clauses.append([-when])
            return
        self.clauses += CardEnc.atmost(lits=lits, bound=1, vpool=self.pool, encoding=EncType.seqcounter).clauses
        self.clauses.append([-when] + lits)
        self.clauses += [[-x, when] for x in lits]

    def groups(self, chosen: set[int]) -> list[tuple[int, list[int], set[Cell]]]:
        """Every colour's corner-connected groups of pieces: (colour, their variables, their cells)."""
        out = []
        for k in range(4):
            pieces = [(x, p) for x in chosen if x in self.pieces_of for p, kk in self.pieces_of[x] if kk == k]
            for group in corner_groups([p for _, p in pieces]):
                out.append((k, [pieces[j][0] for j in group], {u for j in group for u in pieces[j][1]}))
        return out

    def cut(self, k: int, variables: list[int], cells: set[Cell]) -> list[int]:
        """A group of colour ``k`` away from its corner needs one more piece of ``k`` at one of its corners."""
        return [-x for x in variables] + [self.colour[(w, k)] for w in around(cells, DIAGONALS) & ALL_CELLS]

    def picture(self, chosen: set[int]) -> str:
        grid = [["." for _ in range(COLS)] for _ in range(ROWS)]
        for x in chosen:
            for p, k in self.pieces_of.get(x, []):
                for r, c in p:
                    grid[r][c] = "BYRG"[k]
        return "\n".join("".join(row) for row in grid)


class PinwheelModel(Model):
    """``pinwheel``: four rectangles turn around the centre, 11×8 top left, 10×9 top right and their half-turn
    images.  Every piece lies inside one rectangle, in half-turn pairs.  With ``one_each`` the top left holds one
    piece of every shape but the monomino (88 cells) and the top right one of every shape and a second monomino
    (90 cells), so each shape has one pair in each rectangle pair and every colour one piece of it."""

    def __init__(self, one_each: bool = True, contacts: bool = True) -> None:
        self.one_each = one_each
        super().__init__("pinwheel", contacts=contacts)
        if one_each:
            for s in range(len(self.shapes)):
                left, needed = self.top_left(s)
                self.clauses += CardEnc.equals(lits=left, bound=needed, vpool=self.pool,
                                               encoding=EncType.seqcounter).clauses

    def top_left(self, s: int) -> tuple[list[int], int]:
        """With ``one_each``: shape ``s``'s pairs with a piece in the top left, and how many of them a layout takes
        (one, none for the monomino on 21×17)."""
        left = [x for x, p in self.pairs_of_shape[s] if set(p) <= TOP_LEFT or set(half_turn(p)) <= TOP_LEFT]
        return left, 0 if self.shapes[s].name == "1" and not monomino_top_left() else 1

    def _family(self, name: str, a: int, b: int, sigma: str) -> tuple[set[Cell], list[tuple[CellMap, list[int]]]]:
        return set(), []

    def _pair_allowed(self, p: Cells) -> bool:
        return any(set(p) <= rect or set(half_turn(p)) <= rect for rect in (TOP_LEFT, TOP_RIGHT))

    def tiling_target(self, args: argparse.Namespace, rng: random.Random) -> tuple[set[Cell], list[int]]:
        return pinwheel_target(args.side, self.shapes)


def monomino_top_left() -> bool:
    """Whether the pinwheel's top left holds a monomino: on 21×17 it has 88 cells, every shape but the monomino;
    on a calibration board such as 19×19 (90 cells) every shape and a spare cell."""
    return len(TOP_LEFT) > PIECE_CELLS // 4 - 1


def pinwheel_target(side: str, shapes: list[Shape]) -> tuple[set[Cell], list[int]]:
    """The pinwheel's rectangle ``side`` and its shapes (indices): the top left holds every shape but the monomino,
    the top right every shape and the monomino twice."""
    if side == "left":
        return set(TOP_LEFT), [s for s, shape in enumerate(shapes) if shape.name != "1"]
    mono = next(s for s, shape in enumerate(shapes) if shape.name == "1")
    return set(TOP_RIGHT), list(range(len(shapes))) + [mono]


class RectangleSearch:
    """One pinwheel rectangle alone, a 20- or 22-piece puzzle whose answers are necessary for a layout: tiled by its
    shapes and coloured, the edge rule inside it, a contact of its colour for every piece whose corner cells all lie
    inside (the others may find theirs outside), and no group of a colour sealed inside without its corner.  A
    randomised first-empty-cell search, one answer per restart."""

    def __init__(self, side: str) -> None:
        self.shapes = piece_set("blokus")
        region, chosen = pinwheel_target(side, self.shapes)
        self.rect = frozenset(region)
        self.outside = ALL_CELLS - self.rect - {CENTRE}  # cells another rectangle fills
        self.need = {s: chosen.count(s) for s in set(chosen)}
        self.cells = sorted(self.rect)
        self.starting: dict[Cell, list[tuple[Cells, int]]] = {}
        for s in self.need:
            for p in placements(self.rect, self.shapes[s]):
                self.starting.setdefault(p[0], []).append((p, s))
        sides = {p: sides_and_corners(p) for ps in self.starting.values() for p, _ in ps}
        self.edges = {p: edge & self.rect for p, (edge, _) in sides.items()}
        self.corners = {p: corner for p, (_, corner) in sides.items()}
        self.deepest = 0  # the most pieces a search has placed

    def _needs_contact(self, p: Cells, k: int) -> bool:
        return CORNERS[k] not in p and not self.corners[p] & self.outside

    def search(self, rng: random.Random, nodes: int) -> list[tuple[Cells, int]] | None:
        """A random answer: pieces (cells, colour), or None when ``nodes`` run out first."""
        self._colour: dict[Cell, int] = {}
        self._out: list[tuple[Cells, int, int]] = []  # (cells, shape, colour)
        self._placed = {s: 0 for s in self.need}
        self._budget = nodes
        return [(p, k) for p, _, k in self._out] if self._extend(0, rng) else None

    def _extend(self, i: int, rng: random.Random) -> bool:
        self._budget -= 1
        self.deepest = max(self.deepest, len(self._out))
        while i < len(self.cells) and self.cells[i] in self._colour:
            i += 1
        if i == len(self.cells):
            return not self.sealed([(p, k) for p, _, k in self._out])
        if self._budget < 0:
            return False
        options = [(p, s, k) for p, s in self.starting.get(self.cells[i], []) for k in range(4) if self._fits(p, s, k)]
        rng.shuffle(options)
        for p, s, k in options:
            self._place(p, s, k, True)
            if self._contacts_hold() and self._extend(i + 1, rng):
                return True
            self._place(p, s, k, False)
        return False

    def _fits(self, p: Cells, s: int, k: int) -> bool:
        """Free cells, a shape left (a second monomino of the other colour pair), the start corners, the edge rule."""
        if self._placed[s] == self.need[s] or any(u in self._colour for u in p):
            return False
        if any(ss == s and kk % 2 == k % 2 for _, ss, kk in self._out):
            return False
        if any(CORNERS[j] in p and j != k for j in range(4)):
            return False
        return all(self._colour.get(w) != k for w in self.edges[p])

    def _place(self, p: Cells, s: int, k: int, on: bool) -> None:
        self._placed[s] += 1 if on else -1
        if on:
            self._out.append((p, s, k))
            self._colour.update((u, k) for u in p)
        else:
            self._out.pop()
            for u in p:
                del self._colour[u]

    def _open_to(self, w: Cell, k: int) -> bool:
        """Whether cell ``w`` has colour ``k`` or may still take it (empty, no edge neighbour of colour k)."""
        have = self._colour.get(w)
        if have is not None:
            return have == k
        return all(self._colour.get((w[0] + dr, w[1] + dc)) != k for dr, dc in STEPS)

    def _contacts_hold(self) -> bool:
        pieces = [(p, k) for p, _, k in self._out]
        return all(any(self._open_to(w, k) for w in self.corners[p] & self.rect)
                   for p, k in pieces if self._needs_contact(p, k)) and not self.sealed(pieces, self._open_to)

    def sealed(self, pieces: list[tuple[Cells, int]], open_to: Callable[[Cell, int], bool] | None = None) -> bool:
        """Whether a group of a colour lacks its corner and has no corner cell outside the rectangle nor (with
        ``open_to``) one inside that may still take its colour."""
        for k in range(4):
            mine = [p for p, kk in pieces if kk == k]
            for group in corner_groups(mine):
                cells = {u for i in group for u in mine[i]}
                reach = around(cells, DIAGONALS)
                if CORNERS[k] in cells or reach & self.outside:
                    continue
                if open_to is None or not any(open_to(w, k) for w in reach & self.rect):
                    return True
        return False


def corner_groups(pieces: list[Cells]) -> list[list[int]]:
    """The pieces (indices) grouped by corner contact (cells diagonal to each other), as connected components."""
    owner = {u: i for i, p in enumerate(pieces) for u in p}
    seen: set[int] = set()
    groups = []
    for i in range(len(pieces)):
        if i in seen:
            continue
        stack, group = [i], []
        seen.add(i)
        while stack:
            j = stack.pop()
            group.append(j)
            for r, c in pieces[j]:
                for dr, dc in DIAGONALS:
                    o = owner.get((r + dr, c + dc))
                    if o is not None and o not in seen:
                        seen.add(o)
                        stack.append(o)
        groups.append(group)
    return groups


def sample_rectangles(model: Model, args: argparse.Namespace, start: float) -> tuple[str, set[int]]:
    """Pinwheel: random answers of one rectangle alone (``RectangleSearch``) handed, tiling and colours, to the whole
    model with ``--budget`` conflicts."""
    rng = random.Random(args.seed)
    part = RectangleSearch(args.side)
    misses = 0
    search_time = 0.0

    def draw(_: Solver) -> list[int] | None:
        nonlocal misses, search_time
        began = time.process_time()
        pieces = part.search(rng, args.nodes)
        search_time += time.process_time() - began
        misses += pieces is None
        return None if pieces is None else [model.pair_variable[piece] for piece in pieces]

    return sample_loop(model, args, start, draw, lambda tries: (
        f"{tries} coloured rectangles ({misses} searches out of nodes, at most {part.deepest} pieces placed, "
        f"{search_time:.0f} CPU-s)"))


def cp_sat_model(model: Model) -> tuple[Any, dict[int, Any], dict[tuple[Cell, int], Any]]:
    """A family as a CP-SAT model, the same rules as the CNF (native exactly-one and linear colour constraints, no
    connectivity): the model, a boolean per placement variable, one per cell and colour."""
    from ortools.sat.python import cp_model

    cp = cp_model.CpModel()
    use = {x: cp.NewBoolVar(f"x{x}") for x in model.pieces_of}
    covering: dict[Cell, list[Any]] = {u: [] for u in ALL_CELLS}
    coloured: dict[tuple[Cell, int], list[Any]] = {(u, k): [] for u in ALL_CELLS for k in range(4)}
    for x, pieces in model.pieces_of.items():
        for p, k in pieces:
            for u in p:
                covering[u].append(use[x])
                coloured[(u, k)].append(use[x])
    colour = {key: cp.NewBoolVar("") for key in coloured}
    for key, users in coloured.items():
        cp.Add(sum(users) == colour[key])
    once = cp.AddExactlyOne if no_spare_cells() else cp.AddAtMostOne
    for u in ALL_CELLS - {CENTRE}:
        once(covering[u])
    for x in covering.get(CENTRE, []):
        cp.Add(x == 0)
    for s in range(len(model.shapes)):
        pairs = model.pairs_of_shape[s]
        in_q = sum(use[x] for x in model.core_of_shape[s])  # 0 or 1: in ``Q`` (four pieces) or in two pairs
        cp.Add(in_q <= 1)
        for parity in (0, 1):
            cp.Add(sum(use[x] for x, _ in pairs if model.pieces_of[x][0][1] % 2 == parity) + in_q == 1)
        if isinstance(model, PinwheelModel) and model.one_each:
            left, needed = model.top_left(s)
            cp.Add(sum(use[x] for x in left) == needed)
    for x, pieces in model.pieces_of.items():
        for p, k in pieces:
            edge, corner = sides_and_corners(p)
            for w in edge:
                cp.AddImplication(use[x], colour[(w, k)].Not())
            if CORNERS[k] not in p:
                cp.AddBoolOr([colour[(w, k)] for w in corner]).OnlyEnforceIf(use[x])
    for k in range(4):
        cp.Add(colour[(CORNERS[k], k)] == 1)
    return cp, use, colour


def cp_sat(model: Model, time_limit: float, workers: int, hint: bool = False) -> tuple[str, set[int]]:
    """A family with OR-Tools CP-SAT instead of CaDiCaL, connectivity again as lazy cuts (with ``hint``, each round
    hinted with the last candidate), within ``time_limit`` wall seconds: ("found" | "refuted" | "unknown", the chosen
    placement variables)."""
    from ortools.sat.python import cp_model

    cp, use, colour = cp_sat_model(model)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    began = time.time()
    while True:
        solver.parameters.max_time_in_seconds = max(1.0, began + time_limit - time.time())
        status = solver.Solve(cp)
        if status == cp_model.INFEASIBLE:
            return "refuted", set()
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return "unknown", set()
        chosen = {x for x in use if solver.Value(use[x])}
        apart = [g for g in model.groups(chosen) if CORNERS[g[0]] not in g[2]]
        if not apart:
            return "found", chosen
        print(f"a candidate with {len(apart)} groups apart from their corners, {time.time() - began:.0f} s",
              flush=True)
        for k, variables, cells in apart:
            reach = around(cells, DIAGONALS) & ALL_CELLS
            cp.AddBoolOr([use[x].Not() for x in variables] + [colour[(w, k)] for w in reach])
        if hint:  # start the next round from this candidate (a hint only: the cuts make it infeasible)
            cp.ClearHints()
            for x, var in use.items():
                cp.AddHint(var, x in chosen)
        if time.time() >= began + time_limit:
            return "unknown", set()


def solve(model: Model, solver: Solver, assumptions: list[int], conflicts: int,
          deadline: float) -> tuple[str, set[int], int]:
    """SAT with lazy connectivity cuts within a conflict budget and a CPU deadline (checked every 20,000
    conflicts and after every round of cuts, each round counted as 20,000 conflicts): ("found" | "refuted" |
    "unknown", the true variables, cuts)."""
    cuts = spent = 0
    while True:
        solver.conf_budget(min(conflicts - spent, 20000))
        answer = solver.solve_limited(assumptions=assumptions)
        spent += 20000
        if answer is None:
            if spent < conflicts and time.process_time() < deadline:
                continue
            return "unknown", set(), cuts
        if not answer:
            return "refuted", set(), cuts
        chosen = {x for x in solver.get_model() if x > 0}
        apart = [g for g in model.groups(chosen) if CORNERS[g[0]] not in g[2]]
        if not apart:
            return "found", chosen, cuts
        for k, variables, cells in apart:
            solver.add_clause(model.cut(k, variables, cells))
            cuts += 1
        if spent >= conflicts or time.process_time() >= deadline:
            return "unknown", set(), cuts


def random_tiling(q: set[Cell], shapes: list[Shape], rng: random.Random, nodes: int = 20000) -> list[Cells] | None:
    """A random exact cover of ``q`` by the given shapes, once each (None if the node budget runs out)."""
    cells = sorted(q)
    starting: dict[Cell, list[tuple[Cells, int]]] = {}
    for s, shape in enumerate(shapes):
        for p in placements(q, shape):
            starting.setdefault(p[0], []).append((p, s))
    filled: set[Cell] = set()
    used: set[int] = set()
    out: list[Cells] = []
    budget = [nodes]

    def extend() -> bool:
        budget[0] -= 1
        first = next((c for c in cells if c not in filled), None)
        if first is None:
            return True
        if budget[0] < 0:
            return False
        options = [(p, s) for p, s in starting.get(first, []) if s not in used and not filled.intersection(p)]
        rng.shuffle(options)
        for p, s in options:
            filled.update(p)
            used.add(s)
            out.append(p)
            if extend():
                return True
            out.pop()
            used.discard(s)
            filled.difference_update(p)
        return False

    return out if extend() else None


def q_shapes(model: Model, args: argparse.Namespace, rng: random.Random) -> list[int]:
    """The shapes of ``Q``: all but one of ``--band-sets``, or a random set of the right area."""
    names = [shape.name for shape in model.shapes]
    if args.band_sets:
        band = rng.choice(args.band_sets.split(";")).split(",")
        return [i for i in range(len(names)) if names[i] not in band]
    while True:
        chosen = [i for i, shape in enumerate(model.shapes)
                  if rng.random() < {5: 0.85, 4: 0.45}.get(len(shape.cells), 0.3)]
        if sum(len(model.shapes[i].cells) for i in chosen) == len(model.q):
            return chosen


def sample(model: Model, args: argparse.Namespace, start: float) -> tuple[str, set[int]]:
    """Random tilings of ``Q``, each handed to SAT (colours and bands free) with ``--budget`` conflicts."""
    rng = random.Random(args.seed)
    what = f"the top {args.side}" if isinstance(model, PinwheelModel) else "Q"
    tilings = 0

    def draw(solver: Solver) -> list[int] | None:
        nonlocal tilings
        region, shapes = model.tiling_target(args, rng)
        tiling = random_tiling(region, [model.shapes[s] for s in shapes], rng)
        if tiling is None:
            return None
        tilings += 1
        this_tiling = model.pool.id(("try", tilings))
        for p in tiling:
            solver.add_clause([-this_tiling] + model.piece_choices(p))
        return [this_tiling]

    return sample_loop(model, args, start, draw, lambda tries: f"{tries} tilings of {what}")


def sample_loop(model: Model, args: argparse.Namespace, start: float, draw: Callable[[Solver], list[int] | None],
                name: Callable[[int], str]) -> tuple[str, set[int]]:
    """Hand every candidate ``draw`` makes (assumptions; None: none this time) to SAT with ``--budget`` conflicts
    until one is a layout or the time is up, reporting the tries (``name`` says what they are)."""
    tries = refuted = unknown = 0
    with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
        while time.process_time() - start < args.time_limit:
            assumptions = draw(solver)
            if assumptions is None:
                continue
            tries += 1
            status, chosen, _ = solve(model, solver, assumptions, args.budget, start + args.time_limit)
            if status == "found":
                return status, chosen
            refuted += status == "refuted"
            unknown += status == "unknown"
            if tries % args.report == 0:
                print(f"{name(tries)}: {refuted} refuted, {unknown} unknown at {args.budget:,} conflicts, "
                      f"{time.process_time() - start:.0f} CPU-s", flush=True)
    print(f"{name(tries)}: {refuted} refuted, {unknown} unknown at {args.budget:,} conflicts")
    return "unknown", set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("family", choices=["klein", "th", "tv", "pinwheel", "half", "quarter", "turn"])
    parser.add_argument("--board", default="21x17", help="half, pinwheel, quarter, turn: COLSxROWS, e.g. 18x20")
    parser.add_argument("--a", type=int, default=1, help="klein: the vertical band is 2A+1 columns wide")
    parser.add_argument("--b", type=int, default=1, help="klein: the horizontal band is 2B+1 rows high")
    parser.add_argument("--sigma", choices=sorted(SIGMAS), default="h", help="th/tv: the copy's colour permutation")
    parser.add_argument("--sample", action="store_true", help="random tilings of Q, each completed by SAT")
    parser.add_argument("--side", choices=["left", "right"], default="left", help="pinwheel: the rectangle sampled")
    parser.add_argument("--any-shapes", action="store_true", help="pinwheel: not one of every shape per rectangle")
    parser.add_argument("--local-first", action="store_true",
                        help="pinwheel sample: solve the rectangle alone first (tiling and colours), then the whole")
    parser.add_argument("--no-contacts", action="store_true", help="drop the corner-contact clauses (a diagnosis)")
    parser.add_argument("--band-sets", default="", help="sample: the shapes left to the bands, e.g. 'I4,I5;2,I3,I4'")
    parser.add_argument("--budget", type=int, default=5000, help="sample: conflicts a try")
    parser.add_argument("--time-limit", type=float, default=120, help="CPU seconds (checked every 20,000 conflicts)")
    parser.add_argument("--cp-sat", action="store_true", help="the whole family with CP-SAT (--time-limit in wall s)")
    parser.add_argument("--workers", type=int, default=1, help="cp-sat: search workers")
    parser.add_argument("--hint", action="store_true", help="cp-sat: hint each round with the last candidate")
    parser.add_argument("--nodes", type=int, default=200000, help="local-first: nodes of one search of a rectangle")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--report", type=int, default=20)
    parser.add_argument("--out", default="", help="write a found layout here (JSON: pieces as cells and colours)")
    args = parser.parse_args()
    cols, rows = (int(n) for n in args.board.split("x"))
    if (cols, rows) != (21, 17) and args.family not in ("half", "pinwheel", "quarter", "turn") or \
            args.family in ("quarter", "turn") and rows != cols:
        parser.error("--board is for the half, pinwheel, quarter and turn families (quarter, turn: a square board)")
    if args.sample and (cols, rows) != (21, 17):
        parser.error("--sample is for 21x17 (it tiles a region exactly)")
    set_board(rows, cols)
    start = time.process_time()
    contacts = not args.no_contacts
    model = (PinwheelModel(not args.any_shapes, contacts) if args.family == "pinwheel"
             else Model(args.family, args.a, args.b, args.sigma, contacts))
    print(f"{args.family}: Q {len(model.q)} cells, bands {len(model.zone)} cells; {len(model.pieces_of):,} placement "
          f"variables, {len(model.clauses):,} clauses ({time.process_time() - start:.1f} CPU-s)", flush=True)
    if args.cp_sat:
        status, chosen = cp_sat(model, args.time_limit, args.workers, args.hint)
    elif args.sample and args.local_first:
        status, chosen = sample_rectangles(model, args, start)
    elif args.sample:
        status, chosen = sample(model, args, start)
    else:
        with Solver(name="cadical195", bootstrap_with=model.clauses) as solver:
            status, chosen, _ = solve(model, solver, [], 10**15, start + args.time_limit)
    print(f"{status} after {time.process_time() - start:.1f} CPU-s")
    if status == "found":
        print(model.picture(chosen))
        if args.out:
            pieces = [{"colour": "BYRG"[k], "cells": list(p)} for x in chosen if x in model.pieces_of
                      for p, k in model.pieces_of[x]]
            Path(args.out).write_text(json.dumps({"family": args.family, "pieces": pieces}))


if __name__ == "__main__":
    main()

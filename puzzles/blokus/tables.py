"""Precomputed Blokus board geometry: every placement numbered once, plus the lookup tables.

Built from :func:`puzzles.polyomino.piece_set` ("blokus": the 21 pieces named as in
Pentobi) and their orientations, numbered in the order of :meth:`Region.placements`, never
from a second copy of the shapes.

Layout (Pentobi's design):

* the board is a flat array with a one-cell border: ``W = N + 2`` columns, cell
  ``(row, col)`` (row 0 at the top) is ``(row + 1) * W + col + 1``; border cells are
  forbidden for every color, so no bounds checks are needed in the hot loops;
* a ``cols`` x ``rows`` rectangle (solitaire boards) lies in the top-left corner of the
  square of side ``N = max(cols, rows)`` (the kernels derive ``W`` from the array
  length, so the padded array stays square); the cells outside the rectangle are
  border cells like the padding (forbidden for every color, covered by no placement);
* placement ``m`` has ``pl_piece[m]``, ``pl_size[m]``, ``pl_cells[m, :5]`` (padded by
  repeating its first cell), its edge neighbours ``pl_adj`` (become forbidden to
  its color) and its corner neighbours ``pl_corners`` (become attach points);
* ``cp_start``/``cp_list`` (CSR): for key ``(cell * 16 + pattern) * 21 + piece``
  the placements of that piece covering that cell and none of the cell's edge
  neighbours flagged in the 4-bit ``pattern`` — move generation loops over attach
  points x pieces left, reads the forbidden state of the attach point's four
  neighbours and only looks these lists up (Pentobi's scheme).

Cell text follows Pentobi: column letter ``a``.. (``i`` included), row number
counted from the bottom, e.g. ``a20`` is the top-left cell of the classic board
(``a19`` on a board of 19 rows).
A move's text lists its cells sorted a1, b1, .., a2, .. (bottom row first).
"""

from __future__ import annotations

import string
import threading
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from puzzles.polyomino import piece_set

PIECES = piece_set("blokus")
PIECE_NAMES: tuple[str, ...] = tuple(p.name for p in PIECES)
PIECE_SIZES: tuple[int, ...] = tuple(p.area for p in PIECES)
NUM_PIECES = len(PIECES)
MONOMINO = PIECE_NAMES.index("1")
COLUMN_LETTERS = string.ascii_lowercase  # a..z; Pentobi keeps 'i'
PACK_BITS = 12  # bits per flat cell in a placement's lookup key: flat indices below 4,096
MAX_ROWS = 62  # the padded square of a board, (max side + 2)^2 cells, keeps its flat indices below 2^PACK_BITS

Cell = tuple[int, int]


class _MoveScratch:
    """Marker array (deduplication by stamp) and output buffer of the move generator."""

    def __init__(self, marker: np.ndarray, out: np.ndarray) -> None:
        self.marker = marker
        self.out = out
        self.stamp = 0


@dataclass(frozen=True, slots=True)
class Move:
    """One Blokus move: a placement (its cells) or a pass.

    Equality and hashing use ``index`` (the placement number on its board size,
    ``-1`` for a pass); ``text`` is the Pentobi spelling, ``cells`` are (row, col)
    with row 0 at the top.
    """

    index: int
    piece: str = field(default="", compare=False)
    cells: tuple[Cell, ...] = field(default=(), compare=False)
    text: str = field(default="pass", compare=False)

    @property
    def is_pass(self) -> bool:
        return self.index < 0

    @property
    def size(self) -> int:
        return len(self.cells)

    def __str__(self) -> str:
        return self.text


PASS = Move(-1)


def cell_name(row: int, col: int, size: int) -> str:
    """Pentobi name of a cell: ``a20`` is (0, 0) on a 20x20 board."""
    return f"{COLUMN_LETTERS[col]}{size - row}"


def parse_cell(text: str, size: int, cols: int | None = None) -> Cell:
    """(row, col) of a Pentobi cell name on a board of ``size`` rows and ``cols`` columns (default
    ``size``); ValueError when malformed or off the board."""
    cols = size if cols is None else cols
    t = text.strip().lower()
    if len(t) < 2 or t[0] not in COLUMN_LETTERS or not t[1:].isdigit():
        raise ValueError(f"malformed cell {text!r} (expected e.g. a20)")
    col, number = COLUMN_LETTERS.index(t[0]), int(t[1:])
    if col >= cols or not 1 <= number <= size:
        raise ValueError(f"cell {text!r} is off the {cols}x{size} board")
    return (size - number, col)


def pentobi_order(cells: list[Cell] | tuple[Cell, ...], size: int) -> tuple[Cell, ...]:
    """Cells sorted as Pentobi writes them: bottom row first (a1, b1, .., a2, ..)."""
    return tuple(sorted(cells, key=lambda rc: (size - rc[0], rc[1])))


class BoardTables:
    """All precomputed arrays and lookups for one board (shared by every state).

    ``cols`` x ``rows`` cells (default square); ``size = max(cols, rows)`` is the side of the
    padded square layout and ``width = size + 2`` its row stride.
    """

    def __init__(self, size: int, rows: int | None = None) -> None:
        self.cols = cols = size
        self.rows = rows = size if rows is None else rows
        self.size = size = max(cols, rows)
        self.width = W = size + 2
        self.area = W * W
        self.num_pieces = NUM_PIECES
        self.piece_sizes = np.array(PIECE_SIZES, dtype=np.int32)
        self.border = np.ones(self.area, dtype=np.uint8)
        for r in range(rows):
            for c in range(cols):
                self.border[self.flat(r, c)] = 0

        self.pl_piece, self.pl_cells = self._placements()
        n = self.num_placements = len(self.pl_piece)
        self.pl_size = self.piece_sizes[self.pl_piece].copy()
        self.pl_adj, self.pl_nadj = self._around(((-W, 0), (0, 1), (W, 0), (0, -1)))
        self.pl_corners, self.pl_ncorners = self._around(((-W, -1), (-W, 1), (W, -1), (W, 1)), but_not=self.pl_adj)

        # CSR lists (Pentobi's refinement): key = ((cell << 4) | pattern) * NUM_PIECES + piece, where
        # the 4-bit pattern says which edge neighbours of the cell are forbidden (bit 0 up, 1 right,
        # 2 down, 3 left); a placement is listed under every pattern none of whose cells it covers.
        # The pieces come last so that the lists of all pieces at one (cell, pattern) are adjacent
        # in memory (move generation reads them one after another, as Pentobi's PrecompMoves).
        valid = np.arange(5)[None, :] < self.pl_size[:, None]  # (n, 5) real cells, not padding
        steps = np.array([-W, 1, W, -1], dtype=np.int32)
        neighbours = self.pl_cells[:, :, None] + steps[None, None, :]  # (n, 5, 4)
        covered = (neighbours[:, :, :, None] == self.pl_cells[:, None, None, :]) & valid[:, None, None, :]
        masks = (covered.any(axis=3) * (1 << np.arange(4))[None, None, :]).sum(axis=2)  # (n, 5)
        cell_base = self.pl_cells << 4
        owners = np.broadcast_to(np.arange(n, dtype=np.int32)[:, None], (n, 5))
        keys_parts, owner_parts = [], []
        for pattern in range(16):
            ok = valid & ((masks & pattern) == 0)
            keys_parts.append(((cell_base | pattern) * NUM_PIECES + self.pl_piece[:, None])[ok])
            owner_parts.append(owners[ok])
        keys = np.concatenate(keys_parts)
        order = np.argsort(keys, kind="stable")
        self.cp_list = np.concatenate(owner_parts)[order].astype(np.int32)
        counts = np.bincount(keys, minlength=self.area * NUM_PIECES * 16)
        self.cp_start = np.zeros(self.area * NUM_PIECES * 16 + 1, dtype=np.int32)
        np.cumsum(counts, out=self.cp_start[1:])

        # scratch space for move generation, one set per thread (the tables are shared by all
        # states, and Dask runs tasks in threads)
        self._scratch = threading.local()

        # Python-side views: placement lookup by packed sorted cells; Move objects made on demand
        self.moves = MoveTable(self)
        self._lookup = dict(zip(self._pack(self.pl_cells, self.pl_size).tolist(), range(n)))

    def _placements(self) -> tuple[np.ndarray, np.ndarray]:
        """Every placement of every piece on the board, in the order of :meth:`Region.placements` (piece, then
        orientation, then top row, then left column): the piece of each, and its flat cells (sorted, padded to 5
        with its first cell).  Vectorised per orientation: built at every start."""
        pieces: list[np.ndarray] = []
        blocks: list[np.ndarray] = []
        for p, shape in enumerate(PIECES):
            for orient in shape.orientations(True):
                flat = [self.flat(r, c) for r, c in sorted(orient.cells)]  # sorted offsets stay sorted when shifted
                first = np.array(flat + flat[:1] * (5 - len(flat)), dtype=np.int32)
                tops = np.arange(self.rows - orient.height + 1, dtype=np.int32)
                lefts = np.arange(self.cols - orient.width + 1, dtype=np.int32)
                shifts = (tops[:, None] * self.width + lefts[None, :]).ravel()
                blocks.append(first[None, :] + shifts[:, None])
                pieces.append(np.full(len(shifts), p, dtype=np.int32))
        return np.concatenate(pieces), np.concatenate(blocks)

    def _around(self, steps: tuple[tuple[int, int], ...], but_not: np.ndarray | None = None,
                chunk: int = 8192) -> tuple[np.ndarray, np.ndarray]:
        """Per placement, the board cells one of ``steps`` (flat row offset, column offset) away from one of its
        cells, neither its own nor listed in ``but_not``: sorted, padded with zeros; and how many.

        Edge neighbours with the four edge steps; corner cells with the four diagonal steps, less the edge
        neighbours.  Vectorised over placements in chunks (a board's table is built at every start)."""
        n, area = self.num_placements, self.area
        on_board = self.border == 0
        found: list[np.ndarray] = []
        counts = np.zeros(n, dtype=np.int32)
        for first in range(0, n, chunk):
            cells = self.pl_cells[first:first + chunk]
            rows = np.arange(len(cells))[:, None]
            inside = np.zeros((len(cells), area), dtype=bool)
            inside[rows, cells] = True
            near = np.zeros_like(inside)
            for row_step, col_step in steps:
                near[rows, cells + row_step + col_step] = True  # the border keeps every step inside the array
            near &= on_board[None, :] & ~inside
            if but_not is not None:
                near[rows, but_not[first:first + chunk]] = False  # its padding is cell 0, off the board anyway
            counts[first:first + chunk] = near.sum(axis=1)
            found.append(np.nonzero(near)[1].astype(np.int32))
        flat = np.concatenate(found)
        out = np.zeros((n, int(counts.max())), dtype=np.int32)
        starts = np.cumsum(counts) - counts
        out[np.repeat(np.arange(n), counts), np.arange(len(flat)) - np.repeat(starts, counts)] = flat
        return out, counts

    def scratch(self) -> _MoveScratch:
        """This thread's marker/output arrays for move generation."""
        local = self._scratch
        if not hasattr(local, "arrays"):
            local.arrays = _MoveScratch(np.zeros(self.num_placements, dtype=np.int32),
                                        np.zeros(self.num_placements, dtype=np.int32))
        return local.arrays

    @staticmethod
    def _pack(cells: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """One int64 per row: its real flat cells sorted, :data:`PACK_BITS` bits each (the lookup key of a placement)."""
        real = np.where(np.arange(cells.shape[1])[None, :] < sizes[:, None], cells, 0).astype(np.int64)
        real.sort(axis=1)
        return (real << (PACK_BITS * np.arange(cells.shape[1], dtype=np.int64))[None, :]).sum(axis=1)

    def flat(self, row: int, col: int) -> int:
        """Flat index (with border) of board cell (row, col)."""
        return (row + 1) * self.width + col + 1

    def unflat(self, index: int) -> Cell:
        return (index // self.width - 1, index % self.width - 1)

    def parse_cells(self, text: str) -> list[Cell]:
        """Cells of a move text such as ``a20,b20,b19`` (any order, any case); ValueError if malformed."""
        parts = [t for t in text.replace(" ", "").split(",") if t]
        if not parts:
            raise ValueError("a move needs at least one cell (or 'pass')")
        return [parse_cell(t, self.rows, self.cols) for t in parts]

    def placement_of(self, cells: list[Cell]) -> int:
        """The placement covering exactly ``cells``; ValueError if they are no Blokus piece."""
        flat = sorted({self.flat(r, c) for r, c in cells})
        if len(flat) != len(cells):
            raise ValueError("a cell is listed twice")
        key = sum(q << (PACK_BITS * i) for i, q in enumerate([0] * (5 - len(flat)) + flat)) if len(flat) <= 5 else -1
        try:
            return self._lookup[key]
        except KeyError:
            raise ValueError(f"cells {sorted(cells)} do not form a Blokus piece") from None

    def nbytes(self) -> int:
        """Bytes held by the numpy tables."""
        return sum(a.nbytes for a in vars(self).values() if isinstance(a, np.ndarray))


class MoveTable:
    """``moves[m]``: the :class:`Move` of placement ``m``, built on first use and then shared."""

    def __init__(self, tables: BoardTables) -> None:
        self.tables = tables
        self._cache: list[Move | None] = [None] * tables.num_placements

    def __len__(self) -> int:
        return len(self._cache)

    def __getitem__(self, m: int) -> Move:
        move = self._cache[m]
        if move is None:
            t = self.tables
            cells = pentobi_order([t.unflat(int(q)) for q in t.pl_cells[m, : t.pl_size[m]]], t.rows)
            text = ",".join(cell_name(r, c, t.rows) for r, c in cells)
            move = self._cache[m] = Move(m, PIECE_NAMES[int(t.pl_piece[m])], cells, text)
        return move

    def __iter__(self):
        return (self[m] for m in range(len(self)))


def _pad(lists: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    width = max(len(x) for x in lists)
    out = np.zeros((len(lists), width), dtype=np.int32)
    lengths = np.zeros(len(lists), dtype=np.int32)
    for i, x in enumerate(lists):
        out[i, : len(x)] = x
        lengths[i] = len(x)
    return out, lengths


def check_board_sides(cols: int, rows: int) -> None:
    """ValueError unless ``cols`` x ``rows`` is a board the engine plays: 3..26 columns (one letter each) and
    3..:data:`MAX_ROWS` rows."""
    if not (3 <= cols <= len(COLUMN_LETTERS) and 3 <= rows <= MAX_ROWS):
        raise ValueError(f"board sides must be 3..{len(COLUMN_LETTERS)} columns and 3..{MAX_ROWS} rows, got {cols}x{rows}")


def board_tables(size: int, rows: int | None = None) -> BoardTables:
    """The (cached) tables for a board of ``size`` columns and ``rows`` rows (default: square)."""
    rows = size if rows is None else rows
    check_board_sides(size, rows)
    return _tables(size, rows)


@cache
def _tables(cols: int, rows: int) -> BoardTables:
    return BoardTables(cols, rows)

"""Project L puzzle cards, the 9 piece shapes, and the plain-text deck format.

A card is a 5×5 grid.  Cells are numbered ``r * 5 + c`` (row 0 at the top), and a
set of cells is an ``int`` bitmask with bit ``r * 5 + c``: that keeps the
completion checker and the engine fast and lets them share placements.

Deck format (one card per block; blank lines between blocks are optional)::

    # a comment line starts with '#' and is not a 5-character grid row
    W07 2 L3        # id, points, reward shape; text after '#' is a comment
    .....
    .##..
    .###.
    ..#x.
    .....

* ``#`` — a recess cell (to be filled), ``x`` — a recess cell already filled
  (used by ``kibitz projectl check`` for a partly filled card), ``.`` — card
  surface outside the recess.
* The id starts with ``W`` (white puzzle) or ``B`` (black puzzle); points are a
  non-negative integer; the reward is one of the shape names below.
* Every error names its line: ``deck.txt:12: grid row must be 5 characters ...``.

Shape names (files, CLI, JSON): ``O1`` monomino, ``I2`` domino, ``I3``/``L3``
trominoes, ``I4``/``O4``/``T4``/``L4``/``S4`` tetrominoes.  The shapes come
from :func:`puzzles.polyomino.piece_set` (``"projectl"``); a piece's *level*
is its number of squares.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path

from puzzles.polyomino import Placed, Region, Shape, Tiling, is_connected, piece_set
from puzzles.safe_json import read_limited_text

SIZE = 5
NCELLS = SIZE * SIZE
FULL_MASK = (1 << NCELLS) - 1

SHAPES: tuple[Shape, ...] = piece_set("projectl")
SHAPE_NAMES: tuple[str, ...] = tuple(s.name for s in SHAPES)
NSHAPES = len(SHAPES)
SHAPE_INDEX: dict[str, int] = {name: i for i, name in enumerate(SHAPE_NAMES)}
LEVEL: tuple[int, ...] = tuple(s.area for s in SHAPES)
SHAPES_BY_LEVEL: dict[int, tuple[int, ...]] = {
    lvl: tuple(i for i in range(NSHAPES) if LEVEL[i] == lvl) for lvl in sorted(set(LEVEL))
}

DATA_DIR = Path(__file__).resolve().parent / "data"
DEFAULT_DECK_PATH = DATA_DIR / "default_deck.txt"


def shape_index(name: str) -> int:
    """Index of a shape name (``"L3"`` → 3); a clear error for unknown names."""
    try:
        return SHAPE_INDEX[name.strip().upper()]
    except KeyError:
        raise ValueError(f"unknown shape {name!r}; known: {', '.join(SHAPE_NAMES)}") from None


def bit(r: int, c: int) -> int:
    return 1 << (r * SIZE + c)


def mask_cells(mask: int) -> list[tuple[int, int]]:
    """Cells ``(row, col)`` of a bitmask, in reading order."""
    return [divmod(i, SIZE) for i in range(NCELLS) if mask >> i & 1]


def cells_mask(cells: Iterable[tuple[int, int]]) -> int:
    mask = 0
    for r, c in cells:
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise ValueError(f"cell {(r, c)} is outside the 5x5 card")
        mask |= bit(r, c)
    return mask


def popcount(mask: int) -> int:
    return mask.bit_count()


@cache
def placements(shape: int) -> tuple[int, ...]:
    """All placements of a shape on the 5×5 card, as masks (rotations and flips allowed)."""
    board = Region.rectangle(SIZE, SIZE)
    return tuple(cells_mask(cells) for cells in board.placements(SHAPES[shape]))


@cache
def placement_shape() -> dict[int, int]:
    """Mask of a placement → its shape index (a cell set determines its free shape)."""
    return {mask: s for s in range(NSHAPES) for mask in placements(s)}


#: The most pieces of one shape a stock may name: four puzzles in hand have at most 100 cells.
MAX_PIECES_PER_SHAPE = 100
#: The largest deck or hand file read (the shipped deck is about 2 KB).
MAX_DECK_BYTES = 1024 * 1024


def parse_counts(text: str) -> list[int]:
    """A stock like ``"I2,L3,L3,O4"`` or ``"L3x2, O4"`` or ``"L3:2"`` → counts per shape."""
    counts = [0] * NSHAPES
    for item in text.replace(";", ",").split(","):
        item = item.strip()
        if not item:
            continue
        name, times = item, 1
        for sep in (":", "*", "x", "X"):
            if sep in item[1:]:
                head, _, tail = item.rpartition(sep)
                if tail.strip().isdigit() and head.strip():
                    name, times = head, int(tail)
                    break
        counts[shape_index(name)] += times
        if counts[shape_index(name)] > MAX_PIECES_PER_SHAPE:
            raise ValueError(f"{counts[shape_index(name)]:,} pieces {SHAPE_NAMES[shape_index(name)]} in a stock; "
                             f"at most {MAX_PIECES_PER_SHAPE} (four puzzles of 25 cells)")
    return counts


def format_counts(counts: Sequence[int]) -> str:
    """Counts per shape → ``"I2,L3x2"`` (empty string for nothing)."""
    return ",".join(name if n == 1 else f"{name}x{n}" for name, n in zip(SHAPE_NAMES, counts) if n)


@dataclass(frozen=True)
class Card:
    """A puzzle card: id (``W..``/``B..``), points, reward shape name, recess mask, pre-filled mask."""

    id: str
    points: int
    reward: str
    recess: int
    filled: int = 0

    @property
    def color(self) -> str:
        return "white" if self.id[:1].upper() == "W" else "black"

    @property
    def area(self) -> int:
        return popcount(self.recess)

    @property
    def empty(self) -> int:
        """Recess cells still to fill."""
        return self.recess & ~self.filled

    @property
    def reward_index(self) -> int:
        return SHAPE_INDEX[self.reward]

    @property
    def reward_level(self) -> int:
        return LEVEL[self.reward_index]

    def grid_lines(self) -> list[str]:
        return self._text.split("\n")[1:]

    def to_text(self) -> str:
        """The card in the deck format."""
        return self._text

    @cached_property
    def _text(self) -> str:
        """The deck-format text, made once per card (a saved game writes its whole deck at every save)."""
        def cell(i: int) -> str:
            return "x" if self.filled >> i & 1 else "#" if self.recess >> i & 1 else "."

        rows = ["".join(cell(r * SIZE + c) for c in range(SIZE)) for r in range(SIZE)]
        return "\n".join([f"{self.id} {self.points} {self.reward}", *rows])

    def region(self) -> Region:
        return Region(frozenset(mask_cells(self.recess)), SIZE, SIZE)

    def to_json(self) -> dict:
        return {"id": self.id, "points": self.points, "reward": self.reward, "grid": self.grid_lines()}

    @classmethod
    def from_json(cls, data: dict) -> Card:
        return parse_deck("\n".join([f"{data['id']} {data['points']} {data['reward']}", *data["grid"]]))[0]


def _is_grid_row(text: str) -> bool:
    return len(text) == SIZE and all(ch in "#.xX" for ch in text)


_Header = tuple[str, int, str, int]  # card id, points, reward shape name, line of the header


def _deck_error(source: str, lineno: int, message: str) -> ValueError:
    return ValueError(f"{source}:{lineno}: {message}")


def _card_header(line: str, lineno: int, seen: dict[str, int], source: str) -> _Header:
    """The ``ID POINTS REWARD`` line of a card (a ``#`` starts a comment); ValueError if it is malformed."""
    fields = line.split("#", 1)[0].split()
    if len(fields) != 3:
        raise _deck_error(source, lineno, f"expected 'ID POINTS REWARD' (e.g. 'W07 2 L3'), got {line!r}")
    cid, points_text, reward = fields
    if cid[0].upper() not in "WB":
        raise _deck_error(source, lineno, f"card id {cid!r} must start with W (white) or B (black)")
    if cid in seen:
        raise _deck_error(source, lineno, f"duplicate card id {cid} (first on line {seen[cid]})")
    if not points_text.isdigit():
        raise _deck_error(source, lineno, f"points must be a non-negative integer, got {points_text!r}")
    if reward.upper() not in SHAPE_INDEX:
        raise _deck_error(source, lineno, f"unknown reward shape {reward!r}; known: {', '.join(SHAPE_NAMES)}")
    return cid, int(points_text), reward.upper(), lineno


def _card_from_rows(header: _Header, rows: list[str], source: str) -> Card:
    """The card of a header and its five grid rows; ValueError (at the header's line) for an empty or
    disconnected recess."""
    cid, points, reward, hline = header
    recess = filled = 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in "#xX":
                recess |= bit(r, c)
            if ch in "xX":
                filled |= bit(r, c)
    if not recess:
        raise _deck_error(source, hline, f"card {cid} has no recess cells ('#')")
    if not is_connected(mask_cells(recess)):
        raise _deck_error(source, hline, f"card {cid}: the recess is not one connected region")
    return Card(cid, points, reward, recess, filled)


def parse_deck(text: str, source: str = "<deck>") -> list[Card]:
    """Parse the deck format; raise ``ValueError("source:LINE: problem")`` on the first error."""
    cards: list[Card] = []
    seen: dict[str, int] = {}
    header: _Header | None = None
    rows: list[str] = []
    lines = text.splitlines()
    for lineno, raw in enumerate(lines, start=1):
        line = raw.strip()
        if header is not None and len(rows) < SIZE:
            if not _is_grid_row(line):
                raise _deck_error(source, lineno, f"card {header[0]}: grid row {len(rows) + 1} must be 5 characters"
                                                  f" of '#', '.', 'x' (got {line!r})")
            rows.append(line)
            if len(rows) == SIZE:
                cards.append(_card_from_rows(header, rows, source))
                header, rows = None, []
            continue
        if not line:
            continue
        if _is_grid_row(line):
            raise _deck_error(source, lineno,
                              "grid row outside a card (a 6th row, or a missing 'ID POINTS REWARD' line?)")
        if line.startswith("#"):
            continue
        header = _card_header(line, lineno, seen, source)
        seen[header[0]] = lineno
    if header is not None:
        raise _deck_error(source, len(lines) + 1, f"card {header[0]}: file ends after {len(rows)} of 5 grid rows")
    if not cards:
        raise _deck_error(source, 1, "no cards found")
    return cards


def load_deck(path: str | Path) -> list[Card]:
    """Read a deck file (any number of white and black cards)."""
    path = Path(path)
    return parse_deck(read_limited_text(path, max_bytes=MAX_DECK_BYTES), source=str(path))


def format_deck(cards: Sequence[Card], comments: Sequence[str] = ()) -> str:
    """Cards in the deck format (blank line between cards), with leading ``#`` comment lines."""
    head = "".join(f"# {c}\n" for c in comments)
    return head + ("\n" if head else "") + "\n\n".join(card.to_text() for card in cards) + "\n"


@lru_cache(maxsize=1)
def default_deck() -> tuple[Card, ...]:
    """The project's shipped deck: 32 white + 20 black cards made by the deck generator."""
    return tuple(load_deck(DEFAULT_DECK_PATH))


def split_colors(cards: Iterable[Card]) -> tuple[list[Card], list[Card]]:
    whites = [c for c in cards if c.color == "white"]
    blacks = [c for c in cards if c.color == "black"]
    return whites, blacks


# --------------------------------------------------------------------------
# rendering
# --------------------------------------------------------------------------


def card_tiling(card: Card, pieces: Sequence[tuple[int, int]]) -> Tiling:
    """A :class:`Tiling` of the card's recess with (shape index, mask) pieces, colour = shape."""
    placed = tuple(Placed(SHAPE_NAMES[s], tuple(mask_cells(m)), color=s) for s, m in pieces)
    return Tiling(card.region(), placed)


def card_text(card: Card, pieces: Sequence[tuple[int, int]] = (), color: bool = False, coords: bool = True) -> str:
    """Text picture: header, then the 5×5 grid; recess ``#``/``x``, pieces by shape name.

    Every cell is two characters wide whatever it holds (``.``, ``#``, ``x``, a shape name), so the
    grid keeps its alignment as pieces are placed.  With ``coords``, the cells are spaced apart under
    column digits and beside row digits: the digits ``place`` takes (``13`` = row 1, column 3);
    without, a compact grid (the face-up cards).
    """
    owner = {}
    for s, m in pieces:
        for i in range(NCELLS):
            if m >> i & 1:
                owner[i] = s
    lines = [f"{card.id} {card.points}pt reward {card.reward}"]
    if coords:
        lines.append("   " + " ".join(f"{c:>2}" for c in range(SIZE)))
    for r in range(SIZE):
        cells = [_cell_text(card, owner, r * SIZE + c, color) for c in range(SIZE)]
        lines.append(f"{r:>2} " + " ".join(cells) if coords else "".join(cells))
    return "\n".join(lines)


def _cell_text(card: Card, owner: dict[int, int], i: int, color: bool) -> str:
    """One cell, two characters wide on screen: a piece's shape name (ANSI-coloured with ``color``),
    `` x`` (pre-filled), `` #`` (recess), `` .`` (card surface)."""
    if i in owner:
        label = SHAPE_NAMES[owner[i]].rjust(2)
        return f"\x1b[{ANSI[owner[i]]}m{label}\x1b[0m" if color else label
    if card.filled >> i & 1:
        return " x"
    return " #" if card.recess >> i & 1 else " ."


_ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")


def visible_len(text: str) -> int:
    """Length of ``text`` on screen (ANSI colour codes take no room)."""
    return len(_ANSI_CODE.sub("", text))


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` characters on screen (ANSI codes not counted)."""
    return text + " " * (width - visible_len(text))


ANSI = (47, 43, 44, 46, 41, 103, 45, 42, 104)
SHAPE_COLORS = ("#f2c14e", "#59a14f", "#4e79a7", "#76b7b2", "#e15759", "#edc948", "#b07aa1", "#f28e2b", "#9c755f")


def card_svg(card: Card, pieces: Sequence[tuple[int, int]] = (), size: int = 18, x0: float = 0, y0: float = 0, standalone: bool = True) -> str:
    """SVG of a card: the recess in grey, placed pieces coloured by shape with outlines, header text."""
    parts = []
    w = SIZE * size
    bg = "#ffffff" if card.color == "white" else "#333333"
    fg = "#222222" if card.color == "white" else "#ffffff"
    parts.append(f'<g transform="translate({x0},{y0})">')
    parts.append(f'<rect x="0" y="0" width="{w + 8}" height="{w + 26}" rx="4" fill="{bg}" stroke="#888"/>')
    parts.append(f'<text x="4" y="14" font-size="{min(12, max(8, size * 0.68)):.1f}" font-family="sans-serif" fill="{fg}" class="card-title">{card.id} {card.points}pt → {card.reward}</text>')
    owner = {}
    for k, (s, m) in enumerate(pieces):
        for i in range(NCELLS):
            if m >> i & 1:
                owner[i] = (k, s)
    for i in range(NCELLS):
        r, c = divmod(i, SIZE)
        x, y = 4 + c * size, 20 + r * size
        if i in owner:
            fill = SHAPE_COLORS[owner[i][1]]
        elif card.filled >> i & 1:
            fill = "#999999"
        elif card.recess >> i & 1:
            fill = "#d8d8d8" if card.color == "white" else "#666666"
        else:
            continue
        parts.append(f'<rect x="{x}" y="{y}" width="{size}" height="{size}" fill="{fill}" stroke="#ffffff" stroke-width="0.5" '
                     f'class="cell" data-row="{r}" data-col="{c}"/>')
        if i in owner:
            for dr, dc, x1, y1, x2, y2 in ((0, 1, 1, 0, 1, 1), (1, 0, 0, 1, 1, 1), (0, -1, 0, 0, 0, 1), (-1, 0, 0, 0, 1, 0)):
                rr, cc = r + dr, c + dc
                other = owner.get(rr * SIZE + cc) if 0 <= rr < SIZE and 0 <= cc < SIZE else None
                if other is None or other[0] != owner[i][0]:
                    parts.append(
                        f'<line x1="{x + x1 * size}" y1="{y + y1 * size}" x2="{x + x2 * size}" y2="{y + y2 * size}" stroke="#111" stroke-width="2"/>'
                    )
    parts.append("</g>")
    body = "".join(parts)
    if not standalone:
        return body
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="{w + 10}" height="{w + 28}">{body}</svg>'

"""Polyomino shapes, named piece sets, regions, placements and rendering.

Coordinates are ``(row, col)`` with row 0 at the top, as in ASCII art.  A
:class:`Shape` is a *fixed* polyomino normalised so its bounding box starts at
``(0, 0)``; two shapes compare equal when their cells do.  Free shapes (all
rotations and reflections identified) compare through :meth:`Shape.canonical`.

ASCII art: ``#`` (or any letter/digit) is a cell, ``.``/space is empty; rows
are separated by newlines or ``/`` (``"##./.##"`` is the S tetromino).
:meth:`Region.from_spec` is the one parser of a region as users write it (``WxH``,
inline ASCII art or a file); solvers take :class:`Region` objects.
"""

from __future__ import annotations

import html
import stat
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

Cell = tuple[int, int]
Transform = Callable[[int, int], Cell]

#: The 8 symmetries of the square, as maps of (row, col); index 0 is the identity.
SQUARE_SYMMETRIES: tuple[Transform, ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, -r),  # rotate 90° clockwise
    lambda r, c: (-r, -c),  # rotate 180°
    lambda r, c: (-c, r),  # rotate 270° clockwise
    lambda r, c: (r, -c),  # mirror left-right
    lambda r, c: (-r, c),  # mirror top-bottom
    lambda r, c: (c, r),  # transpose (main diagonal)
    lambda r, c: (-c, -r),  # anti-diagonal
)
MAX_REGION_CELLS = 1_000_000  # a WxH spec beyond this is refused before any set of cells is built
MAX_REGION_FILE_BYTES = 2 * 1024 * 1024  # ASCII art of MAX_REGION_CELLS cells and its line ends fits
MAX_TEXT_FILE_BYTES = 16 * 1024 * 1024  # piece and exact-cover files
SYMMETRY_NAMES = ("identity", "rot90", "rot180", "rot270", "flip_lr", "flip_tb", "transpose", "antitranspose")


def normalize(cells: Iterable[Cell]) -> frozenset[Cell]:
    """Translate cells so the smallest row and column are 0."""
    cells = list(cells)
    if not cells:
        raise ValueError("a shape needs at least one cell")
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def parse_ascii(text: str) -> list[Cell]:
    """Cells of ASCII art: ``#``/letters/digits filled, ``.``/space/``_`` empty, ``/`` or newline ends a row."""
    rows = text.strip("\n").replace("/", "\n").split("\n")
    cells = []
    for r, row in enumerate(rows):
        for c, char in enumerate(row.rstrip()):
            if char in ". _-":
                continue
            if char == "#" or char.isalnum() or char in "*@":
                cells.append((r, c))
            else:
                raise ValueError(f"unexpected character {char!r} in ASCII art row {r + 1}")
    return cells


def is_connected(cells: Iterable[Cell]) -> bool:
    """True when the cells form one edge-connected piece."""
    cells = set(cells)
    if not cells:
        return False
    start = next(iter(cells))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if nb in cells and nb not in seen:
                seen.add(nb)
                todo.append(nb)
    return len(seen) == len(cells)


@dataclass(frozen=True)
class Shape:
    """A fixed polyomino: a normalised, edge-connected set of cells, with an optional name."""

    cells: frozenset[Cell]
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cells", normalize(self.cells))
        if not is_connected(self.cells):
            raise ValueError(f"not a polyomino (cells are not edge-connected): {sorted(self.cells)}")

    @classmethod
    def from_ascii(cls, text: str, name: str = "") -> Shape:
        """A shape from ASCII art such as ``"##./.##"``."""
        return cls(frozenset(parse_ascii(text)), name)

    @property
    def area(self) -> int:
        return len(self.cells)

    @property
    def height(self) -> int:
        return 1 + max(r for r, _ in self.cells)

    @property
    def width(self) -> int:
        return 1 + max(c for _, c in self.cells)

    @property
    def bounding_box(self) -> tuple[int, int]:
        """(height, width) of the smallest enclosing rectangle."""
        return (self.height, self.width)

    def transformed(self, symmetry: int) -> Shape:
        """The image under ``SQUARE_SYMMETRIES[symmetry]`` (normalised)."""
        move = SQUARE_SYMMETRIES[symmetry]
        return Shape(frozenset(move(r, c) for r, c in self.cells), self.name)

    def rotations(self) -> list[Shape]:
        """Distinct rotations (no reflections), in the order 0°, 90°, 180°, 270°."""
        return _distinct(self.transformed(k) for k in range(4))

    def orientations(self, free: bool = True) -> list[Shape]:
        """Distinct fixed orientations: rotations and reflections when ``free``, else just itself."""
        if not free:
            return [self]
        return list(_free_orientations(self.cells, self.name))

    def key(self) -> tuple[Cell, ...]:
        """Sorted cells: a hashable, ordered fixed-shape key."""
        return tuple(sorted(self.cells))

    def canonical(self) -> Shape:
        """The representative of this free shape: equal for any rotation or reflection."""
        best = min((self.transformed(k) for k in range(8)), key=Shape.key)
        return Shape(best.cells, self.name)

    def is_same_free_shape(self, other: Shape) -> bool:
        return self.canonical() == other.canonical()

    def to_ascii(self, filled: str = "#", empty: str = ".") -> str:
        return "\n".join(
            "".join(filled if (r, c) in self.cells else empty for c in range(self.width)) for r in range(self.height)
        )

    def __str__(self) -> str:
        return self.to_ascii()

    def _repr_svg_(self) -> str:
        return svg_cells({cell: 0 for cell in self.cells}, self.height, self.width)


@cache
def _free_orientations(cells: frozenset[Cell], name: str) -> tuple[Shape, ...]:
    """:meth:`Shape.orientations` of a free shape, computed once per shape and name (verifying a tiling asks for
    each of its pieces' orientations: thousands of times when a command verifies every tiling it lists)."""
    shape = Shape(cells, name)
    return tuple(_distinct(shape.transformed(k) for k in range(8)))


def _distinct(shapes: Iterable[Shape]) -> list[Shape]:
    seen: dict[frozenset[Cell], Shape] = {}
    for shape in shapes:
        seen.setdefault(shape.cells, shape)
    return list(seen.values())


# --------------------------------------------------------------------------
# named piece sets
# --------------------------------------------------------------------------

_ART = {
    # Blokus names (as in Pentobi's records) for the 21 free polyominoes of size 1..5.
    "1": "#",
    "2": "##",
    "I3": "###",
    "V3": "#./##",
    "I4": "####",
    "O4": "##/##",
    "T4": "###/.#.",
    "L4": "###/#..",
    "Z4": "##./.##",
    "F": ".##/##./.#.",
    "I5": "#####",
    "L5": "####/#...",
    "N": "##../.###",
    "P": "##/##/#.",
    "T5": "###/.#./.#.",
    "U": "#.#/###",
    "V5": "#../#../###",
    "W": "#../##./.##",
    "X": ".#./###/.#.",
    "Y": "####/.#..",
    "Z5": "##./.#./.##",
}

BLOKUS_NAMES = tuple(_ART)
PENTOMINO_LETTERS = ("F", "I", "L", "N", "P", "T", "U", "V", "W", "X", "Y", "Z")
TETROMINO_LETTERS = ("I", "O", "T", "L", "S")

# name in the set -> key of its ASCII art above
_ALIASES: dict[str, dict[str, str]] = {
    "trominoes": {"I": "I3", "L": "V3"},
    "tetrominoes": {"I": "I4", "O": "O4", "T": "T4", "L": "L4", "S": "Z4"},
    "pentominoes": {
        "F": "F", "I": "I5", "L": "L5", "N": "N", "P": "P", "T": "T5",
        "U": "U", "V": "V5", "W": "W", "X": "X", "Y": "Y", "Z": "Z5",
    },
    "projectl": {
        "O1": "1", "I2": "2", "I3": "I3", "L3": "V3",
        "I4": "I4", "O4": "O4", "T4": "T4", "L4": "L4", "S4": "Z4",
    },
}


def _named(name: str, art_key: str) -> Shape:
    return Shape.from_ascii(_ART[art_key], name)


PIECE_SETS: dict[str, tuple[Shape, ...]] = {
    "monomino": (_named("1", "1"),),
    "domino": (_named("2", "2"),),
    "trominoes": tuple(_named(n, k) for n, k in _ALIASES["trominoes"].items()),
    "tetrominoes": tuple(_named(n, k) for n, k in _ALIASES["tetrominoes"].items()),
    "pentominoes": tuple(_named(n, k) for n, k in _ALIASES["pentominoes"].items()),
    "blokus": tuple(_named(n, n) for n in BLOKUS_NAMES),
    "projectl": tuple(_named(n, k) for n, k in _ALIASES["projectl"].items()),
}


def piece_set(name: str) -> tuple[Shape, ...]:
    """A named set: monomino, domino, trominoes, tetrominoes, pentominoes, blokus, projectl."""
    try:
        return PIECE_SETS[name.lower()]
    except KeyError:
        raise ValueError(f"unknown piece set {name!r}; known: {', '.join(PIECE_SETS)}") from None


def piece(name: str, family: str = "blokus") -> Shape:
    """One named piece of a family, e.g. ``piece("X", "pentominoes")`` or ``piece("Z4")``."""
    for shape in piece_set(family):
        if shape.name == name:
            return shape
    known = ", ".join(s.name for s in piece_set(family))
    raise ValueError(f"unknown piece {name!r} in {family}; known: {known}")


# --------------------------------------------------------------------------
# regions
# --------------------------------------------------------------------------


#: The characters of a region written inline (cells, holes, row breaks); anything else is no region.
INLINE_ART = frozenset("#.*@ _-/\n")


def existing_file(spec: str) -> Path | None:
    """``spec`` as a path if it names a file; a folder is an error; a name too long for a path, or an empty one
    (``Path("")`` is the current folder), is no file."""
    if not spec:
        return None
    path = Path(spec)
    try:
        if path.is_dir():
            raise ValueError(f"{spec} is a folder, not a file")
        return path if path.is_file() else None
    except OSError:  # e.g. a 300-character inline region: not a file name
        return None


def read_text_file(path: Path, what: str, max_bytes: int = MAX_TEXT_FILE_BYTES) -> str:
    """A text file's content (UTF-8, a leading BOM dropped), or a one-line ValueError (unreadable, not text, not a
    regular file, over ``max_bytes``: its size is checked before it is read); ``what`` names it in the error."""
    try:
        info = path.stat()
        if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
            raise ValueError(f"{what} {path} is too large ({info.st_size:,} bytes; at most {max_bytes:,})")
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"{what} {path} is not a regular file")
        with path.open("rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as error:
        raise ValueError(f"cannot read {what} {path}: {error.strerror or error}") from None
    if len(raw) > max_bytes:
        raise ValueError(f"{what} {path} is too large (over {max_bytes:,} bytes)")
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise ValueError(f"{what} {path} is not a text file") from None


def parse_size(text: str) -> tuple[int, int] | None:
    """``"6x10"`` (or ``6×10``, any case and spacing) as (columns, rows); None when ``text`` is not of the
    form WxH, so a caller can read it another way or refuse it in its own words.  The one parser of a size:
    :meth:`Region.from_spec` and the Blokus boards use it."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(part.strip().isdecimal() for part in parts):  # not isdigit: int("²") fails
        return None
    return int(parts[0]), int(parts[1])


@dataclass(frozen=True)
class Region:
    """A set of board cells to fill: a rectangle, or ASCII art with holes."""

    cells: frozenset[Cell]
    height: int
    width: int

    @classmethod
    def rectangle(cls, width: int, height: int) -> Region:
        if width < 1 or height < 1:
            raise ValueError(f"a rectangle needs positive sides, got {width}x{height}")
        return cls(frozenset((r, c) for r in range(height) for c in range(width)), height, width)

    @classmethod
    def from_ascii(cls, text: str) -> Region:
        cells = parse_ascii(text)
        if not cells:
            raise ValueError("the region has no cells")
        norm = normalize(cells)
        return cls(norm, 1 + max(r for r, _ in norm), 1 + max(c for _, c in norm))

    @classmethod
    def from_spec(cls, spec: str) -> Region:
        """A region as a user writes it: ``WxH`` (e.g. ``6x10``: 6 columns, 10 rows), inline ASCII art
        (rows joined by ``/``, ``#`` = cell, ``.`` = hole) or the name of a file of ASCII art.

        A spec that is none of these (e.g. a mistyped file name) is a one-line ValueError, never read as art.
        """
        path = existing_file(spec)
        if path is not None:
            return cls.from_ascii(read_text_file(path, "region file", MAX_REGION_FILE_BYTES))
        text = spec.strip()
        size = parse_size(text)
        if size is not None:
            width, height = size
            if width * height > MAX_REGION_CELLS:
                raise ValueError(f"region {width}x{height} has {width * height:,} cells; at most {MAX_REGION_CELLS:,}")
            return cls.rectangle(width, height)
        if not text or not set(text) <= INLINE_ART:
            shown = spec if len(spec) <= 60 else spec[:57] + "..."
            raise ValueError(f"malformed region {shown!r} (and no such file): use WxH (e.g. 6x10), ASCII art of '#' "
                             f"cells and '.' holes with '/' between rows, or a file")
        return cls.from_ascii(text)

    def without(self, cells: Iterable[Cell]) -> Region:
        """The region with some cells removed (holes)."""
        return Region(self.cells - set(cells), self.height, self.width)

    @property
    def area(self) -> int:
        return len(self.cells)

    @cached_property
    def ordered_cells(self) -> tuple[Cell, ...]:
        """Cells in search order: along the shorter side first, so the filling frontier stays short."""
        if self.height <= self.width:
            return tuple(sorted(self.cells, key=lambda rc: (rc[1], rc[0])))
        return tuple(sorted(self.cells))

    def symmetries(self) -> list[int]:
        """Indices into :data:`SQUARE_SYMMETRIES` of the symmetries that map the region onto itself."""
        own = normalize(self.cells)
        return [k for k, move in enumerate(SQUARE_SYMMETRIES) if normalize(move(r, c) for r, c in self.cells) == own]

    def cell_permutation(self, symmetry: int) -> dict[Cell, Cell]:
        """Where each cell goes under a symmetry of the region (in the region's own coordinates)."""
        move = SQUARE_SYMMETRIES[symmetry]
        images = {cell: move(*cell) for cell in self.cells}
        shift_r = min(r for r, _ in self.cells) - min(r for r, _ in images.values())
        shift_c = min(c for _, c in self.cells) - min(c for _, c in images.values())
        return {cell: (r + shift_r, c + shift_c) for cell, (r, c) in images.items()}

    def placements(self, shape: Shape, free: bool = True) -> list[tuple[Cell, ...]]:
        """Every way to put ``shape`` inside the region, as sorted cell tuples (deterministic order)."""
        result = []
        for orient in shape.orientations(free):
            for top in range(self.height - orient.height + 1):
                for left in range(self.width - orient.width + 1):
                    cells = tuple(sorted((r + top, c + left) for r, c in orient.cells))
                    if all(cell in self.cells for cell in cells):
                        result.append(cells)
        return result

    def to_ascii(self) -> str:
        return "\n".join(
            "".join("#" if (r, c) in self.cells else "." for c in range(self.width)) for r in range(self.height)
        )

    def _repr_svg_(self) -> str:
        return svg_cells({cell: -1 for cell in self.cells}, self.height, self.width)


# --------------------------------------------------------------------------
# tilings (solutions) and rendering
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Placed:
    """One piece placed on the board: its name (label) and its cells."""

    name: str
    cells: tuple[Cell, ...]
    color: int = -1


@dataclass(frozen=True)
class Tiling:
    """A filled region: the pieces placed, drawable as text or SVG."""

    region: Region
    pieces: tuple[Placed, ...]

    def grid(self) -> dict[Cell, int]:
        """Cell → index of the piece covering it."""
        return {cell: i for i, placed in enumerate(self.pieces) for cell in placed.cells}

    def verify(self, shapes: Sequence[Shape] | None = None, free: bool = True) -> None:
        """Check cell by cell: each region cell covered once, nothing outside, shapes as named.

        ``shapes`` (optional) is the multiset of shapes that must be used, matched by
        name; raises ``ValueError`` with the first problem found.
        """
        seen: dict[Cell, str] = {}
        for placed in self.pieces:
            for cell in placed.cells:
                if cell not in self.region.cells:
                    raise ValueError(f"piece {placed.name} covers {cell}, outside the region")
                if cell in seen:
                    raise ValueError(f"cell {cell} covered by both {seen[cell]} and {placed.name}")
                seen[cell] = placed.name
        if len(seen) != self.region.area:
            missing = sorted(self.region.cells - set(seen))
            raise ValueError(f"{len(missing)} cells left uncovered, e.g. {missing[0]}")
        if shapes is not None:
            wanted = sorted(s.name for s in shapes)
            used = sorted(p.name for p in self.pieces)
            if wanted != used:
                raise ValueError(f"pieces used {used} differ from those asked {wanted}")
            by_name = {s.name: s for s in shapes}
            for placed in self.pieces:
                expected = by_name[placed.name]
                orient = {o.cells for o in expected.orientations(free)}
                if normalize(placed.cells) not in orient:
                    raise ValueError(f"piece {placed.name} does not have its shape")

    def to_text(self, color: bool | None = None, color_digits: bool = False) -> str:
        """The tiling as text, one label per cell (the piece's name, up to 2 characters).

        ``color``: ANSI background colours, one per piece (per Blokus colour when pieces carry one);
        default: when stdout is a terminal.  ``color_digits``: each cell also shows its piece's colour
        as a digit (``I1`` = an I of colour 1), cells apart by a space, so the colours survive a pipe.
        Two touching pieces that would print the same label differ in case (``I``/``i``).
        """
        use_color = sys.stdout.isatty() if color is None else color
        grid = self.grid()
        codes = self._ansi_codes() if use_color else None
        labels = self.labels(color_digits, codes)
        pad = max(2, *(len(label) for label in labels))
        lines = []
        for r in range(self.region.height):
            out = []
            for c in range(self.region.width):
                index = grid.get((r, c))
                if index is None:
                    out.append(("." if (r, c) not in self.region.cells else "?").rjust(pad))
                    continue
                label = labels[index].rjust(pad)
                if codes:
                    out.append(f"\x1b[{codes[index]}m{label}\x1b[0m")
                else:
                    out.append(label)
            lines.append((" " if color_digits else "").join(out))
        return "\n".join(lines)

    def _ansi_codes(self) -> list[int]:
        """The ANSI background of each piece: its colour's when it has one, else one per piece."""
        return [ANSI_BACKGROUNDS[(p.color if p.color >= 0 else i) % len(ANSI_BACKGROUNDS)] for i, p in enumerate(self.pieces)]

    def labels(self, color_digits: bool = False, backgrounds: Sequence[int] | None = None) -> list[str]:
        """One label per piece: its name (2 characters at most), then its colour 1.. with ``color_digits``.

        Where two pieces that would look alike (same label, and same ``backgrounds`` entry when given)
        share an edge, one of them has its letters' case swapped (a 2-colouring of those pieces, the
        first as named), so they stay apart in plain text.
        """
        labels = [(p.name or "#")[:2] + (str(p.color + 1) if color_digits and p.color >= 0 else "") for p in self.pieces]
        looks = [(label, backgrounds[i] if backgrounds else 0) for i, label in enumerate(labels)]
        grid = self.grid()
        touching: dict[int, set[int]] = {i: set() for i in range(len(self.pieces))}
        for (r, c), i in grid.items():
            for j in (grid.get((r + 1, c)), grid.get((r, c + 1))):
                if j is not None and j != i and looks[j] == looks[i]:
                    touching[i].add(j)
                    touching[j].add(i)
        swapped = _two_colouring(touching)
        return [label.swapcase() if swapped.get(i) else label for i, label in enumerate(labels)]

    def __str__(self) -> str:
        return self.to_text(color=False)

    def _repr_svg_(self) -> str:
        return tiling_svg(self)

    def to_json(self) -> dict:
        return {
            "pieces": [
                {"name": p.name, "cells": [list(cell) for cell in p.cells], **({"color": p.color} if p.color >= 0 else {})}
                for p in self.pieces
            ]
        }


def _two_colouring(touching: dict[int, set[int]]) -> dict[int, bool]:
    """Side False/True of each node with neighbours, neighbours on opposite sides where the graph allows
    (an odd cycle keeps one touching pair alike); the lowest node of each component is False."""
    side: dict[int, bool] = {}
    for first in sorted(touching):
        if first in side or not touching[first]:
            continue
        side[first], queue = False, [first]
        while queue:
            node = queue.pop()
            for other in touching[node]:
                if other not in side:
                    side[other] = not side[node]
                    queue.append(other)
    return side


ANSI_BACKGROUNDS = (44, 43, 41, 42, 45, 46, 104, 103, 101, 102, 105, 106, 47, 100)
PALETTE = (
    "#4e79a7", "#f2c14e", "#e15759", "#59a14f", "#b07aa1", "#76b7b2", "#ff9da7",
    "#9c755f", "#edc948", "#bab0ac", "#86bcb6", "#f28e2b", "#8cd17d", "#d4a6c8",
)


def svg_cells(
    colors: dict[Cell, int], height: int, width: int, size: int = 20, outline: dict[Cell, int] | None = None
) -> str:
    """SVG of coloured cells (palette index; -1 = plain region cell); thick lines between pieces."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * size + 2}" height="{height * size + 2}" '
        f'viewBox="-1 -1 {width * size + 2} {height * size + 2}">'
    ]
    for (r, c), index in sorted(colors.items()):
        fill = "#dddddd" if index < 0 else PALETTE[index % len(PALETTE)]
        parts.append(
            f'<rect x="{c * size}" y="{r * size}" width="{size}" height="{size}" fill="{html.escape(fill)}" '
            'stroke="#ffffff" stroke-width="0.5"/>'
        )
    if outline:
        for (r, c), index in outline.items():
            for dr, dc, x1, y1, x2, y2 in ((0, 1, 1, 0, 1, 1), (1, 0, 0, 1, 1, 1), (0, -1, 0, 0, 0, 1), (-1, 0, 0, 0, 1, 0)):
                if outline.get((r + dr, c + dc)) != index:
                    parts.append(
                        f'<line x1="{(c + x1) * size}" y1="{(r + y1) * size}" x2="{(c + x2) * size}" '
                        f'y2="{(r + y2) * size}" stroke="#222222" stroke-width="2"/>'
                    )
    parts.append("</svg>")
    return "".join(parts)


def tiling_svg(tiling: Tiling, size: int = 20) -> str:
    """SVG of a tiling: the region's cells (``class="cell" data-row data-col``; grey where uncovered), then
    each piece in its colour (its Blokus colour when it has one, else one per piece), outlined and labelled,
    as ``<g class="piece" data-name data-index>``."""
    from puzzles import svg

    region = tiling.region
    cells = [svg.tag("rect", x=c * size, y=r * size, width=size, height=size, fill="#dddddd", stroke="#ffffff",
                     stroke_width="0.5", class_="cell", data_row=r, data_col=c) for r, c in sorted(region.cells)]
    parts = [svg.group(cells, class_="region")]
    for index, placed in enumerate(tiling.pieces):
        fill = PALETTE[(placed.color if placed.color >= 0 else index) % len(PALETTE)]
        r, c = min(placed.cells)
        label = svg.text(c * size + size / 2, r * size + size * 0.68, placed.name[:2], size * 0.5,
                         text_anchor="middle", fill="#111111")
        body = svg.shape(placed.cells, 0, 0, size, fill) + label + f"<title>{html.escape(placed.name)}</title>"
        parts.append(svg.group([body], class_="piece", data_name=placed.name, data_index=index,
                               data_color=placed.color if placed.color >= 0 else None))
    width, height = region.width * size + 2, region.height * size + 2
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="-1 -1 {width} {height}" class="kibitz tiling">')
    return head + "".join(parts) + "</svg>"

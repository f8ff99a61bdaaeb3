"""Printable puzzle sheets: A4 pages of panels (title, difficulty, drawings) as SVG, PDF, text or JSON.

A challenge kind (``solvers/challenges.py``, ``solvers/*/challenges.py``) describes its puzzle and its
solution as two :class:`Panel` s; this module draws the pieces, regions and grids and lays the panels
out on pages.  A puzzle panel is built from the puzzle alone, so its sheet cannot show the answer.
``--booklet N``: the puzzles one to a page, then the solutions two to a page at the back.

PDF goes through cairosvg (the ``pictures`` extra: ``pip install 'kibitz[pictures]'``); every other format
is plain Python.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any

Cell = tuple[int, int]

PAGE_W, PAGE_H, MARGIN = 595.0, 842.0, 36.0  # A4 in points (1/72 inch)
CELL = 20.0
GAP = 14.0
TITLE_SIZE, LINE_SIZE, CAPTION_SIZE = 17.0, 10.0, 9.0
LINE_STEP, CAPTION_STEP = 14.0, 13.0
CHAR_EM = 0.56  # average glyph width of sans-serif text in em: lines are wrapped to fit the page at this width
MAX_ZOOM = 2.0  # small drawings are enlarged at most this much to fill their panel
PUZZLES_PER_PAGE, SOLUTIONS_PER_PAGE = 1, 2
FORMATS = ("svg", "pdf", "txt", "json")
TEXT_WIDTH = 100  # characters a line of a text sheet may take (longer ones are wrapped)
#: Piece colours (a colour-blind-friendly 12-colour set), used in turn by a puzzle's pieces.
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
           "#b07aa1", "#ff9da7", "#9c755f", "#8cd17d", "#d37295", "#86bcb6")
EMPTY_FILL, BLOCKED_FILL, GRID_STROKE = "#ffffff", "#cfcfcf", "#9a9a9a"
NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))


@dataclass(frozen=True)
class Figure:
    """A drawing: SVG elements inside the box (0, 0)-(width, height), with a caption printed under it."""

    body: str
    width: float
    height: float
    caption: str = ""
    role: str = "figure"  # the class of its <g>: region, piece, grid, position, answer, card, ...

    @property
    def full_height(self) -> float:
        return self.height + (CAPTION_STEP if self.caption else 0.0)

    @property
    def full_width(self) -> float:
        """The width with its caption, which may be wider than a small drawing (the drawing is centred over it)."""
        return max(self.width, len(self.caption) * CAPTION_SIZE * CHAR_EM)


@dataclass
class Panel:
    """One challenge's puzzle (``kind="puzzle"``) or solution: what a page shows, says and stores."""

    kind: str
    title: str
    lines: list[str]
    figures: list[Figure]
    text: str  # the panel as plain text (the .txt sheet)
    data: dict[str, Any] = field(default_factory=dict)  # the panel as JSON (the .json sheet)


# ------------------------------------------------------------------------------------------------
# drawings
# ------------------------------------------------------------------------------------------------

def colour(index: int) -> str:
    """The ``index``-th piece colour (the palette repeats after 12)."""
    return PALETTE[index % len(PALETTE)]


def _rect(x: float, y: float, w: float, h: float, fill: str, stroke: str = GRID_STROKE, width: float = 0.6,
          cls: str = "") -> str:
    klass = f' class="{cls}"' if cls else ""
    return (f'<rect{klass} x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width:g}"/>')


def _line(x1: float, y1: float, x2: float, y2: float, width: float = 2.2, stroke: str = "#222222") -> str:
    return (f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" stroke="{stroke}" '
            f'stroke-width="{width:g}" stroke-linecap="square"/>')


def text(x: float, y: float, words: str, size: float = LINE_SIZE, weight: str = "normal", anchor: str = "start",
         fill: str = "#111111", cls: str = "") -> str:
    """An SVG text element (escaped)."""
    klass = f' class="{cls}"' if cls else ""
    return (f'<text{klass} x="{x:g}" y="{y:g}" font-family="Helvetica, Arial, sans-serif" font-size="{size:g}" '
            f'font-weight="{weight}" text-anchor="{anchor}" fill="{fill}">{escape(words)}</text>')


def cells_figure(fills: Mapping[Cell, str], rows: int, cols: int, *, groups: Mapping[Cell, object] | None = None,
                 caption: str = "", role: str = "grid", cell: float = CELL, marks: Mapping[Cell, str] | None = None) -> Figure:
    """Cells of a ``rows`` x ``cols`` grid, each filled with its colour (white: a cell to fill in).

    Thick lines run along the outline of the drawn cells and, with ``groups`` (cell -> a piece or group
    key), between cells of different groups; thin grey lines draw the grid to solve on.  ``marks`` puts
    a short text in a cell (a tile letter, a number)."""
    parts = [_rect(c * cell, r * cell, cell, cell, fill, cls="cell") for (r, c), fill in sorted(fills.items())]
    for (r, c), word in sorted((marks or {}).items()):
        parts.append(text((c + 0.5) * cell, (r + 0.68) * cell, word, size=cell * 0.5, anchor="middle", cls="mark"))
    parts.extend(_outline(fills, groups, cell))
    return Figure("".join(parts), cols * cell, rows * cell, caption, role)


def _outline(cells: Iterable[Cell], groups: Mapping[Cell, object] | None, cell: float) -> list[str]:
    """Thick edges: where a drawn cell meets the outside or a cell of another group."""
    inside = set(cells)
    key = groups or {}
    out = []
    for r, c in sorted(inside):
        for dr, dc in NEIGHBOURS:
            other = (r + dr, c + dc)
            if other in inside and key.get(other) == key.get((r, c)):
                continue
            if other in inside and (dr, dc) in ((0, -1), (-1, 0)):
                continue  # an inner edge between two groups: drawn once, from its other side
            x1 = (c + (dc == 1)) * cell
            y1 = (r + (dr == 1)) * cell
            x2, y2 = (x1, y1 + cell) if dc else (x1 + cell, y1)
            out.append(_line(x1, y1, x2, y2))
    return out


def shape_figure(cells: Iterable[Cell], fill: str, caption: str = "", cell: float = CELL) -> Figure:
    """A piece drawn as its shape, in its colour."""
    shape = list(cells)
    top, left = min(r for r, _ in shape), min(c for _, c in shape)
    moved = {(r - top, c - left): fill for r, c in shape}
    rows = 1 + max(r for r, _ in moved)
    cols = 1 + max(c for _, c in moved)
    return cells_figure(moved, rows, cols, caption=caption, role="piece", cell=cell)


def with_coordinates(fig: Figure, rows: int, cols: int, cell: float) -> Figure:
    """``fig`` (a ``rows`` x ``cols`` grid of ``cell``) with column letters a, b, ... above it and row numbers on
    its left, 1 at the bottom row: a board's squares named as Blokus and chess name them (a8 top left on 8x8)."""
    pad = 14.0
    labels = [text(pad + (c + 0.5) * cell, 10, chr(ord("a") + c), CAPTION_SIZE, anchor="middle", fill="#444444",
                   cls="coordinate") for c in range(cols)]
    labels += [text(pad / 2, pad + (r + 0.5) * cell + 3, str(rows - r), CAPTION_SIZE, anchor="middle", fill="#444444",
                    cls="coordinate") for r in range(rows)]
    body = "".join(labels) + f'<g transform="translate({pad:g},{pad:g})">{fig.body}</g>'
    return Figure(body, fig.width + pad, fig.height + pad, fig.caption, fig.role)


def answer_figure(prompt: str, width: float = 300.0, height: float = 60.0) -> Figure:
    """An empty box with a prompt, to write an answer in."""
    body = _rect(0, 0, width, height, EMPTY_FILL, "#444444", 1.2, "answer-box") + text(6, 14, prompt, size=CAPTION_SIZE)
    return Figure(body, width, height, "", "answer")


# ------------------------------------------------------------------------------------------------
# text sheets
# ------------------------------------------------------------------------------------------------

def board_text(rows: Sequence[str]) -> list[str]:
    """A board's rows as text with column letters above and row numbers on the left, 1 at the bottom row."""
    width = len(str(len(rows)))
    head = " " * (width + 1) + "".join(chr(ord("a") + c) for c in range(len(rows[0]) if rows else 0))
    return [head, *(f"{len(rows) - r:>{width}} {row}" for r, row in enumerate(rows))]


def shapes_text(shapes: Sequence[tuple[str, Iterable[Cell]]], width: int = 78) -> list[str]:
    """Pieces drawn side by side as text (``#`` a cell), each named under its shape; rows of pieces wrap at
    ``width`` characters."""
    blocks = []
    for name, cells in shapes:
        shape = list(cells)
        top, left = min(r for r, _ in shape), min(c for _, c in shape)
        rows = 1 + max(r for r, _ in shape) - top
        cols = 1 + max(c for _, c in shape) - left
        grid = [["#" if (r + top, c + left) in shape else " " for c in range(cols)] for r in range(rows)]
        wide = max(cols, len(name))
        blocks.append(["".join(row).ljust(wide) for row in grid] + [name.ljust(wide)])
    lines: list[str] = []
    band: list[list[str]] = []
    for block in [*blocks, None]:
        if band and (block is None or sum(len(b[0]) + 3 for b in band) + len(block[0]) > width):
            tall = max(len(b) for b in band)
            padded = [[" " * len(b[0])] * (tall - len(b)) + b for b in band]  # names on one line, shapes above
            lines += ["   ".join(b[k] for b in padded).rstrip() for k in range(tall)]
            band = []
        if block is not None:
            band.append(block)
    return lines


# ------------------------------------------------------------------------------------------------
# pages
# ------------------------------------------------------------------------------------------------

def _flow(figures: Sequence[Figure], width: float) -> tuple[list[tuple[Figure, float, float]], float]:
    """Figures placed left to right in rows of at most ``width``; the placements and the total height."""
    placed: list[tuple[Figure, float, float]] = []
    x = y = row = 0.0
    for fig in figures:
        if x > 0 and x + fig.full_width > width:
            y, x, row = y + row + GAP, 0.0, 0.0
        placed.append((fig, x, y))
        x += fig.full_width + GAP
        row = max(row, fig.full_height)
    return placed, y + row


def _fit(figures: Sequence[Figure], width: float, height: float) -> tuple[float, list[tuple[Figure, float, float]]]:
    """The largest scale (at most :data:`MAX_ZOOM`) at which the flowed figures fit the box."""
    scale = MAX_ZOOM
    while True:
        placed, total = _flow(figures, width / scale)
        widest = max((x + f.full_width for f, x, _ in placed), default=0.0)
        if (total * scale <= height and widest * scale <= width) or scale < 0.05:
            return scale, placed
        scale *= 0.92


def wrap_width(width: float, size: float = LINE_SIZE) -> int:
    """Characters per line of text ``size`` points high in ``width`` points: an average glyph is taken as
    :data:`CHAR_EM` of the size (wide enough for DejaVu Sans, what cairosvg falls back to without Helvetica)."""
    return int(width / (CHAR_EM * size))


def panel_svg(panel: Panel, x: float, y: float, width: float, height: float) -> str:
    """A panel drawn in a box: its title, its lines, then its figures scaled to fit what is left."""
    parts = [text(0, TITLE_SIZE, panel.title, TITLE_SIZE, "bold", cls="title")]
    top = TITLE_SIZE + 10
    rows = [(i, row) for i, line in enumerate(panel.lines) for row in textwrap.wrap(line, wrap_width(width))]
    for k, (i, row) in enumerate(rows):
        parts.append(text(0, top + LINE_SIZE + k * LINE_STEP, row, cls="difficulty" if i == 0 else "line"))
    top += len(rows) * LINE_STEP + GAP
    scale, placed = _fit(panel.figures, width, height - top)
    drawn = []
    for fig, fx, fy in placed:
        caption = text(fig.width / 2, fig.height + CAPTION_STEP - 3, fig.caption, CAPTION_SIZE, anchor="middle",
                       fill="#444444", cls="caption") if fig.caption else ""
        left = fx + (fig.full_width - fig.width) / 2  # a drawing narrower than its caption is centred over it
        drawn.append(f'<g class="{fig.role}" transform="translate({left:g},{fy:g})">{fig.body}{caption}</g>')
    parts.append(f'<g transform="translate(0,{top:g}) scale({scale:.4f})">{"".join(drawn)}</g>')
    return f'<g class="panel {panel.kind}" transform="translate({x:g},{y:g})">{"".join(parts)}</g>'


def page_svg(panels: Sequence[Panel], footer: str = "") -> str:
    """One A4 page (a whole SVG document) with ``panels`` stacked from the top."""
    inner_w, inner_h = PAGE_W - 2 * MARGIN, PAGE_H - 2 * MARGIN - (LINE_STEP if footer else 0)
    each = inner_h / max(1, len(panels))
    body = "".join(panel_svg(p, MARGIN, MARGIN + i * each, inner_w, each - GAP) for i, p in enumerate(panels))
    foot = text(PAGE_W / 2, PAGE_H - MARGIN / 2, footer, CAPTION_SIZE, anchor="middle", fill="#666666",
                cls="footer") if footer else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="sheet" width="210mm" height="297mm" '
            f'viewBox="0 0 {PAGE_W:g} {PAGE_H:g}">{_rect(0, 0, PAGE_W, PAGE_H, "#ffffff", "none", 0)}{body}{foot}</svg>\n')


def booklet_pages(puzzles: Sequence[Panel], solutions: Sequence[Panel]) -> list[list[Panel]]:
    """The puzzles :data:`PUZZLES_PER_PAGE` to a page, then their solutions :data:`SOLUTIONS_PER_PAGE` to a page."""
    front = [list(puzzles[i:i + PUZZLES_PER_PAGE]) for i in range(0, len(puzzles), PUZZLES_PER_PAGE)]
    back = [list(solutions[i:i + SOLUTIONS_PER_PAGE]) for i in range(0, len(solutions), SOLUTIONS_PER_PAGE)]
    return front + back


def pages_svg(pages: Sequence[Sequence[Panel]]) -> list[str]:
    """Each page as an SVG document, numbered in its footer when there are several."""
    many = len(pages) > 1
    return [page_svg(p, f"page {i} of {len(pages)}" if many else "") for i, p in enumerate(pages, start=1)]


def stacked_svg(pages: Sequence[str]) -> str:
    """Several page documents as one SVG, one page under the other (each a ``<g class="page">``)."""
    bodies = []
    for i, page in enumerate(pages):
        inner = page[page.index(">") + 1:page.rindex("</svg>")]
        bodies.append(f'<g class="page" transform="translate(0,{i * PAGE_H:g})">{inner}</g>')
    height = PAGE_H * len(pages)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="booklet" width="210mm" height="{297 * len(pages)}mm" '
            f'viewBox="0 0 {PAGE_W:g} {height:g}">{"".join(bodies)}</svg>\n')


def pdf_bytes(pages: Sequence[str]) -> bytes:
    """The SVG pages as one PDF document (one PDF page each), drawn by cairosvg."""
    try:
        from cairosvg.parser import Tree  # type: ignore[import-untyped]
        from cairosvg.surface import PDFSurface  # type: ignore[import-untyped]
    except ImportError:
        raise ValueError("--format pdf needs cairosvg: pip install 'kibitz[pictures]'") from None
    import io

    out = io.BytesIO()
    surface = PDFSurface(Tree(bytestring=pages[0].encode()), out, 96)
    for page in pages[1:]:
        surface.cairo.show_page()
        surface.draw(Tree(bytestring=page.encode()))
    surface.finish()
    return out.getvalue()


def sheet_bytes(pages: Sequence[Sequence[Panel]], fmt: str) -> bytes:
    """The pages in one format: svg (one document, pages stacked when several), pdf, txt (pages parted by a
    form feed) or json (the panels' data)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown sheet format {fmt!r}; use {', '.join(FORMATS)}")
    if fmt == "txt":
        return "\f\n".join("\n\n".join(_wrapped(p.text) for p in page) + "\n" for page in pages).encode()
    if fmt == "json":
        panels = [p for page in pages for p in page]
        data: Any = panels[0].data if len(panels) == 1 else {
            "pages": len(pages), "puzzles": [p.data for p in panels if p.kind == "puzzle"],
            "solutions": [p.data for p in panels if p.kind == "solution"]}
        return (json.dumps(data, indent=1) + "\n").encode()
    svgs = pages_svg(pages)
    if fmt == "pdf":
        return pdf_bytes(svgs)
    return (svgs[0] if len(svgs) == 1 else stacked_svg(svgs)).encode()


def _wrapped(words: str, width: int = TEXT_WIDTH) -> str:
    """Text for a printed page: lines longer than ``width`` wrapped, their continuations indented (boards and
    pieces drawn as text are narrower and stay as they are)."""
    return "\n".join(line if len(line) <= width else textwrap.fill(line, width, subsequent_indent="    ",
                                                                     break_on_hyphens=False)
                     for line in words.split("\n"))


def format_of(path: str, fmt: str | None) -> str:
    """The sheet format: ``fmt`` when given, else the file's suffix (txt when it has none of the four)."""
    if fmt:
        return fmt
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    return suffix if suffix in FORMATS else "txt"

"""Small SVG building blocks shared by the games' pictures.

Every picture is a plain string of SVG.  These helpers keep the markup
consistent: escaped attributes, polyomino shapes drawn cell by cell with an
outline around each piece, wrapped text that is never cut, and a document
wrapper with a white background.  Elements a test or a widget looks for carry
``class``/``id``/``data-*`` attributes (see each game's ``render.py``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Mapping
from html import escape

Cell = tuple[int, int]

#: The four sides of a cell: (neighbour offset, segment from (x1, y1) to (x2, y2) in cell units).
SIDES = ((0, 1, 1, 0, 1, 1), (1, 0, 0, 1, 1, 1), (0, -1, 0, 0, 0, 1), (-1, 0, 0, 0, 1, 0))


def attrs(values: Mapping[str, object]) -> str:
    """``key="value"`` pairs, escaped; a key ending in ``_`` loses it (``class_``), ``_`` -> ``-`` otherwise."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        name = key[:-1] if key.endswith("_") else key.replace("_", "-")
        out.append(f'{name}="{escape(str(value), quote=True)}"')
    return " ".join(out)


def tag(name: str, content: str = "", **values: object) -> str:
    """One element: ``<name attrs>content</name>`` (self-closed when empty)."""
    opening = f"{name} {attrs(values)}".rstrip()
    return f"<{opening}>{content}</{name}>" if content else f"<{opening}/>"


def group(parts: Iterable[str], **values: object) -> str:
    """A ``<g>`` around ``parts``."""
    return f"<g {attrs(values)}>{''.join(parts)}</g>"


def text(x: float, y: float, content: str, size: float = 12, **values: object) -> str:
    """A line of text (escaped) at (x, y)."""
    return tag("text", escape(content) or " ", x=f"{x:.1f}", y=f"{y:.1f}", font_size=f"{size:g}",
               font_family="sans-serif", **values)


def wrapped(x: float, y: float, content: str, width_chars: int, size: float = 11,
            **values: object) -> tuple[str, int]:
    """``content`` as one ``<text>`` of ``<tspan>`` lines at most ``width_chars`` wide (words never cut,
    nothing dropped); returns the element and its number of lines."""
    lines = textwrap.wrap(content, width=max(8, width_chars), break_long_words=False) or [""]
    spans = "".join(f'<tspan x="{x:.1f}" dy="{0 if k == 0 else size * 1.25:.1f}">{escape(line)}</tspan>'
                    for k, line in enumerate(lines))
    return tag("text", spans, x=f"{x:.1f}", y=f"{y:.1f}", font_size=f"{size:g}", font_family="sans-serif",
               **values), len(lines)


def outline(cells: Iterable[Cell], x0: float, y0: float, size: float, stroke: str = "#111111",
            width: float = 2.0) -> list[str]:
    """Lines along the border of a set of cells (row, col) drawn at ``size`` px from (x0, y0)."""
    chosen = set(cells)
    lines = []
    for r, c in sorted(chosen):
        x, y = x0 + c * size, y0 + r * size
        for dr, dc, x1, y1, x2, y2 in SIDES:
            if (r + dr, c + dc) not in chosen:
                lines.append(f'<line x1="{x + x1 * size:.1f}" y1="{y + y1 * size:.1f}" x2="{x + x2 * size:.1f}" '
                             f'y2="{y + y2 * size:.1f}" stroke="{stroke}" stroke-width="{width:g}"/>')
    return lines


def shape(cells: Iterable[Cell], x0: float, y0: float, size: float, fill: str, **values: object) -> str:
    """A polyomino: its cells filled with ``fill`` and its border outlined, as one ``<g>``."""
    chosen = sorted(set(cells))
    squares = [f'<rect x="{x0 + c * size:.1f}" y="{y0 + r * size:.1f}" width="{size:g}" height="{size:g}" '
               f'fill="{escape(fill)}" stroke="#ffffff" stroke-width="0.4"/>' for r, c in chosen]
    return group(squares + outline(chosen, x0, y0, size, width=1.2), **values)


def document(width: float, height: float, body: Iterable[str], **values: object) -> str:
    """A stand-alone SVG document (white background) of ``width`` x ``height`` px."""
    w, h = f"{width:.0f}", f"{height:.0f}"
    head = attrs({"xmlns": "http://www.w3.org/2000/svg", "width": w, "height": h, "viewBox": f"0 0 {w} {h}", **values})
    return f'<svg {head}><rect width="{w}" height="{h}" fill="#ffffff"/>' + "".join(body) + "</svg>"


def to_png(picture: str, scale: float = 1.0) -> bytes:
    """``picture`` (an SVG document) rendered as PNG bytes, for a paper or a notebook that wants an image.

    Needs cairosvg (the optional extra ``pictures``); without it a one-line RuntimeError says so.
    """
    try:
        import cairosvg
    except ImportError:  # pragma: no cover - depends on the install
        raise RuntimeError("PNG output needs cairosvg: pip install 'kibitz[pictures]'") from None
    png: bytes = cairosvg.svg2png(bytestring=picture.encode("utf-8"), scale=scale)
    return png

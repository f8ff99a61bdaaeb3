"""The ``--svg FILE`` option of the commands that show a position or an answer, and writing the picture.

The path is checked before any work starts (a bad path costs no search); the picture itself comes from
the game layer (``GameState.picture``) or the answer's own ``_repr_svg_``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def svg_option(what: str) -> Decorator:
    """``--svg FILE`` (parameter ``svg_out``): also write ``what`` as an SVG picture there."""
    return click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None,
                        help=f"Also write {what} as an SVG picture to this file (a .png name: a PNG image,"
                             " with the 'pictures' extra).")


def check_svg_path(path: str | None) -> None:
    """Refuse (one line) an ``--svg`` path that cannot be written, before any work is done."""
    from commands.play import check_writable

    check_writable(path)
    if path is not None and path.lower().endswith(".png"):
        from puzzles.svg import to_png

        to_png('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>')  # cairosvg missing: say so now


def write_svg(path: str | None, picture: str | Callable[[], str]) -> None:
    """Write ``picture`` (or what the callable draws, drawn only when a path is given) to ``path``: SVG text, or a
    PNG image when the name ends in ``.png``."""
    if path is None:
        return
    drawn = picture() if callable(picture) else picture
    if path.lower().endswith(".png"):
        from puzzles.svg import to_png

        Path(path).write_bytes(to_png(drawn))
        return
    Path(path).write_text(drawn, encoding="utf-8")

"""JSON input with limits checked before parsing: size, nesting depth, file kind; a UTF-8 BOM is accepted.

Every JSON loader of kibitz (saves, challenges, towers states, Blokus records, checkpoints, OpenSpiel
states) reads through :func:`load_json_text` or :func:`load_json_file`, so a hostile file ends in one
``ValueError`` line naming the file and the problem, never in a ``RecursionError``, a ``MemoryError``
or a read of ``/dev/zero`` that does not end.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

#: Largest JSON input accepted, in bytes (a saved game or a checkpoint is far smaller).
MAX_JSON_BYTES = 16 * 1024 * 1024
#: Deepest nesting of arrays and objects accepted (kibitz documents nest at most about 6 levels).
MAX_JSON_DEPTH = 64


#: A JSON string (skipped whole) or one bracket.
_TOKEN = re.compile(r'"(?:[^"\\]++|\\.)*+"|[\[\]{}]')


def _nesting_too_deep(text: str, limit: int) -> bool:
    """True when brackets outside strings nest deeper than ``limit`` (a linear scan, no recursion)."""
    if text.count("[") + text.count("{") <= limit:
        return False
    depth = 0
    for match in _TOKEN.finditer(text):
        char = match.group()
        if char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


def check_json_text(text: str | bytes, what: str, max_bytes: int = MAX_JSON_BYTES,
                    max_depth: int = MAX_JSON_DEPTH) -> str:
    """``text`` as a string without its BOM, or a one-line ValueError when it is too big or too deep."""
    if len(text) > max_bytes:
        raise ValueError(f"{what}: too large ({len(text):,} bytes; the limit is {max_bytes:,})")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise ValueError(f"{what}: not UTF-8 text (byte {error.start + 1})") from None
    text = text.removeprefix("\ufeff")
    if _nesting_too_deep(text, max_depth):
        raise ValueError(f"{what}: JSON nested deeper than {max_depth} levels")
    return text


def load_json_text(text: str | bytes, what: str, max_bytes: int = MAX_JSON_BYTES,
                   max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse ``text`` (str or UTF-8 bytes; a leading BOM is dropped) within the size and depth limits.

    ``what`` names the input in the error (a file name, ``"checkpoint line 3"``).  Refusals and syntax
    errors are one-line ValueErrors; NaN and Infinity are refused as they are not JSON.
    """
    checked = check_json_text(text, what, max_bytes, max_depth)
    try:
        return json.loads(checked, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise ValueError(f"{what}: not valid JSON ({error.msg}, line {error.lineno})") from None
    except RecursionError:  # unreachable below the depth limit; kept so no traceback escapes
        raise ValueError(f"{what}: JSON nested too deeply") from None
    except ValueError as error:  # NaN or Infinity (see _refuse_constant)
        raise ValueError(f"{what}: {error}") from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_limited_text(path: str | Path, what: str | None = None, max_bytes: int = MAX_JSON_BYTES) -> str:
    """The text of a regular file of at most ``max_bytes`` (UTF-8, BOM dropped), checked before it is read.

    FIFOs, devices (``/dev/zero``) and directories are refused: their size is unknown or endless.
    """
    name = what or str(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise FileNotFoundError(f"{name}: no such file") from None
    except OSError as error:
        raise ValueError(f"{name}: cannot read ({error.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise ValueError(f"{name}: is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise ValueError(f"{name}: not a regular file")
    if info.st_size > max_bytes:
        raise ValueError(f"{name}: too large ({info.st_size:,} bytes; the limit is {max_bytes:,})")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(max_bytes + 1)
    except OSError as error:
        raise ValueError(f"{name}: cannot read ({error.strerror})") from None
    if len(raw) > max_bytes:  # the file grew after the stat
        raise ValueError(f"{name}: too large (over {max_bytes:,} bytes)")
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        raise ValueError(f"{name}: not UTF-8 text (byte {error.start + 1})") from None


def load_json_file(path: str | Path, what: str | None = None, max_bytes: int = MAX_JSON_BYTES,
                   max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse the JSON file ``path`` within the limits (see :func:`read_limited_text`, :func:`load_json_text`)."""
    name = what or str(path)
    return load_json_text(read_limited_text(path, name, max_bytes), name, max_bytes, max_depth)


__all__ = ["MAX_JSON_BYTES", "MAX_JSON_DEPTH", "check_json_text", "load_json_file", "load_json_text",
           "read_limited_text"]

"""The JSON schema of a full towers state (``TowersState.to_json``), checked before any semantic check.

Types, ranges, lengths and required fields are the schema's (the ``jsonschema`` library); what needs
the rules (stone counts against the box, whose turn, a winner only at the end) is
:func:`puzzles.towers.engine._validate`'s.  Errors are one line naming the field:
``public.round: 4.5 is not of type 'integer'``.
"""

from __future__ import annotations

from functools import cache
from typing import Any

#: A stone as :func:`puzzles.towers.stones.parse_stone` reads it (R6, o3, J, joker, ...).
STONE = {"type": "string", "pattern": r"(?i)^\s*([ROYGBP][1-6]|J|JOKER|X|GREY|GRAY)\s*$"}


def _ints(low: int, high: int, max_items: int | None = None, exact: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "items": {"type": "integer", "minimum": low, "maximum": high}}
    if exact is not None:
        schema["minItems"] = schema["maxItems"] = exact
    elif max_items is not None:
        schema["maxItems"] = max_items
    return schema


def _array(items: Any, exact: int | None = None, max_items: int | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "items": items}
    if exact is not None:
        schema["minItems"] = schema["maxItems"] = exact
    elif max_items is not None:
        schema["maxItems"] = max_items
    return schema


def _stones(max_items: int, exact: bool = False) -> dict[str, Any]:
    return _array(STONE, exact=max_items) if exact else _array(STONE, max_items=max_items)


_ANNOUNCEMENT = {
    "type": "object",
    "required": ["round", "player", "line", "mode", "values"],
    "properties": {
        "round": {"type": "integer", "minimum": 0, "maximum": 5},
        "player": {"type": "integer", "minimum": 0, "maximum": 1},
        "line": {"type": "integer", "minimum": 0, "maximum": 5},
        "mode": {"enum": ["colors", "numbers"]},
        "values": _array({"type": ["integer", "string"]}, max_items=3),
    },
}

_PUBLIC = {
    "type": "object",
    "required": ["round", "phase", "step", "direction", "used_lines", "line", "announcements", "towers", "values",
                 "placers", "out", "revealed", "hand_size", "winner", "instant"],
    "properties": {
        "round": {"type": "integer", "minimum": 0, "maximum": 6},
        "phase": {"enum": ["deal", "pick", "place", "end"]},
        "step": {"type": "integer", "minimum": 0, "maximum": 1_000_000},
        "direction": _array(_ints(-1, 1, exact=2), exact=2),
        "used_lines": _array(_array(_ints(0, 5, max_items=3), exact=2), exact=2),
        "line": _ints(-1, 5, exact=2),
        "announcements": _array(_ANNOUNCEMENT, max_items=12),
        "towers": _array(_stones(42), exact=6),
        "values": _array(_ints(1, 6, max_items=42), exact=6),
        "placers": _array(_ints(0, 1, max_items=42), exact=6),
        "out": _array({"type": "array", "prefixItems": [{"const": 36}, {"type": "integer", "minimum": 0, "maximum": 1},
                                                        {"type": "integer", "minimum": 0, "maximum": 1},
                                                        {"type": "integer", "minimum": 0, "maximum": 5}],
                       "minItems": 4, "maxItems": 4}, max_items=6),
        "revealed": _array(_array(_stones(3), exact=6), exact=2),
        "hand_size": _ints(0, 3, exact=2),
        "winner": {"type": "integer", "minimum": -1, "maximum": 1},
        "instant": {"type": "boolean"},
        "log": _array({"type": "string"}, max_items=1000),
    },
}

_PRIVATE = {
    "type": "object",
    "required": ["grids", "removed", "hand", "pool"],
    "properties": {
        "grids": _array({"oneOf": [{"type": "null"}, _stones(9, exact=True)]}, exact=2),
        "removed": _stones(3),
        "hand": _stones(3),
        "pool": _stones(21),
        "partial": _stones(9),
    },
}

STATE_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["public", "private"],
    "properties": {
        "game": {"const": "towers"},
        "public": _PUBLIC,
        "private": _array(_PRIVATE, exact=2),
        "preset_grid2": _array(_stones(9, exact=True), exact=2),
    },
}


@cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    Draft202012Validator.check_schema(STATE_SCHEMA)
    return Draft202012Validator(STATE_SCHEMA)


def _field(path: Any) -> str:
    """``public.towers[2][0]`` from a jsonschema error path."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "state"


def schema_errors(data: Any) -> list[str]:
    """One line per schema violation of ``data``, the field first (empty when the document fits)."""
    errors = sorted(_validator().iter_errors(data), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    return [f"{_field(error.absolute_path)}: {_short(error.message)}" for error in errors]


def _short(message: str) -> str:
    """The first line of a jsonschema message, at most 120 characters (a long list is not repeated whole)."""
    line = message.splitlines()[0] if message else "invalid"
    return line if len(line) <= 120 else line[:117] + "..."


def check_state_schema(data: Any) -> None:
    """Raise a one-line ValueError naming the first field of ``data`` that does not fit :data:`STATE_SCHEMA`."""
    errors = schema_errors(data)
    if errors:
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise ValueError(f"invalid towers state: {errors[0]}{more}")

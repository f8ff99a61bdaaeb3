"""``import kibitz``: the public API re-exports resolve, the import itself stays light, and ``new_game``
is the registry's game."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import kibitz

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("name", kibitz.__all__)
def test_every_public_name_resolves(name: str) -> None:
    value = getattr(kibitz, name)
    assert value is not None
    assert name in dir(kibitz)


def test_unknown_names_are_attribute_errors() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        kibitz.nope  # noqa: B018
    assert len(set(kibitz.__all__)) == len(kibitz.__all__)


def test_import_loads_the_registry_only() -> None:
    """``import kibitz`` compiles nothing and loads no engine, bot or solver module."""
    code = ("import sys, kibitz; print(sorted(kibitz.GAMES)); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('solvers', 'numba', 'ortools', 'pysat') "
            "or m.startswith(('puzzles.blokus', 'puzzles.shelfie', 'puzzles.towers', 'puzzles.projectl'))))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
                            check=True)
    assert result.stdout.splitlines() == ["['blokus', 'projectl', 'shelfie', 'towers']", "[]"]


def test_new_game_is_the_registry_game() -> None:
    for game in ("towers", "shelfie"):
        ours = kibitz.new_game(game, players=2, seed=7)
        theirs = kibitz.GAMES[game].new_game(2, 7)
        assert ours.to_json() == theirs.to_json()
    assert kibitz.new_game("blokus", variant="duo").num_players == 2
    with pytest.raises(ValueError, match="takes 2 to 4 players"):
        kibitz.new_game("blokus", players=9)


def test_names_are_the_modules_own() -> None:
    from solvers.playout import run_playouts
    from solvers.towers.solver import solve

    assert kibitz.run_playouts is run_playouts
    assert kibitz.solve_towers is solve

"""What a person sees: Project L cards and tableaux, the towers grid, the human's ``?`` (issue 28).

Exact strings or structure: coordinates that match what ``place`` reads, alignment whatever a cell
holds, completed puzzles announced, seats and rounds counted from 1, ``?`` grouped and filtered.
"""

from __future__ import annotations

import json
import re

import pytest

from puzzles.projectl.cards import SHAPE_INDEX, card_text, parse_deck
from puzzles.projectl.engine import PIECE, Place, new_game, parse_cells
from puzzles.towers.render import render_grid_text, render_observation_text, render_state_text
from tests.test_projectl_engine import hand_card, m, tiny_game

ANSI = re.compile(r"\x1b\[[0-9;]*m")

CARD = parse_deck("W07 2 L3\n.....\n.##..\n.###.\n..#x.\n.....\n")[0]


# --------------------------------------------------------------------------
# Project L
# --------------------------------------------------------------------------


def test_card_has_the_row_and_column_digits_place_takes() -> None:
    assert card_text(CARD).splitlines() == [
        "W07 2pt reward L3",
        "    0  1  2  3  4",
        " 0  .  .  .  .  .",
        " 1  .  #  #  .  .",
        " 2  .  #  #  #  .",
        " 3  .  .  #  x  .",
        " 4  .  .  .  .  .",
    ]


def test_a_cell_typed_for_place_is_drawn_under_its_labels() -> None:
    """``place`` reads ``RC``; the piece covering that cell shows in row R's line under column C's digit."""
    lines = card_text(CARD, [(SHAPE_INDEX["I2"], parse_cells("12,13"))]).splitlines()
    header = lines[1]
    row = next(line for line in lines[2:] if line.split()[0] == "1")
    for column in (2, 3):
        at = header.index(str(column))
        assert row[at - 1:at + 1] == "I2"
    assert row == " 1  .  # I2 I2  ."


def test_tableau_stays_aligned_after_placements_in_colour_too() -> None:
    st = tiny_game()
    slot = hand_card(st, 0, "B01")
    hand_card(st, 0, "W01")
    st.apply(Place(slot, SHAPE_INDEX["I2"], m("00", "01")))
    for color in (False, True):
        lines = st.tableau_text(0, color).splitlines()[1:]
        assert len({len(ANSI.sub("", line)) for line in lines[:-1]}) == 1  # the last column is not padded
        plain = [ANSI.sub("", line) for line in lines]
        assert plain[0].startswith("  [0] B01 3pt reward O4") and "   [1] W01 1pt reward I2" in plain[0]
        assert plain[2] == "       0 I2 I2  #  #  .        0  #  #  .  .  ."


def test_completed_puzzle_is_announced_until_the_seat_plays_again() -> None:
    st = tiny_game()
    slot = hand_card(st, 0, "B01")
    st.stock[0][SHAPE_INDEX["I2"]] += 1
    st.supply[0] = 20  # enough 'piece' actions to pass the turns below
    st.apply(Place(slot, SHAPE_INDEX["I2"], m("00", "01")))
    st.apply(Place(slot, SHAPE_INDEX["I2"], m("02", "03")))
    line = "  round 1: seat 1 completed puzzle B01: +3 points, reward O4; its pieces went back to the stock"
    lines = st.render_text().splitlines()
    assert lines[:2] == ["round 1, seat 1 to act, 1 action left", line]
    assert "seat 1: 3 pts, 1 done (B01), stock O1x1 I2x2 O4x1" in lines
    st.apply(PIECE)  # seat 2 to act, then seat 1 again: still shown (since seat 1's previous turn)
    assert line in st.render_text().splitlines()
    for _ in range(3):
        st.apply(PIECE)
    assert st.status_line() == "round 2, seat 1 to act, 3 actions left"
    assert line in st.render_text().splitlines()
    for _ in range(6):
        st.apply(PIECE)
    assert st.status_line() == "round 3, seat 1 to act, 3 actions left" and line not in st.render_text()
    assert st.to_json() == type(st).from_json(json.loads(json.dumps(st.to_json()))).to_json()


def test_projectl_seats_count_from_one_in_text_and_svg_json_from_zero(run_cli) -> None:
    st = new_game(2, 0)
    assert st.status_line() == "round 1, seat 1 to act, 3 actions left"
    assert "\nseat 2: 0 pts, 0 done, stock O1x1 I2x1" in st.render_text() and "player" not in st.render_text()
    assert ">seat 1: 0 pts" in st._repr_svg_() and "player" not in st._repr_svg_()
    data = json.loads(run_cli("projectl", "play", "--bots", "greedy,greedy", "--seed", "5", "--json").output)
    text = run_cli("projectl", "play", "--bots", "greedy,greedy", "--seed", "5").output
    assert data["winners"] == [0]  # JSON: 0-based seat indices
    assert f"game over after round {data['rounds']} (deck exhausted): winner: seat 1\n" in text
    assert "seats from 0" not in text and "player 0" not in text


def test_solo_result_names_the_automated_opponent(run_cli) -> None:
    data = json.loads(run_cli("projectl", "play", "--players", "1", "--bots", "greedy", "--json").output)
    text = run_cli("projectl", "play", "--players", "1", "--bots", "greedy").output
    mine, theirs = data["scores"][0], data["opponent_score"]
    verdict = "you win" if data["winners"] else "the automated opponent wins"
    assert f"(deck exhausted): {verdict} ({mine:g} points to its {theirs})\n" in text


def test_solo_prompt_and_help_suggest_solo_moves(run_cli) -> None:
    result = run_cli("projectl", "play", "--players", "1", "--bots", "human", input="help\ntake G 4\nquit\n")
    assert result.exit_code == 0
    assert "take W" not in result.output and "recycle" not in result.output
    assert "seat 1, your move (take G 4 | piece | upgrade O1 I2 | place 0 L3 00,01,11 | master | pass;" in result.output
    assert "  face-up grid (deck 16), take with 'take G SLOT' (SLOT 0-8):" in result.output
    assert "  1. seat 1 (human): take G 4" in result.output  # the suggested move is legal in solo


def test_projectl_question_mark_groups_placements(run_cli) -> None:
    result = run_cli("projectl", "play", "--bots", "human,greedy", input="take W 0\n?\n? place 0 O1\n? zz\nquit\n")
    out = result.output
    assert re.search(r"  \d+ legal moves \(placements by puzzle slot and shape; '\? place 0 L3' lists one group\):", out)
    assert re.search(r"\n    place 0 O1 \(\d+\): \d\d \| \d\d", out)
    assert re.search(r"  \d+ legal moves? with place 0 o1:\n    place 0 O1 \d\d", out)
    assert "  no legal move has zz; '?' lists them all" in out


# --------------------------------------------------------------------------
# the human's ?: Blokus grouping, the generic wrapped list
# --------------------------------------------------------------------------


def test_blokus_question_mark_is_grouped_by_piece_and_filterable(run_cli) -> None:
    result = run_cli("blokus", "play", "--players", "2", "--bots", "human,greedy", input="?\n? f X\nmoves QQ\nquit\n")
    out = result.output.splitlines()
    assert result.exit_code == 0
    start = next(i for i, line in enumerate(out) if "58 legal moves for blue, by piece" in line)
    assert out[start].endswith("  58 legal moves for blue, by piece ('? NAME' lists one piece's moves, e.g. '? L4'):")
    assert out[start + 1:start + 3] == ["    1      1 move   e.g. a20", "    2      2 moves  e.g. a20,b20"]
    assert out[start + 10] == "    F      2 moves  e.g. b18,a19,b19,c19,a20"
    assert out[start + 21] == "    no move now for: X"
    f_line = next(i for i, line in enumerate(out) if line.endswith("  F: 2 moves"))
    assert out[f_line + 1:f_line + 3] == ["    b18,a19,b19,c19,a20 b18,b19,c19,a20,b20", "  X: no legal move now"]
    assert any(line.endswith("  no piece named 'QQ'; the pieces: 1 2 I3 V3 I4 O4 T4 L4 Z4 F I5 L5 N P T5 U V5 W X Y Z5")
               for line in out)
    assert "seat 1, your move (cells like a20,b20, or pass;" in result.output


def test_default_moves_list_is_wrapped_with_a_count(monkeypatch: pytest.MonkeyPatch) -> None:
    from puzzles.game import GAMES
    from solvers.bots import HumanBot

    monkeypatch.setenv("COLUMNS", "50")
    state = GAMES["projectl"].new_game(2, 0)
    text = HumanBot().moves_text(state)
    lines = text.splitlines()
    assert lines[0] == "  12 legal moves:" and len(lines) > 3
    assert all(len(line) <= 50 for line in lines)
    assert " | ".join(line.strip() for line in lines[1:]).split(" | ") == [
        state.action_to_string(a) for a in state.legal_actions()]  # no move split across lines
    assert HumanBot().moves_text(state, "take B") == (
        "  4 legal moves with take b:\n    take B 0 | take B 1 | take B 2 | take B 3")
    assert HumanBot().moves_text(state, "recycle") == "  no legal move has recycle; '?' lists them all"


# --------------------------------------------------------------------------
# towers
# --------------------------------------------------------------------------


def _bars(line: str) -> list[int]:
    return [i for i, ch in enumerate(line) if ch == "|"]


@pytest.mark.parametrize("grid", [
    ["B1", "J", "R2", "Y4", "J", "J", "Y2", "B6", "R6"],
    ["J", "J", "J", "R12", "Y4", "J", "O10", "B6", "J"],
])
@pytest.mark.parametrize("used", [[], [1], [3, 2]])
def test_towers_grid_separators_line_up(grid: list[str], used: list[int]) -> None:
    lines = render_grid_text(grid, used, title="your grid 1 (P1)").splitlines()
    assert lines[0] == "  your grid 1 (P1):" and len(lines) == 5
    assert lines[1].split() == ["|", "col1", "|", "col2", "|", "col3"]
    assert [line.split()[0] for line in lines[2:]] == ["row1", "row2", "row3"]
    assert len({tuple(_bars(line)) for line in lines[1:]}) == 1 and len(_bars(lines[1])) == 3


def test_towers_grid_in_both_views() -> None:
    from puzzles.game import CHANCE, GAMES

    state = GAMES["towers"].new_game(2, 3)
    while state.current_player() == CHANCE:
        state.apply(state.chance_outcomes()[0][0])
    for text in (render_observation_text(state.observation(0)), render_state_text(state)):
        lines = text.splitlines()
        starts = [i for i, line in enumerate(lines) if line.lstrip().startswith("|") or "| col1" in line]
        assert starts
        for i in starts:
            block = lines[i:i + 4]
            assert len({tuple(_bars(line)) for line in block}) == 1, block
    assert "  your grid 1 (P1):" in render_observation_text(state.observation(0)).splitlines()

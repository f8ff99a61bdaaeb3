"""My Shelfie engine: setup, legal picks, refills, goals and tokens, end, conservation, views."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from puzzles.game import CHANCE, TERMINAL, IllegalActionError
from puzzles.shelfie import (
    EMPTY,
    Bookshelf,
    Move,
    Refill,
    ShelfieState,
    board_mask,
    board_needs_refill,
    load_data,
    new_game,
    parse_cell,
)
from puzzles.shelfie.rules import LETTERS
from solvers.bots import RandomBot
from solvers.playout import play_game
from tests import shelfie_reference as reference


def started(num_players: int = 2, seed: int = 0, **options) -> ShelfieState:
    state = new_game(num_players, seed=seed, **options)
    state.apply(state.sample_chance(random.Random(seed)))
    return state


def set_board(state: ShelfieState, cells: dict[str, str]) -> None:
    """Put the named tiles on an otherwise empty board (tiles removed go back to the bag)."""
    state.bag = state.refill_pool()
    state.board[:, :] = EMPTY
    for name, letter in cells.items():
        t = LETTERS.index(letter)
        state.board[parse_cell(name)] = t
        state.bag[t] -= 1
    state.needs_refill = False


def set_shelf(state: ShelfieState, seat: int, rows: list[str]) -> None:
    old = Bookshelf(state.shelves[seat]).counts()
    new = Bookshelf.from_rows(rows)
    for t, (a, b) in enumerate(zip(old, new.counts())):
        state.bag[t] += a - b
    state.shelves[seat] = new.grid


@pytest.mark.parametrize("players,cells", [(2, 29), (3, 37), (4, 45)])
def test_board_masks_have_29_37_45_cells(players: int, cells: int) -> None:
    assert int(board_mask(players).sum()) == cells == load_data()["usable_cells"][str(players)]
    state = started(players)
    assert int((state.board != EMPTY).sum()) == cells
    assert sum(state.bag) == 132 - cells
    assert not (state.board[~state.mask] != EMPTY).any()


def test_setup_is_seeded_and_dealt() -> None:
    a, b = new_game(4, seed=7), new_game(4, seed=7)
    assert a == b and a.current_player() == CHANCE
    assert len(set(a.personal_cards)) == 4 and len(set(a.common_goals)) == 2
    assert a.stacks == [[8, 6, 4, 2], [8, 6, 4, 2]]
    assert new_game(2, seed=1).stacks == [[8, 4], [8, 4]]
    assert new_game(3, seed=1).stacks == [[8, 6, 4], [8, 6, 4]]
    with pytest.raises(ValueError, match="2 to 4 players"):
        new_game(5)
    with pytest.raises(ValueError, match="two different"):
        ShelfieState(2, ("DIAGONAL", "DIAGONAL"), (1, 2))
    with pytest.raises(ValueError, match="personal goal cards"):
        ShelfieState(2, ("DIAGONAL", "X_SHAPE"), (1, 1))


@pytest.mark.parametrize("players,rule", [(2, "isolated"), (3, "four_or_fewer"), (4, "isolated")])
def test_tile_conservation_and_refill_timing_in_random_games(players: int, rule: str) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        state = new_game(players, seed=seed, refill_rule=rule)
        bot = RandomBot()
        steps = 0
        while not state.is_terminal():
            assert state.tile_counts() == [22] * 6
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                assert not board_needs_refill(state.board, rule) or sum(state.bag) == 0
                continue
            state.apply(bot.choose(state, rng))
            steps += 1
            tiles = int((state.board != EMPTY).sum())
            if rule == "four_or_fewer":
                expected = tiles <= 4
            else:
                expected = not any(
                    state.board[r, c] != EMPTY and any(
                        0 <= y < 9 and 0 <= x < 9 and state.board[y, x] != EMPTY
                        for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
                    for r in range(9) for c in range(9))
            if not state.is_terminal():
                assert state.needs_refill == expected
        assert state.tile_counts() == [22] * 6
        assert state.end_token is not None and state.to_move == players - 1
        assert steps >= 30 // 3


def snapshot(state: ShelfieState) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def test_illegal_picks_are_refused_with_a_reason_and_change_nothing() -> None:
    state = started(2, seed=3)
    set_board(state, {"d4": "C", "e4": "B", "f4": "G", "g4": "T", "e5": "P", "e6": "F", "e3": "C",
                      "d5": "G", "f5": "B", "e7": "B", "e8": "G"})
    set_shelf(state, 0, ["....."] * 2 + ["C...."] * 4)
    before = snapshot(state)
    cases = {
        "d4 e4 f4 g4 2": "1, 2 or 3",
        "d4 e3 2": "straight line",
        "d4 f4 2": "adjacent",
        "e4 2": "no free side",
        "e4 e5 2": "no free side",  # e5 is only free once e4 is gone: does not count
        "a1 2": "no tile",
        "e6 e7 e8 1": "column 1 has only 2 free cell",
        "d4 d4 2": "named twice",
    }
    for text, reason in cases.items():
        move = Move(tuple(parse_cell(t) for t in text.split()[:-1]), int(text.split()[-1]) - 1)
        with pytest.raises(IllegalActionError, match=reason):
            state.apply(move)
        assert snapshot(state) == before
    with pytest.raises(IllegalActionError):
        state.string_to_move("d4 6")
    assert snapshot(state) == before
    state.apply(state.string_to_move("e8 e7 1"))  # two tiles fit into the two free cells
    assert Bookshelf(state.shelves[0]).rows()[:2] == ["B....", "G...."]


def test_legal_actions_match_rules_and_merge_equal_orders() -> None:
    state = started(2, seed=4)
    set_board(state, {"d4": "C", "e4": "C", "f4": "B"})
    moves = state.legal_actions()
    lines = {tuple(sorted(m.cells)) for m in moves}
    assert lines == {((3, 3),), ((3, 4),), ((3, 5),), ((3, 3), (3, 4)), ((3, 4), (3, 5)),
                     ((3, 3), (3, 4), (3, 5))}
    # C,C has one order; C,B two; C,C,B three distinct type sequences; 5 columns each
    assert len(moves) == 5 * (1 + 1 + 1 + 1 + 2 + 3)
    for move in moves:
        assert state.string_to_action(state.action_to_string(move)) == move
    state.apply(Move(((3, 5), (3, 3), (3, 4)), 4))  # any order is accepted
    assert Bookshelf(state.shelves[0]).rows()[3:] == ["....C", "....C", "....B"]


def test_refill_happens_exactly_when_the_rule_says() -> None:
    state = started(2, seed=5)
    set_board(state, {"d4": "C", "e4": "B", "g6": "T"})
    state.apply(state.string_to_move("e4 1"))  # d4 and g6 are left isolated
    assert state.current_player() == CHANCE
    refill = state.sample_chance(random.Random(1))
    state.apply(refill)
    assert int((state.board != EMPTY).sum()) == 29 and state.tile_counts() == [22] * 6
    state = started(2, seed=5)
    set_board(state, {"d4": "C", "e4": "B", "f4": "T", "g6": "T"})
    state.apply(state.string_to_move("f4 1"))  # d4-e4 still touch: no refill
    assert state.current_player() == 1
    # the seed's rule: refill when 4 or fewer tiles remain, even if they touch
    state = started(2, seed=5, refill_rule="four_or_fewer")
    set_board(state, {"d4": "C", "e4": "B", "f4": "T", "g4": "T", "d5": "P"})
    state.apply(state.string_to_move("d5 1"))
    assert state.current_player() == CHANCE
    state = started(2, seed=5, refill_rule="four_or_fewer")
    set_board(state, {"d4": "C", "e4": "B", "f4": "T", "g4": "T", "d5": "P", "d6": "F"})
    state.apply(state.string_to_move("d6 1"))
    assert state.current_player() == 1


def test_refill_with_a_short_bag_fills_what_it_can() -> None:
    state = started(4, seed=6)
    state.bag = [1, 2, 0, 0, 0, 0]
    state.board[:, :] = EMPTY
    state.needs_refill = True
    # tiles not on board/bag are "in shelves" for this test
    refill = state.sample_chance(random.Random(3))
    assert sum(t != EMPTY for t in refill.tiles) == 3 and len(refill.tiles) == 45
    state.apply(refill)
    assert int((state.board != EMPTY).sum()) == 3 and state.bag == [0] * 6
    state.needs_refill = True
    with pytest.raises(IllegalActionError, match="fills 3 cells"):
        state.apply(Refill(tuple([EMPTY] * 45)))
    with pytest.raises(IllegalActionError, match="only 1 tiles of type C"):
        state.apply(Refill(tuple([0, 0, 1] + [EMPTY] * 42)))


def test_common_goal_tokens_in_order_and_both_in_one_turn() -> None:
    state = ShelfieState(2, ("EIGHT_SAME", "FOUR_CORNERS"), (1, 2))
    state.apply(state.sample_chance(random.Random(0)))
    set_board(state, {"a5": "P", "i9": "T"})
    set_shelf(state, 0, ["....P", "P...C", "C...C", "C...C", "C...C", "P...P"])  # 5 C + ... one P short of corners
    set_shelf(state, 1, ["....T", "....C", "....C", "C...C", "C...C", "C...C"])
    state.board[parse_cell("a5")] = LETTERS.index("P")
    state.apply(state.string_to_move("a5 1"))  # seat 0: top-left corner P -> four corners; 8 C? no
    assert state.tokens[0] == [0, 8]
    assert state.stacks == [[8, 4], [4]]
    state.needs_refill = False
    set_board(state, {"d4": "C", "d5": "C", "i9": "T"})
    state.apply(state.string_to_move("d4 d5 2"))  # seat 1: 8 cats
    assert state.tokens[1] == [8, 0] and state.stacks == [[4], [4]]
    # a later player gets the next token; one token per card per player
    state = ShelfieState(2, ("EIGHT_SAME", "FOUR_CORNERS"), (1, 2))
    state.apply(state.sample_chance(random.Random(0)))
    set_shelf(state, 0, ["....C", "C...C", "C...C", "C...C", "C...C", "C...C"])
    set_board(state, {"a5": "C", "i9": "T"})
    state.apply(state.string_to_move("a5 1"))  # both goals at once
    assert state.tokens[0] == [8, 8] and state.stacks == [[4], [4]]


def test_end_of_game_after_the_last_seat_and_end_token() -> None:
    state = ShelfieState(3, ("EIGHT_SAME", "FOUR_CORNERS"), (1, 2, 3))
    state.apply(state.sample_chance(random.Random(0)))
    state.to_move = 1
    set_shelf(state, 1, [".BGFT", "TBGFT", "BGFTB", "GFTBG", "FTBGF", "TBGFT"])
    set_board(state, {"a5": "C", "b5": "P", "i9": "T"})
    state.apply(state.string_to_move("a5 1"))
    assert state.end_token == 1 and state.to_move == 2 and not state.game_over
    set_board(state, {"a5": "C", "i9": "T"})
    state.apply(state.string_to_move("a5 1"))
    assert state.is_terminal() and state.current_player() == TERMINAL
    assert state.score_breakdown(1)["end_token"] == 1 and state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        state.apply(Move(((4, 0),), 0))


def test_tie_break_goes_to_the_seat_furthest_from_the_first_player() -> None:
    state = ShelfieState(3, ("EIGHT_SAME", "FOUR_CORNERS"), (1, 2, 3))
    state.game_over = True
    assert state.scores() == [0.0, 0.0, 0.0]
    assert state.winner() == 2 and state.returns() == [0.0, 0.0, 1.0]
    state.tokens[0] = [8, 0]
    assert state.winner() == 0 and state.returns() == [1.0, 0.0, 0.0]


def test_observation_hides_personal_cards_and_json_round_trips() -> None:
    rng = random.Random(2)
    state = started(3, seed=2)
    for _ in range(7):
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
        state.apply(RandomBot().choose(state, rng))
    obs = state.observation(1)
    assert obs["personal_cards"] == [None, state.personal_cards[1], None]
    text = json.dumps(obs)
    for seat in (0, 2):
        assert f'"personal_card": {state.personal_cards[seat]}' not in text
    assert "bag" in obs and set(obs["bag"]) == set(LETTERS)  # counts only: there is no order
    again = ShelfieState.from_json(json.loads(state.dumps()))
    assert again == state and again.dumps() == state.dumps()
    again.apply(RandomBot().choose(again, random.Random(0))) if not again.is_chance_node() else None
    final = play_game(started(2, seed=9), [RandomBot(), RandomBot()], random.Random(9))
    assert ShelfieState.from_json(final.to_json()) == final


def test_clone_is_independent() -> None:
    state = started(2, seed=1)
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    assert state.turn == 0 and copy.turn == 1 and state != copy


def test_text_and_svg_rendering() -> None:
    state = play_game(started(2, seed=3), [RandomBot(), RandomBot()], random.Random(3))
    text = state.render_text()
    assert "a b c d e f g h i" in text and "final scores" in text and "P1 card" in text and "P0" not in text
    hidden = state.render_text(viewer=0)
    assert "P2 card ?" in hidden
    svg = state.to_svg()
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and svg.count("<rect") > 29
    shelf_svg = Bookshelf.from_rows(["PP...", "PPPP.", "FFPPB", "FGGGB", "FTCCC", "TTTCC"]).to_svg(personal=1)
    assert ET.fromstring(shelf_svg).tag.endswith("svg") and "stroke-dasharray" in shelf_svg


def test_string_actions() -> None:
    state = new_game(2, seed=0)
    refill = state.sample_chance(random.Random(0))
    assert state.string_to_action(str(refill)) == refill
    state.apply(refill)
    move = state.legal_actions()[0]
    assert state.string_to_action(str(move)) == move
    with pytest.raises(IllegalActionError):
        state.string_to_action("z9 1")
    assert np.array_equal(state.shelves, np.full((2, 6, 5), EMPTY))


def test_chance_node_lists_nothing_and_samples_refills() -> None:
    state = new_game(3, seed=1)
    assert state.current_player() == CHANCE
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    refill = state.sample_chance(random.Random(1))
    assert state.illegal_reason(refill) is None
    state.apply(refill)
    assert state.chance_outcomes() == [] and state.legal_actions()
    assert state.illegal_reason(refill) == "no refill is due"


def test_resample_redraws_only_the_unseen_cards() -> None:
    state = started(4, seed=3)
    for player in range(4):
        drawn = set()
        for k in range(30):
            other = state.resample(player, random.Random(k))
            assert other.observation(player) == state.observation(player)
            assert other.personal_cards[player] == state.personal_cards[player]
            assert len(set(other.personal_cards)) == 4
            drawn.update(c for s, c in enumerate(other.personal_cards) if s != player)
        assert state.personal_cards[player] not in drawn and len(drawn) == 11
    # a function of the observation and the rng only: hidden cards changed, same redraw
    twin = state.clone()
    twin.personal_cards = (state.personal_cards[0], *[c for c in range(1, 13) if c not in state.personal_cards][:3])
    assert twin.observation(0) == state.observation(0) and twin != state
    assert twin.resample(0, random.Random(5)) == state.resample(0, random.Random(5))


def test_new_game_options_from_text_and_the_registry() -> None:
    from puzzles.game import GAMES

    info = GAMES["shelfie"]
    state = info.new_game(3, 7, common_goals="SIX_PAIRS, DIAGONAL", personal_cards="3,7,12",
                          refill_rule="four_or_fewer", squares_same_type=True)
    assert isinstance(state, ShelfieState) and state.game_name == "shelfie"
    assert state.common_goals == ("SIX_PAIRS", "DIAGONAL") and state.personal_cards == (3, 7, 12)
    assert state.refill_rule == "four_or_fewer" and state.squares_same_type and not state.squares_inside_groups
    assert info.new_game(2, 7).to_json() == new_game(2, seed=7).to_json()
    for bad in ({"common_goals": "SIX_PAIRS"}, {"personal_cards": "3,x"}, {"personal_cards": "3,3"},
                {"refill_rule": "never"}):
        with pytest.raises(ValueError):
            info.new_game(2, 0, **bad)


def test_string_to_action_parses_without_checking() -> None:
    state = started(2, seed=0)
    move = state.string_to_action("a1 2")  # a well-formed move that is not legal here
    assert move == Move(((0, 0),), 1) and state.illegal_reason(move) == "no tile at a1"
    refill = state.string_to_action("refill:CC")
    assert isinstance(refill, Refill) and state.illegal_reason(refill) == "no refill is due"
    for text in ("refill:XYZ", "z9 1", "d4", "d4 9"):
        with pytest.raises(ValueError):
            state.string_to_action(text)


@pytest.mark.parametrize("players,options", [(2, {}), (3, {"refill_rule": "four_or_fewer"}),
                                             (4, {"squares_inside_groups": True, "squares_same_type": True})])
def test_engine_turns_equal_the_reference_rules(players: int, options: dict) -> None:
    """Every position of random games: the same legal moves in the same order, the same turn played."""
    for seed in range(2):
        rng = random.Random(seed)
        state = new_game(players, seed=seed, **options)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply(state.sample_chance(rng))
                continue
            moves = state.legal_actions()
            assert moves == reference.legal_actions(state)
            move = rng.choice(moves)
            ref = reference.ReferenceState(state)
            ref.apply(move)
            state.apply(move)
            assert reference.engine_public(state) == ref.public()
        assert state.scores() == ref.scores()

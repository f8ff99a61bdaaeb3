"""Project L cards, deck format, completion checker (vs brute force), deck generator, `check` CLI."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from puzzles.polyomino import Region, piece_set
from puzzles.projectl.cards import (
    DEFAULT_DECK_PATH,
    SHAPE_NAMES,
    default_deck,
    format_deck,
    mask_cells,
    parse_counts,
    parse_deck,
)
from solvers.projectl.checker import Checker, PuzzleInHand, finishable_this_turn
from solvers.projectl.deckgen import DEFAULT_SEED, deck_statistics, deck_text, generate_deck

# --------------------------------------------------------------------------
# independent brute force: plain recursion over (shape, placement) with sets
# --------------------------------------------------------------------------

SHAPES = {s.name: s for s in piece_set("projectl")}
BOARD = Region.rectangle(5, 5)
ALL_PLACEMENTS = {name: [frozenset(p) for p in BOARD.placements(shape)] for name, shape in SHAPES.items()}


def brute_fillings(cells: frozenset, stock: dict[str, int]) -> set[frozenset]:
    """Every filling as a frozenset of (shape name, cell set); any placement order, deduplicated."""
    if not cells:
        return {frozenset()}
    out: set[frozenset] = set()
    for name, count in stock.items():
        if count == 0:
            continue
        for pl in ALL_PLACEMENTS[name]:
            if pl <= cells:
                rest = dict(stock)
                rest[name] -= 1
                for filling in brute_fillings(cells - pl, rest):
                    out.add(filling | {(name, pl)})
    return out


@st.composite
def small_cards(draw):
    area = draw(st.integers(1, 6))
    r, c = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    cells = {(r, c)}
    while len(cells) < area:
        frontier = sorted(
            {(a + dr, b + dc) for a, b in cells for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
             if 0 <= a + dr < 5 and 0 <= b + dc < 5} - cells
        )
        cells.add(draw(st.sampled_from(frontier)))
    counts = draw(st.lists(st.integers(0, 2), min_size=9, max_size=9))
    return frozenset(cells), counts


@settings(max_examples=150, deadline=None)
@given(small_cards())
def test_checker_matches_brute_force(case) -> None:
    cells, counts = case
    mask = sum(1 << (r * 5 + c) for r, c in cells)
    fillings = brute_fillings(cells, dict(zip(SHAPE_NAMES, counts)))
    checker = Checker(mask, counts)
    assert checker.completable() == bool(fillings)
    assert checker.count_ways() == len(fillings)
    expected_min = min((len(f) for f in fillings), default=None)
    assert checker.min_pieces() == expected_min
    if fillings:
        way = checker.one_way()
        assert way is not None
        assert frozenset((SHAPE_NAMES[s], frozenset(mask_cells(m))) for s, m in way) in fillings
        best = checker.min_way()
        assert best is not None and len(best) == expected_min
        assert frozenset((SHAPE_NAMES[s], frozenset(mask_cells(m))) for s, m in best) in fillings
        multisets = {tuple(sorted(n for n, _ in f)) for f in fillings}
        got = {tuple(sorted(n for s, k in enumerate(ms) for n in [SHAPE_NAMES[s]] * k)) for ms in checker.multisets()}
        assert got == multisets


def test_known_counts() -> None:
    # a 2x2 square from two dominoes: 2 ways; with an O4 as well: 3 ways
    card = parse_deck("W01 0 I2\n##...\n##...\n.....\n.....\n.....")[0]
    assert Checker(card.empty, parse_counts("I2x2")).count_ways() == 2
    assert Checker(card.empty, parse_counts("I2x2,O4")).count_ways() == 3
    assert Checker(card.empty, parse_counts("I2x2,O4")).min_pieces() == 1
    assert Checker(card.empty, parse_counts("I2,O1")).completable() is False
    # 2x4 rectangle from dominoes: 5 tilings (Fibonacci)
    card = parse_deck("W01 0 I2\n####.\n####.\n.....\n.....\n.....")[0]
    assert Checker(card.empty, parse_counts("I2x4")).count_ways() == 5
    assert Checker(card.empty, parse_counts("I2x3")).count_ways() == 0


# --------------------------------------------------------------------------
# deck format
# --------------------------------------------------------------------------


def test_deck_round_trip_and_filled_cells() -> None:
    text = "# comment\nW07 2 L3   # id, points, reward\n.....\n.##..\n.#x..\n.....\n.....\n\nB02 4 o4\n#####\n.....\n.....\n.....\n.....\n"
    cards = parse_deck(text)
    assert [c.id for c in cards] == ["W07", "B02"]
    assert cards[0].area == 4 and cards[0].empty.bit_count() == 3 and cards[0].color == "white"
    assert cards[1].reward == "O4" and cards[1].color == "black" and cards[1].points == 4
    assert parse_deck(format_deck(cards)) == cards


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("W01 0 I2\n##...\n##...\n.....\n.....\n", 6, "file ends after 4"),
        ("W01 0 Q2\n##...\n##...\n.....\n.....\n.....\n", 1, "unknown reward shape"),
        ("\nW01 zero I2\n", 2, "points must be"),
        ("W01 0 I2\n##...\n##...\n...\n.....\n.....\n", 4, "grid row 3"),
        ("W01 0 I2\n.....\n.....\n.....\n.....\n.....\n", 1, "no recess"),
        ("W01 0 I2\n#.#..\n.....\n.....\n.....\n.....\n", 1, "not one connected"),
        ("W01 0 I2\n##...\n.....\n.....\n.....\n.....\n.....\n", 7, "grid row outside"),
        ("W01 0 I2\n##...\n.....\n.....\n.....\n.....\nW01 1 I2\n", 7, "duplicate card id W01"),
        ("X01 0 I2\n", 1, "must start with W"),
        ("W01 0\n", 1, "expected 'ID POINTS REWARD'"),
    ],
)
def test_parser_errors_name_the_line(text: str, line: int, words: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_deck(text, source="deck.txt")
    assert str(info.value).startswith(f"deck.txt:{line}: ")
    assert words in str(info.value)


def test_parse_counts() -> None:
    assert parse_counts("I2,L3,L3,O4") == [0, 1, 0, 2, 0, 1, 0, 0, 0]
    assert parse_counts("L3x2, o4:3") == [0, 0, 0, 2, 0, 3, 0, 0, 0]
    with pytest.raises(ValueError, match="unknown shape"):
        parse_counts("Z9")


# --------------------------------------------------------------------------
# generator and default decks
# --------------------------------------------------------------------------


def test_default_deck_is_the_generator_output() -> None:
    assert DEFAULT_DECK_PATH.read_text() == deck_text(DEFAULT_SEED)


def test_default_deck_statistics_match_the_digest() -> None:
    stats = deck_statistics(list(default_deck()))
    assert stats["white"] == {
        "count": 32,
        "points": {0: 11, 1: 13, 2: 8},
        "areas": {2: 3, 3: 6, 4: 6, 5: 5, 6: 5, 7: 2, 8: 4, 9: 1},
        "reward_levels": {1: 1, 2: 6, 3: 10, 4: 15},
        "area_is_level_plus_2points": 27,
    }
    black = dict(stats["black"])
    black.pop("area_is_level_plus_2points")
    assert black == {
        "count": 20,
        "points": {3: 8, 4: 7, 5: 5},
        "areas": {8: 1, 9: 2, 10: 3, 11: 2, 12: 3, 13: 2, 14: 2, 16: 5},
        "reward_levels": {1: 6, 2: 3, 3: 6, 4: 5},
    }


def test_every_default_card_is_completable_and_ordered() -> None:
    cards = default_deck()
    for card in cards:
        assert Checker(card.empty, [10] * 9).completable(), card.id
    for color in ("white", "black"):
        group = [c for c in cards if c.color == color]
        keys = [(c.area, c.points) for c in group]
        assert keys == sorted(keys)


def test_generator_other_seed_differs_but_keeps_statistics() -> None:
    other = generate_deck(7)
    assert deck_statistics(other) ["white"]["points"] == {0: 11, 1: 13, 2: 8}
    assert [c.to_text() for c in other] != [c.to_text() for c in default_deck()]


# --------------------------------------------------------------------------
# planner: which puzzles can I finish this turn?
# --------------------------------------------------------------------------


def _hand(*texts: str) -> list[PuzzleInHand]:
    hand = []
    for text in texts:
        card = parse_deck(text)[0]
        hand.append(PuzzleInHand(card.empty, [0] * 9, card.reward_index, card.points, card.id))
    return hand


def test_finishable_uses_master_and_upgrades() -> None:
    a = "W01 1 I2\n##...\n.....\n.....\n.....\n....."
    b = "W02 2 O1\n#....\n.....\n.....\n.....\n....."
    c = "W03 3 O1\n###..\n.....\n.....\n.....\n....."
    hand = _hand(a, b, c)
    # stock I2, O1: Place I2 on W01, Place O1 on W02 -> both; W03 needs I3 (upgrade I2? it is used)
    plans = finishable_this_turn(hand, parse_counts("I2,O1"))
    sets = {p.puzzles for p in plans}
    assert (0, 1) in sets
    # W03 alone: take O1... or upgrade I2 -> I3 and place
    assert (2,) in sets
    # all three: finish W01 (I2 back + reward I2), upgrade I2 -> I3, Master O1 + I3
    best = plans[0]
    assert best.puzzles == (0, 1, 2) and best.points == 6
    assert [a for a in best.actions if not a.startswith("finish")] == [
        "place I2 on W01", "upgrade I2 -> I3", "master O1 on W02, I3 on W03"]
    # with only an O1 in stock, W01 and W03 together are out of reach
    sets = {p.puzzles for p in finishable_this_turn(hand, parse_counts("O1"))}
    assert (1,) in sets and (0, 2) not in sets and (0, 1, 2) not in sets
    # with an I3 in stock: Master covers all three in one action
    plans = finishable_this_turn(hand, parse_counts("I2,O1,I3"), actions=1)
    assert plans[0].puzzles == (0, 1, 2)
    assert any(step.startswith("master") for step in plans[0].actions)
    # without Master only two of the three
    plans = finishable_this_turn(hand, parse_counts("I2,O1,I3"), actions=2, master_available=False)
    assert max(len(p.puzzles) for p in plans) == 2


def test_finishing_returns_pieces_for_the_next_puzzle() -> None:
    a = "W01 1 O1\n#....\n.....\n.....\n.....\n....."
    b = "W02 1 O1\n#....\n.....\n.....\n.....\n....."
    hand = _hand(a, b)
    plans = finishable_this_turn(hand, parse_counts("O1"), supply=[0] * 9, master_available=False)
    # one O1: finish W01, get it back, finish W02 with it (no supply needed)
    assert (0, 1) in {p.puzzles for p in plans}


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def test_cli_check_json(run_cli, tmp_path) -> None:
    path = tmp_path / "card.txt"
    path.write_text("B01 5 O4\n####.\n####.\n##x#.\n####.\n.....\n")
    result = run_cli("projectl", "check", str(path), "--stock", "O1,I2,I2,L3,L3,I4,O4,T4,L4,S4", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["completable"] is True and data["min_pieces"] == 4 and data["min_place_actions"] == 4
    assert data["ways"] == 1706
    covered = sorted(tuple(c) for p in data["solution"] for c in p["cells"])
    assert len(covered) == 15 and (2, 2) not in covered
    result = run_cli("projectl", "check", str(path), "--stock", "I2", "--json")
    data = json.loads(result.output)
    assert data == {**data, "completable": False, "min_pieces": None, "ways": 0, "solution": None}


def test_cli_check_errors(run_cli, tmp_path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("B01 5 O4\n####.\n####\n")
    result = run_cli("projectl", "check", str(path), "--stock", "I2")
    assert result.exit_code != 0 and "bad.txt:3:" in result.output
    result = run_cli("projectl", "check", str(tmp_path / "missing.txt"))
    assert result.exit_code != 0


def test_cli_check_turn(run_cli, tmp_path) -> None:
    path = tmp_path / "hand.txt"
    path.write_text(
        "W01 1 I2\n##...\n.....\n.....\n.....\n.....\n\n"
        "W02 2 O1\n#....\n.....\n.....\n.....\n.....\n\n"
        "W03 3 O1\n###..\n.....\n.....\n.....\n.....\n"
    )
    result = run_cli("projectl", "check", str(path), "--stock", "I2,O1", "--turn", "--json")
    assert result.exit_code == 0, result.output
    plans = json.loads(result.output)["plans"]
    assert plans[0]["puzzles"] == ["W01", "W02", "W03"] and plans[0]["points"] == 6
    result = run_cli("projectl", "check", str(path), "--stock", "I2,O1", "--turn", "--no-master", "--json")
    assert all(len(p["puzzles"]) < 3 for p in json.loads(result.output)["plans"])
    result = run_cli("projectl", "check", str(path), "--stock", "I2")
    assert result.exit_code != 0 and "choose one with --card" in result.output

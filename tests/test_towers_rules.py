"""Rainbow Blackjack rules, table-driven: one test (or table row) per rule of docs/rules/rainbow-blackjack.md."""

from __future__ import annotations

import json
import random

import pytest

from puzzles.game import CHANCE, GAMES, TERMINAL, IllegalActionError
from puzzles.towers import (
    JOKER,
    PASS,
    STARTERS,
    Announce,
    Draw,
    PickLine,
    Place,
    TowersState,
    allowed_towers,
    new_game,
    parse_stone,
    replace_ok,
    sample_state,
    stone_str,
)
from puzzles.towers.stones import player_set


def S(text: str) -> int:
    return parse_stone(text)


def placement_state(towers: dict[int, list[tuple[str, int]]], hands: tuple[list[str], list[str]], step: int = 0) -> TowersState:
    """A round-1 placement position with the given towers ({tower: [(stone, placer), ...]}) and hands."""
    return TowersState.placement_position(towers, hands, step)


# -- components ------------------------------------------------------------


def test_player_sets() -> None:
    p1, p2 = player_set(0), player_set(1)
    assert len(p1) == len(p2) == 21
    assert p1.count(JOKER) == p2.count(JOKER) == 3
    assert {stone_str(c)[0] for c in p1 if c != JOKER} == set("RYB")
    assert {stone_str(c)[0] for c in p2 if c != JOKER} == set("OGP")


@pytest.mark.parametrize(
    "stone, towers",
    [("R3", "PRO"), ("O3", "ROY"), ("Y3", "OYG"), ("G3", "YGB"), ("B3", "GBP"), ("P3", "BPR")],
)
def test_adjacency_wheel(stone: str, towers: str) -> None:
    assert {"ROYGBP"[t] for t in allowed_towers(S(stone))} == set(towers)
    s = placement_state({}, ([stone], []))
    legal = {s.action_to_string(a) for a in s.legal_actions()}
    assert legal == {f"{stone}>{t}" for t in towers}
    bad = next(t for t in "ROYGBP" if t not in towers)
    with pytest.raises(IllegalActionError, match="may go only"):
        s.apply(Place(S(stone), "ROYGBP".index(bad)))


# -- jokers -------------------------------------------------------------------


def test_joker_not_first_stone() -> None:
    s = placement_state({}, (["J"], []))
    assert s.legal_actions() == [PASS]
    with pytest.raises(IllegalActionError, match="first stone"):
        s.apply(Place(JOKER, 0))


def test_joker_not_on_joker_and_takes_value_below() -> None:
    s = placement_state({0: [("R5", 0), ("J", 1)], 1: [("O4", 1)]}, (["J", "J", "R1"], []))
    with pytest.raises(IllegalActionError, match="another joker"):
        s.apply(Place(JOKER, 0))
    jokers = [a for a in s.legal_actions() if isinstance(a, Place) and a.stone == JOKER]
    assert jokers == [Place(JOKER, 1)]  # red has a joker on top, the others are empty
    s.apply(Place(JOKER, 1))
    assert s.values[1] == [4, 4] and s.tower_total(1) == 8 and s.owner(1) == 0
    assert s.tower_total(0) == 10  # R5 + J(5)


def test_double_joker_hand_gives_one_action_per_tower() -> None:
    s = placement_state({2: [("Y3", 0)]}, (["J", "J", "B2"], []))
    acts = [s.action_to_string(a) for a in s.legal_actions()]
    assert acts.count("J>Y") == 1


# -- joker replacement ----------------------------------------------------------


@pytest.mark.parametrize(
    "total, top, value, expected, why",
    [
        (19, 4, 6, True, "25 > 21 and 21 is closer than 19"),
        (19, 4, 1, False, "(b) fails: 19 + 1 = 20 does not exceed 21"),
        (23, 5, 6, False, "(a) fails: 24 is not closer to 21 than 23"),
        (23, 5, 3, True, "21 is closer than 23 and 26 > 21"),
        (20, 6, 2, False, "(a) fails: 16 is farther than 20"),
        (20, 6, 6, False, "(a) fails: 20 is not strictly closer than 20"),
        (18, 3, 6, True, "21 exactly and 24 > 21"),
    ],
)
def test_replacement_conditions(total: int, top: int, value: int, expected: bool, why: str) -> None:
    assert replace_ok(total, top, True, value) is expected, why
    assert replace_ok(total, top, False, value) is False  # only a joker on top can be replaced


def test_replacement_in_play() -> None:
    # red: R6 R5 Y4? no — build 15 + joker(4) = 19 with R4 below the joker
    s = placement_state({0: [("R6", 1), ("R5", 1), ("R4", 1), ("J", 1)]}, (["R6", "R1", "B2"], []))
    assert s.tower_total(0) == 19
    legal = {s.action_to_string(a) for a in s.legal_actions()}
    assert "R6xR" in legal and "R6>R" in legal and "R1xR" not in legal
    s.apply(s.string_to_action("R6xR"))
    assert s.tower_total(0) == 21 and s.owner(0) == 0
    assert [stone_str(c) for c in s.towers[0]] == ["R6", "R5", "R4", "R6"]
    assert s.out == [[JOKER, 1, 0, 0]]
    with pytest.raises(IllegalActionError):
        s.apply(Place(S("O1"), 0, replace=True))


# -- lines, direction lock, starters -----------------------------------------------


def test_line_direction_lock_and_round_starters() -> None:
    s = TowersState.new_game(11)
    rng = random.Random(3)
    starters = []
    while not s.is_terminal():
        if s.phase == "pick" and s.step == 0:
            starters.append(s.current_player())
            p = s.current_player()
            g = s.grid_index()
            legal = [a.line for a in s.legal_actions() if isinstance(a, PickLine)]
            if s.round % 3 == 0:
                assert legal == list(range(6))  # first round of a grid: any line
            else:
                d = s.direction[p][g]
                assert all(ln // 3 == d for ln in legal) and len(legal) == 3 - s.round % 3
                other = next(ln for ln in range(6) if ln // 3 != d)
                with pytest.raises(IllegalActionError, match="locked"):
                    s.clone().apply(PickLine(other))
                used = s.used_lines[p][g][0]
                with pytest.raises(IllegalActionError, match="already used"):
                    s.clone().apply(PickLine(used))
        if s.current_player() == CHANCE:
            s.apply(s.sample_chance(rng))
        else:
            s.apply(rng.choice(s.legal_actions()))
    assert tuple(starters[: len(starters)]) == STARTERS[: len(starters)]
    if not s.instant:
        assert tuple(starters) == STARTERS == (0, 1, 0, 0, 1, 0)


def test_placement_order_alternates_starter_first() -> None:
    s = TowersState.new_game(5)
    rng = random.Random(0)
    while s.round < 2 and not s.is_terminal():
        if s.phase == "place":
            assert s.current_player() == (STARTERS[s.round] if s.step % 2 == 0 else 1 - STARTERS[s.round])
        s.apply(rng.choice(s.legal_actions()))


def test_hand_and_announcement() -> None:
    s = TowersState.from_setup(
        ([S(x) for x in ["R1", "R2", "J", "Y3", "Y4", "Y5", "B1", "B2", "B3"]], [S(x) for x in ["O1", "O2", "O3", "G1", "G2", "G3", "P1", "P2", "J"]]),
        ([S("R6"), S("Y6"), S("B6")], [S("O6"), S("G6"), S("P6")]),
    )
    s.apply(s.string_to_action("row1"))
    s.apply(s.string_to_action("numbers"))
    s.apply(s.string_to_action("col3"))
    s.apply(s.string_to_action("colors"))
    assert s.announcements[0]["values"] == [0, 1, 2]
    assert s.announcements[1]["values"] == ["O", "G", "grey"]
    assert sorted(s.hands[0]) == sorted([S("R1"), S("R2"), JOKER])
    assert s.phase == "place" and s.current_player() == 0


# -- instant win, no legal placement, end, tie ----------------------------------------


def test_instant_win_checked_after_each_stone() -> None:
    s = placement_state(
        {0: [("R6", 0), ("R6", 0), ("R5", 0)], 2: [("Y6", 0), ("Y6", 0), ("Y6", 0), ("Y3", 0)], 4: [("B6", 0), ("B6", 0), ("B4", 0)]},
        (["R4", "B5", "Y1"], ["O1", "G1", "P1"]),
    )
    assert s.tower_total(0) == 17 and s.tower_total(2) == 21 and s.tower_total(4) == 16
    s.apply(s.string_to_action("R4>R"))  # two towers at 21: game goes on
    assert not s.is_terminal() and s.current_player() == 1
    s.apply(s.string_to_action("O1>O"))
    s.apply(s.string_to_action("B5>B"))  # third 21 tower: wins at once, mid-round
    assert s.is_terminal() and s.current_player() == TERMINAL
    assert s.winner == 0 and s.instant and s.returns() == [1.0, 0.0]
    assert s.step == 2 and s.round == 0


def test_instant_win_needs_ownership() -> None:
    s = placement_state(
        {0: [("R6", 0), ("R6", 0), ("R5", 0), ("R4", 0)], 2: [("Y6", 1), ("Y6", 1), ("Y6", 1), ("Y3", 1)], 4: [("B6", 0), ("B6", 0), ("B4", 0)]},
        (["B5", "R1", "Y1"], ["O1", "G1", "P1"]),
    )
    s.apply(s.string_to_action("B5>B"))  # three towers at 21, but yellow belongs to P2
    assert not s.is_terminal()


def test_no_legal_placement_passes_and_discards() -> None:
    s = placement_state({}, (["J", "J", "J"], ["O1", "G2", "P3"]))
    assert s.legal_actions() == [PASS]
    s.apply(PASS)
    s.apply(s.string_to_action("O1>O"))
    assert [s.action_to_string(a) for a in s.legal_actions()] == ["J>O"]  # now a tower exists
    s.apply(s.string_to_action("J>O"))
    s.apply(s.string_to_action("G2>G"))
    with pytest.raises(IllegalActionError, match="pass only"):
        s.clone().apply(PASS)
    assert s.legal_actions() == [Place(JOKER, 3)]  # orange has a joker on top
    s.apply(Place(JOKER, 3))
    s.apply(s.string_to_action("P3>P"))
    assert s.round == 1 and s.hands == [[], []]
    assert [stone_str(c) for c in s.revealed[0][0]] == ["J", "J", "J"]  # one placed, two discarded, all revealed


def test_tie_is_a_draw_and_more_towers_win() -> None:
    s = TowersState.new_game(2)
    rng = random.Random(9)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    owned = s.towers_owned()
    if not s.instant:
        assert s.winner == (-1 if owned[0] == owned[1] else 0 if owned[0] > owned[1] else 1)
    draw = placement_state({0: [("R1", 0)], 1: [("O1", 1)]}, ([], []))
    assert draw.returns() == [0.5, 0.5]


def test_round_and_game_length() -> None:
    s = TowersState.new_game(21)
    rng = random.Random(21)
    placements = 0
    while not s.is_terminal():
        if s.phase == "place":
            placements += 1
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
    if not s.instant:
        assert placements == 36 and s.round == 6


# -- chance, JSON, observations ----------------------------------------------------------


def test_chance_outcomes_are_weighted_by_multiplicity() -> None:
    s = TowersState()
    outs = dict(s.chance_outcomes())
    assert len(outs) == 19 and abs(sum(outs.values()) - 1) < 1e-12
    assert outs[Draw(JOKER)] == pytest.approx(3 / 21)
    assert s.current_player() == CHANCE


def test_json_round_trip_through_a_game() -> None:
    rng = random.Random(4)
    s = TowersState()
    while not s.is_terminal():
        back = TowersState.from_json(json.loads(json.dumps(s.to_json())))
        assert back == s and back.legal_actions() == s.legal_actions()
        for p in (0, 1):
            obs = s.observation(p)
            assert json.loads(json.dumps(obs)) == obs
        s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
        for a in s.legal_actions():
            assert s.string_to_action(s.action_to_string(a)) == a


def test_observation_hides_the_opponents_stones() -> None:
    grid_p1 = [S(x) for x in ["R1", "R2", "J", "Y3", "Y4", "Y5", "B1", "B2", "B3"]]
    a = TowersState.from_setup((grid_p1, [S(x) for x in ["O1", "O2", "O3", "G1", "G2", "G3", "P1", "P2", "J"]]), ([S("R6"), S("Y6"), S("B6")], [S("O6"), S("G6"), S("P6")]))
    b = TowersState.from_setup((grid_p1, [S(x) for x in ["O1", "O2", "O3", "P5", "J", "G4", "O5", "P4", "G5"]]), ([S("R6"), S("Y6"), S("B6")], [S("J"), S("O4"), S("P3")]))
    for action in ("row1", "colors", "row1", "numbers", "R1>R"):
        a.apply(a.string_to_action(action))
        b.apply(b.string_to_action(action))
        assert a.observation(0) == b.observation(0)
        assert a.observation(1) != b.observation(1)
        assert json.dumps(a.observation(0)) == json.dumps(b.observation(0))
    assert a != b


def test_sampled_states_are_in_the_information_set() -> None:
    rng = random.Random(8)
    for seed in range(6):
        s = TowersState.new_game(seed)
        while not s.is_terminal():
            if s.current_player() in (0, 1):
                p = s.current_player()
                obs = s.observation(p)
                for _ in range(2):
                    d = sample_state(obs, rng)
                    assert d.observation(p) == obs
                    assert sorted(d.legal_actions()) == sorted(s.legal_actions())
                    other = 1 - p
                    assert sorted(d.hands[other] + sum(d.revealed[other], [])) != [] or s.round == 0
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))


def test_sampling_respects_announcements() -> None:
    rng = random.Random(1)
    s = TowersState.new_game(13)
    for a in ("col2", "colors", "row3", "numbers"):
        s.apply(s.string_to_action(a))
    obs = s.observation(0)
    want = s.announcements[-1]["values"]
    for _ in range(30):
        d = sample_state(obs, rng)
        assert sorted(c % 6 + 1 if c != JOKER else 0 for c in d.hands[1]) == want


def test_text_and_svg_rendering() -> None:
    s = placement_state({0: [("R5", 0), ("J", 1)], 3: [("G6", 1)]}, (["R1"], ["O2"]))
    text = str(s)
    assert "J(5)" in text and "= 10" in text and "P2" in text
    svg = s._repr_svg_()
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>") and "J=5" in svg
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)  # well-formed XML
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "red 10" in texts and "green 6" in texts
    from puzzles.towers.render import render_observation_text

    view = render_observation_text(s.observation(0))
    assert "your hand: R1" in view and "O2" not in view.split("announcements")[0].split("towers owned")[1]


# -- protocol: registry, actions as values, parsing, resample ------------------------------


def test_registry_factory_is_deterministic_and_two_player_only() -> None:
    info = GAMES["towers"]
    assert info.new_game(2, seed=5) == info.new_game(2, seed=5) == TowersState.new_game(5)
    assert info.new_game(2, seed=5) != info.new_game(2, seed=6)
    assert new_game(2, 5).current_player() == 0  # the opening deal is resolved from the seed
    with pytest.raises(ValueError, match="2 players"):
        new_game(3, 0)
    with pytest.raises(TypeError):
        hash(TowersState())


def test_actions_are_frozen_values_with_text_round_trips() -> None:
    s = placement_state({0: [("R6", 1), ("R5", 1), ("R4", 1), ("J", 1)]}, (["R6", "J", "B2"], []))
    legal = s.legal_actions()
    assert Place(S("R6"), 0, replace=True) in legal and Place(S("R6"), 0) in legal
    assert {"R6xR", "R6>R", "B2>G"} <= {s.action_to_string(a) for a in legal} and Place(JOKER, 1) not in legal
    for a in legal:
        hash(a)
        assert s.string_to_action(s.action_to_string(a)) == a
    first = legal[0]
    assert isinstance(first, Place)
    with pytest.raises(AttributeError):
        first.tower = 3  # type: ignore[misc]
    assert [s.string_to_action(t) for t in ("row2", "c3", "colors", "n", "pass", "draw J", "r6 o", "jo")] == [
        PickLine(1), PickLine(5), Announce("colors"), Announce("numbers"), PASS, Draw(JOKER), Place(S("R6"), 1),
        Place(JOKER, 1),
    ]


def test_string_to_action_parses_only_and_apply_refuses_illegal_actions() -> None:
    s = placement_state({}, (["R1"], []))
    action = s.string_to_action("R1>B")  # parses, although blue is not a tower R1 may enter
    assert action == Place(S("R1"), 4)
    assert "may go only" in (s.illegal_reason(action) or "")
    before = s.dumps()
    with pytest.raises(IllegalActionError):
        s.apply(action)
    assert s.dumps() == before
    for bad in ("row9", "Z9>R", "hello", ""):
        with pytest.raises(ValueError):
            s.string_to_action(bad)
    with pytest.raises(IllegalActionError):
        s.apply(PickLine(0))  # a line pick during the placements
    assert s.illegal_reason(Place(S("R1"), 0)) is None


def _random_positions(games: int, seed: int = 0):
    rng = random.Random(seed)
    for g in range(games):
        s = TowersState() if g % 4 == 0 else TowersState.new_game(g)
        while not s.is_terminal():
            yield s.clone()
            s.apply(s.sample_chance(rng) if s.current_player() == CHANCE else rng.choice(s.legal_actions()))
        yield s


def test_resample_keeps_the_observation_and_depends_on_nothing_else() -> None:
    rng = random.Random(5)
    checked = differs = 0
    for k, s in enumerate(_random_positions(6)):
        for p in (0, 1):
            draw = s.resample(p, random.Random(k))
            assert draw.observation(p) == s.observation(p)
            if s.current_player() == p:
                assert draw.legal_actions() == s.legal_actions()
            # a state that differs only in what p cannot see gives the very same draw
            other = s.resample(p, random.Random(rng.random()))
            assert other.resample(p, random.Random(k)) == draw
            differs += other != s
            checked += 1
    assert checked > 400 and differs > checked // 2


def test_resample_draws_the_deal_in_progress() -> None:
    s = TowersState()
    rng = random.Random(2)
    for _ in range(15):  # P1's first grid and removed stones dealt, P2's 3 cells into theirs
        s.apply(s.sample_chance(rng))
    draw = s.resample(1, random.Random(0))
    assert draw.observation(1) == s.observation(1)
    assert draw.grids[0][0] is not None and len(draw.removed[0]) == 3 and len(draw.pools[0]) == 9
    assert sorted(draw.grids[0][0] + draw.removed[0] + draw.pools[0]) == player_set(0)
    assert draw.grids[0][0] != s.grids[0][0] or draw.removed[0] != s.removed[0]

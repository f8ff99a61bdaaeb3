"""Project L rule engine: conservation, refusals, completion, rewards, end of game, scoring, solo."""

from __future__ import annotations

import json
import random

import pytest

from puzzles.game import IllegalActionError
from puzzles.projectl.cards import SHAPE_INDEX, parse_deck
from puzzles.projectl.engine import (
    DONE,
    MASTER,
    MASTER_END,
    PASS,
    PIECE,
    MasterPlace,
    Place,
    ProjectLState,
    Recycle,
    Take,
    Touch,
    Upgrade,
    parse_action,
    reward_shape,
)
from solvers.bots import RandomBot
from solvers.playout import play_game
from tests.projectl_helpers import deck_order_shuffled

S = SHAPE_INDEX
new_game = ProjectLState.new_game  # the convenience constructor: every rule option, solo as a flag


def m(*cells: str) -> int:
    """Mask from row/col digit pairs: m("00", "01")."""
    return sum(1 << (int(c[0]) * 5 + int(c[1])) for c in cells)


TINY = parse_deck(
    """
W01 1 I2
##...
.....
.....
.....
.....

W02 2 L3
#....
.....
.....
.....
.....

W03 0 O1
###..
.....
.....
.....
.....

W04 1 I3
##...
#....
.....
.....
.....

W05 0 I2
#....
#....
.....
.....
.....

B01 3 O4
####.
.....
.....
.....
.....

B02 4 O1
##...
##...
.....
.....
.....

B03 5 T4
###..
.....
.....
.....
.....

B04 3 I2
#....
.....
.....
.....
.....

B05 4 L3
##...
.....
.....
.....
.....
"""
)


def tiny_game(**kwargs) -> ProjectLState:
    return new_game(kwargs.pop("players", 2), kwargs.pop("seed", 1), cards=TINY, **kwargs)


def hand_card(st: ProjectLState, p: int, card_id: str) -> int:
    """Put card ``card_id`` (wherever it is) into player p's unfinished puzzles; returns its slot."""
    index = next(i for i, c in enumerate(st.cards) if c.id == card_id)
    for pile in (st.white_deck, st.black_deck):
        if index in pile:
            pile.remove(index)
    for row in (st.white_row, st.black_row):
        if index in row:
            row[row.index(index)] = -1
    st.puzzles[p].append([index, st.cards[index].recess, []])
    return len(st.puzzles[p]) - 1


def assert_refused(st: ProjectLState, action, words: str) -> None:
    before = json.dumps(st.to_json(), sort_keys=True)
    with pytest.raises(IllegalActionError, match=words):
        st.apply(action)
    assert json.dumps(st.to_json(), sort_keys=True) == before


# --------------------------------------------------------------------------
# conservation and determinism over random games
# --------------------------------------------------------------------------

CONFIGS = [
    dict(rules="classic", players=1),
    dict(rules="classic", players=2),
    dict(rules="classic", players=3),
    dict(rules="classic", players=4),
    dict(rules="revised", players=1, max_rounds=12),
    dict(rules="revised", players=2, max_rounds=12),
    dict(rules="revised", players=3, max_rounds=12),
    dict(rules="revised", players=4, max_rounds=10),
    dict(solo=True, difficulty="normal"),
    dict(solo=True, difficulty="hard", rules="revised"),
    dict(solo=True, difficulty="unbeatable"),
]


class KindRandom:
    """Random action type first, then a random action of it: reaches more of the rules than uniform."""

    name = "kind-random"

    def choose(self, state, rng):
        groups: dict[str, list] = {}
        for a in state.legal_actions():
            groups.setdefault(type(a).__name__, []).append(a)
        return rng.choice(groups[rng.choice(sorted(groups))])


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_conservation_every_step(config) -> None:
    config = dict(config)
    players = config.pop("players", 1)
    for seed in range(2):
        st = new_game(players, seed, **config)
        total = st.piece_totals()
        assert total == [st.per_shape] * 9
        ncards = len(st.card_locations())
        rng = random.Random(seed)
        bot = KindRandom()
        steps = 0
        while not st.is_terminal():
            st.apply(bot.choose(st, rng))
            steps += 1
            assert st.piece_totals() == total
            where = st.card_locations()
            assert len(where) == ncards and len(set(where)) == ncards
            assert all(n >= 0 for n in st.supply)
            assert all(len(pl) <= 4 for pl in st.puzzles)
        assert steps > 10


def test_determinism_per_seed() -> None:
    def run(seed):
        st = new_game(3, seed, rules="revised", max_rounds=15)
        play_game(st, [KindRandom()] * 3, random.Random(seed))
        return st.dumps()

    assert run(5) == run(5)
    assert run(5) != run(6)


def test_json_round_trip_mid_game() -> None:
    st = new_game(2, 3)
    rng = random.Random(3)
    for _ in range(40):
        st.apply(KindRandom().choose(st, rng))
    copy = ProjectLState.from_json(json.loads(st.dumps()))
    assert copy == st
    assert copy.legal_actions() == st.legal_actions()
    # both continue identically
    a, b = random.Random(9), random.Random(9)
    play_game(st, [KindRandom()] * 2, a)
    play_game(copy, [KindRandom()] * 2, b)
    assert copy.dumps() == st.dumps()


def test_action_text_round_trip() -> None:
    st = new_game(2, 4)
    rng = random.Random(4)
    for _ in range(60):
        if st.is_terminal():
            break
        for action in st.legal_actions():
            assert st.string_to_action(st.action_to_string(action)) == action
        st.apply(KindRandom().choose(st, rng))


# --------------------------------------------------------------------------
# refusals
# --------------------------------------------------------------------------


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    st = tiny_game()
    slot = hand_card(st, 0, "B01")  # 1x4 line
    assert_refused(st, Place(slot, S["I2"], m("10", "11")), "outside the recess")
    assert_refused(st, Place(slot, S["I2"], m("00", "11")), "not a I2")
    assert_refused(st, Place(slot, S["I3"], m("00", "01", "02")), "no I3")
    assert_refused(st, Place(3, S["I2"], m("00", "01")), "no unfinished puzzle in slot 3")
    assert_refused(st, Upgrade(S["O1"], S["I3"]), "one level higher")
    assert_refused(st, Upgrade(S["I3"], S["L3"]), "no I3")
    assert_refused(st, Recycle("W"), "revised")
    assert_refused(st, MasterPlace(slot, S["I2"], m("00", "01")), "not an action")
    assert_refused(st, PASS, "only when no other action")
    assert_refused(st, Take("G", 0), "take from row W or B")
    st.apply(Place(slot, S["I2"], m("00", "01")))
    assert_refused(st, Place(slot, S["O1"], m("01")), "overlap")
    st.stock[0][S["O1"]] += 1
    st.supply[S["O1"]] -= 1
    st.apply(MASTER)
    assert_refused(st, Take("W", 0), "during the Master action")
    st.apply(MasterPlace(slot, S["O1"], m("02")))
    assert_refused(st, MasterPlace(slot, S["O1"], m("03")), "at most one piece on each puzzle")
    st.apply(MASTER_END)
    assert_refused(st, MASTER, "once per turn")
    # four unfinished puzzles
    st2 = tiny_game()
    for cid in ("W01", "W02", "W03", "W04"):
        hand_card(st2, 0, cid)
    assert_refused(st2, Take("B", 0), "already have 4")
    # empty supply of level-1 pieces
    st2.supply[S["O1"]] = 0
    assert_refused(st2, PIECE, "no level-1 piece")
    with pytest.raises(IllegalActionError, match="cannot read"):
        st2.string_to_action("place zero")


def test_revised_upgrade_down_and_recycle() -> None:
    st = tiny_game(rules="revised")
    st.stock[0][S["L3"]] += 1
    st.supply[S["L3"]] -= 1
    assert Upgrade(S["L3"], S["O1"]) in st.legal_actions()
    st.apply(Upgrade(S["L3"], S["O1"]))
    assert st.stock[0][S["O1"]] == 2
    deck = [c for c in reversed(st.white_row) if c >= 0] + st.white_deck
    expected = [deck.pop() for _ in range(4)]
    st.apply(Recycle("W"))
    assert st.white_row == expected and st.white_deck == deck
    classic = tiny_game()
    classic.stock[0][S["L3"]] += 1
    classic.supply[S["L3"]] -= 1
    assert_refused(classic, Upgrade(S["L3"], S["O1"]), "one level higher")


# --------------------------------------------------------------------------
# completion, rewards, Master
# --------------------------------------------------------------------------


def test_completion_returns_pieces_and_pays_reward() -> None:
    st = tiny_game()
    slot = hand_card(st, 0, "W01")  # 2 cells, reward I2, 1 point
    st.apply(Place(slot, S["O1"], m("00")))
    assert st.stock[0] == [0, 1, 0, 0, 0, 0, 0, 0, 0]
    supply_i2 = st.supply[S["I2"]]
    st.apply(PIECE)
    st.apply(Place(slot, S["O1"], m("01")))  # third action completes W01
    assert st.player == 1
    assert st.puzzles[0] == []
    assert [st.cards[c].id for c in st.done[0]] == ["W01"]
    assert st.stock[0] == [2, 2, 0, 0, 0, 0, 0, 0, 0]  # two O1 back, I2 kept, reward I2
    assert st.supply[S["I2"]] == supply_i2 - 1
    assert st.scores()[0] == 1


def test_master_completes_several_puzzles_at_its_end() -> None:
    st = tiny_game()
    a = hand_card(st, 0, "W02")  # 1 cell, reward L3
    b = hand_card(st, 0, "B04")  # 1 cell, reward I2
    c = hand_card(st, 0, "W05")  # vertical domino, reward I2
    st.stock[0] = [2, 1, 0, 0, 0, 0, 0, 0, 0]
    st.supply[0] -= 1  # keep conservation: the test took one more O1
    total = st.piece_totals()
    st.apply(MASTER)
    st.apply(MasterPlace(a, S["O1"], m("00")))
    st.apply(MasterPlace(b, S["O1"], m("00")))
    st.apply(MasterPlace(c, S["I2"], m("00", "10")))
    assert len(st.puzzles[0]) == 3  # nothing completes before the Master action ends
    st.apply(MASTER_END)
    assert st.puzzles[0] == []
    assert sorted(st.cards[x].id for x in st.done[0]) == ["B04", "W02", "W05"]
    assert st.stock[0] == [2, 3, 0, 1, 0, 0, 0, 0, 0]
    assert st.piece_totals() == total
    assert st.actions_left == 2


def test_supply_shortage_rule() -> None:
    supply = [0, 0, 3, 0, 0, 0, 0, 0, 0]
    assert reward_shape(S["L3"], supply) == S["I3"]  # same level
    supply = [0, 0, 0, 0, 1, 0, 0, 0, 0]
    assert reward_shape(S["L3"], supply) == S["I4"]  # one level higher
    supply = [1, 1, 0, 0, 0, 0, 0, 0, 0]
    assert reward_shape(S["O4"], supply) == S["I2"]  # highest lower level
    assert reward_shape(S["O4"], [0] * 9) is None


# --------------------------------------------------------------------------
# end of game and scoring
# --------------------------------------------------------------------------


def test_end_trigger_then_final_round() -> None:
    st = tiny_game(players=2)
    assert st.black_deck and len(st.black_deck) == 1
    st.apply(Take("B", 0))  # refilled from the last card
    assert st.trigger_round < 0
    st.apply(Take("B", 1))  # cannot be refilled: trigger in round 1
    assert st.trigger_round == 0
    st.apply(PIECE)
    # the rest of round 1 (player 1) and all of round 2 are played, then the game ends
    for _ in range(3):
        st.apply(next(a for a in st.legal_actions() if a != MASTER))
    assert st.round == 1 and not st.is_terminal()
    for _ in range(6):
        assert not st.is_terminal()
        st.apply(next(a for a in st.legal_actions() if a != MASTER))
    assert st.is_terminal() and st.end_reason == "deck exhausted"


def test_revised_one_black_per_turn_after_trigger() -> None:
    st = tiny_game(rules="revised")
    st.black_deck.clear()
    st.apply(Take("B", 0))
    assert st.trigger_round == 0
    assert_refused(st, Take("B", 1), "at most one black")


def test_tie_breaks() -> None:
    st = tiny_game(players=3)
    w01, w02, w04, b04 = (next(i for i, c in enumerate(st.cards) if c.id == x) for x in ("W01", "W02", "W04", "B04"))
    st.done = [[w02], [w01, w04], [b04]]  # 2, 2, 3 points
    assert st.scores() == [2.0, 2.0, 3.0]
    assert st.returns() == [0.0, 0.0, 1.0]
    st.done = [[w02], [w01, w04], []]  # 2 vs 2: player 1 has more puzzles
    assert st.returns() == [0.0, 1.0, 0.0]
    st.done = [[w02], [w02 + 0], []]
    st.stock = [[1, 0, 0, 0, 0, 0, 0, 0, 0], [1, 1, 0, 0, 0, 0, 0, 0, 0], [0] * 9]
    assert st.returns() == [0.0, 1.0, 0.0]  # then more pieces in stock
    st.stock[0] = [0, 2, 0, 0, 0, 0, 0, 0, 0]
    assert st.returns() == [0.5, 0.5, 0.0]  # shared win


def test_revised_finishing_touches_and_penalties() -> None:
    st = tiny_game(rules="revised", players=1)
    a = hand_card(st, 0, "B05")  # 2 cells, 4 points
    b = hand_card(st, 0, "B03")  # 3 cells, 5 points
    st._game_end()
    assert st.phase == "touch" and not st.is_terminal()
    assert_refused(st, PIECE, "finishing touches")
    st.apply(Touch(a, S["I2"], m("00", "01")))  # completes B05: +4, -1
    assert len(st.puzzles[0]) == 1 and st.cards[st.puzzles[0][0][0]].id == "B03"
    st.apply(DONE)
    assert st.is_terminal()
    # B05 completed by finishing touches (+4), one piece placed (-1), B03 unfinished (-5)
    assert st.scores() == [4 - 1 - 5]
    assert st.stock[0] == [1, 0, 0, 0, 0, 0, 0, 0, 0]  # no reward, pieces stay on the card
    assert st.piece_totals() == [15] * 9
    del b


# --------------------------------------------------------------------------
# solo variant
# --------------------------------------------------------------------------


def test_solo_setup_and_opponent_turn() -> None:
    st = new_game(1, 2, solo=True, difficulty="hard")
    assert st.locks == [1, 2, 1] and st.opp_supply == 3
    assert len(st.white_row) == 9 and len(st.white_deck) == 16
    assert st.piece_totals() == [15] * 9
    # take from column 1: one lock moves to the opponent's supply
    st.apply(Take("G", 1))
    assert st.locks == [1, 1, 1] and st.opp_supply == 4
    st.apply(PIECE)
    st.apply(PIECE)
    # every column still locked: the opponent removes one lock from each
    assert st.locks == [0, 0, 0] and st.opp_cards == [] and st.supply[0] == 15 - 4 - 3 - 1 - 2 + 3
    # next turn: the opponent takes the best card of the unlocked grid
    grid = list(st.white_row)
    for _ in range(3):
        st.apply(PIECE)
    best = max(range(9), key=lambda i: (st.cards[grid[i]].points, -i))
    assert st.opp_cards == [grid[best]]
    column = best % 3
    assert st.locks[column] == 4 and sum(st.locks) == 4 and st.opp_supply == 0
    assert st.opponent_score() == st.cards[grid[best]].points


def test_solo_win_needs_strictly_higher_score() -> None:
    st = new_game(1, 0, solo=True)
    w = [i for i, c in enumerate(st.cards) if c.points == 2][:2]
    st.done[0] = list(w)
    st.opp_cards = [w[0], w[1]]
    assert st.returns() == [0.0]
    st.opp_cards = [w[0]]
    assert st.returns() == [1.0]


def test_rendering_text_and_svg() -> None:
    st = tiny_game()
    slot = hand_card(st, 0, "B01")
    st.apply(Place(slot, S["I2"], m("00", "01")))
    text = st.render_text()
    assert "       0 I2 I2  #  #  ." in text.splitlines() and "seat 1: 0 pts, 0 done, stock O1x1" in text
    assert "player 0" not in text
    svg = st.tableau_svg(0)
    assert svg.startswith("<svg") and svg.count("<rect") >= 5 and ">seat 1: 0 pts" in svg


def test_random_game_smoke_and_rejects_bad_setup() -> None:
    st = new_game(2, 11)
    play_game(st, [RandomBot(), RandomBot()], random.Random(11))
    assert st.is_terminal()
    with pytest.raises(ValueError, match="1 to 4 players"):
        new_game(5, 0)
    with pytest.raises(ValueError, match="rule set"):
        new_game(2, 0, rules="modern")


def _random_action(st: ProjectLState, rng: random.Random):
    from puzzles.projectl.cards import placements

    kind = rng.choice(["take", "piece", "upgrade", "place", "master", "mplace", "mend", "recycle", "pass", "touch", "done"])
    s = rng.randrange(9)
    if kind == "take":
        return Take(rng.choice("WBG"), rng.randrange(-1, 10))
    if kind == "upgrade":
        return Upgrade(s, rng.randrange(9))
    if kind in ("place", "mplace", "touch"):
        return {"place": Place, "mplace": MasterPlace, "touch": Touch}[kind](rng.randrange(-1, 5), s,
                                                                              rng.choice(placements(s)))
    if kind == "recycle":
        return Recycle(rng.choice("WBX"))
    return parse_action(kind)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_check_agrees_with_legal_actions_and_refusals_change_nothing(config) -> None:
    config = dict(config)
    players = config.pop("players", 1)
    st = new_game(players, 21, **config)
    rng = random.Random(21)
    bot = KindRandom()
    step = 0
    while not st.is_terminal():
        if step % 4 == 0:
            legal = set(st.legal_actions())
            for _ in range(25):
                action = _random_action(st, rng)
                if action in legal:
                    st.clone().apply(action)
                else:
                    assert_refused(st, action, ".")
        st.apply(bot.choose(st, rng))
        step += 1


# --------------------------------------------------------------------------
# the game protocol: registry factory, actions, hidden information
# --------------------------------------------------------------------------


def test_registry_factory_and_options() -> None:
    from puzzles.game import GAMES, ChanceMode, Information

    info = GAMES["projectl"]
    assert info.chance is ChanceMode.NONE and info.information is Information.IMPERFECT
    st = info.new_game(2, 7, rules="revised", supply=12, max_rounds=30)
    assert isinstance(st, ProjectLState) and st.revised and st.per_shape == 12 and st.max_rounds == 30
    assert st == ProjectLState.new_game(2, 7, rules="revised", supply_per_shape=12, max_rounds=30)
    solo = info.new_game(1, 3, difficulty="hard")
    assert isinstance(solo, ProjectLState)
    assert solo.solo and solo.difficulty == "hard" and solo.num_players == 1  # one player = the solo variant
    with pytest.raises(ValueError, match="difficulty"):
        info.new_game(1, 3, difficulty="impossible")
    with pytest.raises(ValueError, match="1 to 4"):
        info.new_game(5, 0)


def test_actions_are_frozen_values_and_text_only_parses() -> None:
    a = Place(0, S["I2"], m("00", "01"))
    assert a == Place(0, S["I2"], m("00", "01")) and a != MasterPlace(0, S["I2"], m("00", "01"))
    assert len({a, Place(0, S["I2"], m("00", "01")), PIECE, parse_action("piece")}) == 2
    with pytest.raises(AttributeError):
        a.slot = 1  # type: ignore[misc]
    st = new_game(2, 4)
    # parsing never checks legality; apply refuses text and illegal actions
    assert st.string_to_action("place 3 I2 00,01") == Place(3, S["I2"], m("00", "01"))
    assert st.illegal_reason(Place(3, S["I2"], m("00", "01"))) is not None
    assert st.illegal_reason(PIECE) is None
    for bad in ("take W", "upgrade O1 Q5", "place 0 I2 0a", "fly"):
        with pytest.raises(IllegalActionError):
            st.string_to_action(bad)
    with pytest.raises(IllegalActionError, match="not a Project L action"):
        st.apply("piece")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="not a Project L action"):
        st.apply(("piece",))  # type: ignore[arg-type]


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(str(v) for v in c.values()))
def test_resample_keeps_the_observation_and_depends_on_it_only(config) -> None:
    config = dict(config)
    players = config.pop("players", 1)
    st = new_game(players, 5, **config)
    rng = random.Random(5)
    step = 0
    changed = 0
    while not st.is_terminal():
        if step % 3 == 0:
            for p in range(st.num_players):
                draw = st.resample(p, random.Random(step))
                assert draw.observation(p) == st.observation(p)
                assert sorted(draw.card_locations()) == sorted(st.card_locations()) or st.solo
                changed += draw.white_deck != st.white_deck or draw.black_deck != st.black_deck
                twin = deck_order_shuffled(st, step)
                assert twin.observation(p) == st.observation(p)
                assert twin.resample(p, random.Random(step)) == draw
        st.apply(KindRandom().choose(st, rng))
        step += 1
    assert changed > 0


def test_solo_resample_deals_a_solo_deck_from_the_unseen_cards() -> None:
    st = new_game(1, 8, solo=True)
    for seed in range(20):
        draw = st.resample(0, random.Random(seed))
        assert len(draw.white_deck) == len(st.white_deck)
        colors = [draw.cards[c].color for c in draw.white_deck + draw.white_row]
        assert colors.count("white") == 15 and colors.count("black") == 10
        assert not set(draw.white_deck) & set(draw.white_row)


def test_recycled_cards_are_a_known_bottom_that_resample_keeps() -> None:
    st = new_game(2, 6, rules="revised")
    row = [c for c in st.white_row]
    st.apply(Recycle("W"))
    assert st.white_known == 4 and st.white_deck[:4] == list(reversed(row))
    assert st.observation(1)["white_deck"]["bottom"] == [st.cards[c].id for c in reversed(row)]
    for seed in range(5):
        draw = st.resample(1, random.Random(seed))
        assert draw.white_deck[:4] == st.white_deck[:4]
        assert sorted(draw.white_deck) == sorted(st.white_deck)
    # drawing down into the known bottom shrinks it
    st.white_deck = st.white_deck[:6]
    st.apply(Recycle("W"))
    assert st.white_known == len(st.white_deck) == 6
    assert ProjectLState.from_json(json.loads(st.dumps())) == st

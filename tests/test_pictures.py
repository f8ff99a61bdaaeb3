"""The SVG pictures of every game: complete (every public element, found by id/class), valid XML, and
never showing a seat another seat's hidden information (tested with the real hidden values)."""

from __future__ import annotations

import functools
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from puzzles.game import GAMES, GameState
from solvers.bots import make_bot
from solvers.playout import play_game

NS = "{http://www.w3.org/2000/svg}"
PHASES = ("start", "middle", "end")
#: (game, players, seed) of the seeded random playouts the pictures are drawn from.
PLAYOUTS = {"blokus": (4, 3), "projectl": (2, 5), "shelfie": (3, 7), "towers": (2, 11)}


@functools.cache
def _actions(game: str) -> tuple[Any, ...]:
    """Every action (chance included) of one seeded game of random bots."""
    players, seed = PLAYOUTS[game]
    state = GAMES[game].new_game(players, seed=seed)
    bots = [make_bot(game, "random") for _ in range(players)]
    played: list[Any] = []
    play_game(state, bots, random.Random(seed), lambda _before, _player, action: played.append(action))
    return tuple(played)


def position(game: str, phase: str) -> GameState[Any]:
    """The game's state at its start, after half its actions, or at its end."""
    players, seed = PLAYOUTS[game]
    state = GAMES[game].new_game(players, seed=seed)
    actions = _actions(game)
    for action in actions[: {"start": 0, "middle": len(actions) // 2, "end": len(actions)}[phase]]:
        state.apply(action)
    assert state.is_terminal() == (phase == "end")
    return state


def parse(svg: str) -> ET.Element:
    """The picture as XML (fails the test when it does not parse)."""
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    return root


def find(root: ET.Element, cls: str) -> list[ET.Element]:
    """Every element whose class list holds all the words of ``cls``."""
    words = set(cls.split())
    return [el for el in root.iter() if words <= set(el.get("class", "").split())]


def by_id(root: ET.Element, ident: str) -> ET.Element:
    found = [el for el in root.iter() if el.get("id") == ident]
    assert len(found) == 1, f"{len(found)} elements with id {ident}"
    return found[0]


def has_id(root: ET.Element, ident: str) -> bool:
    return any(el.get("id") == ident for el in root.iter())


def text_of(el: ET.Element) -> str:
    """All the text under ``el``, lines joined by spaces."""
    return " ".join(" ".join(el.itertext()).split())


# -- Blokus ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", PHASES)
def test_blokus_picture_shows_board_pieces_left_scores_and_last_move(phase: str) -> None:
    state: Any = position("blokus", phase)
    root = parse(state.picture())
    cells = find(root, "cell")
    assert len(cells) == state.tables.rows * state.tables.cols
    owners = {(int(c.get("data-row")), int(c.get("data-col"))): c.get("data-owner") for c in cells}
    grid = state.grid()
    assert all(owners[r, c] == ("" if who < 0 else state.color_names[who]) for r, row in enumerate(grid)
               for c, who in enumerate(row))
    scores = state.color_scores()
    for color, name in enumerate(state.color_names):
        panel = by_id(root, f"pieces-{name}")
        assert sorted(p.get("data-piece") for p in find(panel, "piece left")) == sorted(state.pieces_left(color))
        assert len(find(panel, "piece")) == 21
        assert by_id(root, f"score-{name}").get("data-score") == str(scores[color])
    last = find(root, "last-move")
    if phase == "start":
        assert last == []
    else:
        color, move = state.last_move()
        assert [(el.get("data-color"), el.get("data-move")) for el in last] == [(state.color_names[color], move.text)]
    assert "scores: seat 1" in text_of(find(root, "seat-scores")[0])


# -- Project L ------------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", PHASES)
def test_projectl_picture_shows_the_whole_table(phase: str) -> None:
    state: Any = position("projectl", phase)
    root = parse(state.picture())
    width, height = float(root.get("width")), float(root.get("height"))
    assert 400 < width < 900 and 400 < height < 1100  # a table, not a strip
    for key, row in (("W", state.white_row), ("B", state.black_row)):
        for slot, c in enumerate(row):
            if c < 0:
                assert by_id(root, f"slot-{key}-{slot}").get("class") == "slot empty"
                continue
            card = by_id(root, f"puzzle-{state.cards[c].id}")
            assert "face-up" in card.get("class").split() and card.get("data-row") == key
            assert text_of(card).startswith(f"{state.cards[c].id} {state.cards[c].points}pt")
            assert len(find(card, "cell")) == bin(state.cards[c].recess).count("1")  # the widget's targets
    if phase == "start":
        assert len(find(root, "puzzle face-up")) == 8
    supply = {el.get("data-shape"): int(el.get("data-count")) for el in find(root, "supply-piece")}
    assert supply == dict(zip(SHAPE_NAMES(), state.supply, strict=True))
    for p in range(state.num_players):
        seat = by_id(root, f"seat-{p}")
        assert find(seat, "score")[0].get("data-points") == str(state.points(p))
        assert text_of(find(seat, "score")[0]).startswith(f"seat {p + 1}: {state.points(p)} pts")
        held = [state.cards[c].id for c, _, _ in state.puzzles[p]]
        assert [el.get("data-card") for el in find(seat, "puzzle held")] == held
        stock = {el.get("data-shape"): int(el.get("data-count")) for el in find(seat, "stock-piece")}
        assert stock == {n: k for n, k in zip(SHAPE_NAMES(), state.stock[p], strict=True) if k}
        done = " ".join(state.cards[c].id for c in state.done[p]) or "none"
        assert text_of(find(seat, "done")[0]) == f"completed: {done}"


def SHAPE_NAMES() -> tuple[str, ...]:  # noqa: N802 - the constant, imported late
    from puzzles.projectl.cards import SHAPE_NAMES as names

    return names


def test_projectl_picture_never_shows_the_face_down_decks() -> None:
    state: Any = position("projectl", "middle")
    svg = state.picture(0)
    hidden = [state.cards[c].id for c in state.white_deck + state.black_deck]
    assert hidden and not [card for card in hidden if card in svg]
    assert f"deck: {len(state.white_deck)} face down" in svg


def test_projectl_solo_picture_draws_the_grid_and_the_opponent() -> None:
    state: Any = GAMES["projectl"].new_game(1, seed=2)
    root = parse(state.picture())
    assert [el.get("data-slot") for el in find(root, "puzzle face-up")] == [str(i) for i in range(9)]
    assert text_of(by_id(root, "opponent")).startswith("automated opponent: 0 pts, 0 puzzles")


# -- My Shelfie -----------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", PHASES)
def test_shelfie_picture_shows_board_shelves_and_full_goal_text(phase: str) -> None:
    from puzzles.shelfie.render import GOAL_RULE

    state: Any = position("shelfie", phase)
    root = parse(state.picture(0))
    cells = find(root, "cell")
    assert len(cells) == int(state.mask.sum())
    tiles = {(int(c.get("data-row")), int(c.get("data-col"))): c.get("data-tile") for c in cells}
    assert all(tiles[r, c] == (row[c] if row[c] not in ". " else "") for r, row in enumerate(state.board_rows())
               for c in range(9) if state.mask[r, c])
    for k, key in enumerate(state.common_goals):
        goal = by_id(root, f"goal-{k}")
        assert goal.get("class") == "goal common" and goal.get("data-goal") == key
        assert text_of(find(goal, "goal-text")[0]) == GOAL_RULE[key]  # the whole text, wrapped, never cut
        assert text_of(find(goal, "goal-tokens")[0]) == "tokens left: " + (" ".join(map(str, state.stacks[k])) or "none")
    for seat in range(state.num_players):
        shelf = by_id(root, f"shelf-{seat}")
        assert len(find(shelf, "shelf-cell")) == 30
    assert [el.get("id") for el in find(root, "goal personal")] == ([] if phase == "end" else ["personal-0"])


def test_shelfie_seat_picture_shows_only_its_own_personal_card() -> None:
    state: Any = position("shelfie", "middle")
    cards = state.personal_cards
    assert len(set(cards)) == state.num_players
    public = state.observation(0)["public_points"]
    for seat in range(state.num_players):
        svg = state.picture(seat)
        root = parse(svg)
        assert [el.get("data-card") for el in find(root, "goal personal")] == [str(cards[seat])]
        for other in range(state.num_players):
            if other == seat:
                continue
            assert not re.search(rf"card {cards[other]}(?!\d)", svg) and f'data-card="{cards[other]}"' not in svg
            shelf = by_id(root, f"shelf-{other}")
            assert not [el for el in shelf.iter() if el.get("stroke-dasharray")]  # no card outlined on it
            assert text_of(shelf).startswith(f"P{other + 1} · {public[other]} pts")
    spectator = parse(state.picture())
    assert find(spectator, "goal personal") == []
    assert not [el for el in spectator.iter() if el.get("stroke-dasharray")]
    assert not [c for c in cards if re.search(rf"card {c}(?!\d)", state.picture())]


def test_shelfie_end_picture_shows_every_card_and_the_final_scores() -> None:
    state: Any = position("shelfie", "end")
    svg = state.picture(1)
    assert all(re.search(rf"card {c}(?!\d)", svg) for c in state.personal_cards)
    scores = ", ".join(f"P{s + 1} {int(v)}" for s, v in enumerate(state.scores()))
    assert f"final scores: {scores}; winner P{state.winner() + 1}" in svg


# -- Rainbow Blackjack (towers) ------------------------------------------------------------------


@pytest.mark.parametrize("phase", PHASES)
def test_towers_picture_shows_the_wheel_grid_hand_and_announcements(phase: str) -> None:
    from puzzles.towers.stones import COLORS

    state: Any = position("towers", phase)
    pub = state.public_json()
    seat = 0
    root = parse(state.picture(seat))
    for t in range(6):
        tower = by_id(root, f"tower-{t}")
        assert tower.get("class") == "tower" and tower.get("data-color") == COLORS[t]
        assert [el.get("data-stone") for el in find(tower, "stone")] == pub["towers"][t]
        assert tower.get("data-total") == str(sum(pub["values"][t]))
        owner = pub["placers"][t][-1] if pub["placers"][t] else -1
        assert tower.get("data-owner") == str(owner)
        assert text_of(find(tower, "total")[0]) == f"{COLORS[t]} {sum(pub['values'][t])}"
    announced = find(root, "announcement")
    assert len(announced) == len(pub["announcements"])
    if phase != "start":
        assert announced
    hand = state.private_json(seat)["hand"]
    assert sorted(el.get("data-stone") for el in find(by_id(root, f"hand-{seat}"), "stone")) == sorted(hand)
    grid = state.private_json(seat)["grids"][state.grid_index()]
    cells = find(by_id(root, f"grid-{seat}"), "cell")
    assert len(cells) == 9
    if grid is not None:
        assert [el.get("data-stone") for el in cells] == grid
    assert by_id(root, f"hand-size-{1 - seat}").text.startswith(f"P2: {pub['hand_size'][1]} stone(s)")


def _hidden_from(state: Any, seat: int) -> set[str]:
    """The opponent's stones (hand and grids) that ``seat``'s observation does not show: the real secrets."""
    other = state.private_json(1 - seat)
    secret = set(other["hand"]) | {s for grid in other["grids"] if grid for s in grid}
    seen = set(re.findall(r"[ROYGBP][1-6]", str(state.observation(seat))))
    return secret - seen - {"J"}


@pytest.mark.parametrize("round_no", (1, 5))
def test_towers_seat_picture_never_shows_the_opponents_stones(round_no: int) -> None:
    state: Any = _placing_state(round_no)
    for seat in (0, 1):
        hidden = _hidden_from(state, seat)
        assert hidden, "the test needs real secrets"
        svg = state.picture(seat)
        assert not [s for s in hidden if re.search(rf"[\">]{s}[\"<]", svg)]
        root = parse(svg)
        assert not has_id(root, f"grid-{1 - seat}") and not has_id(root, f"hand-{1 - seat}")
    public = parse(state.picture())
    assert not find(public, "grid") and not find(public, "hand")
    everything = state.picture(reveal=True)
    assert all(re.search(rf"[\">]{s}[\"<]", everything) for s in _hidden_from(state, 0))


def _placing_state(round_no: int) -> Any:
    """A towers game of random moves just after both seats picked and announced in round ``round_no`` (both
    hold three stones, most of their grids unseen)."""
    state: Any = GAMES["towers"].new_game(2, seed=4)
    rng = random.Random(4)
    while not (state.phase == "place" and state.round == round_no - 1):
        state.apply(state.sample_chance(rng) if state.is_chance_node() else rng.choice(state.legal_actions()))
    return state


# -- tilings and solver answers --------------------------------------------------------------------


def test_tiling_picture_colours_and_outlines_each_piece() -> None:
    from puzzles.polyomino import Placed, Region, Tiling

    tiling = Tiling(Region.rectangle(4, 2), (Placed("L", ((0, 0), (0, 1), (0, 2), (1, 0))),
                                             Placed("J", ((1, 1), (1, 2), (1, 3), (0, 3)))))
    root = parse(tiling._repr_svg_())
    pieces = find(root, "piece")
    assert [p.get("data-name") for p in pieces] == ["L", "J"]
    fills = [{r.get("fill") for r in p.iter(NS + "rect")} for p in pieces]
    assert all(len(f) == 1 for f in fills) and fills[0] != fills[1]
    assert all(len(list(p.iter(NS + "line"))) == 10 for p in pieces)  # the outline of a tetromino: 10 unit edges
    assert len(find(root, "cell")) == 8


def test_cli_svg_outputs(run_cli, tmp_path: Path) -> None:
    card = tmp_path / "card.txt"
    card.write_text("W99 2 L3\n.....\n.###.\n.###.\n.....\n.....\n")
    picture = tmp_path / "card.svg"
    result = run_cli("projectl", "check", str(card), "--stock", "I3,I3", "--svg", str(picture))
    assert result.exit_code == 0, result.output
    placed = [g for g in parse(picture.read_text()).iter(NS + "line")]
    assert len(placed) == 16 and 'class="card-title"' in picture.read_text()  # two I3 outlined: 8 edges each
    state_svg = tmp_path / "state.svg"
    result = run_cli("towers", "state", "--seed", "3", "--round", "2", "--svg", str(state_svg))
    assert result.exit_code == 0, result.output
    root = parse(state_svg.read_text())
    assert all(has_id(root, f"tower-{t}") for t in range(6)) and has_id(root, "grid-0") and has_id(root, "grid-1")
    tile_svg = tmp_path / "tile.svg"
    result = run_cli("tile", "4x4", "--pieces", "4*O", "--svg", str(tile_svg))
    assert result.exit_code == 0, result.output
    assert len(find(parse(tile_svg.read_text()), "piece")) == 4
    refused = run_cli("towers", "state", "--svg", str(tmp_path / "no" / "x.svg"))
    assert refused.exit_code == 1 and refused.output.strip().count("\n") == 0 and "no directory" in refused.output


def test_projectl_play_svg_is_a_table_not_a_strip(run_cli, tmp_path: Path) -> None:
    picture = tmp_path / "pl.svg"
    result = run_cli("projectl", "play", "--bots", "random", "--seed", "1", "--svg", str(picture), "--json")
    assert result.exit_code == 0, result.output
    root = parse(picture.read_text())
    assert float(root.get("width")) < 900 and len(find(root, "puzzle face-up")) >= 1 and has_id(root, "seat-1")


def test_png_picture(run_cli, tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    from puzzles.svg import to_png

    assert to_png(position("towers", "start").picture()).startswith(b"\x89PNG\r\n\x1a\n")
    image = tmp_path / "shelf.png"
    shelf = tmp_path / "shelf.txt"
    shelf.write_text("\n".join(["....."] * 4 + ["C....", "CB..."]) + "\n")
    result = run_cli("shelfie", "score", str(shelf), "--personal", "2", "--svg", str(image))
    assert result.exit_code == 0, result.output
    assert image.read_bytes().startswith(b"\x89PNG")


def test_blokus_replay_svg_draws_the_final_position(run_cli, tmp_path: Path) -> None:
    record = Path(__file__).parent / "data" / "pentobi_duo_selfplay.blksgf"
    picture = tmp_path / "duo.svg"
    result = run_cli("blokus", "replay", str(record), "--svg", str(picture), "--json")
    assert result.exit_code == 0, result.output
    root = parse(picture.read_text())
    assert len(find(root, "cell")) == 14 * 14 and len(find(root, "last-move")) == 1
    assert [el.get("id") for el in find(root, "pieces-left")] == ["pieces-purple", "pieces-orange"]


def test_human_seat_play_svg_draws_that_seats_view(run_cli, tmp_path: Path) -> None:
    """``play --svg`` with a human seat: Project L draws the (public) table; towers draws that seat's view."""
    table = tmp_path / "pl.svg"
    result = run_cli("projectl", "play", "--bots", "human,random", "--svg", str(table), input="quit\n")
    assert result.exit_code == 0, result.output
    assert len(find(parse(table.read_text()), "puzzle face-up")) == 8
    view = tmp_path / "towers.svg"
    result = run_cli("towers", "play", "--bots", "random,human", "--seed", "2", "--svg", str(view), input="quit\n")
    assert result.exit_code == 0, result.output
    root = parse(view.read_text())
    assert has_id(root, "grid-1") and not has_id(root, "grid-0") and not has_id(root, "hand-0")

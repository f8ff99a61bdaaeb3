"""Play in a notebook cell: the widget model driven by clicks through whole games, and its view without a front end.

For each game a person's clicks (the tokens of a move, in the order the move lists them; 'play the choice'
where the clicks leave a smaller piece inside bigger ones) play a seeded game to the end against cheap bots;
the final position and scores equal a replay of the model's record through the engine.  Undo restores the
exact position; an illegal click or move is refused with the state unchanged; the human's view (picture,
grids, buttons, candidate list, move log) is the same for the real position and for a redraw of everything
the human cannot see, and never holds the other seats' real hidden stones, cards or deck order.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import subprocess
from typing import Any

import pytest

from puzzles.game import replay
from solvers.widget import PlayModel, seat_picture

GAMES = {  # game -> (options, bots of the other seats)
    "blokus": ({"variant": "duo"}, "random"),
    "projectl": ({}, "random"),
    "shelfie": ({}, "greedy"),
    "towers": ({}, "random"),
}


def model_of(game: str, seed: int = 3, seat: int = 0) -> PlayModel:
    options, bots = GAMES[game]
    return PlayModel(game, bots=bots, seat=seat, seed=seed, **options)


def click_move(model: PlayModel, move: str) -> int:
    """Play ``move`` as a person: click its tokens in order, then 'play the choice' if it is not played yet."""
    played = len(model.actions)
    clicks = 0
    for token in model.layout.tokens(move):
        assert model.click(token), model.message
        clicks += 1
        if len(model.actions) > played:
            return clicks
    assert model.exact() == move, (move, model.selection)
    assert model.choose(move), model.message
    return clicks


def play_out(model: PlayModel, rng: random.Random) -> int:
    """The human's seat clicks seeded random legal moves until the game is over; the clicks made."""
    clicks = 0
    while not model.state.is_terminal():
        assert model.my_turn
        clicks += click_move(model, rng.choice(model.legal_texts()))
    return clicks


@pytest.mark.parametrize("game", sorted(GAMES))
def test_clicks_play_a_whole_game_that_replays_to_the_same_scores(game: str) -> None:
    model = model_of(game)
    human_moves = play_out(model, random.Random(7))
    assert human_moves > 0 and model.targets() == [] and not model.legal_texts()
    assert model.status_text().startswith("game over: seat 1 (human) ")
    replayed, texts = replay(model.record())
    assert texts == model.actions
    assert replayed.is_terminal() and replayed == model.state
    assert replayed.scores() == model.state.scores()
    assert model.record().extra["bots"][0] == "human"


def test_a_solo_project_l_game_has_no_bot_seat_and_replays() -> None:
    model = PlayModel("projectl", players=1, seed=2)
    assert model.specs == ["human"] and model.bots == [None]
    play_out(model, random.Random(0))
    assert replay(model.record())[0] == model.state and model.status_text() == "game over: seat 1 (human) 0"


class InterruptedBot:
    """A bot whose thinking is interrupted (the notebook's stop button raises KeyboardInterrupt)."""

    name = "interrupted"

    def choose(self, state: Any, rng: random.Random) -> Any:
        raise KeyboardInterrupt


def test_an_interrupt_while_the_bots_think_takes_the_move_back() -> None:
    model = model_of("towers")
    model.bots[1] = InterruptedBot()
    for _ in range(5):  # the human's moves until one the bot must answer
        before, actions, marks = model.state.to_json(), list(model.actions), len(model.marks)
        if not model.choose(model.legal_texts()[0]):
            break
    assert model.message == "interrupted while the bots thought: your move was taken back"
    assert model.state.to_json() == before and model.actions == actions and len(model.marks) == marks


def test_shelfie_tiles_then_column_play_at_once_and_blokus_waits_for_a_whole_piece() -> None:
    shelfie = model_of("shelfie")
    move = next(text for text in shelfie.legal_texts() if len(text.split()) == 3)
    first, second, column = shelfie.layout.tokens(move)
    assert shelfie.click(first) and shelfie.click(second) and shelfie.selection == [first, second]
    assert shelfie.click(column) and shelfie.log[0] == f"1. seat 1 (human): {move}" and shelfie.message.startswith(f"you played {move}")
    same = next(text for text in shelfie.legal_texts() if len(text.split()) == 3
                 and " ".join([*text.split()[1::-1], text.split()[2]]) not in shelfie.legal_texts())
    first, second, column = shelfie.layout.tokens(same)  # two tiles of one type: either order is this move
    before = shelfie.state.to_json()
    assert not shelfie.click(column) and shelfie.selection == [] and shelfie.state.to_json() == before
    assert shelfie.message.startswith("illegal: ")  # a column before any tile
    assert shelfie.click(second) and shelfie.click(first) and shelfie.click(column)
    assert shelfie.log[2] == f"3. seat 1 (human): {second} {first} {column.removeprefix('col ')}"
    assert replay(shelfie.record())[0] == shelfie.state
    blokus = model_of("blokus")
    corner = next(text for text in blokus.legal_texts() if "," not in text)  # the monomino on a start point
    assert blokus.click(corner) and blokus.actions == [] and blokus.exact() == corner
    assert len(blokus.candidates()) > 1 and len(blokus.choices()) == 0  # too many pieces cover it to list
    assert blokus.click(corner) and blokus.selection == []  # a second click drops it


@pytest.mark.parametrize("game", sorted(GAMES))
def test_undo_restores_the_exact_position_and_an_illegal_click_changes_nothing(game: str) -> None:
    model = model_of(game)
    rng = random.Random(1)
    click_move(model, rng.choice(model.legal_texts()))
    before, actions, log = model.state.to_json(), list(model.actions), list(model.log)
    click_move(model, rng.choice(model.legal_texts()))
    assert len(model.actions) > len(actions)
    assert model.undo() and model.message == "took back your last move"
    assert model.state.to_json() == before and model.actions == actions and model.log == log
    dead = next((t["key"] for t in model.targets() if not t["live"]), None)
    if dead is not None:  # a grid cell no legal move uses
        assert not model.click(dead) and model.message == f"no legal move uses {dead}" and model.selection == []
    assert not model.choose("no such move") and model.message.startswith("illegal: ")
    assert model.state.to_json() == before and model.actions == actions
    model.undo()
    assert not model.undo() and model.message == "nothing to undo yet"


def test_an_illegal_blokus_cell_and_move_say_why() -> None:
    model = model_of("blokus")
    click_move(model, model.legal_texts()[0])
    occupied = next(t["key"] for t in model.targets() if t["fill"] != "#eeeeee")
    before = model.state.to_json()
    assert not model.click(occupied) and model.message == f"no legal move uses {occupied}"
    assert not model.choose(occupied) and model.message.startswith("illegal: ")
    assert model.state.to_json() == before


def human_view(model: PlayModel) -> str:
    """Everything the human's seat is shown, as one text."""
    return "\n".join([model.picture(), repr(model.targets()), repr(model.choices()), *model.log,
                      model.status_text(), model.message])


def resampled_view(model: PlayModel, seed: int) -> str:
    """The human's view with everything the seat cannot see redrawn."""
    real = model.state
    model.state = real.resample(model.seat, random.Random(seed))
    assert model.state.to_json() != real.to_json()  # the hidden part really is redrawn
    model._version += 1
    try:
        return human_view(model)
    finally:
        model.state = real
        model._version += 1


def mid_game(game: str, seat: int, moves: int) -> PlayModel:
    model = model_of(game, seed=11, seat=seat)
    rng = random.Random(2)
    for _ in range(moves):
        if model.my_turn:
            click_move(model, rng.choice(model.legal_texts()))
    return model


@pytest.mark.parametrize("game", ["projectl", "shelfie", "towers"])
@pytest.mark.parametrize("seat", [0, 1])
def test_the_human_view_depends_only_on_what_the_seat_observes(game: str, seat: int) -> None:
    for moves in (0, 3):
        model = mid_game(game, seat, moves)
        assert model.my_turn
        view = human_view(model)
        assert all(resampled_view(model, seed) == view for seed in range(3))


def _words(text: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", text))


def test_shelfie_view_never_shows_the_other_personal_card() -> None:
    model = mid_game("shelfie", 0, 3)
    own, other = model.state.personal_cards  # type: ignore[attr-defined]
    assert own != other
    assert f'id="personal-0" data-card="{own}"' in model.picture()
    assert f"P1 personal card {own}" in model.picture()
    assert f"card {other}" not in human_view(model) and f'data-card="{other}"' not in human_view(model)


def test_towers_view_never_shows_the_other_grid() -> None:
    model = mid_game("towers", 0, 2)
    state: Any = model.state
    seen = _words(str(state.observation(0)))
    hidden = {text for text in _words(state.render_text()) if re.fullmatch(r"[ROYGBP]\d", text)} - seen
    assert hidden  # the opponent's real grid holds stones this seat has not seen
    assert not hidden & _words(human_view(model))


def test_projectl_view_never_shows_the_decks_order() -> None:
    model = mid_game("projectl", 0, 3)
    state: Any = model.state
    face_down = {state.cards[card].id for card in [*state.white_deck, *state.black_deck]}
    assert face_down and not face_down & _words(human_view(model))


def test_the_seat_pictures_are_the_play_commands_human_pictures() -> None:
    from commands.shelfie import _seat_svg
    from commands.towers import _svg

    for game, draw in (("shelfie", _seat_svg), ("towers", _svg)):
        model = mid_game(game, 1, 2)
        assert seat_picture(model.state, 1) == draw(model.state, 1) == model.picture()


def test_bad_bots_and_seats_are_refused_in_one_line() -> None:
    with pytest.raises(ValueError, match="unknown towers bot 'nobot'"):
        PlayModel("towers", bots="nobot")
    with pytest.raises(ValueError, match="seat must be 1 to 2"):
        PlayModel("towers", seat=2)
    model = model_of("towers")
    assert not model.set_bot("mcts:0") and model.message.startswith("bad bot budget")
    assert model.set_bot("mcts:5") and model.specs == ["human", "mcts:5"]


def test_the_view_builds_without_a_front_end_and_its_handlers_drive_the_model() -> None:
    pytest.importorskip("ipywidgets")
    pytest.importorskip("anywidget")
    from solvers.widget_view import play_widget

    view = play_widget("towers", bots="random", seat=2, seed=5)
    model = view.model
    assert model.seat == 1 and model.log == ["1. seat 1 (random): col2", "2. seat 1 (random): numbers"]
    assert view.log.value == "\n".join(model.log) and view.picture.value == model.picture()
    assert view.board.targets == model.targets() and "your move (seat 2)" in view.status.value
    assert [button.description for button in view.choice_box.children] == model.legal_texts() == [
        "row1", "row2", "row3", "col1", "col2", "col3"]
    view.choice_box.children[0].click()  # a listed move
    assert model.log[2] == "3. seat 2 (human): row1" and view.message.value == "you played row1"
    view.board._handle_message(view.board, {"click": "colors"}, [])  # what a click in the browser sends
    assert model.log[3] == "4. seat 2 (human): colors" and view.message.value.startswith("you played colors; bots: ")
    before = model.state.to_json()
    move = model.legal_texts()[0]
    stone, tower = model.layout.tokens(move)
    view.board._handle_message(view.board, {"click": stone}, [])
    assert model.selection == [stone] and [b.description for b in view.choice_box.children] == model.candidates()
    assert {t["key"]: t["selected"] for t in view.board.targets}[stone]
    view.board._handle_message(view.board, {"click": tower}, [])
    assert model.log[5] == f"6. seat 2 (human): {move}" and model.selection == []
    view.undo_button.click()
    assert model.state.to_json() == before and view.message.value == "took back your last move"
    view.bot.value, view.budget.value = "mcts", "4"
    view.bot_button.click()
    assert model.specs == ["mcts:4", "human"] and view.message.value == "the bots are now mcts:4"
    view.budget.value = "0"
    view.bot_button.click()
    assert model.specs == ["mcts:4", "human"] and view.message.value.startswith("bad bot budget")
    view.seed.value = 9
    view.new_button.click()
    assert model.seed == 9 and model.record().seed == 9 and len(model.log) == 2
    view.new_button.click()
    assert model.seed == view.seed.value == 10 and model.actions == list(replay(model.record())[1])
    view.typed.value = "Z9>Q"
    view.type_button.click()
    assert view.message.value.startswith("illegal: ") and len(model.log) == 2
    assert "application/vnd.jupyter.widget-view+json" in view._repr_mimebundle_()


_FAKE_DOM = """
class N { constructor(t) { this.tag = t; this.children = []; this.attrs = {}; this.dataset = {}; this.style = {}; }
  setAttribute(k, v) { this.attrs[k] = String(v); } appendChild(c) { this.children.push(c); return c; }
  replaceChildren() { this.children = []; } }
globalThis.document = { createElement: (t) => new N(t), createElementNS: (_, t) => new N(t) };
const { default: widget } = await import(process.argv[2]);
const sent = [], handlers = {};
const model = { get: (k) => (k === "targets" ? TARGETS : 24), send: (m) => sent.push(m), on: (e, f) => { handlers[e] = f; } };
const el = new N("div");
widget.render({ model, el });
const all = [], walk = (n) => { all.push(n); n.children.forEach(walk); };
walk(el);
for (const n of all) if (n.onclick && n.dataset.key === PICK) n.onclick();
handlers["change:targets"]();
console.log(JSON.stringify({ cells: all.filter((n) => n.tag === "rect").map((n) => n.dataset.key),
  buttons: all.filter((n) => n.tag === "button").map((n) => n.textContent), sent }));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node to run the widget's JavaScript")
def test_the_click_board_script_draws_every_target_and_sends_the_click(tmp_path: Any) -> None:
    pytest.importorskip("anywidget")
    from solvers.widget_view import _ESM

    model = model_of("shelfie")
    targets = model.targets()
    pick = next(t["key"] for t in targets if t["live"] and t["row"] >= 0)
    (tmp_path / "board.mjs").write_text(_ESM)
    script = _FAKE_DOM.replace("TARGETS", json.dumps(targets)).replace("PICK", json.dumps(pick))
    (tmp_path / "run.mjs").write_text(script)
    result = subprocess.run(["node", str(tmp_path / "run.mjs"), str(tmp_path / "board.mjs")], capture_output=True,
                            text=True, timeout=30, check=True)
    drawn = json.loads(result.stdout)
    assert drawn["cells"] == [t["key"] for t in targets if t["row"] >= 0] and len(drawn["cells"]) == 81
    assert drawn["buttons"] == [f"col {n}" for n in range(1, 6)]
    assert drawn["sent"] == [{"click": pick}]

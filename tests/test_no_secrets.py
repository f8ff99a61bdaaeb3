"""No seat sees another's secrets: ``kibitz <game> play`` with a human seat prints only what that seat may see.

For each hidden-information game (My Shelfie, Project L, Rainbow Blackjack) the real ``play`` command is
driven through click's runner with its input scripted: the human types ``hint`` now and then and the
first legal move, against every bot of the game (small budgets), through a whole game; and it quits
mid-game, as text and as ``--json``.  The scripted game is played first with the same seed and bots
(:func:`solvers.playout.play_game`), which gives the state at each of the human's decisions.  The
output is cut at each decision (a mark printed as the human is asked), and each piece must name none of
the opponents' secrets at that point: what they hold that ``state.observation(human)`` does not show
(Shelfie: an opponent's personal card; Project L: a card still face down in a deck; Rainbow Blackjack:
an opponent's stone in their grids, hand, removed set or undealt pool).
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import click
import pytest

from puzzles.game import GAMES
from solvers.bots import HumanBot, QuitGame, bot_factories, make_bot
from solvers.playout import play_game

MARK = "@@ the human is asked @@"
HINT_EVERY = 7
#: Per game: extra options that keep a scripted game short, and where to quit: at the first of the human's
#: decisions (its index, the state) that the test says.
SETTINGS: dict[str, tuple[list[str], Callable[[int, Any], bool]]] = {
    "shelfie": ([], lambda decision, state: decision == 5),
    "projectl": (["--max-rounds", "6"], lambda decision, state: decision == 5),
    # round 4 deals grid 2 face down: quitting there leaves the opponent's new stones hidden
    "towers": ([], lambda decision, state: state.round >= 3),
}
BUDGET = {"mcts": "mcts:6", "pimc": "pimc:2", "ismcts": "ismcts:8", "lookahead": "lookahead"}
CASES = [(game, BUDGET.get(bot, bot)) for game in SETTINGS for bot in bot_factories(game) if bot != "human"]


def _stones(data: Any) -> set[str]:
    """Rainbow Blackjack stone names in ``data``: R1..P6 but P1 and P2, which are also the players' names
    (jokers are all alike and name nobody's secret)."""
    return set(re.findall(r"\b[ROYGBP][1-6]\b", json.dumps(data))) - {"P1", "P2"}


def hidden_text(game: str, state: Any, human: int) -> list[str]:
    """Regular expressions of the opponents' secrets in ``state`` that ``human`` cannot see there."""
    seen = state.observation(human)
    if game == "shelfie":
        if state.game_over:  # the rules turn the cards face up
            return []
        return [rf"\bcard {card}\b" for seat, card in enumerate(state.personal_cards) if seat != human]
    if game == "projectl":
        known = {card for deck in ("white_deck", "black_deck") for card in seen[deck]["bottom"]}
        face_down = {state.cards[c].id for c in state.white_deck + state.black_deck}
        return [rf"\b{card}\b" for card in sorted(face_down - known)]
    others = _stones([state.private_json(seat) for seat in range(state.num_players) if seat != human])
    return [rf"\b{stone}\b" for stone in sorted(others - _stones(seen))]


class ScriptedHuman:
    """What the scripted person types at each decision (``hint`` now and then, then the first legal move,
    or ``quit`` at decision ``quit_at``), with the state there; the hint is asked here too, so that any
    side effect it has on the bots' random numbers happens in both games."""

    name = "scripted"

    def __init__(self, game: str, quit_at: Callable[[int, Any], bool] | None) -> None:
        self.human = make_bot(game, "human")
        self.human.hinter = make_bot(game, "greedy")
        self.quit_at = quit_at
        self.states: list[Any] = []
        self.lines: list[str] = []

    def choose(self, state: Any, rng: random.Random) -> Any:
        decision = len(self.states)
        self.states.append(state.clone())
        if self.quit_at is not None and self.quit_at(decision, state):
            self.lines.append("quit")
            raise QuitGame
        if decision % HINT_EVERY == 0:
            self.human.hint_text(state)
            self.lines.append("hint")
        action = state.legal_actions()[0]
        self.lines.append(state.action_to_string(action))
        return action


def scripted_game(game: str, bots: list[str], human: int, options: list[str],
                  quit_at: Callable[[int, Any], bool] | None) -> tuple[list[str], list[Any]]:
    """The human's input lines, and the state at each decision then the state the game ends (or quits) in."""
    values = dict(zip((o.lstrip("-").replace("-", "_") for o in options[::2]), map(int, options[1::2]), strict=True))
    state = GAMES[game].new_game(None, 5, **values)
    script = ScriptedHuman(game, quit_at)
    seats = [script if seat == human else make_bot(game, spec) for seat, spec in enumerate(bots)]
    try:
        play_game(state, seats, random.Random(5))
    except QuitGame:
        return script.lines, [*script.states, script.states[-1]]
    return script.lines, [*script.states, state]


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> None:
    """Print :data:`MARK` each time the human is asked for a decision (the cut between two pieces)."""
    ask = HumanBot.choose

    def choose(self: HumanBot, state: Any, rng: random.Random) -> Any:
        click.echo(MARK, err=True)
        return ask(self, state, rng)

    monkeypatch.setattr(HumanBot, "choose", choose)


def play(run_cli: Callable[..., Any], game: str, bots: list[str], human: int,
         quit_at: Callable[[int, Any], bool] | None, *flags: str) -> tuple[Any, list[Any]]:
    """Run ``kibitz GAME play`` on the scripted game; (click's result, the states of :func:`scripted_game`)."""
    options, _ = SETTINGS[game]
    lines, states = scripted_game(game, bots, human, options, quit_at)
    result = run_cli(game, "play", "--bots", ",".join(bots), "--seed", "5", *options, *flags,
                     input="\n".join(lines) + "\n")
    assert result.exit_code == 0, result.output[-2000:]
    assert "illegal" not in result.output  # the command played the scripted game
    return result, states


def assert_no_secret(game: str, pieces: list[str], states: list[Any], human: int) -> None:
    """Piece ``k`` of the output (before the human's decision ``k``; the last: after the last one) names no
    secret of the state at that decision (the last: the state the game ended in)."""
    assert len(pieces) == len(states), f"{len(pieces) - 1} decisions asked, {len(states) - 1} scripted"
    for k, (piece, state) in enumerate(zip(pieces, states, strict=True)):
        if game == "towers":  # a placement names a stone that it makes public (or is the notation's example)
            piece = re.sub(r"\b[ROYGBPJ][1-6]?[>x][ROYGBP]\b", "", piece)
        for pattern in hidden_text(game, state, human):
            found = re.search(pattern, piece)
            assert found is None, f"decision {k}: {found and found[0]!r} is not the human's to see:\n{piece[-1500:]}"


@pytest.mark.parametrize(("game", "opponent"), CASES)
def test_a_whole_game_shows_the_human_only_what_their_seat_sees(run_cli, marked, game: str, opponent: str) -> None:
    result, states = play(run_cli, game, ["human", opponent], 0, None)
    assert states[-1].is_terminal()
    assert_no_secret(game, result.output.split(MARK), states, 0)
    assert "hint:" in result.output


@pytest.mark.parametrize("game", list(SETTINGS))
def test_quitting_shows_and_gives_only_what_the_human_sees(run_cli, marked, game: str) -> None:
    _, quit_at = SETTINGS[game]
    bots = ["greedy", "human"]
    result, states = play(run_cli, game, bots, 1, quit_at)
    assert "game stopped (quit)" in result.output and not states[-1].is_terminal()
    assert_no_secret(game, result.output.split(MARK), states, 1)
    assert hidden_text(game, states[-1], 1), "nothing was hidden when the human quit: the test proves nothing"
    as_json, states = play(run_cli, game, bots, 1, quit_at, "--json")
    data = json.loads(as_json.stdout)
    assert data["status"] == "quit" and len(data["moves"]) >= len(states) - 1
    assert_no_secret(game, [json.dumps(data)], states[-1:], 1)
    if game == "shelfie":
        public = states[-1].observation(1)["public_points"]
        assert data["personal_cards"] == [None, states[-1].personal_cards[1]]
        assert data["scores"][0] == public[0] and data["breakdown"][0]["personal_goal"] is None
    if game == "towers":  # the opponent's draws for grid 2 are there, unnamed
        assert "?" in data["moves"]


def test_a_game_of_bots_shows_everything(run_cli) -> None:
    result = run_cli("shelfie", "play", "--bots", "greedy", "--seed", "5")
    state = GAMES["shelfie"].new_game(None, 5)
    assert result.exit_code == 0 and all(f"card {card}" in result.output for card in state.personal_cards)


@pytest.mark.parametrize("game", list(SETTINGS))
def test_the_hint_reads_only_what_the_seat_sees(game: str) -> None:
    """``hint`` (the human's own, asking the default hint bot) gives the same move after a redraw of what the
    mover cannot see."""
    from tests.test_no_peeking import positions

    human = make_bot(game, "human")
    human.hinter = make_bot(game, "greedy")
    for index, state in enumerate(positions(game, 30)):
        other = state.resample(state.current_player(), random.Random(index))
        assert human.hint_text(state) == human.hint_text(other), f"position {index}"

"""`kibitz projectl`: Project L: completion checker, deck generator, bot playouts, play."""

from __future__ import annotations

import sys
from typing import Any

import click

from commands.common import emit_json, friendly_errors
from commands.generate import generate_projectl_deck
from commands.pictures import check_svg_path, svg_option, write_svg
from commands.play import PlayHooks, add_play_commands


@click.group()
def projectl() -> None:
    """Project L: puzzle cards, completion checker, deck generator, rule engine, bots."""


@projectl.command("check")
@click.argument("card_file", type=click.Path(dir_okay=False))
@click.option("--stock", default="", help='Pieces in hand, e.g. "I2,L3,L3,O4" or "L3x2,O4".')
@click.option("--card", "card_id", default=None, help="Card id when the file holds several cards.")
@click.option("--no-count", is_flag=True, help="Skip counting all ways.")
@click.option("--turn", is_flag=True, help="Treat every card in the file as your puzzles: which can you finish this turn?")
@click.option("--actions", type=click.IntRange(1, 3), default=3, show_default=True, help="With --turn: actions left.")
@click.option("--no-master", is_flag=True, help="With --turn: the Master action is already used.")
@click.option("--revised", is_flag=True, help="With --turn: revised upgrades (any lower level too).")
@svg_option("the card, filled with the solution's pieces when it is completable")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def projectl_check(card_file: str, stock: str, card_id: str | None, no_count: bool, turn: bool, actions: int,
                   no_master: bool, revised: bool, svg_out: str | None, as_json: bool) -> None:
    """Can CARD_FILE's puzzle (cells marked x already filled) be completed from STOCK?"""
    from puzzles.projectl.cards import card_svg, card_text, load_deck, parse_counts
    from solvers.projectl.checker import PuzzleInHand, check_card, finishable_this_turn

    if turn and svg_out:
        raise ValueError("--svg draws one card's completion; it does not combine with --turn")
    check_svg_path(svg_out)
    cards = load_deck(card_file)
    if turn:
        if len(cards) > 4:
            raise ValueError(f"a player holds at most 4 unfinished puzzles; {card_file} has {len(cards)}")
        hand = [PuzzleInHand(c.empty, [0] * 9, c.reward_index, c.points, c.id) for c in cards]
        plans = finishable_this_turn(hand, parse_counts(stock), None, actions, not no_master, revised)
        data: list[dict[str, Any]] = [{"puzzles": [cards[i].id for i in p.puzzles], "points": p.points,
                                       "actions": p.actions} for p in plans]
        if as_json:
            emit_json({"stock": stock, "plans": data})
            return
        if not data:
            click.echo("nothing can be finished this turn")
        for row in data:
            click.echo(f"{'+'.join(row['puzzles'])}: {row['points']} points via " + "; ".join(row["actions"]))
        return
    if card_id is not None:
        cards = [c for c in cards if c.id == card_id]
        if not cards:
            raise ValueError(f"no card {card_id!r} in {card_file}")
    elif len(cards) > 1:
        raise ValueError(f"{card_file} holds {len(cards)} cards; choose one with --card ID")
    card = cards[0]
    result = check_card(card, parse_counts(stock), count=not no_count)
    solution = [(_pl_shape(p["shape"]), _pl_mask(p["cells"])) for p in result.get("solution") or []]
    write_svg(svg_out, lambda: card_svg(card, solution, size=28))
    if as_json:
        emit_json(result)
        return
    click.echo(card_text(card))
    if not result["completable"]:
        click.echo(f"not completable with {stock or 'no pieces'}")
        return
    click.echo(f"completable: fewest pieces {result['min_pieces']} (= Place actions), ways {result['ways']}")
    click.echo(card_text(card, solution))


# The deck generator lives under ``kibitz generate projectl-deck``; the old name runs the same command.
projectl.add_command(generate_projectl_deck, "generate-deck")


def _show(state: Any, seat: int) -> str:
    """What a human at the terminal sees: the whole table (everything but the deck order is public)."""
    return str(state.render_text(color=sys.stdout.isatty()))


def _finish(state: Any, moves: list[str], extra: dict[str, Any], as_json: bool) -> dict[str, Any]:
    """Extra result fields: how the game ended, the winners, and in solo the automated opponent's score.

    JSON keeps the winners as 0-based seat indices; the text names seats from 1."""
    over = state.is_terminal()
    result: dict[str, Any] = {"rounds": state.round + 1, "end": state.end_reason, "winners": state.winners() if over else None}
    if state.solo:
        result["opponent_score"] = state.opponent_score()
    if not as_json and over:
        click.echo(f"game over after round {result['rounds']} ({result['end'] or 'end'}): {_outcome(state, result)}")
    return result


def _outcome(state: Any, result: dict[str, Any]) -> str:
    """Who won, in words: seats counted from 1; in solo, against the automated opponent's score."""
    if state.solo:
        mine = state.scores()[0]
        verdict = "you win" if result["winners"] else "the automated opponent wins"
        return f"{verdict} ({mine:g} points to its {result['opponent_score']})"
    seats = [f"seat {p + 1}" for p in result["winners"]]
    return ("winner: " if len(seats) == 1 else "shared win: ") + ", ".join(seats)


#: The move notation of a game with rows W and B, and of the solo variant (its 3x3 grid is row G).
NOTATION = "take W 0 | take B 2 | piece | upgrade O1 I2 | place 0 L3 00,01,11 | master | recycle W | pass"
SOLO_NOTATION = "take G 4 | piece | upgrade O1 I2 | place 0 L3 00,01,11 | master | pass"


def _notation(state: Any) -> str:
    """The notation a human is shown: the solo variant takes from its grid (``take G 0``-``take G 8``);
    ``recycle`` is in the revised rules only."""
    text = SOLO_NOTATION if state.solo else NOTATION
    return text if state.revised or state.solo else text.replace(" | recycle W", "")


def _legal_text(state: Any, filter_text: str) -> str:
    """A human's ``?``: the moves other than placements on one line, then one line per puzzle slot and
    shape with the cells each placement covers; ``? WORDS`` lists the moves having all those words."""
    from solvers.bots import filtered_moves_text, wrap_items

    if filter_text:
        return filtered_moves_text(state, filter_text)
    moves = [state.action_to_string(a) for a in state.legal_actions()]
    groups: dict[str, list[str]] = {}
    others = []
    for move in moves:
        words = move.split()
        if words[0] in ("place", "mplace", "touch"):
            groups.setdefault(" ".join(words[:3]), []).append(words[3])
        else:
            others.append(move)
    lines = [f"  {len(moves)} legal move{'' if len(moves) == 1 else 's'}"
             + (" (placements by puzzle slot and shape; '? place 0 L3' lists one group):" if groups else ":")]
    if others:
        lines.append(wrap_items(others))
    for head, cells in groups.items():
        lines.append(wrap_items([f"{head} ({len(cells)}): {cells[0]}", *cells[1:]]))
    return "\n".join(lines)


add_play_commands(projectl, "projectl", "human,greedy",
                  PlayHooks(finish=_finish, show=_show, notation=_notation, legal_text=_legal_text,
                            svg=lambda state, seat: str(state.picture(seat))))  # the table: the same for every seat


def _pl_shape(name: str) -> int:
    from puzzles.projectl.cards import shape_index

    return shape_index(name)


def _pl_mask(cells: list) -> int:
    from puzzles.projectl.cards import cells_mask

    return cells_mask(tuple(c) for c in cells)

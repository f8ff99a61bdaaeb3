"""`kibitz projectl`: Project L: completion checker, deck generator, bot playouts, play."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import click

from cli import emit_json, friendly_errors, merge_into, parallel_options, run_in_ranges


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
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@friendly_errors
def projectl_check(card_file: str, stock: str, card_id: str | None, no_count: bool, turn: bool, actions: int,
                   no_master: bool, revised: bool, as_json: bool) -> None:
    """Can CARD_FILE's puzzle (cells marked x already filled) be completed from STOCK?"""
    from puzzles.projectl.cards import card_text, load_deck, parse_counts
    from solvers.projectl.checker import PuzzleInHand, check_card, finishable_this_turn

    cards = load_deck(card_file)
    if turn:
        if len(cards) > 4:
            raise ValueError(f"a player holds at most 4 unfinished puzzles; {card_file} has {len(cards)}")
        hand = [PuzzleInHand(c.empty, [0] * 9, c.reward_index, c.points, c.id) for c in cards]
        plans = finishable_this_turn(hand, parse_counts(stock), None, actions, not no_master, revised)
        data = [{"puzzles": [cards[i].id for i in p.puzzles], "points": p.points, "actions": p.actions} for p in plans]
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
    if as_json:
        emit_json(result)
        return
    click.echo(card_text(card))
    if not result["completable"]:
        click.echo(f"not completable with {stock or 'no pieces'}")
        return
    click.echo(f"completable: fewest pieces {result['min_pieces']} (= Place actions), ways {result['ways']}")
    pieces = [(_pl_shape(p["shape"]), _pl_mask(p["cells"])) for p in result["solution"]]
    click.echo(card_text(card, pieces))


@projectl.command("generate-deck")
@click.option("--seed", type=int, default=None, help="Generator seed (default: the shipped default deck's seed).")
@click.option("--out", type=click.Path(dir_okay=False, writable=True), default=None, help="Write the deck file here.")
@click.option("--json", "as_json", is_flag=True, help="Statistics and cards as JSON.")
@friendly_errors
def projectl_generate_deck(seed: int | None, out: str | None, as_json: bool) -> None:
    """Generate 32 white + 20 black cards with the published statistics (each verified completable)."""
    from solvers.projectl.deckgen import DEFAULT_SEED, deck_statistics, deck_text, generate_deck

    seed = DEFAULT_SEED if seed is None else seed
    text = deck_text(seed)
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text)
    if as_json:
        cards = generate_deck(seed)
        emit_json({"seed": seed, "statistics": deck_statistics(cards), "cards": [c.to_json() for c in cards]})
    elif out:
        click.echo(f"wrote 52 cards (seed {seed}) to {out}")
    else:
        click.echo(text, nl=False)


def _pl_options(func: Callable[..., Any]) -> Callable[..., Any]:
    for option in reversed([
        click.option("--rules", type=click.Choice(["classic", "revised"]), default="classic", show_default=True),
        click.option("--solo", is_flag=True, help="Solo variant against the automated opponent."),
        click.option("--difficulty", type=click.Choice(["normal", "hard", "unbeatable"]), default="normal", show_default=True),
        click.option("--deck", "deck_file", type=click.Path(dir_okay=False), default=None, help="Deck file (default: shipped deck)."),
        click.option("--seed", type=int, default=0, show_default=True),
    ]):
        func = option(func)
    return func


@projectl.command("playout")
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--bots", default="greedy,random", show_default=True, help="Comma-separated: random, greedy, mcts[:N]; one per seat.")
@_pl_options
@parallel_options
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def projectl_playout(games: int, bots: str, rules: str, solo: bool, difficulty: str, deck_file: str | None, seed: int,
                     workers: int | None, scheduler: str | None, as_json: bool) -> None:
    """Seeded bot games (seats rotate each game): win rates with 95% intervals, mean scores."""
    from puzzles.projectl.cards import load_deck
    from solvers.projectl.bots import make_bot, summarize_series

    specs = [b for b in bots.split(",") if b.strip()]
    for spec in specs:
        make_bot(spec)
    if not solo and not 1 <= len(specs) <= 4:
        raise ValueError("give 1 to 4 bots, one per seat")
    cards = load_deck(deck_file) if deck_file else None
    big_job = 50 if any(spec.startswith("mcts") for spec in specs) else 2000
    totals, interrupted = run_in_ranges("solvers.projectl.bots:series_range", (tuple(specs), seed, rules, solo, difficulty, cards),
                                        games, merge_into, None, workers, scheduler, "playouts", not as_json, big_job=big_job)
    if totals is None:
        raise click.ClickException("interrupted before any game finished")
    result = summarize_series(totals, specs, rules, solo, difficulty, interrupted)
    if as_json:
        emit_json(result)
        return
    head = f"{result['games']} games, rules {rules}" + (f", solo {difficulty}" if solo else "")
    click.echo(head + (" (interrupted)" if result["interrupted"] else ""))
    for row in result["bots"]:
        low, high = row["win_ci95"]
        click.echo(f"  {row['seat_bot']:<10} win {row['win_rate']:.3f} [{low:.3f}, {high:.3f}]  mean score {row['mean_score']:.2f}")
    if solo:
        click.echo(f"  opponent mean score {result['opponent_mean_score']:.2f}")


@projectl.command("play")
@click.option("--players", type=click.IntRange(1, 4), default=2, show_default=True)
@click.option("--bots", default="human,greedy", show_default=True, help="Per seat: human, random, greedy, mcts[:N].")
@_pl_options
@click.option("--color/--no-color", default=None, help="ANSI colours (default: when on a terminal).")
@click.option("--json", "as_json", is_flag=True, help="Print the final result as JSON.")
@friendly_errors
def projectl_play(players: int, bots: str, rules: str, solo: bool, difficulty: str, deck_file: str | None, seed: int, color: bool | None, as_json: bool) -> None:
    """Play with typed actions ('help' lists them, 'quit' stops); bots move the other seats."""
    import random as _random

    from puzzles.game import IllegalActionError
    from puzzles.projectl.cards import load_deck
    from puzzles.projectl.engine import new_game
    from solvers.projectl.bots import make_bot

    specs = [b.strip().lower() for b in bots.split(",") if b.strip()]
    if solo:
        players = 1
    if len(specs) == 1 and players > 1:
        specs = specs * players
    if len(specs) != players:
        raise ValueError(f"--bots names {len(specs)} seats but there are {players} players")
    seats = [None if s == "human" else make_bot(s) for s in specs]
    cards = load_deck(deck_file) if deck_file else None
    st = new_game(players, seed, rules=rules, solo=solo, difficulty=difficulty, cards=cards)
    rng = _random.Random(seed)
    use_color = sys.stdout.isatty() if color is None else color
    shown = None
    while not st.is_terminal():
        bot = seats[st.player]
        if bot is not None:
            action = bot.choose(st, rng)
            if not as_json:
                click.echo(f"player {st.player} ({bot.name}): {st.action_to_string(action)}")
            st.apply(action)
            continue
        if shown != len(st.history):
            click.echo(st.render_text(color=use_color))
            shown = len(st.history)
        text = click.prompt(f"player {st.player} action", default="", show_default=False).strip()
        if text in ("quit", "exit"):
            click.echo("stopped")
            return
        if text in ("help", "?", ""):
            legal = [st.action_to_string(a) for a in st.legal_actions()]
            kinds = sorted({a.split()[0] for a in legal})
            click.echo("legal kinds: " + ", ".join(kinds) + f" ({len(legal)} actions); e.g. " + "; ".join(legal[:12]))
            click.echo("forms: take W|B|G SLOT, piece, upgrade FROM TO, place SLOT SHAPE CELLS (cells as rc digits: 00,01,11), master, mplace ..., mend, recycle W|B, touch ..., done, pass")
            continue
        try:
            st.apply(st.string_to_action(text))
        except IllegalActionError as error:
            click.echo(f"illegal: {error}")
    result = {"scores": st.scores(), "returns": st.returns(), "winners": st.winners(), "rounds": st.round + 1, "end": st.end_reason}
    if solo:
        result["opponent_score"] = st.opponent_score()
    if as_json:
        emit_json(result)
    else:
        click.echo(st.render_text(color=use_color))
        click.echo(f"final scores {result['scores']}" + (f" vs opponent {result['opponent_score']}" if solo else "") + f"; winners {result['winners']}")


def _pl_shape(name: str) -> int:
    from puzzles.projectl.cards import shape_index

    return shape_index(name)


def _pl_mask(cells: list) -> int:
    from puzzles.projectl.cards import cells_mask

    return cells_mask(tuple(c) for c in cells)

"""`kibitz towers`: Rainbow Blackjack (the tower game): play, exact solver, 21-sum planner, bot match-ups."""

from __future__ import annotations

import json
from typing import Any

import click

from cli import emit_json, friendly_errors, merge_into, parallel_options, run_in_ranges


@click.group()
def towers() -> None:
    """Rainbow Blackjack (the tower game): play, exact solver, 21-sum planner, bot match-ups."""


TOWERS_PLAYERS = ["human", "random", "greedy", "pimc", "ismcts"]


def _towers_load_state(path: str):
    from puzzles.towers import TowersState

    with open(path, encoding="utf-8") as handle:
        try:
            data = json.load(handle)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path}: not valid JSON ({error.msg}, line {error.lineno})") from None
    return TowersState.from_json(data)


def _towers_human_move(state) -> Any:
    """Show the seat's observation, ask for an action until a legal one is typed."""
    from puzzles.game import IllegalActionError
    from puzzles.towers.render import render_observation_text

    seat = state.current_player()
    click.echo("")
    click.echo(render_observation_text(state.observation(seat)))
    legal = ", ".join(state.action_to_string(a) for a in state.legal_actions())
    while True:
        try:
            text = click.prompt(f"P{seat + 1} [{legal}]", prompt_suffix="> ")
        except click.Abort:
            raise click.ClickException("input ended; game abandoned") from None
        if text.strip() in ("?", "help"):
            click.echo("lines: row1..row3 / col1..col3; announce: colors | numbers;"
                       " place: R6>O (stone > tower), replace a top joker: R6xO; pass when stuck")
            continue
        try:
            return state.string_to_action(text)
        except (IllegalActionError, ValueError) as error:
            click.echo(f"  illegal: {error}")


@towers.command("play")
@click.option("--p1", type=click.Choice(TOWERS_PLAYERS), default="human", show_default=True)
@click.option("--p2", type=click.Choice(TOWERS_PLAYERS), default="pimc", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the game log and result as JSON.")
@friendly_errors
def towers_play(p1, p2, seed, as_json):
    """Play a game in the terminal (humans see only their own grid and hand)."""
    import random as _random

    from puzzles.game import CHANCE
    from puzzles.towers import TowersState
    from solvers.towers.bots import make_bot

    rng = _random.Random(seed)
    seats = [p1, p2]
    bots = [None if s == "human" else make_bot(s) for s in seats]
    state = TowersState()
    while not state.is_terminal():
        player = state.current_player()
        if player == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if bots[player] is None:
            action = _towers_human_move(state)
        else:
            action = bots[player].choose(state, rng)
        if not as_json and (bots[player] is not None) and "human" in seats:
            click.echo(f"P{player + 1} ({seats[player]}): {state.action_to_string(action)}")
        state.apply(action)
    owned = state.towers_owned()
    result = "draw" if state.winner < 0 else f"P{state.winner + 1} wins" + (" (instant: three towers at 21)" if state.instant else "")
    if as_json:
        emit_json({"p1": p1, "p2": p2, "seed": seed, "result": result, "winner": state.winner,
                   "instant": state.instant, "towers_owned": owned, "log": state.log})
    else:
        click.echo("")
        click.echo(str(state).split("  P1 grid")[0])
        click.echo(f"result: {result}  (towers P1 {owned[0]} – P2 {owned[1]})")


@towers.command("solve")
@click.argument("state_path", type=click.Path(dir_okay=False))
@click.option("--horizon", type=click.Choice(["round", "game"]), default="game", show_default=True,
              help="Search to the end of this round, or of the game (grid 1: to the end of round 3, the next chance node).")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def towers_solve(state_path, horizon, as_json):
    """Best move, value and principal variation of a full-information STATE.json."""
    from solvers.towers.solver import Solver

    state = _towers_load_state(state_path)
    result = Solver(22).solve(state, horizon=horizon)
    if as_json:
        emit_json(result.to_json())
        return
    click.echo(str(state))
    click.echo(f"value: {result.outcome}" + (" by instant win" if result.instant else f", tower margin {result.margin:+d}")
               + f" (to the end of round {result.horizon_round + 1}{', end of game' if result.exact_game else ''})")
    click.echo(f"best move: {result.best_action_str}")
    click.echo("move values (P1 side): " + ", ".join(f"{k} {v:+d}" for k, v in result.move_values.items()))
    click.echo(f"principal variation: {' '.join(result.pv)}")
    click.echo(f"{result.nodes} nodes in {result.seconds:.3f} s")


@towers.command("plan")
@click.option("--stones", "stones_spec", required=True, help='Stones to place, e.g. "R6,R5,B4,J".')
@click.option("--towers", "towers_path", type=click.Path(dir_okay=False), default=None,
              help="STATE.json: plan on its towers; with both hands known, also the towers secure this round.")
@click.option("--player", type=click.IntRange(1, 2), default=None, help="Who places the stones (default: player to move, else 1).")
@click.option("--max-placements", type=click.IntRange(min=0), default=None, help="At most this many placements (3 = one round).")
@click.option("--opponent", "opponent_spec", default=None,
              help='With --towers: the opponent\'s known hand (e.g. "O1,G2,P3"); --stones is then your hand this round.')
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def towers_plan(stones_spec, towers_path, player, max_placements, opponent_spec, as_json):
    """The 21-sum planner: most towers that can end at exactly 21 owned by the placer."""
    from puzzles.towers import parse_stones
    from solvers.towers.planner import guaranteed_21_towers, guaranteed_for_hands, max_21_towers, towers_of

    stones = parse_stones(stones_spec)
    if not stones:
        raise ValueError("--stones is empty")
    state = _towers_load_state(towers_path) if towers_path else None
    seat = player - 1 if player else (state.current_player() if state is not None and state.current_player() in (0, 1) else 0)
    plan = max_21_towers(stones, towers_of(state) if state else None, seat, max_placements)
    out = {"player": f"P{seat + 1}", **plan.to_json()}
    if opponent_spec is not None:
        if state is None:
            raise ValueError("--opponent needs --towers STATE.json")
        out["this_round"] = guaranteed_for_hands(state, seat, stones, parse_stones(opponent_spec))
    elif state is not None and state.phase in ("pick", "place") and all(state.grids[p][state.grid_index()] for p in (0, 1)):
        out["this_round"] = guaranteed_21_towers(state, seat)
    if as_json:
        emit_json(out)
        return
    click.echo(f"{out['player']} can bring at most {plan.count} tower(s) to exactly 21 ({plan.status.lower()})")
    for tower, placed in plan.towers.items():
        rep = " (replace its top joker first)" if tower in plan.replaced else ""
        click.echo(f"  {tower}: {' '.join(placed)}{rep}")
    if "this_round" in out:
        r = out["this_round"]
        click.echo(f"secure at 21 this round whatever the opponent does: {', '.join(r['secure_towers']) or 'none'}"
                   f" (at most {r['max_secure_together']} together)")


@towers.command("playout")
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--p1", type=click.Choice(TOWERS_PLAYERS[1:]), default="random", show_default=True)
@click.option("--p2", type=click.Choice(TOWERS_PLAYERS[1:]), default="random", show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@parallel_options
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def towers_playout(games, p1, p2, seed, workers, scheduler, as_json):
    """Bot match-up: win/draw/loss rates with 95% intervals, instant wins, first-player advantage."""
    from solvers.towers.bots import TowersStats

    big_job = 200_000 if p1 == p2 == "random" else 200
    stats, _ = run_in_ranges("solvers.towers.bots:match_range", (p1, p2, seed), games, merge_into, None,
                             workers, scheduler, f"{p1} vs {p2}", not as_json, big_job=big_job)
    stats = stats or TowersStats()
    rep = stats.report((p1, p2))
    if stats.games < games:
        rep["interrupted_after"] = stats.games
    if as_json:
        emit_json(rep)
        return
    g = rep["games"]
    def pct(name):
        lo, hi = rep[name + "_ci95"]
        return f"{100 * rep[name + '_rate']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    click.echo(f"{g} games, P1 {p1} vs P2 {p2} (seed {seed})")
    click.echo(f"  P1 wins {rep['p1_wins']:>6}  {pct('p1_win')}")
    click.echo(f"  P2 wins {rep['p2_wins']:>6}  {pct('p2_win')}")
    click.echo(f"  draws   {rep['draws']:>6}  {pct('draw')}")
    click.echo(f"  instant wins {rep['instant_wins']} ({100 * rep['instant_win_rate']:.2f}%)")
    click.echo(f"  first-player (P1) advantage (P1 wins - P2 wins)/games: {rep['first_player_advantage']:+.3f}")


@towers.command("state")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--round", "round_no", type=click.IntRange(1, 6), default=1, show_default=True, help="Play randomly up to this round.")
@click.option("--placements", type=click.IntRange(0, 5), default=None, help="...and this many placements into it (default: at its line pick).")
@click.option("--text", "as_text", is_flag=True, help="Print the position as text instead of JSON.")
@friendly_errors
def towers_state(seed, round_no, placements, as_text):
    """Write a full-information STATE.json reached by seeded random play (input for solve / plan)."""
    import random as _random

    from puzzles.game import CHANCE
    from puzzles.towers import TowersState

    rng = _random.Random(seed)
    state = TowersState()
    def reached(s):
        if s.round > round_no - 1:
            return True
        if s.round < round_no - 1 or s.phase == "deal":
            return False
        return s.phase == "pick" and s.step == 0 if placements is None else s.phase == "place" and s.step >= placements
    while not state.is_terminal() and not reached(state):
        state.apply(state.sample_chance(rng) if state.current_player() == CHANCE else rng.choice(state.legal_actions()))
    click.echo(str(state) if as_text else json.dumps(state.to_json(), indent=1))

"""`kibitz towers`: Rainbow Blackjack (the tower game): play, playout, exact solver, 21-sum planner, positions.

``play`` and ``playout`` are the generic commands of :mod:`commands.play`
(bots by ``--bots``); the old ``--p1``/``--p2`` stay as hidden aliases.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import click
from click.core import ParameterSource

from commands.common import SECONDS, ProgressReporter, emit_json, exit_interrupted, friendly_errors, quiet_option
from commands.pictures import check_svg_path, svg_option, write_svg
from commands.play import PlayHooks, add_play_commands


@click.group()
def towers() -> None:
    """Rainbow Blackjack (the tower game): play, playout, exact solver, 21-sum planner."""


def _towers_load_state(path: str) -> Any:
    from puzzles.safe_json import load_json_file
    from puzzles.towers import TowersState

    return TowersState.from_json(load_json_file(path))


#: How a human types a move, in the prompt and in ``help``.
NOTATION = "e.g. row1, colors, R6>O, R6xO, pass"


def _show(state: Any, seat: int) -> str:
    """What a human in ``seat`` sees: the towers, their own grid and hand, this round's announcements; in a
    challenge (a face-up position, everything known) the whole position."""
    from puzzles.towers.render import render_observation_text

    view = state.render_text() if state.face_up else render_observation_text(state.observation(seat))
    return "\n" + view + (
        "\n(lines: row1..row3 / col1..col3; announce: colors | numbers;"
        " place: R6>O (stone > tower), replace a top joker: R6xO; pass when stuck)"
    )


def _svg(state: Any, seat: int | None) -> str:
    """The picture ``--svg`` writes when humans play: a seat's view, the public one (no grid, no hand) for several
    humans, or the whole position in a face-up challenge."""
    return str(state.picture(seat))


def _finish(state: Any, moves: list[str], extra: dict[str, Any], as_json: bool) -> dict[str, Any]:
    """Extra JSON fields of a finished game: result, winner, instant win, towers owned, the game log."""
    return {"result": state.result_text(), "winner": state.winner, "instant": state.instant,
            "towers_owned": state.towers_owned(), "log": state.log}


def _with_seat_aliases(command: click.Command, defaults: tuple[str, str]) -> None:
    """Accept the old ``--p1 BOT --p2 BOT`` (hidden) as ``--bots P1,P2`` with fixed seats."""
    callback = command.callback
    assert callback is not None
    for flag in ("--p1", "--p2"):
        command.params.append(click.Option([flag], default=None, hidden=True))

    @functools.wraps(callback)
    def with_aliases(p1: str | None, p2: str | None, **kwargs: Any) -> Any:
        if p1 is not None or p2 is not None:
            if click.get_current_context().get_parameter_source("bots") is not ParameterSource.DEFAULT:
                raise click.UsageError("give --bots, or the old --p1/--p2, not both")
            kwargs["bots"] = [p1 or defaults[0], p2 or defaults[1]]
            if "rotate" in kwargs:
                kwargs["rotate"] = False  # --p1/--p2 meant fixed seats
        return callback(**kwargs)

    command.callback = with_aliases


def _with_from_file(command: click.Command) -> None:
    """``--from FILE``: play a challenge from ``kibitz generate towers`` (or any saved game) — ``--load`` by another name."""
    callback = command.callback
    assert callback is not None
    command.params.append(click.Option(["--from", "from_path"], type=click.Path(dir_okay=False), default=None,
                                       help="Play an endgame challenge written by 'kibitz generate towers --out DIR'."))

    @functools.wraps(callback)
    def with_from(from_path: str | None, **kwargs: Any) -> Any:
        if from_path is not None:
            if kwargs.get("load"):
                raise click.UsageError("give --from or --load, not both")
            kwargs["load"] = from_path
        return callback(**kwargs)

    command.callback = with_from


def _hinter(state: Any) -> Any:
    """The bot a human's ``hint`` asks: the exact solver in a face-up challenge, else greedy (solvers/towers/hint.py)."""
    from solvers.towers.hint import hinter

    return hinter(state)


add_play_commands(towers, "towers", "human,pimc", PlayHooks(finish=_finish, show=_show, hinter=_hinter,
                                                                notation=NOTATION, svg=_svg))
_with_seat_aliases(towers.commands["play"], ("human", "pimc"))
_with_from_file(towers.commands["play"])
_with_seat_aliases(towers.commands["playout"], ("random", "random"))


@towers.command("solve")
@click.argument("state_path", type=click.Path(dir_okay=False))
@click.option("--horizon", type=click.Choice(["round", "game"]), default="game", show_default=True,
              help="Search to the end of this round, or of the game (grid 1: to the end of round 3, the next chance node).")
@click.option("--time-limit", type=SECONDS, default=None,
              help="Stop after this many seconds: the answer is then 'unknown at time limit' with the moves proved so far.")
@svg_option("the position solved (both grids and hands: a full-information state)")
@click.option("--json", "as_json", is_flag=True)
@quiet_option
@friendly_errors
def towers_solve(state_path: str, horizon: str, time_limit: float | None, svg_out: str | None, as_json: bool,
                 quiet: bool) -> None:
    """Best move, value and principal variation of a full-information STATE.json (status: proved / unknown / interrupted)."""
    from solvers.towers.solver import Solver
    from solvers.warmup import ensure_compiled

    check_svg_path(svg_out)
    state = _towers_load_state(state_path)  # validated before any compiled kernel sees it
    write_svg(svg_out, lambda: state.picture(reveal=True))
    ensure_compiled("towers")
    progress = ProgressReporter(None, "nodes searched", enabled=not quiet, unit="node")
    last = [0]

    def advance(nodes: int) -> None:
        progress.advance(nodes - last[0])
        last[0] = nodes

    try:
        result = Solver(22, time_limit=time_limit, progress=advance).solve(state, horizon=horizon)
    finally:
        progress.close()
    if as_json:
        emit_json(result.to_json())
    elif result.status != "proved":
        click.echo(f"status: {result.status} after {result.seconds:.1f} s, {result.nodes} nodes; value unknown")
        if result.move_values:
            click.echo("moves proved so far (P1 side): " + ", ".join(f"{k} {v:+d}" for k, v in result.move_values.items()))
        if result.bounds:
            lo, hi = result.bounds
            click.echo(f"the move being searched: value in [{lo:+d}, {hi:+d}]")
    else:
        click.echo(str(state))
        click.echo(f"status: proved; value: {result.outcome}"
                   + (" by instant win" if result.instant else f", tower margin {result.margin:+d}")
                   + f" (to the end of round {result.horizon_round + 1} of 6"
                   + f"{', the end of the game' if result.exact_game else ''})")
        click.echo(f"best move: {result.best_action_str}")
        click.echo("move values (P1 side): " + ", ".join(f"{k} {v:+d}" for k, v in result.move_values.items()))
        click.echo(f"principal variation: {' '.join(result.pv)}")
        click.echo(f"{result.nodes} nodes in {result.seconds:.3f} s (compilation excluded)")
    if result.status == "interrupted":
        exit_interrupted()


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
def towers_plan(stones_spec: str, towers_path: str | None, player: int | None, max_placements: int | None,
                opponent_spec: str | None, as_json: bool) -> None:
    """The 21-sum planner: most towers that can end at exactly 21 owned by the placer.

    The stones must be the placer's (P1: red, yellow, blue; P2: orange, green, purple; 3 jokers each)
    and, with --towers, not yet on a tower, discarded or removed; anything else is refused in one line."""
    from puzzles.towers import parse_stones
    from solvers.towers.planner import guaranteed_21_towers, guaranteed_for_hands, max_21_towers, towers_of

    stones = parse_stones(stones_spec)
    if not stones:
        raise ValueError("--stones is empty")
    state = _towers_load_state(towers_path) if towers_path else None
    to_move = state.current_player() if state is not None and state.current_player() in (0, 1) else None
    seat = player - 1 if player else (to_move if to_move is not None else 0)
    why = "" if player else (f" (P{seat + 1} is to move in {towers_path}; --player chooses)" if to_move is not None
                             else " (the default placer; --player chooses)")
    _check_placer_stones(stones, seat, state, towers_path, "--stones", why)
    plan = max_21_towers(stones, towers_of(state) if state else None, seat, max_placements)
    out = {"player": f"P{seat + 1}", **plan.to_json()}
    if opponent_spec is not None:
        if state is None:
            raise ValueError("--opponent needs --towers STATE.json")
        opponent = parse_stones(opponent_spec)
        _check_placer_stones(opponent, 1 - seat, state, towers_path, "--opponent", "")
        out["this_round"] = guaranteed_for_hands(state, seat, stones, opponent)
    elif state is not None and state.phase in ("pick", "place") and all(state.grids[p][state.grid_index()] for p in (0, 1)):
        out["this_round"] = guaranteed_21_towers(state, seat)
    if as_json:
        emit_json(out)
        return
    click.echo("\n".join(_plan_lines(plan, seat, stones, max_placements, out.get("this_round"))))


def _check_placer_stones(stones: list[int], seat: int, state: Any, path: str | None, option: str, why: str) -> None:
    """Refuse (one line) stones that are not ``seat``'s, or, with a state, no longer ``seat``'s to place."""
    from collections import Counter

    from puzzles.towers.stones import JOKER, player_set, stone_str

    player = f"P{seat + 1}"
    foreign = [c for c in stones if c != JOKER and c not in player_set(seat)]
    if foreign:
        other = "" if len(foreign) < len([c for c in stones if c != JOKER]) else f"; --player {2 - seat} plans P{2 - seat}'s"
        raise ValueError(f"{option}: {_names(foreign)} {'is' if len(foreign) == 1 else 'are'} not {player}'s: "
                         f"{player} places {_colours(seat)} and jokers{why}{other}")
    left = Counter(player_set(seat))
    if state is not None:
        left -= Counter(state.removed[seat]) + Counter(c for shown in state.revealed[seat] for c in shown)
    missing = list((Counter(stones) - left).elements())
    if not missing:
        return
    if state is None:
        raise ValueError(f"{option}: {player} has each coloured stone once and 3 jokers; {_names(missing)} too many")
    have = " ".join(stone_str(c) for c in sorted(left.elements())) or "nothing"
    raise ValueError(f"{option}: {_names(missing)} {'is' if len(missing) == 1 else 'are'} no longer {player}'s to place "
                     f"in {path} (already on a tower, discarded or removed){why}; {player} still has: {have}")


def _names(codes: list[int]) -> str:
    from puzzles.towers.stones import stone_str

    return ", ".join(stone_str(c) for c in codes)


def _colours(seat: int) -> str:
    from puzzles.towers.stones import COLORS, PLAYER_COLORS

    return ", ".join(COLORS[c] for c in PLAYER_COLORS[seat])


def _plan_lines(plan: Any, seat: int, stones: list[int], max_placements: int | None,
                this_round: dict[str, Any] | None) -> list[str]:
    """The plan as text: the count, each tower's stones, and why the plan is empty when it is."""
    within = f" in at most {max_placements} placement(s)" if max_placements is not None else ""
    lines = [f"P{seat + 1} can have at most {plan.count} tower(s) at exactly 21 with {' '.join(_names(stones).split(', '))}"
             f"{within} ({plan.answer_status}, {plan.seconds:.2f} s)"]
    for tower, placed in plan.towers.items():
        rep = " (replace its top joker first)" if tower in plan.replaced else ""
        lines.append(f"  {tower}: {' '.join(placed)}{rep}")
    lines += [f"  {tower}: already at 21 and P{seat + 1}'s (no stone needed)" for tower in plan.already]
    if plan.count and not plan.towers:
        lines.append("  no stone to place: no other tower can be brought to exactly 21 with these stones" + within)
    elif not plan.count:
        lines.append("  no tower can be brought to exactly 21 with these stones" + within)
    if this_round is not None:
        lines.append(f"secure at 21 this round whatever the opponent does: {', '.join(this_round['secure_towers']) or 'none'}"
                     f" (at most {this_round['max_secure_together']} together)")
    return lines


@towers.command("state")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--round", "round_no", type=click.IntRange(1, 6), default=1, show_default=True, help="Play randomly up to this round.")
@click.option("--placements", type=click.IntRange(0, 5), default=None, help="...and this many placements into it (default: at its line pick).")
@click.option("--text", "as_text", is_flag=True, help="Print the position as text instead of JSON.")
@svg_option("the position (both grids and hands)")
@friendly_errors
def towers_state(seed: int, round_no: int, placements: int | None, as_text: bool, svg_out: str | None) -> None:
    """Write a full-information STATE.json reached by seeded random play (input for solve / plan)."""
    from puzzles.towers import TowersState
    from puzzles.towers.subgame import random_play

    check_svg_path(svg_out)

    def reached(s: TowersState) -> bool:
        if s.round > round_no - 1:
            return True
        if s.round < round_no - 1 or s.phase == "deal":
            return False
        return s.phase == "pick" and s.step == 0 if placements is None else s.phase == "place" and s.step >= placements
    state = random_play(seed, reached)
    write_svg(svg_out, lambda: state.picture(reveal=True))
    click.echo(str(state) if as_text else json.dumps(state.to_json(), indent=1))


@towers.command("equilibrium")
@click.argument("state_path", type=click.Path(dir_okay=False), required=False)
@click.option("--seed", type=int, default=None,
              help="Instead of STATE: the start of round 6's placements reached by seeded random play (as `towers state`).")
@click.option("--target", type=click.FloatRange(1e-9, 0.5), default=1e-3, show_default=True,
              help="Stop CFR+ once the exploitability (in returns: win 1, draw 0.5) is at most this.")
@click.option("--node-limit", type=click.IntRange(min=1), default=None,
              help="Refuse a public tree with more nodes [default: 3,000,000 from the placements; 40,000,000 with "
                   "announcements to come (stored compactly; the start of round 6 has 1-2.2 x 10^7, ~1-2 GB)].")
@click.option("--depth", "max_depth", type=click.IntRange(min=0), default=2, show_default=True,
              help="Show information sets up to this many public actions from the root.")
@click.option("--json", "as_json", is_flag=True)
@quiet_option
@friendly_errors
def towers_equilibrium(state_path: str | None, seed: int | None, target: float, node_limit: int | None,
                       max_depth: int, as_json: bool, quiet: bool) -> None:
    """Equilibrium of the round-6 subgame at STATE's public state: value, mixed strategies, exploitability.

    From a state with announcements to come (the start of round 6) it also prints each seat's probability of
    announcing colours per possible hand (P2's averaged over P1's announcements)."""
    from solvers.towers.equilibrium import announcement_strategy, solve_round6, strategy_rows
    from solvers.warmup import ensure_compiled

    if (state_path is None) == (seed is None):
        raise click.UsageError("give a STATE file or --seed, not both")
    state = _towers_load_state(state_path) if state_path is not None else _round6_start(seed or 0)
    ensure_compiled("towers")
    building = ProgressReporter(None, "building the public tree", enabled=not quiet, unit="subtrees")
    progress = ProgressReporter(None, "CFR+ iterations", enabled=not quiet, unit="it")
    done, built = [0], [0]

    def advance(iteration: int, expl: float) -> None:
        progress.advance(iteration - done[0], note=f"exploitability {expl:.1e}")
        done[0] = iteration

    def grow(k: int, total: int) -> None:
        if building.total is None:
            building.set_total(total)
        building.advance(k - built[0])
        built[0] = k

    try:
        try:
            eq = solve_round6(state, target, node_limit, on_progress=advance, on_build=grow)
        finally:
            building.close()
    finally:
        progress.close()
    rows = strategy_rows(eq, max_depth)
    announce = announcement_strategy(eq)
    summary = {"status": eq.status, "value_p1": eq.value, "exploitability": eq.exploitability, "target": target,
               "iterations": eq.iterations, "nodes": eq.tree.size, "build_seconds": round(eq.build_seconds, 3),
               "solve_seconds": round(eq.seconds, 3)}
    if as_json:
        emit_json({**summary, "hands": [[list(h) for h in eq.tree.hands[p]] for p in (0, 1)],
                   "prior": [eq.tree.prior[p].tolist() for p in (0, 1)], "announcements": announce,
                   "strategy": rows})
    else:
        click.echo(f"round-6 subgame: {eq.tree.size:,} public nodes, {len(eq.tree.hands[0])} possible hands of P1, "
                   f"{len(eq.tree.hands[1])} of P2 (built in {eq.build_seconds:.2f} s)")
        click.echo(f"status: {eq.status}; exploitability {eq.exploitability:.2e} (target {target:g}) after "
                   f"{eq.iterations} CFR+ iterations, {eq.seconds:.2f} s")
        click.echo(f"game value: P1 expects {eq.value:.4f} (win 1, draw 0.5, loss 0); P2 {1 - eq.value:.4f}")
        for p, hands in enumerate(announce):
            if not hands:
                continue
            overall = sum(x["prior"] * x["colors"] for x in hands)
            also = ", averaged over P1's announcements" if p == 1 and announce[0] else ""
            click.echo(f"P{p + 1} announces colours with probability {overall:.3f} over its deals{also}; per hand:")
            for x in hands:
                click.echo(f"  P{p + 1} hand {x['hand'] + 1} ({x['hand_text']}, dealt with probability "
                           f"{x['prior']:.3f}): colours {x['colors']:.3f}, numbers {1 - x['colors']:.3f}")
        for row in rows:
            mix = ", ".join(f"{a} {p:.3f}" for a, p in row["actions"] if p >= 0.0005)
            after = " ".join(row["history"]) or "the start"
            click.echo(f"P{row['player'] + 1} holding {row['hand_text']}, after {after}: {mix}")
    if eq.status == "interrupted":
        exit_interrupted()


def _round6_start(seed: int) -> Any:
    """Round 6's placement start reached by seeded random play (as ``towers state --round 6 --placements 0``)."""
    from puzzles.towers.subgame import random_round6_start

    state = random_round6_start(seed)
    if state is None:
        raise click.ClickException(f"the game of seed {seed} ended before round 6")
    return state

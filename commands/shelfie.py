"""`kibitz shelfie`: My Shelfie: play, score a shelf, the perfect shelf, bot playouts."""

from __future__ import annotations

import sys

import click

from cli import emit_json, friendly_errors, parallel_options, run_in_ranges

SHELFIE_BOTS = ("random", "greedy", "lookahead")


def _shelfie_goal_pair(text: str | None) -> tuple[str, str] | None:
    from puzzles.shelfie.rules import check_goal_key

    if not text:
        return None
    keys = tuple(check_goal_key(k) for k in text.split(",") if k.strip())
    if len(keys) != 2 or keys[0] == keys[1]:
        raise ValueError(f"--goals needs two different keys separated by a comma, got {text!r}")
    return keys  # type: ignore[return-value]


def _shelfie_seats(bots: str | None, players: int, default: list[str]) -> list[str]:
    names = [b.strip().lower() for b in bots.split(",")] if bots else default
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise ValueError(f"--bots names {len(names)} seats but --players is {players}")
    for name in names:
        if name not in SHELFIE_BOTS + ("human",):
            raise ValueError(f"unknown bot {name!r}; choose from human, {', '.join(SHELFIE_BOTS)}")
    return names


@click.group()
def shelfie() -> None:
    """My Shelfie: play, score a shelf, the perfect shelf, bot playouts."""


@shelfie.command("play")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True)
@click.option("--bots", default=None, help="Per seat, comma-separated: human, random, greedy, lookahead "
              "(one name fills every seat). Default: human then greedy bots.")
@click.option("--seed", type=int, default=None, help="Seed of the deal and the bag (random if omitted).")
@click.option("--goals", default=None, help="Common goals K1,K2 (dealt at random if omitted).")
@click.option("--refill-rule", type=click.Choice(["isolated", "four_or_fewer"]), default="isolated", show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON at the end.")
@friendly_errors
def shelfie_play(players: int, bots: str | None, seed: int | None, goals: str | None, refill_rule: str,
                 as_json: bool) -> None:
    """Play a game; a human takes tiles by coordinates then names a column, e.g. `d5 e5 3`."""
    import random as _random

    from puzzles.game import IllegalActionError
    from puzzles.shelfie import new_game
    from solvers.shelfie.bots import best_move_now, make_bot

    seats = _shelfie_seats(bots, players, ["human"] + ["greedy"] * (players - 1))
    if seed is None:
        seed = _random.randrange(1_000_000)
    state = new_game(players, seed=seed, common_goals=_shelfie_goal_pair(goals), refill_rule=refill_rule)
    rng = _random.Random(seed)
    agents = {s: make_bot(name) for s, name in enumerate(seats) if name != "human"}
    humans = [s for s, name in enumerate(seats) if name == "human"]
    log = []
    say = (lambda *a, **k: None) if as_json else click.echo
    say(f"My Shelfie, seed {seed}: " + ", ".join(f"P{s} {name}" for s, name in enumerate(seats)))
    stdin = sys.stdin
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(state.sample_chance(rng))
            say("(the board is refilled)")
            continue
        seat = state.current_player()
        if seat in agents:
            move = agents[seat].choose(state, rng)
            say(f"P{seat} ({seats[seat]}): {move}")
        else:
            say("")
            say(state.render_text(viewer=seat if len(humans) == 1 else None))
            while True:
                click.echo(f"P{seat}, your move (cells in placing order, then column 1-5; "
                           "'hint', 'moves' or 'quit'): ", nl=False)
                line = stdin.readline()
                if not line or line.strip().lower() in ("quit", "q", "exit"):
                    raise click.ClickException("game abandoned")
                line = line.strip()
                if line.lower() == "hint":
                    hint, points = best_move_now(state, rng)
                    click.echo(f"best points now: {hint}  (+{points})")
                    continue
                if line.lower() == "moves":
                    click.echo(", ".join(sorted({str(m) for m in state.legal_actions()})[:60]) + " ...")
                    continue
                try:
                    move = state.string_to_move(line)
                    break
                except IllegalActionError as error:
                    click.echo(f"illegal: {error}")
        state.apply(move)
        log.append(str(move))
    result = {
        "seed": seed,
        "bots": seats,
        "common_goals": list(state.common_goals),
        "personal_cards": list(state.personal_cards),
        "scores": [int(s) for s in state.scores()],
        "breakdown": [state.score_breakdown(s) for s in range(players)],
        "winner": state.winner(),
        "moves": log,
        "shelves": [state.shelf(s).rows() for s in range(players)],
    }
    if as_json:
        emit_json(result)
    else:
        click.echo("")
        click.echo(state.render_text())


@shelfie.command("score")
@click.argument("shelf_file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--personal", type=click.IntRange(1, 12), default=None, help="Personal goal card 1..12.")
@click.option("--goals", default=None, help="Common goals K1,K2 to check (default: all 12).")
@click.option("--loose", is_flag=True, help="Accept shelves that break gravity/supply (analysis).")
@click.option("--squares-inside-groups", is_flag=True, help="TWO_SQUARES: squares may sit inside larger groups.")
@click.option("--squares-same-type", is_flag=True, help="TWO_SQUARES: both squares of one type.")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def shelfie_score(shelf_file: str, personal: int | None, goals: str | None, loose: bool,
                  squares_inside_groups: bool, squares_same_type: bool, as_json: bool) -> None:
    """Score a shelf file: 6 rows of 5 letters C B G F T P or '.', row 1 = top."""
    from puzzles.shelfie.rules import COMMON_GOAL_KEYS, Bookshelf, adjacency_points, common_goal_met, groups
    from puzzles.shelfie.rules import LETTERS, personal_goal_points

    text = sys.stdin.read() if shelf_file == "-" else open(shelf_file).read()
    shelf = Bookshelf.from_text(text, strict=not loose)
    keys = _shelfie_goal_pair(goals) or COMMON_GOAL_KEYS
    options = {"squares_inside_groups": squares_inside_groups, "squares_same_type": squares_same_type}
    met = {key: common_goal_met(key, shelf, **options) for key in keys}
    scoring_groups = [{"type": LETTERS[t], "size": len(cells)} for t, cells in groups(shelf) if len(cells) >= 3]
    adjacency = adjacency_points(shelf)
    personal_pts = personal_goal_points(personal, shelf) if personal else None
    best_case = adjacency + (personal_pts or 0) + (8 * sum(met.values()) if goals else 0) + (1 if shelf.is_full() else 0)
    result = {
        "shelf": shelf.rows(),
        "adjacency": adjacency,
        "groups": scoring_groups,
        "personal": personal,
        "personal_points": personal_pts,
        "goals_met": met,
        "full": shelf.is_full(),
        "total_without_tokens": adjacency + (personal_pts or 0),
        "best_case_total": best_case,
    }
    if as_json:
        emit_json(result)
        return
    click.echo("\n".join(shelf.rows()))
    click.echo(f"adjacency: {adjacency} points (" + ", ".join(f"{g['type']}{g['size']}" for g in scoring_groups) + ")")
    if personal:
        click.echo(f"personal goal {personal}: {personal_pts} points")
    click.echo("common goals met: " + (", ".join(k for k, v in met.items() if v) or "none"))
    click.echo(f"total without tokens: {result['total_without_tokens']}"
               + (f"; best case with top tokens and end token: {best_case}" if goals else ""))


@shelfie.command("best-shelf")
@click.option("--personal", type=click.IntRange(1, 12), required=True, help="Personal goal card 1..12.")
@click.option("--goals", required=True, help="The two common goals, K1,K2.")
@click.option("--time-limit", type=float, default=30.0, show_default=True, help="CP-SAT time limit (s).")
@click.option("--workers", type=int, default=2, show_default=True)
@click.option("--squares-inside-groups", is_flag=True)
@click.option("--squares-same-type", is_flag=True)
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def shelfie_best_shelf(personal: int, goals: str, time_limit: float, workers: int, squares_inside_groups: bool,
                       squares_same_type: bool, as_json: bool) -> None:
    """The highest final score a shelf can reach (CP-SAT): top tokens and end token assumed."""
    from solvers.shelfie.best_shelf import best_shelf

    result = best_shelf(personal, _shelfie_goal_pair(goals), time_limit=time_limit, workers=workers,
                        squares_inside_groups=squares_inside_groups, squares_same_type=squares_same_type)
    if as_json:
        emit_json(result.to_json())
        return
    click.echo("\n".join(result.shelf.rows()))
    parts = ", ".join(f"{k} {v}" for k, v in result.breakdown.items())
    proof = "proven optimal" if result.optimal else f"not proven (bound {result.bound:g})"
    click.echo(f"score {result.score} ({parts}); {proof} in {result.seconds:.1f} s")


@shelfie.command("playout")
@click.option("--games", type=click.IntRange(1), default=1000, show_default=True)
@click.option("--players", type=click.IntRange(2, 4), default=4, show_default=True)
@click.option("--bots", default="random", show_default=True,
              help="Per seat, comma-separated: random, greedy, lookahead (one name fills every seat).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--refill-rule", type=click.Choice(["isolated", "four_or_fewer"]), default="isolated", show_default=True)
@click.option("--rotate/--no-rotate", default=True, show_default=True, help="Rotate the bots through the seats.")
@parallel_options
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def shelfie_playout(games: int, players: int, bots: str, seed: int, refill_rule: str, rotate: bool,
                    workers: int | None, scheduler: str | None, as_json: bool) -> None:
    """Seeded bot-vs-bot games in the numba kernel; win rates with 95% intervals."""
    import time

    from solvers.playout import wilson_interval
    from solvers.shelfie.bots import concat_playouts

    names = _shelfie_seats(bots, players, ["random"] * players)
    if "human" in names:
        raise ValueError("playouts are between bots only")
    start = time.perf_counter()
    big_job = 50 if "lookahead" in names else 20_000
    result, _ = run_in_ranges("solvers.shelfie.bots:playout_range", (players, tuple(names), seed, refill_rule, rotate),
                              games, concat_playouts, None, workers, scheduler, "playing", not as_json, big_job=big_job)
    elapsed = time.perf_counter() - start
    played = result["games"] if result else 0
    bots_out = []
    for k, name in enumerate(names):
        wins = int((result["winners"] == k).sum())
        low, high = wilson_interval(wins, played)
        bots_out.append({"slot": k, "bot": name, "win_rate": wins / played if played else 0.0, "win_ci95": [low, high],
                         "mean_score": float(result["scores"][:, k].mean()) if played else 0.0})
    summary = {"games": played, "players": players, "seed": seed, "rotate": rotate, "seconds": round(elapsed, 3),
               "games_per_second": round(played / elapsed, 1) if elapsed else None, "bots": bots_out}
    if as_json:
        emit_json(summary)
        return
    click.echo(f"{played} games, {players} players, {summary['games_per_second']} games/s")
    for b in bots_out:
        click.echo(f"  slot {b['slot']} {b['bot']:9s} win {b['win_rate']:.3f} "
                   f"[{b['win_ci95'][0]:.3f}, {b['win_ci95'][1]:.3f}]  mean score {b['mean_score']:.1f}")

"""`kibitz blokus gtp` (a GTP engine in Pentobi's dialect) and `kibitz blokus match` (matches against GTP engines).

:mod:`commands.blokus` adds both to its ``blokus`` group; the logic is in
:mod:`solvers.blokus.gtp` and :mod:`solvers.blokus.match`.
"""

from __future__ import annotations

import contextlib
import math
import sys

import click

from commands.common import ProgressReporter, emit_json, exit_interrupted, friendly_errors, quiet_option

#: Match variants (:data:`solvers.blokus.match.MATCH_VARIANTS`, kept here so the CLI loads without numba).
MATCH_VARIANTS = ["duo", "two-player", "classic", "three-player"]
GTP_VARIANTS = ["classic", "two-player", "three-player", "duo", "classic_2", "classic_3"]
#: The longest deadline a match accepts (a day).
MAX_TIMEOUT = 86_400.0


def finite_seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """A deadline option: a finite number of seconds (FloatRange lets NaN through)."""
    if not math.isfinite(value):
        raise click.BadParameter(f"{value} is not a number of seconds", ctx=ctx, param=param)
    return value


@click.command("gtp")
@click.option("--variant", "--game", "variant", default="classic", show_default=True,
              help="classic, two-player, three-player, duo (or Pentobi's ids classic_2, classic_3).")
@click.option("--bot", "bot_spec", default="greedy", show_default=True, help="The bot that answers genmove (name[:budget]).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed (GTP set_random_seed changes it).")
@click.option("--knobs", default=None, metavar="NAME=VALUE,...",
              help="The mcts-rave bot's search constants, as for blokus match, e.g. threads=2: two search threads "
                   "share the move's budget, so a CPU-seconds budget takes about half the wall time.")
@friendly_errors
def blokus_gtp(variant, bot_spec, seed, knobs):
    """Speak GTP (Pentobi's dialect) on stdin/stdout, e.g. for twogtp or `kibitz blokus match`."""
    from solvers.blokus.gtp import GtpEngine
    from solvers.blokus.tune import knob_bot
    from solvers.warmup import ensure_compiled

    bot = None if knobs is None else knob_bot(bot_spec, knobs)  # a bad knob fails before the compile notice
    ensure_compiled("blokus")  # on stderr: stdout speaks GTP
    engine = GtpEngine(variant, bot_spec, seed, bot)
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        engine.run(sys.stdin, sys.stdout)


@click.command("match")
@click.option("--variant", type=click.Choice(MATCH_VARIANTS), default="duo", show_default=True,
              help="Side A rotates through the seats: game g puts it in seat g % seats (classic: 4, three-player: 3).")
@click.option("--bots", "bots", default=None, help="Side A: a kibitz bot spec (name[:budget]).")
@click.option("--engine", "engine", default=None, help="Side A as a GTP engine command instead of --bots.")
@click.option("--knobs", default=None, metavar="NAME=VALUE,...",
              help="Side A's mcts-rave search constants (exploration, rave_weight, rave_child_max, quality_bonus, "
                   "lgr, rave_dist, prior_all), as kibitz blokus tune; endgame=1 (two seats) lets an exact endgame "
                   "search play when it proves a win or a tie; early_stop=1 ends a search once its move cannot change; pentobi_stop=1 "
                   "does so with the lead measured as Pentobi's check measures it; pentobi_counts=1 spreads an "
                   "iteration budget over the game as Pentobi's levels do; threads=N searches N trees at once, "
                   "each with 1/N of the budget; prune=0 keeps a full tree as it is (by default it is pruned as "
                   "Pentobi prunes it); tree_log2=N caps the tree at 2^N nodes (12 to 23, default 23); "
                   "fitted_priors=0 (Duo) uses Pentobi's priors instead of the default ones refitted to strong players' moves; "
                   "fitted_priors=1 uses Classic's own refit there (not the default: an A/B did not show it). "
                   "The preset pentobi stands for pentobi_counts=1,early_stop=1,lgr=1,quality_bonus=1,pentobi_stop=1 "
                   "(the matches against Pentobi); later knobs override it, e.g. pentobi,lgr=0.")
@click.option("--opponent", default=None, help="Side B: a GTP engine command, e.g. \"pentobi-gtp --game duo --level 1 --nobook\".")
@click.option("--opponent-bot", "opponent_bot", default=None, help="Side B as a kibitz bot in this process (no GTP).")
@click.option("--opponent-per-seat", "per_seat", is_flag=True,
              help="Classic and three-player: one side-B engine per seat it holds (else one engine plays them all).")
@click.option("--games", type=click.IntRange(min=1), default=10, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--move-timeout", "move_timeout", type=click.FloatRange(min=0, min_open=True, max=MAX_TIMEOUT),
              default=60.0, show_default=True, callback=finite_seconds, metavar="SECONDS",
              help="How long a GTP engine may take to answer one command (genmove included).")
@click.option("--startup-timeout", "startup_timeout", type=click.FloatRange(min=0, min_open=True, max=MAX_TIMEOUT),
              default=60.0, show_default=True, callback=finite_seconds, metavar="SECONDS",
              help="How long a GTP engine may take to answer each command of the start-up handshake.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output (every game included).")
@quiet_option
@friendly_errors
def blokus_match(variant, bots, engine, knobs, opponent, opponent_bot, per_seat, games, seed, move_timeout,
                 startup_timeout, as_json, quiet):
    """Play a match, seats alternating: side A (--bots or --engine) against side B (--opponent or --opponent-bot).

    A GTP engine that dies, stays silent past its deadline or does not speak GTP ends the match with status
    'engine failed' (exit status 1) and the finished games; Ctrl-C ends it with the finished games (exit
    status 130).  GTP engines run in their own process group, killed when the match ends.
    """
    from solvers.blokus.match import ENGINE_FAILED, SeatSides, make_side, run_match
    from solvers.warmup import ensure_compiled

    if (bots is None) == (engine is None):
        raise click.UsageError("give side A as exactly one of --bots or --engine")
    if (opponent is None) == (opponent_bot is None):
        raise click.UsageError("give side B as exactly one of --opponent or --opponent-bot")
    ensure_compiled("blokus")
    if knobs and engine is not None:
        raise ValueError("--knobs sets a kibitz mcts-rave bot's constants, not a GTP engine's")
    if knobs:
        from solvers.blokus.tune import knob_side

        a = knob_side(bots, knobs)
    else:
        a = make_side(engine or bots, engine is not None, move_timeout, startup_timeout)
    seats = {"classic": 4, "three-player": 3}.get(variant, 2)
    b_sides: list = []
    try:
        for _ in range(seats - 1 if per_seat else 1):
            b_sides.append(make_side(opponent or opponent_bot, opponent is not None, move_timeout, startup_timeout))
    except BaseException:
        a.close()
        for side in b_sides:
            side.close()
        raise
    b = SeatSides(b_sides) if len(b_sides) > 1 else b_sides[0]
    progress = ProgressReporter(games, "games", enabled=not quiet, delay=0.0)

    def on_game(game, match):
        s = match.summary()
        progress.advance(1, f"score {s['score']:.3f} [{s['win_ci95'][0]:.2f}, {s['win_ci95'][1]:.2f}]")

    try:
        result = run_match(a, b, variant, games, seed, on_game=on_game)
    finally:
        progress.close()
        a.close()
        b.close()
    s = result.summary()
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo(f"{s['side_a']} vs {s['side_b']}, {variant}: {s['games']} of {games} games ({s['status']})")
        if s["games"]:
            click.echo(f"score {s['score']:.3f} (95% CI {s['win_ci95'][0]:.3f}-{s['win_ci95'][1]:.3f}): "
                       f"{s['wins']} wins, {s['ties']} ties, {s['losses']} losses; mean margin {s['mean_margin_a']:+.1f}")
            if len(s["seat_win_rates"]) > 2:
                click.echo(f"mean rank {s['mean_rank_a']:.2f} of {len(s['seat_win_rates'])}; by seat: "
                           + ", ".join(f"seat {r['seat'] + 1} {r['score']:.2f} ({r['games']} games)" for r in s["by_seat_a"]))
            click.echo(f"CPU per move: A {s['cpu_per_move_a']:.4f} s, B {s['cpu_per_move_b']:.4f} s")
            click.echo(f"final_score disagreements: {s['final_score_mismatches']}")
    if result.status == "interrupted":
        exit_interrupted()
    if result.status == ENGINE_FAILED:
        raise click.ClickException(result.error or ENGINE_FAILED)


@click.group("tune")
def blokus_tune() -> None:
    """Tune mcts-rave's search constants: interleaved A/B matches and SPSA (Duo or two-player), over --workers or
    a Dask cluster (--scheduler)."""


def _tune_options(func):
    """The options an A/B match and an SPSA run share (SPSA: Duo or two-player; A/B: any match variant)."""
    for option in reversed([
        click.option("--variant", type=click.Choice(MATCH_VARIANTS), default="duo", show_default=True,
                     help="SPSA: duo or two-player. A/B with 3-4 seats: A in one seat, B in the others."),
        click.option("--budget", default="0.05s", show_default=True,
                     help="mcts-rave's budget per move for both sides: CPU seconds (0.05s) or iterations (2000)."),
        click.option("--seed", type=int, default=0, show_default=True),
        click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
                     help="Worker processes that play games at once."),
        click.option("--scheduler", default=None,
                     help="Dask scheduler address (tcp://HOST:PORT): play the games on that cluster instead."),
        click.option("--checkpoint", type=click.Path(dir_okay=False), default=None,
                     help="JSON-lines file of finished games (A/B) or steps (SPSA); a rerun goes on from it."),
        click.option("--json", "as_json", is_flag=True, help="Machine-readable output."),
        quiet_option,
    ]):
        func = option(func)
    return func


def _check_budget(budget: str) -> None:
    from solvers.bots import parse_budget

    try:
        parse_budget(budget)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--budget") from None


def _knobs(text: str, option: str) -> dict[str, float]:
    from solvers.blokus.tune import parse_knobs

    try:
        return parse_knobs(text)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint=option) from None


@blokus_tune.command("ab")
@click.option("--a", "knobs_a", default="default", show_default=True,
              help="Side A's search constants, e.g. exploration=0.6,rave_weight=0.5 or the preset pentobi (the rest: "
                   "the variant's).")
@click.option("--b", "knobs_b", default="default", show_default=True, help="Side B's search constants.")
@click.option("--games", type=click.IntRange(min=1), default=40, show_default=True)
@click.option("--budget-b", "budget_b", default=None,
              help="Side B's budget when it differs from --budget (e.g. A an iteration budget spread with "
                   "pentobi_counts=1, B CPU seconds: compare the CPU per move of both).")
@_tune_options
@friendly_errors
def blokus_tune_ab(knobs_a, knobs_b, games, budget_b, variant, budget, seed, workers, scheduler, checkpoint, as_json,
                   quiet):
    """An interleaved A/B match at a fixed budget: A's score with its Wilson 95% interval (seats alternate)."""
    from solvers.blokus.tune import ab_match
    from solvers.warmup import ensure_compiled

    _check_budget(budget)
    if budget_b is not None:
        _check_budget(budget_b)
        budget = f"{budget}/{budget_b}"
    a, b = _knobs(knobs_a, "--a"), _knobs(knobs_b, "--b")
    ensure_compiled("blokus")
    progress = ProgressReporter(games, "games", enabled=not quiet, delay=0.0)

    def on_game(game, match):
        s = match.summary()
        progress.advance(1, f"A {s['score']:.3f} [{s['ci95'][0]:.2f}, {s['ci95'][1]:.2f}]")

    try:
        result = ab_match(variant, budget, a, b, games, seed, workers, checkpoint, on_game=on_game, scheduler=scheduler)
    finally:
        progress.close()
    s = result.summary()
    if as_json:
        emit_json(s)
    else:
        click.echo(f"A ({s['a']}) vs B ({s['b']}), {variant} at {budget}: {s['games']} of {games} games ({s['status']})")
        if s["games"]:
            click.echo(f"A scores {s['score']:.3f} (95% CI {s['ci95'][0]:.3f}-{s['ci95'][1]:.3f}, fair share "
                       f"{s['fair_share']:.3g}): {s['wins']} wins, "
                       f"{s['ties']} ties, {s['losses']} losses; mean margin {s['mean_margin_a']:+.1f}; CPU per move "
                       f"A {s['cpu_per_move_a']:.4f} s, B {s['cpu_per_move_b']:.4f} s")
    if result.status == "interrupted":
        exit_interrupted()


@blokus_tune.command("spsa")
@click.option("--start", default="exploration=0.5,rave_weight=0.7", show_default=True,
              help="The constants to tune and where to start (name=value,...).")
@click.option("--steps", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--games-per-step", type=click.IntRange(min=2), default=2, show_default=True,
              help="Games per step (even: both sides take both seats); they run in parallel over --workers.")
@click.option("--gain", "a", type=click.FloatRange(min=0, min_open=True), default=0.05, show_default=True,
              help="SPSA's step gain a (on the unit range of each constant).")
@click.option("--perturbation", "c", type=click.FloatRange(min=0, min_open=True, max=0.5), default=0.1,
              show_default=True, help="SPSA's perturbation c (on the unit range of each constant).")
@_tune_options
@friendly_errors
def blokus_tune_spsa(start, steps, games_per_step, a, c, variant, budget, seed, workers, scheduler, checkpoint, as_json,
                     quiet):
    """SPSA over mcts-rave's search constants: each step plays x + c_k d against x - c_k d and moves x."""
    from solvers.blokus.tune import spsa, spsa_refusal
    from solvers.warmup import ensure_compiled

    _check_budget(budget)
    if variant not in ("duo", "two-player"):
        raise click.BadParameter("SPSA tunes in duo or two-player", param_hint="--variant")
    knobs = _knobs(start, "--start")
    if not knobs:
        raise click.BadParameter("name the constants to tune", param_hint="--start")
    refusal = spsa_refusal(knobs)
    if refusal:
        raise click.BadParameter(refusal, param_hint="--start")
    if games_per_step % 2:
        raise click.BadParameter("must be even (both sides take both seats)", param_hint="--games-per-step")
    ensure_compiled("blokus")
    progress = ProgressReporter(steps, "SPSA steps", enabled=not quiet, delay=0.0, unit="step")

    def on_step(row, run):
        progress.advance(1, run.summary()["knobs"])

    try:
        result = spsa(variant, budget, knobs, steps, games_per_step, seed, workers, a, c, checkpoint, on_step=on_step,
                      scheduler=scheduler)
    finally:
        progress.close()
    s = result.summary()
    if as_json:
        emit_json(s)
    else:
        click.echo(f"SPSA, {variant} at {budget}: {s['steps']} of {steps} steps ({s['status']}), "
                   f"{games_per_step} games each; from {s['start']} to {s['knobs']}")
    if result.status == "interrupted":
        exit_interrupted()

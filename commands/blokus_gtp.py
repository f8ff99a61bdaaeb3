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
@friendly_errors
def blokus_gtp(variant, bot_spec, seed):
    """Speak GTP (Pentobi's dialect) on stdin/stdout, e.g. for twogtp or `kibitz blokus match`."""
    from solvers.blokus.gtp import GtpEngine
    from solvers.warmup import ensure_compiled

    ensure_compiled("blokus")  # on stderr: stdout speaks GTP
    engine = GtpEngine(variant, bot_spec, seed)
    with contextlib.suppress(KeyboardInterrupt, BrokenPipeError):
        engine.run(sys.stdin, sys.stdout)


@click.command("match")
@click.option("--variant", type=click.Choice(["duo", "two-player", "classic"]), default="duo", show_default=True)
@click.option("--bots", "bots", default=None, help="Side A: a kibitz bot spec (name[:budget]).")
@click.option("--engine", "engine", default=None, help="Side A as a GTP engine command instead of --bots.")
@click.option("--opponent", default=None, help="Side B: a GTP engine command, e.g. \"pentobi-gtp --game duo --level 1 --nobook\".")
@click.option("--opponent-bot", "opponent_bot", default=None, help="Side B as a kibitz bot in this process (no GTP).")
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
def blokus_match(variant, bots, engine, opponent, opponent_bot, games, seed, move_timeout, startup_timeout, as_json,
                 quiet):
    """Play a match, seats alternating: side A (--bots or --engine) against side B (--opponent or --opponent-bot).

    A GTP engine that dies, stays silent past its deadline or does not speak GTP ends the match with status
    'engine failed' (exit status 1) and the finished games; Ctrl-C ends it with the finished games (exit
    status 130).  GTP engines run in their own process group, killed when the match ends.
    """
    from solvers.blokus.match import ENGINE_FAILED, make_side, run_match
    from solvers.warmup import ensure_compiled

    if (bots is None) == (engine is None):
        raise click.UsageError("give side A as exactly one of --bots or --engine")
    if (opponent is None) == (opponent_bot is None):
        raise click.UsageError("give side B as exactly one of --opponent or --opponent-bot")
    ensure_compiled("blokus")
    a = make_side(engine or bots, engine is not None, move_timeout, startup_timeout)
    try:
        b = make_side(opponent or opponent_bot, opponent is not None, move_timeout, startup_timeout)
    except BaseException:
        a.close()
        raise
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
            click.echo(f"CPU per move: A {s['cpu_per_move_a']:.4f} s, B {s['cpu_per_move_b']:.4f} s")
            click.echo(f"final_score disagreements: {s['final_score_mismatches']}")
    if result.status == "interrupted":
        exit_interrupted()
    if result.status == ENGINE_FAILED:
        raise click.ClickException(result.error or ENGINE_FAILED)

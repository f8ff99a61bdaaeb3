"""The one ``play`` and ``playout`` for every game: ``kibitz <game> play`` and ``kibitz <game> playout``.

Both are built from the game's :class:`~puzzles.game.GameInfo`: its player
range and its options (each :class:`~puzzles.game.GameOption` becomes a click
option), and bots named by ``solvers.bots.make_bot`` specs.  A game group adds
them with :func:`add_play_commands`; game-specific extras (saving a record,
a custom board view) come in through :class:`PlayHooks`.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click

from commands.common import (
    SECONDS,
    ProgressReporter,
    checkpoint_option,
    emit_json,
    exit_interrupted,
    friendly_errors,
    parallel_options,
    quiet_option,
    repair_option,
    verify_option,
)

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

#: Below this many games a playout runs in this process unless --workers says otherwise.
SMALL_JOB = 200


@dataclass
class PlayHooks:
    """Game-specific additions to the generic ``play`` command.

    ``options``: extra click options; ``finish(state, moves, extra, as_json) -> dict``
    runs after the game with those options' values (e.g. to save a record) and
    returns extra JSON fields (an option whose name ends in ``_out`` is an output file: it is
    checked before the game starts, so a bad path never costs a played game); ``show(state, seat)`` is the board a human sees; ``notation`` tells a
    human how moves are typed; ``hinter(state)``: given the starting state, the bot a human's ``hint``
    asks (None: the default hint bot).  ``notation`` may be a function of the state (a game whose
    notation depends on its mode); ``legal_text(state, filter_text)`` answers a human's ``?``/``moves``
    (grouped, filtered; None: the moves wrapped to the terminal).
    """

    options: list[Decorator] = field(default_factory=list)
    finish: Callable[[Any, list[str], dict[str, Any], bool], dict[str, Any]] | None = None
    show: Callable[[Any, int], str] | None = None
    notation: str | Callable[[Any], str] | None = None
    legal_text: Callable[[Any, str], str] | None = None
    hinter: Callable[[Any], Any] | None = None
    #: Hidden-information games with human seats (see :func:`secret_keepers`): ``redact(state, result, seats)``
    #: returns the JSON result with only what those seats may see (e.g. scores without an opponent's secret
    #: goal); ``show_public(state)`` is the board every seat may see (several humans at one terminal; None:
    #: no board is printed for them); ``svg(state, seat)`` is the picture ``--svg`` writes for a seat (None:
    #: the public view); without it ``--svg`` is refused for such a game.
    redact: Callable[[Any, dict[str, Any], list[int]], dict[str, Any]] | None = None
    show_public: Callable[[Any], str] | None = None
    svg: Callable[[Any, int | None], str] | None = None


class _BotsOption(click.Option):
    """``--bots``, whose help names the game's bots: read from its bots module only when help is shown."""

    def __init__(self, *args: Any, game: str, tail: str, humans: bool, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.game, self.tail, self.humans = game, tail, humans

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from solvers.bots import bot_factories

        names = ", ".join(name for name in bot_factories(self.game) if self.humans or name != "human")
        self.help = f"Per seat, comma-separated name[:budget] (one fills every seat). Bots: {names}. {self.tail}".strip()
        return super().get_help_record(ctx)


def bots_option(game: str, default: str | None, tail: str, humans: bool) -> Decorator:
    """The ``--bots`` option of ``play``/``playout`` (checked against ``game``'s bots; help lists them,
    ``human`` only where ``humans``)."""
    from solvers.bots import BotListType

    return click.option("--bots", type=BotListType(game), default=default, show_default=default is not None,
                        cls=_BotsOption, game=game, tail=tail, humans=humans)


def _game_option_decorators(game: str) -> list[Decorator]:
    """One click option per GameOption of ``game`` (flags for booleans, choices where given)."""
    from puzzles.game import game_info

    decorators: list[Decorator] = []
    for option in game_info(game).options:
        flag = "--" + option.name.replace("_", "-")
        if isinstance(option.default, bool):
            decorators.append(click.option(flag, option.name, is_flag=True, default=option.default, help=option.help))
            continue
        kind: Any = click.Choice([str(c) for c in option.choices]) if option.choices else None
        if kind is None:
            kind = option.value_type or (type(option.default) if option.default is not None else None)
        decorators.append(click.option(flag, option.name, type=kind, default=option.default, show_default=True,
                                       help=option.help))
    return decorators


def _typed_options(game: str, values: dict[str, Any]) -> dict[str, Any]:
    """Click gives choices as text: turn each back into the GameOption's own value."""
    from puzzles.game import game_info

    typed = {}
    for option in game_info(game).options:
        value = values.pop(option.name)
        if option.choices and value is not None:
            value = next(c for c in option.choices if str(c) == str(value))
        typed[option.name] = value
    return typed


def _apply(decorators: Sequence[Decorator], func: Callable[..., Any]) -> Callable[..., Any]:
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def play_command(game: str, default_bots: str, hooks: PlayHooks | None = None) -> click.Command:
    """``play``: one game between bots and/or humans, move by move on the terminal (or as JSON)."""
    from puzzles.game import GAMES

    info = GAMES[game]
    hooks = hooks or PlayHooks()

    def play(players: int | None, bots: list[str] | None, seed: int, load: str | None, svg: str | None,
             as_json: bool, **rest: Any) -> None:
        from solvers.bots import HumanBot, QuitGame, bot_factories, make_bot, parse_bot_list
        from solvers.playout import play_game
        from solvers.warmup import ensure_game_compiled

        options = _typed_options(game, rest)
        for path in [svg, *(value for name, value in rest.items() if name.endswith("_out"))]:
            check_writable(path)
        state, log, record = _starting_game(game, load, players, seed, options)
        seed, options, bots = record.seed, record.options, bots or record.extra.get("bots")
        if bots is None:  # the default line-up, its last bot repeated to fill every seat
            defaults = default_bots.split(",")
            bots = [defaults[min(seat, len(defaults) - 1)] for seat in range(state.num_players)]
        specs = parse_bot_list(game, ",".join(bots), state.num_players)
        seat_bots = [make_bot(game, spec) for spec in specs]
        ensure_game_compiled(game)  # says so first, when the kernels are not compiled yet
        log.viewers = secret_keepers(state, seat_bots)
        if svg is not None and log.viewers and hooks.svg is None:
            raise ValueError(f"--svg with a human seat is not available in {info.title} (the picture would show"
                             " hidden information); give it to a game of bots")
        hint_spec = "greedy" if "greedy" in bot_factories(game) else "mcts:200"
        for bot in seat_bots:
            if isinstance(bot, HumanBot):
                hinter = hooks.hinter(state) if hooks.hinter is not None else make_bot(game, hint_spec)
                _seat_human(bot, hooks, hinter, as_json, lambda: log.record(record, specs))
        if not as_json:
            click.echo(f"{info.title}: {', '.join(f'seat {i + 1} {b}' for i, b in enumerate(specs))}; seed {seed}"
                       f"{f' (continued from {load})' if load else ''}")
        log.echo = None if as_json else specs
        status = "complete"
        try:
            play_game(state, seat_bots, random.Random(seed), log.on_move, log.on_undo)
        except QuitGame:
            status = "quit"
            click.echo(f"game stopped (quit) after {len(log.moves)} moves", err=True)
        except KeyboardInterrupt:
            status = "interrupted"
            click.echo(f"game interrupted after {len(log.moves)} moves", err=True)
        extra = hooks.finish(state, log.moves, rest, as_json) if hooks.finish else {}
        if svg is not None:
            picture = hooks.svg(state, _one(log.viewers)) if log.viewers and hooks.svg else state._repr_svg_()
            Path(svg).write_text(str(picture), encoding="utf-8")
            extra["svg"] = svg
        _print_game(Ending(game, state, status, seed, specs, options, extra), log, hooks, as_json)
        if status == "interrupted":
            exit_interrupted()

    decorators: list[Decorator] = [
        click.option("--players", type=click.IntRange(info.min_players, info.max_players), default=None,
                     help=f"Seats ({info.min_players}-{info.max_players}; default {info.default_players})."),
        bots_option(game, None, f"[default: {default_bots}]", True),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Seed of the deal and of every random choice (printed; the same seed, the same game)."),
        click.option("--load", type=click.Path(dir_okay=False), default=None,
                     help="Continue a game saved with 'save FILE' during play."),
        click.option("--svg", type=click.Path(dir_okay=False, writable=True), default=None,
                     help="Write a picture of the final position (SVG) to this file."),
        *_game_option_decorators(game),
        *hooks.options,
        click.option("--json", "as_json", is_flag=True, help="Print the moves and the result as JSON."),
    ]
    return click.command("play", help=f"Play {info.title}: bots and humans (bot 'human'), one per seat.")(
        _apply(decorators, friendly_errors(play)))


def _seat_human(bot: Any, hooks: PlayHooks, hinter: Any, as_json: bool, save_extra: Callable[[], dict[str, Any]]) -> None:
    """Set up a human seat: the game's board view and move notation, a hint bot, where its view goes,
    and the record ``save FILE`` writes (the game so far; the position rides along as a cached copy)."""
    if hooks.show is not None:
        bot.show = hooks.show
    if hooks.notation is not None:
        bot.notation = hooks.notation
    if hooks.legal_text is not None:
        bot.legal_hook = hooks.legal_text
    bot.hinter = hinter
    if as_json:  # stdout carries only the JSON result; the human's view goes to stderr
        bot.stream = sys.stderr
    bot.save_extra = save_extra


#: A chance action the human seat(s) did not see, as it appears in the ``moves`` of ``play --json``.
HIDDEN_MOVE = "?"


def secret_keepers(state: Any, seat_bots: Sequence[Any]) -> list[int]:
    """The human seats of a hidden-information game: whatever ``play`` prints shows only what they may see
    ([] for a perfect-information game or a game of bots only: then everything is printed)."""
    from puzzles.game import Information
    from solvers.bots import HumanBot

    if state.info.information is Information.PERFECT:
        return []
    return [seat for seat, bot in enumerate(seat_bots) if isinstance(bot, HumanBot)]


def _one(seats: list[int]) -> int | None:
    """The one human seat, or None when several share the terminal (then only the public view is shown)."""
    return seats[0] if len(seats) == 1 else None


def chance_seen(before: Any, action: Any, seats: Sequence[int]) -> bool:
    """Whether each of ``seats`` learns chance outcome ``action``: no other outcome (of this state, or of a
    redraw of what the seat cannot see, which stands for what it cannot rule out) would leave its observation
    as this one does.  An opponent's draw is not seen, one's own draw is, even when it is forced.

    A game whose chance outcomes are only sampled (not listed) deals them face up (a Shelfie refill lands
    on the board): seen.
    """
    from puzzles.game import ChanceMode

    if before.info.chance is not ChanceMode.EXPLICIT:
        return True
    for seat in seats:
        seen = _observed_after(before, action, seat)
        for state in (before, before.resample(seat, random.Random(0))):
            if any(outcome != action and _observed_after(state, outcome, seat) == seen
                   for outcome, _ in state.chance_outcomes()):
                return False
    return True


def _observed_after(before: Any, action: Any, seat: int) -> dict[str, Any]:
    after = before.clone()
    after.apply(action)
    return dict(after.observation(seat))


@dataclass
class MoveLog:
    """The moves of a ``play``: all of them (``moves``, for a save and the game's finish hook) and as the
    human seats ``viewers`` saw them (``seen``: a chance action they did not see is :data:`HIDDEN_MOVE`);
    ``echo`` (the bot specs) prints each player's move as it is made.

    ``setup``: the actions that set up a puzzle before the game (a towers challenge; not shown as moves);
    ``base``: how many of ``moves`` a loaded game brought (an undo counts the actions of this run after them).
    """

    moves: list[str]
    seen: list[str]
    viewers: list[int] = field(default_factory=list)
    echo: list[str] | None = None
    setup: list[str] = field(default_factory=list)
    base: int = 0

    def record(self, start: Any, specs: list[str]) -> dict[str, Any]:
        """The record ``save FILE`` writes: ``start`` (the record the game began from) with every action
        played since, the bots and the moves as the human seats saw them (no cached state: the saver adds it)."""
        from dataclasses import replace

        actions = (*self.setup, *self.moves)
        played = replace(start, actions=actions, setup=len(self.setup), extra={"bots": specs, "moves_seen": self.seen})
        return dict(played.to_json())

    def on_move(self, before: Any, player: int, action: Any) -> None:
        from puzzles.game import CHANCE

        text = before.action_to_string(action)
        self.moves.append(text)
        visible = player != CHANCE or chance_seen(before, action, self.viewers)
        self.seen.append(text if visible else HIDDEN_MOVE)
        if self.echo is not None and player != CHANCE:
            click.echo(f"{len(self.moves):3d}. seat {player + 1} ({self.echo[player]}): {text}")

    def on_undo(self, kept: int | None) -> None:
        if kept is None:
            click.echo("  nothing to undo yet", err=True)
            return
        kept += self.base  # play_game counts the actions of this run; a loaded game's come first
        click.echo(f"  took back {len(self.moves) - kept} moves", err=True)
        del self.moves[kept:]
        del self.seen[kept:]


@dataclass
class Ending:
    """How a ``play`` ended: the final state, why it stopped, and what the JSON result carries."""

    game: str
    state: Any
    status: str
    seed: int
    specs: list[str]
    options: dict[str, Any]
    extra: dict[str, Any]


def _print_game(end: Ending, log: MoveLog, hooks: PlayHooks, as_json: bool) -> None:
    """The end of ``play``: the moves and the result as JSON, or the final board and the scores; with human
    seats in a hidden-information game, only what they may see."""
    state, viewers = end.state, log.viewers
    result = {"game": end.game, "status": end.status, "interrupted": end.status == "interrupted", "seed": end.seed,
              "bots": end.specs, "options": end.options, "moves": log.seen if viewers else log.moves,
              "scores": state.scores(), "returns": state.returns() if state.is_terminal() else None, **end.extra}
    if viewers and hooks.redact is not None:
        result = hooks.redact(state, result, viewers)
    if as_json:
        emit_json(result)
        return
    board = _final_board(state, viewers, hooks)
    if board:
        click.echo(board)
    scores = ", ".join(f"seat {i + 1} ({end.specs[i]}): {s:g}" for i, s in enumerate(result["scores"]))
    label = "final scores" if end.status == "complete" else "scores so far"
    if viewers and not state.is_terminal():
        label += " (the points others can see)" if len(viewers) > 1 else f" (as seat {viewers[0] + 1} sees them)"
    click.echo(f"{label}: {scores}")


def _final_board(state: Any, viewers: list[int], hooks: PlayHooks) -> str:
    """The last board: the whole state for bots only; the one human's own view; else the public view."""
    from solvers.bots import state_text

    if not viewers:
        return state_text(state)
    if len(viewers) == 1 and hooks.show is not None:
        return hooks.show(state, viewers[0])
    if hooks.show_public is not None:
        return hooks.show_public(state)
    seats = ", ".join(str(seat + 1) for seat in viewers)
    return f"(no board: seats {seats} share this terminal and each has something the others may not see)"


def check_writable(path: str | None) -> None:
    """Refuse an output path that cannot be written before any work is done (ValueError, one line);
    None (no output asked for) passes."""
    if path is None:
        return
    target = Path(path)
    if target.is_dir():
        raise ValueError(f"{path} is a directory")
    if not target.parent.exists():
        raise ValueError(f"cannot write {path}: no directory {target.parent}")


def _starting_game(game: str, load: str | None, players: int | None, seed: int,
                   options: dict[str, Any]) -> tuple[Any, MoveLog, Any]:
    """The state to play from, the moves made so far and the game's record (seed, options, saved bots in
    ``extra["bots"]``): a new game, or one saved with ``save FILE`` (or a towers challenge), replayed."""
    from puzzles.game import GAMES, GameRecord

    if load is None:
        state = GAMES[game].new_game(players, seed, **options)
        return state, MoveLog([], []), GameRecord(game, state.num_players, seed, state.info.check_options(options), ())
    record, state, texts = _load_game(game, load)
    moves = texts[record.setup:]
    try:
        seen = _seen_moves(record.extra.get("moves_seen"), moves, list(record.actions[record.setup:]))
        _check_saved_bots(game, record)
    except ValueError as error:
        raise ValueError(f"{load}: {error}") from None
    return state, MoveLog(moves, seen, setup=texts[:record.setup], base=len(moves)), record


def _load_game(game: str, path: str) -> tuple[Any, Any, list[str]]:
    """The record of a game saved by a human's ``save FILE`` (or a towers challenge), the position its actions
    replay to through the rules, and their canonical texts; ValueError (one line naming the file and the field)
    if it is not one."""
    from puzzles.game import load_record
    from puzzles.safe_json import load_json_file

    data = load_json_file(path)
    if isinstance(data, dict) and "format" not in data and "state" in data:
        data = _old_save(data, path)
    try:
        return load_record(data, game)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from None


def _old_save(data: dict[str, Any], path: str) -> dict[str, Any]:
    """A save of the format before records (a state, with its moves): as a record, to be replayed and checked
    like any other; one without its moves (an old challenge file) is refused."""
    from puzzles.game import RECORD_FORMAT, RECORD_VERSION

    moves, bots = data.get("moves"), data.get("bots")
    if not isinstance(moves, list) or not isinstance(bots, list):
        raise ValueError(f"{path}: an old save or challenge file without its actions: it cannot be checked against"
                         " the rules, so it is not loaded (play or generate it again)")
    fields: dict[str, Any] = {key: data[key] for key in ("game", "seed", "options", "state", "moves_seen") if key in data}
    return {"format": RECORD_FORMAT, "version": RECORD_VERSION, "players": len(bots), "actions": moves,
            "bots": bots, **fields}


def _seen_moves(seen: Any, moves: list[str], written: list[str]) -> list[str]:
    """The moves as the human seats saw them (a saved ``moves_seen``: each the move played, or
    :data:`HIDDEN_MOVE`), checked against the moves; all of them when none was saved."""
    if seen is None:
        return moves[:]
    if not isinstance(seen, list) or len(seen) != len(moves):
        raise ValueError(f"moves_seen: must list the {len(moves)} moves played, each as played or {HIDDEN_MOVE!r}")
    for index, (shown, move, text) in enumerate(zip(seen, moves, written, strict=True)):
        if shown not in (HIDDEN_MOVE, move, text):
            raise ValueError(f"moves_seen[{index}]: not the move played ({move}) nor {HIDDEN_MOVE!r}")
    return [HIDDEN_MOVE if shown == HIDDEN_MOVE else move for shown, move in zip(seen, moves, strict=True)]


def _check_saved_bots(game: str, record: Any) -> None:
    """A saved ``bots`` field (optional): one bot spec of the game per seat."""
    from solvers.bots import parse_bot_list

    bots = record.extra.get("bots")
    if bots is None:
        return
    if not isinstance(bots, list) or not all(isinstance(spec, str) for spec in bots):
        raise ValueError("bots: must be a list of bot names, one per seat")
    try:
        parse_bot_list(game, ",".join(bots), record.players)
    except ValueError as error:
        raise ValueError(f"bots: {error}") from None


def _check_integrity_options(checkpoint: str | None, repair: bool, verify: int, bots: Sequence[str]) -> None:
    """``--repair``/``--verify`` need a checkpoint; ``--verify`` needs games that replay alike (no time budgets)."""
    from solvers.bots import split_spec

    if (repair or verify) and not checkpoint:
        raise ValueError("--repair and --verify work on a --checkpoint FILE")
    timed = [spec for spec in bots if getattr(split_spec(spec)[1], "seconds", None) is not None]
    if verify and timed:
        raise ValueError(f"--verify replays finished games, but {timed[0]} thinks for a time, not a count: "
                         "its games do not replay alike")


def playout_command(game: str) -> click.Command:
    """``playout``: a seeded series of bot-vs-bot games with win rates, intervals and mean scores."""
    from puzzles.game import GAMES

    info = GAMES[game]

    def playout(games: int, players: int | None, bots: list[str], seed: int, rotate: bool, workers: int | None,
                scheduler: str | None, checkpoint: str | None, time_limit: float | None, as_json: bool, quiet: bool,
                repair: bool = False, verify: int = 0, **rest: Any) -> None:
        from solvers.playout import PlayoutsLost, make_job, run_playouts_parallel
        from solvers.warmup import ensure_game_compiled

        if "human" in [spec.partition(":")[0] for spec in bots]:
            raise click.BadParameter("a playout has no human seats", param_hint="--bots")
        job = make_job(game, bots, players, seed, rotate, _typed_options(game, rest))
        _check_integrity_options(checkpoint, repair, verify, job.bots)
        ensure_game_compiled(game)  # here, once, not in every worker
        if workers is None and scheduler is None and games < SMALL_JOB:
            workers = 1
        progress = ProgressReporter(games, f"{game} playouts", enabled=not quiet, unit="game")
        started = time.monotonic()

        def advance(done: int, _total: int) -> None:
            progress.advance(done - progress.done)

        interrupted = False
        failure = ""
        try:
            stats, complete = run_playouts_parallel(job, games, workers, scheduler,
                                                    Path(checkpoint) if checkpoint else None, advance, time_limit,
                                                    repair, verify)
        except KeyboardInterrupt:  # a second Ctrl-C while the first one was being handled
            raise SystemExit(130) from None
        except PlayoutsLost as lost:  # the games finished are printed, then the one-line error
            stats, complete, failure = lost.stats, False, str(lost)
        finally:
            progress.close()
        if not complete and not failure:
            interrupted = not (time_limit is not None and time.monotonic() - started >= time_limit)
        status = "complete" if complete else "lost" if failure else "interrupted" if interrupted else "time limit"
        summary = {"game": game, "players": job.players, "bots_by_seat": list(job.bots), "seed": seed,
                   "rotate": rotate, "options": dict(job.options), "status": status,
                   "interrupted": interrupted, "time_limit": time_limit,
                   "games_requested": games, **stats.summary()}
        if checkpoint:
            summary["checkpoint"] = checkpoint
        if as_json:
            emit_json(summary)
        else:
            click.echo(f"{summary['games']} of {games} games of {info.title} ({summary['status']}), seed {seed}"
                       f"{', seats rotated' if rotate else ''}")
            for row in summary["bots"]:
                low, high = row["win_ci95"]
                click.echo(f"  {row['bot']:<16} wins {row['win_rate']:6.1%}  [{low:.1%}, {high:.1%}]"
                           f"  mean score {row['mean_score']:.2f}")
            seats = "  ".join(f"{rate:.1%}" for rate in summary["seat_win_rates"])
            click.echo(f"  wins by seat: {seats}")
            if not complete and not failure:
                again = f"; run the same command again to resume from {checkpoint}" if checkpoint else ""
                click.echo(f"{summary['status']}: {summary['games']} finished games kept{again}", err=True)
        if failure:
            raise click.ClickException(f"{failure}; {summary['games']} finished games are counted above")
        if interrupted:
            exit_interrupted()

    decorators: list[Decorator] = [
        click.option("--games", type=click.IntRange(min=1), default=100, show_default=True),
        click.option("--players", type=click.IntRange(info.min_players, info.max_players), default=None,
                     help=f"Seats ({info.min_players}-{info.max_players}; default {info.default_players})."),
        bots_option(game, "random", "", False),
        click.option("--seed", type=int, default=0, show_default=True),
        click.option("--rotate/--no-rotate", default=True, show_default=True,
                     help="Rotate the bots through the seats, one seat per game."),
        *_game_option_decorators(game),
        parallel_options,
        checkpoint_option("JSON-lines file of finished games: resumed if it exists, appended as games finish."),
        repair_option,
        verify_option,
        click.option("--time-limit", type=SECONDS, default=None,
                     help="Stop after this many seconds with the games finished (status 'time limit')."),
        click.option("--json", "as_json", is_flag=True, help="Machine-readable output."),
        quiet_option,
    ]
    return click.command("playout", help=f"Play a seeded series of {info.title} games between bots.")(
        _apply(decorators, friendly_errors(playout)))


def add_play_commands(group: click.Group, game: str, default_bots: str, hooks: PlayHooks | None = None) -> None:
    """Give ``group`` the generic ``play`` and ``playout`` commands of ``game``."""
    group.add_command(play_command(game, default_bots, hooks))
    group.add_command(playout_command(game))

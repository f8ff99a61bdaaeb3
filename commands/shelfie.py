"""`kibitz shelfie`: My Shelfie: play, bot playouts, score a shelf, the perfect shelf.

``play`` and ``playout`` are the generic commands of :mod:`commands.play` (bots by
``make_bot`` spec, the game's options from its GameInfo); shelfie adds the final breakdown to
``play --json`` and shows a human only their own personal card.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from commands.common import (
    SECONDS,
    WORKERS,
    ProgressReporter,
    emit_json,
    exit_interrupted,
    friendly_errors,
    option_with_hidden_alias,
    quiet_option,
)
from commands.pictures import check_svg_path, svg_option, write_svg
from commands.play import PlayHooks, add_play_commands


def _shelfie_goal_pair(text: str | None) -> tuple[str, str] | None:
    from puzzles.shelfie.rules import check_goal_key

    if not text:
        return None
    keys = tuple(check_goal_key(k) for k in text.split(",") if k.strip())
    if len(keys) != 2 or keys[0] == keys[1]:
        raise ValueError(f"--goals needs two different keys separated by a comma, got {text!r}")
    return keys  # type: ignore[return-value]


@click.group()
def shelfie() -> None:
    """My Shelfie: play, bot playouts, score a shelf, the perfect shelf."""


def _finish(state: Any, moves: list[str], extra: dict[str, Any], as_json: bool) -> dict[str, Any]:
    """The end of ``play``: who won and how each shelf scored (for --json)."""
    return {
        "common_goals": list(state.common_goals),
        "personal_cards": list(state.personal_cards),
        "breakdown": [state.score_breakdown(s) for s in range(state.num_players)],
        "winner": state.winner(),
        "shelves": [state.shelf(s).rows() for s in range(state.num_players)],
    }


def _seat_view(state: Any, seat: int) -> str:
    from solvers.shelfie.bots import seat_view

    return seat_view(state, seat)


def _redact(state: Any, result: dict[str, Any], seats: list[int]) -> dict[str, Any]:
    """``play`` with human ``seats``: until the game is over (when the rules turn the cards face up), each
    other seat's personal card and the points it gives stay hidden (several humans: everyone's)."""
    if state.game_over:
        return result
    own = seats[0] if len(seats) == 1 else None
    public = state.observation(seats[0])["public_points"]
    result["scores"] = [score if seat == own else float(public[seat]) for seat, score in enumerate(result["scores"])]
    result["personal_cards"] = [card if seat == own else None for seat, card in enumerate(result["personal_cards"])]
    result["breakdown"] = [parts if seat == own else {**parts, "personal_goal": None, "total": public[seat]}
                           for seat, parts in enumerate(result["breakdown"])]
    result["winner"] = None
    return result


def _public_view(state: Any) -> str:
    """What every seat may see: no personal card until the game is over."""
    from puzzles.shelfie.render import PUBLIC

    return str(state.render_text(viewer=None if state.game_over else PUBLIC, color=sys.stdout.isatty()))


def _seat_svg(state: Any, seat: int | None) -> str:
    """``play --svg`` with human seats: that seat's picture (None: the public one); every card once it is over."""
    return str(state.picture(seat))


add_play_commands(shelfie, "shelfie", "human,greedy", PlayHooks(finish=_finish, show=_seat_view, redact=_redact,
                                                                show_public=_public_view, svg=_seat_svg))


@shelfie.command("score")
@click.argument("shelf_file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--personal", type=click.IntRange(1, 12), default=None, help="Personal goal card 1..12.")
@click.option("--goals", default=None, help="Common goals K1,K2 to check (default: all 12).")
@click.option("--loose", is_flag=True, help="Accept shelves that break gravity/supply (analysis).")
@click.option("--squares-inside-groups", is_flag=True, help="TWO_SQUARES: squares may sit inside larger groups.")
@click.option("--squares-same-type", is_flag=True, help="TWO_SQUARES: both squares of one type.")
@svg_option("the shelf (the personal card's cells outlined)")
@click.option("--json", "as_json", is_flag=True)
@friendly_errors
def shelfie_score(shelf_file: str, personal: int | None, goals: str | None, loose: bool,
                  squares_inside_groups: bool, squares_same_type: bool, svg_out: str | None, as_json: bool) -> None:
    """Score a shelf file: 6 rows of 5 letters C B G F T P or '.', row 1 = top."""
    from puzzles.safe_json import MAX_JSON_BYTES, read_limited_text
    from puzzles.shelfie.rules import (
        COMMON_GOAL_KEYS,
        LETTERS,
        Bookshelf,
        adjacency_points,
        common_goal_met,
        groups,
        personal_goal_points,
    )
    from solvers.warmup import ensure_compiled

    text = sys.stdin.read(MAX_JSON_BYTES + 1) if shelf_file == "-" else read_limited_text(shelf_file, max_bytes=65536)
    check_svg_path(svg_out)
    shelf = Bookshelf.from_text(text, strict=not loose)
    write_svg(svg_out, lambda: shelf.to_svg(personal=personal))
    keys = _shelfie_goal_pair(goals) or COMMON_GOAL_KEYS
    ensure_compiled("shelfie")  # scoring runs the rules kernel
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
@click.option("--time-limit", type=SECONDS, default=None,
              help="Stop after this many seconds with the best shelf and its bound [default: run until proven].")
@option_with_hidden_alias("--threads", "--workers", "threads", type=WORKERS, default=2,
                          show_default=True, help="CP-SAT threads (proof pieces solved side by side).")
@click.option("--seed", type=int, default=0, show_default=True, help="CP-SAT and hill-climb seed.")
@click.option("--squares-inside-groups", is_flag=True)
@click.option("--squares-same-type", is_flag=True)
@svg_option("the best shelf found (the personal card's cells outlined)")
@click.option("--json", "as_json", is_flag=True)
@quiet_option
@friendly_errors
def shelfie_best_shelf(personal: int, goals: str, time_limit: float | None, threads: int, seed: int,
                       squares_inside_groups: bool, squares_same_type: bool, svg_out: str | None, as_json: bool,
                       quiet: bool) -> None:
    """The highest final score a shelf can reach (CP-SAT): top tokens and end token assumed.

    Runs until the score is proven optimal (progress on stderr; Ctrl-C or --time-limit stop it with
    the best shelf found and an upper bound).
    """
    from solvers.warmup import ensure_compiled

    pair = _shelfie_goal_pair(goals)
    if pair is None:
        raise ValueError("--goals needs two different keys separated by a comma")
    check_svg_path(svg_out)
    ensure_compiled("shelfie")
    progress = ProgressReporter(None, "proof pieces", enabled=not quiet, unit="piece")

    def show(best: int | None, bound: float, done: int, still_open: int) -> None:
        progress.advance(done - progress.done, f"best {best}, bound {bound:g}, {still_open} open")

    try:
        from solvers.shelfie.best_shelf import best_shelf

        result = best_shelf(personal, pair, time_limit=time_limit, workers=threads, seed=seed,
                            squares_inside_groups=squares_inside_groups, squares_same_type=squares_same_type,
                            progress=show)
    except KeyboardInterrupt:
        progress.close()
        if as_json:
            emit_json({"personal": personal, "goals": list(pair), "status": "UNKNOWN", "verdict": "unknown",
                       "interrupted": True, "shelf": None, "score": None})
        else:
            click.echo("unknown: interrupted before any shelf was found")
        exit_interrupted()
        return
    finally:
        progress.close()
    write_svg(svg_out, lambda: result.shelf.to_svg(personal=personal))
    if as_json:
        emit_json(result.to_json())
    else:
        click.echo("\n".join(result.shelf.rows()))
        parts = ", ".join(f"{k} {v}" for k, v in result.breakdown.items())
        click.echo(f"score {result.score} ({parts}); {result.verdict()}; {result.seconds:.1f} s, seed {seed}")
    if result.interrupted:
        exit_interrupted()

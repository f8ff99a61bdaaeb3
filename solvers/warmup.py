"""Compiling the kernels as a visible, one-time step.

The just-in-time compiler compiles a kernel the first time it runs and caches the machine code on disk, in the
directory keyed by the kernel sources (the cache module of ``puzzles``).  The kernels are grouped by what uses them
(:data:`GROUPS`); each group compiles by doing a tiny piece of the real work, through the same calls the
commands make, so that it compiles exactly the variants they use.  A group that has run leaves a mark in the
cache directory: :func:`ensure_compiled` (called by the commands before their work) says "compiling ..." on
stderr only when a group has no mark yet, and ``kibitz warmup`` compiles every group at once, in parallel.
This module holds no kernel itself, so editing it keeps the cache.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class KernelGroup:
    """Kernels compiled together: what they are (words for a person), about how long a cold compile takes
    here (seconds, measured by ``bench/compile_times.py`` on a 2-core machine) and the work that compiles them."""

    name: str
    what: str
    seconds: int
    compile: Callable[[], None]


def _compile_tilings() -> None:
    """``kibitz tile`` and ``generate tiling``: dancing links and the bit-parallel engine, find, list and count."""
    from puzzles.polyomino import Region
    from solvers.exact_cover import parse_knuth
    from solvers.tiling import SearchLimits, TilingProblem, load_pieces

    problem = TilingProblem.from_spec(Region.from_spec("3x20"), load_pieces("pentominoes"), "exact", True)
    problem.search("dlx")
    problem.counts(SearchLimits())
    next(iter(problem.tilings(unique=True)))
    list(parse_knuth("p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B").solutions())


def _compile_solitaire() -> None:
    """``kibitz blokus solitaire tetrominoes``: the coloured search (find, count, Knuth estimate)."""
    from puzzles.polyomino import Region
    from solvers.blokus.tetromino_search import estimate_canonical
    from solvers.blokus.tetrominoes import ColoredTilingProblem

    problem = ColoredTilingProblem(Region.from_spec("8x5"), 2, edge_rule=False)
    problem.count(depth=3, workers=1)
    problem.count(depth=3, workers=1, engine="split")  # the split method (solvers/blokus/tetromino_split.py)
    problem.count(depth=3, workers=1, engine="bitset")
    problem.split_search().estimate(20)
    from solvers.blokus.tetromino_dp import dp_count

    dp_count(ColoredTilingProblem(Region.from_spec("10x2"), 1))  # the frontier DP and its symmetry search
    seed_rule = ColoredTilingProblem(Region.from_spec("10x8"), 4)
    seed_rule.find("dlx")
    seed_rule.find("bitset")
    estimate_canonical(seed_rule, 20, 0, -1, None)


def _playouts(game: str, bots: list[str], games: int, players: int | None = None, **options: object) -> None:
    """A few seeded games, through the same path as ``kibitz <game> playout``."""
    from solvers.playout import make_job, run_playouts_parallel

    _, complete = run_playouts_parallel(make_job(game, bots, players, 7, True, dict(options) or None), games, workers=1)
    if not complete:  # Ctrl-C while compiling, kept by the playout: stop the command, leave the group unmarked
        raise KeyboardInterrupt


def _compile_blokus() -> None:
    """Blokus: the move generator and rules (perft, a typed move's check), the random, greedy, MCTS and mcts-rave
    bots, a batch of random games in one call (``solvers.blokus.bots.random_games``) and the all-pieces solitaire's
    search."""
    from puzzles.blokus.engine import BlokusState, perft
    from solvers.blokus.bots import random_games
    from solvers.blokus.solitaire import solve_all_pieces

    state = BlokusState("classic", False)
    perft(state, 2)
    state.illegal_reason(state.legal_actions()[0])
    for strong in (False, True):  # the two waste bounds; each call compiles, then stops at its time limit
        solve_all_pieces(time_limit=0.1, board=(10, 10), colors=1, symmetric=False, strong=strong)
    _playouts("blokus", ["mcts-rave:8", "greedy"], 2, variant="two-player")
    _playouts("blokus", ["mcts:20", "random"], 1, variant="duo")
    _playouts("blokus", ["random"], 2)
    random_games(2)


def _compile_shelfie() -> None:
    """My Shelfie: the rules kernel (a person's legal moves too) and the greedy and lookahead bots."""
    from puzzles.shelfie.engine import new_game

    new_game(2, 7).legal_actions()
    _playouts("shelfie", ["lookahead", "greedy"], 2, 2)
    _playouts("shelfie", ["random"], 2, 4)
    _playouts("shelfie", ["mcts:10", "random"], 1, 2)


def _compile_towers() -> None:
    """Rainbow Blackjack: the rules kernel, the exact solver and the bots built on it."""
    from puzzles.towers.engine import TowersState
    from solvers.towers.solver import warm_up

    warm_up()
    TowersState.from_json(TowersState.new_game(3).to_json())  # a state read from a file
    _playouts("towers", ["pimc:2", "greedy"], 2)
    _playouts("towers", ["ismcts:20", "mcts:20"], 1)
    _playouts("towers", ["random"], 200)
    _round6_equilibrium()
    _round6_announcement()


def _round6_equilibrium() -> None:
    """The round-6 equilibrium (`towers equilibrium`, the `equilibrium` bot): one CFR+ pass on a small subgame."""
    from puzzles.towers.subgame import random_round6_start
    from solvers.towers.equilibrium import solve_round6

    state = random_round6_start(3)
    assert state is not None  # seed 3's game reaches round 6 (the README's example)
    solve_round6(state, target=0.5)


def _round6_announcement() -> None:
    """The round-6 announcement subgames (the `equilibrium` bot's announcement): their compact tree has kernels of
    its own.  Seed 5's random game, its first announcement made: the second announcer's subgame (350,529 nodes)."""
    from puzzles.towers.engine import Announce
    from puzzles.towers.subgame import LAST_ROUND, random_play
    from solvers.towers.equilibrium import solve_announcements

    state = random_play(5, lambda s: s.round == LAST_ROUND and s.phase == "pick"
                        and isinstance(s.legal_actions()[0], Announce))
    assert not state.is_terminal()  # seed 5's game reaches round 6
    state.apply(state.legal_actions()[0])
    while len(state.legal_actions()) == 1:  # the other seat's line, forced in round 6
        state.apply(state.legal_actions()[0])
    assert state.phase == "pick"
    solve_announcements(state, target=0.5)


#: Every group, by name.  ``seconds``: cold compile alone on this 2-core machine (bench/compile_times.py,
#: 2026-12-03; the same kernels compiled about three times faster on 2026-12-01: the machine's speed varies).
#: towers: 43 s scaled by 40/28 s, its cold time with and without the announcement subgames here on 2026-12-06.
GROUPS: dict[str, KernelGroup] = {group.name: group for group in (
    KernelGroup("shelfie", "the My Shelfie kernels (rules, greedy and lookahead bots)", 46, _compile_shelfie),
    KernelGroup("blokus", "the Blokus kernels (move generator, greedy, mcts-rave)", 70, _compile_blokus),
    KernelGroup("towers", "the Rainbow Blackjack kernels (rules, exact solver, round-6 equilibrium)", 60, _compile_towers),
    KernelGroup("solitaire", "the coloured tetromino search", 64, _compile_solitaire),
    KernelGroup("tilings", "the tiling search (dancing links, bit-parallel)", 6, _compile_tilings),
)}

#: The groups a game's play, playout and bots use.
GAME_GROUPS: dict[str, tuple[str, ...]] = {"blokus": ("blokus",), "shelfie": ("shelfie",), "towers": ("towers",),
                                           "projectl": ()}


def _mark(name: str) -> Path | None:
    """The file that says group ``name`` has been compiled for this checkout (None: no keyed cache).

    Named by this checkout's path too: the compiler files a checkout's cached kernels under its sources'
    absolute path, so another clone of the same sources shares the keyed directory but not its kernels."""
    import puzzles  # noqa: F401  # points NUMBA_CACHE_DIR at the directory of the current kernel sources

    cache = os.environ.get("NUMBA_CACHE_DIR", "")
    if not cache:
        return None
    checkout = hashlib.sha256(str(Path(__file__).resolve().parents[1]).encode()).hexdigest()[:12]
    return Path(cache) / f"compiled-{name}-{checkout}"


def is_compiled(name: str) -> bool:
    """Whether group ``name`` has been compiled for the current kernel sources and this checkout."""
    mark = _mark(name)
    return mark is not None and mark.exists()


@contextlib.contextmanager
def _ctrl_c_noticed() -> Iterator[list[int]]:
    """Within: Ctrl-C raises KeyboardInterrupt as usual and is also noted in the list yielded (main thread only).

    The warm-up does a piece of real work, and some of it answers Ctrl-C with a partial result instead of raising
    (a count returns what it counted): the note keeps that Ctrl-C from being lost."""
    noticed: list[int] = []
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield noticed
        return

    def note_and_raise(signum: int, frame: object) -> None:
        noticed.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, note_and_raise)
    try:
        yield noticed
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def compile_group(name: str) -> float:
    """Compile group ``name`` now (load it, when cached) and mark it; the seconds it took.  A Ctrl-C meanwhile
    raises KeyboardInterrupt here (the group left unmarked), even where the warm-up work absorbed it."""
    started = time.perf_counter()
    with _ctrl_c_noticed() as noticed:
        GROUPS[name].compile()
    if noticed:
        raise KeyboardInterrupt
    seconds = time.perf_counter() - started
    mark = _mark(name)
    if mark is not None:
        with contextlib.suppress(OSError):  # a read-only cache: the notice shows again next time, nothing else changes
            mark.write_text(f"{seconds:.1f} s\n", encoding="utf-8")
    return seconds


def stderr_line(text: str) -> None:
    """One line on stderr, at once."""
    print(text, file=sys.stderr, flush=True)


def ensure_compiled(*names: str, say: Callable[[str], None] | None = stderr_line) -> list[str]:
    """Compile the groups among ``names`` that have no mark yet, each after saying so (``say``: a line on
    stderr; None: silently); the groups compiled."""
    compiled = []
    for name in dict.fromkeys(names):
        if is_compiled(name):
            continue
        group = GROUPS[name]
        if say is not None:
            say(f"compiling {group.what} (first run only, about {group.seconds} s; "
                "'kibitz warmup' compiles everything at once) ...")
        compile_group(name)
        compiled.append(name)
    return compiled


def ensure_game_compiled(game: str, say: Callable[[str], None] | None = stderr_line) -> list[str]:
    """:func:`ensure_compiled` for the kernels of ``game``'s rules and bots."""
    return ensure_compiled(*GAME_GROUPS.get(game, ()), say=say)


__all__ = ["GAME_GROUPS", "GROUPS", "KernelGroup", "compile_group", "ensure_compiled", "ensure_game_compiled",
           "is_compiled"]

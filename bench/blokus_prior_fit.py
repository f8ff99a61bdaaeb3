"""How well mcts-rave's move priors (Pentobi's learnt ``gamma`` features) predict strong players' moves, and a refit.

The prior of a move is a product of feature weights (:func:`solvers.blokus.mcts.priors.compute_gammas`), so its log
is linear in the move's feature counts: ``log gamma = w . x``.  A prior is then a softmax policy over the moves kept
(the pieces Pentobi considers at the stage), and a conditional logit fitted to recorded moves by maximum likelihood
(L2-regularised, Newton's method) is the "learned move priors" of issue 32 in its smallest form.

Data: the moves of recorded Duo matches against Pentobi (``bench/results/*.json``, both sides: level 7 to 9 and kibitz
at their CPU; not the matches kibitz played with the fitted priors), replayed through the rules; with ``--variant
classic``, the Classic matches against level 7 (all four seats), stages of the game at twice Duo's piece counts.  The feature counts
come from ``compute_gammas`` itself, called once per feature with that feature's weight set to e and the others to 1
(so no second copy of the feature code); ``--pieces`` adds a weight per piece and stage of the game.  Games are split
into halves by their number (even: fit, odd: test); the table gives each weight set's mean log-likelihood and top-1 /
top-5 agreement on both halves.  ``--module`` writes the fitted weights as ``solvers/blokus/mcts/fitted.py`` (the knob
``fitted_priors``), ``--json`` as numbers.

    python bench/blokus_prior_fit.py bench/results/blokus_duo_l[789]*.json --pieces --module solvers/blokus/mcts/fitted.py
    python bench/blokus_prior_fit.py bench/results/blokus_classic_l7*.json --variant classic --pieces \
        --module solvers/blokus/mcts/fitted_classic.py

A file whose kibitz side played with the fitted priors is skipped: its recorded knobs in effect (``settings_a``) say
``fitted_priors=1``, or, in a file recorded before matches recorded them, its label names the knob.  The fitted priors
are mcts-rave's default in Duo since 2026-12-06 (``20fe1f4``); the two level-8 files played with that default before
matches recorded their settings (``blokus_duo_l8_default1100k_s114``, ``_s115``) had their ``settings_a`` added after
the fact.  To reproduce ``fitted.py`` byte for byte, run the command on the files of ``e83db69``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

from puzzles.blokus.engine import BlokusState
from puzzles.blokus.tables import NUM_PIECES
from solvers.blokus.mcts.driver import Params, pieces_on_board, recent_placements
from solvers.blokus.mcts.priors import GAMMA_TEMPERATURE, N_GAMMAS, compute_gammas, filter_considered

# --pieces: a weight per piece in each stage (Duo: pieces on the board before 8, before 20, from 20; Classic: twice that)
STAGES_BY_VARIANT = {"duo": (8, 20), "classic": (16, 40)}


def feature_counts(state: BlokusState, params: Params, pieces: bool,
                   stages: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray] | None:
    """(moves kept, their feature counts [moves, N_GAMMAS], then with ``pieces`` one-hot piece-by-stage columns) for
    the colour to move, or None when it must pass."""
    c = state.to_move
    t = state.tables
    moves = state.legal_placements(c).astype(np.int32)
    if len(moves) == 0:
        return None
    nonboard = pieces_on_board(state)
    n = filter_considered(moves, len(moves), t.pl_piece, params.consider, nonboard)
    moves = moves[:n].copy()
    recent = recent_placements(state)
    gam = np.zeros(n, dtype=np.float64)
    keep = np.zeros(n, dtype=np.int32)
    grids = np.zeros((5, max(n, t.area)), dtype=np.float64)
    counts = np.zeros((n, N_GAMMAS), dtype=np.float64)
    for f in range(N_GAMMAS):
        unit = np.ones(N_GAMMAS, dtype=np.float64)
        unit[f] = math.e
        compute_gammas(c, moves, n, state.ktables, state.arrays, state.owner, recent, nonboard, unit, params.second,
                       params.dist, params.check_dist_pieces, params.connect_pieces, params.width, gam, keep, grids,
                       np.ones((1, NUM_PIECES), dtype=np.float64))
        counts[:, f] = np.log(gam[:n])
    kept = keep[:n] != 0
    counts = np.rint(counts * 1e6) / 1e6
    if pieces:
        stage = np.searchsorted(stages, nonboard, side="right")
        extra = np.zeros((n, NUM_PIECES * (len(stages) + 1)), dtype=np.float64)
        extra[np.arange(n), stage * NUM_PIECES + t.pl_piece[moves]] = 1.0  # the piece, by stage of the game
        counts = np.hstack([counts, extra])
    return moves[kept], counts[kept]


def played_fitted(match: dict) -> bool:
    """Whether side A of a recorded match played with the fitted priors (its knobs in effect, or its label)."""
    knobs = (match.get("settings_a") or {}).get("knobs", {})
    return knobs.get("fitted_priors") == 1.0 or "fitted_priors=1" in str(match.get("side_a", ""))


def positions(paths: list[str], pieces: bool, variant: str = "duo") -> list[tuple[int, np.ndarray, int]]:
    """(game key, feature counts, index of the move played) for every move of every ``variant`` game in ``paths``."""
    out: list[tuple[int, np.ndarray, int]] = []
    params: Params | None = None
    for p, path in enumerate(paths):
        data = json.loads(Path(path).read_text())
        if data.get("variant") != variant or played_fitted(data):
            continue  # the variant's only, and not the games played with the fitted priors themselves
        for g, game in enumerate(data.get("game_list", [])):
            state = BlokusState(variant)
            params = params or Params(state)
            for text in game["moves"]:
                while not state.is_terminal() and len(state.legal_placements()) == 0:
                    state.apply(state.legal_actions()[0])  # a pass (the records list placements only)
                move = state.string_to_action(text)
                if not move.is_pass:
                    found = feature_counts(state, params, pieces, STAGES_BY_VARIANT[variant])
                    if found is not None:
                        at = np.flatnonzero(found[0] == move.index)
                        if len(at) and len(found[0]) > 1:
                            out.append((p * 1000 + g, found[1], int(at[0])))
                state.apply(move)
    return out


def log_likelihood(w: np.ndarray, data: list[tuple[int, np.ndarray, int]]) -> tuple[float, float, float]:
    """(mean log-likelihood, top-1 agreement, top-5 agreement) of the softmax policy ``exp(x . w)``."""
    ll = top1 = top5 = 0.0
    for _, x, chosen in data:
        z = x @ w
        z = z - z.max()
        ll += z[chosen] - math.log(np.exp(z).sum())
        above = int((z > z[chosen]).sum())
        tied = int((z == z[chosen]).sum())  # the chosen move among them: ties are broken at random
        top1 += 1.0 / tied if above == 0 else 0.0
        top5 += min(1.0, max(0.0, (5 - above) / tied))
    k = max(len(data), 1)
    return ll / k, top1 / k, top5 / k


def fit(data: list[tuple[int, np.ndarray, int]], start: np.ndarray, l2: float, steps: int = 30) -> np.ndarray:
    """Maximum-likelihood weights of the conditional logit, L2 ``l2`` towards ``start`` (Newton's method)."""
    w = start.copy()
    dim = len(w)
    for _ in range(steps):
        grad = -l2 * (w - start)
        hess = -l2 * np.eye(dim)
        for _, x, chosen in data:
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            mean = p @ x
            grad += x[chosen] - mean
            centred = x - mean
            hess -= (centred * p[:, None]).T @ centred
        step = np.linalg.solve(hess, grad)
        w = w - step
        if np.abs(step).max() < 1e-7:
            break
    return w


MODULE_SOURCE = {  # variant -> (its name in text, the data, the command's files, the module, Pentobi's table)
    "duo": ("Duo", "Duo matches against Pentobi levels 7 to 9", "bench/results/blokus_duo_l[789]*.json",
            "solvers/blokus/mcts/fitted.py", "_DUO"),
    "classic": ("Classic", "Classic matches against Pentobi level 7", "bench/results/blokus_classic_l7*.json",
                "solvers/blokus/mcts/fitted_classic.py", "_CLASSIC"),
}


def module_text(w: np.ndarray, fitted: int, held_out: int, variant: str = "duo") -> str:
    """The fitted weights as the source of ``solvers/blokus/mcts/fitted.py`` (Duo) or ``fitted_classic.py``."""
    name, data, files, module, table = MODULE_SOURCE[variant]
    stages = STAGES_BY_VARIANT[variant]
    option = "" if variant == "duo" else f" --variant {variant}"
    base = ", ".join(f"{x:.4f}" for x in w[:N_GAMMAS])
    rows = "\n".join("    (" + ", ".join(f"{x:.4f}" for x in row) + "),"
                     for row in w[N_GAMMAS:].reshape(len(stages) + 1, NUM_PIECES))
    return f'''"""mcts-rave's fitted {name} priors (knob ``fitted_priors=1``): the log-gammas of :mod:`.priors` refitted, and a weight per
piece and stage of the game, by maximum likelihood on the recorded moves of {data}
(both sides; written by ``python bench/blokus_prior_fit.py {files}{option} --pieces --module
{module}``: {fitted:,} positions fitted, {held_out:,} held out).
Natural logs: a move's gamma is ``exp`` of the sum of its features' weights."""

#: The 23 log-gammas in :mod:`.priors`' layout (Pentobi's are ``w / 0.84`` of ``priors.{table}``).
LOG_GAMMAS = ({base})
#: Pieces on the board before which each later row of :data:`LOG_PIECE_GAMMAS` applies.
STAGES = {stages}
#: The log-weight of each piece (``tables.PIECE_NAMES`` order), one row per stage.
LOG_PIECE_GAMMAS = (
{rows}
)
'''


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--variant", choices=sorted(STAGES_BY_VARIANT), default="duo", help="the games to fit (default duo)")
    parser.add_argument("--l2", type=float, default=1.0, help="L2 weight towards Pentobi's weights (default 1)")
    parser.add_argument("--json", help="write the fitted gammas' weights (w, as gamma_table's) here")
    parser.add_argument("--pieces", action="store_true", help="add a weight per piece and stage of the game")
    parser.add_argument("--module", help="with --pieces: write the fitted weights as a module (solvers/blokus/mcts/fitted.py)")
    args = parser.parse_args(argv)
    data = positions(args.files, args.pieces, args.variant)
    if not data:
        sys.exit(f"no {args.variant} games to fit in these files (those played with the fitted priors are skipped)")
    train = [d for d in data if d[0] % 2 == 0]
    test = [d for d in data if d[0] % 2 == 1]
    pentobi = np.log(Params(BlokusState(args.variant)).gammas)
    pentobi = np.concatenate([pentobi, np.zeros(data[0][1].shape[1] - len(pentobi))])
    fitted = fit(train, pentobi, args.l2)
    print(f"{len(data)} positions ({len(train)} fit, {len(test)} test), "
          f"{np.mean([len(d[1]) for d in data]):.0f} moves kept on average", file=sys.stderr)
    print("| weights | fit half: log-lik, top-1, top-5 | test half: log-lik, top-1, top-5 |")
    print("|---|---|---|")
    for name, w in (("uniform", np.zeros_like(pentobi)), ("Pentobi's", pentobi), ("refitted", fitted)):
        a, b = log_likelihood(w, train), log_likelihood(w, test)
        print(f"| {name} | {a[0]:.3f}, {a[1]:.3f}, {a[2]:.3f} | {b[0]:.3f}, {b[1]:.3f}, {b[2]:.3f} |")
    if args.module and args.pieces:
        Path(args.module).write_text(module_text(fitted, len(train), len(test), args.variant))
    if args.json:
        Path(args.json).write_text(json.dumps({"log_gamma": fitted.tolist(), "pentobi": pentobi.tolist(),
                                               "w": (fitted * GAMMA_TEMPERATURE).tolist()}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])

#!/bin/bash
# kibitz's mcts-rave against Pentobi's GTP engine (no opening book, no resign), seats alternating.
# Build Pentobi's GTP engine outside the repository first, e.g.:
#   git clone https://github.com/enz/pentobi /tmp/pentobi && cd /tmp/pentobi && mkdir build && cd build
#   cmake .. -DPENTOBI_BUILD_GUI=OFF -DPENTOBI_BUILD_GTP=ON && nice make -j1 pentobi-gtp
# Usage: [PER_SEAT=1] [KNOBS=...] [SEED=1] [MOVE_TIMEOUT=60] bench/blokus_vs_pentobi.sh VARIANT LEVEL BUDGET GAMES [PENTOBI] > result.json
#   PER_SEAT=1: one Pentobi process per seat it holds (classic, three-player), else one plays them all
#   KNOBS: mcts-rave's knobs (blokus match --knobs), e.g. KNOBS=pentobi,fitted_priors=1 (the preset pentobi: five knobs)
#   MOVE_TIMEOUT: seconds Pentobi may take for one move (default 60; level 9 needs more, e.g. 600)
#   SEED: the match seed (game g plays seed game_seed(SEED, g)); run halves on two cores with SEED=1 and SEED=2
#   e.g. bench/blokus_vs_pentobi.sh duo 1 0.05s 40
# VARIANT: duo | two-player | classic | three-player (classic and three-player: kibitz rotates through the seats); BUDGET: mcts-rave budget (CPU seconds "0.5s" or iterations).
set -euo pipefail
variant=$1 level=$2 budget=$3 games=$4
pentobi=${5:-/tmp/pentobi/build/pentobi_gtp/pentobi-gtp}
case $variant in duo) game=duo ;; two-player) game=classic_2 ;; classic) game=classic ;; three-player) game=classic_3 ;; *) echo "bad variant" >&2; exit 2 ;; esac
exec kibitz blokus match --variant "$variant" --bots "mcts-rave:$budget" ${KNOBS:+--knobs "$KNOBS"} \
  --opponent "$pentobi --game $game --level $level --nobook --noresign --quiet" ${PER_SEAT:+--opponent-per-seat} \
  ${MOVE_TIMEOUT:+--move-timeout "$MOVE_TIMEOUT"} \
  --games "$games" --seed "${SEED:-1}" --json

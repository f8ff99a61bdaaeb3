#!/bin/bash
# Tuning mcts-rave's search constants (kibitz blokus tune): an SPSA run, then an interleaved A/B match of the
# constants it found against the defaults at the same budget.  Results (JSON lines, resumable) in bench/results/.
# Usage: bench/blokus_tune.sh VARIANT BUDGET STEPS AB_GAMES [WORKERS]
#   e.g. bench/blokus_tune.sh duo 0.02s 50 80 2
set -euo pipefail
variant=$1 budget=$2 steps=$3 games=$4 workers=${5:-2}
out=bench/results
spsa_log=$out/blokus_tune_spsa_$variant.jsonl
kibitz blokus tune spsa --variant "$variant" --budget "$budget" --start exploration=0.5,rave_weight=0.7 \
  --steps "$steps" --games-per-step 4 --workers "$workers" --seed 11 --checkpoint "$spsa_log" --json \
  > "$out/blokus_tune_spsa_$variant.json"
tuned=$(python -c "import json,sys; print(json.load(open(sys.argv[1]))['knobs'])" "$out/blokus_tune_spsa_$variant.json")
kibitz blokus tune ab --variant "$variant" --budget "$budget" --a "$tuned" --b default --games "$games" \
  --workers "$workers" --seed 5 --checkpoint "$out/blokus_tune_ab_$variant.jsonl" --json > "$out/blokus_tune_ab_$variant.json"
cat "$out/blokus_tune_ab_$variant.json"

#!/bin/sh
# Solve every puzzle of LIST in SHARDS shards, JOBS at a time, with GNU
# parallel. Stop it at any moment and run the same command again: parallel
# (--joblog, --resume) starts only the shards that have not finished, and
# each of those continues its own output (batch --resume) instead of
# starting over. At the end the shards are merged into LIST's order.
#
#   docs/recipes/gnu-parallel.sh million.txt 64 2
#
# NPUZZLE names the binary (default: npuzzle on the PATH), SOLVE the search
# (default: optimal, fringe search with pattern databases; build them first with
# `npuzzle pdb build`), OUT the folder for the shards' outputs.
set -eu
LIST=${1:?usage: gnu-parallel.sh LIST [SHARDS] [JOBS]}
SHARDS=${2:-8}
JOBS=${3:-2}
NPUZZLE=${NPUZZLE:-npuzzle}
SOLVE=${SOLVE:---algo fringe --heuristic pdb}
OUT=${OUT:-out}
mkdir -p "$OUT"
export LIST SHARDS NPUZZLE SOLVE OUT
# Each shard runs on one core: parallel runs JOBS of them side by side.
seq 0 $((SHARDS - 1)) | parallel --jobs "$JOBS" --joblog "$OUT/joblog" --resume --halt never \
    'resume=; if [ -e "$OUT/shard-{}.csv" ]; then resume=--resume; fi; '\
'$NPUZZLE batch "$LIST" --list --shard {}/$SHARDS --out "$OUT/shard-{}.csv" $resume --jobs 1 $SOLVE'
"$NPUZZLE" merge "$OUT"/shard-*.csv --list "$LIST" > "$OUT/all.csv"

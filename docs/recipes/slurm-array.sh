#!/bin/bash
# One shard of a campaign per task of a Slurm job array:
#
#   npuzzle pdb build --pdb-dir /shared/npuzzle-pdb     # once, before
#   LIST=/shared/million.txt sbatch --array=0-49 docs/recipes/slurm-array.sh
#   npuzzle merge out/shard-*.csv --list /shared/million.txt > million.csv
#
# The pattern databases are built once into a folder on the shared file
# system, which the tasks then only read (mapped, so the pages are shared
# by the tasks of one node). A task that is stopped (preempted, out of
# time: Slurm sends SIGTERM, on which npuzzle saves its long searches
# where they stand) and run again continues its shard's output instead
# of starting over. NPUZZLE names the binary, SOLVE the search, PDB the
# tables' folder, OUT the folder for the shards' outputs.
#SBATCH --job-name=npuzzle
#SBATCH --cpus-per-task=2
#SBATCH --requeue
set -euo pipefail
LIST=${LIST:?set LIST to the list of puzzles}
NPUZZLE=${NPUZZLE:-npuzzle}
SOLVE=${SOLVE:---algo fringe --heuristic pdb}
PDB=${PDB:-/shared/npuzzle-pdb}
OUT=${OUT:-out}
K=${SLURM_ARRAY_TASK_ID:?run as a task of a job array}
M=${SLURM_ARRAY_TASK_COUNT:?run as a task of a job array}
mkdir -p "$OUT"
resume=()
[ -e "$OUT/shard-$K.csv" ] && resume=(--resume)
# shellcheck disable=SC2086 # SOLVE is a list of flags
exec "$NPUZZLE" batch "$LIST" --list --shard "$K/$M" --out "$OUT/shard-$K.csv" "${resume[@]}" \
    --jobs "${SLURM_CPUS_PER_TASK:-1}" --pdb-dir "$PDB" $SOLVE

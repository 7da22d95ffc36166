#!/usr/bin/env bash
# Answers with a proof of quality (results in benches/RESULTS.md):
#   within.sh korf24-within [F]        Korf and Felner's 50 with --within F (1.1), TIMEOUT (60) s each: all within
#                                      the bound? mean time
#   within.sh korf24-anytime [SECONDS] the 50 with --algo anytime --timeout SECONDS (0.1 and 1): cost / optimum,
#                                      cost / lower bound
#   within.sh deepcubea [35|48] [SECONDS]  DeepCubeA's 500 boards with anytime on one core: mean length against
#                                      DeepCubeA's
#   within.sh random SIDE [SECONDS] [COUNT]  COUNT (100) random SIDE x SIDE boards with anytime on THREADS (1) threads:
#                                      cost / Manhattan
#   within.sh bounded [B]              weighted A*, focal search and Dynamic Potential Search at bound B on Korf's
#                                      first 30 15-puzzles (examples/bounded.rs)
# The pattern databases are used where they are built (npuzzle pdb build, npuzzle pdb build --size 5), on
# larger boards for the 5x5 block left at the end (DeepCubeA's boards: add --goal blank-last); PDB_DIR
# names their folder when it is not the default cache.
source "$(dirname "$0")/setup.sh"
BIN=$bin
tables=()
if [[ -n "${PDB_DIR:-}" ]]; then tables=(--pdb-dir "$PDB_DIR"); fi
WORK=${WORK:-$(mktemp -d)}
trap 'rm -rf "$WORK"' EXIT

case "${1:-korf24-within}" in
korf24-within)
    bound=${2:-1.1}
    # Exit code 3 when a search met a limit: its row says which, and the others still count.
    "$BIN" batch puzzles/korf24 --within "$bound" --jobs 1 --timeout "${TIMEOUT:-60}" "${tables[@]}" \
        --format csv > "$WORK/rows.csv" || [ $? -eq 3 ]
    python3 benches/quality.py "$WORK/rows.csv"
    ;;
korf24-anytime)
    for seconds in ${2:-0.1 1}; do
        echo "--timeout $seconds:"
        "$BIN" batch puzzles/korf24 --algo anytime --timeout "$seconds" --jobs 1 "${tables[@]}" --format csv \
            > "$WORK/rows.csv"
        python3 benches/quality.py "$WORK/rows.csv"
    done
    ;;
deepcubea)
    size=${2:-35}
    seconds=${3:-1}
    "$BIN" batch --list "puzzles/deepcubea/deepcubea$size.txt" --goal blank-last --algo anytime \
        --timeout "$seconds" --jobs 1 --threads 1 "${tables[@]}" --format csv > "$WORK/rows.csv"
    python3 benches/quality.py "$WORK/rows.csv" --goal blank-last --reference "benches/data/deepcubea$size-results.txt"
    ;;
random)
    side=${2:?random SIDE [SECONDS] [COUNT]}
    seconds=${3:-1}
    count=${4:-100}
    "$BIN" generate --size "$side" --count "$count" --seed 1 --list --out "$WORK/list.txt"
    "$BIN" batch --list "$WORK/list.txt" --algo anytime --timeout "$seconds" --jobs 1 --threads "${THREADS:-1}" \
        "${tables[@]}" --format csv > "$WORK/rows.csv"
    python3 benches/quality.py "$WORK/rows.csv"
    ;;
bounded)
    cargo build --release --quiet --example bounded
    target/release/examples/bounded "${2:-1.1}" 10 $(ls puzzles/korf100/*.txt | head -30)
    ;;
*)
    sed -n '2,14p' "$0" >&2
    exit 2
    ;;
esac

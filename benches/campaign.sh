#!/usr/bin/env bash
# Campaigns of many boards (results in benches/RESULTS.md):
#   campaign.sh million [COUNT]    COUNT random 15-puzzles (1,000,000) solved optimally by ALGO (fringe; or
#                                  idastar), paths included: wall time, boards per second, peak memory; the
#                                  mean optimal length of the first 10,000 against the known 52.6
#   campaign.sh weighted [COUNT]   COUNT random 24-puzzles (10,000) with weighted A* (W = 2), HEURISTIC (pdb, the
#                                  6-6-6-6 tables; or linear-conflict)
#   campaign.sh resume [TRIALS]    a batch (ALGO, fringe) killed (SIGKILL) at random moments and resumed, TRIALS times (20):
#                                  byte-identical rows but for the times, and the puzzles solved twice
#   campaign.sh taken-up [TRIALS] one long IDA* search (Korf's 15-puzzle 88, Manhattan distance, 2 threads) killed
#                                  (SIGKILL) at a random moment and taken up from its saved progress, TRIALS
#                                  times (10): the answer, the counts, and the time the kill cost
#   campaign.sh merge [SHARDS]     a list split SHARDS ways (50) by --shard and merged, against one run
#   campaign.sh heuristics [COUNT] boards per second of each 4x4 table set (PARTITIONS: zero-7-8 7-8) on COUNT
#                                  random 15-puzzles
source "$(dirname "$0")/setup.sh"
BIN=$bin
WORK=${WORK:-$(mktemp -d)}
trap 'rm -rf "$WORK"' EXIT
timeless() { python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
t = rows[0].index("runtime_ms")
for r in rows: del r[t]; print(",".join(r))' "$1"; }

case "${1:-million}" in
million)
    count=${2:-1000000}
    "$BIN" generate --size 4 --count "$count" --seed 1 --list --out "$WORK/list.txt"
    "$BIN" pdb build >/dev/null
    /usr/bin/time -f "%e s wall, %M KB peak" "$BIN" batch "$WORK/list.txt" --list --algo "${ALGO:-fringe}" \
        --heuristic pdb --out "$WORK/rows.csv" 2> "$WORK/time.txt" || true
    tail -1 "$WORK/time.txt"
    python3 - "$WORK/rows.csv" "$count" "$(tail -1 "$WORK/time.txt" | cut -d' ' -f1)" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
count, wall = int(sys.argv[2]), float(sys.argv[3])
solved = [r for r in rows if r["status"] == "solved"]
optimal = all(r["proven_optimal"] == "true" for r in solved)
first = [int(r["cost"]) for r in solved[:10000]]
print(f"{len(solved)} of {count} solved, every one proven optimal: {optimal}; {count / wall:.0f} boards per second")
print(f"mean optimal length of the first {len(first)}: {sum(first) / len(first):.2f} (random 15-puzzles: 52.6)")
print(f"paths included: {all(len(r['path']) == int(r['cost']) for r in solved)}")
PY
    ;;
weighted)
    count=${2:-10000}
    heuristic=${HEURISTIC:-pdb}
    "$BIN" generate --size 5 --count "$count" --seed 1 --list --out "$WORK/list.txt"
    if [ "$heuristic" = pdb ]; then "$BIN" pdb build --size 5 >/dev/null; fi
    /usr/bin/time -f "%e s wall, %M KB peak" "$BIN" batch "$WORK/list.txt" --list --algo astar --weight 2 \
        --heuristic "$heuristic" --out "$WORK/rows.csv"
    python3 benches/quality.py "$WORK/rows.csv"
    ;;
resume)
    trials=${2:-20}
    "$BIN" generate --size 4 --count 3000 --seed 2 --list --out "$WORK/list.txt"
    "$BIN" pdb build >/dev/null
    run() { "$BIN" batch "$WORK/list.txt" --list --algo "${ALGO:-fringe}" --heuristic pdb --threads 1 --out "$1" "${@:2}"; }
    run "$WORK/whole.csv"
    timeless "$WORK/whole.csv" > "$WORK/whole.timeless"
    seconds=$(python3 -c "import csv; print(sum(float(r['runtime_ms']) for r in csv.DictReader(open('$WORK/whole.csv'))) / 2000)")
    identical=0 twice=0
    for trial in $(seq "$trials"); do
        rm -f "$WORK/killed.csv"
        # The binary itself in the background, so that the kill reaches it.
        "$BIN" batch "$WORK/list.txt" --list --algo "${ALGO:-fringe}" --heuristic pdb --threads 1 --out "$WORK/killed.csv" \
            2>/dev/null &
        pid=$!
        sleep "$(python3 -c "import random; print(random.uniform(0.05, $seconds))")"
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        kept=$(($(wc -l < "$WORK/killed.csv") - 1))
        run "$WORK/killed.csv" --resume 2> "$WORK/resume.txt"
        if cmp -s <(timeless "$WORK/killed.csv") "$WORK/whole.timeless"; then identical=$((identical + 1)); fi
        # Rows written before the kill are kept; a row cut short (at most one)
        # and the puzzles under way were solved again.
        echo "trial $trial: $kept rows when killed; $(tail -1 "$WORK/resume.txt")"
    done
    echo "$identical of $trials resumed runs identical to the uninterrupted one but for the times"
    ;;
taken-up)
    trials=${2:-10}
    run() { "$BIN" batch puzzles/korf100/088.txt --algo idastar --heuristic manhattan --threads 2 \
        --progress never --out "$@"; }
    field() { python3 -c 'import csv, sys; print(list(csv.DictReader(open(sys.argv[1])))[0][sys.argv[2]])' "$@"; }
    start=$(date +%s.%N)
    run "$WORK/whole.csv"
    whole=$(python3 -c "print($(date +%s.%N) - $start)")
    echo "uninterrupted: $(field "$WORK/whole.csv" cost) moves, $(field "$WORK/whole.csv" nodes_expanded) expanded, ${whole} s wall"
    for trial in $(seq "$trials"); do
        rm -rf "$WORK/killed.csv" "$WORK/killed.csv.progress"
        start=$(date +%s.%N)
        "$BIN" batch puzzles/korf100/088.txt --algo idastar --heuristic manhattan --threads 2 \
            --progress never --out "$WORK/killed.csv" --save-every 0.5 &
        pid=$!
        sleep "$(python3 -c "import random; print(random.uniform(1, $whole - 0.5))")"
        kill -9 "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        saved=$(cat "$WORK"/killed.csv.progress/*.txt 2>/dev/null | sed -n 's/^expanded //p')
        run "$WORK/killed.csv" --resume 2>/dev/null
        both=$(python3 -c "print($(date +%s.%N) - $start)")
        echo "trial $trial: ${saved:-nothing} saved; $(field "$WORK/killed.csv" cost) moves," \
            "$(field "$WORK/killed.csv" nodes_expanded) expanded; killed and taken up ${both} s wall in all"
    done
    ;;
merge)
    shards=${2:-50}
    "$BIN" generate --size 3 --count 5000 --seed 3 --list --out "$WORK/list.txt"
    "$BIN" batch "$WORK/list.txt" --list --out "$WORK/one.csv"
    for k in $(seq 0 $((shards - 1))); do
        "$BIN" batch "$WORK/list.txt" --list --shard "$k/$shards" --out "$WORK/shard-$k.csv"
    done
    # Given in a scrambled order.
    "$BIN" merge $(ls "$WORK"/shard-*.csv | sort -R) --list "$WORK/list.txt" > "$WORK/merged.csv"
    if cmp -s <(timeless "$WORK/merged.csv") <(timeless "$WORK/one.csv"); then
        echo "$shards shards merged: identical to one machine's rows but for the times"
    else
        echo "$shards shards merged: DIFFERENT from one machine's rows"
    fi
    set +e
    "$BIN" merge $(ls "$WORK"/shard-*.csv | grep -v 'shard-7.csv') --list "$WORK/list.txt" > /dev/null
    echo "a missing shard: exit $?"
    "$BIN" merge "$WORK"/shard-*.csv "$WORK/shard-7.csv" --list "$WORK/list.txt" > /dev/null
    echo "a duplicated shard: exit $?"
    ;;
heuristics)
    count=${2:-20000}
    "$BIN" generate --size 4 --count "$count" --seed 4 --list --out "$WORK/list.txt"
    for partition in ${PARTITIONS:-zero-7-8 7-8}; do
        "$BIN" pdb build --partition "$partition" >/dev/null
        start=$(date +%s.%N)
        "$BIN" batch "$WORK/list.txt" --list --algo idastar --heuristic pdb --partition "$partition" \
            --out "$WORK/$partition.csv"
        end=$(date +%s.%N)
        python3 -c "print(f'$partition: {$count / ($end - $start):.0f} boards per second ({$end - $start:.1f} s wall)')"
    done
    ;;
*)
    sed -n '2,9p' "$0" >&2
    exit 2
    ;;
esac

#!/usr/bin/env bash
# The 24-puzzle figures of benches/RESULTS.md (Korf and Felner's instances in puzzles/korf24/).
#
#   benches/korf24.sh build               first-time build of the 6-6-6-6 tables in a fresh directory:
#                                         wall time and peak memory; then the size on disk and a later load
#   benches/korf24.sh optimal [ID...]     IDA* + the tables, one instance at a time on all cores
#                                         (default: the ten easiest, 40 38 25 44 32 28 22 36 30 1)
#   benches/korf24.sh fast                weighted A* (W = 2) + linear conflict and greedy on all 50
#   benches/korf24.sh partition [P...]    how good a 5x5 set is (default: the default set): its tables' mean
#                                         value on 10,000 random boards, then expansions on one thread
#                                         on instances 40 38 25 32
#   benches/korf24.sh sets KIND P+P... [ID...]
#                                         any list of built-in partitions maxed, with tables of KIND
#                                         (minimised, zero, zero-bits), named set or not: build time, size,
#                                         mean value on 10,000 random boards, then IDA* on one thread on
#                                         each instance (default 40 38 25 32 30 1), expansions and time
#
# PDB_DIR (default target/bench/pdb5) holds the tables. Release build; wall and
# peak memory from GNU time, nodes and search time from the JSON rows.
source "$(dirname "$0")/setup.sh"
pdb=${PDB_DIR:-$out/pdb5}

case "${1:-}" in
build)
  rm -rf "$out/pdb5-fresh"
  /usr/bin/time -f "build: %e s wall, %M KB peak" "$bin" pdb build --size 5 --pdb-dir "$out/pdb5-fresh"
  du -b -c "$out"/pdb5-fresh/*.bin | tail -1
  /usr/bin/time -f "load + solve of instance 40: %e s wall, %M KB peak" \
    "$bin" solve puzzles/korf24/40.txt --algo idastar --heuristic pdb --pdb-dir "$out/pdb5-fresh" --format json |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print(f"of which search {r[\"runtime_ms\"]/1000:.2f} s")'
  ;;
optimal)
  shift
  ids=("${@:-40 38 25 44 32 28 22 36 30 1}")
  "$bin" pdb build --size 5 --pdb-dir "$pdb" > /dev/null
  printf "| instance | moves | expanded | search s | wall s | M expanded/s |\n|---|---|---|---|---|---|\n"
  total=0
  for id in ${ids[*]}; do
    f=$(printf "puzzles/korf24/%02d.txt" "$id")
    start=$(date +%s.%N)
    "$bin" solve "$f" --algo idastar --heuristic pdb --pdb-dir "$pdb" --format json > "$out/k24-$id.json"
    end=$(date +%s.%N)
    python3 - "$out/k24-$id.json" "$f" "$start" "$end" <<'PY'
import json, re, sys
r = json.load(open(sys.argv[1]))
want = int(re.search(r"# optimal: (\d+)", open(sys.argv[2]).read()).group(1))
assert r["status"] == "solved" and r["cost"] == want, (sys.argv[2], r["status"], r["cost"], want)
wall = float(sys.argv[4]) - float(sys.argv[3])
s = r["runtime_ms"] / 1000
ident = int(re.search(r"(\d+)\.txt", sys.argv[2]).group(1))
print(f"| {ident} | {r['cost']} | {r['nodes_expanded']:,} | {s:.1f} | {wall:.1f} | {r['nodes_expanded']/s/1e6:.1f} |")
PY
  done
  ;;
fast)
  for run in "astar --weight 2 --heuristic linear-conflict" "greedy --heuristic linear-conflict"; do
    # shellcheck disable=SC2086
    "$bin" batch puzzles/korf24 --algo $run --jobs 1 --format json > "$out/k24-fast.jsonl"
    python3 - "$out/k24-fast.jsonl" "$run" <<'PY'
import json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ratios = [r["cost"] / r["expected"] for r in rows if r["status"] == "solved"]
ms = [r["runtime_ms"] for r in rows]
print(f"{sys.argv[2]}: solved {len(ratios)}/{len(rows)}, mean length {sum(ratios)/len(ratios):.3f} x optimal, "
      f"search ms mean {sum(ms)/len(ms):.1f}, max {max(ms):.1f}")
PY
  done
  ;;
partition)
  shift
  cargo build --release --quiet --example pdb_mean
  for p in "${@:-6-6-6-6}"; do
    "$bin" pdb build --partition "$p" --pdb-dir "$pdb" > /dev/null
    target/release/examples/pdb_mean "$p" "$pdb" 10000 1
    for id in 40 38 25 32; do
      "$bin" solve "puzzles/korf24/$id.txt" --algo idastar --heuristic pdb --partition "$p" --pdb-dir "$pdb" \
        --threads 1 --format json |
        python3 -c 'import json,sys; r=json.load(sys.stdin); print("  instance", sys.argv[1] + ":", r["cost"], "moves,", format(r["nodes_expanded"], ","), "expanded")' "$id"
    done
  done
  ;;
sets)
  shift
  kind=${1:?KIND}
  partitions=${2:?P+P...}
  shift 2
  ids=("${@:-40 38 25 32 30 1}")
  files=()
  for id in ${ids[*]}; do files+=("$(printf "puzzles/korf24/%02d.txt" "$id")"); done
  cargo build --release --quiet --example pdb_sets
  /usr/bin/time -f "peak %M KB" target/release/examples/pdb_sets "$kind" "$partitions" "$pdb" "${files[@]}"
  ;;
*)
  sed -n '2,20p' "$0"
  exit 2
  ;;
esac

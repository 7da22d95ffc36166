#!/usr/bin/env bash
# The 24-puzzle figures of benches/RESULTS.md (Korf and Felner's instances in puzzles/korf24/).
#
#   benches/korf24.sh build               first-time build of the 5x5 tables in a fresh directory:
#                                         wall time and peak memory; then the size on disk and a later load
#   benches/korf24.sh optimal [ID...]     IDA* + the tables, one instance at a time on all cores
#                                         (default: the ten easiest, 40 38 25 44 32 28 22 36 30 1)
#   benches/korf24.sh fifty [OUT]         all 50 optimally, easiest first by the published expansions
#                                         (hardest last), one at a time on all cores, rows to OUT (default
#                                         target/bench/korf24-fifty.csv) as each finishes; run it again to
#                                         resume where a stopped run ended (stderr: a line every 10 s with
#                                         the search under way, its time, expansions and bound); then a
#                                         summary that projects the unsolved from the solved ones' ratio
#                                         to the published counts;
#                                         FROM=RANK starts at that rank (ranks below solved elsewhere),
#                                         TO=RANK stops after that one (the harder ones run elsewhere)
#   benches/korf24.sh fast                weighted A* (W = 2) + linear conflict and greedy on all 50
#   benches/korf24.sh partition [P...]    how good a 5x5 set is (default: 6-6-6-6): its tables' mean
#                                         value on 10,000 random boards, then expansions on one thread
#                                         on instances 40 38 25 32
#   benches/korf24.sh sets KIND P+P... [ID...]
#                                         any list of built-in partitions maxed, with tables of KIND
#                                         (minimised, zero, zero-bits), named set or not: build time, size,
#                                         mean value on 10,000 random boards, then IDA* on one thread on
#                                         each instance (default 40 38 25 32 30 1), expansions and time
#
# PDB_DIR (default target/bench/pdb5) holds the tables; PARTITION chooses the set for build, optimal and
# fifty (default: IDA*'s, zero-max7; build makes it and 6-6-6-6). Release build; wall and
# peak memory from GNU time, nodes and search time from the JSON rows.
source "$(dirname "$0")/setup.sh"
pdb=${PDB_DIR:-$out/pdb5}
set_args=()
if [[ -n "${PARTITION:-}" ]]; then set_args=(--partition "$PARTITION"); fi

case "${1:-}" in
build)
  rm -rf "$out/pdb5-fresh"
  /usr/bin/time -f "build: %e s wall, %M KB peak" "$bin" pdb build --size 5 "${set_args[@]}" --pdb-dir "$out/pdb5-fresh"
  du -b -c "$out"/pdb5-fresh/*.bin | tail -1
  /usr/bin/time -f "load + solve of instance 40: %e s wall, %M KB peak" \
    "$bin" solve puzzles/korf24/40.txt --algo idastar --heuristic pdb "${set_args[@]}" --pdb-dir "$out/pdb5-fresh" \
      --format json |
    python3 -c 'import json,sys; r=json.load(sys.stdin); print(f"of which search {r[\"runtime_ms\"]/1000:.2f} s")'
  ;;
optimal)
  shift
  ids=("${@:-40 38 25 44 32 28 22 36 30 1}")
  "$bin" pdb build --size 5 "${set_args[@]}" --pdb-dir "$pdb" > /dev/null
  printf "| instance | moves | expanded | search s | wall s | M expanded/s |\n|---|---|---|---|---|---|\n"
  total=0
  for id in ${ids[*]}; do
    f=$(printf "puzzles/korf24/%02d.txt" "$id")
    start=$(date +%s.%N)
    "$bin" solve "$f" --algo idastar --heuristic pdb "${set_args[@]}" --pdb-dir "$pdb" --format json \
      > "$out/k24-$id.json"
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
fifty)
  rows=${2:-$out/korf24-fifty.csv}
  # FROM=RANK starts at that rank: the easier ones were solved elsewhere (another machine's OUT).
  from=${FROM:-1} to=${TO:-50}
  for rank in "$from" "$to"; do
    if ! [[ "$rank" =~ ^[0-9]+$ ]] || ((rank < 1 || rank > 50)); then
      echo "korf24.sh: FROM and TO must be ranks from 1 to 50, not '$rank'" >&2
      exit 2
    fi
  done
  if ((from > to)); then
    echo "korf24.sh: FROM ($from) is after TO ($to)" >&2
    exit 2
  fi
  "$bin" pdb build --size 5 "${set_args[@]}" --pdb-dir "$pdb" > /dev/null
  # Rank by the published small-catalogue count (column 3), easiest first.
  mapfile -t files < <(grep -v '^#' benches/data/korf24-expansions.txt | sort -k3,3n |
    awk '{ printf "puzzles/korf24/%02d.txt\n", $1 }')
  files=("${files[@]:from-1:to-from+1}")
  resume=()
  if [[ -s "$rows" ]]; then resume=(--resume); fi
  "$bin" batch "${files[@]}" --algo idastar --heuristic pdb "${set_args[@]}" --pdb-dir "$pdb" --jobs 1 \
    --out "$rows" "${resume[@]}" --progress always > /dev/null || true
  python3 - "$rows" benches/data/korf24-expansions.txt <<'PY'
import csv, re, sys
published = {}
for line in open(sys.argv[2]):
    if line.strip() and not line.startswith("#"):
        f = line.split()
        published[int(f[0])] = (int(f[1]), int(f[2]), int(f[6]))
solved, projected = [], []
for r in csv.DictReader(open(sys.argv[1])):
    ident = int(re.search(r"(\d+)\.txt", r["file"]).group(1))
    if r["status"] == "solved":
        assert int(r["cost"]) == published[ident][0], (ident, r["cost"], published[ident][0])
        solved.append((ident, int(r["nodes_expanded"]), float(r["runtime_ms"]) / 1000))
done = {i for i, _, _ in solved}
print("| rank | instance | moves | expanded | search s | small catalogue | ratio |")
print("|---|---|---|---|---|---|---|")
for i, e, s in solved:
    moves, rank, small = published[i]
    print(f"| {rank} | {i} | {moves} | {e:,} | {s:.1f} | {small:,} | {e / small:.2f} |")
expanded = sum(e for _, e, _ in solved)
seconds = sum(s for _, _, s in solved)
ratio = expanded / sum(published[i][2] for i in done) if done else 0
rate = expanded / seconds if seconds else 0
rest = sum(p[2] for i, p in published.items() if i not in done)
print(f"solved {len(solved)}/50 optimally: {expanded:,} expanded in {seconds:.0f} s ({rate / 1e6:.1f} M/s)")
if rest and ratio:
    print(f"the other {50 - len(solved)}, projected at {ratio:.2f} x the small catalogue's counts: "
          f"{ratio * rest:.3g} expansions, {ratio * rest / rate / 3600:.0f} h at the measured rate")
PY
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
  sed -n '2,26p' "$0"
  exit 2
  ;;
esac

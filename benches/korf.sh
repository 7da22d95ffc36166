#!/usr/bin/env bash
# Reproduces the README's 15-puzzle figures on Korf's 100 instances.
#
#   benches/korf.sh pdb-build          first-time pattern-database build (time, peak memory)
#   benches/korf.sh idastar-pdb        all 100, IDA* + 7-8 pattern databases, 2 jobs
#   benches/korf.sh idastar-manhattan  all 100, IDA* + Manhattan, 2 jobs (minutes)
#   benches/korf.sh astar-manhattan    instances 1-10, A* + Manhattan, one at a time, peak memory each
#
# Release build; figures are process wall time (GNU time), search time and
# nodes summed from the JSON rows, peak resident memory.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/npuzzle
out=${BENCH_OUT:-target/bench}
mkdir -p "$out"

summarise() { # $1 = JSON Lines file
  python3 - "$1" <<'PY'
import json, sys, re
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
bad = []
for r in rows:
    want = int(re.search(r"# optimal: (\d+)", open(r["file"]).read()).group(1))
    if r["status"] != "solved" or r["cost"] != want:
        bad.append((r["file"], r["status"], r["cost"], want))
ms = sum(r["runtime_ms"] for r in rows)
gen = sum(r["nodes_generated"] for r in rows)
exp = sum(r["nodes_expanded"] for r in rows)
print(f"instances {len(rows)}, all optimal: {not bad}")
print(f"search time total {ms/1000:.2f} s (summed over jobs)")
print(f"nodes expanded {exp:,} (mean {exp/len(rows):,.0f}), generated {gen:,}")
print(f"generated per second of search: {gen/(ms/1000)/1e6:.1f} M")
for b in bad: print("NOT OPTIMAL:", b)
PY
}

batch() { # $1 = name, rest = batch flags
  local name=$1; shift
  /usr/bin/time -f "wall %e s, peak RSS %M KB" -o "$out/$name.time" \
    "$bin" batch puzzles/korf100 --format json "$@" > "$out/$name.jsonl" || true
  cat "$out/$name.time"
  summarise "$out/$name.jsonl"
}

case "${1:-}" in
  pdb-build)
    dir=$(mktemp -d)
    /usr/bin/time -f "wall %e s, peak RSS %M KB" "$bin" pdb build --pdb-dir "$dir"
    ls -l "$dir"
    /usr/bin/time -f "load: wall %e s, peak RSS %M KB" "$bin" solve puzzles/korf100/001.txt \
      --algo idastar --heuristic pdb --pdb-dir "$dir" --format json > /dev/null
    rm -rf "$dir"
    ;;
  idastar-pdb) batch idastar-pdb --algo idastar --heuristic pdb --jobs 2 ;;
  idastar-manhattan) batch idastar-manhattan --algo idastar --heuristic manhattan --jobs 2 ;;
  astar-manhattan)
    for i in 001 002 003 004 005 006 007 008 009 010; do
      /usr/bin/time -f "%e %M" -o "$out/astar.time" "$bin" solve "puzzles/korf100/$i.txt" --format json \
        | python3 -c "import json,sys; d=json.load(sys.stdin); kb=int(open('$out/astar.time').read().split()[1]); \
print('$i', d['cost'], 'search', round(d['runtime_ms']/1000, 2), 's, generated', d['nodes_generated'], \
', stored', d['stored_nodes'], ', peak', kb//1024, 'MB,', round(kb*1024/d['stored_nodes'], 1), 'bytes/stored node')"
    done
    ;;
  *) sed -n '2,9p' "$0"; exit 2 ;;
esac

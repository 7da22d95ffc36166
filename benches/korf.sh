#!/usr/bin/env bash
# Reproduces the 15-puzzle figures of benches/RESULTS.md on Korf's 100 instances.
#
#   benches/korf.sh pdb-build [P]        first-time build of partition P (7-8) in a fresh directory: time,
#                                        peak memory; then a later load (a solve of instance 1)
#   benches/korf.sh idastar-pdb [P]      all 100, IDA* + the cached P (zero-7-8) databases, 2 jobs
#   benches/korf.sh idastar-manhattan    all 100, IDA* + Manhattan, 2 jobs (minutes)
#   benches/korf.sh idastar-lc           all 100, IDA* + linear conflict, 2 jobs (minutes)
#   benches/korf.sh astar-manhattan      instances 1-10, A* + Manhattan, one at a time, peak memory each
#   benches/korf.sh hard                 the 80-move position (goal blank-last), IDA*'s default tables: process
#                                        wall on 2 threads and on 1 (hyperfine), search time and expansions
#
# Release build; figures are process wall time (GNU time), search time and
# nodes summed from the JSON rows, peak resident memory.
source "$(dirname "$0")/setup.sh"

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
print(f"nodes expanded {exp:,} (mean {exp/len(rows):,.0f}), generated {gen:,} (mean {gen/len(rows):,.0f})")
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
    partition=${2:-7-8}
    dir=$(mktemp -d)
    /usr/bin/time -f "build: wall %e s, peak RSS %M KB" "$bin" pdb build --partition "$partition" --pdb-dir "$dir"
    ls -l "$dir"
    for _ in 1 2 3; do
      /usr/bin/time -f "load + solve: wall %e s, peak RSS %M KB" "$bin" solve puzzles/korf100/001.txt \
        --algo idastar --heuristic pdb --partition "$partition" --pdb-dir "$dir" --format json |
        python3 -c "import json,sys; print('  of which search', json.load(sys.stdin)['runtime_ms'], 'ms')"
    done
    rm -rf "$dir"
    ;;
  idastar-pdb)
    partition=${2:-zero-7-8}
    "$bin" pdb build --partition "$partition" > /dev/null # so the timing below is a load, not a build
    batch "idastar-pdb-$partition" --algo idastar --heuristic pdb --partition "$partition" --jobs 2
    ;;
  idastar-manhattan) batch idastar-manhattan --algo idastar --heuristic manhattan --jobs 2 ;;
  idastar-lc) batch idastar-lc --algo idastar --heuristic linear-conflict --jobs 2 ;;
  astar-manhattan)
    for i in 001 002 003 004 005 006 007 008 009 010; do
      /usr/bin/time -f "%e %M" -o "$out/astar.time" "$bin" solve "puzzles/korf100/$i.txt" --format json \
        | python3 -c "import json,sys; d=json.load(sys.stdin); kb=int(open('$out/astar.time').read().split()[1]); \
print('$i', d['cost'], 'search', round(d['runtime_ms']/1000, 2), 's, generated', d['nodes_generated'], \
', stored', d['stored_nodes'], ', peak', kb//1024, 'MB,', round(kb*1024/d['stored_nodes'], 1), 'bytes/stored node')"
    done
    ;;
  hard)
    file=puzzles/hard/80-moves-blank-last.txt
    solve=("$bin" solve "$file" --goal blank-last --algo idastar --heuristic pdb)
    "$bin" pdb build --goal blank-last > /dev/null # its own tables: built once (minutes), then loaded
    for threads in 2 1; do
      hyperfine -N -w 1 -r 7 "${solve[*]} --threads $threads"
      "${solve[@]}" --threads "$threads" --format json | python3 -c "import json,sys; d=json.load(sys.stdin); \
assert d['status'] == 'solved' and d['cost'] == 80, d; \
print('$threads thread(s):', d['cost'], 'moves, search', d['runtime_ms'], 'ms,', d['nodes_expanded'], 'expanded')"
    done
    ;;
  *) sed -n '2,12p' "$0"; exit 2 ;;
esac

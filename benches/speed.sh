#!/usr/bin/env bash
# Reproduces the speed figures of benches/RESULTS.md for single searches.
#
#   benches/speed.sh 8-puzzle   process wall time (hyperfine): BFS over the whole 8-puzzle space, A* Manhattan
#   benches/speed.sh rates      search rate of each algorithm and heuristic on a named instance (median of 5)
#   benches/speed.sh astar-15   A* Manhattan on Korf's instances needing 40-50 moves: rate, peak memory,
#                               bytes per stored node
#
# Release build; rates are nodes_generated / runtime_ms from --format json; peak memory is GNU time's
# maximum resident set size.
source "$(dirname "$0")/setup.sh"

case "${1:-}" in
  8-puzzle)
    command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)"; exit 1; }
    hyperfine -N -w 5 -r 50 \
      "$bin solve puzzles/3x3/hardest-31a.txt --algo bfs" \
      "$bin solve puzzles/3x3/hardest-31a.txt --algo astar --heuristic manhattan"
    for algo in bfs astar; do
      printf '%s search time: ' "$algo"
      for _ in 1 2 3 4 5; do "$bin" solve puzzles/3x3/hardest-31a.txt --algo $algo --format json; done |
        python3 -c "import json,sys,statistics as s; print(s.median(json.loads(l)['runtime_ms'] for l in sys.stdin), 'ms (median of 5)')"
    done
    ;;
  rates)
    "$bin" pdb build > /dev/null # the 7-8 databases: built once (minutes), then loaded
    python3 - "$bin" <<'PY'
import json, statistics, subprocess, sys
bin = sys.argv[1]
runs = [
    ("bfs", None, "3x3/hardest-31a.txt"),
    ("dfs", None, "3x3/hardest-31a.txt"),
    ("astar", "zero", "3x3/hardest-31a.txt"),
    ("astar", "manhattan", "korf100/055.txt"),
    ("astar", "hamming", "4x4/moves-30.txt"),
    ("astar", "euclidean", "4x4/moves-36.txt"),
    ("astar", "linear-conflict", "korf100/055.txt"),
    ("astar", "pdb", "korf100/055.txt"),
]
# IDA* runs on every core by default: its rows are given for 2 threads and for 1.
for h, file in [("zero", "4x4/moves-20.txt"), ("manhattan", "korf100/055.txt"),
                ("linear-conflict", "korf100/055.txt"), ("pdb", "korf100/055.txt")]:
    runs += [("idastar", h, file, 2), ("idastar", h, file, 1)]
print(f"{'algorithm':20} {'heuristic':16} {'instance':22} {'generated':>12} {'ms (median)':>12} {'M nodes/s':>10}")
for algo, h, file, *threads in runs:
    times, gen = [], None
    extra = ["--threads", str(threads[0])] if threads else []
    for _ in range(5):
        args = [bin, "solve", f"puzzles/{file}", "--algo", algo, "--format", "json"] + (["--heuristic", h] if h else []) + extra
        row = json.loads(subprocess.run(args, capture_output=True, text=True).stdout)
        assert row["status"] == "solved", row
        times.append(row["runtime_ms"]); gen = row["nodes_generated"]
    ms = statistics.median(times)
    name = f"{algo}, {threads[0]} thread{'s' if threads[0] > 1 else ''}" if threads else algo
    print(f"{name:20} {h or '-':16} {file:22} {gen:12,} {ms:12.1f} {gen / ms / 1000:10.1f}")
PY
    ;;
  astar-15)
    printf '%-8s %5s %10s %12s %12s %9s %8s %10s\n' instance moves search_s generated stored peak_MB M_gen/s bytes/node
    for f in puzzles/korf100/*.txt; do
      optimal=$(sed -n 's/^# optimal: //p' "$f")
      [ "$optimal" -le 50 ] || continue
      /usr/bin/time -f "%M" -o target/astar15.time "$bin" solve "$f" --format json > target/astar15.json
      python3 - "$f" "$optimal" <<'PY'
import json, sys
d = json.load(open("target/astar15.json")); kb = int(open("target/astar15.time").read().split()[-1])
assert d["status"] == "solved" and d["cost"] == int(sys.argv[2]), d
name = sys.argv[1].split("/")[-1][:3]
print(f"{name:8} {d['cost']:5} {d['runtime_ms']/1000:10.2f} {d['nodes_generated']:12,} {d['stored_nodes']:12,} "
      f"{kb/1024:9.0f} {d['nodes_generated']/d['runtime_ms']/1000:8.1f} {kb*1024/d['stored_nodes']:10.1f}")
PY
    done
    ;;
  *) sed -n '2,10p' "$0"; exit 2 ;;
esac

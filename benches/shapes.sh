#!/usr/bin/env bash
# The figures of benches/RESULTS.md for boards past the 15-puzzle (random solvable boards, seeded).
#
#   benches/shapes.sh table [COUNT]   5x5 to 10x10 (or SIZES), COUNT boards each (100): rows, greedy and
#                                     weighted A* (linear conflict; W = 4 and 3, and 2 and 1.5 up to 7x7) with a 1 s
#                                     timeout: success rate, mean length of the solved, mean time
#   benches/shapes.sh weights N W...  weighted A* (linear conflict) at each weight W on the same 100 NxN
#                                     boards as the table, 1 s timeout: where the success rate and the
#                                     length trade off
#   benches/shapes.sh rows            the constructive solver on random 20x20 and 100x100 boards: time per
#                                     board and mean length against n³
#
# Release build; times are the searches' runtime_ms from --format json (batch --jobs 1).
source "$(dirname "$0")/setup.sh"

summary() { # $1 = JSONL file, $2 = label
  python3 - "$1" "$2" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
ok = [r for r in rows if r["status"] == "solved" and r["runtime_ms"] <= 1000]
mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
print(f"| {sys.argv[2]} | {100 * len(ok) / len(rows):.0f} % | {mean([r['cost'] for r in ok]):,.0f} | "
      f"{mean([r['runtime_ms'] for r in rows]):.1f} |")
PY
}

case "${1:-}" in
table)
  count=${2:-100}
  echo "| size, algorithm | solved within 1 s | mean length (solved) | mean ms |"
  echo "|---|---|---|---|"
  for n in ${SIZES:-5 6 7 8 9 10}; do
    "$bin" generate --size "$n" --random --count "$count" --seed "$n" --list > "$out/random-$n.txt"
    runs=("rows" "greedy --heuristic linear-conflict" "astar --weight 4 --heuristic linear-conflict"
      "astar --weight 3 --heuristic linear-conflict")
    # Past 7x7 the smaller weights solve next to nothing within the second.
    if [ "$n" -le 7 ]; then
      runs+=("astar --weight 2 --heuristic linear-conflict" "astar --weight 1.5 --heuristic linear-conflict")
    fi
    for run in "${runs[@]}"; do
      # shellcheck disable=SC2086
      "$bin" batch --list "$out/random-$n.txt" --algo $run --timeout 1 --jobs 1 --format json \
        > "$out/shapes.jsonl" 2> /dev/null || true
      summary "$out/shapes.jsonl" "${n}x$n $run"
    done
  done
  ;;
weights)
  n=${2:?size}
  shift 2
  "$bin" generate --size "$n" --random --count 100 --seed "$n" --list > "$out/random-$n.txt"
  echo "| size, algorithm | solved within 1 s | mean length (solved) | mean ms |"
  echo "|---|---|---|---|"
  for w in "$@"; do
    "$bin" batch --list "$out/random-$n.txt" --algo astar --weight "$w" --heuristic linear-conflict --timeout 1 \
      --jobs 1 --format json > "$out/shapes.jsonl" 2> /dev/null || true
    summary "$out/shapes.jsonl" "${n}x$n astar --weight $w"
  done
  ;;
rows)
  for n in 20 100; do
    "$bin" generate --size "$n" --random --count 20 --seed "$n" --list > "$out/random-$n.txt"
    "$bin" batch --list "$out/random-$n.txt" --algo rows --jobs 1 --format json > "$out/rows.jsonl"
    python3 - "$out/rows.jsonl" "$n" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
n = int(sys.argv[2])
assert all(r["status"] == "solved" for r in rows)
ms = sorted(r["runtime_ms"] for r in rows)
cost = sum(r["cost"] for r in rows) / len(rows)
print(f"{n}x{n}: {len(rows)} boards, search ms median {ms[len(ms)//2]:.1f}, max {ms[-1]:.1f}; "
      f"mean length {cost:,.0f} = {cost / n**3:.2f}·n³")
PY
  done
  ;;
*)
  sed -n '2,11p' "$0"
  exit 2
  ;;
esac

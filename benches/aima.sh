#!/bin/sh
# AIMA (3rd ed.) Fig. 3.29: A* with misplaced tiles (h1, `hamming`) and
# Manhattan distance (h2) over 100 random 8-puzzles per solution length
# d = 2, 4, ..., 24. Prints one markdown row per d: mean nodes generated
# and the effective branching factor b* of that mean (N + 1 = 1 + b* + ... + b*^d).
# Usage: benches/aima.sh [npuzzle binary] [seed]
set -eu
B=${1:-target/release/npuzzle}
SEED=${2:-1}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B" generate --size 3 --distance 2,4,6,8,10,12,14,16,18,20,22,24 --count 100 --seed "$SEED" --list > "$T/aima.txt"
for h in hamming manhattan; do
  "$B" batch --list "$T/aima.txt" --algo astar --heuristic "$h" --format csv > "$T/$h.csv"
done
awk -F, '
  FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; file++; next }
  $(col["matches"]) != "true" { print "row " $1 " does not match its expected length" > "/dev/stderr"; exit 1 }
  { d = $(col["expected"]); sum[file, d] += $(col["nodes_generated"]); n[file, d]++; ds[d] = 1 }
  function bstar(N, d,   lo, hi, mid, s, t, i) {
    lo = 1; hi = N + 1
    for (k = 0; k < 100; k++) {
      mid = (lo + hi) / 2; s = 1; t = 1
      for (i = 1; i <= d; i++) { t *= mid; s += t }
      if (s > N + 1) hi = mid; else lo = mid
    }
    return lo
  }
  END {
    print "| d | h1 nodes | h1 b* | h2 nodes | h2 b* |"
    print "|---|---|---|---|---|"
    for (d = 2; d <= 24; d += 2) if (d in ds) {
      a = sum[1, d] / n[1, d]; b = sum[2, d] / n[2, d]
      printf "| %d | %.0f | %.2f | %.0f | %.2f |\n", d, a, bstar(a, d), b, bstar(b, d)
    }
  }' "$T/hamming.csv" "$T/manhattan.csv"

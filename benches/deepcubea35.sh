#!/usr/bin/env bash
# The 35-puzzle figures of benches/RESULTS.md: DeepCubeA's 500 test boards (puzzles/deepcubea/, goal
# blank-last) solved optimally with the 6x6 pattern databases (zero-6-6-6-6-6-5).
#
#   benches/deepcubea35.sh build                 first-time build of the tables in a fresh directory: wall
#                                                time and peak memory, then the size on disk
#   benches/deepcubea35.sh gaps                  the tables' value on each board against DeepCubeA's length
#                                                (an upper bound on the optimum): their means, and the boards
#                                                ordered by the gap between the two, smallest first, as a list
#                                                ($out/deepcubea35-by-gap.txt)
#   benches/deepcubea35.sh optimal [SECONDS] [COUNT]
#                                                IDA* on all cores, one board at a time, on the COUNT (20)
#                                                boards of smallest gap, SECONDS (3600) each; rows to OUT
#                                                (default $out/deepcubea35-optimal-SECONDSs.csv) as each finishes, so
#                                                running it again resumes; then how many were solved, and on
#                                                how many DeepCubeA's length was not optimal. FROM=RANK
#                                                starts at that rank of the gap order (1), so a later run
#                                                can take the next boards
#
# PDB_DIR (default target/bench/pdb6) holds the tables (1.0 GB; the first run builds them, about 22
# minutes). Release build; wall and peak memory from GNU time, nodes and search time from the rows.
source "$(dirname "$0")/setup.sh"
pdb=${PDB_DIR:-$out/pdb6}
boards=puzzles/deepcubea/deepcubea35.txt
reference=benches/data/deepcubea35-results.txt
by_gap=$out/deepcubea35-by-gap.txt

# The rows of the CSV $2, read against DeepCubeA's lengths: $1 says what to print.
summary() {
  python3 - "$boards" "$reference" "$1" "$2" "$by_gap" <<'PY'
import csv, sys
boards_file, reference_file, what, rows_file, by_gap = sys.argv[1:6]
boards = [l.strip() for l in open(boards_file) if l.strip() and not l.startswith("#")]
index = {b: i + 1 for i, b in enumerate(boards)}
length = {}
for line in open(reference_file):
    if line.strip() and not line.startswith("#"):
        n, moves = line.split()[:2]
        length[int(n)] = int(moves)
rows = list(csv.DictReader(open(rows_file)))
mean = lambda xs: sum(xs) / len(xs)
if what == "gaps":
    bound = {index[r["start"]]: int(r["lower_bound"]) for r in rows}
    assert len(bound) == len(boards) == len(length), (len(bound), len(boards), len(length))
    assert all(bound[i] <= length[i] for i in bound), "a value above a length DeepCubeA found"
    print(f"mean value of the tables {mean(list(bound.values())):.2f} over the {len(bound)} boards, "
          f"DeepCubeA's mean length {mean(list(length.values())):.2f}")
    order = sorted(bound, key=lambda i: (length[i] - bound[i], i))
    print("smallest gaps (board: value / DeepCubeA):",
          ", ".join(f"{i}: {bound[i]} / {length[i]}" for i in order[:10]))
    with open(by_gap, "w") as f:
        f.write("# DeepCubeA's 35-puzzle boards, smallest gap between the 6x6 tables' value and DeepCubeA's length first\n")
        f.write("# size: 6x6\n")
        f.writelines(boards[i - 1] + "\n" for i in order)
else:
    solved = [r for r in rows if r["status"] == "solved"]
    print("| board | DeepCubeA | optimal | expanded | search s |\n|---|---|---|---|---|")
    for r in rows:
        i = index[r["start"]]
        if r["status"] == "solved":
            assert r["proven_optimal"] == "true" and int(r["cost"]) <= length[i], r
            cost = r["cost"]
        else:
            cost = f"at least {r['lower_bound']} ({r['status']})"
        print(f"| {i} | {length[i]} | {cost} | {int(r['nodes_expanded']):,} | {float(r['runtime_ms']) / 1000:.1f} |")
    shorter = [r for r in solved if int(r["cost"]) < length[index[r["start"]]]]
    print(f"{len(solved)} of {len(rows)} solved optimally; DeepCubeA's length not optimal on {len(shorter)} of them")
PY
}

case "${1:-}" in
build)
  rm -rf "$out/pdb6-fresh"
  /usr/bin/time -f "build: %e s wall, %M KB peak" \
    "$bin" pdb build --size 6 --goal blank-last --pdb-dir "$out/pdb6-fresh"
  du -b -c "$out"/pdb6-fresh/*.bin | tail -1
  ;;
gaps)
  "$bin" pdb build --size 6 --goal blank-last --pdb-dir "$pdb" > /dev/null
  # A search stopped at its first expansion reports the start's value as its lower bound (exit code 3).
  "$bin" batch --list "$boards" --goal blank-last --algo idastar --heuristic pdb --pdb-dir "$pdb" \
    --max-expanded 1 --threads 1 --format csv > "$out/deepcubea35-values.csv" || [[ $? -eq 3 ]]
  summary gaps "$out/deepcubea35-values.csv"
  ;;
optimal)
  seconds=${2:-3600}
  count=${3:-20}
  from=${FROM:-1}
  [[ "$from" =~ ^[1-9][0-9]*$ && "$from" -le 500 ]] || { echo "FROM must be a rank from 1 to 500" >&2; exit 2; }
  rows=${OUT:-$out/deepcubea35-optimal-${seconds}s.csv}
  [[ -s "$by_gap" ]] || "$0" gaps > /dev/null
  sed -n "1,2p; $((from + 2)),$((from + count + 1))p" "$by_gap" > "$out/deepcubea35-chosen.txt"
  resume=()
  if [[ -e "$rows" ]]; then resume=(--resume); fi
  # Exit code 3 when a search met its time limit: its row says so, and the others still count.
  "$bin" batch --list "$out/deepcubea35-chosen.txt" --goal blank-last --algo idastar --heuristic pdb \
    --pdb-dir "$pdb" --jobs 1 --timeout "$seconds" --out "$rows" --format csv "${resume[@]}" || [[ $? -eq 3 ]]
  summary optimal "$rows"
  ;;
*)
  sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac

#!/usr/bin/env python3
"""How good a batch's answers are, from its CSV (with the start and path
columns): puzzles solved, cost over the stated optimum (`expected`), over
the lower bound the run proved, and over the Manhattan distance, and the
search time. The goal is blank-first unless --goal blank-last is given.

    python3 benches/quality.py rows.csv [--goal blank-last] [--reference FILE]

--reference FILE reads another solver's lengths (lines `N moves ...`, N the
1-based puzzle number in input order, as DeepCubeA's results files are) and
reports the mean cost over them."""
import csv
import sys

# A 100x100 board's path is millions of moves in one field.
csv.field_size_limit(sys.maxsize)


def manhattan(tiles, width, height, blank_last):
    total = 0
    for cell, tile in enumerate(tiles):
        if tile == 0:
            continue
        home = tile - 1 if blank_last else tile
        total += abs(cell // width - home // width) + abs(cell % width - home % width)
    return total


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    blank_last = "--goal" in args and args[args.index("--goal") + 1] == "blank-last"
    reference = None
    if "--reference" in args:
        with open(args[args.index("--reference") + 1]) as f:
            reference = {}
            for line in f:
                if line.strip() and not line.startswith("#"):
                    fields = line.split()
                    reference[int(fields[0])] = int(fields[1])
    with open(args[0], newline="") as f:
        rows = list(csv.DictReader(f))
    solved = [r for r in rows if r["status"] == "solved"]
    ratio = lambda pairs: (sum(a / b for a, b in pairs) / len(pairs), max(a / b for a, b in pairs)) if pairs else (float("nan"), float("nan"))
    to_optimum = [(int(r["cost"]), int(r["expected"])) for r in solved if r["expected"]]
    to_bound = [(int(r["cost"]), max(int(r["lower_bound"]), 1)) for r in solved if r["lower_bound"]]
    to_manhattan = []
    for r in solved:
        tiles = [int(t) for t in r["start"].split()]
        m = manhattan(tiles, int(r["width"]), int(r["height"]), blank_last)
        if m:
            to_manhattan.append((int(r["cost"]), m))
    ms = [float(r["runtime_ms"]) for r in rows]
    print(f"{len(solved)} of {len(rows)} solved; mean search time {sum(ms) / max(len(ms), 1):.1f} ms, "
          f"longest {max(ms, default=0):.1f} ms")
    if to_optimum:
        mean, worst = ratio(to_optimum)
        print(f"cost / optimum: {mean:.4f} mean, {worst:.4f} worst (over {len(to_optimum)})")
    if to_bound:
        mean, worst = ratio(to_bound)
        proven = sum(1 for r in solved if r["proven_optimal"] == "true")
        print(f"cost / lower bound: {mean:.4f} mean, {worst:.4f} worst; {proven} proven optimal")
    if to_manhattan:
        mean, worst = ratio(to_manhattan)
        over = sum(1 for cost, m in to_manhattan if cost > 2 * m)
        print(f"cost / Manhattan distance: {mean:.4f} mean, {worst:.4f} worst, {over} over 2.0")
    if reference:
        pairs = [(int(r["cost"]), reference[i + 1]) for i, r in enumerate(rows)
                 if r["status"] == "solved" and i + 1 in reference]
        mean_cost = sum(c for c, _ in pairs) / max(len(pairs), 1)
        mean_ref = sum(b for _, b in pairs) / max(len(pairs), 1)
        print(f"against the reference: mean {mean_cost:.1f} moves against {mean_ref:.1f} "
              f"({mean_cost / mean_ref:.4f} times), over {len(pairs)} puzzles")


main()

#!/usr/bin/env python3
"""Comparison of two release builds of npuzzle on the same machine at the
same time, runs interleaved so that the machine's drift falls on both alike.

    benches/before_after.py BEFORE AFTER [ROUNDS]

BEFORE and AFTER are npuzzle binaries (build an older commit in a git
worktree). Prints, for each run, both figures and their ratio:
- search time (`runtime_ms`), median of ROUNDS (default 21) interleaved runs,
  of BFS and A* on the hardest 8-puzzle and A* on Korf's 055 and 042;
- process wall of the 8-puzzle runs (hyperfine -N, 30 runs each), if
  hyperfine is installed;
- A* Manhattan on Korf's 1-10, one `solve` each, search time summed;
- Korf's 100 with IDA* and linear conflict (two rounds) and Manhattan (one
  round), `batch --jobs 2`: search time summed and process wall.
Every cost must be the same for both builds, and optimal where the file
says so. A few minutes on a 2-core machine.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

if len(sys.argv) < 3:
    sys.exit(__doc__)
builds = {"before": os.path.abspath(sys.argv[1]), "after": os.path.abspath(sys.argv[2])}
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 21
os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))


def solve(binary, args):
    out = subprocess.run([binary, "solve", *args, "--format", "json"], capture_output=True, text=True, check=True)
    row = json.loads(out.stdout)
    assert row["status"] == "solved", row
    return row


def line(name, before, after, unit):
    print(f"{name}: before {before:.2f} {unit}, after {after:.2f} {unit} ({after / before:.3f}x)", flush=True)


searches = [
    ("BFS, 8-puzzle hardest-31a", ["puzzles/3x3/hardest-31a.txt", "--algo", "bfs"]),
    ("A* Manhattan, 8-puzzle hardest-31a", ["puzzles/3x3/hardest-31a.txt", "--algo", "astar", "--heuristic", "manhattan"]),
    ("A* Manhattan, Korf 055", ["puzzles/korf100/055.txt", "--algo", "astar", "--heuristic", "manhattan"]),
    ("A* Manhattan, Korf 042", ["puzzles/korf100/042.txt", "--algo", "astar", "--heuristic", "manhattan"]),
    ("A* linear conflict, Korf 055", ["puzzles/korf100/055.txt", "--algo", "astar", "--heuristic", "linear-conflict"]),
]
for name, args in searches:
    times = {k: [] for k in builds}
    costs = set()
    for _ in range(rounds):
        for k, binary in builds.items():
            row = solve(binary, args)
            times[k].append(row["runtime_ms"])
            costs.add(row["cost"])
    assert len(costs) == 1, (name, costs)
    line(f"{name}, search, median of {rounds}", statistics.median(times["before"]), statistics.median(times["after"]), "ms")

if shutil.which("hyperfine"):
    for name, args in searches[:2]:
        commands = [" ".join([binary, "solve", *args]) for binary in builds.values()]
        with tempfile.NamedTemporaryFile(suffix=".json") as export:
            subprocess.run(["hyperfine", "-N", "-w", "5", "-r", "30", "--export-json", export.name, *commands],
                           capture_output=True, check=True)
            results = json.load(open(export.name))["results"]
        (b, a) = ((r["mean"] * 1e3, r["stddev"] * 1e3) for r in results)
        print(f"{name}, process wall, 30 runs: before {b[0]:.1f} ± {b[1]:.1f} ms, after {a[0]:.1f} ± {a[1]:.1f} ms",
              flush=True)
else:
    print("hyperfine not found: process wall times skipped", flush=True)

summed = {k: 0.0 for k in builds}
for i in range(1, 11):
    for k, binary in builds.items():
        row = solve(binary, [f"puzzles/korf100/{i:03d}.txt"])
        want = int(re.search(r"# optimal: (\d+)", open(f"puzzles/korf100/{i:03d}.txt").read()).group(1))
        assert row["cost"] == want, (i, k, row["cost"], want)
        summed[k] += row["runtime_ms"] / 1000
line("A* Manhattan, Korf's 1-10, search summed", summed["before"], summed["after"], "s")

for heuristic, batch_rounds in [("linear-conflict", 2), ("manhattan", 1)]:
    for r in range(batch_rounds):
        figures = {}
        for k, binary in builds.items():
            started = time.time()
            out = subprocess.run([binary, "batch", "puzzles/korf100", "--algo", "idastar", "--heuristic", heuristic,
                                  "--jobs", "2", "--format", "json"], capture_output=True, text=True).stdout
            wall = time.time() - started
            rows = [json.loads(l) for l in out.splitlines() if l.strip()]
            for row in rows:
                want = int(re.search(r"# optimal: (\d+)", open(row["file"]).read()).group(1))
                assert row["status"] == "solved" and row["cost"] == want, row["file"]
            figures[k] = (sum(row["runtime_ms"] for row in rows) / 1000, wall)
        print(f"IDA* {heuristic}, Korf's 100, batch --jobs 2, round {r + 1}: "
              f"before {figures['before'][0]:.1f} s summed, {figures['before'][1]:.1f} s wall; "
              f"after {figures['after'][0]:.1f} s summed, {figures['after'][1]:.1f} s wall "
              f"({figures['after'][0] / figures['before'][0]:.3f}x)", flush=True)

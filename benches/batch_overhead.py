#!/usr/bin/env python3
"""Share of batch's process wall time spent outside the searches' own clocks.

Usage: benches/batch_overhead.py target/release/npuzzle batch --list FILE ... --format csv
Runs the command 31 times (the first as warm-up); per run, wall time is measured
around the process and the searches' time is the sum of the CSV's runtime_ms.
"""
import subprocess, time, sys, statistics, csv, io
cmd = sys.argv[1:]
ratios=[]; walls=[]; sums=[]
for i in range(31):
    t=time.perf_counter(); out=subprocess.run(cmd, capture_output=True, text=True).stdout; w=(time.perf_counter()-t)*1000
    rows=list(csv.DictReader(io.StringIO(out)))
    s=sum(float(r['runtime_ms']) for r in rows)
    if i==0: continue
    ratios.append((w-s)/w); walls.append(w); sums.append(s)
print(f"rows={len(rows)} wall median {statistics.median(walls):.1f} ms, search sum median {statistics.median(sums):.1f} ms, overhead median {100*statistics.median(ratios):.1f}% (min {100*min(ratios):.1f}%, max {100*max(ratios):.1f}%)")

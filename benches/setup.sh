# Sourced by the bench scripts: stop on the first error, run from the crate
# root, build the release binary, and name it ($bin) and the folder results
# go to ($out, BENCH_OUT or target/bench).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo build --release --quiet
bin=target/release/npuzzle
out=${BENCH_OUT:-target/bench}
mkdir -p "$out"

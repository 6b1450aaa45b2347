#!/usr/bin/env bash
# The benchmarks, run on demand: criterion measures ulid-flake, the peer crates and the
# machine's floors in one run; the report turns the run into the ratio tables of
# BENCHMARKS.md. Run it on an otherwise idle machine. Extra arguments go to criterion
# (e.g. `scripts/bench.sh --measurement-time 3`).
set -euo pipefail
cd "$(dirname "$0")/.."
export SQLX_OFFLINE=true
log=target/bench.log
mkdir -p target
cargo bench -p ulid-flake-benchmarks --benches -- "$@" 2>&1 | tee "$log"
python3 scripts/bench-report.py "$log"

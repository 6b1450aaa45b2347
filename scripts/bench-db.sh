#!/usr/bin/env bash
# The database-scale benchmark, on demand (CI runs only its smoke mode, in scripts/test.sh):
# auto-increment, Ulid-Flake BIGINT (made by the application, and made by the database's own
# ulid_flake_generate('bench')), UUIDv7 and UUIDv4 primary keys, 1,000,000 rows each, on
# throwaway PostgreSQL and MariaDB (InnoDB) servers. It decides with statistics, not one run:
# 5 repetitions, each from fresh tables, the kinds filled side by side batch by batch (the
# order changing from batch to batch by a Williams design: every kind in every position and
# right after every other kind equally often) so that all meet the same server state, and
# lookups and window scans taking turns the same way. Prints a Markdown report for
# BENCHMARKS.md: for every figure (insert rate per 100,000-row segment and over all rows, table
# and index sizes, point lookups p50/p99, a time-window range scan) the median over the
# repetitions with its range, and the ratio to auto-increment taken within each repetition,
# its median and range marked ≠ where the range excludes 1.00; the header names the CPU, the
# memory and the load average at the start and the end. Writes the segment rates' medians (and
# min/max) to benchmarks/db-insert-rate.csv and their chart to benchmarks/db-insert-rate.svg.
#
#   scripts/bench-db.sh [--rows N] [--segment N] [--repetitions N] [--databases postgres,mariadb]
#                       [--explain] [...]
#
# The options go to the binary (benchmarks/src/bin/db.rs, whose doc comment lists them all and
# describes the method). The full run takes about half an hour on two cores; run it on an
# otherwise idle machine (progress goes to stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
export SQLX_OFFLINE=true
cargo build -q --release -p ulid-flake-benchmarks --bin db
exec scripts/with-databases.sh "${CARGO_TARGET_DIR:-target}/release/db" "$@"

#!/usr/bin/env bash
# Checks the published test vectors (ulid-flake-core/test-vectors/ulid-flake.json) against the
# Python reference implementation, PyPI `ulid-flake`, pinned and installed on first use under
# the Cargo target directory by scripts/lib/python-package.sh: every case where this project
# does not depart from it comes out the same, and every departure listed for Python still
# departs (scripts/lib/check-vectors.py). The core's tests run every case against this crate.
#
#   scripts/check-vectors.sh
set -euo pipefail
cd "$(dirname "$0")/.."

readonly REFERENCE=ulid-flake==0.1.3

prog=${0##*/}
log() { printf '%s: %s\n' "$prog" "$*" >&2; }
die() { log "error: $*"; exit 1; }

source scripts/lib/python-package.sh
python_package "$REFERENCE" "${CARGO_TARGET_DIR:-target}/python-ulid-flake"
log "prefixed IDs and non-UTF-8 inputs are not in the reference: the core's tests check those"
"${python[@]}" scripts/lib/check-vectors.py ulid-flake-core/test-vectors/ulid-flake.json

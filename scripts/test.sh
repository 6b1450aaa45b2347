#!/usr/bin/env bash
# Every check and test of the workspace, as CI runs them.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n==> %s\n' "$*" >&2; }

step "formatting"
cargo fmt --all -- --check

step "lints"
cargo clippy --workspace --all-targets --all-features -- -D warnings

step "docs"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --all-features --no-deps

step "feature combinations of ulid-flake-core (no_std first)"
for features in "" alloc serde,uuid std std,serde tokio; do
  cargo check -q -p ulid-flake-core --no-default-features --features "$features"
done

step "tests and doctests"
cargo test --workspace --all-features

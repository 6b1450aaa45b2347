#!/usr/bin/env python3
"""Prints, comma-separated, the features of a crate that `cargo hack --each-feature` need not
check alone (scripts/test.sh, step `features`):
- aliases (`sqlx = ["sqlx09"]`): each is the same build as the versioned feature it names,
  which is checked;
- in an adapter, the features that only turn on one of the core's (`uuid =
  ["ulid-flake-core/uuid"]`): the adapter's own code is the same with them, and the core
  checks each of its features alone; the all-features builds (clippy, docs, tests) check them
  together with the adapter's.

    scripts/lib/hack-exclusions.py CRATE_DIR
"""
import pathlib
import sys
import tomllib

manifest = tomllib.loads((pathlib.Path(sys.argv[1]) / "Cargo.toml").read_text())
features = manifest.get("features", {})
skipped = [
    name
    for name, enables in features.items()
    if name != "default"
    and len(enables) == 1
    and (enables[0] in features or enables[0].startswith("ulid-flake-core/"))
]
print(",".join(skipped))

#!/usr/bin/env python3
"""Prints, comma-separated, the features of a crate that `cargo hack --each-feature` need not
check alone (scripts/test.sh, step `features`):

- an alias (`sqlx = ["sqlx09"]`): the same build as the feature it names, which is checked;
- in an adapter, a pass-through of one core feature (`utoipa5 = ["ulid-flake-core/utoipa5"]`):
  the adapter's code has no `cfg` on it (scripts/test.sh checks that), the core checks each
  such feature alone, and the adapter's `--all-features` run checks them all together.

    scripts/lib/hack-exclusions.py CRATE_DIR
"""
import pathlib
import sys
import tomllib

manifest = tomllib.loads((pathlib.Path(sys.argv[1]) / "Cargo.toml").read_text())
features = manifest.get("features", {})
excluded = []
for name, enables in features.items():
    if name == "default" or len(enables) != 1:
        continue
    (only,) = enables
    if only in features or only.startswith("ulid-flake-core/"):
        excluded.append(name)
print(",".join(excluded))

#!/usr/bin/env python3
"""Prints, comma-separated, the alias features of a crate (`sqlx = ["sqlx09"]`), which
`cargo hack --each-feature` need not check alone: each is the same build as the versioned
feature it names, which is checked (scripts/test.sh, step `features`).

    scripts/lib/hack-exclusions.py CRATE_DIR
"""
import pathlib
import sys
import tomllib

manifest = tomllib.loads((pathlib.Path(sys.argv[1]) / "Cargo.toml").read_text())
features = manifest.get("features", {})
aliases = [
    name
    for name, enables in features.items()
    if name != "default" and len(enables) == 1 and enables[0] in features
]
print(",".join(aliases))

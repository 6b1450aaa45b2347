#!/usr/bin/env python3
"""Writes the feature tables of the READMEs from the `##` comments in each crate's Cargo.toml,
the same source `document-features` renders into the crate docs, so the two cannot drift.

    scripts/feature-tables.py          rewrite the tables in place
    scripts/feature-tables.py --check  fail, naming the file, if a table is out of date

A table sits between `<!-- features: CRATE -->` and `<!-- /features -->` in a README.
"""
import pathlib
import re
import sys
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
CRATES = ["ulid-flake-core", "ulid-flake-sqlx", "ulid-flake-diesel"]
READMES = [ROOT / "README.md"] + [ROOT / crate / "README.md" for crate in CRATES]
BLOCK = re.compile(r"(<!-- features: ([\w-]+) -->\n).*?(<!-- /features -->)", re.S)


def features(crate):
    """(name, default, description) for each documented feature, in Cargo.toml's order."""
    manifest = (ROOT / crate / "Cargo.toml").read_text()
    defaults = set(tomllib.loads(manifest)["features"].get("default", []))
    section = manifest.split("[features]\n", 1)[1].split("\n[", 1)[0]
    rows, comment = [], []
    for line in section.splitlines():
        if line.startswith("## "):
            comment.append(line[3:].strip())
        elif match := re.match(r"([\w-]+)\s*=", line):
            name = match.group(1)
            if name != "default":
                if not comment:
                    sys.exit(f"{crate}/Cargo.toml: feature `{name}` has no `##` comment")
                rows.append((name, name in defaults, " ".join(comment)))
            comment = []
    return rows


def table(crate):
    lines = ["| feature | default | what it adds |", "|---|---|---|"]
    lines += [f"| `{name}` | {'yes' if on else ''} | {text} |" for name, on, text in features(crate)]
    return "\n".join(lines) + "\n"


def main():
    check = sys.argv[1:] == ["--check"]
    stale = []
    for readme in READMES:
        text = readme.read_text()
        new = BLOCK.sub(lambda m: m.group(1) + table(m.group(2)) + m.group(3), text)
        if new != text:
            stale.append(readme.relative_to(ROOT))
            if not check:
                readme.write_text(new)
    if check and stale:
        sys.exit(f"feature tables out of date in {', '.join(map(str, stale))}: run scripts/feature-tables.py")


main()

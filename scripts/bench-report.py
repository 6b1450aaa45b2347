#!/usr/bin/env python3
"""Turns the output of `cargo bench -p ulid-flake-benchmarks` into the Markdown tables of
BENCHMARKS.md: each result with its ratio to the baseline of its group (the bare clock read for
generation, the straightforward codec for text, a `u64` for serde)."""

import re
import sys

# criterion prints "group/name" then "time:   [low mean high]" (on one line or two).
RESULT = re.compile(r"^(?P<name>\S.*?)\s+time:\s+\[(?P<low>[\d.]+ \S+) (?P<mean>[\d.]+ \S+) (?P<high>[\d.]+ \S+)\]", re.M)
UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def nanoseconds(text):
    value, unit = text.split()
    return float(value) * UNITS[unit]


def main(path):
    text = open(path, encoding="utf-8").read()
    # Names and their times may be on separate lines: join a lone name with the next line.
    text = re.sub(r"^(\S[^\n]*?)\n\s+time:", r"\1 time:", text, flags=re.M)
    results = {m["name"].strip(): (nanoseconds(m["low"]), nanoseconds(m["mean"]), nanoseconds(m["high"]))
               for m in RESULT.finditer(text)}
    baselines = {
        "generate/1 thread": "floor/SystemTime::now as unix ms",
        "generate/2 threads, one generator": "floor/SystemTime::now as unix ms",
        "encode into a buffer": "encode into a buffer/baseline (table per 5 bits)",
        "encode with to_string": "encode with to_string/ulid-flake",
        "parse (validating)": "parse (validating)/baseline (alphabet search)",
        "serde_json": None,
    }
    groups = {}
    for name, times in results.items():
        group = name.rsplit("/", 1)[0] if name.count("/") >= 1 else name
        groups.setdefault(group, []).append((name, times))
    for group, rows in groups.items():
        base = baselines.get(group)
        base_time = results.get(base, (None, None, None))[1] if base else None
        print(f"\n### {group}\n")
        header = "| benchmark | time (low, mean, high) |" + (f" ratio to `{base.rsplit('/', 1)[-1]}` |" if base_time else "")
        print(header)
        print("|---|---|" + ("---|" if base_time else ""))
        for name, (low, mean, high) in rows:
            cells = f"| {name.rsplit('/', 1)[-1]} | {low:.2f} / **{mean:.2f}** / {high:.2f} ns |"
            if base_time:
                cells += f" {mean / base_time:.2f} |"
            print(cells)
    for line in text.splitlines():
        if line.startswith("bulk:"):
            print(f"\n{line}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "target/bench.log")

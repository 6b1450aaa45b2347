#!/usr/bin/env python3
"""The ratios that decide BENCHMARKS.md's targets, from alternated runs.

    scripts/bench-alternated.py [--runs 5] [--measurement-time 2] [--pair TEXT]... [--no-floors]
                                [--one-process]

Each run times every pair below with one criterion invocation per row, ours first in odd runs
and the other row first in even ones, so that neither side always runs on a warmer or a
cooler machine. Each run records the machine's load (/proc/loadavg) and the time a cache line
takes to move between its two cores (the `handoff` binary, a state of the machine that the
host can change between runs) before it starts; the report names the host (`lscpu`'s
model name) and gives, per pair, every run's ratio and their median and range, per absolute
target every run's figure and their median and range, and per run its load, hand-off and
ratios side by side.
`--pair` keeps the pairs whose description contains TEXT (more runs of the targets a set
left undecided, at the same cost per run), `--no-floors` leaves the floors out,
`--one-process` times both rows of each pair in one criterion invocation (not alternated:
criterion runs them in the benchmark's order). Run it on an otherwise idle machine.
"""

import argparse
import json
import re
import statistics
import subprocess
import sys

# (what, ours, theirs or None, target): the ratio ours / theirs, or ours alone (ns) when
# theirs is None. Row names are criterion's ids, group/name.
PAIRS = [
    ("TickerClock, 1 thread, against ferroid's non-waiting call",
     "generate/1 thread/ulid-flake (TickerClock)",
     "generate/1 thread/ferroid (AtomicSnowflakeGenerator, poll_id)", 1.0),
    ("TickerClock, 2 threads on one generator, against ferroid's non-waiting call",
     "generate/2 threads, one generator/ulid-flake (TickerClock)",
     "generate/2 threads, one generator/ferroid (AtomicSnowflakeGenerator, poll_id)", 1.0),
    ("system clock, 1 thread, against the generator's clock read",
     "generate/1 thread/ulid-flake",
     "floor/SystemClock::unix_ms (the generator's clock read)", 1.2),
    ("batch of 1,000, ns an ID",
     "generate/batch of 1,000, per ID/ulid-flake try_generate_batch",
     None, 1.0),
]
# Floors timed in each run beside the pairs, for the breakdown.
FLOORS = [
    "generate/1 thread/floor: ulid-flake (TickerClock), a constant increment",
    "generate/1 thread/floor: ulid-flake (TickerClock), a thread-local counter as the increment",
    "generate/1 thread/floor: ulid-flake, a constant increment",
    "generate/1 thread/floor: ulid-flake, a thread-local counter as the increment",
    "floor/uncontended compare_exchange",
    "floor/SystemClock::unix_ms and a compare_exchange",
    "floor/ThreadRandom::next_u32 (a word)",
    "floor/ThreadRandom::increment_draw(1) (the generator's draw)",
    "generate/batch of 1,000, per ID/floor: ThreadRandom::fill_bytes of 1,000",
]
PER_ID = {
    "generate/batch of 1,000, per ID/ulid-flake try_generate_batch": 1000,
    "generate/batch of 1,000, per ID/floor: ThreadRandom::fill_bytes of 1,000": 1000,
}

UNITS = {"ps": 1e-3, "ns": 1.0, "µs": 1e3, "us": 1e3, "ms": 1e6}
# A row's name, on the line of its estimate or the one before, and its estimate.
NAMED_TIME = re.compile(r"^(\S.*?)\s*\n?\s*time:\s+\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", re.M)


def run_rows(rows, measurement_time):
    """The rows' estimates in ns, in the order criterion runs them (the order the benchmark
    defines them), from one criterion invocation."""
    pattern = "^(" + "|".join(re.escape(row) for row in rows) + ")$"
    out = subprocess.run(
        ["cargo", "bench", "-q", "-p", "ulid-flake-benchmarks", "--bench", "generate", "--",
         "--warm-up-time", "1", "--measurement-time", str(measurement_time), "--noplot",
         pattern],
        check=True, capture_output=True, text=True).stdout
    found = NAMED_TIME.findall(out)
    estimates = {name.strip(): float(value) * UNITS[unit] for name, value, unit in found}
    if sorted(estimates) != sorted(rows):
        sys.exit(f"expected results for {rows!r}, found {sorted(estimates)!r}:\n{out}")
    return {row: estimates[row] / PER_ID.get(row, 1) for row in rows}


def run_row(row, measurement_time):
    """The row's estimate in ns, from one criterion invocation."""
    return run_rows([row], measurement_time)[row]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--measurement-time", type=int, default=2)
    parser.add_argument("--pair", action="append", default=[],
                        help="keep the pairs whose description contains this (repeatable)")
    parser.add_argument("--no-floors", action="store_true", help="time the pairs alone")
    parser.add_argument("--one-process", action="store_true",
                        help="time both rows of a pair in one criterion invocation (in the "
                             "order the benchmark defines them, not alternated)")
    args = parser.parse_args()
    pairs = [pair for pair in PAIRS if not args.pair or any(text in pair[0] for text in args.pair)]
    if not pairs:
        sys.exit(f"no pair's description contains any of {args.pair}")
    floors = [] if args.no_floors else FLOORS
    host = next((line.split(":", 1)[1].strip()
                 for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
                 if line.startswith("Model name")), "unknown")
    subprocess.run(["cargo", "bench", "-q", "-p", "ulid-flake-benchmarks", "--bench", "generate",
                    "--no-run"], check=True, capture_output=True)
    subprocess.run(["cargo", "build", "-q", "--release", "-p", "ulid-flake-benchmarks",
                    "--bin", "handoff"], check=True, capture_output=True)
    handoff_binary = subprocess.run(
        ["cargo", "metadata", "-q", "--format-version", "1", "--no-deps"],
        check=True, capture_output=True, text=True).stdout
    handoff_binary = json.loads(handoff_binary)["target_directory"] + "/release/handoff"
    results = {row: [] for pair in pairs for row in pair[1:3] if row} | {row: [] for row in floors}
    loads = []
    handoffs = []
    for run in range(args.runs):
        with open("/proc/loadavg") as f:
            loads.append(f.read().split()[0])
        handoffs.append(subprocess.run([handoff_binary], check=True, capture_output=True,
                                       text=True).stdout.strip())
        for _, ours, theirs, _ in pairs:
            if args.one_process and theirs:
                for row, value in run_rows([ours, theirs], args.measurement_time).items():
                    results[row].append(value)
                continue
            order = [ours, theirs] if run % 2 == 0 else [theirs, ours]
            for row in order:
                if row:
                    results[row].append(run_row(row, args.measurement_time))
        for row in floors:
            results[row].append(run_row(row, args.measurement_time))
        print(f"run {run + 1} of {args.runs} done", file=sys.stderr)

    how = "runs, each pair in one process" if args.one_process else "alternated runs"
    print(f"Host: {host}; {args.runs} {how}; load average (1 min) before each: "
          f"{', '.join(loads)}; a cache line's hand-off between the cores before each, ns: "
          f"{', '.join(handoffs)}\n")
    print("| target | each run | median | range | target | runs within it | verdict |")
    print("|---|---|---:|---|---:|---:|---|")
    for what, ours, theirs, target in pairs:
        if theirs:
            values = [a / b for a, b in zip(results[ours], results[theirs])]
            shown = [f"{v:.2f} ×" for v in values]
            limit = f"≤ {target:.1f} ×"
        else:
            values = results[ours]
            shown = [f"{v:.2f} ns" for v in values]
            limit = f"≤ {target:.1f} ns"
        median = statistics.median(values)
        verdict = "met" if max(values) <= target else ("met by the median" if median <= target else "missed")
        unit = " ×" if theirs else " ns"
        within = sum(value <= target for value in values)
        print(f"| {what} | {', '.join(shown)} | {median:.2f}{unit} | "
              f"{min(values):.2f}–{max(values):.2f}{unit} | {limit} | {within} of {len(values)} | "
              f"{verdict} |")
    ratio_pairs = [(what, ours, theirs) for what, ours, theirs, _ in pairs if theirs]
    print("\n| run | load | hand-off, ns | " + " | ".join(what for what, _, _ in ratio_pairs)
          + " |")
    print("|---:|---:|---:|" + "---:|" * len(ratio_pairs))
    for run in range(args.runs):
        print(f"| {run + 1} | {loads[run]} | {handoffs[run]} | " + " | ".join(
            f"{results[ours][run] / results[theirs][run]:.2f} ×" for _, ours, theirs in ratio_pairs)
            + " |")
    print("\n| row | each run, ns | median |")
    print("|---|---|---:|")
    for row, values in results.items():
        print(f"| {row} | {', '.join(f'{v:.2f}' for v in values)} | {statistics.median(values):.2f} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks the test vectors (ulid-flake-core/test-vectors/ulid-flake.json) against the Python
reference implementation (PyPI `ulid-flake`): every case where this project does not depart
from it must come out the same, and every departure it lists for Python must still depart.
Prefixed IDs are not in the references, and Python takes no bytes: those cases are the core's
tests' alone (scripts/check-vectors.sh says so when it runs).

    check-vectors.py VECTORS_JSON
"""
import json
import sys

from ulid_flake.api import UlidFlake
from ulid_flake.scalable import UlidFlakeScalable

vectors = json.load(open(sys.argv[1], encoding="utf-8"))
departed = {
    departure["case"]
    for departure in vectors["departures"]
    if "Python" in departure["references"]
}
visited = set()
failures = []
checked = 0


def check(case, found, expected):
    global checked
    checked += 1
    if found != expected:
        failures.append(f"{case}: expected {expected!r}, Python gives {found!r}")


def outcome(parse, text):
    """The reference's answer: the integer, or the exception's kind."""
    try:
        return parse(text).int
    except ValueError as error:
        message = str(error)
        if "characters long" in message:
            return "invalid_length"
        if "invalid Base32 characters" in message:
            return "invalid_character"
        return f"ValueError: {message}"
    except OverflowError:
        return "out_of_range"


for case in vectors["valid"]:
    value = int(case["int"])
    flake = UlidFlake.from_int(value)
    check(case["int"], flake.base32, case["text"])
    check(case["text"], UlidFlake.parse(case["text"]).int, value)
    check(case["text"] + " timestamp", flake.timestamp, case["timestamp_ms"])
    check(case["text"] + " randomness", flake.randomness, case["randomness"])
    scalable = UlidFlakeScalable.from_int(value)
    check(case["text"] + " scalable randomness", scalable.randomness, case["scalable"]["randomness"])
    # The reference has no reading of the scalability id: its bits, as the spec places them.
    check(case["text"] + " scalability id", flake.int & 31, case["scalable"]["scalability_id"])
    check(case["text"] + " unix ms", vectors["epoch_unix_ms"] + flake.timestamp, case["unix_ms"])
    check(case["text"] + " bin", flake.bin, case["bin"])
    # The reference has no byte form: the spec's, 8 bytes big-endian, from its integer.
    check(case["text"] + " bytes", flake.int.to_bytes(8, "big").hex().upper(), case["bytes"])
    # A departure: the reference's hex is lowercase. The digits must agree.
    check(case["text"] + " hex digits", flake.hex.upper(), case["hex"].upper())
    check(case["text"] + " hex case", flake.hex == case["hex"], case["hex"] == case["hex"].lower())
    visited.add("hex")

integers = {case["text"]: int(case["int"]) for case in vectors["valid"]}
for case in vectors["accepted"]:
    check(case["input"], outcome(UlidFlake.parse, case["input"]), integers[case["text"]])

for case in vectors["invalid_text"]:
    if "input" not in case:
        continue  # bytes: the reference takes only str
    found = outcome(UlidFlake.parse, case["input"])
    if case["input"] in departed:
        visited.add(case["input"])
        checked += 1
        if found == case["error"]["kind"]:
            failures.append(f"{case['input']!r}: listed as a departure, but Python agrees now")
    else:
        check(repr(case["input"]), found, case["error"]["kind"])

for case in vectors["invalid_int"]:
    check(case["int"], outcome(UlidFlake.from_int, int(case["int"])), case["error"]["kind"])

for case in sorted(departed - visited):
    failures.append(f"{case!r}: a departure for Python that no check reached")
# The cases the file holds, as the core's tests count them: a change of the file changes this.
if checked != 205:
    failures.append(f"{checked} checks ran, expected 205")

if failures:
    print("\n".join(failures))
    sys.exit(f"{len(failures)} of {checked} checks disagree with the Python reference")
print(f"{checked} checks agree with the Python reference (departures included)")

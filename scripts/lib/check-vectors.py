#!/usr/bin/env python3
"""Checks the test vectors (ulid-flake-core/test-vectors/ulid-flake.json) against the Python
reference implementation (PyPI `ulid-flake`): every case where this project does not depart
from it must come out the same, and every departure it lists for Python must still depart.
Prefixed IDs are not in the references, and Python takes no bytes: those cases are the core's
tests' alone (scripts/check-vectors.sh says so when it runs). The generation cases run through
the reference's own generators, their clock and randomness scripted.

    check-vectors.py VECTORS_JSON
"""
import json
import sys
from datetime import datetime, timedelta, timezone

from ulid_flake import api as api_module, scalable as scalable_module
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

# Generation: the reference's generators driven through their own `new`, with the clock and
# `os.urandom` of their modules replaced by the step's script. A fresh draw is the field's
# value in the bytes the reference reads (3 stand-alone, 2 scalable), an increment its `n`
# bytes, both big-endian as it reads them. A step that lists no draw (it fails on the clock)
# offers the reference one, to see what it does with a step the spec refuses.
UNLISTED_DRAW = 0x1A5A


class ScriptedTime:
    """Stands in for the modules' `datetime`: `now` is the step's Unix millisecond."""
    unix_ms = 0

    @staticmethod
    def now(tz):
        return datetime(1970, 1, 1, tzinfo=tz) + timedelta(milliseconds=ScriptedTime.unix_ms)


class ScriptedOs:
    """Stands in for the modules' `os`: each `urandom` call takes the step's next draw."""
    draws = []

    @staticmethod
    def urandom(size):
        return ScriptedOs.draws.pop(0).to_bytes(size, "big")


def reference_outcome(generator):
    """The reference's answer to a step: the ID (with its text), or the error's kind; an ID
    or an overflow that left any of the step's draws untaken is no answer of the file's."""
    try:
        flake = generator.new()
        found = {"int": str(flake.int), "text": flake.base32}
    except IndexError:
        return {"drew": "more random values than the step lists"}
    except OverflowError as error:
        message = str(error)
        if message.startswith("Timestamp exceeds"):
            return {"kind": "timestamp_out_of_range"}
        if not message.startswith("Randomness exceeds"):
            return {"OverflowError": message}
        found = {"kind": "overflow"}
    if ScriptedOs.draws:
        found["draws left"] = ScriptedOs.draws
    return found


for module in (api_module, scalable_module):
    module.datetime = ScriptedTime
    module.os = ScriptedOs
for index, case in enumerate(vectors["generation"]):
    config = case["config"]
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(
        milliseconds=config["epoch_unix_ms"])
    if config["scalability_id"] is None:
        generator = UlidFlake
        generator.set_config(epoch_time=epoch, entropy_size=config["entropy_bytes"])
    else:
        generator = UlidFlakeScalable
        generator.set_config(epoch_time=epoch, entropy_size=config["entropy_bytes"],
                             sid=config["scalability_id"])
    generator.previous_timestamp = generator.previous_randomness = None
    for number, step in enumerate(case["steps"]):
        ScriptedTime.unix_ms = step["unix_ms"]
        ScriptedOs.draws = list(step["draws"]) or [UNLISTED_DRAW]
        found = reference_outcome(generator)
        expected = step["id"] if "id" in step else {"kind": step["error"]["kind"]}
        name = f"generation[{index}] step {number}"
        if name in departed:
            visited.add(name)
            checked += 1
            if found == expected:
                failures.append(f"{name}: listed as a departure, but Python agrees now")
        else:
            check(name, found, expected)

for case in sorted(departed - visited):
    failures.append(f"{case!r}: a departure for Python that no check reached")
# The cases the file holds, as the core's tests count them: a change of the file changes this.
if checked != 249:
    failures.append(f"{checked} checks ran, expected 249")

if failures:
    print("\n".join(failures))
    sys.exit(f"{len(failures)} of {checked} checks disagree with the Python reference")
print(f"{checked} checks agree with the Python reference (departures included)")

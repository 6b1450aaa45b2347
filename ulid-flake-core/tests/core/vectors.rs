//! The published test vectors (`test-vectors/ulid-flake.json`, for every port of the format)
//! run against this crate: every case of every section, counted, so that the file cannot
//! drift from the code. `scripts/check-vectors.sh` checks the same file against the Python
//! reference.

use std::time::Duration;

use serde_json::Value;
use ulid_flake_core::generator::{Generator, Layout};
use ulid_flake_core::{Epoch, Error, Prefix, PrefixedId, UlidFlake};

use crate::support::{ManualClock, ScriptedRandom, UNUSED_DRAW};

const VECTORS: &str = include_str!("../../test-vectors/ulid-flake.json");

struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

fn vectors() -> Value {
    serde_json::from_str(VECTORS).expect("the vectors are JSON")
}

fn cases<'a>(value: &'a Value, section: &str) -> &'a [Value] {
    value[section]
        .as_array()
        .unwrap_or_else(|| panic!("no section {section}"))
}

fn text<'a>(case: &'a Value, field: &str) -> &'a str {
    case[field]
        .as_str()
        .unwrap_or_else(|| panic!("{case}: no text {field}"))
}

fn number(case: &Value, field: &str) -> u64 {
    case[field]
        .as_u64()
        .unwrap_or_else(|| panic!("{case}: no number {field}"))
}

/// The case's input: its text, or the bytes `input_hex` spells.
fn input(case: &Value) -> Vec<u8> {
    match case.get("input_hex") {
        Some(hex) => {
            let hex = hex.as_str().unwrap();
            (0..hex.len())
                .step_by(2)
                .map(|at| u8::from_str_radix(&hex[at..at + 2], 16).unwrap())
                .collect()
        }
        None => text(case, "input").as_bytes().to_vec(),
    }
}

/// Whether `error` is the one the case's `error` object names.
fn is_expected(case: &Value, error: Error) -> bool {
    let expected = &case["error"];
    match (text(expected, "kind"), error) {
        ("invalid_length", Error::InvalidLength { found, .. }) => {
            found as u64 == number(expected, "found")
        }
        ("invalid_character", Error::InvalidCharacter { index, found }) => {
            index as u64 == number(expected, "index") && u64::from(found) == number(expected, "found")
        }
        ("out_of_range", Error::OutOfRange { .. }) => true,
        (
            "wrong_prefix",
            Error::WrongPrefix {
                expected: prefix,
                found,
                found_len,
            },
        ) => {
            let found = &found[..usize::from(found_len).min(Error::FOUND_PREFIX_BYTES)];
            prefix == User::PREFIX && found == text(expected, "found").as_bytes()
        }
        _ => false,
    }
}

/// The UTC date and time of a Unix millisecond, as the vectors write it (proleptic
/// Gregorian calendar: days to a civil date, after Howard Hinnant's `civil_from_days`).
fn utc(unix_ms: u64) -> String {
    let (days, ms) = (unix_ms / 86_400_000, unix_ms % 86_400_000);
    let days = days as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1_000 % 60,
        ms % 1_000
    )
}

#[test]
fn the_file_is_version_1_of_the_format_with_the_default_epoch() {
    let vectors = vectors();
    // Every section is one the tests below run: a new one must come with its test.
    let mut sections: Vec<&String> = vectors.as_object().unwrap().keys().collect();
    sections.sort();
    assert_eq!(
        sections,
        [
            "accepted",
            "alphabet",
            "departures",
            "epoch_unix_ms",
            "format",
            "generation",
            "invalid_int",
            "invalid_text",
            "prefixed",
            "valid",
            "version"
        ]
    );
    assert_eq!(vectors["format"], "Ulid-Flake test vectors");
    assert_eq!(vectors["version"], 1);
    assert_eq!(number(&vectors, "epoch_unix_ms"), Epoch::DEFAULT.unix_ms());
    assert_eq!(vectors["alphabet"], "0123456789ABCDEFGHJKMNPQRSTVWXYZ");
}

#[test]
fn every_valid_case_reads_and_writes_as_the_file_says() {
    let vectors = vectors();
    let mut ran = 0;
    for case in cases(&vectors, "valid") {
        let value: u64 = text(case, "int").parse().unwrap();
        let id = UlidFlake::from_u64(value).unwrap();
        assert_eq!(id.to_string(), text(case, "text"), "{case}");
        assert_eq!(UlidFlake::parse_str(text(case, "text")), Ok(id), "{case}");
        assert_eq!(id.to_hex(), text(case, "hex"), "{case}");
        assert_eq!(id.to_bin(), text(case, "bin"), "{case}");
        let bytes: String = id.to_bytes().iter().map(|byte| format!("{byte:02X}")).collect();
        assert_eq!(bytes, text(case, "bytes"), "{case}");
        assert_eq!(UlidFlake::from_bytes(id.to_bytes()), Ok(id), "{case}");
        assert_eq!(id.ms_since_epoch(), number(case, "timestamp_ms"), "{case}");
        assert_eq!(u64::from(id.randomness()), number(case, "randomness"), "{case}");
        let timestamp = number(case, "timestamp_ms");
        let randomness = u32::try_from(number(case, "randomness")).unwrap();
        assert_eq!(UlidFlake::from_parts(timestamp, randomness), Ok(id), "{case}");
        let scalable = &case["scalable"];
        let scalable_randomness = u16::try_from(number(scalable, "randomness")).unwrap();
        let scalability_id = u8::try_from(number(scalable, "scalability_id")).unwrap();
        assert_eq!(id.scalable_randomness(), scalable_randomness, "{case}");
        assert_eq!(id.scalability_id(), scalability_id, "{case}");
        assert_eq!(
            UlidFlake::from_scalable_parts(timestamp, scalable_randomness, scalability_id),
            Ok(id),
            "{case}"
        );
        assert_eq!(id.unix_ms(Epoch::DEFAULT), number(case, "unix_ms"), "{case}");
        assert_eq!(utc(number(case, "unix_ms")), text(case, "utc"), "{case}");
        ran += 1;
    }
    assert_eq!(ran, 16);
}

#[test]
fn every_accepted_input_reads_as_its_canonical_text() {
    let vectors = vectors();
    let mut ran = 0;
    for case in cases(&vectors, "accepted") {
        let id = UlidFlake::parse_str(text(case, "input")).unwrap();
        assert_eq!(id.to_string(), text(case, "text"), "{case}");
        ran += 1;
    }
    assert_eq!(ran, 3);
}

#[test]
fn every_invalid_text_fails_with_the_error_the_file_names() {
    let vectors = vectors();
    let mut ran = 0;
    for case in cases(&vectors, "invalid_text") {
        let error = UlidFlake::parse_ascii(&input(case)).unwrap_err();
        assert!(is_expected(case, error), "{case}: {error:?}");
        ran += 1;
    }
    assert_eq!(ran, 24);
}

#[test]
fn every_invalid_integer_is_out_of_range() {
    let vectors = vectors();
    let mut ran = 0;
    for case in cases(&vectors, "invalid_int") {
        let value: i128 = text(case, "int").parse().unwrap();
        let error = match i64::try_from(value) {
            Ok(value) => UlidFlake::from_i64(value),
            Err(_) => UlidFlake::from_u64(u64::try_from(value).unwrap()),
        }
        .unwrap_err();
        assert_eq!(error, Error::OutOfRange { found: value }, "{case}");
        assert!(is_expected(case, error), "{case}");
        ran += 1;
    }
    assert_eq!(ran, 4);
}

#[test]
fn every_prefixed_case_reads_or_fails_as_the_file_says() {
    let vectors = vectors();
    let prefixed = &vectors["prefixed"];
    assert_eq!(text(prefixed, "prefix"), User::PREFIX);
    let (mut valid, mut invalid) = (0, 0);
    for case in cases(prefixed, "valid") {
        let id = PrefixedId::<User>::parse_str(text(case, "text")).unwrap();
        assert_eq!(id.to_ulid_flake().to_u64().to_string(), text(case, "int"), "{case}");
        assert_eq!(id.to_string(), text(case, "canonical"), "{case}");
        valid += 1;
    }
    for case in cases(prefixed, "invalid") {
        let error = PrefixedId::<User>::parse_ascii(&input(case)).unwrap_err();
        assert!(is_expected(case, error), "{case}: {error:?}");
        invalid += 1;
    }
    assert_eq!((valid, invalid), (3, 9));
}

#[test]
fn every_departure_names_a_case_of_the_file_and_a_reason() {
    let vectors = vectors();
    let inputs: Vec<String> = ["valid", "accepted", "invalid_text"]
        .iter()
        .flat_map(|section| cases(&vectors, section))
        .flat_map(|case| ["text", "input"].map(|field| case[field].as_str().map(String::from)))
        .flatten()
        .collect();
    let generation = cases(&vectors, "generation");
    // `generation[i] step j`: a step of the file.
    let is_generation_step = |case: &str| {
        let Some((index, step)) = case
            .strip_prefix("generation[")
            .and_then(|rest| rest.split_once("] step "))
        else {
            return false;
        };
        let (Ok(index), Ok(step)) = (index.parse::<usize>(), step.parse::<usize>()) else {
            return false;
        };
        generation
            .get(index)
            .is_some_and(|case| step < cases(case, "steps").len())
    };
    let mut ran = 0;
    for departure in cases(&vectors, "departures") {
        let case = text(departure, "case");
        assert!(
            case == "hex" || inputs.iter().any(|input| input == case) || is_generation_step(case),
            "{departure}"
        );
        assert!(!text(departure, "reason").is_empty(), "{departure}");
        assert!(!cases(departure, "references").is_empty(), "{departure}");
        ran += 1;
    }
    assert_eq!(ran, 18);
}

/// Every generation case: a generator configured as the case says, its clock set and its
/// randomness scripted step by step (each listed draw taken, and no more), makes the IDs
/// and fails with the errors the file lists, in order.
#[test]
fn every_generation_case_makes_the_ids_and_errors_the_file_lists() {
    let vectors = vectors();
    let (mut ran, mut steps) = (0, 0);
    for case in cases(&vectors, "generation") {
        let config = &case["config"];
        let layout = match config["scalability_id"].as_u64() {
            None => Layout::StandAlone,
            Some(id) => Layout::Scalable {
                scalability_id: u8::try_from(id).unwrap(),
            },
        };
        let generator = Generator::builder()
            .epoch(Epoch::from_unix_ms(number(config, "epoch_unix_ms")).unwrap())
            .layout(layout)
            .entropy_bytes(u8::try_from(number(config, "entropy_bytes")).unwrap())
            .rollback_allowance(Duration::from_millis(number(
                config,
                "rollback_allowance_ms",
            )))
            .clock(ManualClock::new(0))
            .random_source(ScriptedRandom::default())
            .build()
            .unwrap();
        for step in cases(case, "steps") {
            let draws: Vec<u32> = cases(step, "draws")
                .iter()
                .map(|draw| u32::try_from(draw.as_u64().unwrap()).unwrap())
                .collect();
            let random = generator.random_source();
            // A step that fails on the clock lists no draw: this crate takes one first.
            random.push(if draws.is_empty() {
                &[UNUSED_DRAW]
            } else {
                &draws
            });
            generator
                .clock()
                .set(i64::try_from(number(step, "unix_ms")).unwrap());
            let result = generator.try_generate();
            match (&step["id"], &step["error"]) {
                (Value::Object(_), Value::Null) => {
                    let id = result.unwrap_or_else(|error| panic!("{step}: {error}"));
                    assert_eq!(id.to_u64().to_string(), text(&step["id"], "int"), "{step}");
                    assert_eq!(id.to_string(), text(&step["id"], "text"), "{step}");
                    assert_eq!(random.left(), 0, "{step}: draws left over");
                }
                (Value::Null, Value::Object(expected)) => {
                    let error = result.expect_err(&step.to_string());
                    let kind = expected["kind"].as_str().unwrap();
                    let matches = match (kind, error) {
                        ("overflow", Error::Overflow { .. }) => {
                            random.left() == 0
                        }
                        ("timestamp_out_of_range", Error::TimestampOutOfRange { .. }) => {
                            draws.is_empty()
                        }
                        ("clock_moved_backwards", Error::ClockMovedBackwards { by_ms, .. }) => {
                            draws.is_empty() && by_ms == number(&step["error"], "by_ms")
                        }
                        _ => false,
                    };
                    assert!(matches, "{step}: {error:?}");
                    random.clear();
                }
                _ => panic!("{step}: neither an id nor an error"),
            }
            steps += 1;
        }
        ran += 1;
    }
    assert_eq!((ran, steps), (11, 43));
}

//! The one error enum: every message says what was expected and what was found.

use ulid_flake_core::Error;

#[test]
fn every_error_message_says_what_was_expected_and_found() {
    use ulid_flake_core::{Epoch, MAX_TIMESTAMP};
    use ulid_flake_core::error::Excerpt;

    let cases = [
        (
            Error::Overflow { timestamp_ms: 42 },
            "randomness overflow: expected an ID left in millisecond 42 since the epoch, found \
             its randomness used up; call again in a later millisecond",
        ),
        (
            Error::Overflow {
                timestamp_ms: MAX_TIMESTAMP,
            },
            "randomness overflow: expected an ID left in millisecond 8796093022207 since the \
             epoch, found its randomness used up; the format has no later millisecond (use a \
             later epoch)",
        ),
        (
            Error::ClockMovedBackwards {
                by_ms: 1_500,
                allowance_ms: 1_000,
            },
            "clock moved backwards: expected at most 1000 ms behind the last ID, found 1500 ms behind",
        ),
        (
            Error::ClockSkew {
                scalability_id: 5,
                skew_ms: -3_002,
                bound_ms: 100,
            },
            "clock skew: expected this machine's wall clock within 100 ms of the database's, \
             found it 3002 ms behind; no ID under scalability id 5 until they agree",
        ),
        (
            Error::ClockSkew {
                scalability_id: 0,
                skew_ms: 700,
                bound_ms: 500,
            },
            "clock skew: expected this machine's wall clock within 500 ms of the database's, \
             found it 700 ms ahead; no ID under scalability id 0 until they agree",
        ),
        (
            Error::LeaseNotValid {
                scalability_id: 3,
                valid_until_unix_ms: Some(1_795_222_512_171),
            },
            "scalability-id lease not valid: expected a lease on id 3 confirmed until after now, \
             found it lost or unconfirmed since Unix ms 1795222512171",
        ),
        (
            Error::LeaseNotValid {
                scalability_id: 3,
                valid_until_unix_ms: None,
            },
            "scalability-id lease not valid: expected a lease on id 3 confirmed until after now, \
             found none (not acquired yet, given up, or held by the parent of this forked process)",
        ),
        (
            Error::InvalidEnvironmentVariable {
                name: "HOSTNAME",
                expected: "a StatefulSet pod name, <set>-<ordinal>",
            },
            "invalid environment variable HOSTNAME: expected a StatefulSet pod name, \
             <set>-<ordinal>, found another value",
        ),
        (
            Error::InvalidEnvironmentValue {
                name: "ULID_FLAKE_SCALABILITY_ID",
                expected: "0..=31",
                found: Excerpt::new("thirty-two and more"),
            },
            "invalid environment variable ULID_FLAKE_SCALABILITY_ID: expected 0..=31, found \
             \"thirty-two an\"…",
        ),
        (
            Error::WrongPrefix {
                expected: "user",
                found: *b"post_\0\0\0\0\0\0\0\0\0\0\0",
                found_len: 5,
            },
            "wrong prefix: expected `user_`, found `post_`",
        ),
        (
            Error::WrongPrefix {
                expected: "user",
                found: [0; Error::FOUND_PREFIX_BYTES],
                found_len: 0,
            },
            "wrong prefix: expected `user_`, found none (no `_` in the text)",
        ),
        (
            Error::TimestampOutOfRange { found_ms: -1 },
            "timestamp out of range: expected 0..=8796093022207 ms since the epoch, found -1 ms \
             (before the epoch)",
        ),
        (
            Error::InvalidEpoch { found_unix_ms: -5 },
            "invalid epoch: expected 0..=272678883688448 ms since 1970-01-01, found -5 ms",
        ),
        (
            Error::InvalidEntropySize { found: 3, max: 2 },
            "invalid entropy size: expected 1..=2 bytes for this layout, found 3",
        ),
        (
            Error::InvalidHeadroom { found: 20, max: 19 },
            "invalid headroom: expected 0..=19 bits for this layout, found 20",
        ),
        (
            Error::InvalidScalabilityId { found: 32 },
            "invalid scalability id: expected 0..=31, found 32",
        ),
        (
            Error::RandomnessOutOfRange {
                found: 1 << 20,
                max: (1 << 20) - 1,
            },
            "randomness out of range: expected 0..=1048575, found 1048576",
        ),
        (
            Error::DefaultGeneratorAlreadySet,
            "default generator already set: expected to configure it once, at start-up before the \
             first ID made through it, found it configured (by set_default_generator, a lease's \
             install_default, or init_from_env with ULID_FLAKE_SCALABILITY_ID set) or built by its \
             first use (an ID, or default_generator())",
        ),
        (
            Error::ScalabilityIdConfiguredTwice {
                variable: "ULID_FLAKE_SCALABILITY_ID",
            },
            "scalability id configured twice: expected ULID_FLAKE_SCALABILITY_ID or a scalability-id lease, found both; where a lease assigns the id, unset ULID_FLAKE_SCALABILITY_ID",
        ),
        (
            Error::ScalabilityIdMismatch {
                variable: "ULID_FLAKE_SCALABILITY_ID",
                expected: 4,
                found: None,
            },
            "default generator not the one ULID_FLAKE_SCALABILITY_ID asks for: expected \
             scalability id 4, found a stand-alone generator (build a default from code with \
             GeneratorBuilder::layout_from_env, and set the variable before the first ID)",
        ),
        (
            Error::InvalidUuid {
                expected: "version 7",
                found: "version 4",
            },
            "not a UUID mapped from a Ulid-Flake: expected version 7, found version 4",
        ),
        (
            Error::DateTimeOutOfRange {
                found_unix_ms: 253_402_300_800_000,
                max_unix_ms: 253_402_300_799_999,
            },
            "moment out of range of the date-time type: expected at most Unix ms \
             253402300799999, found Unix ms 253402300800000",
        ),
        (
            Error::InvalidLength { found: 12, prefix: "" },
            "invalid length: expected 13 ASCII characters, found 12 bytes",
        ),
        (
            Error::InvalidLength { found: 1, prefix: "" },
            "invalid length: expected 13 ASCII characters, found 1 byte",
        ),
        (
            Error::InvalidLength {
                found: 12,
                prefix: "user",
            },
            "invalid length: expected 13 ASCII characters after `user_`, found 12 bytes",
        ),
        (
            Error::InvalidCharacter {
                index: 12,
                found: b'\t',
            },
            "invalid character '\\t' at index 12: expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)",
        ),
        (
            Error::InvalidCharacter {
                index: 11,
                found: 0xC3,
            },
            "invalid character (non-ASCII byte 0xC3) at index 11: expected a Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)",
        ),
        (
            Error::OutOfRange { found: 1 << 64 },
            "value out of range: expected 0..=9223372036854775807, found 18446744073709551616 (in Base32 text: expected a first character 0-7, found G)",
        ),
        (
            Error::OutOfRange { found: 1 << 63 },
            "value out of range: expected 0..=9223372036854775807, found 9223372036854775808 (in Base32 text: expected a first character 0-7, found 8)",
        ),
        // Only a number is negative: no word on text.
        (
            Error::OutOfRange { found: -1 },
            "value out of range: expected 0..=9223372036854775807, found -1",
        ),
    ];
    for (error, message) in cases {
        assert_eq!(error.to_string(), message);
        // `fn main() -> Result<(), Error>` prints the `Debug` form: the same message.
        assert_eq!(format!("{error:?}"), message);
    }
    assert_eq!(Epoch::MAX.unix_ms(), 272_678_883_688_448);
}

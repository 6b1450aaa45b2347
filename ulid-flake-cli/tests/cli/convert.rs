//! `convert`, between every form, on the SPEC vectors.

use super::{stdout_of, ulid_flake};

/// (Base32, integer, hex) of the same ID.
const VECTORS: [(&str, &str, &str); 4] = [
    ("00F5MFHSEYXCM", "17086945199879572", "0x3CB47C72EF7594"),
    ("00CMXB6TAK4SA", "14246757444195114", "0x329D59B4A9932A"),
    ("128GGYHYYK08N", "1234567890123456789", "0x112210F47DE98115"),
    ("7ZZZZZZZZZZZZ", "9223372036854775807", "0x7FFFFFFFFFFFFFFF"),
];

#[test]
fn between_all_forms() {
    for (base32, integer, hex) in VECTORS {
        for input in [base32, integer, hex] {
            assert_eq!(
                stdout_of(&["convert", input, "--to", "base32"]),
                format!("{base32}\n")
            );
            assert_eq!(
                stdout_of(&["convert", input, "--to", "integer"]),
                format!("{integer}\n")
            );
            assert_eq!(
                stdout_of(&["convert", input, "--to", "hex"]),
                format!("{hex}\n")
            );
            assert_eq!(
                stdout_of(&["convert", input, "--to", "json"]),
                format!("{{\"id\":\"{base32}\",\"integer\":{integer}}}\n")
            );
        }
    }
}

/// The output form takes the same two names in both subcommands that write IDs:
/// `convert --format` is `--to`, and `generate --to` is `--format`.
#[test]
fn the_output_form_is_format_or_to_in_convert_and_generate() {
    assert_eq!(
        stdout_of(&["convert", "00F5MFHSEYXCM", "--format", "hex"]),
        "0x3CB47C72EF7594\n"
    );
    let integer = stdout_of(&["generate", "--to", "integer"]);
    // A decimal integer: more digits than Base32's 13 for any ID made 2.6 hours or more
    // after the epoch.
    let digits = integer.trim_end();
    assert!(
        digits.len() > 13 && digits.parse::<i64>().is_ok(),
        "{integer:?}"
    );
    let help = stdout_of(&["convert", "--help"]);
    assert!(help.contains("[alias: --format]"), "{help}");
    let help = stdout_of(&["generate", "--help"]);
    assert!(help.contains("[alias: --to]"), "{help}");
}

#[test]
fn zero_is_thirteen_zeros_in_base32() {
    assert_eq!(
        stdout_of(&["convert", "0", "--to", "base32"]),
        "0000000000000\n"
    );
}

#[test]
fn zero_is_unpadded_in_hex() {
    assert_eq!(
        stdout_of(&["convert", "0000000000000", "--to", "hex"]),
        "0x0\n"
    );
}

#[test]
fn several_arguments_in_order() {
    assert_eq!(
        stdout_of(&[
            "convert",
            "--to",
            "integer",
            "00F5MFHSEYXCM",
            "0x329D59B4A9932A"
        ]),
        "17086945199879572\n14246757444195114\n"
    );
}

/// 13 characters are Base32, as the help says; where they are also what `--to integer` or
/// `--to hex` writes for an ID of the first hours after its epoch, a warning says how to read
/// them otherwise, and the run still succeeds.
#[test]
fn thirteen_digits_are_base32_unless_told() {
    ulid_flake()
        .args([
            "convert",
            "1234567890123",
            "0x36EEC6D7F8C",
            "00CMXB6TAK4SA",
            "--to",
            "integer",
        ])
        .assert()
        .success()
        .stdout("1228503247364293699\n1048439806802246924\n14246757444195114\n")
        .stderr(
            "argument 1: warning: `1234567890123` read as Base32 (13 characters are), though it \
             is also a decimal integer, another ID; pass --from integer if it is\n\
             argument 2: warning: `0x36EEC6D7F8C` read as Base32 (13 characters are), though it \
             is also a hex number, another ID; pass --from hex if it is\n",
        );
    ulid_flake()
        .args(["convert", "--to", "integer"])
        .write_stdin("00CMXB6TAK4SA\n1234567890123\n")
        .assert()
        .success()
        .stdout("14246757444195114\n1228503247364293699\n")
        .stderr(
            "line 2: warning: `1234567890123` read as Base32 (13 characters are), though it is \
             also a decimal integer, another ID; pass --from integer if it is\n",
        );
    // Told, no warning.
    assert_eq!(
        stdout_of(&[
            "convert",
            "--from",
            "base32",
            "1234567890123",
            "--to",
            "integer"
        ]),
        "1228503247364293699\n"
    );
    assert_eq!(
        stdout_of(&[
            "convert",
            "--from",
            "integer",
            "1234567890123",
            "--to",
            "base32"
        ]),
        "000013XRZP16B\n"
    );
}

#[test]
fn from_hex_reads_digits_without_0x() {
    assert_eq!(
        stdout_of(&[
            "convert",
            "--from",
            "hex",
            "3cb47c72ef7594",
            "--to",
            "base32"
        ]),
        "00F5MFHSEYXCM\n"
    );
}

#[test]
fn from_base32_reads_lowercase() {
    assert_eq!(
        stdout_of(&[
            "convert",
            "--from",
            "base32",
            "00f5mfhseyxcm",
            "--to",
            "base32"
        ]),
        "00F5MFHSEYXCM\n"
    );
}

#[test]
fn from_base32_rejects_an_integer() {
    ulid_flake()
        .args([
            "convert",
            "--from",
            "base32",
            "17086945199879572",
            "--to",
            "hex",
        ])
        .assert()
        .code(1)
        .stderr("argument 1: invalid length: expected 13 ASCII characters, found 17 bytes\n");
}

/// Converts `input` to Base32, and expects it rejected with `message`.
fn rejected(input: &str, message: &str) {
    ulid_flake()
        .args(["convert", "--to", "base32", input])
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!("argument 1: {message}\n"));
}

#[test]
fn out_of_range_integers() {
    for (input, message) in [
        // A number's message says nothing of Base32 text.
        (
            "9223372036854775808",
            "value out of range: expected 0..=9223372036854775807, found 9223372036854775808",
        ),
        (
            "0x8000000000000000",
            "value out of range: expected 0..=9223372036854775807, found 9223372036854775808",
        ),
        (
            "-0",
            "value out of range: expected 0..=9223372036854775807, found -0",
        ),
        (
            "99999999999999999999",
            "value out of range: expected 0..=9223372036854775807, found a number above 64 bits",
        ),
    ] {
        rejected(input, message);
    }
}

#[test]
fn an_invalid_hex_digit_is_named() {
    rejected(
        "0x12G4",
        "invalid character 'G' at index 4: expected a hexadecimal digit (0-9, A-F, in either case)",
    );
}

#[test]
fn thirteen_digits_out_of_range_as_base32_suggest_from_integer() {
    rejected(
        "9000000000000",
        "value out of range: expected 0..=9223372036854775807, found 10376293541461622784 (in Base32 text: expected a first character 0-7, found 9) (13 characters are read as Base32; pass --from integer to read a decimal number)",
    );
}

#[test]
fn negative_integer() {
    ulid_flake()
        .args(["convert", "--to", "base32", "--", "-1"])
        .assert()
        .code(1)
        .stderr("argument 1: value out of range: expected 0..=9223372036854775807, found -1\n");
}

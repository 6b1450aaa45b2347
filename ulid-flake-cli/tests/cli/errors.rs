//! Bad arguments, `--help`, and a closed output pipe.

use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use predicates::str::contains;

use super::{no_form, stdout_of, ulid_flake};

#[test]
fn scalability_id_out_of_range() {
    for (found, message) in [
        (
            "32",
            "error: --scalability-id: invalid scalability id: expected 0..=31, found 32\n",
        ),
        (
            "1000",
            "error: --scalability-id: invalid scalability id: expected 0..=31, found 1000\n",
        ),
    ] {
        ulid_flake()
            .args(["generate", "--scalability-id", found])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::starts_with(message));
    }
}

#[test]
fn entropy_size_above_3_bytes() {
    ulid_flake()
        .args(["generate", "--entropy-bytes", "4"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::starts_with(
            "error: --entropy-bytes: invalid entropy size: expected 1..=3 bytes for this layout, found 4\n",
        ));
}

#[test]
fn entropy_size_above_2_bytes_in_the_scalable_layout() {
    ulid_flake()
        .args(["generate", "--entropy-bytes", "3", "--scalability-id", "0"])
        .assert()
        .code(2)
        .stderr(predicates::str::starts_with(
            "error: --entropy-bytes: invalid entropy size: expected 1..=2 bytes for this layout, found 3\n",
        ));
}

#[test]
fn entropy_size_zero() {
    ulid_flake()
        .args(["generate", "--entropy-bytes", "0"])
        .assert()
        .code(2)
        .stderr(contains(
            "error: --entropy-bytes: invalid entropy size: expected 1..=3 bytes for this layout, \
             found 0",
        ));
}

#[test]
fn unknown_generate_format() {
    ulid_flake()
        .args(["generate", "--format", "octal"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("invalid value 'octal' for '--format <FORMAT>'"))
        .stderr(contains("[possible values: base32, integer, hex, json]"));
}

#[test]
fn unknown_convert_form() {
    ulid_flake()
        .args(["convert", "00CMXB6TAK4SA", "--to", "binary"])
        .assert()
        .code(2)
        .stderr(contains("invalid value 'binary' for '--to <TO>'"));
}

#[test]
fn epoch_out_of_range() {
    ulid_flake()
        .args(["inspect", "--epoch", "281474976710656", "00CMXB6TAK4SA"])
        .assert()
        .code(2)
        .stderr(contains(
            "invalid epoch: expected 0..=272678883688448 ms since 1970-01-01",
        ));
}

#[test]
fn epoch_not_a_number() {
    ulid_flake()
        .args(["generate", "--epoch", "yesterday"])
        .assert()
        .code(2)
        .stderr(contains("expected milliseconds since 1970-01-01"));
}

/// A negative epoch is a bad value of `--epoch`, not an unknown flag.
#[test]
fn negative_epoch() {
    for args in [
        &["generate", "--epoch", "-5"][..],
        &["inspect", "--epoch", "-5", "00CMXB6TAK4SA"],
    ] {
        ulid_flake()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicates::str::starts_with(
                "error: invalid value '-5' for '--epoch <UNIX_MS>': expected milliseconds since \
                 1970-01-01, a non-negative integer\n",
            ));
    }
}

/// A negative integer is an ID out of range, also without `--` before it.
#[test]
fn negative_ids_without_a_double_dash() {
    for args in [&["inspect", "-5"][..], &["convert", "--to", "base32", "-5"]] {
        ulid_flake()
            .args(args)
            .assert()
            .code(1)
            .stdout("")
            .stderr("argument 1: value out of range: expected 0..=9223372036854775807, found -5\n");
    }
}

#[test]
fn convert_needs_to() {
    ulid_flake()
        .args(["convert", "00CMXB6TAK4SA"])
        .assert()
        .code(2)
        .stderr(contains("--to <TO>"));
}

#[test]
fn help_has_examples() {
    let help = stdout_of(&["--help"]);
    assert!(help.contains("Examples:\n  ulid-flake generate "), "{help}");
    assert!(help.contains("ulid-flake inspect 00CMXB6TAK4SA"), "{help}");
    assert!(
        help.contains("ulid-flake convert 00F5MFHSEYXCM --to hex"),
        "{help}"
    );
}

#[test]
fn subcommand_help_has_examples() {
    for (subcommand, example) in [
        ("generate", "ulid-flake generate -n 3 --format integer"),
        ("inspect", "ulid-flake inspect --json 00cmxb6tak4sa"),
        ("convert", "ulid-flake convert 0x3CB47C72EF7594 --to base32"),
    ] {
        for flag in ["--help", "-h"] {
            let help = stdout_of(&[subcommand, flag]);
            assert!(help.contains("Examples:"), "{subcommand} {flag}: {help}");
            assert!(help.contains(example), "{subcommand} {flag}: {help}");
        }
    }
}

#[test]
fn help_examples_are_true() {
    // The outputs the examples show.
    assert_eq!(
        stdout_of(&["convert", "00F5MFHSEYXCM", "--to", "hex"]),
        "0x3CB47C72EF7594\n"
    );
    let help = stdout_of(&["convert", "--help"]);
    for line in help
        .lines()
        .filter(|line| line.starts_with("  ulid-flake convert "))
    {
        let words: Vec<&str> = line.split_whitespace().collect();
        // "ulid-flake convert <ID> --to <FORM> <OUTPUT>"
        if let [_, _, id, "--to", form, expected] = words[..] {
            assert_eq!(
                stdout_of(&["convert", id, "--to", form]),
                format!("{expected}\n")
            );
        }
    }
}

#[test]
fn closed_pipe_exits_quietly_and_quickly() {
    // A count that would never finish: only the closed pipe can end the run.
    let started = Instant::now();
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("ulid-flake"))
        .args(["generate", "-n", &u64::MAX.to_string()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.len(), 14, "{first:?}");
    // The reader is dropped here: the pipe is closed, as by `| head -1`.
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("still running 20 s after the pipe was closed");
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "{status}: {stderr}");
    assert_eq!(stderr, "");
}

#[test]
fn an_argument_with_whitespace_around_it_is_reported_so() {
    ulid_flake()
        .args(["inspect", " 02MWMFBHB1YJ2", ""])
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!(
            "argument 1: {} (whitespace around it: the ID must stand alone)\n\
             argument 2: {} (a blank input)\n",
            no_form(" 02MWMFBHB1YJ2", 14),
            no_form("", 0),
        ));
}

/// A length error counts bytes: a non-ASCII character (two bytes here) is named, so that
/// `é` is not a mystery "found 2 bytes". Errors of another kind name the byte themselves.
#[test]
fn a_length_error_names_a_non_ascii_byte() {
    ulid_flake()
        .args(["inspect", "é", "user_00CMXB6TAK4Sé", "00CMXB6TAK4Sé", "+5"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!(
            "argument 1: {} (a non-ASCII byte 0xC3 at index 0: an ID is ASCII)\n\
             argument 2: invalid length: expected 13 ASCII characters after `user_`, found 14 \
             bytes (a non-ASCII byte 0xC3 at index 17: an ID is ASCII)\n\
             argument 3: {} (a non-ASCII byte 0xC3 at index 12: an ID is ASCII)\n\
             argument 4: {}\n",
            no_form("\\xc3\\xa9", 2),
            no_form("00CMXB6TAK4S\\xc3\\xa9", 14),
            no_form("+5", 2),
        ));
    ulid_flake()
        .args(["inspect", "--from", "base32", "00CMXB6TAK4é"])
        .assert()
        .code(1)
        .stderr(
            "argument 1: invalid character (non-ASCII byte 0xC3) at index 11: expected a \
             Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)\n",
        );
}

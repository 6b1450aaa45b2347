//! IDs from standard input: streamed, one per line, bad lines reported and skipped.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use super::{no_form, ulid_flake};

#[test]
fn a_bad_line_is_reported_with_its_number_and_the_rest_converted() {
    ulid_flake()
        .args(["convert", "--to", "integer"])
        .write_stdin("00F5MFHSEYXCM\n0x329D59B4A9932A\n00CMXB6TAK4SI\n7ZZZZZZZZZZZZ\n")
        .assert()
        .code(1)
        .stdout("17086945199879572\n14246757444195114\n9223372036854775807\n")
        .stderr(
            "line 3: invalid character 'I' at index 12: expected a Crockford Base32 digit \
             (0-9, A-Z without I, L, O, U, in either case)\n",
        );
}

/// Converts `input` to hex, and expects success and `output`.
fn converts_to_hex(input: &str, output: &str) {
    ulid_flake()
        .args(["convert", "--to", "hex"])
        .write_stdin(input.to_owned())
        .assert()
        .success()
        .stdout(output.to_owned())
        .stderr("");
}

#[test]
fn crlf_line_endings_are_read() {
    converts_to_hex(
        "00F5MFHSEYXCM\r\n00CMXB6TAK4SA\r\n",
        "0x3CB47C72EF7594\n0x329D59B4A9932A\n",
    );
}

#[test]
fn a_last_line_without_newline_is_read() {
    converts_to_hex(
        "00F5MFHSEYXCM\n00CMXB6TAK4SA",
        "0x3CB47C72EF7594\n0x329D59B4A9932A\n",
    );
}

#[test]
fn nothing_is_skipped_silently() {
    ulid_flake()
        .args(["convert", "--to", "base32"])
        .write_stdin("00F5MFHSEYXCM\n\n 00CMXB6TAK4SA\n00CMXB6TAK4SA \n0\n")
        .assert()
        .code(1)
        .stdout("00F5MFHSEYXCM\n0000000000000\n")
        .stderr(format!(
            "line 2: {} (a blank input)\n\
             line 3: {} (whitespace around it: the ID must stand alone)\n\
             line 4: {} (whitespace around it: the ID must stand alone)\n",
            no_form("", 0),
            no_form(" 00CMXB6TAK4SA", 14),
            no_form("00CMXB6TAK4SA ", 14),
        ));
}

#[test]
fn a_huge_line_is_reported_not_kept() {
    let mut input = "A".repeat(100_000);
    input.push_str("\n00CMXB6TAK4SA\n");
    ulid_flake()
        .args(["convert", "--to", "integer"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("14246757444195114\n")
        .stderr("line 1: line too long: expected at most 1024 bytes, found 100000 bytes\n");
}

#[test]
fn a_line_too_long_in_bytes_names_its_first_non_ascii_byte() {
    // 400 characters, 1,200 bytes: within the limit as characters, not as bytes.
    let input = format!("0{}\n", "號".repeat(400));
    ulid_flake()
        .args(["convert", "--to", "integer"])
        .write_stdin(input)
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "line 1: line too long: expected at most 1024 bytes, found 1201 bytes \
             (a non-ASCII byte 0xE8 at index 1: an ID is ASCII)\n",
        );
}

#[test]
fn inspect_reads_stdin_too() {
    ulid_flake()
        .args(["inspect", "--json"])
        .write_stdin("00CMXB6TAK4SA\n")
        .assert()
        .success()
        .stdout(predicates::str::starts_with(
            r#"{"base32":"00CMXB6TAK4SA","#,
        ));
}

#[test]
fn empty_input_is_no_work() {
    ulid_flake()
        .args(["convert", "--to", "integer"])
        .write_stdin("")
        .assert()
        .success()
        .stdout("");
}

#[test]
fn each_answer_comes_before_the_next_line_is_sent() {
    // Streaming: the answer to a line arrives while standard input is still open.
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("ulid-flake"))
        .args(["convert", "--to", "integer"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    for (id, integer) in [
        ("00F5MFHSEYXCM", "17086945199879572"),
        ("00CMXB6TAK4SA", "14246757444195114"),
    ] {
        writeln!(input, "{id}").unwrap();
        input.flush().unwrap();
        line.clear();
        output.read_line(&mut line).unwrap();
        assert_eq!(line, format!("{integer}\n"));
    }
    drop(input);
    assert!(child.wait().unwrap().success());
}

#[test]
fn a_standard_error_that_cannot_be_written_loses_the_messages_not_the_run() {
    let full = std::fs::File::options()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ulid-flake"))
        .args(["convert", "--to", "integer"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(full)
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"bad\n00CMXB6TAK4SA\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    // The bad line counted in the status, the good one converted: no panic (101).
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(output.stdout, b"14246757444195114\n");
}

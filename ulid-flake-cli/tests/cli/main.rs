//! Runs the real `ulid-flake` binary: every subcommand, every input and output form, the
//! SPEC vectors, standard input streaming, argument errors, a closed output pipe, and the SQL
//! it prints.

mod convert;
mod errors;
mod generate;
mod inspect;
mod prefixed;
mod sql;
mod stdin;

use assert_cmd::Command;

/// The error of an input that `--from auto` reads in no form, `found` as it quotes the input.
fn no_form(found: &str, bytes: usize) -> String {
    format!(
        "no ID form fits: expected 13 Base32 characters, a decimal integer or 0x and \
         hexadecimal digits, found `{found}` ({bytes} bytes)"
    )
}

/// A command for the binary under test.
fn ulid_flake() -> Command {
    Command::cargo_bin("ulid-flake").expect("the binary is built for the tests")
}

/// Runs the binary with `args`, expects success and returns standard output.
fn stdout_of(args: &[&str]) -> String {
    let output = ulid_flake().args(args).output().expect("the binary runs");
    assert!(
        output.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stderr.is_empty(), "{args:?} wrote to stderr");
    String::from_utf8(output.stdout).expect("the output is UTF-8")
}

//! Prefixed IDs (`user_02MWMFBHB1YJ2`, as `ulid_flake_core::PrefixedId` writes them):
//! `inspect` and `convert` read them, `generate --prefix` and `convert --prefix` write them.

use ulid_flake_core::{Prefix, PrefixedId};

use super::{no_form, stdout_of, ulid_flake};

struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

#[test]
fn inspect_shows_the_prefix_as_its_own_row() {
    let table = stdout_of(&["inspect", "user_02MWMFBHB1YJ2"]);
    let unprefixed = stdout_of(&["inspect", "02MWMFBHB1YJ2"]);
    assert_eq!(table, format!("{:<35}  user\n{unprefixed}", "prefix"));
    assert!(unprefixed.starts_with(&format!("{:<35}  02MWMFBHB1YJ2\n", "base32")));
}

#[test]
fn inspect_reads_any_prefix_with_the_id_in_either_case() {
    let unprefixed = stdout_of(&["inspect", "02MWMFBHB1YJ2"]);
    // Any `[a-z][a-z0-9]*_`, and the rest in either case.
    let other = stdout_of(&["inspect", "acct2_02mwmfbhb1yj2"]);
    assert_eq!(other, format!("{:<35}  acct2\n{unprefixed}", "prefix"));
}

#[test]
fn inspect_json_has_a_prefix_member_only_for_prefixed_input() {
    let json = stdout_of(&["inspect", "--json", "user_02MWMFBHB1YJ2"]);
    assert!(
        json.starts_with(
            r#"{"prefix":"user","base32":"02MWMFBHB1YJ2","integer":95583272615082562,"#
        ),
        "{json}"
    );
    let plain = stdout_of(&["inspect", "--json", "02MWMFBHB1YJ2"]);
    assert!(
        plain.starts_with(r#"{"base32":"02MWMFBHB1YJ2","#),
        "{plain}"
    );
}

#[test]
fn a_bad_id_after_a_prefix_is_reported_with_whole_input_indexes() {
    ulid_flake()
        .args(["inspect", "user_02MWMFBHB1YJI"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "argument 1: invalid character 'I' at index 17: expected a Crockford \
             Base32 digit (0-9, A-Z without I, L, O, U, in either case)\n",
        );
}

#[test]
fn an_uppercase_prefix_is_no_prefix() {
    ulid_flake()
        .args(["inspect", "User_02MWMFBHB1YJ2"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "argument 1: invalid entity prefix: expected a lowercase ASCII letter, then up to 30 \
             lowercase letters and digits, then `_`, or no prefix, found `User_`\n",
        );
}

#[test]
fn a_wrong_length_after_a_prefix_names_the_prefix() {
    // The length is the part's after the prefix, as the library counts it: a `_` in that
    // part is no second prefix (the test vectors' `user__00CMXB6TAK4SA`).
    ulid_flake()
        .args([
            "inspect",
            "acct2_02MWMFBHB1YJ",
            "user_02MWMFBHB1YJ2A",
            "user__00CMXB6TAK4SA",
            "user_0",
        ])
        .assert()
        .code(1)
        .stdout("")
        .stderr(
            "argument 1: invalid length: expected 13 ASCII characters after `acct2_`, found 12 \
             bytes\nargument 2: invalid length: expected 13 ASCII characters after `user_`, \
             found 14 bytes\nargument 3: invalid length: expected 13 ASCII characters after \
             `user_`, found 14 bytes\nargument 4: invalid length: expected 13 ASCII characters \
             after `user_`, found 1 byte\n",
        );
}

#[test]
fn a_prefix_over_31_characters_is_no_prefix() {
    // The core's rule, which `PrefixedId` enforces: such a text is no prefixed ID.
    let input = format!("{}_02MWMFBHB1YJ2", "a".repeat(32));
    ulid_flake()
        .args(["inspect", &input])
        .assert()
        .code(1)
        .stdout("")
        .stderr(format!(
            "argument 1: {}\n",
            no_form(&format!("{}…", "a".repeat(32)), 46)
        ));
    let longest = format!("{}_02MWMFBHB1YJ2", "a".repeat(31));
    assert!(stdout_of(&["inspect", &longest]).contains(&"a".repeat(31)));
}

/// The integer and hex forms carry no prefix; the text forms keep the input's.
#[test]
fn convert_reads_prefixed_ids_and_keeps_their_prefix_in_text() {
    assert_eq!(
        stdout_of(&["convert", "--to", "integer", "user_02MWMFBHB1YJ2"]),
        "95583272615082562\n"
    );
    assert_eq!(
        stdout_of(&[
            "convert",
            "--to",
            "base32",
            "user_02mwmfbhb1yj2",
            "02MWMFBHB1YJ2"
        ]),
        "user_02MWMFBHB1YJ2\n02MWMFBHB1YJ2\n"
    );
    assert_eq!(
        stdout_of(&["convert", "--to", "json", "user_02MWMFBHB1YJ2"]),
        "{\"id\":\"user_02MWMFBHB1YJ2\",\"integer\":95583272615082562}\n"
    );
}

#[test]
fn generate_prefix_writes_ids_a_prefixed_id_parses() {
    let output = stdout_of(&["generate", "--prefix", "user", "-n", "3"]);
    let ids: Vec<PrefixedId<User>> = output
        .lines()
        .map(|line| line.parse().expect("a user_ ID"))
        .collect();
    assert_eq!(ids.len(), 3);
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    assert!(output.lines().all(|line| line.len() == 18));
}

#[test]
fn generate_prefix_writes_json_a_prefixed_id_parses() {
    let json = stdout_of(&["generate", "--prefix", "user", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let id: PrefixedId<User> = value["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(value["integer"].as_u64(), Some(id.to_u64()));
}

#[test]
fn generate_prefix_is_checked() {
    for prefix in ["User", "1user", "", "user_", &"a".repeat(32)] {
        ulid_flake()
            .args(["generate", "--prefix", prefix])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::contains(
                "expected a lowercase ASCII letter, then lowercase letters and digits, at most \
                 31 characters",
            ));
    }
}

#[test]
fn generate_prefix_needs_a_text_format() {
    for format in ["integer", "hex"] {
        ulid_flake()
            .args(["generate", "--prefix", "user", "--format", format])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::starts_with(
                "error: --prefix applies to the base32 and json formats only",
            ));
    }
}

#[test]
fn convert_prefix_writes_ids_a_prefixed_id_parses() {
    let base32 = stdout_of(&[
        "convert",
        "--to",
        "base32",
        "--prefix",
        "user",
        "95583272615082562",
    ]);
    assert_eq!(base32, "user_02MWMFBHB1YJ2\n");
    let id: PrefixedId<User> = base32.trim_end().parse().unwrap();
    assert_eq!(id.to_i64(), 95_583_272_615_082_562);
    // An input of the same entity keeps its prefix.
    assert_eq!(
        stdout_of(&[
            "convert",
            "--to",
            "json",
            "--prefix",
            "user",
            "user_02MWMFBHB1YJ2"
        ]),
        "{\"id\":\"user_02MWMFBHB1YJ2\",\"integer\":95583272615082562}\n"
    );
}

#[test]
fn convert_prefix_refuses_another_entity_s_id_and_goes_on() {
    // Relabelling would turn a user's ID into a post's: an error, as `PrefixedId` makes it.
    ulid_flake()
        .args([
            "convert",
            "--to",
            "base32",
            "--prefix",
            "post",
            "user_02MWMFBHB1YJ2",
            "02MWMFBHB1YJ2",
        ])
        .assert()
        .code(1)
        .stdout("post_02MWMFBHB1YJ2\n")
        .stderr(
            "argument 1: wrong prefix: expected `post_` (--prefix) or none, found `user_` (to \
             relabel an ID on purpose, convert its bare form)\n",
        );
}

#[test]
fn convert_prefix_is_checked_and_needs_a_text_format() {
    ulid_flake()
        .args([
            "convert",
            "--to",
            "base32",
            "--prefix",
            "User",
            "02MWMFBHB1YJ2",
        ])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "expected a lowercase ASCII letter, then lowercase letters and digits, at most 31 \
             characters",
        ));
    for format in ["integer", "hex"] {
        ulid_flake()
            .args([
                "convert",
                "--to",
                format,
                "--prefix",
                "user",
                "02MWMFBHB1YJ2",
            ])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::starts_with(
                "error: --prefix applies to the base32 and json formats only",
            ))
            .stderr(predicates::str::contains("ulid-flake convert"));
    }
}

//! `inspect`, on the SPEC vectors.

use super::{no_form, stdout_of, ulid_flake};

/// The table of `00CMXB6TAK4SA` with the default epoch.
const TABLE_00CMXB6TAK4SA: &str = "\
base32                               00CMXB6TAK4SA
integer                              14246757444195114
hex                                  0x329D59B4A9932A
binary                               0b110010100111010101100110110100101010011001001100101010
bytes                                00 32 9D 59 B4 A9 93 2A
timestamp (ms since epoch)           13586766666
unix time (ms)                       1717653966666
date-time (UTC)                      2024-06-06T06:06:06.666Z
randomness (if stand-alone, 20-bit)  627498
randomness (if scalable, 15-bit)     19609
scalability id (if scalable)         10
";

/// The JSON of `00CMXB6TAK4SA` with the default epoch.
const JSON_00CMXB6TAK4SA: &str = concat!(
    r#"{"base32":"00CMXB6TAK4SA","integer":14246757444195114,"hex":"0x329D59B4A9932A","#,
    r#""binary":"0b110010100111010101100110110100101010011001001100101010","#,
    r#""bytes":"00 32 9D 59 B4 A9 93 2A","ms_since_epoch":13586766666,"unix_ms":1717653966666,"#,
    r#""datetime":"2024-06-06T06:06:06.666Z","if_stand_alone":{"randomness":627498},"#,
    r#""if_scalable":{"randomness":19609,"scalability_id":10}}"#,
    "\n"
);

#[test]
fn table() {
    assert_eq!(
        stdout_of(&["inspect", "00CMXB6TAK4SA"]),
        TABLE_00CMXB6TAK4SA
    );
}

#[test]
fn json() {
    assert_eq!(
        stdout_of(&["inspect", "--json", "00CMXB6TAK4SA"]),
        JSON_00CMXB6TAK4SA
    );
}

#[test]
fn every_input_form_gives_the_same_answer() {
    for input in [
        "00cmxb6tak4sa",
        "14246757444195114",
        "0x329D59B4A9932A",
        "0x329d59b4a9932a",
    ] {
        assert_eq!(
            stdout_of(&["inspect", input]),
            TABLE_00CMXB6TAK4SA,
            "{input}"
        );
    }
}

#[test]
fn tables_are_separated_by_a_blank_line() {
    let output = stdout_of(&["inspect", "00CMXB6TAK4SA", "00CMXB6TAK4SA"]);
    assert_eq!(
        output,
        format!("{TABLE_00CMXB6TAK4SA}\n{TABLE_00CMXB6TAK4SA}")
    );
}

#[test]
fn spec_vectors() {
    // (text, integer, timestamp, randomness, date-time with the default epoch)
    let vectors = [
        (
            "0000000000000",
            0_u64,
            0_u64,
            0_u32,
            "2024-01-01T00:00:00.000Z",
        ),
        (
            "00CMXB6TAK4SA",
            14246757444195114,
            13586766666,
            627498,
            "2024-06-06T06:06:06.666Z",
        ),
        (
            "00F5PEXFDQCGR",
            17089122411459096,
            16297457133,
            766488,
            "2024-07-07T15:04:17.133Z",
        ),
        (
            "00F2N078MDT7J",
            16981964897052914,
            16195263764,
            452850,
            "2024-07-06T10:41:03.764Z",
        ),
        (
            "128GGYHYYK08N",
            1234567890123456789,
            1177375688670,
            622869,
            "2061-04-23T00:48:08.670Z",
        ),
        (
            "7ZZZZZZZZZZZZ",
            9223372036854775807,
            8796093022207,
            1048575,
            "2302-09-27T15:10:22.207Z",
        ),
    ];
    for (text, integer, timestamp, randomness, datetime) in vectors {
        let output = stdout_of(&["inspect", "--json", text]);
        let value: serde_json::Value = serde_json::from_str(&output).unwrap();
        assert_eq!(value["base32"], text);
        assert_eq!(value["integer"].as_u64(), Some(integer), "{text}");
        assert_eq!(value["ms_since_epoch"].as_u64(), Some(timestamp), "{text}");
        assert_eq!(
            value["if_stand_alone"]["randomness"].as_u64(),
            Some(u64::from(randomness)),
            "{text}"
        );
        assert_eq!(value["datetime"], datetime, "{text}");
    }
}

#[test]
fn scalable_reading() {
    let output = stdout_of(&["inspect", "--json", "00F5MN1MCFT30"]);
    assert_eq!(
        output,
        concat!(
            r#"{"base32":"00F5MN1MCFT30","integer":17087134008076384,"hex":"0x3CB4A868C7E860","#,
            r#""binary":"0b111100101101001010100001101000110001111110100001100000","#,
            r#""bytes":"00 3C B4 A8 68 C7 E8 60","ms_since_epoch":16295560844,"#,
            r#""unix_ms":1720362760844,"datetime":"2024-07-07T14:32:40.844Z","#,
            r#""if_stand_alone":{"randomness":518240},"#,
            r#""if_scalable":{"randomness":16195,"scalability_id":0}}"#,
            "\n"
        )
    );
}

#[test]
fn epoch_option() {
    let output = stdout_of(&["inspect", "--json", "--epoch", "0", "00CMXB6TAK4SA"]);
    assert!(output.contains(r#""unix_ms":13586766666,"#), "{output}");
    assert!(
        output.contains(r#""datetime":"1970-06-07T06:06:06.666Z""#),
        "{output}"
    );
}

#[test]
fn rejected_vectors() {
    for (input, message) in [
        (
            "8000000000000",
            "value out of range: expected 0..=9223372036854775807, found 9223372036854775808 (in Base32 text: expected a first character 0-7, found 8)",
        ),
        ("ZZZZZZZZZZZZZ", "value out of range"),
        ("G000000000000", "value out of range"),
        ("00CMXB6TAK4SL", "invalid character 'L' at index 12"),
        ("00CMXB6TAK4SO", "invalid character 'O' at index 12"),
        ("00CMXB6TAK4SU", "invalid character 'U' at index 12"),
        ("00CMXB6TAK4S", &no_form("00CMXB6TAK4S", 12)),
        ("00CMXB6TAK4SAA", &no_form("00CMXB6TAK4SAA", 14)),
        ("", &no_form("", 0)),
    ] {
        ulid_flake()
            .args(["inspect", input])
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicates::str::starts_with(format!(
                "argument 1: {message}"
            )));
    }
}

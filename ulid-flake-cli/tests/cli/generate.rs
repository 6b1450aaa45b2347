//! `generate`.

use ulid_flake_core::UlidFlake;

use super::stdout_of;

/// Parses every line of `output` as Base32.
fn base32_lines(output: &str) -> Vec<UlidFlake> {
    output
        .lines()
        .map(|line| UlidFlake::parse_str(line).expect("a canonical ID"))
        .collect()
}

#[test]
fn one_id_by_default() {
    let output = stdout_of(&["generate"]);
    assert_eq!(output.len(), 14, "{output:?}");
    assert_eq!(base32_lines(&output).len(), 1);
}

#[test]
fn count() {
    assert_eq!(stdout_of(&["generate", "-n", "25"]).lines().count(), 25);
    assert_eq!(stdout_of(&["generate", "--count", "3"]).lines().count(), 3);
    assert_eq!(stdout_of(&["generate", "-n", "0"]), "");
}

#[test]
fn strictly_increasing_across_100_000() {
    let output = stdout_of(&["generate", "-n", "100000", "--format", "integer"]);
    let ids: Vec<u64> = output
        .lines()
        .map(|line| line.parse().expect("a decimal integer"))
        .collect();
    assert_eq!(ids.len(), 100_000);
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    assert!(ids.iter().all(|&id| UlidFlake::from_u64(id).is_ok()));
}

#[test]
fn base32_order_is_integer_order() {
    let output = stdout_of(&["generate", "-n", "20000"]);
    let lines: Vec<&str> = output.lines().collect();
    assert!(lines.windows(2).all(|pair| pair[0] < pair[1]));
    let ids = base32_lines(&output);
    assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
}

#[test]
fn formats_agree() {
    for (format, check) in [
        (
            "integer",
            (|line: &str| line.parse::<u64>().is_ok()) as fn(&str) -> bool,
        ),
        ("hex", |line| {
            line.strip_prefix("0x").is_some_and(|digits| {
                u64::from_str_radix(digits, 16).is_ok() && digits == digits.to_uppercase()
            })
        }),
        ("base32", |line| UlidFlake::parse_str(line).is_ok()),
    ] {
        let output = stdout_of(&["generate", "-n", "5", "--format", format]);
        assert_eq!(output.lines().count(), 5);
        assert!(output.lines().all(check), "{format}: {output}");
    }
}

#[test]
fn json_lines() {
    let output = stdout_of(&["generate", "-n", "3", "--format", "json"]);
    for line in output.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("one JSON object");
        let object = value.as_object().expect("an object");
        assert_eq!(object.len(), 2, "{line}");
        let id = UlidFlake::parse_str(object["id"].as_str().expect("id is a string")).unwrap();
        assert_eq!(object["integer"].as_u64(), Some(id.to_u64()), "{line}");
        // The exact shape, byte for byte.
        assert_eq!(
            line,
            format!(r#"{{"id":"{id}","integer":{}}}"#, id.to_u64())
        );
    }
}

#[test]
fn scalable_layout_carries_the_scalability_id() {
    for scalability_id in ["0", "7", "31"] {
        let output = stdout_of(&["generate", "-n", "1000", "--scalability-id", scalability_id]);
        let ids = base32_lines(&output);
        assert_eq!(ids.len(), 1000);
        assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
        let expected: u8 = scalability_id.parse().unwrap();
        assert!(ids.iter().all(|id| id.scalability_id() == expected));
    }
}

#[test]
fn scalability_id_shows_in_inspect() {
    let id = stdout_of(&["generate", "--scalability-id", "9"]);
    let inspection = stdout_of(&["inspect", "--json", id.trim_end()]);
    assert!(
        inspection.contains(r#""scalability_id":9}"#),
        "{inspection}"
    );
}

#[test]
fn entropy_sizes_within_the_limits() {
    for args in [
        &["--entropy-bytes", "2"][..],
        &["--entropy-bytes", "3"],
        &["--entropy-bytes", "2", "--scalability-id", "1"],
    ] {
        let mut all = vec!["generate", "-n", "50"];
        all.extend_from_slice(args);
        let ids = base32_lines(&stdout_of(&all));
        assert_eq!(ids.len(), 50, "{args:?}");
        assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "{args:?}");
    }
}

#[test]
fn custom_epoch() {
    // Counted from the Unix epoch, the timestamp is the Unix time in ms: 2024 or later.
    let id = base32_lines(&stdout_of(&["generate", "--epoch", "0"]))[0];
    assert!(id.ms_since_epoch() >= 1_704_067_200_000);
    // From the default epoch, it is far smaller.
    let id = base32_lines(&stdout_of(&["generate"]))[0];
    assert!(id.ms_since_epoch() < 1_704_067_200_000);
}

#[test]
fn an_epoch_the_clock_has_not_reached_is_a_usage_error_naming_it() {
    // The last epoch the format allows: far after any clock this test runs on.
    let output = super::ulid_flake()
        .args(["generate", "--epoch", "272678883688448"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(
            "error: --epoch 272678883688448: expected a moment the clock has reached, found one "
        ),
        "{stderr}"
    );
}

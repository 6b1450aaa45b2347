//! Scalability ids from `StatefulSet` ordinals.
//!
//! `scalability_id_from_statefulset` reads `HOSTNAME`; each case runs in a child process
//! (this test binary again, running only `probe`) so that no test changes the environment of
//! the others.

use crate::support::report_of_child;

use ulid_flake_core::Error;
use ulid_flake_core::generator::{HOSTNAME_VARIABLE, scalability_id_from_hostname};

const NOT_A_POD: Error = Error::InvalidEnvironmentVariable {
    name: "HOSTNAME",
    expected: "a StatefulSet pod name ending in -<ordinal>, e.g. web-3",
};

#[test]
fn the_trailing_ordinal_is_the_id() {
    for (hostname, id) in [
        ("web-0", 0),
        ("web-3", 3),
        ("web-10", 10),
        ("web-31", 31),
        ("a-b-7", 7),
        ("my-app-db-0", 0),
        ("w-1", 1),
        // The contents of /etc/hostname end in a newline.
        ("web-5\n", 5),
        ("  web-6 ", 6),
    ] {
        assert_eq!(
            scalability_id_from_hostname(hostname),
            Ok(id),
            "{hostname:?}"
        );
    }
}

#[test]
fn an_ordinal_above_31_is_out_of_range() {
    for (hostname, found) in [
        ("web-32", 32),
        ("web-255", 255),
        ("web-256", 256),
        ("web-18446744073709551615", u64::MAX),
    ] {
        assert_eq!(
            scalability_id_from_hostname(hostname),
            Err(Error::InvalidScalabilityId { found }),
            "{hostname:?}"
        );
    }
    assert_eq!(
        scalability_id_from_hostname("web-32")
            .unwrap_err()
            .to_string(),
        "invalid scalability id: expected 0..=31, found 32"
    );
}

#[test]
fn a_name_without_an_ordinal_is_refused() {
    for hostname in [
        "",
        "web",
        "web-",
        "-3",
        "-",
        "web3",
        "web-3a",
        "web-a3",
        "web-+3",
        "web--3",
        "web- 3",
        "web-3.web.default.svc.cluster.local",
        "web-٣", // an Arabic-Indic digit three
        "web-03",
        "web-00",
        "web-18446744073709551616", // past u64::MAX
        "web_3",
    ] {
        assert_eq!(
            scalability_id_from_hostname(hostname),
            Err(NOT_A_POD),
            "{hostname:?}"
        );
    }
    assert_eq!(
        NOT_A_POD.to_string(),
        "invalid environment variable HOSTNAME: expected a StatefulSet pod name ending in \
         -<ordinal>, e.g. web-3, found another value"
    );
}

/// Runs `probe` in a child with `HOSTNAME` set to `value` (or unset), and returns its report.
fn probe_in_child(value: Option<&str>) -> String {
    report_of_child("statefulset::probe", HOSTNAME_VARIABLE, value, &[])
}

/// Not a test of its own: the child side of the test below (hence ignored).
#[test]
#[ignore = "run in a child process by statefulset_reads_hostname"]
fn probe() {
    println!(
        "REPORT {:?}",
        ulid_flake_core::generator::scalability_id_from_statefulset()
    );
}

#[test]
fn statefulset_reads_hostname() {
    assert_eq!(probe_in_child(Some("web-3")), "Ok(3)");
    assert_eq!(probe_in_child(Some("web-31")), "Ok(31)");
    assert_eq!(
        probe_in_child(Some("web-32")),
        format!(
            "{:?}",
            Err::<u8, _>(Error::InvalidScalabilityId { found: 32 })
        )
    );
    let not_a_pod = format!("{:?}", Err::<u8, _>(NOT_A_POD));
    assert_eq!(probe_in_child(Some("laptop")), not_a_pod);
    assert_eq!(probe_in_child(None), not_a_pod);
}

//! The lease key and name scheme shared by the adapters' leases.

use ulid_flake_core::Error;
use ulid_flake_core::generator::{
    DEFAULT_LEASE_NAMESPACE, MAX_LEASE_NAMESPACE_LEN, lease_candidates, lease_key, lease_name,
    lease_namespace_is_valid,
};

#[test]
fn lease_keys_are_pinned() {
    // The scheme is shared by processes of different versions and by both adapters: a change
    // would let two replicas hold the same id. These values must never change.
    let base = lease_key(DEFAULT_LEASE_NAMESPACE, 0).unwrap();
    assert_eq!(base & 31, 0);
    for id in 0..=31 {
        assert_eq!(
            lease_key(DEFAULT_LEASE_NAMESPACE, id),
            Ok(base | i64::from(id))
        );
    }
    assert_eq!(base, PINNED_DEFAULT_KEY);
    assert_ne!(lease_key("a", 0).unwrap(), lease_key("b", 0).unwrap());
    assert_ne!(lease_key("a", 0).unwrap(), base);
    assert_eq!(
        lease_key(DEFAULT_LEASE_NAMESPACE, 32),
        Err(Error::InvalidScalabilityId { found: 32 })
    );
}

/// `lease_key("ulid-flake", 0)`: the FNV-1a hash of `ulid-flake:scalability-id` with its low 5
/// bits cleared, computed independently (in Python).
const PINNED_DEFAULT_KEY: i64 = 7_054_525_145_765_713_824;

#[test]
fn lease_names_are_pinned() {
    assert_eq!(
        lease_name(DEFAULT_LEASE_NAMESPACE, 0).unwrap(),
        "ulid-flake:scalability-id:0"
    );
    assert_eq!(
        lease_name("billing", 31).unwrap(),
        "billing:scalability-id:31"
    );
    assert_eq!(
        lease_name("billing", 255),
        Err(Error::InvalidScalabilityId { found: 255 })
    );
    let longest = "x".repeat(MAX_LEASE_NAMESPACE_LEN);
    assert_eq!(lease_name(&longest, 31).unwrap().len(), 64);
}

#[test]
fn namespaces_are_1_to_46_bytes() {
    assert_eq!(MAX_LEASE_NAMESPACE_LEN, 46);
    assert!(lease_namespace_is_valid("a"));
    assert!(lease_namespace_is_valid(DEFAULT_LEASE_NAMESPACE));
    assert!(lease_namespace_is_valid(&"x".repeat(46)));
    assert!(!lease_namespace_is_valid(""));
    assert!(!lease_namespace_is_valid(&"x".repeat(47)));
}

#[test]
fn candidates_cover_every_id_once() {
    let mut firsts = [0_u32; 32];
    for _ in 0..1_000 {
        let ids: Vec<u8> = lease_candidates().collect();
        assert_eq!(ids.len(), 32);
        firsts[usize::from(ids[0])] += 1;
        // Consecutive, wrapping around.
        for pair in ids.windows(2) {
            assert_eq!(pair[1], (pair[0] + 1) % 32, "{ids:?}");
        }
    }
    // 1,000 uniform draws over 32 offsets: every offset comes up (a miss has probability
    // about 32 * (31/32)^1000, 2e-13).
    assert!(firsts.iter().all(|&count| count > 0), "{firsts:?}");
}

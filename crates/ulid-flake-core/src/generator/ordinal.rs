//! Where a replica's scalability id comes from: a Kubernetes `StatefulSet` ordinal, or a lease
//! taken in a database (the scheme shared by the lease types of `ulid-flake-sqlx` and
//! `ulid-flake-diesel`).

use std::format;
use std::string::String;

use super::{RandomSource, ThreadRandom};
use crate::{Error, SCALABILITY_ID_MAX};

/// The environment variable that holds a Kubernetes pod's name, read by
/// [`scalability_id_from_statefulset`].
///
/// ```
/// assert_eq!(ulid_flake_core::generator::HOSTNAME_VARIABLE, "HOSTNAME");
/// ```
pub const HOSTNAME_VARIABLE: &str = "HOSTNAME";

/// The error of a host name that does not end in a `StatefulSet` ordinal.
const NOT_A_STATEFULSET_POD: Error = Error::InvalidEnvironmentVariable {
    name: HOSTNAME_VARIABLE,
    expected: "a StatefulSet pod name ending in -<ordinal>, e.g. web-3",
};

/// The scalability id of a Kubernetes `StatefulSet` pod: the ordinal at the end of its name,
/// `web-3` → 3.
///
/// A `StatefulSet` names its pods `<statefulset>-<ordinal>`, ordinals counting from 0 with no
/// leading zeros, and no two live pods share one: with at most 32 replicas, the ordinal is a
/// scalability id no other replica has. The name is taken as it is, apart from surrounding
/// white space (the contents of `/etc/hostname` end in a newline); a fully qualified name
/// (`web-3.web.default.svc.cluster.local`) is not a pod name.
///
/// # Errors
///
/// [`Error::InvalidScalabilityId`] for an ordinal above 31 (`web-32`: scale the `StatefulSet`
/// to at most 32 replicas, or lease ids instead); [`Error::InvalidEnvironmentVariable`], naming
/// [`HOSTNAME_VARIABLE`], for a name that does not end in `-<ordinal>`: no dash, nothing (or
/// another dash) before it, anything but ASCII digits after it, a leading zero (`web-03`), or
/// a number too large for any `StatefulSet`.
///
/// ```
/// use ulid_flake_core::{Error, generator::scalability_id_from_hostname};
///
/// assert_eq!(scalability_id_from_hostname("web-3")?, 3);
/// assert_eq!(scalability_id_from_hostname("my-app-db-31")?, 31);
/// assert_eq!(
///     scalability_id_from_hostname("web-32"),
///     Err(Error::InvalidScalabilityId { found: 32 })
/// );
/// assert!(matches!(
///     scalability_id_from_hostname("web"),
///     Err(Error::InvalidEnvironmentVariable { name: "HOSTNAME", .. })
/// ));
/// # Ok::<(), Error>(())
/// ```
pub fn scalability_id_from_hostname(hostname: &str) -> Result<u8, Error> {
    let (name, ordinal) = hostname
        .trim()
        .rsplit_once('-')
        .ok_or(NOT_A_STATEFULSET_POD)?;
    let well_formed = !name.is_empty()
        && !name.ends_with('-')
        && !ordinal.is_empty()
        && ordinal.bytes().all(|byte| byte.is_ascii_digit())
        && (ordinal == "0" || !ordinal.starts_with('0'));
    if !well_formed {
        return Err(NOT_A_STATEFULSET_POD);
    }
    // Only digits, so parsing fails only past u64::MAX, far beyond any ordinal (an `int32`).
    let ordinal: u64 = ordinal.parse().map_err(|_| NOT_A_STATEFULSET_POD)?;
    match u8::try_from(ordinal) {
        Ok(id) if id <= SCALABILITY_ID_MAX => Ok(id),
        _ => Err(Error::InvalidScalabilityId { found: ordinal }),
    }
}

/// The scalability id of this process when it runs in a Kubernetes `StatefulSet` pod: the
/// ordinal at the end of the pod name, which Kubernetes puts in [`HOSTNAME_VARIABLE`]
/// (`HOSTNAME=web-3` → 3). See [`scalability_id_from_hostname`].
///
/// # Errors
///
/// [`Error::InvalidEnvironmentVariable`] when `HOSTNAME` is unset, is not Unicode, or does not
/// end in `-<ordinal>`; [`Error::InvalidScalabilityId`] for an ordinal above 31.
///
/// ```no_run
/// use ulid_flake_core::generator::{Generator, Layout, scalability_id_from_statefulset};
///
/// // In pod `web-3` of a StatefulSet: IDs ending in scalability id 3.
/// let generator = Generator::builder()
///     .layout(Layout::Scalable { scalability_id: scalability_id_from_statefulset()? })
///     .build()?;
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub fn scalability_id_from_statefulset() -> Result<u8, Error> {
    let hostname = std::env::var(HOSTNAME_VARIABLE).map_err(|_| NOT_A_STATEFULSET_POD)?;
    scalability_id_from_hostname(&hostname)
}

/// The namespace of the leases of an application that does not choose one.
///
/// ```
/// assert_eq!(ulid_flake_core::generator::DEFAULT_LEASE_NAMESPACE, "ulid-flake");
/// ```
pub const DEFAULT_LEASE_NAMESPACE: &str = "ulid-flake";

/// The longest lease namespace, in bytes: a MySQL lock name ([`lease_name`]) holds at most 64
/// characters, and `:scalability-id:31` takes 18 of them.
///
/// ```
/// use ulid_flake_core::generator::{MAX_LEASE_NAMESPACE_LEN, lease_name};
///
/// let longest = "n".repeat(MAX_LEASE_NAMESPACE_LEN);
/// assert_eq!(lease_name(&longest, 31)?.len(), 64);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub const MAX_LEASE_NAMESPACE_LEN: usize = 64 - ":scalability-id:31".len();

/// Whether `namespace` can name leases: 1 to [`MAX_LEASE_NAMESPACE_LEN`] bytes. The lease
/// types refuse any other.
///
/// ```
/// use ulid_flake_core::generator::lease_namespace_is_valid;
///
/// assert!(lease_namespace_is_valid("billing"));
/// assert!(!lease_namespace_is_valid(""));
/// assert!(!lease_namespace_is_valid(&"n".repeat(47)));
/// ```
pub fn lease_namespace_is_valid(namespace: &str) -> bool {
    (1..=MAX_LEASE_NAMESPACE_LEN).contains(&namespace.len())
}

/// The PostgreSQL advisory-lock key of the lease on `scalability_id` in `namespace`, for
/// `pg_try_advisory_lock(bigint)`: the 64-bit FNV-1a hash of the bytes of
/// `"{namespace}:scalability-id"`, with its low 5 bits replaced by the id, read as a
/// two's-complement `i64`.
///
/// This is the one definition of the key: every lease type of this project uses it, so
/// leases taken through sqlx and through Diesel exclude each other. The 32 keys of a
/// namespace differ only in their low 5 bits; another namespace's keys (and, with
/// probability about 1 in 2^59, any other application's advisory locks) are different. The
/// value is stable across versions, platforms and processes.
///
/// # Errors
///
/// [`Error::InvalidScalabilityId`] for an id above 31.
///
/// ```
/// use ulid_flake_core::generator::{DEFAULT_LEASE_NAMESPACE, lease_key};
///
/// let key = lease_key(DEFAULT_LEASE_NAMESPACE, 3)?;
/// assert_eq!(key & 31, 3);
/// assert_eq!(key & !31, lease_key(DEFAULT_LEASE_NAMESPACE, 30)? & !31);
/// assert_ne!(key, lease_key("billing", 3)?);
/// assert!(lease_key(DEFAULT_LEASE_NAMESPACE, 32).is_err());
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub fn lease_key(namespace: &str, scalability_id: u8) -> Result<i64, Error> {
    check_id(scalability_id)?;
    let hash = fnv1a_64(namespace.bytes().chain(*b":scalability-id"));
    let key = hash & !u64::from(SCALABILITY_ID_MAX) | u64::from(scalability_id);
    // Two's complement: the bits as they are.
    Ok(key as i64)
}

/// The MySQL/MariaDB lock name of the lease on `scalability_id` in `namespace`, for
/// `GET_LOCK(name, 0)`: `"{namespace}:scalability-id:{scalability_id}"`.
///
/// This is the one definition of the name, shared by every lease type of this project. MySQL
/// lock names are server-wide (not per database), which the namespace accounts for; MySQL
/// refuses names longer than 64 characters, hence [`MAX_LEASE_NAMESPACE_LEN`].
///
/// # Errors
///
/// [`Error::InvalidScalabilityId`] for an id above 31.
///
/// ```
/// use ulid_flake_core::generator::{DEFAULT_LEASE_NAMESPACE, lease_name};
///
/// assert_eq!(lease_name(DEFAULT_LEASE_NAMESPACE, 7)?, "ulid-flake:scalability-id:7");
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub fn lease_name(namespace: &str, scalability_id: u8) -> Result<String, Error> {
    check_id(scalability_id)?;
    Ok(format!("{namespace}:scalability-id:{scalability_id}"))
}

/// The 32 scalability ids, each once, in the order a lease tries them: from a random offset,
/// so that replicas starting together mostly ask for different ids first, and wrapping
/// around so that every id is tried.
///
/// ```
/// use ulid_flake_core::generator::lease_candidates;
///
/// let mut ids: Vec<u8> = lease_candidates().collect();
/// assert_eq!(ids.len(), 32);
/// ids.sort();
/// assert_eq!(ids, (0..=31).collect::<Vec<u8>>());
/// ```
pub fn lease_candidates() -> impl Iterator<Item = u8> {
    let ids = u32::from(SCALABILITY_ID_MAX) + 1;
    let offset = ThreadRandom.next_u32() % ids;
    // Below 32: the casts are lossless.
    (0..ids).map(move |step| ((offset + step) % ids) as u8)
}

fn check_id(scalability_id: u8) -> Result<(), Error> {
    if scalability_id <= SCALABILITY_ID_MAX {
        Ok(())
    } else {
        Err(Error::InvalidScalabilityId {
            found: scalability_id.into(),
        })
    }
}

/// The 64-bit FNV-1a hash: tiny, and fixed forever, unlike `std`'s hashers.
fn fnv1a_64(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        assert_eq!(fnv1a_64(*b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a_64(*b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a_64(*b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn candidates_start_at_different_offsets() {
        let firsts: std::collections::BTreeSet<u8> = (0..200)
            .map(|_| lease_candidates().next().unwrap())
            .collect();
        assert!(firsts.len() > 1, "{firsts:?}");
    }
}

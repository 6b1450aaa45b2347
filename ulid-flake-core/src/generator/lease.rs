//! Scalability ids leased in a database: the scheme shared by the lease types of
//! `ulid-flake-sqlx` and `ulid-flake-diesel`.

use core::fmt;
use std::boxed::Box;
use std::format;
use std::string::String;
use std::vec::Vec;

use super::{RandomSource, ThreadRandom};
use crate::{Error, SCALABILITY_ID_MAX};

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

/// Why a scalability-id lease could not be taken or installed. `E` is the database library's
/// error; the adapters name the whole type `LeaseError` (`ulid_flake_sqlx::LeaseError`,
/// `ulid_flake_diesel::LeaseError`).
///
/// ```
/// use ulid_flake_core::generator::LeaseError;
///
/// let error = LeaseError::<std::io::Error>::AllTaken { namespace: "billing".into() };
/// assert_eq!(
///     error.to_string(),
///     "all 32 scalability ids of lease namespace \"billing\" are taken: expected a free id \
///      in 0..=31, found every one locked by another session"
/// );
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum LeaseError<E> {
    /// Other sessions hold all 32 ids of the namespace: more than 32 replicas, or leases of
    /// processes whose connections the server has not yet seen close.
    AllTaken {
        /// The namespace.
        namespace: String,
    },
    /// A namespace that is empty or longer than [`MAX_LEASE_NAMESPACE_LEN`] bytes.
    InvalidNamespace {
        /// The namespace's length, in bytes.
        length: usize,
    },
    /// Installing the lease's generator as the process-wide default found one in place.
    DefaultGeneratorAlreadySet,
    /// The database's error: a bad URL, a failed connection, a failed query.
    Database(E),
}

impl<E> LeaseError<E> {
    /// `Ok` for a valid namespace (see [`lease_namespace_is_valid`]), else
    /// [`LeaseError::InvalidNamespace`]: the adapters check it before connecting.
    ///
    /// # Errors
    ///
    /// [`LeaseError::InvalidNamespace`].
    ///
    /// ```
    /// use ulid_flake_core::generator::LeaseError;
    ///
    /// assert!(LeaseError::<std::io::Error>::check_namespace("billing").is_ok());
    /// assert!(matches!(
    ///     LeaseError::<std::io::Error>::check_namespace(""),
    ///     Err(LeaseError::InvalidNamespace { length: 0 })
    /// ));
    /// ```
    pub fn check_namespace(namespace: &str) -> Result<(), Self> {
        if lease_namespace_is_valid(namespace) {
            Ok(())
        } else {
            Err(Self::InvalidNamespace {
                length: namespace.len(),
            })
        }
    }
}

impl<E: fmt::Display> fmt::Display for LeaseError<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::AllTaken { namespace } => write!(
                f,
                "all 32 scalability ids of lease namespace {namespace:?} are taken: expected a \
                 free id in 0..=31, found every one locked by another session"
            ),
            Self::InvalidNamespace { length } => write!(
                f,
                "invalid lease namespace: expected 1..={MAX_LEASE_NAMESPACE_LEN} bytes, \
                 found {length}"
            ),
            Self::DefaultGeneratorAlreadySet => write!(
                f,
                "{}; the lease was released",
                Error::DefaultGeneratorAlreadySet
            ),
            Self::Database(error) => write!(f, "lease database error: {error}"),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for LeaseError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Database(error) => Some(error),
            _ => None,
        }
    }
}

impl<E> From<E> for LeaseError<E> {
    /// [`LeaseError::Database`].
    fn from(error: E) -> Self {
        Self::Database(error)
    }
}

/// Leases whose generators were installed as the process-wide default: kept, with their
/// connections and so their locks, until the process exits.
static INSTALLED_LEASES: std::sync::Mutex<Vec<Box<dyn Send>>> = std::sync::Mutex::new(Vec::new());

/// Installs a generator with the scalable layout and `scalability_id` (and the other
/// defaults) as the process-wide default, and keeps `lease` — whatever holds the id's lock —
/// until the process exits, so that the default generator can never outlive its lease. The
/// adapters' `ScalabilityIdLease::install_default` call it.
///
/// # Errors
///
/// [`Error::InvalidScalabilityId`] above 31;
/// [`Error::DefaultGeneratorAlreadySet`] when a default exists already — `lease` is then
/// dropped, releasing its lock.
///
/// ```
/// use ulid_flake_core::{UlidFlake, generator::install_leased_default};
///
/// // A stand-in for a database lease: anything that holds the lock while it lives.
/// struct HeldLock;
/// install_leased_default(9, HeldLock)?;
/// assert_eq!(UlidFlake::generate()?.scalability_id(), 9);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub fn install_leased_default<L: Send + 'static>(
    scalability_id: u8,
    lease: L,
) -> Result<(), Error> {
    let generator = super::Generator::builder()
        .layout(super::Layout::Scalable { scalability_id })
        .build()?;
    super::set_default_generator(generator)?;
    INSTALLED_LEASES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(Box::new(lease));
    Ok(())
}

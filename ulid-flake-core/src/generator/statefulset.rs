//! A replica's scalability id from its Kubernetes `StatefulSet` ordinal.

use crate::error::Error;
use crate::layout::SCALABILITY_ID_MAX;

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

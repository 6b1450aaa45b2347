//! Integrations with other crates, each behind a feature named after the crate.

#[cfg(feature = "diesel")]
mod diesel_support;
#[cfg(feature = "schemars")]
mod schemars_support;
#[cfg(feature = "serde")]
pub(crate) mod serde_support;
#[cfg(feature = "sqlx")]
mod sqlx_support;
#[cfg(feature = "utoipa")]
mod utoipa_support;
#[cfg(feature = "uuid")]
mod uuid_support;

/// What the OpenAPI (utoipa) and JSON Schema (schemars) descriptions of an ID say, so that the
/// two agree: the string that JSON carries (serde's human-readable form), never the integer.
#[cfg(any(feature = "utoipa", feature = "schemars"))]
pub(crate) mod schema_text {
    /// The schema's name: the same for `UlidFlake` and every `Id<T>`.
    pub(crate) const NAME: &str = "UlidFlake";

    /// What the parser accepts: a first character 0-7, then 12 Crockford Base32 digits, in
    /// either case.
    pub(crate) const PATTERN: &str = "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$";

    /// The schema's description.
    pub(crate) const DESCRIPTION: &str = "A Ulid-Flake: a time-sortable 64-bit ID as 13 \
        Crockford Base32 characters (either case accepted). A string, not a number: IDs \
        exceed 2^53.";

    /// The example: the first vector of the specification.
    pub(crate) const EXAMPLE: &str = "00CMXB6TAK4SA";
}

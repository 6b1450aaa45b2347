//! What the OpenAPI (utoipa) and JSON Schema (schemars) descriptions of an ID say, so that the
//! two agree: the string that JSON carries (serde's human-readable form), never the integer.

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

/// What the schemas of a prefixed ID say: the above with the prefix.
pub(crate) mod prefixed {
    use alloc::format;
    use alloc::string::String;

    use super::{EXAMPLE, PATTERN};
    use crate::layout::ENCODED_LEN;

    /// The length of every text: the prefix, `_` and the 13 characters.
    pub(crate) fn length(prefix: &str) -> usize {
        prefix.len() + 1 + ENCODED_LEN
    }

    /// The unprefixed pattern with the prefix after its `^`, unescaped: a prefix is
    /// `[a-z][a-z0-9]*` (`is_valid_prefix`), which holds no character a regex treats apart.
    pub(crate) fn pattern(prefix: &str) -> String {
        format!("^{prefix}_{}", &PATTERN[1..])
    }

    /// The description.
    pub(crate) fn description(prefix: &str) -> String {
        format!(
            "A Ulid-Flake with the prefix `{prefix}_`: `{prefix}_` then a time-sortable \
             64-bit ID as 13 Crockford Base32 characters (either case accepted). The prefix \
             is required."
        )
    }

    /// The example: the unprefixed one, prefixed.
    pub(crate) fn example(prefix: &str) -> String {
        format!("{prefix}_{EXAMPLE}")
    }
}

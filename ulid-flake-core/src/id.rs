//! Typed IDs: `Id<User>` and `Id<Post>` are different types over the same Ulid-Flake.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::str::FromStr;

use crate::{Error, UlidFlake};

/// A Ulid-Flake that identifies a `T`: an `Id<User>` cannot be passed where an `Id<Post>`
/// is expected.
///
/// It costs nothing: the same 8 bytes as a `u64`, and the marker `PhantomData<fn() -> T>`
/// makes it `Send`, `Sync`, `Copy`, `Eq`, `Ord`, `Hash` and the rest whatever `T` is — the
/// entity type is never stored, so it needs none of these traits (they are implemented by
/// hand, since `#[derive]` would demand them of `T`).
///
/// ```
/// use ulid_flake_core::{Id, ulid_flake};
///
/// struct User; // no derives needed
///
/// let id = Id::<User>::from_ulid_flake(ulid_flake!("00CMXB6TAK4SA"));
/// assert_eq!(format!("{id:?}"), "Id<User>(00CMXB6TAK4SA)");
/// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
/// assert_eq!(size_of::<Id<User>>(), 8);
/// ```
#[cfg_attr(
    feature = "diesel",
    derive(diesel::expression::AsExpression, diesel::deserialize::FromSqlRow)
)]
#[cfg_attr(feature = "diesel", diesel(sql_type = diesel::sql_types::BigInt))]
#[repr(transparent)]
pub struct Id<T: ?Sized> {
    pub(crate) value: UlidFlake,
    entity: PhantomData<fn() -> T>,
}

impl<T: ?Sized> Id<T> {
    /// The smallest ID, `0000000000000`.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::Id::<()>::MIN.to_u64(), 0);
    /// ```
    pub const MIN: Self = Self::from_ulid_flake(UlidFlake::MIN);

    /// The largest ID, `7ZZZZZZZZZZZZ`.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::Id::<()>::MAX.to_i64(), i64::MAX);
    /// ```
    pub const MAX: Self = Self::from_ulid_flake(UlidFlake::MAX);

    /// Types a Ulid-Flake.
    ///
    /// ```
    /// use ulid_flake_core::{Id, UlidFlake};
    /// let id = Id::<String>::from_ulid_flake(UlidFlake::MAX);
    /// assert_eq!(id.to_ulid_flake(), UlidFlake::MAX);
    /// ```
    pub const fn from_ulid_flake(value: UlidFlake) -> Self {
        Self {
            value,
            entity: PhantomData,
        }
    }

    /// The untyped Ulid-Flake, for its accessors (`timestamp_ms`, `randomness`, ...).
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::parse_str("00CMXB6TAK4SA")?;
    /// assert_eq!(id.to_ulid_flake().ms_since_epoch(), 13_586_766_666);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn to_ulid_flake(self) -> UlidFlake {
        self.value
    }

    /// The integer value, `0..=i64::MAX`.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::Id::<()>::MAX.to_u64(), i64::MAX as u64);
    /// ```
    pub const fn to_u64(self) -> u64 {
        self.value.to_u64()
    }

    /// The integer value as the non-negative `i64` an SQL `BIGINT` stores.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::Id::<()>::MAX.to_i64(), i64::MAX);
    /// ```
    pub const fn to_i64(self) -> i64 {
        self.value.to_i64()
    }

    /// The ID with this integer value.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] above `i64::MAX`.
    ///
    /// ```
    /// assert!(ulid_flake_core::Id::<()>::from_u64(u64::MAX).is_err());
    /// ```
    pub const fn from_u64(value: u64) -> Result<Self, Error> {
        match UlidFlake::from_u64(value) {
            Ok(value) => Ok(Self::from_ulid_flake(value)),
            Err(error) => Err(error),
        }
    }

    /// The ID with this `BIGINT` value.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for a negative value.
    ///
    /// ```
    /// assert!(ulid_flake_core::Id::<()>::from_i64(-1).is_err());
    /// ```
    pub const fn from_i64(value: i64) -> Result<Self, Error> {
        match UlidFlake::from_i64(value) {
            Ok(value) => Ok(Self::from_ulid_flake(value)),
            Err(error) => Err(error),
        }
    }

    /// Parses the canonical text, as [`UlidFlake::parse_str`] does.
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::parse_str`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::parse_str("00cmxb6tak4sa")?;
    /// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn parse_str(text: &str) -> Result<Self, Error> {
        match UlidFlake::parse_str(text) {
            Ok(value) => Ok(Self::from_ulid_flake(value)),
            Err(error) => Err(error),
        }
    }

    /// A new ID from the process-wide default generator; see [`UlidFlake::generate`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::generate`].
    ///
    /// ```
    /// use ulid_flake_core::Id;
    ///
    /// struct User;
    /// let id: Id<User> = Id::generate()?;
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn generate() -> Result<Self, Error> {
        UlidFlake::generate().map(Self::from_ulid_flake)
    }

    /// A new ID from the process-wide default generator, without blocking the thread; see
    /// [`UlidFlake::generate_async`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::generate`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ulid_flake_core::Error> {
    /// struct Post;
    /// let id = ulid_flake_core::Id::<Post>::generate_async().await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "tokio")]
    pub async fn generate_async() -> Result<Self, Error> {
        UlidFlake::generate_async().await.map(Self::from_ulid_flake)
    }
}

impl<T: ?Sized> Clone for Id<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: ?Sized> Copy for Id<T> {}

impl<T: ?Sized> PartialEq for Id<T> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<T: ?Sized> Eq for Id<T> {}

impl<T: ?Sized> PartialOrd for Id<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: ?Sized> Ord for Id<T> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.value.cmp(&other.value)
    }
}

impl<T: ?Sized> Hash for Id<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.value.hash(state);
    }
}

impl<T: ?Sized> fmt::Debug for Id<T> {
    /// `Id<User>(00CMXB6TAK4SA)`: the entity's type name without its module path.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Id<")?;
        write_short_type_name(f, core::any::type_name::<T>())?;
        write!(f, ">({})", self.value)
    }
}

/// Writes a type name with every path shortened to its last segment:
/// `alloc::vec::Vec<app::User>` becomes `Vec<User>`.
fn write_short_type_name(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    let mut rest = name;
    while !rest.is_empty() {
        let path_end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let (path, after) = rest.split_at(path_end);
        f.write_str(path.rsplit("::").next().unwrap_or(path))?;
        let punctuation_end = after
            .find(|c: char| c.is_alphanumeric() || c == '_')
            .unwrap_or(after.len());
        f.write_str(&after[..punctuation_end])?;
        rest = &after[punctuation_end..];
    }
    Ok(())
}

impl<T: ?Sized> fmt::Display for Id<T> {
    /// The canonical text, as [`UlidFlake`]'s `Display`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.value, f)
    }
}

impl<T: ?Sized> FromStr for Id<T> {
    type Err = Error;

    /// [`Id::parse_str`].
    fn from_str(text: &str) -> Result<Self, Error> {
        Self::parse_str(text)
    }
}

impl<T: ?Sized> From<UlidFlake> for Id<T> {
    fn from(value: UlidFlake) -> Self {
        Self::from_ulid_flake(value)
    }
}

impl<T: ?Sized> From<Id<T>> for UlidFlake {
    fn from(id: Id<T>) -> Self {
        id.value
    }
}

impl<T: ?Sized> From<Id<T>> for u64 {
    fn from(id: Id<T>) -> Self {
        id.to_u64()
    }
}

impl<T: ?Sized> From<Id<T>> for i64 {
    fn from(id: Id<T>) -> Self {
        id.to_i64()
    }
}

impl<T: ?Sized> TryFrom<u64> for Id<T> {
    type Error = Error;

    fn try_from(value: u64) -> Result<Self, Error> {
        Self::from_u64(value)
    }
}

impl<T: ?Sized> TryFrom<i64> for Id<T> {
    type Error = Error;

    fn try_from(value: i64) -> Result<Self, Error> {
        Self::from_i64(value)
    }
}

impl<T: ?Sized> TryFrom<&str> for Id<T> {
    type Error = Error;

    fn try_from(text: &str) -> Result<Self, Error> {
        Self::parse_str(text)
    }
}

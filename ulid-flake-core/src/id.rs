//! Typed IDs: `Id<User>` and `Id<Post>` are different types over the same Ulid-Flake.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::ops::Range;
use core::str::FromStr;

use crate::epoch::Epoch;
use crate::error::Error;
use crate::layout::ENCODED_LEN;
use crate::moment::Moment;
use crate::ulid_flake::UlidFlake;

/// A Ulid-Flake that identifies a `T`: an `Id<User>` cannot be passed where an `Id<Post>`
/// is expected.
///
/// It costs nothing: the same 8 bytes as a `u64`, and the marker `PhantomData<fn() -> T>`
/// makes it `Send`, `Sync`, `Copy`, `Eq`, `Ord`, `Hash` and the rest whatever `T` is — the
/// entity type is never stored, so it needs none of these traits (they are implemented by
/// hand, since `#[derive]` would demand them of `T`).
///
/// ```
/// use ulid_flake_core::{Epoch, Id, ulid_flake};
///
/// struct User; // no derives needed
///
/// let id = Id::<User>::from_ulid_flake(ulid_flake!("00CMXB6TAK4SA"));
/// assert_eq!(format!("{id:?}"), "Id<User>(00CMXB6TAK4SA)");
/// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
/// assert_eq!(id.ms_since_epoch(), 13_586_766_666);
/// assert_eq!(id.unix_ms(Epoch::DEFAULT), 1_717_653_966_666);
/// assert_eq!(size_of::<Id<User>>(), 8);
/// ```
///
/// # Design
///
/// - **The everyday type.** Rows, request bodies, URLs and function signatures hold `Id<T>`;
///   [`UlidFlake`] is for code that handles IDs of any entity (codecs, the generator). So
///   `Id<T>` has every reading of `UlidFlake` itself — [`ms_since_epoch`](Id::ms_since_epoch),
///   [`unix_ms`](Id::unix_ms), [`to_moment`](Id::to_moment), [`randomness`](Id::randomness),
///   [`scalability_id`](Id::scalability_id), [`to_bytes`](Id::to_bytes), `to_hex`, the
///   `{:x}`/`{:b}` formats — and [`to_ulid_flake`](Id::to_ulid_flake) is needed only to drop
///   the entity on purpose.
/// - **Names say what they count from.** An ID does not store its epoch:
///   [`ms_since_epoch`](Id::ms_since_epoch) is the raw field, milliseconds since whatever
///   [`Epoch`] made it; [`unix_ms`](Id::unix_ms) and [`to_moment`](Id::to_moment) take the
///   epoch and answer in Unix time.
/// - **Re-typing is explicit.** There is no `From<Id<A>> for Id<B>`, which `?` and `.into()`
///   would apply silently; [`cast`](Id::cast) names the change where it is meant (a table
///   that shares its primary key with another, a view model of an entity).
/// - **No `Default`.** [`UlidFlake`] defaults to [`UlidFlake::MIN`], as uuid's `Uuid`
///   defaults to the nil UUID, but `Id<T>` deliberately has no `Default`: an entity is where
///   a default would be built (`#[derive(Default)] struct User { id: Id<User>, .. }`), and
///   `0000000000000` would then quietly become a primary key — shared by every defaulted row,
///   so the second insert collides or, in an upsert, overwrites the first. A fresh ID is no
///   good default either: `Id::generate` can fail and reads the clock, which `Default`
///   should not. Say what you mean: `Id::generate` for a new row, `Option<Id<T>>` for "not
///   yet assigned", [`Id::MIN`] for a sentinel.
///
///   ```compile_fail,E0277
///   use ulid_flake_core::Id;
///
///   #[derive(Default)]
///   struct User {
///       id: Id<User>, // error: `Id<User>` has no `Default`
///   }
///   ```
/// - **Schemas describe the string.** With the `utoipa` or `schemars` feature, an `Id<T>`
///   field of a derived type needs no attribute and is described as what JSON carries: a
///   13-character string with its pattern and an example, never an integer (IDs exceed
///   2^53). utoipa's derive composes generic types, so it refers to a component
///   `UlidFlake_{T}` (`UlidFlake_User`, each the same string) and reads `T`'s schema name:
///   `T` must implement `ToSchema`, as an API's entities do (for one that does not, mark the
///   field `#[schema(value_type = UlidFlake)]`). In JSON Schema every `Id<T>` shares one
///   definition, `UlidFlake`, and `T` needs nothing.
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

    /// The untyped Ulid-Flake: the same value without its entity, for code that handles IDs
    /// of any type. Every reading of the value is on `Id<T>` itself.
    ///
    /// ```
    /// use ulid_flake_core::{Id, UlidFlake};
    ///
    /// let id = Id::<()>::parse_str("00CMXB6TAK4SA")?;
    /// let any: Vec<UlidFlake> = vec![id.to_ulid_flake()];
    /// # assert_eq!(any[0].to_u64(), id.to_u64());
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn to_ulid_flake(self) -> UlidFlake {
        self.value
    }

    /// The same ID, typed as identifying a `U`. It changes nothing but the type: use it where
    /// one entity's ID legitimately identifies another (a table that shares its primary key
    /// with another, a view of an entity), so the change is visible in the code.
    ///
    /// ```
    /// use ulid_flake_core::Id;
    ///
    /// struct User;
    /// struct Profile; // one per user, keyed by the user's ID
    ///
    /// let user: Id<User> = Id::generate()?;
    /// let profile: Id<Profile> = user.cast();
    /// assert_eq!(profile.to_u64(), user.to_u64());
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn cast<U: ?Sized>(self) -> Id<U> {
        Id::from_ulid_flake(self.value)
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

    /// The 8-byte big-endian form, whose byte order is the ID order, as
    /// [`UlidFlake::to_bytes`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::from_u64(0x0102_0304_0506_0708)?;
    /// assert_eq!(id.to_bytes(), [1, 2, 3, 4, 5, 6, 7, 8]);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn to_bytes(self) -> [u8; 8] {
        self.value.to_bytes()
    }

    /// The ID of an 8-byte big-endian form, as [`UlidFlake::from_bytes`].
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] when the top bit is set.
    ///
    /// ```
    /// use ulid_flake_core::Id;
    ///
    /// struct User;
    /// let id = Id::<User>::from_bytes([0, 0, 0, 0, 0, 0, 0, 1])?;
    /// assert_eq!(id.to_u64(), 1);
    /// assert!(Id::<User>::from_bytes([0x80, 0, 0, 0, 0, 0, 0, 0]).is_err());
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn from_bytes(bytes: [u8; 8]) -> Result<Self, Error> {
        match UlidFlake::from_bytes(bytes) {
            Ok(value) => Ok(Self::from_ulid_flake(value)),
            Err(error) => Err(error),
        }
    }

    /// The stand-alone ID with this timestamp (milliseconds since the epoch) and 20-bit
    /// randomness, as [`UlidFlake::from_parts`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::from_parts`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::from_parts(13_586_766_666, 627_498)?;
    /// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn from_parts(ms_since_epoch: u64, randomness: u32) -> Result<Self, Error> {
        match UlidFlake::from_parts(ms_since_epoch, randomness) {
            Ok(value) => Ok(Self::from_ulid_flake(value)),
            Err(error) => Err(error),
        }
    }

    /// The scalable ID with this timestamp, 15-bit randomness and scalability id, as
    /// [`UlidFlake::from_scalable_parts`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::from_scalable_parts`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::from_scalable_parts(16_295_560_844, 16_195, 0)?;
    /// assert_eq!(id.to_string(), "00F5MN1MCFT30");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn from_scalable_parts(
        ms_since_epoch: u64,
        randomness: u16,
        scalability_id: u8,
    ) -> Result<Self, Error> {
        match UlidFlake::from_scalable_parts(ms_since_epoch, randomness, scalability_id) {
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

    /// Parses the canonical text from bytes, as [`UlidFlake::parse_ascii`] does.
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::parse_str`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::parse_ascii(b"00CMXB6TAK4SA")?;
    /// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn parse_ascii(bytes: &[u8]) -> Result<Self, Error> {
        match UlidFlake::parse_ascii(bytes) {
            Ok(value) => Ok(Self::from_ulid_flake(value)),
            Err(error) => Err(error),
        }
    }

    /// Writes the canonical text into `buf` and returns it, without allocating, as
    /// [`UlidFlake::encode`].
    ///
    /// ```
    /// use ulid_flake_core::{ENCODED_LEN, Id};
    ///
    /// let mut buf = [0; ENCODED_LEN];
    /// assert_eq!(Id::<()>::MAX.encode(&mut buf), "7ZZZZZZZZZZZZ");
    /// ```
    pub fn encode(self, buf: &mut [u8; ENCODED_LEN]) -> &str {
        self.value.encode(buf)
    }

    /// The hexadecimal form: `0x` and uppercase digits, without padding, as
    /// [`UlidFlake::to_hex`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::parse_str("00F5MFHSEYXCM")?;
    /// assert_eq!(id.to_hex(), "0x3CB47C72EF7594");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn to_hex(self) -> alloc::string::String {
        self.value.to_hex()
    }

    /// The binary form: `0b` and the digits, without padding, as [`UlidFlake::to_bin`].
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::Id::<()>::from_u64(5)?.to_bin(), "0b101");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    #[cfg(feature = "alloc")]
    pub fn to_bin(self) -> alloc::string::String {
        self.value.to_bin()
    }

    /// Milliseconds since the [`Epoch`] the ID was made with — not since 1970: for Unix
    /// time, see [`Id::unix_ms`]. As [`UlidFlake::ms_since_epoch`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::parse_str("128GGYHYYK08N")?;
    /// assert_eq!(id.ms_since_epoch(), 1_177_375_688_670);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn ms_since_epoch(self) -> u64 {
        self.value.ms_since_epoch()
    }

    /// The 20-bit randomness of the stand-alone layout, as [`UlidFlake::randomness`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::parse_str("128GGYHYYK08N")?;
    /// assert_eq!(id.randomness(), 622_869);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn randomness(self) -> u32 {
        self.value.randomness()
    }

    /// The 15-bit randomness of the scalable layout, as [`UlidFlake::scalable_randomness`].
    ///
    /// ```
    /// let id = ulid_flake_core::Id::<()>::parse_str("00F5MN1MCFT30")?;
    /// assert_eq!(id.scalable_randomness(), 16_195);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn scalable_randomness(self) -> u16 {
        self.value.scalable_randomness()
    }

    /// The scalability id of the scalable layout, `0..=31`, as [`UlidFlake::scalability_id`].
    ///
    /// ```
    /// use ulid_flake_core::{Id, UlidFlake};
    ///
    /// let id: Id<()> = UlidFlake::from_scalable_parts(1, 2, 3)?.into();
    /// assert_eq!(id.scalability_id(), 3);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn scalability_id(self) -> u8 {
        self.value.scalability_id()
    }

    /// The moment of the ID in milliseconds since the Unix epoch, given the epoch it was made
    /// with, as [`UlidFlake::unix_ms`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Id};
    ///
    /// let id = Id::<()>::parse_str("00CMXB6TAK4SA")?;
    /// assert_eq!(id.unix_ms(Epoch::DEFAULT), 1_717_653_966_666); // 2024-06-06T06:06:06.666Z
    /// assert_eq!(id.unix_ms(Epoch::UNIX), id.ms_since_epoch());
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn unix_ms(self, epoch: Epoch) -> u64 {
        self.value.unix_ms(epoch)
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

    /// A new ID from the process-wide default generator, never waiting; see
    /// [`UlidFlake::try_generate`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::try_generate`].
    ///
    /// ```
    /// use ulid_flake_core::{Error, Id};
    ///
    /// struct Post;
    /// match Id::<Post>::try_generate() {
    ///     Ok(id) => assert!(id > Id::MIN),
    ///     // This millisecond is full: try again in the next, or call `generate`, which waits.
    ///     Err(Error::Overflow { .. }) => {}
    ///     Err(error) => return Err(error),
    /// }
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    #[cfg(feature = "std")]
    pub fn try_generate() -> Result<Self, Error> {
        UlidFlake::try_generate().map(Self::from_ulid_flake)
    }

    /// A new ID from the process-wide default generator, without an error to handle; see
    /// [`UlidFlake::new`] for what it does when the clock or a lease fails.
    ///
    /// # Panics
    ///
    /// As [`UlidFlake::new`].
    ///
    /// ```
    /// use ulid_flake_core::Id;
    ///
    /// struct User;
    /// let id: Id<User> = Id::new();
    /// assert!(id > Id::MIN);
    /// ```
    #[cfg(feature = "std")]
    #[allow(clippy::new_without_default, reason = "Id<T> has no Default by design")]
    pub fn new() -> Self {
        Self::from_ulid_flake(UlidFlake::new())
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
pub(crate) fn write_short_type_name(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
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

crate::__integer_formats!([T: ?Sized] Id<T>);

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

impl<T: ?Sized> From<Id<T>> for [u8; 8] {
    /// [`Id::to_bytes`].
    fn from(id: Id<T>) -> Self {
        id.to_bytes()
    }
}

#[cfg(feature = "alloc")]
impl<T: ?Sized> From<Id<T>> for alloc::string::String {
    /// The canonical text, as `to_string` gives it.
    ///
    /// ```
    /// use ulid_flake_core::Id;
    ///
    /// let text: String = Id::<()>::MAX.into();
    /// assert_eq!(text, "7ZZZZZZZZZZZZ");
    /// ```
    fn from(id: Id<T>) -> Self {
        id.value.into()
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

// Time: `UlidFlake`'s, typed (`PrefixedId<T>` and `newtype!` keys have them from
// `__id_methods!`; these keep their examples).
impl<T: ?Sized> Id<T> {
    /// The moment of the ID as a [`Moment`], as [`UlidFlake::to_moment`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::to_moment`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Id, UnixMs};
    ///
    /// let id = Id::<()>::parse_str("00CMXB6TAK4SA")?;
    /// assert_eq!(id.to_moment(Epoch::DEFAULT), Ok(UnixMs(1_717_653_966_666)));
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn to_moment<M: Moment>(self, epoch: Epoch) -> Result<M, Error> {
        self.to_ulid_flake().to_moment(epoch)
    }

    /// The ID of a [`Moment`] with the given randomness, as [`UlidFlake::from_moment`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::from_moment`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Id, UnixMs};
    ///
    /// struct User;
    /// let id = Id::<User>::from_moment(Epoch::DEFAULT, UnixMs(1_717_653_966_666), 627_498)?;
    /// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_moment<M: Moment>(epoch: Epoch, moment: M, randomness: u32) -> Result<Self, Error> {
        UlidFlake::from_moment(epoch, moment, randomness).map(Self::from)
    }

    /// The inclusive bounds of the IDs made during a window of [`Moment`]s, as
    /// [`UlidFlake::range_for`]: for comparing with typed IDs and binding to typed queries
    /// without a conversion.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Id, UnixMs};
    ///
    /// struct User;
    /// let start = Epoch::DEFAULT.unix_ms() as i64;
    /// let (lowest, highest) = Id::<User>::range_for(Epoch::DEFAULT, UnixMs(start)..UnixMs(start + 1_000)).unwrap();
    /// let id = Id::<User>::parse_str("0000000000001")?;
    /// assert!((lowest..=highest).contains(&id));
    /// assert_eq!(highest.ms_since_epoch(), 999);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn range_for<M: Moment>(epoch: Epoch, window: Range<M>) -> Option<(Self, Self)> {
        UlidFlake::range_for(epoch, window).map(|(lowest, highest)| (lowest.into(), highest.into()))
    }
}

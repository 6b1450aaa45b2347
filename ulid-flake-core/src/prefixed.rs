//! Prefixed IDs: `user_00CMXB6TAK4SA` on the wire, the same `BIGINT` in the database.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Range;
use core::str::FromStr;

use crate::epoch::Epoch;
use crate::error::Error;
use crate::id::Id;
use crate::layout::ENCODED_LEN;
use crate::moment::Moment;
use crate::ulid_flake::UlidFlake;

/// An entity whose IDs carry a prefix in their text: `impl Prefix for User` with
/// `PREFIX = "user"` makes a [`PrefixedId<User>`] read `user_00CMXB6TAK4SA`.
///
/// The prefix is 1 to 31 characters: a lowercase ASCII letter,
/// then lowercase letters and digits (`[a-z][a-z0-9]*`); the `_` separator is not part of
/// it. Any other prefix stops the build where a `PrefixedId` of the entity is formatted or
/// parsed:
///
/// ```compile_fail,E0080
/// use ulid_flake_core::{Prefix, PrefixedId};
///
/// struct User;
/// impl Prefix for User {
///     const PREFIX: &'static str = "User"; // uppercase: not a valid prefix
/// }
///
/// let id = PrefixedId::<User>::parse_str("User_00CMXB6TAK4SA");
/// ```
pub trait Prefix {
    /// The prefix, without the `_`: `"user"`.
    const PREFIX: &'static str;
}

/// The longest prefixed text, in bytes: the longest prefix (31 characters), `_` and the 13
/// characters. A buffer of this size holds any [`PrefixedId::encode`].
///
/// ```
/// assert_eq!(ulid_flake_core::MAX_PREFIXED_LEN, 45);
/// ```
pub const MAX_PREFIXED_LEN: usize = 31 + 1 + ENCODED_LEN;

/// Whether `prefix` follows the rule of every [`Prefix`]: 1 to 31 characters, a lowercase
/// ASCII letter, then lowercase letters and digits (`[a-z][a-z0-9]*`).
///
/// ```
/// use ulid_flake_core::is_valid_prefix;
///
/// assert!(is_valid_prefix("user") && is_valid_prefix("v2"));
/// assert!(!is_valid_prefix("") && !is_valid_prefix("User") && !is_valid_prefix("2fa"));
/// assert!(!is_valid_prefix(&"a".repeat(32)));
/// ```
pub const fn is_valid_prefix(prefix: &str) -> bool {
    let bytes = prefix.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_PREFIXED_LEN - 1 - ENCODED_LEN {
        return false;
    }
    if !bytes[0].is_ascii_lowercase() {
        return false;
    }
    let mut index = 1;
    while index < bytes.len() {
        if !(bytes[index].is_ascii_lowercase() || bytes[index].is_ascii_digit()) {
            return false;
        }
        index += 1;
    }
    true
}

/// Splits a prefixed text whose prefix is known only at run time (a command-line tool, a log
/// reader): the prefix (without its `_`) and the rest, when `text` starts with a prefix that
/// [`is_valid_prefix`] accepts and `_`; `None` otherwise (an unprefixed ID, say). The rest is
/// not parsed: read it with [`UlidFlake::parse_ascii`], whose error indexes then count from
/// `prefix.len() + 1`.
///
/// ```
/// use ulid_flake_core::{UlidFlake, split_prefix};
///
/// let (prefix, rest) = split_prefix(b"user_00CMXB6TAK4SA").unwrap();
/// assert_eq!(prefix, "user");
/// assert_eq!(UlidFlake::parse_ascii(rest)?.to_string(), "00CMXB6TAK4SA");
/// assert_eq!(split_prefix(b"00CMXB6TAK4SA"), None);
/// assert_eq!(split_prefix(b"User_00CMXB6TAK4SA"), None); // not a valid prefix
/// assert_eq!(split_prefix(format!("{}_00CMXB6TAK4SA", "a".repeat(32)).as_bytes()), None);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub fn split_prefix(text: &[u8]) -> Option<(&str, &[u8])> {
    let end = text.iter().position(|&byte| byte == b'_')?;
    let prefix = core::str::from_utf8(&text[..end]).ok()?;
    is_valid_prefix(prefix).then(|| (prefix, &text[end + 1..]))
}

/// An [`Id<T>`] whose text carries `T`'s prefix: `user_00CMXB6TAK4SA` in `Display`,
/// `FromStr`, serde's human-readable formats and OpenAPI/JSON Schema, while the value, its
/// order and its database column are the `Id<T>`'s — the same 8 bytes, the same `BIGINT`.
///
/// ```
/// use ulid_flake_core::{Error, Id, Prefix, PrefixedId, ulid_flake};
///
/// struct User;
/// impl Prefix for User {
///     const PREFIX: &'static str = "user";
/// }
/// struct Post;
/// impl Prefix for Post {
///     const PREFIX: &'static str = "post";
/// }
///
/// let id = PrefixedId::<User>::from(ulid_flake!("02MWMFBHB1YJ2"));
/// assert_eq!(id.to_string(), "user_02MWMFBHB1YJ2");
/// assert_eq!("user_02mwmfbhb1yj2".parse::<PrefixedId<User>>()?, id);
/// let stored: i64 = id.to_i64(); // what the database holds, as for `Id<User>`
/// assert_eq!(PrefixedId::<User>::from_i64(stored)?, id);
///
/// let wrong = "post_02MWMFBHB1YJ2".parse::<PrefixedId<User>>().unwrap_err();
/// assert_eq!(wrong.to_string(), "wrong prefix: expected `user_`, found `post_`");
/// let bare = "02MWMFBHB1YJ2".parse::<PrefixedId<User>>().unwrap_err();
/// assert_eq!(bare.to_string(), "wrong prefix: expected `user_`, found none (an unprefixed ID)");
/// # Ok::<(), Error>(())
/// ```
///
/// # Design
///
/// - **A separate type, not a mode of `Id<T>`.** `Id<T>` asks nothing of `T`, and stable
///   Rust cannot give some `T`s a prefix without asking every `T` for one (there is no
///   specialization). A required `T: Entity` bound with a defaulted prefix would break every
///   `Id<T>` user for a feature most do not want, so the prefix is opt-in twice: the entity
///   implements [`Prefix`], and its fields say `PrefixedId<T>`. Both types convert into
///   each other for free ([`to_id`](PrefixedId::to_id), [`From`]) and share their storage
///   code: the sqlx and Diesel impls, serde's binary form and the codec are `Id<T>`'s.
/// - **One spelling per ID.** Parsing requires the prefix: an unprefixed 13-character
///   string is an [`Error::WrongPrefix`] that says it found none. Accepting both would give
///   every ID two texts, so that equal IDs compare unequal as strings (in caches, logs,
///   client-side maps) and a client could never learn which one is canonical. To read an
///   unprefixed text on purpose, parse an [`Id<T>`] and convert it.
/// - **The prefix is exact, the rest is not.** The prefix is matched as written
///   (lowercase); the 13 characters after it are read as [`UlidFlake::parse_str`] reads
///   them, in either case, and its errors count their indexes from the start of the whole
///   text.
/// - **Only text changes.** The integer forms (`to_i64`, serde's binary formats, `{:x}`,
///   the database) carry no prefix: a prefix is for people and for catching a post's ID
///   pasted where a user's belongs, and a column already knows its entity.
/// - **Schemas say it.** With `utoipa`, a `PrefixedId<User>` field is the component
///   `PrefixedId_User`: a string of exactly the prefixed length, with the pattern
///   `^user_[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{12}$` and an example; with `schemars`, a
///   definition per prefix (`PrefixedId_user`).
#[cfg_attr(feature = "diesel2", derive(diesel::expression::AsExpression))]
#[cfg_attr(feature = "diesel2", diesel(sql_type = diesel::sql_types::BigInt))]
#[repr(transparent)]
pub struct PrefixedId<T: Prefix + ?Sized> {
    pub(crate) id: Id<T>,
}

impl<T: Prefix + ?Sized> PrefixedId<T> {
    /// `T`'s prefix, checked at compile time (see [`Prefix`]).
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// assert_eq!(PrefixedId::<User>::PREFIX, "user");
    /// ```
    pub const PREFIX: &'static str = {
        assert!(
            is_valid_prefix(T::PREFIX),
            "invalid Prefix::PREFIX: expected 1 to 31 characters, a lowercase ASCII letter \
             then lowercase letters and digits"
        );
        T::PREFIX
    };

    /// The prefixed form of an ID.
    pub const fn from_id(id: Id<T>) -> Self {
        Self { id }
    }

    /// The ID without its prefix: the same value, with every reading of [`Id`]
    /// (`ms_since_epoch`, `unix_ms`, `to_bytes`, ...).
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id: PrefixedId<User> = "user_00CMXB6TAK4SA".parse()?;
    /// assert_eq!(id.to_id().unix_ms(Epoch::DEFAULT), 1_717_653_966_666);
    /// assert_eq!(id.to_id().to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn to_id(self) -> Id<T> {
        self.id
    }

    /// The untyped Ulid-Flake.
    pub const fn to_ulid_flake(self) -> UlidFlake {
        self.id.value
    }

    /// The integer value as the non-negative `i64` an SQL `BIGINT` stores.
    pub const fn to_i64(self) -> i64 {
        self.id.to_i64()
    }

    /// The integer value, `0..=i64::MAX`.
    pub const fn to_u64(self) -> u64 {
        self.id.to_u64()
    }

    /// The ID with this `BIGINT` value.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for a negative value.
    pub const fn from_i64(value: i64) -> Result<Self, Error> {
        match Id::from_i64(value) {
            Ok(id) => Ok(Self::from_id(id)),
            Err(error) => Err(error),
        }
    }

    /// The ID with this integer value, as [`UlidFlake::from_u64`].
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] above `i64::MAX`.
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id = PrefixedId::<User>::from_u64(14_246_757_444_195_114)?;
    /// assert_eq!(id.to_string(), "user_00CMXB6TAK4SA");
    /// assert!(PrefixedId::<User>::from_u64(1 << 63).is_err());
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn from_u64(value: u64) -> Result<Self, Error> {
        match Id::from_u64(value) {
            Ok(id) => Ok(Self::from_id(id)),
            Err(error) => Err(error),
        }
    }

    /// The 8-byte big-endian form, as [`UlidFlake::to_bytes`]: no prefix (only text has one).
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id: PrefixedId<User> = "user_00CMXB6TAK4SA".parse()?;
    /// assert_eq!(id.to_bytes(), [0, 0x32, 0x9D, 0x59, 0xB4, 0xA9, 0x93, 0x2A]);
    /// assert_eq!(PrefixedId::<User>::from_bytes(id.to_bytes())?, id);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn to_bytes(self) -> [u8; 8] {
        self.id.to_bytes()
    }

    /// The ID of an 8-byte big-endian form, as [`UlidFlake::from_bytes`].
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] when the top bit is set.
    pub const fn from_bytes(bytes: [u8; 8]) -> Result<Self, Error> {
        match Id::from_bytes(bytes) {
            Ok(id) => Ok(Self::from_id(id)),
            Err(error) => Err(error),
        }
    }

    /// Parses the prefixed text: `T`'s prefix exactly, `_`, then the 13 characters as
    /// [`UlidFlake::parse_str`] reads them (in either case).
    ///
    /// # Errors
    ///
    /// [`Error::WrongPrefix`] when the text does not start with the prefix and `_` — for
    /// an unprefixed ID too; after the prefix, the errors of [`UlidFlake::parse_str`], with
    /// [`Error::InvalidCharacter`]'s index counted from the start of the whole text.
    ///
    /// ```
    /// use ulid_flake_core::{Error, Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// assert_eq!(
    ///     PrefixedId::<User>::parse_str("user_00CMXB6TAK4SI"),
    ///     Err(Error::InvalidCharacter { index: 17, found: b'I' })
    /// );
    /// ```
    pub fn parse_str(text: &str) -> Result<Self, Error> {
        Self::parse_ascii(text.as_bytes())
    }

    /// Parses the prefixed text from bytes, as [`PrefixedId::parse_str`] does.
    ///
    /// # Errors
    ///
    /// As [`PrefixedId::parse_str`].
    pub fn parse_ascii(bytes: &[u8]) -> Result<Self, Error> {
        let prefix = Self::PREFIX.as_bytes();
        let Some(rest) = bytes
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix(b"_"))
        else {
            return Err(wrong_prefix(Self::PREFIX, bytes));
        };
        match UlidFlake::parse_ascii(rest) {
            Ok(value) => Ok(Self::from(value)),
            Err(Error::InvalidCharacter { index, found }) => Err(Error::InvalidCharacter {
                index: index + prefix.len() + 1,
                found,
            }),
            Err(error) => Err(error),
        }
    }

    /// A new ID from the process-wide default generator; see [`UlidFlake::generate`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::generate`].
    #[cfg(feature = "std")]
    pub fn generate() -> Result<Self, Error> {
        Id::generate().map(Self::from_id)
    }

    /// A new ID from the process-wide default generator, never waiting; see
    /// [`UlidFlake::try_generate`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::try_generate`].
    #[cfg(feature = "std")]
    pub fn try_generate() -> Result<Self, Error> {
        Id::try_generate().map(Self::from_id)
    }

    /// A new ID from the process-wide default generator, without an error to handle; see
    /// [`UlidFlake::new`].
    ///
    /// # Panics
    ///
    /// As [`UlidFlake::new`].
    #[cfg(feature = "std")]
    #[allow(clippy::new_without_default, reason = "as Id<T>, no Default by design")]
    pub fn new() -> Self {
        Self::from_id(Id::new())
    }

    /// A new ID from the process-wide default generator, waiting on the tokio timer; see
    /// [`UlidFlake::generate_async`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::generate`].
    #[cfg(feature = "tokio")]
    pub async fn generate_async() -> Result<Self, Error> {
        Id::generate_async().await.map(Self::from_id)
    }

    /// Writes the prefixed text into `buf` and returns it, without allocating: the text
    /// `Display` writes.
    ///
    /// ```
    /// use ulid_flake_core::{MAX_PREFIXED_LEN, Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id: PrefixedId<User> = "user_00CMXB6TAK4SA".parse()?;
    /// let mut buf = [0; MAX_PREFIXED_LEN];
    /// assert_eq!(id.encode(&mut buf), "user_00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn encode(self, buf: &mut [u8; MAX_PREFIXED_LEN]) -> &str {
        let prefix = Self::PREFIX.as_bytes();
        let (head, tail) = buf.split_at_mut(prefix.len());
        head.copy_from_slice(prefix);
        tail[0] = b'_';
        let body: &mut [u8; ENCODED_LEN] = (&mut tail[1..=ENCODED_LEN])
            .try_into()
            .expect("the buffer holds the longest prefix, `_` and 13 characters");
        self.to_ulid_flake().encode(body);
        let len = prefix.len() + 1 + ENCODED_LEN;
        // SAFETY: the prefix was checked to be ASCII (`Self::PREFIX`), and `_` and the
        // Base32 digits are ASCII, so the bytes are valid UTF-8.
        unsafe { core::str::from_utf8_unchecked(&buf[..len]) }
    }
}

/// The [`Error::WrongPrefix`] for a text that does not start with `expected` and `_`.
fn wrong_prefix(expected: &'static str, text: &[u8]) -> Error {
    let found_len = text
        .iter()
        .position(|&byte| byte == b'_')
        .map_or(0, |at| at + 1);
    let mut found = [0; Error::FOUND_PREFIX_BYTES];
    let kept = found_len.min(Error::FOUND_PREFIX_BYTES);
    found[..kept].copy_from_slice(&text[..kept]);
    Error::WrongPrefix {
        expected,
        found,
        found_len: u16::try_from(found_len).unwrap_or(u16::MAX),
    }
}

impl<T: Prefix + ?Sized> Clone for PrefixedId<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Prefix + ?Sized> Copy for PrefixedId<T> {}

impl<T: Prefix + ?Sized> PartialEq for PrefixedId<T> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl<T: Prefix + ?Sized> Eq for PrefixedId<T> {}

impl<T: Prefix + ?Sized> PartialOrd for PrefixedId<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<T: Prefix + ?Sized> Ord for PrefixedId<T> {
    /// The order of the IDs, which is also the order of their texts: every text of `T` has
    /// the same prefix.
    fn cmp(&self, other: &Self) -> Ordering {
        self.id.cmp(&other.id)
    }
}

impl<T: Prefix + ?Sized> Hash for PrefixedId<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

// The integer formats carry no prefix, as the other integer forms do not (the type's docs).
crate::fmt::integer_formats!([T: Prefix + ?Sized] PrefixedId<T>);

impl<T: Prefix + ?Sized> fmt::Debug for PrefixedId<T> {
    /// `PrefixedId<User>(user_00CMXB6TAK4SA)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PrefixedId<")?;
        crate::id::write_short_type_name(f, core::any::type_name::<T>())?;
        write!(f, ">({self})")
    }
}

impl<T: Prefix + ?Sized> fmt::Display for PrefixedId<T> {
    /// The prefixed text, `user_00CMXB6TAK4SA`. Width, fill and alignment flags are
    /// honoured.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0; MAX_PREFIXED_LEN];
        f.pad(self.encode(&mut buf))
    }
}

impl<T: Prefix + ?Sized> FromStr for PrefixedId<T> {
    type Err = Error;

    /// [`PrefixedId::parse_str`].
    fn from_str(text: &str) -> Result<Self, Error> {
        Self::parse_str(text)
    }
}

impl<T: Prefix + ?Sized> TryFrom<&str> for PrefixedId<T> {
    type Error = Error;

    fn try_from(text: &str) -> Result<Self, Error> {
        Self::parse_str(text)
    }
}

impl<T: Prefix + ?Sized> From<Id<T>> for PrefixedId<T> {
    fn from(id: Id<T>) -> Self {
        Self::from_id(id)
    }
}

impl<T: Prefix + ?Sized> From<PrefixedId<T>> for Id<T> {
    fn from(id: PrefixedId<T>) -> Self {
        id.id
    }
}

impl<T: Prefix + ?Sized> From<UlidFlake> for PrefixedId<T> {
    fn from(value: UlidFlake) -> Self {
        Self::from_id(Id::from_ulid_flake(value))
    }
}

impl<T: Prefix + ?Sized> From<PrefixedId<T>> for UlidFlake {
    fn from(id: PrefixedId<T>) -> Self {
        id.to_ulid_flake()
    }
}

impl<T: Prefix + ?Sized> From<PrefixedId<T>> for i64 {
    fn from(id: PrefixedId<T>) -> Self {
        id.to_i64()
    }
}

#[cfg(feature = "alloc")]
impl<T: Prefix + ?Sized> From<PrefixedId<T>> for alloc::string::String {
    /// The prefixed text, as `to_string` gives it.
    fn from(id: PrefixedId<T>) -> Self {
        let mut buf = [0; MAX_PREFIXED_LEN];
        id.encode(&mut buf).into()
    }
}

// Time: delegations to UlidFlake's (to become part of the shared ID-type methods)
impl<T: Prefix + ?Sized> PrefixedId<T> {
    /// Milliseconds since the [`Epoch`] the ID was made with, as [`UlidFlake::ms_since_epoch`].
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id: PrefixedId<User> = "user_00CMXB6TAK4SA".parse()?;
    /// assert_eq!(id.ms_since_epoch(), 13_586_766_666);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn ms_since_epoch(self) -> u64 {
        self.to_ulid_flake().ms_since_epoch()
    }

    /// The moment of the ID in Unix milliseconds, given the epoch it was made with, as
    /// [`UlidFlake::unix_ms`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id: PrefixedId<User> = "user_00CMXB6TAK4SA".parse()?;
    /// assert_eq!(id.unix_ms(Epoch::DEFAULT), 1_717_653_966_666);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn unix_ms(self, epoch: Epoch) -> u64 {
        self.to_ulid_flake().unix_ms(epoch)
    }

    /// The moment of the ID as a [`Moment`], as [`UlidFlake::to_moment`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::to_moment`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Prefix, PrefixedId, UnixMs};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id: PrefixedId<User> = "user_00CMXB6TAK4SA".parse()?;
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
    /// use ulid_flake_core::{Epoch, Prefix, PrefixedId, UnixMs};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id = PrefixedId::<User>::from_moment(Epoch::DEFAULT, UnixMs(1_717_653_966_666), 627_498)?;
    /// assert_eq!(id.to_string(), "user_00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn from_moment<M: Moment>(epoch: Epoch, moment: M, randomness: u32) -> Result<Self, Error> {
        UlidFlake::from_moment(epoch, moment, randomness).map(Self::from)
    }

    /// The inclusive bounds of the IDs made during a window of [`Moment`]s, as
    /// [`UlidFlake::range_for`].
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Prefix, PrefixedId, UnixMs};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let start = Epoch::DEFAULT.unix_ms() as i64;
    /// let (lowest, highest) =
    ///     PrefixedId::<User>::range_for(Epoch::DEFAULT, UnixMs(start)..UnixMs(start + 1_000)).unwrap();
    /// assert_eq!(lowest.to_string(), "user_0000000000000");
    /// assert_eq!(highest.ms_since_epoch(), 999);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn range_for<M: Moment>(epoch: Epoch, window: Range<M>) -> Option<(Self, Self)> {
        UlidFlake::range_for(epoch, window).map(|(lowest, highest)| (lowest.into(), highest.into()))
    }
}

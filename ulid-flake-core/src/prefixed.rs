//! Prefixed IDs: `user_00CMXB6TAK4SA` on the wire, the same `BIGINT` in the database.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::str::FromStr;

use crate::error::Error;
use crate::id::Id;
use crate::id_type::IdType;
use crate::layout::{ENCODED_LEN, MAX_PREFIXED_LEN};
use crate::ulid_flake::UlidFlake;

/// An entity whose IDs carry a prefix in their text: `impl Prefix for User` with
/// `PREFIX = "user"` makes a [`PrefixedId<User>`] read `user_00CMXB6TAK4SA`.
///
/// The prefix is 1 to 31 characters: a lowercase ASCII letter,
/// then lowercase letters and digits (`[a-z][a-z0-9]*`); the `_` separator is not part of
/// it. Any other prefix stops the build where a `PrefixedId` of the entity is formatted or
/// parsed — a `cargo build` or `cargo test`: the check is a constant evaluated when the code
/// is generated, which `cargo check` (and an editor's checks) does not reach, and the message
/// points at [`PrefixedId::PREFIX`], not at the `impl` (seen in a review; the example below
/// is checked by `cargo test`), so it quotes the prefix: `invalid Prefix::PREFIX "User":
/// expected 1 to 31 characters, ...`.
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

/// Room for [`invalid_prefix_message`]'s message: its fixed text and a quoted prefix of up to
/// [`QUOTED_PREFIX_BYTES`].
const INVALID_PREFIX_MESSAGE_LEN: usize = 256;

/// How much of an invalid prefix its message quotes (a prefix is at most 31 bytes).
const QUOTED_PREFIX_BYTES: usize = 40;

/// The build's error for an invalid [`Prefix::PREFIX`], written into `buffer`: a constant
/// checked where the ID type is used, not at the `impl`, so the message quotes the prefix
/// (cut at 40 bytes, at a character's start) for the reader to find it by.
const fn invalid_prefix_message<'a>(
    prefix: &str,
    buffer: &'a mut [u8; INVALID_PREFIX_MESSAGE_LEN],
) -> &'a str {
    const fn write(buffer: &mut [u8], at: usize, bytes: &[u8]) -> usize {
        let mut index = 0;
        while index < bytes.len() {
            buffer[at + index] = bytes[index];
            index += 1;
        }
        at + bytes.len()
    }
    let bytes = prefix.as_bytes();
    let mut cut = if bytes.len() > QUOTED_PREFIX_BYTES {
        QUOTED_PREFIX_BYTES
    } else {
        bytes.len()
    };
    // Back to the start of a character (a UTF-8 continuation byte is 0b10xx_xxxx).
    while cut < bytes.len() && bytes[cut] & 0xC0 == 0x80 {
        cut -= 1;
    }
    let mut len = write(buffer, 0, b"invalid Prefix::PREFIX \"");
    len = write(buffer, len, bytes.split_at(cut).0);
    if cut < bytes.len() {
        len = write(buffer, len, "\u{2026}".as_bytes());
    }
    len = write(
        buffer,
        len,
        b"\": expected 1 to 31 characters, a lowercase ASCII letter then lowercase ASCII \
          letters and digits (no `_`: it separates the prefix from the ID)",
    );
    match core::str::from_utf8(buffer.split_at(len).0) {
        Ok(message) => message,
        Err(_) => "invalid Prefix::PREFIX",
    }
}

/// Splits a prefixed text whose prefix is known only at run time (a command-line tool, a log
/// reader): the prefix (without its `_`) and the rest, when `text` starts with a prefix that
/// [`is_valid_prefix`] accepts and `_`; `None` otherwise (an unprefixed ID, say). The rest is
/// not parsed: read it with [`UlidFlake::parse_ascii`], whose error indexes then count from
/// `prefix.len() + 1`. The text is split at its first `_`, so a second one stays in the rest,
/// where `parse_ascii` finds a prefix (the empty one) where none belongs.
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
///
/// let (prefix, rest) = split_prefix(b"user__00CMXB6TAK4SA").unwrap();
/// assert_eq!((prefix, rest), ("user", &b"_00CMXB6TAK4SA"[..]));
/// assert_eq!(
///     UlidFlake::parse_ascii(rest).unwrap_err().to_string(),
///     "wrong prefix: expected none (the bare 13 characters), found `_`"
/// );
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
/// assert_eq!(bare.to_string(), "wrong prefix: expected `user_`, found none (no `_` in the text)");
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
#[repr(transparent)]
pub struct PrefixedId<T: Prefix + ?Sized> {
    pub(crate) id: Id<T>,
}

impl<T: Prefix + ?Sized> PrefixedId<T> {
    /// `T`'s prefix, checked when the code using it is built (see [`Prefix`]).
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
        if !is_valid_prefix(T::PREFIX) {
            let mut message = [0; INVALID_PREFIX_MESSAGE_LEN];
            panic!("{}", invalid_prefix_message(T::PREFIX, &mut message));
        }
        T::PREFIX
    };

    /// The prefixed form of an ID: the same value, written with `T`'s prefix.
    ///
    /// ```
    /// use ulid_flake_core::{Id, Prefix, PrefixedId, ulid_flake};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id: Id<User> = Id::from_ulid_flake(ulid_flake!("00CMXB6TAK4SA"));
    /// assert_eq!(PrefixedId::from_id(id).to_string(), "user_00CMXB6TAK4SA");
    /// ```
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

    /// The same value as the prefixed ID of another entity, as [`Id::cast`]: its text takes
    /// that entity's prefix.
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// struct Profile; // one per user, keyed by the user's ID
    /// impl Prefix for Profile {
    ///     const PREFIX: &'static str = "profile";
    /// }
    /// let user: PrefixedId<User> = "user_00CMXB6TAK4SA".parse()?;
    /// let profile: PrefixedId<Profile> = user.cast();
    /// assert_eq!(profile.to_string(), "profile_00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn cast<U: Prefix + ?Sized>(self) -> PrefixedId<U> {
        PrefixedId::from_id(self.id.cast())
    }

    /// The untyped Ulid-Flake.
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id: PrefixedId<User> = "user_00CMXB6TAK4SA".parse()?;
    /// assert_eq!(id.to_ulid_flake().to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn to_ulid_flake(self) -> UlidFlake {
        self.id.value
    }

    /// The prefixed form of a Ulid-Flake.
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId, ulid_flake};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id = PrefixedId::<User>::from_ulid_flake(ulid_flake!("00CMXB6TAK4SA"));
    /// assert_eq!(id.to_string(), "user_00CMXB6TAK4SA");
    /// ```
    pub const fn from_ulid_flake(value: UlidFlake) -> Self {
        Self::from_id(Id::from_ulid_flake(value))
    }

    /// Parses the prefixed text: `T`'s prefix exactly, `_`, then the 13 characters as
    /// [`UlidFlake::parse_str`] reads them (in either case).
    ///
    /// # Errors
    ///
    /// [`Error::WrongPrefix`] when the text does not start with the prefix and `_` — for
    /// an unprefixed ID too; after the prefix, the errors of [`UlidFlake::parse_str`], with
    /// [`Error::InvalidCharacter`]'s index counted from the start of the whole text and
    /// [`Error::InvalidLength`] naming the prefix (its length is the rest's).
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
    pub const fn parse_str(text: &str) -> Result<Self, Error> {
        Self::parse_ascii(text.as_bytes())
    }

    /// Parses the prefixed text from bytes, as [`PrefixedId::parse_str`] does. `const`, as
    /// that is: a constant's text is checked when the crate is built.
    ///
    /// # Errors
    ///
    /// As [`PrefixedId::parse_str`].
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// const ADA: PrefixedId<User> = match PrefixedId::parse_ascii(b"user_00CMXB6TAK4SA") {
    ///     Ok(id) => id,
    ///     Err(_) => panic!("not a user's ID"),
    /// };
    /// assert_eq!(ADA.to_string(), "user_00CMXB6TAK4SA");
    /// ```
    pub const fn parse_ascii(bytes: &[u8]) -> Result<Self, Error> {
        match crate::id_type::parse_prefixed(Some(Self::PREFIX), bytes) {
            Ok(value) => Ok(Self::from_id(Id::from_ulid_flake(value))),
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
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let id = PrefixedId::<User>::generate()?;
    /// assert!(id.to_string().starts_with("user_"));
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
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
    ///
    /// ```
    /// use ulid_flake_core::{Error, Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// match PrefixedId::<User>::try_generate() {
    ///     Ok(id) => assert!(id.to_string().starts_with("user_")),
    ///     // This millisecond is full: try again in the next, or call `generate`, which waits.
    ///     Err(Error::Overflow { .. }) => {}
    ///     Err(error) => return Err(error),
    /// }
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
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
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// let (first, second) = (PrefixedId::<User>::new(), PrefixedId::<User>::new());
    /// assert!(first < second);
    /// ```
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
    ///
    /// ```
    /// use ulid_flake_core::{Prefix, PrefixedId};
    ///
    /// struct User;
    /// impl Prefix for User {
    ///     const PREFIX: &'static str = "user";
    /// }
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ulid_flake_core::Error> {
    /// let id = PrefixedId::<User>::generate_async().await?;
    /// assert!(id.to_string().starts_with("user_"));
    /// # Ok(())
    /// # }
    /// ```
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
        crate::id_type::encode_prefixed(Some(Self::PREFIX), self.to_ulid_flake(), buf)
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

// The integer forms and readings, as `newtype!` keys have them.
crate::__id_methods!([T: Prefix + ?Sized,] PrefixedId<T>);

// The integer formats carry no prefix, as the other integer forms do not (the type's docs).
crate::__integer_formats!([T: Prefix + ?Sized] PrefixedId<T>);

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
        Self::from_ulid_flake(value)
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

impl<T: Prefix + ?Sized> From<PrefixedId<T>> for u64 {
    fn from(id: PrefixedId<T>) -> Self {
        id.to_u64()
    }
}

impl<T: Prefix + ?Sized> From<PrefixedId<T>> for [u8; 8] {
    fn from(id: PrefixedId<T>) -> Self {
        id.to_bytes()
    }
}

impl<T: Prefix + ?Sized> TryFrom<i64> for PrefixedId<T> {
    type Error = Error;

    /// [`PrefixedId::from_i64`].
    fn try_from(value: i64) -> Result<Self, Error> {
        Self::from_i64(value)
    }
}

impl<T: Prefix + ?Sized> TryFrom<u64> for PrefixedId<T> {
    type Error = Error;

    /// [`PrefixedId::from_u64`].
    fn try_from(value: u64) -> Result<Self, Error> {
        Self::from_u64(value)
    }
}

impl<T: Prefix + ?Sized> IdType for PrefixedId<T> {
    const PREFIX: Option<&'static str> = Some(Self::PREFIX);
    const NAME: &'static str = "PrefixedId";

    fn from_ulid_flake(value: UlidFlake) -> Self {
        Self::from_ulid_flake(value)
    }

    fn to_ulid_flake(self) -> UlidFlake {
        self.to_ulid_flake()
    }

    fn as_ulid_flake(&self) -> &UlidFlake {
        &self.id.value
    }

    fn as_ulid_flakes(ids: &mut [Self]) -> Option<&mut [UlidFlake]> {
        // SAFETY: `PrefixedId<T>` is `#[repr(transparent)]` over an `Id<T>`, itself over a
        // `UlidFlake`: the two slices have one layout, and every `UlidFlake` is a
        // `PrefixedId<T>`.
        Some(unsafe { core::slice::from_raw_parts_mut(ids.as_mut_ptr().cast(), ids.len()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The message quotes the prefix, cut at 40 bytes at a character's start.
    #[test]
    fn an_invalid_prefix_s_message_quotes_it() {
        const EXPECTED: &str = ": expected 1 to 31 characters, a lowercase ASCII letter then \
                                lowercase ASCII letters and digits (no `_`: it separates the \
                                prefix from the ID)";
        let mut buffer = [0; INVALID_PREFIX_MESSAGE_LEN];
        assert_eq!(
            invalid_prefix_message("api_key", &mut buffer),
            std::format!("invalid Prefix::PREFIX \"api_key\"{EXPECTED}")
        );
        let long = "a".repeat(39) + "é" + "bc";
        assert_eq!(
            invalid_prefix_message(&long, &mut buffer),
            std::format!("invalid Prefix::PREFIX \"{}…\"{EXPECTED}", "a".repeat(39))
        );
        let longest = "é".repeat(200);
        assert_eq!(
            invalid_prefix_message(&longest, &mut buffer),
            std::format!("invalid Prefix::PREFIX \"{}…\"{EXPECTED}", "é".repeat(20))
        );
    }
}

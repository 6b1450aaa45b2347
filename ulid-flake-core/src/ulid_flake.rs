//! The value type.

use crate::error::Error;
use crate::layout::{
    MAX_TIMESTAMP, RANDOMNESS_BITS, RANDOMNESS_MAX, SCALABILITY_ID_BITS, SCALABILITY_ID_MAX,
    SCALABLE_RANDOMNESS_MAX,
};

/// A Ulid-Flake: a 64-bit, time-sortable identifier.
///
/// The value is a `u64` whose top bit is always 0, so it is also a non-negative `i64` and
/// fits an SQL `BIGINT` unchanged. Bits 62..20 hold the milliseconds since the [`Epoch`](crate::Epoch),
/// bits 19..0 the randomness — or, in the scalable layout, 15 bits of randomness above a
/// 5-bit scalability id. Integer order, time order and the order of the canonical text are
/// the same.
///
/// `Display` and `FromStr` use the canonical text: 13 characters of Crockford's Base32.
///
/// An application's rows and signatures usually hold the typed [`Id<T>`](crate::Id), which
/// has every reading below; `UlidFlake` is for code that handles IDs of any entity.
/// `Default` is [`UlidFlake::MIN`], as uuid's `Uuid` defaults to the nil UUID; `Id<T>`
/// deliberately has none (its docs say why).
///
/// ```
/// use ulid_flake_core::UlidFlake;
///
/// let id: UlidFlake = "00CMXB6TAK4SA".parse()?;
/// assert_eq!(id.to_u64(), 14_246_757_444_195_114);
/// assert_eq!(id.ms_since_epoch(), 13_586_766_666);
/// assert_eq!(id.randomness(), 627_498);
/// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct UlidFlake(u64);

impl UlidFlake {
    /// The smallest Ulid-Flake, `0000000000000` (0).
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::UlidFlake::MIN.to_u64(), 0);
    /// ```
    pub const MIN: Self = Self(0);

    /// The largest Ulid-Flake, `7ZZZZZZZZZZZZ` (`i64::MAX`).
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::UlidFlake::MAX.to_i64(), i64::MAX);
    /// ```
    pub const MAX: Self = Self(i64::MAX as u64);

    /// Wraps a value already known to be `<= i64::MAX`.
    pub(crate) const fn from_raw(value: u64) -> Self {
        debug_assert!(value <= Self::MAX.0);
        Self(value)
    }

    /// The Ulid-Flake with this integer value. Any value in `0..=i64::MAX` is valid; its
    /// fields are not interpreted.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for a value above `i64::MAX`.
    ///
    /// ```
    /// use ulid_flake_core::{Error, UlidFlake};
    ///
    /// assert_eq!(UlidFlake::from_u64(1).unwrap().to_u64(), 1);
    /// assert_eq!(UlidFlake::from_u64(1 << 63), Err(Error::OutOfRange { found: 1 << 63 }));
    /// ```
    pub const fn from_u64(value: u64) -> Result<Self, Error> {
        if value > Self::MAX.0 {
            return Err(Error::OutOfRange {
                found: value as i128,
            });
        }
        Ok(Self(value))
    }

    /// The Ulid-Flake with this integer value, as stored in an SQL `BIGINT`.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for a negative value.
    ///
    /// ```
    /// use ulid_flake_core::{Error, UlidFlake};
    ///
    /// assert_eq!(UlidFlake::from_i64(i64::MAX), Ok(UlidFlake::MAX));
    /// assert_eq!(UlidFlake::from_i64(-1), Err(Error::OutOfRange { found: -1 }));
    /// ```
    pub const fn from_i64(value: i64) -> Result<Self, Error> {
        if value < 0 {
            return Err(Error::OutOfRange {
                found: value as i128,
            });
        }
        Ok(Self(value as u64))
    }

    /// The stand-alone Ulid-Flake with this timestamp (milliseconds since the epoch, as
    /// [`UlidFlake::ms_since_epoch`] returns it) and 20-bit randomness.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`] for a timestamp above [`MAX_TIMESTAMP`];
    /// [`Error::RandomnessOutOfRange`] for randomness above `2^20 - 1`.
    ///
    /// ```
    /// use ulid_flake_core::UlidFlake;
    ///
    /// let id = UlidFlake::from_parts(13_586_766_666, 627_498)?;
    /// assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn from_parts(ms_since_epoch: u64, randomness: u32) -> Result<Self, Error> {
        if ms_since_epoch > MAX_TIMESTAMP {
            return Err(Error::TimestampOutOfRange {
                found_ms: ms_since_epoch as i128,
            });
        }
        if randomness > RANDOMNESS_MAX {
            return Err(Error::RandomnessOutOfRange {
                found: randomness,
                max: RANDOMNESS_MAX,
            });
        }
        Ok(Self(ms_since_epoch << RANDOMNESS_BITS | randomness as u64))
    }

    /// The scalable Ulid-Flake with this timestamp, 15-bit randomness and scalability id.
    ///
    /// # Errors
    ///
    /// [`Error::TimestampOutOfRange`], [`Error::RandomnessOutOfRange`] (above `2^15 - 1`)
    /// or [`Error::InvalidScalabilityId`] (above 31).
    ///
    /// ```
    /// use ulid_flake_core::UlidFlake;
    ///
    /// let id = UlidFlake::from_scalable_parts(16_295_560_844, 16_195, 0)?;
    /// assert_eq!(id.to_string(), "00F5MN1MCFT30");
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn from_scalable_parts(
        ms_since_epoch: u64,
        randomness: u16,
        scalability_id: u8,
    ) -> Result<Self, Error> {
        if randomness as u32 > SCALABLE_RANDOMNESS_MAX {
            return Err(Error::RandomnessOutOfRange {
                found: randomness as u32,
                max: SCALABLE_RANDOMNESS_MAX,
            });
        }
        if scalability_id > SCALABILITY_ID_MAX {
            return Err(Error::InvalidScalabilityId {
                found: scalability_id as u64,
            });
        }
        let low = (randomness as u32) << SCALABILITY_ID_BITS | scalability_id as u32;
        Self::from_parts(ms_since_epoch, low)
    }

    /// The integer value, `0..=i64::MAX`.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::UlidFlake::MAX.to_u64(), 9_223_372_036_854_775_807);
    /// ```
    pub const fn to_u64(self) -> u64 {
        self.0
    }

    /// The integer value, borrowed.
    #[cfg(feature = "diesel2")]
    pub(crate) const fn as_u64_ref(&self) -> &u64 {
        &self.0
    }

    /// The integer value as an `i64`, never negative: the form an SQL `BIGINT` stores.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::UlidFlake::MAX.to_i64(), i64::MAX);
    /// ```
    pub const fn to_i64(self) -> i64 {
        self.0 as i64
    }

    /// The 8-byte big-endian form, whose byte order is the ID order.
    ///
    /// ```
    /// use ulid_flake_core::UlidFlake;
    ///
    /// let id = UlidFlake::from_u64(0x0102_0304_0506_0708)?;
    /// assert_eq!(id.to_bytes(), [1, 2, 3, 4, 5, 6, 7, 8]);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn to_bytes(self) -> [u8; 8] {
        self.0.to_be_bytes()
    }

    /// The Ulid-Flake of an 8-byte big-endian form.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] when the top bit is set.
    ///
    /// ```
    /// use ulid_flake_core::{Error, UlidFlake};
    ///
    /// assert_eq!(UlidFlake::from_bytes([0, 0, 0, 0, 0, 0, 0, 1])?.to_u64(), 1);
    /// assert!(matches!(UlidFlake::from_bytes([0x80, 0, 0, 0, 0, 0, 0, 0]), Err(Error::OutOfRange { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub const fn from_bytes(bytes: [u8; 8]) -> Result<Self, Error> {
        Self::from_u64(u64::from_be_bytes(bytes))
    }

    /// Milliseconds since the [`Epoch`](crate::Epoch) the ID was made with (bits 62..20, the same in both
    /// layouts) — not since 1970: for Unix milliseconds use [`UlidFlake::unix_ms`].
    ///
    /// ```
    /// let id = ulid_flake_core::ulid_flake!("128GGYHYYK08N");
    /// assert_eq!(id.ms_since_epoch(), 1_177_375_688_670);
    /// ```
    pub const fn ms_since_epoch(self) -> u64 {
        self.0 >> RANDOMNESS_BITS
    }

    /// The 20-bit randomness of the stand-alone layout (bits 19..0).
    ///
    /// ```
    /// let id = ulid_flake_core::ulid_flake!("128GGYHYYK08N");
    /// assert_eq!(id.randomness(), 622_869);
    /// ```
    pub const fn randomness(self) -> u32 {
        (self.0 & RANDOMNESS_MAX as u64) as u32
    }

    /// The 15-bit randomness of the scalable layout (bits 19..5).
    ///
    /// ```
    /// let id = ulid_flake_core::ulid_flake!("00F5MN1MCFT30");
    /// assert_eq!(id.scalable_randomness(), 16_195);
    /// ```
    pub const fn scalable_randomness(self) -> u16 {
        (self.randomness() >> SCALABILITY_ID_BITS) as u16
    }

    /// The scalability id of the scalable layout (bits 4..0), `0..=31`.
    ///
    /// ```
    /// let id = ulid_flake_core::UlidFlake::from_scalable_parts(1, 2, 3)?;
    /// assert_eq!(id.scalability_id(), 3);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub const fn scalability_id(self) -> u8 {
        (self.0 & SCALABILITY_ID_MAX as u64) as u8
    }
}

impl Default for UlidFlake {
    /// [`UlidFlake::MIN`], `0000000000000`: the nil value, as uuid's `Uuid::nil` is its
    /// default, for buffers and generic code. A typed [`Id`](crate::Id) has no `Default`,
    /// so that a defaulted entity does not get this shared key; see its docs.
    ///
    /// ```
    /// assert_eq!(ulid_flake_core::UlidFlake::default(), ulid_flake_core::UlidFlake::MIN);
    /// ```
    fn default() -> Self {
        Self::MIN
    }
}

impl From<UlidFlake> for u64 {
    /// [`UlidFlake::to_u64`].
    fn from(id: UlidFlake) -> Self {
        id.to_u64()
    }
}

impl From<UlidFlake> for i64 {
    /// [`UlidFlake::to_i64`].
    fn from(id: UlidFlake) -> Self {
        id.to_i64()
    }
}

impl TryFrom<u64> for UlidFlake {
    type Error = Error;

    /// [`UlidFlake::from_u64`].
    fn try_from(value: u64) -> Result<Self, Error> {
        Self::from_u64(value)
    }
}

impl TryFrom<i64> for UlidFlake {
    type Error = Error;

    /// [`UlidFlake::from_i64`].
    fn try_from(value: i64) -> Result<Self, Error> {
        Self::from_i64(value)
    }
}

impl TryFrom<&str> for UlidFlake {
    type Error = Error;

    /// [`UlidFlake::parse_str`].
    fn try_from(text: &str) -> Result<Self, Error> {
        Self::parse_str(text)
    }
}

impl From<UlidFlake> for [u8; 8] {
    /// [`UlidFlake::to_bytes`].
    fn from(id: UlidFlake) -> Self {
        id.to_bytes()
    }
}

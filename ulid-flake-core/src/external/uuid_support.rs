//! UUIDv7 interop, for systems whose ID columns are UUIDs.

use uuid::Uuid;

use crate::epoch::Epoch;
use crate::error::Error;
use crate::layout::RANDOMNESS_BITS;
use crate::ulid_flake::UlidFlake;

/// Bits 79..76 of a UUID: the version.
const VERSION_7: u128 = 0x7 << 76;
/// Bits 63..62 of a UUID: the RFC 9562 variant, `0b10`.
const VARIANT_RFC: u128 = 0b10 << 62;
/// Each version's name, for the error of a UUID of another version than 7.
const VERSIONS: [&str; 16] = [
    "version 0",
    "version 1",
    "version 2",
    "version 3",
    "version 4",
    "version 5",
    "version 6",
    "version 7",
    "version 8",
    "version 9",
    "version 10",
    "version 11",
    "version 12",
    "version 13",
    "version 14",
    "version 15",
];
/// Where the low 8 bits of the randomness go: the top of `rand_b`.
const RAND_B_SHIFT: u32 = 54;

impl UlidFlake {
    /// The UUIDv7 of this ID, given the epoch it was made with.
    ///
    /// The mapping (RFC 9562 field names): `unix_ts_ms` holds the ID's moment in Unix
    /// milliseconds; `rand_a` holds the top 12 bits of the 20-bit randomness; the first 8
    /// bits of `rand_b` hold its low 8 bits; the other 54 bits of `rand_b` are zero. It is
    /// lossless ([`UlidFlake::from_uuid_v7`] inverts it) and keeps the order: for IDs of one
    /// epoch, `a < b` exactly when `a.to_uuid_v7(e) < b.to_uuid_v7(e)`, so UUID columns sort
    /// as the IDs do. Both layouts map alike (the scalable id rides in the randomness bits).
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, ulid_flake};
    ///
    /// let id = ulid_flake!("00CMXB6TAK4SA");
    /// let uuid = id.to_uuid_v7(Epoch::DEFAULT);
    /// assert_eq!(uuid.get_version_num(), 7);
    /// assert_eq!(uuid.to_string(), "018fec27-8f4a-7993-8a80-000000000000");
    /// ```
    pub fn to_uuid_v7(self, epoch: Epoch) -> Uuid {
        let unix_ms = u128::from(self.unix_ms(epoch));
        let randomness = u128::from(self.randomness());
        Uuid::from_u128(
            unix_ms << 80
                | VERSION_7
                | (randomness >> 8) << 64
                | VARIANT_RFC
                | (randomness & 0xFF) << RAND_B_SHIFT,
        )
    }

    /// The ID that [`UlidFlake::to_uuid_v7`] mapped to `uuid` with `epoch`.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidUuid`] for a UUID that is not version 7 with the RFC 9562 variant, or
    /// whose low 54 bits are not zero (so no Ulid-Flake maps to it: a UUIDv7 made by another
    /// generator); [`Error::TimestampOutOfRange`] when its moment lies outside the epoch's
    /// range.
    ///
    /// ```
    /// use ulid_flake_core::{Epoch, Error, UlidFlake, ulid_flake};
    ///
    /// let id = ulid_flake!("00CMXB6TAK4SA");
    /// assert_eq!(UlidFlake::from_uuid_v7(id.to_uuid_v7(Epoch::DEFAULT), Epoch::DEFAULT), Ok(id));
    /// assert!(matches!(
    ///     UlidFlake::from_uuid_v7(uuid::Uuid::nil(), Epoch::DEFAULT),
    ///     Err(Error::InvalidUuid { .. })
    /// ));
    /// ```
    pub fn from_uuid_v7(uuid: Uuid, epoch: Epoch) -> Result<Self, Error> {
        let bits = uuid.as_u128();
        if bits & (0xF << 76) != VERSION_7 {
            return Err(Error::InvalidUuid {
                expected: "version 7",
                found: VERSIONS[(bits >> 76 & 0xF) as usize],
            });
        }
        if bits & (0b11 << 62) != VARIANT_RFC {
            return Err(Error::InvalidUuid {
                expected: "the RFC 9562 variant",
                found: if bits >> 63 & 1 == 0 {
                    "the NCS variant (0b0)"
                } else {
                    "the Microsoft or a future variant (0b11)"
                },
            });
        }
        if bits & ((1 << RAND_B_SHIFT) - 1) != 0 {
            return Err(Error::InvalidUuid {
                expected: "the low 54 bits zero",
                found: "some of them set",
            });
        }
        // 48 bits always fit an i64.
        let unix_ms = (bits >> 80) as i64;
        let timestamp = epoch.ms_since_epoch_at(unix_ms)?;
        let randomness = ((bits >> 64) & 0xFFF) << 8 | (bits >> RAND_B_SHIFT) & 0xFF;
        Ok(Self::from_raw(
            timestamp << RANDOMNESS_BITS | randomness as u64,
        ))
    }
}

/// Implements `to_uuid_v7` and `from_uuid_v7` for an ID type, as [`UlidFlake`]'s. Not public
/// API: the list in `external/mod.rs` calls it for every ID type but `UlidFlake`.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_uuid {
    (["uuid" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_uuid!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $ty {
            /// The UUIDv7 of this ID, given the epoch it was made with, as
            /// `UlidFlake::to_uuid_v7` maps it.
            #[allow(dead_code)]
            pub fn to_uuid_v7(self, epoch: $crate::Epoch) -> $crate::__private::uuid::Uuid {
                $crate::__private::IdType::to_ulid_flake(self).to_uuid_v7(epoch)
            }

            /// The ID that `to_uuid_v7` mapped to `uuid` with `epoch`, as
            /// `UlidFlake::from_uuid_v7`.
            ///
            /// # Errors
            ///
            /// As `UlidFlake::from_uuid_v7`.
            #[allow(dead_code)]
            pub fn from_uuid_v7(
                uuid: $crate::__private::uuid::Uuid,
                epoch: $crate::Epoch,
            ) -> ::core::result::Result<Self, $crate::Error> {
                $crate::UlidFlake::from_uuid_v7(uuid, epoch).map($crate::__private::IdType::from_ulid_flake)
            }
        }
    };
}

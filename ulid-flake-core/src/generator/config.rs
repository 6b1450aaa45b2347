//! What a generator is configured with: its [`Layout`], the builder's settings, and the
//! validated configuration the hot path reads, with its masks worked out once.

use core::time::Duration;

use crate::epoch::Epoch;
use crate::error::Error;
use crate::layout::{
    RANDOMNESS_BITS, RANDOMNESS_MAX, SCALABILITY_ID_BITS, SCALABILITY_ID_MAX,
    SCALABLE_RANDOMNESS_MAX,
};

/// How the low 20 bits of the IDs a generator makes are laid out.
///
/// Exhaustive on purpose, unlike this crate's other public enums: the specification defines
/// these two layouts, and a third would be another format, so a `match` on it may list both.
///
/// ```
/// use ulid_flake_core::generator::Layout;
///
/// assert_eq!(Layout::default(), Layout::StandAlone);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Layout {
    /// 20 bits of randomness: for a single generator.
    #[default]
    StandAlone,
    /// 15 bits of randomness and a 5-bit scalability id: for up to 32 generators (replicas)
    /// that must never collide, each with its own id.
    Scalable {
        /// This generator's id, `0..=31`.
        scalability_id: u8,
    },
}

impl Layout {
    /// The largest entropy size, in bytes, that the layout allows.
    const fn max_entropy_bytes(self) -> u8 {
        match self {
            Self::StandAlone => 3,
            Self::Scalable { .. } => 2,
        }
    }
}

/// The rollback allowance of a generator that is not told otherwise: one second, enough to
/// ride out a leap second or a typical NTP step without failing, while a clock that jumps
/// back further (a misconfigured host) fails loudly instead of stalling for long.
///
/// ```
/// use ulid_flake_core::generator::{DEFAULT_ROLLBACK_ALLOWANCE, Generator};
/// assert_eq!(Generator::new().rollback_allowance_ms() as u128, DEFAULT_ROLLBACK_ALLOWANCE.as_millis());
/// ```
pub const DEFAULT_ROLLBACK_ALLOWANCE: Duration = Duration::from_secs(1);

/// The validated configuration, with the masks the hot path needs worked out once.
#[derive(Clone, Copy, Debug)]
pub(super) struct Config {
    pub(super) epoch: Epoch,
    pub(super) layout: Layout,
    pub(super) entropy_bytes: u8,
    pub(super) rollback_allowance_ms: u64,
    /// How far the randomness is shifted left in the low 20 bits (5 when scalable).
    pub(super) randomness_shift: u32,
    /// The largest randomness of the layout.
    pub(super) randomness_max: u32,
    /// `2^(8n) - 1`: the mask of an increment.
    pub(super) increment_mask: u32,
    /// `1 << randomness_shift`: an increment times it is its place in the ID (a
    /// multiplication, where an x86 shift by a variable count takes three micro-ops).
    pub(super) increment_unit: u64,
    /// The scalability id, or 0: where the gate starts.
    pub(super) low_bits: u64,
    /// How many top bits of the field a millisecond's first randomness leaves at 0.
    pub(super) headroom_bits: u8,
    /// The mask of a millisecond's first randomness: the field's maximum, shifted right by
    /// the headroom.
    pub(super) fresh_mask: u32,
}

impl Config {
    /// Validates the builder's settings.
    pub(super) fn new(settings: Settings) -> Result<Self, Error> {
        let Settings {
            epoch,
            layout,
            entropy_bytes,
            rollback_allowance,
            headroom_bits,
        } = settings;
        let (randomness_shift, randomness_max, low_bits) = match layout {
            Layout::StandAlone => (0, RANDOMNESS_MAX, 0),
            Layout::Scalable { scalability_id } if scalability_id <= SCALABILITY_ID_MAX => (
                SCALABILITY_ID_BITS,
                SCALABLE_RANDOMNESS_MAX,
                u64::from(scalability_id),
            ),
            Layout::Scalable { scalability_id } => {
                return Err(Error::InvalidScalabilityId {
                    found: scalability_id.into(),
                });
            }
        };
        let max = layout.max_entropy_bytes();
        if !(1..=max).contains(&entropy_bytes) {
            return Err(Error::InvalidEntropySize {
                found: entropy_bytes,
                max,
            });
        }
        let field_bits = randomness_max.count_ones() as u8;
        if headroom_bits >= field_bits {
            return Err(Error::InvalidHeadroom {
                found: headroom_bits,
                max: field_bits - 1,
            });
        }
        Ok(Self {
            epoch,
            layout,
            entropy_bytes,
            rollback_allowance_ms: u64::try_from(rollback_allowance.as_millis())
                .unwrap_or(u64::MAX),
            randomness_shift,
            randomness_max,
            increment_mask: (1 << (8 * u32::from(entropy_bytes))) - 1,
            increment_unit: 1 << randomness_shift,
            low_bits,
            headroom_bits,
            fresh_mask: randomness_max >> headroom_bits,
        })
    }

    #[inline]
    pub(super) fn compose(&self, timestamp_ms: u64, randomness: u32, low_bits: u64) -> u64 {
        timestamp_ms << RANDOMNESS_BITS | u64::from(randomness) << self.randomness_shift | low_bits
    }

    #[inline]
    pub(super) fn randomness_of(&self, id: u64) -> u32 {
        (id & u64::from(RANDOMNESS_MAX)) as u32 >> self.randomness_shift
    }
}

/// The builder's settings that do not depend on the sources' types.
#[derive(Clone, Copy, Debug)]
pub(super) struct Settings {
    pub(super) epoch: Epoch,
    pub(super) layout: Layout,
    pub(super) entropy_bytes: u8,
    pub(super) rollback_allowance: Duration,
    pub(super) headroom_bits: u8,
}

//! rand 0.10 interop (feature `rand010`): [`RandSource`] lets any `rand`
//! RNG supply a generator's randomness, for reproducible IDs from a seed.
//!
//! ```
//! use rand::SeedableRng;
//! use rand::rngs::StdRng;
//! use ulid_flake_core::{generator::Generator, rand010::RandSource};
//!
//! let generator = Generator::builder()
//!     .random_source(RandSource::new(StdRng::seed_from_u64(42)))
//!     .build()?;
//! assert!(generator.generate()?.to_i64() > 0);
//! # Ok::<(), ulid_flake_core::Error>(())
//! ```

pub use crate::external::rand010_support::RandSource;

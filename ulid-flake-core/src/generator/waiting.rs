//! The waiting policies: what a call does when a millisecond is exhausted (waits for the next
//! one, on the thread or on the tokio timer), and the policy of [`Generator::new_id`], which
//! never returns an error.

use core::time::Duration;

#[cfg(not(ulid_flake_loom))]
use core::sync::atomic::Ordering;
#[cfg(ulid_flake_loom)]
use loom::sync::atomic::Ordering;

use super::clock::Clock;
use super::random::RandomSource;
use super::state::Generator;
use crate::error::Error;
use crate::id_type::IdType;
use crate::layout::RANDOMNESS_BITS;
use crate::ulid_flake::UlidFlake;

// Public as `lease::NEW_ID_LEASE_WAIT`: lease policy, which the generator applies.
/// How long [`Generator::new_id`](crate::generator::Generator::new_id) (and so [`UlidFlake::new`](crate::UlidFlake::new)) waits for an invalid lease to
/// be valid again before it panics: twice the default lease validity, time for a lease lost
/// to a short outage to be re-acquired.
///
/// ```
/// assert_eq!(ulid_flake_core::lease::NEW_ID_LEASE_WAIT.as_secs(), 30);
/// ```
pub const NEW_ID_LEASE_WAIT: Duration = Duration::from_secs(30);

impl<C: Clock, R: RandomSource> Generator<C, R> {
    /// Makes the next ID as [`Generator::try_generate`] does, but when the millisecond is
    /// exhausted, blocks the thread until the next one begins and tries again — precisely:
    /// it sleeps until shortly before the boundary and yields for the rest (see
    /// [`Clock::wait_until`]).
    ///
    /// # Errors
    ///
    /// [`Error::ClockMovedBackwards`] and [`Error::TimestampOutOfRange`], as
    /// [`Generator::try_generate`]; never [`Error::Overflow`].
    ///
    /// ```
    /// use ulid_flake_core::generator::Generator;
    ///
    /// let generator = Generator::new();
    /// let ids: Vec<_> = (0..10_000).map(|_| generator.generate()).collect::<Result<_, _>>()?;
    /// assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn generate(&self) -> Result<UlidFlake, Error> {
        self.waiting(|| self.try_generate())
    }

    /// Fills all of `out` with the next IDs, as [`Generator::try_generate_batch`] does, and when
    /// the millisecond is exhausted before `out` is full, waits for the next one as
    /// [`Generator::generate`] does and goes on there: one clock reading and one
    /// compare-and-swap per millisecond the batch spans. The IDs strictly increase along
    /// `out`; another thread's IDs may fall between the parts made in different milliseconds,
    /// never within one. A part that ends short of `out` has used its millisecond up (its
    /// next increment did not fit): the next part waits for the next millisecond, even where
    /// a smaller increment would still have fitted.
    ///
    /// # Errors
    ///
    /// As [`Generator::generate`]. The entries filled before an error are issued
    /// IDs (the generator will not make them again), in a prefix of `out`; the rest is as
    /// [`Generator::try_generate_batch`] leaves it: as it was, or the type's `MIN`. `out` is
    /// a slice of any ID type, as there.
    ///
    /// ```
    /// use ulid_flake_core::{UlidFlake, generator::Generator};
    ///
    /// let generator = Generator::new();
    /// // More than a millisecond holds: the call waits for the next ones.
    /// let mut ids = vec![UlidFlake::MIN; 10_000];
    /// generator.generate_batch(&mut ids)?;
    /// assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    ///
    /// // Any ID type's slice, from the process-wide generator too.
    /// struct User;
    /// let mut users = vec![ulid_flake_core::Id::<User>::MIN; 1_000];
    /// ulid_flake_core::generator::default_generator()?.generate_batch(&mut users)?;
    /// assert!(users.windows(2).all(|pair| pair[0] < pair[1]));
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn generate_batch<I: IdType>(&self, out: &mut [I]) -> Result<(), Error> {
        let mut filled = 0;
        while filled < out.len() {
            filled += self.waiting(|| self.try_generate_batch(&mut out[filled..]))?;
            if let Some(exhausted_ms) = short_part_ms(out, filled) {
                self.clock.wait_until(self.after_exhausted(exhausted_ms));
            }
        }
        Ok(())
    }

    /// Runs `attempt` until it meets no [`Error::Overflow`], waiting for the next
    /// millisecond after each (see [`Clock::wait_until`]).
    fn waiting<T>(&self, mut attempt: impl FnMut() -> Result<T, Error>) -> Result<T, Error> {
        loop {
            match attempt() {
                Err(Error::Overflow { timestamp_ms }) => {
                    self.clock.wait_until(self.after_exhausted(timestamp_ms));
                }
                result => return result,
            }
        }
    }

    /// The Unix millisecond to wait for after the millisecond `timestamp_ms` (since the
    /// epoch) is exhausted.
    fn after_exhausted(&self, timestamp_ms: u64) -> i64 {
        crate::macros::event!(
            "ulid_flake::generator",
            trace,
            timestamp_ms,
            "millisecond exhausted: waiting for the next"
        );
        self.unix_ms_after(timestamp_ms)
    }

    /// Makes the next ID as [`Generator::try_generate`] does, but when the millisecond is
    /// exhausted, waits on the tokio timer (see [`Clock::wait_until_async`]) and tries again.
    ///
    /// # Errors
    ///
    /// As [`Generator::generate`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ulid_flake_core::Error> {
    /// let generator = ulid_flake_core::generator::Generator::new();
    /// let id = generator.generate_async().await?;
    /// # assert!(id.ms_since_epoch() > 0);
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "tokio")]
    pub async fn generate_async(&self) -> Result<UlidFlake, Error> {
        self.waiting_async(|| self.try_generate()).await
    }

    /// Fills all of `out` as [`Generator::generate_batch`] does, but waits for the
    /// next millisecond on the tokio timer, as [`Generator::generate_async`] does.
    ///
    /// # Errors
    ///
    /// As [`Generator::generate_batch`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ulid_flake_core::Error> {
    /// use ulid_flake_core::UlidFlake;
    ///
    /// let generator = ulid_flake_core::generator::Generator::new();
    /// let mut ids = [UlidFlake::MIN; 1_000];
    /// generator.generate_batch_async(&mut ids).await?;
    /// assert!(ids.windows(2).all(|pair| pair[0] < pair[1]));
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "tokio")]
    pub async fn generate_batch_async<I: IdType>(&self, out: &mut [I]) -> Result<(), Error> {
        let mut filled = 0;
        while filled < out.len() {
            filled += self
                .waiting_async(|| self.try_generate_batch(&mut out[filled..]))
                .await?;
            if let Some(exhausted_ms) = short_part_ms(out, filled) {
                let next = self.after_exhausted(exhausted_ms);
                self.clock.wait_until_async(next).await;
            }
        }
        Ok(())
    }

    /// [`Generator::waiting`] on the tokio timer (see [`Clock::wait_until_async`]).
    #[cfg(feature = "tokio")]
    async fn waiting_async<T>(
        &self,
        mut attempt: impl FnMut() -> Result<T, Error>,
    ) -> Result<T, Error> {
        loop {
            match attempt() {
                Err(Error::Overflow { timestamp_ms }) => {
                    let next = self.after_exhausted(timestamp_ms);
                    self.clock.wait_until_async(next).await;
                }
                result => return result,
            }
        }
    }

    /// Makes the next ID and never returns an error — the generator behind
    /// [`UlidFlake::new`] and [`Id::new`](crate::Id::new), for code that has no good answer to
    /// a failed clock. Each failure has a policy that keeps IDs unique and increasing:
    ///
    /// - **The millisecond is exhausted** ([`Error::Overflow`]): it waits for the next one, as
    ///   [`Generator::generate`] does (well under a millisecond; up to the rollback allowance
    ///   when the clock stepped back within it).
    /// - **The clock moved back beyond the rollback allowance**
    ///   ([`Error::ClockMovedBackwards`]), or reads a moment before the epoch: it carries on
    ///   from the last ID's millisecond, and when that is exhausted, moves to the next one
    ///   without waiting for the clock, so IDs may run ahead of a clock that stays behind;
    ///   they never go back.
    /// - **A lease is not valid** ([`Error::LeaseNotValid`], or [`Error::ClockSkew`]: a leased
    ///   generator whose wall clock is too far from the database's): it waits for
    ///   the lease, checking every millisecond, for up to [`NEW_ID_LEASE_WAIT`]; past that it
    ///   panics with the lease's error rather than issue an ID another replica may issue too.
    ///
    /// # Panics
    ///
    /// When a lease stays invalid for [`NEW_ID_LEASE_WAIT`], and when the last millisecond
    /// the format can hold is exhausted (in the year 2302 with the default epoch). The
    /// process-wide [`UlidFlake::new`] also panics when the environment misconfigures the
    /// default generator; call [`init_from_env`](super::init_from_env) at start-up to meet that as an error.
    ///
    /// ```
    /// let generator = ulid_flake_core::generator::Generator::new();
    /// let (a, b) = (generator.new_id(), generator.new_id());
    /// assert!(a < b);
    /// ```
    pub fn new_id(&self) -> UlidFlake {
        // The millisecond IDs may not go below: the last one's, after a rollback.
        let mut floor = 0;
        let mut lease_waited_ms = 0;
        loop {
            let read = || match self.now() {
                Ok(now) => Ok(now.max(floor)),
                // Before the epoch: a broken clock, handled as a rollback.
                Err(Error::TimestampOutOfRange { found_ms }) if found_ms < 0 => Ok(floor),
                Err(error) => Err(error),
            };
            let error = match self.generate_reading(read) {
                Ok(id) => return id,
                Err(error) => error,
            };
            match error {
                Error::Overflow { timestamp_ms }
                    if timestamp_ms >= crate::layout::MAX_TIMESTAMP => {}
                // The clock at the exhausted millisecond, or behind it within the allowance
                // (as `generate` waits): wait for the next. Taking it at once would stamp IDs
                // ahead of the clock by as much as the load outruns it, which a successor
                // with the same scalability id, started while the clock is behind them, would
                // issue again.
                Error::Overflow { timestamp_ms }
                    if self.now().is_ok_and(|now| {
                        now.saturating_add(self.config.rollback_allowance_ms) >= timestamp_ms
                    }) =>
                {
                    self.clock.wait_until(self.unix_ms_after(timestamp_ms));
                    continue;
                }
                // The clock further behind: take the next millisecond now.
                Error::Overflow { timestamp_ms } => {
                    floor = timestamp_ms + 1;
                    continue;
                }
                Error::ClockMovedBackwards { .. } => {
                    floor = self.last.load(Ordering::Acquire) >> RANDOMNESS_BITS;
                    continue;
                }
                Error::LeaseNotValid { .. } | Error::ClockSkew { .. }
                    if lease_waited_ms < NEW_ID_LEASE_WAIT.as_millis() =>
                {
                    lease_waited_ms += 1;
                    self.clock.wait_until(self.clock.unix_ms() + 1);
                    continue;
                }
                _ => {}
            }
            panic!("ulid-flake: no ID can be issued: {error}");
        }
    }

    /// The Unix millisecond that follows the timestamp `timestamp_ms`.
    fn unix_ms_after(&self, timestamp_ms: u64) -> i64 {
        // At most Epoch::MAX + 2^43 = 2^48: no overflow.
        (self.config.epoch.unix_ms() + timestamp_ms + 1) as i64
    }
}

/// The millisecond (since the epoch) of a batch's part that ended short of `out`, its first
/// `filled` entries made: a short part used its millisecond up
/// ([`Generator::try_generate_batch`]), and the next part waits for the next millisecond
/// rather than swap again in this one, where another thread's ID could have come between
/// the two parts. `None` once `out` is full.
fn short_part_ms<I: IdType>(out: &[I], filled: usize) -> Option<u64> {
    out[..filled]
        .last()
        .filter(|_| filled < out.len())
        .map(|last| last.to_ulid_flake().ms_since_epoch())
}

//! The infallible constructor's policy for every failure, on a scripted clock: it waits for
//! the next millisecond, carries on past a broken clock, waits for a lease, and never issues
//! a duplicate.

use ulid_flake_core::{Error, MAX_TIMESTAMP};
use ulid_flake_core::generator::{Generator, ThreadRandom};
use ulid_flake_core::lease::NEW_ID_LEASE_WAIT;
use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease};

use crate::support::{ManualClock, ScriptedRandom, StubTable, at};

fn scripted(unix_ms: i64) -> Generator<ManualClock, ScriptedRandom> {
    Generator::builder()
        .clock(ManualClock::new(unix_ms))
        .random_source(ScriptedRandom::default())
        .build()
        .unwrap()
}

#[test]
fn an_exhausted_millisecond_waits_for_the_next() {
    let generator = scripted(at(100));
    // A draw at the top of the field, an increment past it, then a fresh draw.
    generator.random_source().push(&[1_048_575, 1, 5]);

    let (first, second) = (generator.new_id(), generator.new_id());

    assert_eq!(
        (first.ms_since_epoch(), first.randomness()),
        (100, 1_048_575)
    );
    assert_eq!((second.ms_since_epoch(), second.randomness()), (101, 5));
    assert_eq!(generator.clock().waits(), [at(101)]);
}

/// A clock behind within the allowance: the exhausted millisecond is waited out, as
/// `generate` waits, not left at once. Left at once under load, IDs ran ahead of the clock
/// by tens of seconds (a review, 2026-11-28), which a restarted process with the same
/// scalability id then issued again.
#[test]
fn a_clock_behind_within_the_allowance_waits_for_the_next_millisecond() {
    let generator = scripted(at(50_000));
    // The first ID at the top of the field; new_id's increment overflows it; after the wait
    // a fresh 9.
    generator.random_source().push(&[1_048_575, 1, 9]);
    let first = generator.new_id();
    generator.clock().set(at(49_500));

    let next = generator.new_id();

    assert_eq!(first.ms_since_epoch(), 50_000);
    assert_eq!((next.ms_since_epoch(), next.randomness()), (50_001, 9));
    assert_eq!(generator.clock().waits(), [at(50_001)]);
}

/// The largest allowance (`Duration::MAX`, kept as `u64::MAX` ms) counts as any other.
#[test]
fn a_clock_behind_within_the_largest_allowance_waits_too() {
    let generator = Generator::builder()
        .clock(ManualClock::new(at(50_000)))
        .random_source(ScriptedRandom::default())
        .rollback_allowance(std::time::Duration::MAX)
        .build()
        .unwrap();
    generator.random_source().push(&[1_048_575, 1, 9]);
    let first = generator.new_id();
    generator.clock().set(at(10_000));

    let next = generator.new_id();

    assert_eq!((first.ms_since_epoch(), next.ms_since_epoch()), (50_000, 50_001));
    assert_eq!(generator.clock().waits(), [at(50_001)]);
}

#[test]
fn a_clock_far_behind_continues_from_the_last_millisecond_without_waiting() {
    let generator = scripted(at(50_000));
    // The first ID; `generate`'s draw (each attempt draws first: an
    // attempt that fails on the rollback leaves it unused); `new_id`'s first attempt's, then
    // an increment of 200; again the first attempt's, then 255 (overflows); a fresh 9.
    const UNUSED: u32 = 0xDEAD;
    generator
        .random_source()
        .push(&[1_048_300, UNUSED, UNUSED, 200, UNUSED, 255, 9]);
    let first = generator.new_id();
    // Ten seconds back: ten times the default allowance.
    generator.clock().set(at(40_000));
    assert!(matches!(
        generator.try_generate(),
        Err(Error::ClockMovedBackwards { by_ms: 10_000, .. })
    ));

    let in_last = generator.new_id();
    let next = generator.new_id();

    assert_eq!(first.ms_since_epoch(), 50_000);
    assert_eq!(
        (in_last.ms_since_epoch(), in_last.randomness()),
        (50_000, 1_048_500)
    );
    // 1_048_500 + 255 overflows: the next millisecond at once, with a fresh draw.
    assert_eq!((next.ms_since_epoch(), next.randomness()), (50_001, 9));
    assert!(first < in_last && in_last < next);
    assert!(
        generator.clock().waits().is_empty(),
        "it must not wait 10 s for the clock"
    );
}

#[test]
fn a_clock_before_the_epoch_gives_ids_from_its_first_millisecond() {
    let generator = scripted(at(-5_000));
    generator.random_source().push(&[3]);

    let id = generator.new_id();

    assert_eq!((id.ms_since_epoch(), id.randomness()), (0, 3));
}

#[test]
fn the_format_s_last_millisecond_used_up_panics_rather_than_wrap() {
    let generator = scripted(at(MAX_TIMESTAMP as i64));
    // The top of the field in the last millisecond; then an increment past it, and draws
    // for every later attempt.
    generator.random_source().push(&[1_048_575, 1, 7, 7, 7]);
    let last = generator.new_id();
    assert_eq!(
        (last.ms_since_epoch(), last.randomness()),
        (MAX_TIMESTAMP, 1_048_575)
    );

    let panic = std::panic::catch_unwind(|| generator.new_id()).unwrap_err();

    assert_eq!(
        panic.downcast_ref::<String>().unwrap(),
        "ulid-flake: no ID can be issued: randomness overflow: expected an ID left in \
         millisecond 8796093022207 since the epoch, found its randomness used up; the format \
         has no later millisecond (use a later epoch)"
    );
}

#[test]
fn a_clock_past_the_format_s_last_millisecond_panics() {
    let generator = scripted(at(MAX_TIMESTAMP as i64 + 5));
    generator.random_source().push(&[7, 7, 7]);

    let panic = std::panic::catch_unwind(|| generator.new_id()).unwrap_err();

    assert_eq!(
        panic.downcast_ref::<String>().unwrap(),
        "ulid-flake: no ID can be issued: timestamp out of range: expected 0..=8796093022207 ms \
         since the epoch, found 8796093022212 ms"
    );
}

/// A lease of id 8 from `table`, whose generator runs on a manual clock at `at(1_000_000)`,
/// the database's time when it is taken.
fn leased(table: StubTable) -> ScalabilityIdLease<ManualClock> {
    let options = LeaseOptions::new("jobs").ids(8..=8).generator(
        Generator::builder()
            .clock(ManualClock::new(at(1_000_000)))
            .random_source(ThreadRandom),
    );
    ScalabilityIdLease::acquire(table, options).unwrap()
}

/// The message `new_id` panics with on `generator`, after checking that it waited the whole
/// bound first, a millisecond at a time, on the generator's clock.
fn panic_after_the_lease_wait(generator: &Generator<ManualClock>) -> String {
    std::panic::set_hook(Box::new(|_| {}));
    let panic = std::panic::catch_unwind(|| generator.new_id()).unwrap_err();
    let _ = std::panic::take_hook();
    let waited = generator.clock().waits().len() as u128;
    assert_eq!(waited, NEW_ID_LEASE_WAIT.as_millis());
    panic.downcast_ref::<String>().unwrap().clone()
}

/// A wall clock further from the database's than the lease allows is waited for as an
/// invalid lease is, then `new_id` panics rather than issue.
#[test]
fn a_clock_apart_from_the_database_s_is_waited_for_then_panics_rather_than_issue() {
    // A database whose clock is 5 s behind the generator's.
    let lease = leased(StubTable::granting(|| at(1_000_000) * 1000 - 5_000_000));
    let generator = lease.generator();
    let refused = generator.try_generate().unwrap_err();
    assert!(
        matches!(refused, Error::ClockSkew { scalability_id: 8, .. }),
        "{refused}"
    );

    assert_eq!(
        panic_after_the_lease_wait(generator),
        format!("ulid-flake: no ID can be issued: {refused}")
    );
}

#[test]
fn an_invalid_lease_is_waited_for_then_panics_rather_than_issue() {
    // Renewed never, taken once: the lease is lost for good at its first deadline.
    let table = StubTable::granting(|| at(1_000_000) * 1000)
        .renewing_nothing()
        .taking_once();
    let lease = leased(table);
    let generator = lease.generator();
    assert_eq!(generator.new_id().scalability_id(), 8);
    // Past the lease's deadline (15 s × 0.999 − 1 s after it was taken).
    generator.clock().set(at(1_020_000));
    let until = generator.try_generate().unwrap_err();

    assert_eq!(
        panic_after_the_lease_wait(generator),
        format!("ulid-flake: no ID can be issued: {until}")
    );
    assert!(matches!(
        until,
        Error::LeaseNotValid {
            scalability_id: 8,
            valid_until_unix_ms: Some(_)
        }
    ));
}

//! The `tracing` events: a lease's acquisition, and the generator's clock rollbacks and
//! waits for the next millisecond, as a subscriber sees them.

use std::sync::{Arc, Mutex};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Level, Metadata, Subscriber};
use ulid_flake_core::Error;
use ulid_flake_core::generator::Generator;
use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease};

use crate::support::{ManualClock, ScriptedRandom, StubTable, at, database_now_us};

/// Records `LEVEL target: message` for every event.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<String>>>);

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        struct Message(String);
        impl Visit for Message {
            fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
                if field.name() == "message" {
                    self.0 = format!("{value:?}");
                }
            }
        }
        let mut message = Message(String::new());
        event.record(&mut message);
        let metadata = event.metadata();
        self.0.lock().unwrap().push(format!(
            "{} {}: {}",
            metadata.level(),
            metadata.target(),
            message.0
        ));
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

fn events_of(work: impl FnOnce()) -> Vec<String> {
    let recorder = Recorder::default();
    tracing::subscriber::with_default(recorder.clone(), work);
    recorder.0.lock().unwrap().clone()
}

#[test]
fn acquiring_a_lease_is_an_info_event() {
    let events = events_of(|| {
        let lease = ScalabilityIdLease::acquire(
            StubTable::granting(database_now_us),
            LeaseOptions::new("jobs").ids(2..=2),
        )
        .unwrap();
        drop(lease);
    });
    assert_eq!(
        events,
        [format!(
            "{} ulid_flake::lease: scalability-id lease acquired",
            Level::INFO
        )]
    );
}

#[test]
fn a_wall_clock_apart_from_the_database_s_is_an_error_event() {
    let events = events_of(|| {
        let lease = ScalabilityIdLease::acquire(
            // A database whose clock is 5 s behind this machine's.
            StubTable::granting(|| database_now_us() - 5_000_000),
            LeaseOptions::new("jobs").ids(2..=2),
        )
        .unwrap();
        assert!(matches!(
            lease.generator().try_generate(),
            Err(Error::ClockSkew {
                scalability_id: 2,
                bound_ms: 500,
                ..
            })
        ));
        drop(lease);
    });
    assert_eq!(
        events,
        [
            format!(
                "{} ulid_flake::lease: wall clock too far from the database's: no IDs until \
                 they agree",
                Level::ERROR
            ),
            format!(
                "{} ulid_flake::lease: scalability-id lease acquired",
                Level::INFO
            ),
        ]
    );
}

/// A generator at millisecond 5 000 of the default epoch, with its first draw scripted.
fn generator(first_draw: u32) -> Generator<ManualClock, ScriptedRandom> {
    let generator = Generator::builder()
        .clock(ManualClock::new(at(5_000)))
        .random_source(ScriptedRandom::default())
        .build()
        .unwrap();
    generator.random_source().push(&[first_draw]);
    generator
}

/// A generator that has made the last ID of millisecond 5 000 (a full first draw).
fn with_a_full_millisecond() -> Generator<ManualClock, ScriptedRandom> {
    let generator = generator(1_048_575);
    generator.try_generate().unwrap();
    generator
}

#[test]
fn an_ordinary_generation_is_no_event() {
    let generator = generator(1_048_575);
    assert_eq!(
        events_of(|| {
            generator.try_generate().unwrap();
        }),
        [] as [String; 0]
    );
}

#[test]
fn a_rollback_within_the_allowance_is_a_debug_event() {
    let generator = with_a_full_millisecond();
    // An increment drawn as 0, then 255: past the full millisecond.
    generator.random_source().push(&[0, 255]);
    let events = events_of(|| {
        generator.clock().set(at(4_999));
        assert!(matches!(generator.try_generate(), Err(Error::Overflow { .. })));
    });
    assert_eq!(
        events,
        [format!(
            "{} ulid_flake::generator: clock moved back within the rollback allowance: \
             continuing in the last millisecond",
            Level::DEBUG
        )]
    );
}

#[test]
fn a_rollback_beyond_the_allowance_is_a_warning() {
    let generator = with_a_full_millisecond();
    let events = events_of(|| {
        generator.clock().set(at(5_000 - 1_001));
        // The draw the call takes first, unused.
        generator.random_source().push(&[0xDEAD]);
        assert!(matches!(
            generator.try_generate(),
            Err(Error::ClockMovedBackwards { .. })
        ));
    });
    assert_eq!(
        events,
        [format!(
            "{} ulid_flake::generator: clock moved back beyond the rollback allowance: no \
             ID until it catches up",
            Level::WARN
        )]
    );
}

#[test]
fn waiting_for_the_next_millisecond_is_a_trace_event() {
    let generator = with_a_full_millisecond();
    // An increment of 7, past the full millisecond; then a fresh 42.
    generator.random_source().push(&[7, 42]);
    let events = events_of(|| {
        generator.generate().unwrap();
    });
    assert_eq!(
        events,
        [format!(
            "{} ulid_flake::generator: millisecond exhausted: waiting for the next",
            Level::TRACE
        )]
    );
}

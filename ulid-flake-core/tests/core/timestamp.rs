//! Epochs, instants and the ID ranges of time windows.

use ulid_flake_core::{Error, MAX_TIMESTAMP, UlidFlake, UnixMs};

#[test]
fn instants_count_from_the_given_epoch() {
    use std::time::{Duration, UNIX_EPOCH};
    use ulid_flake_core::Epoch;

    let last = UlidFlake::MAX;
    // SPEC §1: 2302-09-27T15:10:22.207Z is the last instant of the default epoch.
    assert_eq!(last.unix_ms(Epoch::DEFAULT), 10_500_160_222_207);
    assert_eq!(
        last.to_moment(Epoch::DEFAULT),
        Ok(UNIX_EPOCH + Duration::from_millis(10_500_160_222_207))
    );
    assert_eq!(last.unix_ms(Epoch::UNIX), MAX_TIMESTAMP);
}

#[test]
fn epochs_are_bounded_by_48_bit_unix_milliseconds() {
    use std::time::{Duration, UNIX_EPOCH};
    use ulid_flake_core::Epoch;

    assert_eq!(Epoch::from_unix_ms(Epoch::MAX.unix_ms()), Ok(Epoch::MAX));
    assert_eq!(
        Epoch::from_unix_ms(Epoch::MAX.unix_ms() + 1),
        Err(Error::InvalidEpoch {
            found_unix_ms: 272_678_883_688_449
        })
    );
    assert_eq!(
        Epoch::from_moment(UNIX_EPOCH - Duration::from_millis(5)),
        Err(Error::InvalidEpoch { found_unix_ms: -5 })
    );
    assert_eq!(
        Epoch::DEFAULT.to_moment(),
        Ok(UNIX_EPOCH + Duration::from_millis(1_704_067_200_000))
    );
}

#[test]
fn time_windows_map_to_id_ranges_with_clipping() {
    use std::time::{Duration, UNIX_EPOCH};
    use ulid_flake_core::Epoch;

    let epoch = Epoch::DEFAULT.unix_ms() as i64;
    let max = (1 << 20) - 1;
    let range = |start: i64, end: i64| {
        UlidFlake::range_for(Epoch::DEFAULT, UnixMs(epoch + start)..UnixMs(epoch + end))
    };
    assert_eq!(
        range(5, 6),
        Some((
            UlidFlake::from_parts(5, 0).unwrap(),
            UlidFlake::from_parts(5, max).unwrap()
        ))
    );
    assert_eq!(range(5, 5), None);
    assert_eq!(range(-10, -1), None, "wholly before the epoch");
    assert_eq!(
        range(-10, 1).map(|(lowest, _)| lowest),
        Some(UlidFlake::MIN)
    );
    let last = MAX_TIMESTAMP as i64;
    assert_eq!(
        range(last, last + 100).map(|(_, highest)| highest),
        Some(UlidFlake::MAX)
    );
    assert_eq!(
        range(last + 1, last + 2),
        None,
        "wholly after the last millisecond"
    );

    // A window that starts or ends inside a millisecond covers all of it.
    let at = |ms: u64, extra_micros: u64| {
        UNIX_EPOCH + Duration::from_millis(epoch as u64 + ms) + Duration::from_micros(extra_micros)
    };
    assert_eq!(
        UlidFlake::range_for(Epoch::DEFAULT, at(5, 300)..at(7, 1)),
        Some((
            UlidFlake::from_parts(5, 0).unwrap(),
            UlidFlake::from_parts(7, max).unwrap()
        ))
    );
    assert_eq!(
        UlidFlake::range_for(Epoch::DEFAULT, at(5, 0)..at(7, 0)),
        Some((
            UlidFlake::from_parts(5, 0).unwrap(),
            UlidFlake::from_parts(6, max).unwrap()
        ))
    );
}

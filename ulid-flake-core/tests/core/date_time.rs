//! Moments of every time library: an ID's moment, the ID of a moment and the IDs of a time
//! window, exact to the millisecond at both ends of the default epoch's range, with one
//! rounding rule for every `Moment` type.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use ulid_flake_core::generator::Generator;
use ulid_flake_core::{
    Epoch, Error, Id, MAX_TIMESTAMP, Moment, Prefix, PrefixedId, UlidFlake, UnixMs,
};

const RANDOMNESS_MAX: u32 = (1 << 20) - 1;

/// The default epoch, in Unix milliseconds.
const EPOCH_MS: i64 = 1_704_067_200_000;

fn parts(ms: u64, randomness: u32) -> UlidFlake {
    UlidFlake::from_parts(ms, randomness).unwrap()
}

fn out_of_range(found_ms: i128) -> Error {
    Error::TimestampOutOfRange { found_ms }
}

/// The same cases for one library's moment type: `parse` reads RFC 3339, `rfc3339` writes a
/// moment back (UTC, `Z`, the fraction only when not zero).
#[cfg_attr(
    not(any(feature = "chrono04", feature = "time03", feature = "jiff02")),
    allow(dead_code, reason = "every library's cases are behind its feature")
)]
fn check<M: Moment>(p: fn(&str) -> M, rfc3339: fn(M) -> String) {
    let epoch = Epoch::DEFAULT;

    // The ID's moment, as exact RFC 3339 strings.
    let moment_of = |id: UlidFlake, epoch| rfc3339(id.to_moment(epoch).unwrap());
    assert_eq!(moment_of(UlidFlake::MIN, epoch), "2024-01-01T00:00:00Z");
    assert_eq!(moment_of(parts(5, 0), epoch), "2024-01-01T00:00:00.005Z");
    assert_eq!(
        moment_of("00CMXB6TAK4SA".parse().unwrap(), epoch),
        "2024-06-06T06:06:06.666Z"
    );
    assert_eq!(moment_of(UlidFlake::MAX, epoch), "2302-09-27T15:10:22.207Z");
    // The first ID past JavaScript's safe integers (2^53 - 1): millisecond 2^33.
    assert_eq!(parts(1 << 33, 0).to_u64(), 1 << 53);
    assert_eq!(
        moment_of(parts(1 << 33, 0), epoch),
        "2024-04-09T10:05:34.592Z"
    );
    assert_eq!(
        moment_of(UlidFlake::MAX, Epoch::UNIX),
        "2248-09-26T15:10:22.207Z"
    );

    // The boundary milliseconds: the epoch, one before, the last, one after.
    let from = |text, randomness| UlidFlake::from_moment(epoch, p(text), randomness);
    assert_eq!(from("2024-01-01T00:00:00Z", 0), Ok(UlidFlake::MIN));
    assert_eq!(from("2023-12-31T23:59:59.999Z", 0), Err(out_of_range(-1)));
    assert_eq!(
        from("2302-09-27T15:10:22.207Z", RANDOMNESS_MAX),
        Ok(UlidFlake::MAX)
    );
    assert_eq!(
        from("2302-09-27T15:10:22.208Z", 0),
        Err(out_of_range(i128::from(MAX_TIMESTAMP) + 1))
    );
    assert_eq!(
        from("2024-01-01T00:00:00Z", RANDOMNESS_MAX + 1),
        Err(Error::RandomnessOutOfRange {
            found: RANDOMNESS_MAX + 1,
            max: RANDOMNESS_MAX
        })
    );
    // An offset other than UTC names the same instant.
    assert_eq!(
        from("2024-06-06T08:06:06.666+02:00", 627_498),
        Ok("00CMXB6TAK4SA".parse().unwrap())
    );

    // Sub-millisecond parts are truncated towards the past, on both sides of the epoch.
    assert_eq!(from("2024-01-01T00:00:00.000999999Z", 1), Ok(parts(0, 1)));
    assert_eq!(from("2024-01-01T00:00:00.123456789Z", 1), Ok(parts(123, 1)));
    assert_eq!(
        from("2023-12-31T23:59:59.999999999Z", 0),
        Err(out_of_range(-1))
    );
    assert_eq!(
        UlidFlake::from_moment(Epoch::UNIX, p("1969-12-31T23:59:59.9999Z"), 0),
        Err(out_of_range(-1))
    );
    assert_eq!(
        from("2302-09-27T15:10:22.207999999Z", 0),
        Ok(parts(MAX_TIMESTAMP, 0))
    );

    // The round trip of SPEC §5's vector, typed: the moment back exactly, the ID from it.
    let id = Id::<User>::from_moment(epoch, p("2024-06-06T06:06:06.666Z"), 627_498).unwrap();
    assert_eq!(id.to_string(), "00CMXB6TAK4SA");
    let back: M = id.to_moment(epoch).unwrap();
    assert_eq!(rfc3339(back), "2024-06-06T06:06:06.666Z");
    assert_eq!(
        PrefixedId::<User>::from_moment(epoch, id.to_moment::<M>(epoch).unwrap(), 627_498)
            .map(PrefixedId::to_id),
        Ok(id)
    );

    // Epochs: rounded down to the millisecond as IDs are, written back exactly.
    assert_eq!(
        Epoch::from_moment(p("2024-01-01T00:00:00.000999Z")),
        Ok(Epoch::DEFAULT)
    );
    assert_eq!(
        Epoch::from_moment(p("1969-12-31T23:59:59.9999Z")),
        Err(Error::InvalidEpoch { found_unix_ms: -1 })
    );
    assert_eq!(
        rfc3339(Epoch::DEFAULT.to_moment().unwrap()),
        "2024-01-01T00:00:00Z"
    );

    // A generator: the moment's millisecond, fresh randomness, the same bounds.
    let generator = Generator::new();
    let generate = |text| generator.id_at(p(text));
    assert_eq!(
        generate("2024-01-01T00:00:00.009999Z")
            .unwrap()
            .ms_since_epoch(),
        9
    );
    assert_eq!(
        generate("2302-09-27T15:10:22.207Z")
            .unwrap()
            .ms_since_epoch(),
        MAX_TIMESTAMP
    );
    assert_eq!(generate("2023-12-31T23:59:59.999Z"), Err(out_of_range(-1)));
    assert_eq!(
        generate("2302-09-27T15:10:22.208Z"),
        Err(out_of_range(i128::from(MAX_TIMESTAMP) + 1))
    );

    // Ranges: partial milliseconds at either end are covered whole; clipped at the ends of
    // the epoch's range; `None` when no ID can fall in the window.
    let range = |start, end| UlidFlake::range_for(epoch, p(start)..p(end));
    assert_eq!(
        range("2024-01-01T00:01:00Z", "2024-01-01T00:01:01Z"),
        Some((parts(60_000, 0), parts(60_999, RANDOMNESS_MAX)))
    );
    assert_eq!(
        range(
            "2024-01-01T00:00:00.0015Z",
            "2024-01-01T00:00:00.003000001Z"
        ),
        Some((parts(1, 0), parts(3, RANDOMNESS_MAX)))
    );
    assert_eq!(
        range("2000-01-01T00:00:00Z", "2024-01-01T00:00:00.000001Z"),
        Some((UlidFlake::MIN, parts(0, RANDOMNESS_MAX)))
    );
    assert_eq!(
        range("2302-09-27T15:10:22.207Z", "3000-01-01T00:00:00Z"),
        Some((parts(MAX_TIMESTAMP, 0), UlidFlake::MAX))
    );
    assert_eq!(range("2000-01-01T00:00:00Z", "2024-01-01T00:00:00Z"), None);
    assert_eq!(
        range("2302-09-27T15:10:22.208Z", "3000-01-01T00:00:00Z"),
        None
    );
    assert_eq!(range("2024-01-01T00:00:01Z", "2024-01-01T00:00:01Z"), None);
}

struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

/// SPEC §5's vector: 2024-06-06T06:06:06.666Z, randomness 627,498, the default epoch.
const VECTOR_UNIX_MS: i64 = 1_717_653_966_666;

/// A `SystemTime` `ms` milliseconds and `nanos` nanoseconds after the Unix epoch.
fn system_time(ms: u64, nanos: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms) + Duration::from_nanos(nanos)
}

#[test]
fn unix_ms_round_trips_through_every_id_type() {
    let epoch = Epoch::DEFAULT;
    let vector: UlidFlake = "00CMXB6TAK4SA".parse().unwrap();
    assert_eq!(
        UlidFlake::from_moment(epoch, UnixMs(VECTOR_UNIX_MS), 627_498),
        Ok(vector)
    );
    assert_eq!(vector.to_moment(epoch), Ok(UnixMs(VECTOR_UNIX_MS)));
    let id = Id::<User>::from_moment(epoch, UnixMs(VECTOR_UNIX_MS), 627_498).unwrap();
    assert_eq!(id.to_moment(epoch), Ok(UnixMs(VECTOR_UNIX_MS)));
    let prefixed = PrefixedId::<User>::from_moment(epoch, UnixMs(VECTOR_UNIX_MS), 627_498);
    assert_eq!(prefixed.map(|id| id.to_string()).as_deref(), Ok("user_00CMXB6TAK4SA"));
    assert_eq!(
        prefixed.unwrap().to_moment(epoch),
        Ok(UnixMs(VECTOR_UNIX_MS))
    );
    // The extremes: the first moment of the Unix epoch, the last of the latest epoch.
    assert_eq!(UlidFlake::MIN.to_moment(Epoch::UNIX), Ok(UnixMs(0)));
    assert_eq!(
        UlidFlake::MAX.to_moment(Epoch::MAX),
        Ok(UnixMs((1 << 48) - 1))
    );
    assert_eq!(Epoch::MAX.to_moment(), Ok(UnixMs(272_678_883_688_448)));
}

#[test]
fn system_time_round_trips_through_every_id_type() {
    let epoch = Epoch::DEFAULT;
    let moment = system_time(VECTOR_UNIX_MS as u64, 0);
    let vector: UlidFlake = "00CMXB6TAK4SA".parse().unwrap();
    assert_eq!(UlidFlake::from_moment(epoch, moment, 627_498), Ok(vector));
    assert_eq!(vector.to_moment(epoch), Ok(moment));
    let id = Id::<User>::from_moment(epoch, moment, 627_498).unwrap();
    assert_eq!(id.to_ulid_flake(), vector);
    assert_eq!(id.to_moment(epoch), Ok(moment));
    let prefixed = PrefixedId::<User>::from_moment(epoch, moment, 627_498).unwrap();
    assert_eq!(prefixed.to_moment(epoch), Ok(moment));
    assert_eq!(
        (prefixed.unix_ms(epoch), prefixed.ms_since_epoch()),
        (1_717_653_966_666, 13_586_766_666)
    );
    // `SystemTime` holds every ID's moment, even of the latest epoch.
    assert_eq!(
        UlidFlake::MAX.to_moment(Epoch::MAX),
        Ok(system_time((1 << 48) - 1, 0))
    );
}

#[test]
fn a_moment_half_a_millisecond_before_1970_floors_to_the_millisecond_before() {
    let moment = UNIX_EPOCH - Duration::from_micros(500);
    assert_eq!(
        UlidFlake::from_moment(Epoch::UNIX, moment, 0),
        Err(out_of_range(-1))
    );
    assert_eq!(
        Generator::builder()
            .epoch(Epoch::UNIX)
            .build()
            .unwrap()
            .id_at(moment),
        Err(out_of_range(-1))
    );
    assert_eq!(
        Epoch::from_moment(moment),
        Err(Error::InvalidEpoch { found_unix_ms: -1 })
    );
    // Only the part before the window's first millisecond is clipped.
    assert_eq!(
        UlidFlake::range_for(Epoch::UNIX, moment..system_time(0, 1)),
        Some((UlidFlake::MIN, parts(0, RANDOMNESS_MAX)))
    );
}

#[test]
fn a_moment_inside_a_millisecond_makes_the_id_of_that_millisecond() {
    let moment = system_time(EPOCH_MS as u64 + 7, 999_999);
    assert_eq!(
        UlidFlake::from_moment(Epoch::DEFAULT, moment, 3),
        Ok(parts(7, 3))
    );
    assert_eq!(Generator::new().id_at(moment).unwrap().ms_since_epoch(), 7);
}

#[test]
fn a_window_that_ends_inside_a_millisecond_covers_it() {
    let at = |ms: u64, nanos| system_time(EPOCH_MS as u64 + ms, nanos);
    assert_eq!(
        UlidFlake::range_for(Epoch::DEFAULT, at(5, 0)..at(7, 1)),
        Some((parts(5, 0), parts(7, RANDOMNESS_MAX)))
    );
    // Ending on a millisecond excludes it: the end is exclusive.
    assert_eq!(
        UlidFlake::range_for(Epoch::DEFAULT, at(5, 0)..at(7, 0)),
        Some((parts(5, 0), parts(6, RANDOMNESS_MAX)))
    );
    // A window inside one millisecond covers it whole.
    assert_eq!(
        UlidFlake::range_for(Epoch::DEFAULT, at(5, 1)..at(5, 2)),
        Some((parts(5, 0), parts(5, RANDOMNESS_MAX)))
    );
}

#[test]
fn an_empty_window_inside_a_millisecond_covers_nothing() {
    let at = |nanos| system_time(EPOCH_MS as u64 + 5, nanos);
    assert_eq!(UlidFlake::range_for(Epoch::DEFAULT, at(1)..at(1)), None);
    assert_eq!(UlidFlake::range_for(Epoch::DEFAULT, at(2)..at(1)), None);
    assert_eq!(Id::<User>::range_for(Epoch::DEFAULT, at(1)..at(1)), None);
    assert_eq!(PrefixedId::<User>::range_for(Epoch::DEFAULT, at(1)..at(1)), None);
    // One nanosecond is a window: its millisecond, whole.
    assert_eq!(
        UlidFlake::range_for(Epoch::DEFAULT, at(1)..at(2)),
        Some((parts(5, 0), parts(5, RANDOMNESS_MAX)))
    );
}

#[test]
fn unix_ms_windows_are_those_of_epoch_milliseconds() {
    let window = |start: i64, end: i64| {
        UlidFlake::range_for(Epoch::DEFAULT, UnixMs(EPOCH_MS + start)..UnixMs(EPOCH_MS + end))
    };
    assert_eq!(
        window(5, 7),
        Some((parts(5, 0), parts(6, RANDOMNESS_MAX)))
    );
    assert_eq!(
        Id::<User>::range_for(Epoch::DEFAULT, UnixMs(EPOCH_MS + 5)..UnixMs(EPOCH_MS + 7))
            .map(|(lowest, highest)| (lowest.to_ulid_flake(), highest.to_ulid_flake())),
        window(5, 7)
    );
    let (lowest, highest) = PrefixedId::<User>::range_for(
        Epoch::DEFAULT,
        UnixMs(EPOCH_MS + 5)..UnixMs(EPOCH_MS + 7),
    )
    .unwrap();
    assert_eq!(
        (lowest.to_string(), highest.to_string()),
        ("user_0000000050000".to_owned(), "user_000000006ZZZZ".to_owned())
    );
    // Backwards: nothing.
    assert_eq!(window(7, 5), None);
}

/// On Unix a `SystemTime` holds `i64` seconds, far beyond the `i64` milliseconds (about
/// 2^53 s) that IDs are counted in.
#[cfg(unix)]
#[test]
fn moments_beyond_i64_milliseconds_saturate_instead_of_overflowing() {
    let far = Duration::from_secs(1 << 60);
    let (past, future) = (UNIX_EPOCH - far, UNIX_EPOCH + far);
    let epoch = i128::from(EPOCH_MS);
    let (min, max) = (i128::from(i64::MIN), i128::from(i64::MAX));
    assert_eq!(
        UlidFlake::from_moment(Epoch::DEFAULT, future, 0),
        Err(out_of_range(max - epoch))
    );
    assert_eq!(
        UlidFlake::from_moment(Epoch::DEFAULT, past, 0),
        Err(out_of_range(min - epoch))
    );
    assert_eq!(
        Generator::new().id_at(future),
        Err(out_of_range(max - epoch))
    );
    assert_eq!(
        Epoch::from_moment(future),
        Err(Error::InvalidEpoch { found_unix_ms: max })
    );
    assert_eq!(
        Epoch::from_moment(past),
        Err(Error::InvalidEpoch { found_unix_ms: min })
    );
    assert_eq!(
        UlidFlake::range_for(Epoch::DEFAULT, past..future),
        Some((UlidFlake::MIN, UlidFlake::MAX))
    );
    assert_eq!(UlidFlake::range_for(Epoch::DEFAULT, future..past), None);
    // The ends of `UnixMs` itself.
    assert_eq!(
        UlidFlake::range_for(Epoch::DEFAULT, UnixMs(i64::MIN)..UnixMs(i64::MAX)),
        Some((UlidFlake::MIN, UlidFlake::MAX))
    );
    assert_eq!(
        UlidFlake::from_moment(Epoch::DEFAULT, UnixMs(i64::MIN), 0),
        Err(out_of_range(min - epoch))
    );
}

#[test]
fn from_moment_reports_how_far_outside_the_epoch_a_moment_lies() {
    let epoch = Epoch::DEFAULT;
    let from = |unix_ms, randomness| UlidFlake::from_moment(epoch, UnixMs(unix_ms), randomness);
    assert_eq!(from(1_704_067_200_123, 0).map(UlidFlake::ms_since_epoch), Ok(123));
    assert_eq!(from(1_704_067_199_999, 0), Err(out_of_range(-1)));
    assert_eq!(from(0, 0), Err(out_of_range(-1_704_067_200_000)));
    assert_eq!(
        from(EPOCH_MS + MAX_TIMESTAMP as i64 + 1, 0),
        Err(out_of_range(i128::from(MAX_TIMESTAMP) + 1))
    );
    // The moment is checked before the randomness.
    assert_eq!(from(EPOCH_MS - 1, RANDOMNESS_MAX + 1), Err(out_of_range(-1)));
    assert_eq!(
        from(EPOCH_MS, RANDOMNESS_MAX + 1),
        Err(Error::RandomnessOutOfRange {
            found: RANDOMNESS_MAX + 1,
            max: RANDOMNESS_MAX
        })
    );
    assert_eq!(
        Id::<User>::from_moment(epoch, UnixMs(EPOCH_MS - 1), 0),
        Err(out_of_range(-1))
    );
    assert_eq!(
        PrefixedId::<User>::from_moment(epoch, UnixMs(EPOCH_MS - 1), 0),
        Err(out_of_range(-1))
    );
}

#[cfg(feature = "chrono04")]
mod chrono {
    use ::chrono::{DateTime, SecondsFormat, Utc};
    use ulid_flake_core::{Epoch, Id, UlidFlake};

    use super::{User, check, parts};

    #[test]
    fn chrono_date_times_at_the_boundary_milliseconds() {
        check(
            |text| DateTime::parse_from_rfc3339(text).unwrap().to_utc(),
            |moment: DateTime<Utc>| moment.to_rfc3339_opts(SecondsFormat::AutoSi, true),
        );
    }

    /// The moment of SPEC §5's vector, in a time zone other than UTC.
    fn moment() -> DateTime<::chrono::FixedOffset> {
        DateTime::parse_from_rfc3339("2024-06-06T08:06:06.666+02:00").unwrap()
    }

    #[test]
    fn chrono_typed_ids_convert_from_other_time_zones_and_back() {
        let moment = moment();
        let id = Id::<User>::from_moment(Epoch::DEFAULT, moment.to_utc(), 627_498).unwrap();
        assert_eq!(id.to_string(), "00CMXB6TAK4SA");
        assert_eq!(
            id.to_moment::<DateTime<Utc>>(Epoch::DEFAULT).unwrap(),
            moment
        );
    }

    #[test]
    fn chrono_windows_give_typed_bounds() {
        let moment = moment().to_utc();
        assert_eq!(
            Id::<User>::range_for(Epoch::DEFAULT, moment..moment),
            None
        );
        let (lowest, highest) = Id::<User>::range_for(
            Epoch::DEFAULT,
            moment..moment + ::chrono::TimeDelta::milliseconds(1),
        )
        .unwrap();
        assert_eq!(
            (lowest.to_ulid_flake(), highest.to_ulid_flake()),
            (
                parts(13_586_766_666, 0),
                parts(13_586_766_666, (1 << 20) - 1)
            )
        );
    }

    #[test]
    fn chrono_holds_every_moment_an_id_can_name() {
        // Even of the latest epoch.
        assert_eq!(
            UlidFlake::MAX
                .to_moment::<DateTime<Utc>>(Epoch::MAX)
                .map(|moment| moment.timestamp_millis()),
            Ok((1 << 48) - 1)
        );
    }

    #[test]
    fn a_leap_second_counts_into_the_next_second_as_in_chrono() {
        // chrono writes 23:59:60.5 as 23:59:59 with 1.5 s of nanoseconds; its own
        // `timestamp_millis` puts that half a second into the next day.
        let leap = ::chrono::NaiveDate::from_ymd_opt(2016, 12, 31)
            .unwrap()
            .and_hms_milli_opt(23, 59, 59, 1_500)
            .unwrap()
            .and_utc();
        let id = UlidFlake::from_moment(Epoch::UNIX, leap, 0).unwrap();
        assert_eq!(id.ms_since_epoch(), 1_483_228_800_500);
        assert_eq!(id.ms_since_epoch() as i64, leap.timestamp_millis());
    }
}

#[cfg(feature = "time03")]
mod time {
    use ::time::OffsetDateTime;
    use ::time::format_description::well_known::Rfc3339;
    use ::time::macros::datetime;
    use ulid_flake_core::{Epoch, Error, Id, UlidFlake};

    use super::{User, check, parts};

    #[test]
    fn time_offset_date_times_at_the_boundary_milliseconds() {
        check(
            |text| OffsetDateTime::parse(text, &Rfc3339).unwrap(),
            |moment: OffsetDateTime| {
                assert!(moment.offset().is_utc());
                moment.format(&Rfc3339).unwrap()
            },
        );
    }

    /// The moment of SPEC §5's vector, in a time zone other than UTC.
    const MOMENT: OffsetDateTime = datetime!(2024-06-06 8:06:06.666 +02:00);

    #[test]
    fn time_typed_ids_convert_both_ways() {
        let moment = MOMENT;
        let id = Id::<User>::from_moment(Epoch::DEFAULT, moment, 627_498).unwrap();
        assert_eq!(id.to_string(), "00CMXB6TAK4SA");
        assert_eq!(id.to_moment(Epoch::DEFAULT), Ok(moment));
    }

    #[test]
    fn time_windows_give_typed_bounds() {
        let moment = MOMENT;
        let (lowest, highest) = Id::<User>::range_for(
            Epoch::DEFAULT,
            moment..moment + ::time::Duration::milliseconds(1),
        )
        .unwrap();
        assert_eq!(
            (lowest.to_ulid_flake(), highest.to_ulid_flake()),
            (
                parts(13_586_766_666, 0),
                parts(13_586_766_666, (1 << 20) - 1)
            )
        );
    }

    #[test]
    fn moments_after_the_year_9999_are_out_of_time_s_range() {
        // The IDs of the latest epoch end in the year 10889, after OffsetDateTime's last moment.
        let error = Error::DateTimeOutOfRange {
            found_unix_ms: (1 << 48) - 1,
            max_unix_ms: 253_402_300_799_999,
        };
        assert_eq!(
            UlidFlake::MAX.to_moment::<OffsetDateTime>(Epoch::MAX),
            Err(error)
        );
        assert_eq!(
            error.to_string(),
            "moment out of range of the date-time type: expected at most Unix ms \
             253402300799999, found Unix ms 281474976710655"
        );
        // The latest epoch itself, in the year 10610.
        assert_eq!(
            Epoch::MAX.to_moment::<OffsetDateTime>(),
            Err(Error::DateTimeOutOfRange {
                found_unix_ms: 272_678_883_688_448,
                max_unix_ms: 253_402_300_799_999,
            })
        );
    }

    #[test]
    fn the_last_moment_of_the_year_9999_converts_to_time() {
        let last = Epoch::from_unix_ms(253_402_300_799_999 - super::MAX_TIMESTAMP).unwrap();
        assert_eq!(
            UlidFlake::MAX.to_moment(last),
            Ok(datetime!(9999-12-31 23:59:59.999 UTC))
        );
    }
}

#[cfg(feature = "jiff02")]
mod jiff {
    use std::time::SystemTime;

    use ::jiff::{Timestamp, ToSpan};
    use ulid_flake_core::{Epoch, Error, Id, UlidFlake};

    use super::{User, check, parts};

    #[test]
    fn jiff_timestamps_at_the_boundary_milliseconds() {
        check(
            |text| text.parse::<Timestamp>().unwrap(),
            |moment: Timestamp| moment.to_string(),
        );
    }

    /// `SystemTime` has no text of its own: jiff reads and writes it here.
    #[test]
    fn system_times_at_the_boundary_milliseconds() {
        check(
            |text| SystemTime::from(text.parse::<Timestamp>().unwrap()),
            |moment: SystemTime| Timestamp::try_from(moment).unwrap().to_string(),
        );
    }

    /// The moment of SPEC §5's vector.
    fn moment() -> Timestamp {
        "2024-06-06T06:06:06.666Z".parse().unwrap()
    }

    #[test]
    fn jiff_typed_ids_convert_both_ways() {
        let moment = moment();
        let id = Id::<User>::from_moment(Epoch::DEFAULT, moment, 627_498).unwrap();
        assert_eq!(id.to_string(), "00CMXB6TAK4SA");
        assert_eq!(id.to_moment(Epoch::DEFAULT), Ok(moment));
    }

    #[test]
    fn jiff_windows_give_typed_bounds() {
        let moment = moment();
        let (lowest, highest) =
            Id::<User>::range_for(Epoch::DEFAULT, moment..moment + 1.millisecond()).unwrap();
        assert_eq!(
            (lowest.to_ulid_flake(), highest.to_ulid_flake()),
            (
                parts(13_586_766_666, 0),
                parts(13_586_766_666, (1 << 20) - 1)
            )
        );
    }

    #[test]
    fn moments_after_the_year_9999_are_out_of_jiff_s_range() {
        assert_eq!(
            UlidFlake::MAX.to_moment::<Timestamp>(Epoch::MAX),
            Err(Error::DateTimeOutOfRange {
                found_unix_ms: (1 << 48) - 1,
                max_unix_ms: 253_402_207_200_999,
            })
        );
    }
}

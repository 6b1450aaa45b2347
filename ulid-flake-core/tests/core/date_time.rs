//! chrono, time and jiff: an ID's moment, IDs and ranges from each crate's UTC type, exact to
//! the millisecond at both ends of the default epoch's range.

use std::ops::Range;

use ulid_flake_core::generator::Generator;
use ulid_flake_core::{Epoch, Error, MAX_TIMESTAMP, UlidFlake};

const RANDOMNESS_MAX: u32 = (1 << 20) - 1;

/// One crate's conversions, so that every crate runs the same cases.
struct Api<M> {
    parse: fn(&str) -> M,
    /// The ID's moment as RFC 3339 (UTC, `Z`, the fraction only when not zero).
    rfc3339: fn(UlidFlake, Epoch) -> Result<String, Error>,
    from_parts: fn(M, Epoch, u32) -> Result<UlidFlake, Error>,
    generate: fn(&Generator, M) -> Result<UlidFlake, Error>,
    range: fn(Epoch, Range<M>) -> Option<(UlidFlake, UlidFlake)>,
}

fn parts(ms: u64, randomness: u32) -> UlidFlake {
    UlidFlake::from_parts(ms, randomness).unwrap()
}

fn out_of_range(found_ms: i128) -> Error {
    Error::TimestampOutOfRange { found_ms }
}

fn check<M>(api: &Api<M>) {
    let p = api.parse;
    let epoch = Epoch::DEFAULT;

    // The ID's moment, as exact RFC 3339 strings.
    let rfc3339 = |id| (api.rfc3339)(id, epoch).unwrap();
    assert_eq!(rfc3339(UlidFlake::MIN), "2024-01-01T00:00:00Z");
    assert_eq!(rfc3339(parts(5, 0)), "2024-01-01T00:00:00.005Z");
    assert_eq!(
        rfc3339("00CMXB6TAK4SA".parse().unwrap()),
        "2024-06-06T06:06:06.666Z"
    );
    assert_eq!(rfc3339(UlidFlake::MAX), "2302-09-27T15:10:22.207Z");
    assert_eq!(
        (api.rfc3339)(UlidFlake::MAX, Epoch::UNIX).unwrap(),
        "2248-09-26T15:10:22.207Z"
    );

    // The boundary milliseconds: the epoch, one before, the last, one after.
    let from = |text, randomness| (api.from_parts)(p(text), epoch, randomness);
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
        (api.from_parts)(p("1969-12-31T23:59:59.9999Z"), Epoch::UNIX, 0),
        Err(out_of_range(-1))
    );
    assert_eq!(
        from("2302-09-27T15:10:22.207999999Z", 0),
        Ok(parts(MAX_TIMESTAMP, 0))
    );

    // A generator: the moment's millisecond, fresh randomness, the same bounds.
    let generator = Generator::new();
    let generate = |text| (api.generate)(&generator, p(text));
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
    let range = |start, end| (api.range)(epoch, p(start)..p(end));
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

#[cfg(feature = "chrono04")]
mod chrono {
    use ::chrono::{DateTime, SecondsFormat, Utc};
    use ulid_flake_core::{Epoch, Id, UlidFlake};

    use super::{Api, check, parts};

    #[test]
    fn chrono_date_times_at_the_boundary_milliseconds() {
        check(&Api {
            parse: |text| DateTime::parse_from_rfc3339(text).unwrap().to_utc(),
            rfc3339: |id, epoch| {
                Ok(id
                    .to_chrono_date_time(epoch)
                    .to_rfc3339_opts(SecondsFormat::AutoSi, true))
            },
            from_parts: UlidFlake::from_chrono_date_time::<Utc>,
            generate: |generator, moment| generator.from_chrono_date_time(moment),
            range: Epoch::range_for_chrono_date_time::<Utc>,
        });
    }

    struct User;

    /// The moment of SPEC §5's vector, in a time zone other than UTC.
    fn moment() -> DateTime<::chrono::FixedOffset> {
        DateTime::parse_from_rfc3339("2024-06-06T08:06:06.666+02:00").unwrap()
    }

    #[test]
    fn chrono_typed_ids_convert_from_other_time_zones_and_back() {
        let moment = moment();
        let id = Id::<User>::from_chrono_date_time(moment, Epoch::DEFAULT, 627_498).unwrap();
        assert_eq!(id.to_string(), "00CMXB6TAK4SA");
        assert_eq!(id.to_chrono_date_time(Epoch::DEFAULT), moment);
    }

    #[test]
    fn chrono_windows_give_typed_bounds() {
        let moment = moment();
        assert_eq!(
            Id::<User>::range_for_chrono_date_time(Epoch::DEFAULT, moment..moment),
            None
        );
        let (lowest, highest) = Id::<User>::range_for_chrono_date_time(
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
                .to_chrono_date_time(Epoch::MAX)
                .timestamp_millis(),
            (1 << 48) - 1
        );
    }
}

#[cfg(feature = "time03")]
mod time {
    use ::time::OffsetDateTime;
    use ::time::format_description::well_known::Rfc3339;
    use ::time::macros::datetime;
    use ulid_flake_core::{Epoch, Error, Id, UlidFlake};

    use super::{Api, check, parts};

    #[test]
    fn time_offset_date_times_at_the_boundary_milliseconds() {
        check(&Api {
            parse: |text| OffsetDateTime::parse(text, &Rfc3339).unwrap(),
            rfc3339: |id, epoch| {
                let moment = id.to_offset_date_time(epoch)?;
                assert!(moment.offset().is_utc());
                Ok(moment.format(&Rfc3339).unwrap())
            },
            from_parts: UlidFlake::from_offset_date_time,
            generate: |generator, moment| generator.from_offset_date_time(moment),
            range: Epoch::range_for_offset_date_time,
        });
    }

    struct User;

    /// The moment of SPEC §5's vector, in a time zone other than UTC.
    const MOMENT: OffsetDateTime = datetime!(2024-06-06 8:06:06.666 +02:00);

    #[test]
    fn time_typed_ids_convert_both_ways() {
        let moment = MOMENT;
        let id = Id::<User>::from_offset_date_time(moment, Epoch::DEFAULT, 627_498).unwrap();
        assert_eq!(id.to_string(), "00CMXB6TAK4SA");
        assert_eq!(id.to_offset_date_time(Epoch::DEFAULT), Ok(moment));
    }

    #[test]
    fn time_windows_give_typed_bounds() {
        let moment = MOMENT;
        let (lowest, highest) = Id::<User>::range_for_offset_date_time(
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
        assert_eq!(UlidFlake::MAX.to_offset_date_time(Epoch::MAX), Err(error));
        assert_eq!(
            error.to_string(),
            "moment out of range of the date-time type: expected at most Unix ms \
             253402300799999, found Unix ms 281474976710655"
        );
    }

    #[test]
    fn the_last_moment_of_the_year_9999_converts_to_time() {
        let last = Epoch::from_unix_ms(253_402_300_799_999 - super::MAX_TIMESTAMP).unwrap();
        assert_eq!(
            UlidFlake::MAX.to_offset_date_time(last),
            Ok(datetime!(9999-12-31 23:59:59.999 UTC))
        );
    }
}

#[cfg(feature = "jiff02")]
mod jiff {
    use ::jiff::{Timestamp, ToSpan};
    use ulid_flake_core::{Epoch, Error, Id, UlidFlake};

    use super::{Api, check, parts};

    #[test]
    fn jiff_timestamps_at_the_boundary_milliseconds() {
        check(&Api {
            parse: |text| text.parse::<Timestamp>().unwrap(),
            rfc3339: |id, epoch| Ok(id.to_jiff_timestamp(epoch)?.to_string()),
            from_parts: UlidFlake::from_jiff_timestamp,
            generate: |generator, moment| generator.from_jiff_timestamp(moment),
            range: Epoch::range_for_jiff_timestamp,
        });
    }

    struct User;

    /// The moment of SPEC §5's vector.
    fn moment() -> Timestamp {
        "2024-06-06T06:06:06.666Z".parse().unwrap()
    }

    #[test]
    fn jiff_typed_ids_convert_both_ways() {
        let moment = moment();
        let id = Id::<User>::from_jiff_timestamp(moment, Epoch::DEFAULT, 627_498).unwrap();
        assert_eq!(id.to_string(), "00CMXB6TAK4SA");
        assert_eq!(id.to_jiff_timestamp(Epoch::DEFAULT), Ok(moment));
    }

    #[test]
    fn jiff_windows_give_typed_bounds() {
        let moment = moment();
        let (lowest, highest) =
            Id::<User>::range_for_jiff_timestamp(Epoch::DEFAULT, moment..moment + 1.millisecond())
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
    fn moments_after_the_year_9999_are_out_of_jiff_s_range() {
        assert_eq!(
            UlidFlake::MAX.to_jiff_timestamp(Epoch::MAX),
            Err(Error::DateTimeOutOfRange {
                found_unix_ms: (1 << 48) - 1,
                max_unix_ms: 253_402_207_200_999,
            })
        );
    }
}

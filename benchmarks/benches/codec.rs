//! Text: encoding (into a buffer, and with `to_string`) and validating parsing, against the
//! peers' own canonical texts and the straightforward Crockford codec.

use std::hint::black_box;
use std::str::FromStr;

use criterion::{Criterion, criterion_group, criterion_main};
use ferroid::base32::{Base32SnowExt, Base32UlidExt};
use ferroid::id::{SnowflakeTwitterId, ULID};
use ulid_flake_benchmarks::{baseline_decode, baseline_encode};
use ulid_flake_core::UlidFlake;

const TEXT: &str = "00CMXB6TAK4SA";

fn encode(c: &mut Criterion) {
    let mut group = c.benchmark_group("encode into a buffer");
    let id = UlidFlake::from_str(TEXT).unwrap();
    let mut buf = [0; 13];
    group.bench_function("ulid-flake", |b| {
        b.iter(|| black_box(black_box(id).encode(&mut buf)).len());
    });
    group.bench_function("baseline (table per 5 bits)", |b| {
        b.iter(|| black_box(baseline_encode(black_box(id.to_u64()), &mut buf)).len());
    });
    let ulid = ulid::Ulid::generate();
    let mut ulid_buf = [0; ulid::ULID_LEN];
    group.bench_function("ulid (array_to_str)", |b| {
        b.iter(|| black_box(black_box(ulid).array_to_str(&mut ulid_buf)).len());
    });
    let uuid = uuid::Uuid::now_v7();
    let mut uuid_buf = uuid::Uuid::encode_buffer();
    group.bench_function("uuid (hyphenated encode_lower)", |b| {
        b.iter(|| black_box(black_box(uuid).hyphenated().encode_lower(&mut uuid_buf)).len());
    });
    let scru128 = scru128::new();
    group.bench_function("scru128 (encode)", |b| {
        b.iter(|| black_box(black_box(scru128).encode()).len());
    });
    let snowflake = SnowflakeTwitterId::from_raw(id.to_u64());
    let mut snowflake_buf = SnowflakeTwitterId::base32_array();
    group.bench_function("ferroid snowflake (encode_to_buf)", |b| {
        b.iter(|| {
            black_box(
                black_box(snowflake)
                    .encode_to_buf(&mut snowflake_buf)
                    .as_str()
                    .len(),
            )
        });
    });
    let ferroid_ulid = ULID::from_raw(ulid.0);
    let mut ferroid_ulid_buf = ULID::base32_array();
    group.bench_function("ferroid ulid (encode_to_buf)", |b| {
        b.iter(|| {
            black_box(
                black_box(ferroid_ulid)
                    .encode_to_buf(&mut ferroid_ulid_buf)
                    .as_str()
                    .len(),
            )
        });
    });
    group.finish();

    let mut group = c.benchmark_group("encode with to_string");
    group.bench_function("ulid-flake", |b| {
        b.iter(|| black_box(black_box(id).to_string()));
    });
    group.bench_function("ulid", |b| {
        b.iter(|| black_box(black_box(ulid).to_string()));
    });
    group.bench_function("uuid", |b| {
        b.iter(|| black_box(black_box(uuid).to_string()));
    });
    group.bench_function("scru128", |b| {
        b.iter(|| black_box(black_box(scru128).to_string()));
    });
    let tsid = tsid::TSID::from(id.to_u64());
    group.bench_function("tsid", |b| {
        b.iter(|| black_box(black_box(&tsid).to_string()));
    });
    group.finish();
}

fn parse(c: &mut Criterion) {
    let mut group = c.benchmark_group("parse (validating)");
    group.bench_function("ulid-flake", |b| {
        b.iter(|| black_box(UlidFlake::parse_str(black_box(TEXT))));
    });
    group.bench_function("baseline (alphabet search)", |b| {
        b.iter(|| black_box(baseline_decode(black_box(TEXT))));
    });
    let ulid_text = ulid::Ulid::generate().to_string();
    group.bench_function("ulid (from_string)", |b| {
        b.iter(|| black_box(ulid::Ulid::from_string(black_box(&ulid_text))));
    });
    let uuid_text = uuid::Uuid::now_v7().to_string();
    group.bench_function("uuid (parse_str)", |b| {
        b.iter(|| black_box(uuid::Uuid::parse_str(black_box(&uuid_text))));
    });
    let scru128_text = scru128::new().to_string();
    group.bench_function("scru128 (from_str)", |b| {
        b.iter(|| black_box(scru128::Id::from_str(black_box(&scru128_text))));
    });
    group.bench_function("ferroid snowflake (decode)", |b| {
        b.iter(|| black_box(SnowflakeTwitterId::decode(black_box(TEXT))));
    });
    let ferroid_ulid_text = ulid_text.clone();
    group.bench_function("ferroid ulid (decode)", |b| {
        b.iter(|| black_box(ULID::decode(black_box(&ferroid_ulid_text))));
    });
    group.bench_function("tsid (try_from)", |b| {
        b.iter(|| black_box(tsid::TSID::try_from(black_box(TEXT))));
    });
    group.finish();
}

criterion_group!(benches, encode, parse);
criterion_main!(benches);

//! `serde_json`: a struct holding one ID against one holding a `u64`, the floor of the format.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};
use ulid_flake_core::{Id, UlidFlake};

#[derive(Serialize, Deserialize)]
struct WithId {
    id: Id<WithId>,
}

#[derive(Serialize, Deserialize)]
struct WithU64 {
    id: u64,
}

fn json(c: &mut Criterion) {
    let id = UlidFlake::parse_str("00CMXB6TAK4SA").unwrap();
    let with_id = WithId { id: id.into() };
    let with_u64 = WithU64 { id: id.to_u64() };
    let id_json = serde_json::to_string(&with_id).unwrap();
    let u64_json = serde_json::to_string(&with_u64).unwrap();

    let mut group = c.benchmark_group("serde_json");
    group.bench_function("serialize Id<T>", |b| {
        b.iter(|| black_box(serde_json::to_string(black_box(&with_id)).unwrap()));
    });
    group.bench_function("serialize u64", |b| {
        b.iter(|| black_box(serde_json::to_string(black_box(&with_u64)).unwrap()));
    });
    group.bench_function("deserialize Id<T>", |b| {
        b.iter(|| black_box(serde_json::from_str::<WithId>(black_box(&id_json)).unwrap()));
    });
    group.bench_function("deserialize u64", |b| {
        b.iter(|| black_box(serde_json::from_str::<WithU64>(black_box(&u64_json)).unwrap()));
    });
    group.bench_function("round trip Id<T>", |b| {
        b.iter(|| {
            let text = serde_json::to_string(black_box(&with_id)).unwrap();
            black_box(serde_json::from_str::<WithId>(&text).unwrap())
        });
    });
    group.bench_function("round trip u64", |b| {
        b.iter(|| {
            let text = serde_json::to_string(black_box(&with_u64)).unwrap();
            black_box(serde_json::from_str::<WithU64>(&text).unwrap())
        });
    });
    group.finish();
}

criterion_group!(benches, json);
criterion_main!(benches);

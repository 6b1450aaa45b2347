//! The database-scale benchmark, a binary run on demand (not a test): `scripts/bench-db.sh`
//! runs it in full; `scripts/test.sh` runs it in smoke mode (`--smoke`) so that it cannot rot.
//!
//! On PostgreSQL (`ULID_FLAKE_TEST_POSTGRES_URL`) and MariaDB with InnoDB
//! (`ULID_FLAKE_TEST_MYSQL_URL`), both started by `scripts/with-databases.sh`, it fills one
//! table per kind of primary key:
//!
//! | key | PostgreSQL | MariaDB |
//! |---|---|---|
//! | auto-increment (the baseline) | `BIGINT GENERATED ALWAYS AS IDENTITY` | `BIGINT AUTO_INCREMENT` |
//! | Ulid-Flake, `Id<T>` from the core's `Generator` | `BIGINT` | `BIGINT` |
//! | UUIDv7 | `uuid` | `UUID` (native since 10.7; since 10.11.5 it stores v6+ unswapped, in byte order) |
//! | UUIDv4 | `uuid` | `UUID` |
//!
//! MariaDB's native `UUID` rather than `BINARY(16)`: the same 16 bytes, and on this server
//! version (10.11.5 and later) a UUIDv7 is kept in its own byte order, so both are time-ordered
//! the same way; sqlx binds a `Uuid` as those 16 bytes either way.
//!
//! Every table has the same payload, `created_at` (a millisecond timestamp) and `body` (a text
//! of about 40 characters), and the same secondary index on `created_at`: the only difference
//! is the key. Rows go in through sqlx in multi-row `INSERT … VALUES` statements of `--batch`
//! rows (1,000), one statement per transaction, on one connection; keys and timestamps are
//! made while the batch is built, as an application would. `created_at` is the key's own
//! timestamp for Ulid-Flake and UUIDv7, the system clock for the others.
//!
//! The kinds run one after another, each on a fresh table that is dropped once measured (so
//! the next one has the disk and the buffer cache to itself), after an untimed round of all
//! four on 10 batches that warms up the connection and the server.
//!
//! Reported, as Markdown on stdout, with ratios against the auto-increment key:
//!
//! - the insert rate of every segment of `--segment` rows (500,000), and over all rows;
//! - sizes after `VACUUM (ANALYZE)` / `ANALYZE TABLE`. PostgreSQL: `pg_table_size` (heap) and
//!   `pg_relation_size` of the primary-key and `created_at` indexes. MariaDB:
//!   `information_schema.TABLES`' `DATA_LENGTH` and `INDEX_LENGTH`. InnoDB clusters the table
//!   on its primary key, so the primary index *is* the table (`DATA_LENGTH`: rows and key
//!   together) and the secondary index holds a copy of the key in every entry
//!   (`INDEX_LENGTH`); the size of the key's own B-tree levels is not measurable apart;
//! - point lookups (`WHERE id = ?`, one row each) on `--lookups` (10,000) random existing keys,
//!   p50 and p99;
//! - a time-window range scan fetching the rows made during a window that holds 1% of them
//!   (the median of `--scans` runs). Every kind answers it through the `created_at` index,
//!   which all four tables carry; Ulid-Flake (`Id::range_for`) and UUIDv7 (the same
//!   millisecond bounds in its first 48 bits) also answer it through the primary key alone,
//!   which UUIDv4 and auto-increment keys cannot (`—`). Both ways must return the same rows.
//!
//! Also written: a CSV of the segment rates (`--csv`, default `benchmarks/db-insert-rate.csv`)
//! and an SVG chart of the insert rate over rows, four lines per database (`--svg`, default
//! `benchmarks/db-insert-rate.svg`, committed next to BENCHMARKS.md).
//!
//! ```text
//! db [--rows N] [--segment N] [--batch N] [--lookups N] [--scans N]
//!    [--databases postgres,mariadb] [--csv PATH] [--svg PATH] [--smoke]
//! ```
//!
//! `--smoke` runs 5,000 rows in segments of 1,000 with 1,000 lookups and writes the CSV and
//! SVG to the temp directory unless given paths, and prints no progress: it takes seconds.

use std::fmt::Write as _;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, NaiveDateTime, Utc};
use sqlx::{AssertSqlSafe, MySql, MySqlPool, PgPool, Postgres, QueryBuilder};
use ulid_flake_core::generator::Generator;
use ulid_flake_core::{Epoch, Id, UnixMs};
use uuid::Uuid;

/// The rows' type, for `Id<Event>`.
struct Event;

/// The settings, from the command line.
#[derive(Clone, Debug)]
struct Settings {
    rows: usize,
    segment: usize,
    batch: usize,
    lookups: usize,
    scans: usize,
    databases: Vec<Database>,
    csv: String,
    svg: String,
    /// Whether to print every segment's rate to stderr as it ends (not in smoke mode).
    progress: bool,
}

impl Settings {
    fn from_args() -> Self {
        let mut args = std::env::args().skip(1).collect::<Vec<_>>();
        let smoke = args.iter().any(|arg| arg == "--smoke");
        args.retain(|arg| arg != "--smoke");
        let temp = std::env::temp_dir();
        let mut settings = if smoke {
            Self {
                rows: 5_000,
                segment: 1_000,
                batch: 1_000,
                lookups: 1_000,
                scans: 3,
                databases: vec![Database::Postgres, Database::MariaDb],
                csv: temp.join("db-insert-rate.csv").display().to_string(),
                svg: temp.join("db-insert-rate.svg").display().to_string(),
                progress: false,
            }
        } else {
            Self {
                rows: 5_000_000,
                segment: 500_000,
                batch: 1_000,
                lookups: 10_000,
                scans: 5,
                databases: vec![Database::Postgres, Database::MariaDb],
                csv: "benchmarks/db-insert-rate.csv".into(),
                svg: "benchmarks/db-insert-rate.svg".into(),
                progress: true,
            }
        };
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let value = args
                .next()
                .unwrap_or_else(|| usage(&format!("expected a value after {flag}, found none")));
            let number = || {
                value
                    .replace('_', "")
                    .parse::<usize>()
                    .ok()
                    .filter(|&number| number > 0)
                    .unwrap_or_else(|| {
                        usage(&format!(
                            "expected a positive number for {flag}, found {value}"
                        ))
                    })
            };
            match flag.as_str() {
                "--rows" => settings.rows = number(),
                "--segment" => settings.segment = number(),
                "--batch" => settings.batch = number(),
                "--lookups" => settings.lookups = number(),
                "--scans" => settings.scans = number(),
                "--csv" => settings.csv = value,
                "--svg" => settings.svg = value,
                "--databases" => {
                    settings.databases = value
                        .split(',')
                        .map(|name| match name {
                            "postgres" => Database::Postgres,
                            "mariadb" => Database::MariaDb,
                            _ => usage(&format!(
                                "expected postgres or mariadb in --databases, found {name}"
                            )),
                        })
                        .collect();
                }
                _ => usage(&format!("expected an option, found {flag}")),
            }
        }
        if settings.segment % settings.batch != 0 || settings.rows % settings.segment != 0 {
            usage(&format!(
                "expected --rows a multiple of --segment, a multiple of --batch, found {} / {} / {}",
                settings.rows, settings.segment, settings.batch
            ));
        }
        settings
    }
}

fn usage(problem: &str) -> ! {
    eprintln!("db: {problem}");
    eprintln!(
        "usage: db [--rows N] [--segment N] [--batch N] [--lookups N] [--scans N] \
         [--databases postgres,mariadb] [--csv PATH] [--svg PATH] [--smoke]"
    );
    std::process::exit(2)
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Database {
    Postgres,
    MariaDb,
}

impl Database {
    fn name(self) -> &'static str {
        match self {
            Self::Postgres => "PostgreSQL",
            Self::MariaDb => "MariaDB",
        }
    }
}

/// The kinds of primary key, the baseline first.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    AutoIncrement,
    UlidFlake,
    UuidV7,
    UuidV4,
}

impl Kind {
    const ALL: [Self; 4] = [
        Self::AutoIncrement,
        Self::UlidFlake,
        Self::UuidV7,
        Self::UuidV4,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::AutoIncrement => "auto-increment",
            Self::UlidFlake => "Ulid-Flake",
            Self::UuidV7 => "UUIDv7",
            Self::UuidV4 => "UUIDv4",
        }
    }

    fn table(self) -> &'static str {
        match self {
            Self::AutoIncrement => "bench_auto_increment",
            Self::UlidFlake => "bench_ulid_flake",
            Self::UuidV7 => "bench_uuid_v7",
            Self::UuidV4 => "bench_uuid_v4",
        }
    }

    fn column(self, database: Database) -> &'static str {
        match (self, database) {
            (Self::AutoIncrement, Database::Postgres) => "BIGINT GENERATED ALWAYS AS IDENTITY",
            (Self::AutoIncrement, Database::MariaDb) => "BIGINT AUTO_INCREMENT",
            (Self::UlidFlake, _) => "BIGINT",
            (Self::UuidV7 | Self::UuidV4, Database::Postgres) => "uuid",
            (Self::UuidV7 | Self::UuidV4, Database::MariaDb) => "UUID",
        }
    }

    /// The SVG line colour.
    fn colour(self) -> &'static str {
        match self {
            Self::AutoIncrement => "#7f7f7f",
            Self::UlidFlake => "#d62728",
            Self::UuidV7 => "#1f77b4",
            Self::UuidV4 => "#ff7f0e",
        }
    }
}

/// One row's key; `None` when the database assigns it.
#[derive(Clone, Copy)]
enum Key {
    None,
    UlidFlake(Id<Event>),
    Uuid(Uuid),
}

/// The keys of a filled table, for the lookups.
enum Keys {
    AutoIncrement,
    UlidFlake(Vec<Id<Event>>),
    Uuid(Vec<Uuid>),
}

impl Keys {
    fn get(&self, row: usize) -> Key {
        match self {
            // A fresh table's identity/auto-increment values are 1, 2, 3, … in insert order.
            Self::AutoIncrement => Key::None,
            Self::UlidFlake(ids) => Key::UlidFlake(ids[row]),
            Self::Uuid(uuids) => Key::Uuid(uuids[row]),
        }
    }
}

/// A row about to be inserted.
struct Row {
    key: Key,
    created_ms: i64,
    body: String,
}

/// Makes rows as an application would: the key, its timestamp and a payload.
struct RowMaker {
    kind: Kind,
    generator: Generator,
}

impl RowMaker {
    fn row(&self, index: usize) -> Row {
        let (key, created_ms) = match self.kind {
            Kind::AutoIncrement => (Key::None, unix_ms_now()),
            Kind::UlidFlake => {
                let id: Id<Event> = self.generator.generate().unwrap().into();
                (Key::UlidFlake(id), id.unix_ms(Epoch::DEFAULT) as i64)
            }
            Kind::UuidV7 => {
                let uuid = Uuid::now_v7();
                (Key::Uuid(uuid), (uuid.as_u128() >> 80) as i64)
            }
            Kind::UuidV4 => (Key::Uuid(Uuid::new_v4()), unix_ms_now()),
        };
        let body = format!(
            "order {index:09} shipped to warehouse {:02}, 3 parcels",
            index % 97
        );
        Row {
            key,
            created_ms,
            body,
        }
    }
}

fn unix_ms_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

fn utc(unix_ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(unix_ms).unwrap()
}

fn naive_utc_time(unix_ms: i64) -> NaiveDateTime {
    utc(unix_ms).naive_utc()
}

/// A connection pool to either database; the methods hide their dialects.
enum Pool {
    Postgres(PgPool),
    MariaDb(MySqlPool),
}

/// The sizes of a filled table, in bytes.
struct Sizes {
    /// PostgreSQL: the heap (`pg_table_size`); MariaDB: the clustered primary index with the
    /// rows in it (`DATA_LENGTH`).
    table: i64,
    /// PostgreSQL: the primary-key index; MariaDB: not measurable apart from the table.
    primary_index: Option<i64>,
    /// The `created_at` index (MariaDB: `INDEX_LENGTH`, all secondary indexes).
    created_at_index: i64,
}

impl Pool {
    async fn connect(database: Database) -> Self {
        let (variable, script) = match database {
            Database::Postgres => ("ULID_FLAKE_TEST_POSTGRES_URL", "PostgreSQL"),
            Database::MariaDb => ("ULID_FLAKE_TEST_MYSQL_URL", "MariaDB"),
        };
        let url = std::env::var(variable).unwrap_or_else(|_| {
            panic!("expected {variable} set, found none: run through scripts/with-databases.sh, which starts {script}")
        });
        // One connection: the inserts and lookups are sequential, as one client's would be.
        let options = sqlx::pool::PoolOptions::new().max_connections(1);
        match database {
            Database::Postgres => Self::Postgres(options.connect(&url).await.unwrap()),
            Database::MariaDb => Self::MariaDb(
                sqlx::pool::PoolOptions::new()
                    .max_connections(1)
                    .connect(&url)
                    .await
                    .unwrap(),
            ),
        }
    }

    fn database(&self) -> Database {
        match self {
            Self::Postgres(_) => Database::Postgres,
            Self::MariaDb(_) => Database::MariaDb,
        }
    }

    async fn execute(&self, sql: String) {
        match self {
            Self::Postgres(pool) => sqlx::raw_sql(AssertSqlSafe(sql))
                .execute(pool)
                .await
                .map(drop),
            Self::MariaDb(pool) => sqlx::raw_sql(AssertSqlSafe(sql))
                .execute(pool)
                .await
                .map(drop),
        }
        .unwrap();
    }

    /// The server's version and the size of its buffer cache, for the report's heading.
    async fn describe(&self) -> String {
        match self {
            Self::Postgres(pool) => {
                let (version, buffers): (String, String) = sqlx::query_as(
                    "SELECT current_setting('server_version'), current_setting('shared_buffers')",
                )
                .fetch_one(pool)
                .await
                .unwrap();
                // "15.18 (Debian 15.18-0+deb12u1)": the number is enough.
                let version = version.split_whitespace().next().unwrap_or_default();
                format!("PostgreSQL {version} (shared_buffers {buffers})")
            }
            Self::MariaDb(pool) => {
                let (version, buffer_pool): (String, u64) =
                    sqlx::query_as("SELECT VERSION(), @@innodb_buffer_pool_size")
                        .fetch_one(pool)
                        .await
                        .unwrap();
                // "10.11.19-MariaDB-0+deb12u1": the number is enough.
                let version = version.split('-').next().unwrap_or_default();
                format!(
                    "MariaDB {version}, InnoDB (buffer pool {} MiB)",
                    buffer_pool >> 20
                )
            }
        }
    }

    async fn create(&self, kind: Kind) {
        let table = kind.table();
        let column = kind.column(self.database());
        let text = match self.database() {
            Database::Postgres => "created_at timestamptz(3) NOT NULL, body text NOT NULL",
            Database::MariaDb => "created_at DATETIME(3) NOT NULL, body VARCHAR(255) NOT NULL",
        };
        let engine = match self.database() {
            Database::Postgres => "",
            Database::MariaDb => " ENGINE=InnoDB",
        };
        self.execute(format!("DROP TABLE IF EXISTS {table}")).await;
        self.execute(format!(
            "CREATE TABLE {table} (id {column} PRIMARY KEY, {text}){engine}"
        ))
        .await;
        self.execute(format!(
            "CREATE INDEX {table}_created_at ON {table} (created_at)"
        ))
        .await;
    }

    async fn insert(&self, kind: Kind, rows: &[Row]) {
        let table = kind.table();
        let columns = if kind == Kind::AutoIncrement {
            "created_at, body"
        } else {
            "id, created_at, body"
        };
        let sql = format!("INSERT INTO {table} ({columns}) ");
        match self {
            Self::Postgres(pool) => {
                let mut builder = QueryBuilder::<Postgres>::new(sql);
                builder.push_values(rows, |mut values, row| {
                    match row.key {
                        Key::None => &mut values,
                        Key::UlidFlake(id) => values.push_bind(id),
                        Key::Uuid(uuid) => values.push_bind(uuid),
                    }
                    .push_bind(utc(row.created_ms))
                    .push_bind(row.body.clone());
                });
                builder.build().execute(pool).await.unwrap();
            }
            Self::MariaDb(pool) => {
                let mut builder = QueryBuilder::<MySql>::new(sql);
                builder.push_values(rows, |mut values, row| {
                    match row.key {
                        Key::None => &mut values,
                        Key::UlidFlake(id) => values.push_bind(id),
                        Key::Uuid(uuid) => values.push_bind(uuid),
                    }
                    .push_bind(naive_utc_time(row.created_ms))
                    .push_bind(row.body.clone());
                });
                builder.build().execute(pool).await.unwrap();
            }
        }
    }

    async fn sizes(&self, kind: Kind) -> Sizes {
        let table = kind.table();
        match self {
            Self::Postgres(pool) => {
                self.execute(format!("VACUUM (ANALYZE) {table}")).await;
                let (table, primary_index, created_at_index): (i64, i64, i64) =
                    sqlx::query_as(AssertSqlSafe(format!(
                        "SELECT pg_table_size('{table}'), pg_relation_size('{table}_pkey'), \
                         pg_relation_size('{table}_created_at')"
                    )))
                    .fetch_one(pool)
                    .await
                    .unwrap();
                Sizes {
                    table,
                    primary_index: Some(primary_index),
                    created_at_index,
                }
            }
            Self::MariaDb(pool) => {
                sqlx::query(AssertSqlSafe(format!("ANALYZE TABLE {table}")))
                    .fetch_all(pool)
                    .await
                    .unwrap();
                let (data, index): (u64, u64) = sqlx::query_as(
                    "SELECT DATA_LENGTH, INDEX_LENGTH FROM information_schema.TABLES \
                     WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?",
                )
                .bind(table)
                .fetch_one(pool)
                .await
                .unwrap();
                Sizes {
                    table: data as i64,
                    primary_index: None,
                    created_at_index: index as i64,
                }
            }
        }
    }

    /// One point lookup; panics unless exactly one row has the key.
    async fn lookup(&self, kind: Kind, key: Key, row: usize) -> Duration {
        let sql = format!("SELECT created_at, body FROM {} WHERE id = ", kind.table());
        let auto_increment = row as i64 + 1;
        let start = Instant::now();
        let found = match self {
            Self::Postgres(pool) => {
                let mut builder = QueryBuilder::<Postgres>::new(sql);
                match key {
                    Key::None => builder.push_bind(auto_increment),
                    Key::UlidFlake(id) => builder.push_bind(id),
                    Key::Uuid(uuid) => builder.push_bind(uuid),
                };
                builder.build().fetch_all(pool).await.unwrap().len()
            }
            Self::MariaDb(pool) => {
                let mut builder = QueryBuilder::<MySql>::new(sql);
                match key {
                    Key::None => builder.push_bind(auto_increment),
                    Key::UlidFlake(id) => builder.push_bind(id),
                    Key::Uuid(uuid) => builder.push_bind(uuid),
                };
                builder.build().fetch_all(pool).await.unwrap().len()
            }
        };
        let elapsed = start.elapsed();
        assert_eq!(found, 1, "expected one row for row {row}, found {found}");
        elapsed
    }

    /// Fetches the rows made during `window` (Unix milliseconds, end exclusive), through the
    /// key (`by_key`) or the `created_at` index: the time and the number of rows.
    async fn scan(
        &self,
        kind: Kind,
        window: std::ops::Range<i64>,
        by_key: bool,
    ) -> (Duration, usize) {
        let table = kind.table();
        let condition = if by_key {
            "id BETWEEN "
        } else {
            "created_at >= "
        };
        let sql = format!("SELECT id, created_at, body FROM {table} WHERE {condition}");
        let separator = if by_key {
            " AND "
        } else {
            " AND created_at < "
        };
        let (lowest, highest) = match kind {
            Kind::UlidFlake => {
                let (lowest, highest) = Id::<Event>::range_for(
                    Epoch::DEFAULT,
                    UnixMs(window.start)..UnixMs(window.end),
                )
                .unwrap();
                (Key::UlidFlake(lowest), Key::UlidFlake(highest))
            }
            // The lowest and highest UUIDv7 (version and variant bits set) of the window's
            // milliseconds.
            _ => (
                Key::Uuid(Uuid::from_u128(
                    (window.start as u128) << 80 | 0x7000 << 64 | 0x8000_0000_0000_0000,
                )),
                Key::Uuid(Uuid::from_u128(
                    ((window.end - 1) as u128) << 80 | 0x7fff << 64 | 0xbfff_ffff_ffff_ffff,
                )),
            ),
        };
        let start = Instant::now();
        // One query for both databases; only the driver and its time type differ.
        macro_rules! scan {
            ($database:ty, $pool:expr, $time:expr) => {{
                let mut builder = QueryBuilder::<$database>::new(sql);
                if by_key {
                    for (index, key) in [lowest, highest].into_iter().enumerate() {
                        if index == 1 {
                            builder.push(separator);
                        }
                        match key {
                            Key::UlidFlake(id) => builder.push_bind(id),
                            Key::Uuid(uuid) => builder.push_bind(uuid),
                            Key::None => unreachable!(),
                        };
                    }
                } else {
                    builder
                        .push_bind($time(window.start))
                        .push(separator)
                        .push_bind($time(window.end));
                }
                builder.build().fetch_all($pool).await.unwrap().len()
            }};
        }
        let rows = match self {
            Self::Postgres(pool) => scan!(Postgres, pool, utc),
            Self::MariaDb(pool) => scan!(MySql, pool, naive_utc_time),
        };
        (start.elapsed(), rows)
    }
}

/// The measurements of one kind of key on one database.
struct Measured {
    kind: Kind,
    /// The insert time of each segment.
    segments: Vec<Duration>,
    sizes: Sizes,
    lookup_p50: Duration,
    lookup_p99: Duration,
    /// The rows in the scanned window, and the median scan times.
    scan_rows: usize,
    scan_by_key: Option<Duration>,
    scan_by_created_at: Duration,
}

/// The measurements of every kind of key on one database.
struct Outcome {
    database: Database,
    /// The server's version and buffer cache.
    heading: String,
    /// In the order of [`Kind::ALL`].
    results: Vec<Measured>,
}

/// A small deterministic generator of random indexes (`SplitMix64`).
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, bound: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % bound as u64) as usize
    }
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

async fn measure(pool: &Pool, kind: Kind, settings: &Settings) -> Measured {
    let name = kind.name();
    let database = pool.database();
    pool.create(kind).await;
    let maker = RowMaker {
        kind,
        generator: Generator::new(),
    };
    let mut created = Vec::with_capacity(settings.rows);
    let mut keys = match kind {
        Kind::AutoIncrement => Keys::AutoIncrement,
        Kind::UlidFlake => Keys::UlidFlake(Vec::with_capacity(settings.rows)),
        Kind::UuidV7 | Kind::UuidV4 => Keys::Uuid(Vec::with_capacity(settings.rows)),
    };
    let mut segments = Vec::new();
    let mut batch = Vec::with_capacity(settings.batch);
    for segment_start in (0..settings.rows).step_by(settings.segment) {
        let start = Instant::now();
        for batch_start in (segment_start..segment_start + settings.segment).step_by(settings.batch)
        {
            batch.clear();
            batch.extend((batch_start..batch_start + settings.batch).map(|index| maker.row(index)));
            pool.insert(kind, &batch).await;
            for row in &batch {
                created.push(row.created_ms);
                match (&mut keys, row.key) {
                    (Keys::UlidFlake(ids), Key::UlidFlake(id)) => ids.push(id),
                    (Keys::Uuid(uuids), Key::Uuid(uuid)) => uuids.push(uuid),
                    _ => {}
                }
            }
        }
        let elapsed = start.elapsed();
        segments.push(elapsed);
        if settings.progress {
            eprintln!(
                "db: {} {name}: {} rows, {:.0} rows/s",
                database.name(),
                segment_start + settings.segment,
                settings.segment as f64 / elapsed.as_secs_f64()
            );
        }
    }

    let sizes = pool.sizes(kind).await;

    // Untimed lookups first, so that the first kind does not pay for the connection's warm-up.
    let mut random = SplitMix(0x0ddba11);
    for _ in 0..settings.lookups / 10 {
        let row = random.below(settings.rows);
        pool.lookup(kind, keys.get(row), row).await;
    }
    let mut random = SplitMix(0x5eed);
    let mut lookups = Vec::with_capacity(settings.lookups);
    for _ in 0..settings.lookups {
        let row = random.below(settings.rows);
        lookups.push(pool.lookup(kind, keys.get(row), row).await);
    }
    lookups.sort();
    let percentile = |p: usize| lookups[(lookups.len() * p / 100).min(lookups.len() - 1)];

    // A window of whole milliseconds from the row at 45% that holds at least 1% of the rows.
    let first = settings.rows * 45 / 100;
    let window_start = created[first];
    let window_end =
        created[(first + settings.rows / 100).min(settings.rows - 1)].max(window_start) + 1;
    let expected = created
        .iter()
        .filter(|&&ms| (window_start..window_end).contains(&ms))
        .count();
    let mut by_key = Vec::new();
    let mut by_created_at = Vec::new();
    for _ in 0..settings.scans {
        if matches!(kind, Kind::UlidFlake | Kind::UuidV7) {
            let (elapsed, rows) = pool.scan(kind, window_start..window_end, true).await;
            assert_eq!(
                rows, expected,
                "{name} by key: expected {expected} rows, found {rows}"
            );
            by_key.push(elapsed);
        }
        let (elapsed, rows) = pool.scan(kind, window_start..window_end, false).await;
        assert_eq!(
            rows, expected,
            "{name} by created_at: expected {expected} rows, found {rows}"
        );
        by_created_at.push(elapsed);
    }
    // Leave the disk and the buffer cache to the next kind.
    pool.execute(format!("DROP TABLE {}", kind.table())).await;

    Measured {
        kind,
        segments,
        sizes,
        lookup_p50: percentile(50),
        lookup_p99: percentile(99),
        scan_rows: expected,
        scan_by_key: (!by_key.is_empty()).then(|| median(by_key)),
        scan_by_created_at: median(by_created_at),
    }
}

fn rate(rows: usize, time: Duration) -> f64 {
    rows as f64 / time.as_secs_f64()
}

fn mib(bytes: i64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

fn ms(time: Duration) -> String {
    format!("{:.3} ms", time.as_secs_f64() * 1e3)
}

/// The Markdown report of one database.
fn report(settings: &Settings, outcome: &Outcome) -> String {
    let Outcome {
        database,
        heading,
        results,
    } = outcome;
    let base = &results[0];
    assert!(base.kind == Kind::AutoIncrement);
    let ratio = |value: f64, baseline: f64| format!("{:.2} ×", value / baseline);
    let total = |result: &Measured| result.segments.iter().sum::<Duration>();
    let mut out = String::new();
    let header = results
        .iter()
        .map(|r| r.kind.name())
        .collect::<Vec<_>>()
        .join(" | ");
    writeln!(out, "### {heading}\n").unwrap();
    writeln!(
        out,
        "Insert rate (rows/s) of each segment of {} rows:\n",
        settings.segment
    )
    .unwrap();
    writeln!(out, "| rows | {header} |").unwrap();
    writeln!(out, "|---:|{}", "---:|".repeat(results.len())).unwrap();
    for segment in 0..base.segments.len() {
        let cells = results
            .iter()
            .map(|r| format!("{:.0}", rate(settings.segment, r.segments[segment])))
            .collect::<Vec<_>>()
            .join(" | ");
        writeln!(out, "| {} | {cells} |", (segment + 1) * settings.segment).unwrap();
    }
    writeln!(
        out,
        "\n| key | rows/s, all rows | × auto-increment | rows/s, last segment | × auto-increment |"
    )
    .unwrap();
    writeln!(out, "|---|---:|---:|---:|---:|").unwrap();
    let last = |r: &Measured| rate(settings.segment, *r.segments.last().unwrap());
    for r in results {
        writeln!(
            out,
            "| {} | {:.0} | {} | {:.0} | {} |",
            r.kind.name(),
            rate(settings.rows, total(r)),
            ratio(total(base).as_secs_f64(), total(r).as_secs_f64()),
            last(r),
            ratio(last(r), last(base)),
        )
        .unwrap();
    }
    let (table, primary) = match database {
        Database::Postgres => ("table (heap)", "primary-key index"),
        Database::MariaDb => (
            "table = clustered primary index (DATA_LENGTH)",
            "primary-key index",
        ),
    };
    writeln!(out, "\n| key | {table} | × auto-increment | {primary} | × auto-increment | created_at index | × auto-increment |").unwrap();
    writeln!(out, "|---|---:|---:|---:|---:|---:|---:|").unwrap();
    for r in results {
        let (primary, primary_ratio) = match (r.sizes.primary_index, base.sizes.primary_index) {
            (Some(bytes), Some(base)) => (mib(bytes), ratio(bytes as f64, base as f64)),
            _ => ("in the table".into(), "—".into()),
        };
        writeln!(
            out,
            "| {} | {} | {} | {primary} | {primary_ratio} | {} | {} |",
            r.kind.name(),
            mib(r.sizes.table),
            ratio(r.sizes.table as f64, base.sizes.table as f64),
            mib(r.sizes.created_at_index),
            ratio(
                r.sizes.created_at_index as f64,
                base.sizes.created_at_index as f64
            ),
        )
        .unwrap();
    }
    writeln!(
        out,
        "\n| key | lookup p50 | × auto-increment | lookup p99 | × auto-increment | window: rows | by key | by created_at | × auto-increment (best way) |"
    )
    .unwrap();
    writeln!(out, "|---|---:|---:|---:|---:|---:|---:|---:|---:|").unwrap();
    for r in results {
        let best = r.scan_by_key.map_or(r.scan_by_created_at, |by_key| {
            by_key.min(r.scan_by_created_at)
        });
        writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.kind.name(),
            ms(r.lookup_p50),
            ratio(r.lookup_p50.as_secs_f64(), base.lookup_p50.as_secs_f64()),
            ms(r.lookup_p99),
            ratio(r.lookup_p99.as_secs_f64(), base.lookup_p99.as_secs_f64()),
            r.scan_rows,
            r.scan_by_key.map_or("—".into(), ms),
            ms(r.scan_by_created_at),
            ratio(best.as_secs_f64(), base.scan_by_created_at.as_secs_f64()),
        )
        .unwrap();
    }
    out
}

/// The CSV of every segment's rate.
fn csv(settings: &Settings, all: &[Outcome]) -> String {
    let mut out = String::from("database,key,rows,segment_rows,seconds,rows_per_second\n");
    for Outcome {
        database, results, ..
    } in all
    {
        let database = database.name();
        for r in results {
            for (segment, time) in r.segments.iter().enumerate() {
                writeln!(
                    out,
                    "{database},{},{},{},{:.6},{:.0}",
                    r.kind.name(),
                    (segment + 1) * settings.segment,
                    settings.segment,
                    time.as_secs_f64(),
                    rate(settings.segment, *time)
                )
                .unwrap();
            }
        }
    }
    out
}

/// A round step for an axis running to `max`, about five ticks.
fn tick_step(max: f64) -> f64 {
    let rough = max / 5.0;
    let magnitude = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|factor| factor * magnitude)
        .find(|&step| step >= rough)
        .unwrap()
}

fn thousands(value: f64) -> String {
    if value >= 1e6 {
        format!("{}M", value / 1e6)
    } else if value >= 1e3 {
        format!("{}k", value / 1e3)
    } else {
        format!("{value}")
    }
}

/// The SVG chart: one panel per database, the insert rate over rows inserted, a line per key.
fn svg(settings: &Settings, all: &[Outcome]) -> String {
    const WIDTH: f64 = 760.0;
    const PANEL: f64 = 300.0;
    const LEFT: f64 = 80.0;
    const RIGHT: f64 = 150.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 50.0;
    let height = all.len() as f64 * (PANEL + TOP + BOTTOM);
    let mut out = String::new();
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    )
    .unwrap();
    writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#).unwrap();
    let plot_width = WIDTH - LEFT - RIGHT;
    for (
        panel,
        Outcome {
            heading, results, ..
        },
    ) in all.iter().enumerate()
    {
        let top = panel as f64 * (PANEL + TOP + BOTTOM) + TOP;
        let max_rate = results
            .iter()
            .flat_map(|r| r.segments.iter().map(|time| rate(settings.segment, *time)))
            .fold(0.0, f64::max);
        let y_step = tick_step(max_rate);
        let y_max = (max_rate / y_step).ceil() * y_step;
        let x_step = tick_step(settings.rows as f64);
        let x = |rows: f64| LEFT + rows / settings.rows as f64 * plot_width;
        let y = |rate: f64| top + PANEL - rate / y_max * PANEL;
        writeln!(
            out,
            r#"<text x="{LEFT}" y="{}" font-size="14"><tspan font-weight="bold">{}</tspan>: rows/s per {} rows</text>"#,
            top - 14.0,
            escape(heading),
            thousands(settings.segment as f64),
        )
        .unwrap();
        let mut tick = 0.0;
        while tick <= y_max + 1e-9 {
            writeln!(
                out,
                r##"<line x1="{LEFT}" x2="{0}" y1="{1}" y2="{1}" stroke="#dddddd"/><text x="{2}" y="{3}" text-anchor="end">{4}</text>"##,
                LEFT + plot_width,
                y(tick),
                LEFT - 6.0,
                y(tick) + 4.0,
                thousands(tick)
            )
            .unwrap();
            tick += y_step;
        }
        let mut tick = 0.0;
        while tick <= settings.rows as f64 + 1e-9 {
            writeln!(
                out,
                r##"<line x1="{0}" x2="{0}" y1="{1}" y2="{2}" stroke="#dddddd"/><text x="{0}" y="{3}" text-anchor="middle">{4}</text>"##,
                x(tick),
                top,
                top + PANEL,
                top + PANEL + 16.0,
                thousands(tick)
            )
            .unwrap();
            tick += x_step;
        }
        writeln!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle">rows inserted ({} rows per INSERT)</text>"#,
            LEFT + plot_width / 2.0,
            top + PANEL + 36.0,
            settings.batch
        )
        .unwrap();
        writeln!(
            out,
            r#"<text transform="translate({},{}) rotate(-90)" text-anchor="middle">rows per second</text>"#,
            LEFT - 50.0,
            top + PANEL / 2.0
        )
        .unwrap();
        writeln!(
            out,
            r#"<rect x="{LEFT}" y="{top}" width="{plot_width}" height="{PANEL}" fill="none" stroke="black"/>"#
        )
        .unwrap();
        for (line, r) in results.iter().enumerate() {
            let points = r
                .segments
                .iter()
                .enumerate()
                .map(|(segment, time)| {
                    format!(
                        "{:.1},{:.1}",
                        x(((segment + 1) * settings.segment) as f64),
                        y(rate(settings.segment, *time))
                    )
                })
                .collect::<Vec<_>>();
            let colour = r.kind.colour();
            writeln!(
                out,
                r#"<polyline fill="none" stroke="{colour}" stroke-width="{}" points="{}"/>"#,
                if r.kind == Kind::UlidFlake { 3 } else { 2 },
                points.join(" ")
            )
            .unwrap();
            for point in &points {
                let (px, py) = point.split_once(',').unwrap();
                writeln!(
                    out,
                    r#"<circle cx="{px}" cy="{py}" r="3" fill="{colour}"/>"#
                )
                .unwrap();
            }
            let legend_y = top + 20.0 + line as f64 * 20.0;
            writeln!(
                out,
                r#"<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" stroke="{colour}" stroke-width="3"/><text x="{3}" y="{4}">{5}</text>"#,
                LEFT + plot_width + 12.0,
                LEFT + plot_width + 36.0,
                legend_y,
                LEFT + plot_width + 42.0,
                legend_y + 4.0,
                r.kind.name()
            )
            .unwrap();
        }
    }
    writeln!(out, "</svg>").unwrap();
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[tokio::main]
async fn main() {
    let settings = Settings::from_args();
    let mut all = Vec::new();
    for &database in &settings.databases {
        let pool = Pool::connect(database).await;
        let heading = pool.describe().await;
        // An untimed round of every kind, so that the first measured kind does not pay for
        // warming up the connection, its statement cache and the server.
        let warm_up = Settings {
            rows: settings.batch * 10,
            segment: settings.batch * 10,
            lookups: 100,
            scans: 1,
            progress: false,
            ..settings.clone()
        };
        eprintln!("db: {}: warming up", database.name());
        for kind in Kind::ALL {
            measure(&pool, kind, &warm_up).await;
        }
        eprintln!("db: {}: measuring", database.name());
        let mut results = Vec::new();
        for kind in Kind::ALL {
            let start = Instant::now();
            results.push(measure(&pool, kind, &settings).await);
            eprintln!(
                "db: {} {}: done in {:.1} s",
                database.name(),
                kind.name(),
                start.elapsed().as_secs_f64()
            );
        }
        all.push(Outcome {
            database,
            heading,
            results,
        });
    }
    println!(
        "## Database scale ({} rows per key, batches of {}, {} lookups)\n",
        settings.rows, settings.batch, settings.lookups
    );
    println!(
        "Each table: the key, `created_at` (indexed) and a ~40-character `body`. \
         `× auto-increment` is the key's figure over auto-increment's: for rates higher is \
         better, for sizes and times lower is better. The range scan fetches the rows of a \
         time window holding 1% of them, through the key where the key can answer it \
         (Ulid-Flake, UUIDv7) and through the `created_at` index.\n"
    );
    for outcome in &all {
        println!("{}", report(&settings, outcome));
    }
    std::fs::write(&settings.csv, csv(&settings, &all)).unwrap();
    std::fs::write(&settings.svg, svg(&settings, &all)).unwrap();
    eprintln!("db: wrote {} and {}", settings.csv, settings.svg);
}

//! The database-scale benchmark, a binary run on demand (not a test): `scripts/bench-db.sh`
//! runs it in full; `scripts/test.sh` runs it in smoke mode (`--smoke`) so that it cannot rot.
//!
//! On PostgreSQL (`ULID_FLAKE_TEST_POSTGRES_URL`) and MariaDB with InnoDB
//! (`ULID_FLAKE_TEST_MYSQL_URL`), both started by `scripts/with-databases.sh`, it works in a
//! scratch database of its own (`ulid_flake_test_bench_<pid>`, dropped at the end) and fills
//! one table per kind of primary key:
//!
//! | key | PostgreSQL | MariaDB |
//! |---|---|---|
//! | auto-increment (the baseline) | `BIGINT GENERATED ALWAYS AS IDENTITY` | `BIGINT AUTO_INCREMENT` |
//! | Ulid-Flake, `Id<T>` from the core's `Generator` | `BIGINT` | `BIGINT` |
//! | Ulid-Flake, made by the database | `BIGINT DEFAULT ulid_flake_generate('bench')` | `BIGINT NOT NULL DEFAULT 0` and the `BEFORE INSERT` trigger of `sql::mysql_generate_trigger` |
//! | UUIDv7 | `uuid` | `UUID` (native since 10.7; since 10.11.5 it stores v6+ unswapped, in byte order) |
//! | UUIDv4 | `uuid` | `UUID` |
//!
//! The database's generator is the core's SQL (`sql::POSTGRES_GENERATOR`,
//! `sql::MYSQL_GENERATOR`, which also create the lease table it reserves its scalability id
//! in), installed once per run with `ulid_flake_install_generator('bench')` (on MariaDB with
//! the default epoch named). Its inserts leave the key out, as auto-increment's do.
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
//! timestamp for Ulid-Flake and UUIDv7, the system clock for the others (a key made by the
//! database carries the database's clock when the row went in, a little later).
//!
//! # Method: repetitions, the kinds interleaved
//!
//! One run is not enough (single runs moved a lookup ratio from 1.26 × to 1.02 ×), so the
//! benchmark is repeated `--repetitions` times (5), each from fresh tables, and within a
//! repetition the kinds share the server's state instead of taking turns:
//!
//! - the five tables are filled side by side, batch by batch: one batch of every kind in turn,
//!   the order changing from a batch to the next by a Williams design (a sequence shifted by
//!   one kind a step and reversed every five steps; the start shifted by the repetition): over
//!   any ten steps every kind takes every position twice and comes right after every other
//!   kind twice, so that all meet the same checkpoints, autovacuum runs and cache state, and
//!   none always meets what one other left (a plain rotation put auto-increment after UUIDv4
//!   every time, and on MariaDB UUIDv4's scattered reads empty the small buffer pool). A
//!   kind's segment time is the sum of its own batches' times (building the batch and its
//!   `INSERT`);
//! - then kind by kind, in the same design's order for the repetition: the sizes, and an
//!   untimed read-back of every row (`SELECT id, created_at`), which gives the database-made
//!   keys and leaves every table read once;
//! - point lookups: lookup *i* reads the same row position, drawn at random, from every kind
//!   in turn, in the design's order for step *i*; `--lookups` / 10 untimed lookups the same
//!   way first;
//! - window scans (`--scans`, 10: one whole cycle of the design): scan *i* on every kind in
//!   turn, in the design's order, by key and by `created_at` alternately first, each timed
//!   run right after an untimed run of the same query. So every kind is timed with its
//!   window's pages as cached as they can be, the same state for all (without it, on MariaDB,
//!   whose 64 MiB buffer pool UUIDv4's scattered window empties, a kind scanned both ways found
//!   its rows' pages just read by its other way half of the time, and auto-increment never:
//!   its `created_at` scans came out 1.3 × slower than Ulid-Flake's on the same plan and the
//!   same pages). UUIDv4's window on MariaDB cannot be cached whole: its rows lie on more
//!   pages than the buffer pool holds.
//!
//! An untimed repetition of 10 batches a kind first warms up the connections and the servers.
//!
//! # Report
//!
//! Markdown on stdout. Its header names the machine: the CPU model and count, the memory, the
//! load average (`/proc/loadavg`) at the start and the end of the run, the run's time. Every
//! figure is the median of the repetitions with its range (min–max); `× auto-increment` is the
//! ratio to auto-increment's figure *within* each repetition, then the median and range of those
//! ratios, marked `≠` when the range excludes 1.00 (a difference beyond the spread) and `≈` when
//! it includes 1.00 (no difference beyond the spread). The figures:
//!
//! - the insert rate of every segment of `--segment` rows (100,000), and over all rows;
//! - sizes after `VACUUM (ANALYZE)` / `ANALYZE TABLE`. PostgreSQL: `pg_table_size` (heap) and
//!   `pg_relation_size` of the primary-key and `created_at` indexes. MariaDB:
//!   `information_schema.TABLES`' `DATA_LENGTH` and `INDEX_LENGTH`. InnoDB clusters the table
//!   on its primary key, so the primary index *is* the table (`DATA_LENGTH`: rows and key
//!   together) and the secondary index holds a copy of the key in every entry
//!   (`INDEX_LENGTH`); the size of the key's own B-tree levels is not measurable apart;
//! - point lookups (`WHERE id = ?`, one row each) on `--lookups` (10,000) random existing
//!   keys, p50 and p99;
//! - a time-window range scan fetching the rows made during a window that holds 1% of them
//!   (the median of `--scans` runs): from the first batch boundary at or after 45% where the
//!   clock steps to the first such one 1% later. Every kind answers it through the `created_at` index,
//!   which all five tables carry; the time-ordered keys also answer it through the primary key
//!   alone, which UUIDv4 and auto-increment keys cannot (`—`): Ulid-Flake by `Id::range_for`
//!   of the window, UUIDv7 by the same millisecond bounds in its first 48 bits. For the
//!   database-made keys the window by key is in the keys' own milliseconds, from the same row
//!   to the same row (the bounds are put where both the key's clock and `created_at` step).
//!   Both ways must return the same rows.
//!
//! Also written: a CSV of the segment rates' medians, minimums and maximums (`--csv`, default
//! `benchmarks/db-insert-rate.csv`) and an SVG chart of the median insert rate over rows, with
//! min–max bars, five lines per database (`--svg`, default `benchmarks/db-insert-rate.svg`,
//! committed next to BENCHMARKS.md).
//!
//! ```text
//! db [--rows N] [--segment N] [--batch N] [--lookups N] [--scans N] [--repetitions N]
//!    [--databases postgres,mariadb] [--csv PATH] [--svg PATH] [--smoke] [--explain]
//! ```
//!
//! `--explain` prints to stderr, after the last repetition's measurements, how each window
//! scan runs: on PostgreSQL `EXPLAIN (ANALYZE, BUFFERS)` of the query prepared as the timed
//! one is, with the plan cache's own choice, a custom plan and a generic plan; on MariaDB
//! `ANALYZE FORMAT=JSON`.
//!
//! The full run's defaults: 1,000,000 rows a kind in segments of 100,000, 5 repetitions.
//! `--smoke` runs 5,000 rows in segments of 1,000 with 400 lookups, 2 repetitions, and writes
//! the CSV and SVG to the temp directory unless given paths, and prints no progress: it takes
//! seconds.

use std::fmt::Write as _;
use std::ops::Range;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use chrono::{DateTime, NaiveDateTime, Utc};
use sqlx::{AssertSqlSafe, MySql, MySqlPool, PgPool, Postgres, QueryBuilder};
use ulid_flake_core::generator::Generator;
use ulid_flake_core::sql::{MYSQL_GENERATOR, POSTGRES_GENERATOR, mysql_generate_trigger};
use ulid_flake_core::{Epoch, Id, UnixMs};
use uuid::Uuid;

/// The rows' type, for `Id<Event>`.
struct Event;

/// The namespace of the database's generator.
const NAMESPACE: &str = "bench";

/// The settings, from the command line.
#[derive(Clone, Debug)]
struct Settings {
    rows: usize,
    segment: usize,
    batch: usize,
    lookups: usize,
    scans: usize,
    repetitions: usize,
    databases: Vec<Database>,
    csv: String,
    svg: String,
    /// Whether to print every segment's rates to stderr as it ends (not in smoke mode).
    progress: bool,
    /// Whether to print the plans of the last repetition's window scans to stderr.
    explain: bool,
}

impl Settings {
    fn from_args() -> Self {
        let mut args = std::env::args().skip(1).collect::<Vec<_>>();
        let smoke = args.iter().any(|arg| arg == "--smoke");
        let explain = args.iter().any(|arg| arg == "--explain");
        args.retain(|arg| arg != "--smoke" && arg != "--explain");
        let temp = std::env::temp_dir();
        let mut settings = if smoke {
            Self {
                rows: 5_000,
                segment: 1_000,
                batch: 1_000,
                lookups: 400,
                scans: 3,
                repetitions: 2,
                databases: vec![Database::Postgres, Database::MariaDb],
                csv: temp.join("db-insert-rate.csv").display().to_string(),
                svg: temp.join("db-insert-rate.svg").display().to_string(),
                progress: false,
                explain,
            }
        } else {
            Self {
                rows: 1_000_000,
                segment: 100_000,
                batch: 1_000,
                lookups: 10_000,
                scans: 10,
                repetitions: 5,
                databases: vec![Database::Postgres, Database::MariaDb],
                csv: "benchmarks/db-insert-rate.csv".into(),
                svg: "benchmarks/db-insert-rate.svg".into(),
                progress: true,
                explain,
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
                "--repetitions" => settings.repetitions = number(),
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
        if settings.rows < 100 {
            usage(&format!(
                "expected at least 100 --rows (the window scan takes 1% of them), found {}",
                settings.rows
            ));
        }
        settings
    }
}

fn usage(problem: &str) -> ! {
    eprintln!("db: {problem}");
    eprintln!(
        "usage: db [--rows N] [--segment N] [--batch N] [--lookups N] [--scans N] \
         [--repetitions N] [--databases postgres,mariadb] [--csv PATH] [--svg PATH] [--smoke] \
         [--explain]"
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
    UlidFlakeDatabase,
    UuidV7,
    UuidV4,
}

/// How many kinds there are.
const KINDS: usize = Kind::ALL.len();

impl Kind {
    const ALL: [Self; 5] = [
        Self::AutoIncrement,
        Self::UlidFlake,
        Self::UlidFlakeDatabase,
        Self::UuidV7,
        Self::UuidV4,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::AutoIncrement => "auto-increment",
            Self::UlidFlake => "Ulid-Flake",
            Self::UlidFlakeDatabase => "Ulid-Flake, made by the database",
            Self::UuidV7 => "UUIDv7",
            Self::UuidV4 => "UUIDv4",
        }
    }

    /// The name in the chart's legend.
    fn short_name(self) -> &'static str {
        match self {
            Self::UlidFlakeDatabase => "Ulid-Flake, by the DB",
            _ => self.name(),
        }
    }

    fn table(self) -> &'static str {
        match self {
            Self::AutoIncrement => "bench_auto_increment",
            Self::UlidFlake => "bench_ulid_flake",
            Self::UlidFlakeDatabase => "bench_ulid_flake_database",
            Self::UuidV7 => "bench_uuid_v7",
            Self::UuidV4 => "bench_uuid_v4",
        }
    }

    fn column(self, database: Database) -> String {
        match (self, database) {
            (Self::AutoIncrement, Database::Postgres) => {
                "BIGINT GENERATED ALWAYS AS IDENTITY".into()
            }
            (Self::AutoIncrement, Database::MariaDb) => "BIGINT AUTO_INCREMENT".into(),
            (Self::UlidFlake, _) => "BIGINT".into(),
            (Self::UlidFlakeDatabase, Database::Postgres) => {
                format!("BIGINT DEFAULT ulid_flake_generate('{NAMESPACE}')")
            }
            // The trigger sets it; the default lets an insert leave it out.
            (Self::UlidFlakeDatabase, Database::MariaDb) => "BIGINT NOT NULL DEFAULT 0".into(),
            (Self::UuidV7 | Self::UuidV4, Database::Postgres) => "uuid".into(),
            (Self::UuidV7 | Self::UuidV4, Database::MariaDb) => "UUID".into(),
        }
    }

    /// Whether the database makes the key, so that the inserts leave it out.
    fn made_by_database(self) -> bool {
        matches!(self, Self::AutoIncrement | Self::UlidFlakeDatabase)
    }

    /// Whether the key is time-ordered, so that a time window is a key range.
    fn time_ordered(self) -> bool {
        matches!(
            self,
            Self::UlidFlake | Self::UlidFlakeDatabase | Self::UuidV7
        )
    }

    /// The SVG line colour, and whether the line is dashed.
    fn colour(self) -> (&'static str, bool) {
        match self {
            Self::AutoIncrement => ("#7f7f7f", false),
            Self::UlidFlake => ("#d62728", false),
            Self::UlidFlakeDatabase => ("#8c564b", true),
            Self::UuidV7 => ("#1f77b4", false),
            Self::UuidV4 => ("#ff7f0e", false),
        }
    }
}

/// The first sequence of a Williams design for five kinds: 0, 1, n − 1, 2, n − 2.
const WILLIAMS: [usize; KINDS] = [0, 1, 4, 2, 3];

/// The order in which the kinds (indexes into [`Kind::ALL`]) take their turn at `step`: a
/// Williams design, the sequence [`WILLIAMS`] shifted by the step, reversed every [`KINDS`]
/// steps. Over any `2 × KINDS` consecutive steps every kind is in every position twice and
/// comes right after every other kind twice, so that no kind always meets the state another
/// one left (a plain rotation would have put auto-increment after UUIDv4 every time).
fn order(step: usize) -> [usize; KINDS] {
    let mut kinds = WILLIAMS.map(|kind| (kind + step) % KINDS);
    if (step / KINDS) % 2 == 1 {
        kinds.reverse();
    }
    kinds
}

/// One row's key; `None` when the database assigns it.
#[derive(Clone, Copy)]
enum Key {
    None,
    UlidFlake(Id<Event>),
    Uuid(Uuid),
}

/// The keys of a filled table, for the lookups, in the order of its rows' positions.
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
            Kind::AutoIncrement | Kind::UlidFlakeDatabase => (Key::None, unix_ms_now()),
            Kind::UlidFlake => {
                let id: Id<Event> = self.generator.generate().unwrap().into();
                (Key::UlidFlake(id), key_ms(id))
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

/// A Ulid-Flake key's Unix millisecond, by the default epoch (the generators' both).
fn key_ms(id: Id<Event>) -> i64 {
    id.unix_ms(Epoch::DEFAULT) as i64
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

/// What the untimed read-back of a table found: the number of rows, and for the
/// database-made keys every key with its row's `created_at`, in key order.
struct ReadBack {
    rows: usize,
    keys: Option<Vec<(Id<Event>, i64)>>,
}

/// The benchmark's scratch database on a server, created at the start and dropped at the end.
struct Scratch {
    database: Database,
    /// The URL of the server's test database, from which the scratch one is made and dropped.
    url: String,
    name: String,
}

impl Scratch {
    async fn create(database: Database) -> (Self, Pool) {
        let (variable, script) = match database {
            Database::Postgres => ("ULID_FLAKE_TEST_POSTGRES_URL", "PostgreSQL"),
            Database::MariaDb => ("ULID_FLAKE_TEST_MYSQL_URL", "MariaDB"),
        };
        let url = std::env::var(variable).unwrap_or_else(|_| {
            panic!("expected {variable} set, found none: run through scripts/with-databases.sh, which starts {script}")
        });
        // Its own database, so that the generator's state and lease table are the benchmark's
        // and nothing of the tests' database is touched (the user may create ulid_flake_test_*).
        let scratch = Self {
            database,
            url,
            name: format!("ulid_flake_test_bench_{}", std::process::id()),
        };
        let admin = Pool::connect(database, &scratch.url).await;
        admin
            .execute(format!("DROP DATABASE IF EXISTS {}", scratch.name))
            .await;
        admin
            .execute(format!("CREATE DATABASE {}", scratch.name))
            .await;
        admin.close().await;
        let (server, _) = scratch.url.rsplit_once('/').unwrap();
        let pool = Pool::connect(database, &format!("{server}/{}", scratch.name)).await;
        (scratch, pool)
    }

    async fn drop(self, pool: Pool) {
        pool.close().await;
        let admin = Pool::connect(self.database, &self.url).await;
        admin
            .execute(format!("DROP DATABASE IF EXISTS {}", self.name))
            .await;
        admin.close().await;
    }
}

impl Pool {
    async fn connect(database: Database, url: &str) -> Self {
        // One connection: the inserts and lookups are sequential, as one client's would be.
        match database {
            Database::Postgres => Self::Postgres(
                sqlx::pool::PoolOptions::new()
                    .max_connections(1)
                    .connect(url)
                    .await
                    .unwrap(),
            ),
            Database::MariaDb => Self::MariaDb(
                sqlx::pool::PoolOptions::new()
                    .max_connections(1)
                    .connect(url)
                    .await
                    .unwrap(),
            ),
        }
    }

    async fn close(self) {
        match self {
            Self::Postgres(pool) => pool.close().await,
            Self::MariaDb(pool) => pool.close().await,
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

    /// Installs the database's generator from the core's SQL (with its lease table) and
    /// reserves a scalability id for [`NAMESPACE`].
    async fn install_generator(&self) {
        match self {
            Self::Postgres(pool) => {
                sqlx::raw_sql(POSTGRES_GENERATOR)
                    .execute(pool)
                    .await
                    .unwrap();
                sqlx::query("SELECT ulid_flake_install_generator($1)")
                    .bind(NAMESPACE)
                    .fetch_all(pool)
                    .await
                    .unwrap();
            }
            Self::MariaDb(pool) => {
                sqlx::raw_sql(MYSQL_GENERATOR).execute(pool).await.unwrap();
                sqlx::query("CALL ulid_flake_install_generator(?, ?)")
                    .bind(NAMESPACE)
                    .bind(Epoch::DEFAULT.unix_ms() as i64)
                    .fetch_all(pool)
                    .await
                    .unwrap();
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
        if kind == Kind::UlidFlakeDatabase && self.database() == Database::MariaDb {
            self.execute(mysql_generate_trigger(table, "id", NAMESPACE))
                .await;
        }
    }

    async fn insert(&self, kind: Kind, rows: &[Row]) {
        let table = kind.table();
        let columns = if kind.made_by_database() {
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

    /// Reads every row's key and `created_at` back, the same query for every kind; keeps
    /// them only for the database-made keys, whose values the benchmark does not know.
    async fn read_back(&self, kind: Kind) -> ReadBack {
        let sql = AssertSqlSafe(format!("SELECT id, created_at FROM {}", kind.table()));
        let keep = kind == Kind::UlidFlakeDatabase;
        let (rows, mut keys) = match self {
            Self::Postgres(pool) => {
                let rows = sqlx::query(sql).fetch_all(pool).await.unwrap();
                let keys = keep.then(|| {
                    rows.iter()
                        .map(|row| {
                            let (id, created): (Id<Event>, DateTime<Utc>) =
                                sqlx::FromRow::from_row(row).unwrap();
                            (id, created.timestamp_millis())
                        })
                        .collect::<Vec<_>>()
                });
                (rows.len(), keys)
            }
            Self::MariaDb(pool) => {
                let rows = sqlx::query(sql).fetch_all(pool).await.unwrap();
                let keys = keep.then(|| {
                    rows.iter()
                        .map(|row| {
                            let (id, created): (Id<Event>, NaiveDateTime) =
                                sqlx::FromRow::from_row(row).unwrap();
                            (id, created.and_utc().timestamp_millis())
                        })
                        .collect::<Vec<_>>()
                });
                (rows.len(), keys)
            }
        };
        if let Some(keys) = &mut keys {
            keys.sort_unstable_by_key(|&(id, _)| id);
        }
        ReadBack { rows, keys }
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
        assert_eq!(
            found,
            1,
            "{}: expected one row for row {row}, found {found}",
            kind.name()
        );
        elapsed
    }

    /// Fetches the rows made during `window` (Unix milliseconds, end exclusive), through the
    /// key (`by_key`: the window in the key's own milliseconds) or the `created_at` index: the
    /// time and the number of rows.
    async fn scan(&self, kind: Kind, window: Range<i64>, by_key: bool) -> (Duration, usize) {
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
        let (lowest, highest) = key_bounds(kind, &window);
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

    /// The plans of a window scan (`--explain`), with what they read. PostgreSQL: the query
    /// prepared and run six times, as the timed one was many times, then `EXPLAIN (ANALYZE,
    /// BUFFERS) EXECUTE` as the plan cache now picks, with a custom plan, and with a generic
    /// plan. MariaDB: `ANALYZE FORMAT=JSON`.
    async fn explain_scan(&self, kind: Kind, window: Range<i64>, by_key: bool) -> String {
        let table = kind.table();
        let literal = |key: Key| match (key, self.database()) {
            (Key::UlidFlake(id), _) => id.to_i64().to_string(),
            (Key::Uuid(uuid), Database::Postgres) => format!("'{uuid}'::uuid"),
            (Key::Uuid(uuid), Database::MariaDb) => format!("'{uuid}'"),
            (Key::None, _) => unreachable!(),
        };
        let time = |unix_ms: i64| match self.database() {
            Database::Postgres => format!(
                "'{}'::timestamptz",
                utc(unix_ms).format("%Y-%m-%d %H:%M:%S%.3f+00")
            ),
            Database::MariaDb => format!(
                "'{}'",
                naive_utc_time(unix_ms).format("%Y-%m-%d %H:%M:%S%.3f")
            ),
        };
        let (condition, low, high) = if by_key {
            let (lowest, highest) = key_bounds(kind, &window);
            ("id BETWEEN {} AND {}", literal(lowest), literal(highest))
        } else {
            (
                "created_at >= {} AND created_at < {}",
                time(window.start),
                time(window.end),
            )
        };
        let mut out = String::new();
        match self {
            Self::Postgres(pool) => {
                let types = match (by_key, kind) {
                    (false, _) => "timestamptz, timestamptz",
                    (true, Kind::UuidV7) => "uuid, uuid",
                    (true, _) => "bigint, bigint",
                };
                let condition = condition.replacen("{}", "$1", 1).replacen("{}", "$2", 1);
                self.execute(format!(
                    "PREPARE bench_explain ({types}) AS \
                     SELECT id, created_at, body FROM {table} WHERE {condition}"
                ))
                .await;
                let execute = format!("EXECUTE bench_explain ({low}, {high})");
                for _ in 0..6 {
                    self.execute(execute.clone()).await;
                }
                for mode in ["auto", "force_custom_plan", "force_generic_plan"] {
                    self.execute(format!("SET plan_cache_mode = {mode}")).await;
                    let lines: Vec<String> = sqlx::query_scalar(AssertSqlSafe(format!(
                        "EXPLAIN (ANALYZE, BUFFERS) {execute}"
                    )))
                    .fetch_all(pool)
                    .await
                    .unwrap();
                    writeln!(out, "plan_cache_mode = {mode}:\n{}", lines.join("\n")).unwrap();
                }
                self.execute("RESET plan_cache_mode; DEALLOCATE bench_explain".into())
                    .await;
            }
            Self::MariaDb(pool) => {
                let condition = condition.replacen("{}", &low, 1).replacen("{}", &high, 1);
                let plan: String = sqlx::query_scalar(AssertSqlSafe(format!(
                    "ANALYZE FORMAT=JSON SELECT id, created_at, body FROM {table} WHERE {condition}"
                )))
                .fetch_one(pool)
                .await
                .unwrap();
                out.push_str(&plan);
            }
        }
        out
    }
}

/// The lowest and highest key of a time-ordered kind made during `window` (Unix milliseconds,
/// end exclusive).
fn key_bounds(kind: Kind, window: &Range<i64>) -> (Key, Key) {
    match kind {
        Kind::UlidFlake | Kind::UlidFlakeDatabase => {
            let (lowest, highest) =
                Id::<Event>::range_for(Epoch::DEFAULT, UnixMs(window.start)..UnixMs(window.end))
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
    }
}

/// The measurements of one kind of key in one repetition.
struct Measured {
    /// The insert time of each segment (the sum of the kind's own batches).
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
    /// Every repetition's measurements, each in the order of [`Kind::ALL`].
    repetitions: Vec<Vec<Measured>>,
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

/// A table being filled and measured.
struct Table {
    kind: Kind,
    maker: RowMaker,
    /// Every row's `created_at`, by position (insert order; for the database-made keys, key
    /// order once read back).
    created: Vec<i64>,
    keys: Keys,
    segments: Vec<Duration>,
}

/// The scanned time window of a table.
struct Window {
    /// The rows in it.
    rows: usize,
    /// In `created_at`'s milliseconds.
    created: Range<i64>,
    /// In the key's own milliseconds, for a time-ordered key.
    key: Option<Range<i64>>,
}

/// The window that holds the rows from the first position at or after 45% where the clock
/// steps (`created[i - 1] < created[i]`, and the key's milliseconds step there too) to the
/// first such position 1% of the rows later (or the end): in both clocks, exactly those rows
/// when both run in the rows' order, which this checks. Both ends are looked for from a batch
/// boundary, where every kind's clock steps (the other kinds' batches went in between), so
/// that all kinds scan the same rows' positions.
fn window(name: &str, created: &[i64], key_ms: Option<&[i64]>, batch: usize) -> Window {
    let rows = created.len();
    let steps = |&position: &usize| {
        position == rows
            || (created[position - 1] < created[position]
                && key_ms.is_none_or(|key_ms| key_ms[position - 1] < key_ms[position]))
    };
    let align = |position: usize| {
        let aligned = position.div_ceil(batch) * batch;
        if aligned < rows { aligned } else { position }
    };
    let start = align((rows * 45 / 100).max(1));
    let first = (start..rows)
        .find(steps)
        .unwrap_or_else(|| panic!("{name}: no step of the clock after row {start}"));
    let end = (align(first + (rows / 100).max(1)).min(rows)..=rows)
        .find(steps)
        .unwrap();
    let bounds = |values: &[i64]| {
        values[first]..if end == rows {
            values[rows - 1] + 1
        } else {
            values[end]
        }
    };
    let window = Window {
        rows: end - first,
        created: bounds(created),
        key: key_ms.map(bounds),
    };
    let count = |values: &[i64], range: &Range<i64>| {
        values.iter().filter(|value| range.contains(value)).count()
    };
    assert_eq!(
        count(created, &window.created),
        window.rows,
        "{name}: created_at does not grow with the rows' order"
    );
    if let (Some(key_ms), Some(range)) = (key_ms, &window.key) {
        assert_eq!(
            count(key_ms, range),
            window.rows,
            "{name}: the key's time does not grow with the rows' order"
        );
    }
    window
}

/// One repetition: fills every kind's fresh table side by side, then measures them
/// interleaved; the measurements in the order of [`Kind::ALL`]. `shift` rotates the order of
/// the kinds, so that repetitions do not all start with the same kind.
async fn repetition(pool: &Pool, settings: &Settings, shift: usize, label: &str) -> Vec<Measured> {
    let database = pool.database();
    for kind in Kind::ALL {
        pool.create(kind).await;
    }
    let mut tables = Kind::ALL.map(|kind| Table {
        kind,
        maker: RowMaker {
            kind,
            generator: Generator::new(),
        },
        created: Vec::with_capacity(settings.rows),
        keys: match kind {
            Kind::AutoIncrement => Keys::AutoIncrement,
            Kind::UlidFlake | Kind::UlidFlakeDatabase => {
                Keys::UlidFlake(Vec::with_capacity(settings.rows))
            }
            Kind::UuidV7 | Kind::UuidV4 => Keys::Uuid(Vec::with_capacity(settings.rows)),
        },
        segments: Vec::new(),
    });

    // The fill: batch by batch, one of every kind in turn, in the design's order.
    let mut batch = Vec::with_capacity(settings.batch);
    for segment_start in (0..settings.rows).step_by(settings.segment) {
        let mut times = [Duration::ZERO; KINDS];
        for batch_start in (segment_start..segment_start + settings.segment).step_by(settings.batch)
        {
            for index in order(batch_start / settings.batch + shift) {
                let table = &mut tables[index];
                let start = Instant::now();
                batch.clear();
                batch.extend(
                    (batch_start..batch_start + settings.batch).map(|row| table.maker.row(row)),
                );
                pool.insert(table.kind, &batch).await;
                times[index] += start.elapsed();
                for row in &batch {
                    table.created.push(row.created_ms);
                    match (&mut table.keys, row.key) {
                        (Keys::UlidFlake(ids), Key::UlidFlake(id)) => ids.push(id),
                        (Keys::Uuid(uuids), Key::Uuid(uuid)) => uuids.push(uuid),
                        _ => {}
                    }
                }
            }
        }
        for (table, time) in tables.iter_mut().zip(times) {
            table.segments.push(time);
        }
        if settings.progress {
            let rates = tables
                .iter()
                .zip(times)
                .map(|(table, time)| {
                    format!("{} {:.0}", table.kind.name(), rate(settings.segment, time))
                })
                .collect::<Vec<_>>()
                .join(", ");
            eprintln!(
                "db: {} {label}: {} rows, rows/s: {rates}",
                database.name(),
                segment_start + settings.segment
            );
        }
    }

    // Sizes, then the read-back, kind by kind in the design's order.
    let mut sizes: [Option<Sizes>; KINDS] = Default::default();
    for index in order(shift) {
        sizes[index] = Some(pool.sizes(Kind::ALL[index]).await);
    }
    for index in order(shift) {
        let table = &mut tables[index];
        let read = pool.read_back(table.kind).await;
        assert_eq!(
            read.rows,
            settings.rows,
            "{}: expected {} rows read back, found {}",
            table.kind.name(),
            settings.rows,
            read.rows
        );
        if let Some(keys) = read.keys {
            // The database-made keys, in key order: the rows' positions from now on.
            table.created = keys.iter().map(|&(_, created)| created).collect();
            table.keys = Keys::UlidFlake(keys.into_iter().map(|(id, _)| id).collect());
        }
    }
    let windows = tables.each_ref().map(|table| {
        let key_ms = match (&table.keys, table.kind) {
            (Keys::UlidFlake(ids), Kind::UlidFlakeDatabase) => {
                Some(ids.iter().map(|&id| key_ms(id)).collect::<Vec<_>>())
            }
            // The key's own timestamp is created_at.
            (_, kind) if kind.time_ordered() => Some(table.created.clone()),
            _ => None,
        };
        window(
            table.kind.name(),
            &table.created,
            key_ms.as_deref(),
            settings.batch,
        )
    });

    // Lookups: the same row position on every kind in turn, in the design's order.
    let mut random = SplitMix(0x0ddba11 ^ shift as u64);
    for step in 0..settings.lookups / 10 {
        let row = random.below(settings.rows);
        for index in order(step + shift) {
            let table = &tables[index];
            pool.lookup(table.kind, table.keys.get(row), row).await;
        }
    }
    let mut random = SplitMix(0x5eed ^ shift as u64);
    let mut lookups: [Vec<Duration>; KINDS] =
        std::array::from_fn(|_| Vec::with_capacity(settings.lookups));
    for step in 0..settings.lookups {
        let row = random.below(settings.rows);
        for index in order(step + shift) {
            let table = &tables[index];
            lookups[index].push(pool.lookup(table.kind, table.keys.get(row), row).await);
        }
    }

    // Window scans: every kind in turn, in the design's order, by key and by created_at
    // alternately first.
    let mut by_key: [Vec<Duration>; KINDS] = Default::default();
    let mut by_created_at: [Vec<Duration>; KINDS] = Default::default();
    for step in 0..settings.scans {
        for index in order(step + shift) {
            let kind = Kind::ALL[index];
            let window = &windows[index];
            let mut ways = vec![false];
            if kind.time_ordered() {
                ways.insert(step % 2, true);
            }
            for way in ways {
                let range = if way {
                    window.key.clone().unwrap()
                } else {
                    window.created.clone()
                };
                // An untimed run first, so that every timed scan finds its window's pages as
                // cached as they can be: else a kind scanned both ways would find the rows its
                // other way had just read, and the others the pages the last scans evicted.
                pool.scan(kind, range.clone(), way).await;
                let (elapsed, rows) = pool.scan(kind, range, way).await;
                let how = if way { "by key" } else { "by created_at" };
                assert_eq!(
                    rows,
                    window.rows,
                    "{} {how}: expected {} rows, found {rows}",
                    kind.name(),
                    window.rows
                );
                if way {
                    by_key[index].push(elapsed);
                } else {
                    by_created_at[index].push(elapsed);
                }
            }
        }
    }
    if settings.explain && shift + 1 == settings.repetitions {
        for (kind, window) in Kind::ALL.iter().zip(&windows) {
            for by_key in [true, false] {
                if by_key && !kind.time_ordered() {
                    continue;
                }
                let range = if by_key {
                    window.key.clone().unwrap()
                } else {
                    window.created.clone()
                };
                let how = if by_key { "by key" } else { "by created_at" };
                eprintln!(
                    "db: {} {label}: {} window scan {how}:\n{}",
                    database.name(),
                    kind.name(),
                    pool.explain_scan(*kind, range, by_key).await
                );
            }
        }
    }
    for kind in Kind::ALL {
        pool.execute(format!("DROP TABLE {}", kind.table())).await;
    }

    let mut measured = Vec::with_capacity(KINDS);
    for (index, table) in tables.into_iter().enumerate() {
        let lookups = &mut lookups[index];
        lookups.sort();
        let percentile = |p: usize| lookups[(lookups.len() * p / 100).min(lookups.len() - 1)];
        measured.push(Measured {
            segments: table.segments,
            sizes: sizes[index].take().unwrap(),
            lookup_p50: percentile(50),
            lookup_p99: percentile(99),
            scan_rows: windows[index].rows,
            scan_by_key: (!by_key[index].is_empty())
                .then(|| median(std::mem::take(&mut by_key[index]))),
            scan_by_created_at: median(std::mem::take(&mut by_created_at[index])),
        });
    }
    measured
}

fn rate(rows: usize, time: Duration) -> f64 {
    rows as f64 / time.as_secs_f64()
}

/// The median and range of a figure over the repetitions.
#[derive(Clone, Copy)]
struct Spread {
    median: f64,
    min: f64,
    max: f64,
}

impl Spread {
    fn of(values: impl IntoIterator<Item = f64>) -> Self {
        let mut values = values.into_iter().collect::<Vec<_>>();
        values.sort_by(f64::total_cmp);
        let middle = values.len() / 2;
        let median = if values.len() % 2 == 1 {
            values[middle]
        } else {
            (values[middle - 1] + values[middle]) / 2.0
        };
        Self {
            median,
            min: values[0],
            max: values[values.len() - 1],
        }
    }

    /// Whether the range lies wholly on one side of `value`.
    fn excludes(self, value: f64) -> bool {
        self.min > value || self.max < value
    }

    /// The median and, unless it shows as one number, the range, each written by `show`.
    fn show(self, show: impl Fn(f64) -> String) -> String {
        let (median, min, max) = (show(self.median), show(self.min), show(self.max));
        if min == max {
            median
        } else {
            format!("{median} ({min}–{max})")
        }
    }

    /// A ratio: the median and range, two decimals, marked by whether the range *as shown*
    /// excludes 1.00 (a difference below the shown precision does not count).
    fn show_ratio(self) -> String {
        let shown = |ratio: f64| (ratio * 100.0).round() / 100.0;
        let shown_range = Self {
            median: shown(self.median),
            min: shown(self.min),
            max: shown(self.max),
        };
        let marker = if shown_range.excludes(1.0) {
            "≠"
        } else {
            "≈"
        };
        let (median, min, max) = (
            format!("{:.2}", self.median),
            format!("{:.2}", self.min),
            format!("{:.2}", self.max),
        );
        if min == max {
            format!("{median} × {marker}")
        } else {
            format!("{median} × ({min}–{max}) {marker}")
        }
    }
}

fn show_rate(rate: f64) -> String {
    format!("{rate:.0}")
}

fn show_mib(bytes: f64) -> String {
    format!("{:.1} MiB", bytes / f64::from(1 << 20))
}

fn show_ms(seconds: f64) -> String {
    format!("{:.3} ms", seconds * 1e3)
}

/// The figures of one database, over the repetitions.
struct Figures<'a> {
    outcome: &'a Outcome,
}

impl Figures<'_> {
    /// The spread of `figure` for the kind at `index`.
    fn spread(&self, index: usize, figure: impl Fn(&Measured) -> f64) -> Spread {
        Spread::of(
            self.outcome
                .repetitions
                .iter()
                .map(|measured| figure(&measured[index])),
        )
    }

    /// The spread of the kind's figure over auto-increment's, the ratio taken within each
    /// repetition; `—` for auto-increment itself.
    fn ratio(
        &self,
        index: usize,
        figure: impl Fn(&Measured) -> f64,
        baseline: impl Fn(&Measured) -> f64,
    ) -> String {
        if index == 0 {
            return "—".into();
        }
        Spread::of(
            self.outcome
                .repetitions
                .iter()
                .map(|measured| figure(&measured[index]) / baseline(&measured[0])),
        )
        .show_ratio()
    }

    /// A figure's two cells in the kind's row: its spread, shown by `show`, and its ratio to
    /// auto-increment's same figure.
    fn cells(
        &self,
        index: usize,
        figure: impl Fn(&Measured) -> f64 + Copy,
        show: impl Fn(f64) -> String,
    ) -> String {
        format!(
            "{} | {}",
            self.spread(index, figure).show(show),
            self.ratio(index, figure, figure)
        )
    }

    /// [`Figures::cells`] of two figures shown alike, side by side.
    fn two_cells(
        &self,
        index: usize,
        first: impl Fn(&Measured) -> f64 + Copy,
        second: impl Fn(&Measured) -> f64 + Copy,
        show: impl Fn(f64) -> String + Copy,
    ) -> String {
        format!(
            "{} | {}",
            self.cells(index, first, show),
            self.cells(index, second, show)
        )
    }
}

/// The Markdown report of one database.
fn report(settings: &Settings, outcome: &Outcome) -> String {
    let figures = Figures { outcome };
    let segments = settings.rows / settings.segment;
    let mut out = String::new();
    let header = Kind::ALL
        .iter()
        .map(|kind| kind.name())
        .collect::<Vec<_>>()
        .join(" | ");
    writeln!(out, "### {}\n", outcome.heading).unwrap();
    writeln!(
        out,
        "Insert rate (rows/s) of each segment of {} rows, median (min–max) of {} repetitions:\n",
        settings.segment,
        outcome.repetitions.len()
    )
    .unwrap();
    writeln!(out, "| rows | {header} |").unwrap();
    writeln!(out, "|---:|{}", "---:|".repeat(KINDS)).unwrap();
    let segment_rate =
        |segment: usize| move |r: &Measured| rate(settings.segment, r.segments[segment]);
    for segment in 0..segments {
        let cells = (0..KINDS)
            .map(|index| figures.spread(index, segment_rate(segment)).show(show_rate))
            .collect::<Vec<_>>()
            .join(" | ");
        writeln!(out, "| {} | {cells} |", (segment + 1) * settings.segment).unwrap();
    }
    writeln!(
        out,
        "\nThe same segments' rates × auto-increment's, within each repetition:\n"
    )
    .unwrap();
    let ratio_header = Kind::ALL[1..]
        .iter()
        .map(|kind| kind.name())
        .collect::<Vec<_>>()
        .join(" | ");
    writeln!(out, "| rows | {ratio_header} |").unwrap();
    writeln!(out, "|---:|{}", "---:|".repeat(KINDS - 1)).unwrap();
    for segment in 0..segments {
        let cells = (1..KINDS)
            .map(|index| figures.ratio(index, segment_rate(segment), segment_rate(segment)))
            .collect::<Vec<_>>()
            .join(" | ");
        writeln!(out, "| {} | {cells} |", (segment + 1) * settings.segment).unwrap();
    }

    let all_rows = |r: &Measured| rate(settings.rows, r.segments.iter().sum());
    let last = |r: &Measured| rate(settings.segment, *r.segments.last().unwrap());
    kind_table(
        &mut out,
        "rows/s, all rows | × auto-increment | rows/s, last segment | × auto-increment",
        |index| figures.two_cells(index, all_rows, last, show_rate),
    );

    let (table, primary) = match outcome.database {
        Database::Postgres => ("table (heap)", "primary-key index"),
        Database::MariaDb => (
            "table = clustered primary index (DATA_LENGTH)",
            "primary-key index",
        ),
    };
    let table_size = |r: &Measured| r.sizes.table as f64;
    let created_at_size = |r: &Measured| r.sizes.created_at_index as f64;
    kind_table(
        &mut out,
        &format!(
            "{table} | × auto-increment | {primary} | × auto-increment | created_at index | × auto-increment"
        ),
        |index| {
            let primary = if outcome.repetitions[0][0].sizes.primary_index.is_some() {
                let primary_size = |r: &Measured| r.sizes.primary_index.unwrap() as f64;
                figures.cells(index, primary_size, show_mib)
            } else {
                "in the table | —".into()
            };
            format!(
                "{} | {primary} | {}",
                figures.cells(index, table_size, show_mib),
                figures.cells(index, created_at_size, show_mib)
            )
        },
    );

    let p50 = |r: &Measured| r.lookup_p50.as_secs_f64();
    let p99 = |r: &Measured| r.lookup_p99.as_secs_f64();
    kind_table(
        &mut out,
        "lookup p50 | × auto-increment | lookup p99 | × auto-increment",
        |index| figures.two_cells(index, p50, p99, show_ms),
    );

    let by_created_at = |r: &Measured| r.scan_by_created_at.as_secs_f64();
    kind_table(
        &mut out,
        "window: rows | by key | × auto-increment by created_at | by created_at | × auto-increment by created_at",
        |index| {
            let (by_key, by_key_ratio) = if Kind::ALL[index].time_ordered() {
                let by_key = |r: &Measured| r.scan_by_key.unwrap().as_secs_f64();
                (
                    figures.spread(index, by_key).show(show_ms),
                    figures.ratio(index, by_key, by_created_at),
                )
            } else {
                ("—".into(), "—".into())
            };
            format!(
                "{} | {by_key} | {by_key_ratio} | {}",
                figures
                    .spread(index, |r| r.scan_rows as f64)
                    .show(|rows| format!("{rows:.0}")),
                figures.cells(index, by_created_at, show_ms)
            )
        },
    );
    out
}

/// A table of one row per key kind, after a blank line: `columns` are its columns after
/// the key's (right-aligned), `row` a kind's cells by its index in [`Kind::ALL`].
fn kind_table(out: &mut String, columns: &str, row: impl Fn(usize) -> String) {
    let count = columns.split(" | ").count();
    writeln!(out, "\n| key | {columns} |").unwrap();
    writeln!(out, "|---|{}", "---:|".repeat(count)).unwrap();
    for (index, kind) in Kind::ALL.iter().enumerate() {
        writeln!(out, "| {} | {} |", kind.name(), row(index)).unwrap();
    }
}

/// The CSV of every segment's rate: the median, minimum and maximum over the repetitions.
fn csv(settings: &Settings, all: &[Outcome]) -> String {
    let mut out = String::from(
        "database,key,rows,segment_rows,repetitions,rows_per_second_median,rows_per_second_min,rows_per_second_max\n",
    );
    for outcome in all {
        let figures = Figures { outcome };
        for (index, kind) in Kind::ALL.iter().enumerate() {
            for segment in 0..settings.rows / settings.segment {
                let spread = figures.spread(index, |r| rate(settings.segment, r.segments[segment]));
                writeln!(
                    out,
                    "{},{},{},{},{},{:.0},{:.0},{:.0}",
                    outcome.database.name(),
                    kind.name(),
                    (segment + 1) * settings.segment,
                    settings.segment,
                    outcome.repetitions.len(),
                    spread.median,
                    spread.min,
                    spread.max,
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

/// The SVG chart: one panel per database, the median insert rate over rows inserted, a line
/// per key, with a bar from the minimum to the maximum at every point.
fn svg(settings: &Settings, all: &[Outcome]) -> String {
    const WIDTH: f64 = 800.0;
    const PANEL: f64 = 300.0;
    const LEFT: f64 = 80.0;
    const RIGHT: f64 = 190.0;
    const TOP: f64 = 40.0;
    const BOTTOM: f64 = 50.0;
    let height = all.len() as f64 * (PANEL + TOP + BOTTOM);
    let segments = settings.rows / settings.segment;
    let mut out = String::new();
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" viewBox="0 0 {WIDTH} {height}" font-family="sans-serif" font-size="12">"#
    )
    .unwrap();
    writeln!(out, r#"<rect width="100%" height="100%" fill="white"/>"#).unwrap();
    let plot_width = WIDTH - LEFT - RIGHT;
    for (panel, outcome) in all.iter().enumerate() {
        let figures = Figures { outcome };
        // spreads[kind][segment]
        let spreads = (0..KINDS)
            .map(|index| {
                (0..segments)
                    .map(|segment| {
                        figures.spread(index, |r| rate(settings.segment, r.segments[segment]))
                    })
                    .collect::<Vec<_>>()
            })
            .collect::<Vec<_>>();
        let top = panel as f64 * (PANEL + TOP + BOTTOM) + TOP;
        let max_rate = spreads
            .iter()
            .flatten()
            .map(|spread| spread.max)
            .fold(0.0, f64::max);
        let y_step = tick_step(max_rate);
        let y_max = (max_rate / y_step).ceil() * y_step;
        let x_step = tick_step(settings.rows as f64);
        let x = |rows: f64| LEFT + rows / settings.rows as f64 * plot_width;
        let y = |rate: f64| top + PANEL - rate / y_max * PANEL;
        writeln!(
            out,
            r#"<text x="{LEFT}" y="{}" font-size="14"><tspan font-weight="bold">{}</tspan>: rows/s per {} rows, median of {} (bars: min–max)</text>"#,
            top - 14.0,
            escape(&outcome.heading),
            thousands(settings.segment as f64),
            outcome.repetitions.len(),
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
            r#"<text x="{}" y="{}" text-anchor="middle">rows inserted per key ({} rows per INSERT, the keys interleaved)</text>"#,
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
        for (line, (kind, spreads)) in Kind::ALL.iter().zip(&spreads).enumerate() {
            let (colour, dashed) = kind.colour();
            // The bars side by side, a little apart, so that they do not hide each other.
            let offset = (line as f64 - (KINDS - 1) as f64 / 2.0) * 3.0;
            let points = spreads
                .iter()
                .enumerate()
                .map(|(segment, spread)| {
                    let px = x(((segment + 1) * settings.segment) as f64);
                    writeln!(
                        out,
                        r#"<line x1="{0:.1}" x2="{0:.1}" y1="{1:.1}" y2="{2:.1}" stroke="{colour}" stroke-width="1.5" opacity="0.6"/>"#,
                        px + offset,
                        y(spread.min),
                        y(spread.max),
                    )
                    .unwrap();
                    format!("{px:.1},{:.1}", y(spread.median))
                })
                .collect::<Vec<_>>();
            let dash = if dashed {
                r#" stroke-dasharray="6 3""#
            } else {
                ""
            };
            writeln!(
                out,
                r#"<polyline fill="none" stroke="{colour}" stroke-width="{}"{dash} points="{}"/>"#,
                if *kind == Kind::UlidFlake { 3 } else { 2 },
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
                r#"<line x1="{0}" x2="{1}" y1="{2}" y2="{2}" stroke="{colour}" stroke-width="3"{dash}/><text x="{3}" y="{4}">{5}</text>"#,
                LEFT + plot_width + 12.0,
                LEFT + plot_width + 36.0,
                legend_y,
                LEFT + plot_width + 42.0,
                legend_y + 4.0,
                escape(kind.short_name())
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

/// The load averages over 1, 5 and 15 minutes (`/proc/loadavg`).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".into(),
        |text| {
            text.split_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        },
    )
}

/// The machine: CPU model and count, memory.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |text: &str, name: &str| {
        text.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            (key.trim() == name).then(|| value.trim().to_owned())
        })
    };
    let model = field(&cpuinfo, "model name")
        .or_else(|| {
            let lscpu = std::process::Command::new("lscpu").output().ok()?;
            field(&String::from_utf8_lossy(&lscpu.stdout), "Model name")
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cpus = std::thread::available_parallelism().map_or(0, usize::from);
    let memory = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| field(&text, "MemTotal"))
        .and_then(|value| value.trim_end_matches(" kB").parse::<u64>().ok())
        .map_or_else(
            || "unknown memory".into(),
            |kib| format!("{:.1} GiB memory", kib as f64 / f64::from(1 << 20)),
        );
    format!("{model}, {cpus} CPUs, {memory}")
}

#[tokio::main]
async fn main() {
    let settings = Settings::from_args();
    let started = Instant::now();
    let load_at_start = load_average();
    let mut all = Vec::new();
    for &database in &settings.databases {
        let (scratch, pool) = Scratch::create(database).await;
        let heading = pool.describe().await;
        pool.install_generator().await;
        // An untimed repetition of every kind, so that the first measured one does not pay
        // for warming up the connection, its statement cache and the server.
        let warm_up = Settings {
            rows: settings.batch * 10,
            segment: settings.batch * 10,
            lookups: 100,
            scans: 1,
            progress: false,
            explain: false,
            ..settings.clone()
        };
        eprintln!("db: {}: warming up", database.name());
        repetition(&pool, &warm_up, 0, "warm-up").await;
        let mut repetitions = Vec::new();
        for number in 0..settings.repetitions {
            let label = format!("repetition {}/{}", number + 1, settings.repetitions);
            let start = Instant::now();
            repetitions.push(repetition(&pool, &settings, number, &label).await);
            eprintln!(
                "db: {} {label}: done in {:.1} s",
                database.name(),
                start.elapsed().as_secs_f64()
            );
        }
        scratch.drop(pool).await;
        all.push(Outcome {
            database,
            heading,
            repetitions,
        });
    }
    let load_at_end = load_average();
    println!(
        "## Database scale ({} rows per key, batches of {}, {} lookups, {} repetitions)\n",
        settings.rows, settings.batch, settings.lookups, settings.repetitions
    );
    println!(
        "Machine: {}; load average (1, 5, 15 min) {load_at_start} at the start, \
         {load_at_end} at the end; the run took {:.1} min.\n",
        machine(),
        started.elapsed().as_secs_f64() / 60.0
    );
    println!(
        "Each table: the key, `created_at` (indexed) and a ~40-character `body`. In every \
         repetition the {KINDS} tables start empty and are filled side by side, a batch of \
         each in turn, the order of the keys changing from batch to batch by a Williams design \
         (every key in every position and right after every other key equally often); lookups \
         (the same random row positions on every key) and window scans take turns the same \
         way. Every \
         figure is the median of the {} repetitions, with their range (min–max) where it \
         shows. `× auto-increment` is the key's figure over auto-increment's within each \
         repetition, then the median and range of those ratios: `≠` when the range excludes \
         1.00 (a difference beyond the spread), `≈` when it includes 1.00 (none beyond the \
         spread). For rates higher is better, for sizes and times lower is better. The range \
         scan fetches the rows of a time window holding 1% of them, through the key where the \
         key can answer it (Ulid-Flake, UUIDv7; for the keys made by the database, the window \
         in the keys' own milliseconds) and through the `created_at` index, each timed run right \
         after an untimed one of the same query (its pages as cached as they can be); both \
         ratios are against auto-increment's scan by `created_at`.\n",
        settings.repetitions
    );
    for outcome in &all {
        println!("{}", report(&settings, outcome));
    }
    std::fs::write(&settings.csv, csv(&settings, &all)).unwrap();
    std::fs::write(&settings.svg, svg(&settings, &all)).unwrap();
    eprintln!("db: wrote {} and {}", settings.csv, settings.svg);
}

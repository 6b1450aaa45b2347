//! The database's own generator, `ulid_flake_generate(namespace)` (the second migration), on
//! PostgreSQL (a column default) and MariaDB (a trigger): eight sessions inserting at once
//! with a millisecond's capacity shrunk, a clock stepped forward and back, an open transaction
//! beside other inserters, a lease of the application in the same namespace, and the errors of
//! bad calls. Each test has a database of its own, since the generator's state is one per
//! database.
//!
//! The shrunk capacity and the stepped clock come from `test_generate(namespace)`, a function
//! each test database gets: it reads two session settings of the test's and passes them to
//! the owner's `ulid_flake_make_key`, the step `ulid_flake_generate` takes with the server's
//! clock and the whole field. Production has no such setting.

use std::collections::HashSet;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use sqlx::{Connection, Executor, Row};
use ulid_flake_sqlx::lease::{LeaseError, LeaseOptions};
use ulid_flake_sqlx::{Epoch, Id, UlidFlake};

use crate::support::{mysql_url, postgres_url, sql, unique_name};

/// The rows of the test tables.
struct Invoice;

/// Sessions inserting at once.
const SESSIONS: usize = 8;
/// Inserts of each session.
const INSERTS: usize = 250;
/// The tests' field maximum: 256 values, so a millisecond holds about two keys and eight
/// sessions use it up.
const RANDOMNESS_MAX: i64 = 255;
/// The field at its least: one key a millisecond, so two calls that raced past the lock would
/// make the same key.
const ONE_KEY_A_MILLISECOND: i64 = 0;

fn unix_ms_now() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// A key's Unix millisecond, by the default epoch.
fn unix_ms(id: Id<Invoice>) -> i64 {
    i64::try_from(id.ms_since_epoch() + Epoch::DEFAULT.unix_ms()).unwrap()
}

/// The error of a call whose reservation (id 0 of `billing`) is gone.
const RESERVATION_LOST: &str = "reservation lost: expected scalability id 0 of namespace 'billing' reserved for the database's generator in ulid_flake_leases (holder -9223372036854775808, never expiring), found no such row (a lease may take the id)";

fn database_message(error: sqlx::Error) -> String {
    match error {
        sqlx::Error::Database(error) => error.message().to_owned(),
        other => panic!("expected a database error, found {other:?}"),
    }
}

/// The message of the database error `call` ends with, after 2 s (and less than 3).
async fn message_after_2_s<T: std::fmt::Debug>(
    call: impl Future<Output = Result<T, sqlx::Error>>,
) -> String {
    let started = std::time::Instant::now();
    let error = call.await.unwrap_err();
    let waited = started.elapsed();
    assert!(
        (Duration::from_secs(2)..Duration::from_secs(3)).contains(&waited),
        "failed after {waited:?}"
    );
    database_message(error)
}

/// `url` with its database replaced by `database`.
fn with_database(url: &str, database: &str) -> String {
    let (server, _) = url.rsplit_once('/').unwrap();
    format!("{server}/{database}")
}

/// The checks on what the eight sessions inserted: `sessions[s]` holds session `s`'s keys
/// with the clock the database read after making each, in insert order; `stored` the table's
/// keys in key order. With room for more than one key a millisecond, returns whether the
/// shrunk field made keys share a millisecond and used one up, which takes two keys in one
/// millisecond: calls slowed past a millisecond each (on two busy cores) may make none.
fn check_sessions(
    sessions: &[Vec<(Id<Invoice>, i64)>],
    stored: &[Id<Invoice>],
    scalability_id: u8,
    start_ms: i64,
    randomness_max: i64,
) -> bool {
    let mut all: Vec<Id<Invoice>> = Vec::new();
    for keys in sessions {
        assert_eq!(keys.len(), INSERTS);
        for pair in keys.windows(2) {
            assert!(
                pair[0].0 < pair[1].0,
                "not increasing within a session: {pair:?}"
            );
        }
        all.extend(keys.iter().map(|(id, _)| *id));
    }
    assert_eq!(
        all.iter().collect::<HashSet<_>>().len(),
        SESSIONS * INSERTS,
        "a duplicate"
    );
    all.sort();
    assert_eq!(stored, all.as_slice());
    for id in &all {
        assert_eq!(id.scalability_id(), scalability_id, "{id}");
        assert!(unix_ms(*id) >= start_ms, "{id} before the test started");
        assert!(
            i64::from(id.scalable_randomness()) <= randomness_max,
            "{id}"
        );
    }
    if randomness_max == 0 {
        return true;
    }
    // The shrunk field made both happen: keys sharing a millisecond, and a millisecond used up,
    // so that a key went on in a millisecond the clock had not reached when the key was made.
    let shared = all
        .windows(2)
        .filter(|pair| pair[0].ms_since_epoch() == pair[1].ms_since_epoch())
        .count();
    let bumped = sessions
        .iter()
        .flatten()
        .filter(|(id, clock_ms)| unix_ms(*id) > *clock_ms)
        .count();
    shared > 0 && bumped > 0
}

/// How many times the eight sessions insert, at most, for a millisecond to be used up.
const ATTEMPTS: usize = 5;

macro_rules! generator_tests {
    (
        $database:ident, $connection:ty, $url:path, $migrator:path,
        create_database: $create_database:literal,
        install: $install:literal,
        install_with_epoch: $install_with_epoch:literal,
        reserved_row: $reserved_row:literal,
        generate: $generate:literal,
        test_generator: $test_generator:literal,
        set_randomness_max: $set_randomness_max:literal,
        set_clock_offset_ms: $set_clock_offset_ms:literal,
        create_table: $create_table:literal,
        key_default: $key_default:expr,
        insert: $insert:literal,
        insert_lease: $insert_lease:literal,
        lease: $lease:path,
        truncate_refused: $truncate_refused:expr,
        remove_reservation: $remove_reservation:expr,
        begin_isolated: $begin_isolated:literal,
        concurrent_install_sqlstate: $concurrent_install_sqlstate:literal
    ) => {
        mod $database {
            use super::*;

            /// A new database with the migrations applied and `test_generate`: its URL.
            pub(super) async fn fresh_database() -> String {
                let url = $url();
                let database = unique_name("ulid_flake_test_generator");
                let mut admin = <$connection>::connect(&url).await.unwrap();
                admin.execute(sql(&format!($create_database, database))).await.unwrap();
                let url = with_database(&url, &database);
                let mut connection = <$connection>::connect(&url).await.unwrap();
                $migrator.run(&mut connection).await.unwrap();
                connection.execute($test_generator).await.unwrap();
                url
            }

            async fn install(connection: &mut $connection, namespace: &str) -> u8 {
                let id: i16 = sqlx::query_scalar($install)
                    .bind(namespace)
                    .fetch_one(&mut *connection)
                    .await
                    .unwrap();
                u8::try_from(id).unwrap()
            }

            /// The message of an install of `namespace` with `epoch_ms` that is refused, once
            /// it is checked that the install reserved no id (id 0, the lowest, is free).
            async fn refused_install(connection: &mut $connection, namespace: &str, epoch_ms: i64) -> String {
                let error = sqlx::query($install_with_epoch).bind(namespace).bind(epoch_ms).execute(&mut *connection).await.unwrap_err();
                let taken: Option<(i64, i64)> = sqlx::query_as($reserved_row).bind(namespace).bind(0_i16).fetch_optional(&mut *connection).await.unwrap();
                assert_eq!(taken, None, "{namespace}: an id reserved by a refused install");
                database_message(error)
            }

            /// A table `invoice` whose key `generator` (`ulid_flake_generate` or
            /// `test_generate`) makes from `namespace`.
            async fn create_table(connection: &mut $connection, generator: &str, namespace: &str) {
                let call = format!("{generator}('{namespace}')");
                connection.execute(sql(&format!($create_table, call))).await.unwrap();
                let key_default: Option<String> = $key_default(generator, namespace);
                if let Some(statement) = key_default {
                    connection.execute(sql(&statement)).await.unwrap();
                }
            }

            /// Inserts a row for `session`: its key, and the database's clock read after it.
            async fn insert(connection: &mut $connection, session: i32) -> (Id<Invoice>, i64) {
                let row = sqlx::query($insert).bind(session).fetch_one(&mut *connection).await.unwrap();
                (row.get("id"), row.get("clock_ms"))
            }

            /// A key from `generator` (`ulid_flake_generate` or `test_generate`).
            async fn generate(connection: &mut $connection, generator: &str, namespace: &str) -> Result<Id<Invoice>, sqlx::Error> {
                sqlx::query_scalar(sql(&format!($generate, generator))).bind(namespace).fetch_one(&mut *connection).await
            }

            /// Eight sessions insert at once, with a field maximum of `randomness_max`:
            /// every key checked by [`check_sessions`], again on a fresh database until they
            /// used a millisecond up ([`ATTEMPTS`] at most).
            async fn eight_sessions_insert(randomness_max: i64) {
                for _ in 0..ATTEMPTS {
                    if eight_sessions_insert_once(randomness_max).await {
                        return;
                    }
                }
                panic!("no millisecond was used up in {ATTEMPTS} attempts");
            }

            async fn eight_sessions_insert_once(randomness_max: i64) -> bool {
                let url = fresh_database().await;
                let namespace = "billing";
                let mut connection = <$connection>::connect(&url).await.unwrap();
                let scalability_id = install(&mut connection, namespace).await;
                assert_eq!(scalability_id, 0, "the lowest free id");
                assert_eq!(install(&mut connection, namespace).await, scalability_id, "installed once");
                create_table(&mut connection, "test_generate", namespace).await;
                let start_ms = unix_ms_now();
                let sessions = (0..SESSIONS).map(|session| {
                    let url = url.clone();
                    tokio::spawn(async move {
                        let mut connection = <$connection>::connect(&url).await.unwrap();
                        connection.execute(sql(&format!($set_randomness_max, randomness_max))).await.unwrap();
                        let mut keys = Vec::with_capacity(INSERTS);
                        for _ in 0..INSERTS {
                            keys.push(insert(&mut connection, i32::try_from(session).unwrap()).await);
                        }
                        keys
                    })
                });
                let mut keys = Vec::new();
                for session in sessions.collect::<Vec<_>>() {
                    keys.push(session.await.unwrap());
                }
                let stored: Vec<Id<Invoice>> = sqlx::query_scalar("SELECT id FROM invoice ORDER BY id")
                    .fetch_all(&mut connection)
                    .await
                    .unwrap();
                check_sessions(&keys, &stored, scalability_id, start_ms, randomness_max)
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn eight_sessions_get_distinct_increasing_keys_of_the_reserved_id() {
                eight_sessions_insert(RANDOMNESS_MAX).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn eight_sessions_at_one_key_a_millisecond_never_repeat_one() {
                eight_sessions_insert(ONE_KEY_A_MILLISECOND).await;
            }

            /// The clock stepped 60 s forward, then back (as when a clock that ran ahead is
            /// corrected): the keys go on from the last one, never back.
            #[tokio::test]
            async fn keys_go_on_from_the_last_when_the_clock_steps_back() {
                let url = fresh_database().await;
                let mut connection = <$connection>::connect(&url).await.unwrap();
                install(&mut connection, "billing").await;
                let before = generate(&mut connection, "test_generate", "billing").await.unwrap();
                connection.execute(sql(&format!($set_clock_offset_ms, 60_000))).await.unwrap();
                let ahead = generate(&mut connection, "test_generate", "billing").await.unwrap();
                assert!(unix_ms(ahead) >= unix_ms(before) + 60_000, "{before} then {ahead}");
                connection.execute(sql(&format!($set_clock_offset_ms, 0))).await.unwrap();
                let mut last = ahead;
                for _ in 0..500 {
                    let next = generate(&mut connection, "test_generate", "billing").await.unwrap();
                    assert!(next > last, "{last} then {next}");
                    assert!(unix_ms(next) >= unix_ms(ahead), "{next} went back to the clock");
                    last = next;
                }
            }

            /// The state and its lock are not the transaction's: another session inserts while
            /// a transaction that made a key stays open, and a rollback gives no key back — a
            /// key made 60 s ahead in a transaction rolled back still holds the next key ahead.
            #[tokio::test]
            async fn an_open_transaction_makes_no_inserter_wait() {
                let url = fresh_database().await;
                let mut first = <$connection>::connect(&url).await.unwrap();
                install(&mut first, "billing").await;
                create_table(&mut first, "test_generate", "billing").await;
                let mut second = <$connection>::connect(&url).await.unwrap();
                let mut open = first.begin().await.unwrap();
                let (made, _) = insert(&mut open, 1).await;
                let (during, _) = tokio::time::timeout(Duration::from_secs(5), insert(&mut second, 2))
                    .await
                    .expect("an insert waited for another session's transaction");
                open.rollback().await.unwrap();
                assert!(made < during, "{made}, {during}");

                first.execute(sql(&format!($set_clock_offset_ms, 60_000))).await.unwrap();
                let mut open = first.begin().await.unwrap();
                let (ahead, _) = insert(&mut open, 1).await;
                open.rollback().await.unwrap();
                first.execute(sql(&format!($set_clock_offset_ms, 0))).await.unwrap();
                let (after, _) = insert(&mut first, 1).await;
                assert!(unix_ms(ahead) >= unix_ms(during) + 60_000, "{during} then {ahead}");
                assert!(after > ahead, "the rollback gave {ahead} back: then {after}");
            }

            /// The install takes an expired lease's id, and raises the state to its own
            /// millisecond: a clock reading from before it (60 s back) stamps no key there.
            #[tokio::test]
            async fn no_key_is_stamped_before_the_install() {
                let url = fresh_database().await;
                let mut connection = <$connection>::connect(&url).await.unwrap();
                let expired_us = (unix_ms_now() - 1_000) * 1_000;
                sqlx::query($insert_lease).bind("billing").bind(0_i16).bind(expired_us).execute(&mut connection).await.unwrap();
                let before_install = unix_ms_now();
                assert_eq!(install(&mut connection, "billing").await, 0, "the expired lease's id");
                connection.execute(sql(&format!($set_clock_offset_ms, -60_000))).await.unwrap();
                let key = generate(&mut connection, "test_generate", "billing").await.unwrap();
                assert!(unix_ms(key) >= before_install, "{key} stamped before the install");
            }

            /// Two installs of one namespace in explicit transactions (`SERIALIZABLE` on
            /// PostgreSQL, which refuses `REPEATABLE READ`; `REPEATABLE READ` on MariaDB): the
            /// later waits for the earlier, then fails (PostgreSQL: a serialization failure;
            /// MariaDB: a duplicate key), and once rolled back its retry answers the installed
            /// id, as README.md says.
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn concurrent_installs_in_transactions_fail_the_later_whose_retry_answers_the_id() {
                let url = fresh_database().await;
                let mut first = <$connection>::connect(&url).await.unwrap();
                let mut second = <$connection>::connect(&url).await.unwrap();
                first.execute($begin_isolated).await.unwrap();
                second.execute($begin_isolated).await.unwrap();
                let installed = install(&mut first, "billing").await;
                let later = tokio::spawn(async move {
                    let result = sqlx::query($install).bind("billing").execute(&mut second).await.map(drop);
                    (second, result)
                });
                tokio::time::sleep(Duration::from_millis(500)).await;
                assert!(!later.is_finished(), "the later install did not wait for the earlier");
                first.execute("COMMIT").await.unwrap();
                let (mut second, result) = later.await.unwrap();
                let sqlx::Error::Database(error) = result.unwrap_err() else {
                    panic!("expected a database error");
                };
                assert_eq!(error.code().as_deref(), Some($concurrent_install_sqlstate), "{}", error.message());
                second.execute("ROLLBACK").await.unwrap();
                assert_eq!(install(&mut second, "billing").await, installed);
            }

            /// An application's lease in the namespace takes any id but the database's.
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn a_lease_in_the_namespace_never_takes_the_database_s_id() {
                let url = fresh_database().await;
                let mut connection = <$connection>::connect(&url).await.unwrap();
                let reserved = install(&mut connection, "billing").await;
                let (holder, expires_at_us): (i64, i64) = sqlx::query_as($reserved_row)
                    .bind("billing")
                    .bind(i16::from(reserved))
                    .fetch_one(&mut connection)
                    .await
                    .unwrap();
                assert_eq!((holder, expires_at_us), (ulid_flake_sqlx::sql::DATABASE_GENERATOR_HOLDER, i64::MAX));
                let error = $lease(&url, LeaseOptions::new("billing").ids(reserved..=reserved))
                    .await
                    .err()
                    .expect("a lease took the database's id");
                assert!(matches!(error, LeaseError::AllTaken { .. }), "{error}");
                // The lease tries the two ids in a random order, and takes the other.
                let lease = $lease(&url, LeaseOptions::new("billing").ids(reserved..=reserved + 1))
                    .await
                    .unwrap();
                assert_eq!(lease.status().scalability_id, Some(reserved + 1));
                lease.release().unwrap();
            }

            /// A namespace installed with another epoch (2025-01-01) makes keys of that epoch:
            /// read with it, they carry the server's clock.
            #[tokio::test]
            async fn an_install_with_another_epoch_makes_keys_of_that_epoch() {
                let url = fresh_database().await;
                let mut connection = <$connection>::connect(&url).await.unwrap();
                let epoch = Epoch::from_unix_ms(1_735_689_600_000).unwrap();
                let reserved: i16 = sqlx::query_scalar($install_with_epoch)
                    .bind("billing")
                    .bind(1_735_689_600_000_i64)
                    .fetch_one(&mut connection)
                    .await
                    .unwrap();
                assert_eq!(reserved, 0);
                let before_ms = unix_ms_now();
                let mut keys = Vec::new();
                for _ in 0..20 {
                    keys.push(generate(&mut connection, "ulid_flake_generate", "billing").await.unwrap());
                }
                let after_ms = unix_ms_now();
                for pair in keys.windows(2) {
                    assert!(pair[0] < pair[1], "{pair:?}");
                }
                for key in &keys {
                    let read = i64::try_from(key.unix_ms(epoch)).unwrap();
                    assert!(
                        (before_ms..=after_ms + 1_000).contains(&read),
                        "{key} read with the install's epoch: {read} ms, the test ran {before_ms}..={after_ms}"
                    );
                }
            }

            /// Two namespaces (each under id 0, the lowest free in its own) share the state:
            /// two sessions taking keys of both in turn get keys distinct across both and, in
            /// each session, increasing whichever namespace a key is of. A namespace of another
            /// epoch is refused.
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn two_namespaces_share_the_state_and_never_share_a_key() {
                let url = fresh_database().await;
                let mut connection = <$connection>::connect(&url).await.unwrap();
                assert_eq!(install(&mut connection, "billing").await, 0);
                assert_eq!(install(&mut connection, "shipping").await, 0);
                // Under another epoch, a key of one namespace would be a key of the other,
                // made as many ms later with the same randomness (a review, 2026-12-07: 18 of
                // 32,101 keys on PostgreSQL, epochs 1 s apart): refused, no id taken.
                assert_eq!(
                    refused_install(&mut connection, "returns", 1_735_689_600_000).await,
                    "generator of namespace 'returns' would make keys of namespace 'billing': expected the epoch of the generators installed already, 1704067200000, found 1735689600000"
                );
                let sessions = (0..2).map(|_| {
                    let url = url.clone();
                    tokio::spawn(async move {
                        let mut connection = <$connection>::connect(&url).await.unwrap();
                        let mut keys = Vec::new();
                        for namespace in ["billing", "shipping"].into_iter().cycle().take(400) {
                            keys.push(generate(&mut connection, "ulid_flake_generate", namespace).await.unwrap());
                        }
                        keys
                    })
                });
                let mut all = HashSet::new();
                for session in sessions.collect::<Vec<_>>() {
                    let keys = session.await.unwrap();
                    for pair in keys.windows(2) {
                        assert!(pair[0] < pair[1], "not increasing across the namespaces: {pair:?}");
                    }
                    all.extend(keys);
                }
                assert_eq!(all.len(), 800, "a key of one namespace repeated in the other");
            }

            /// The reserved row and the generator's cannot be changed, deleted or truncated
            /// away; a reservation removed past these guards makes the install fail, naming
            /// the loss, rather than answer an id a lease may take.
            #[tokio::test]
            async fn the_reservation_and_the_generator_stay_as_installed() {
                let url = fresh_database().await;
                let (_, database) = url.rsplit_once('/').unwrap();
                let mut connection = <$connection>::connect(&url).await.unwrap();
                assert_eq!(install(&mut connection, "billing").await, 0);
                let reserved = "scalability id 0 of namespace 'billing' is reserved for the database's generator";
                let fixed = "the generator of namespace 'billing' is fixed: expected no UPDATE of its row in ulid_flake_generators, found one";
                for (statement, expected) in [
                    ("DELETE FROM ulid_flake_leases WHERE namespace = 'billing'", format!("{reserved}: expected no DELETE of its row in ulid_flake_leases, found one")),
                    ("UPDATE ulid_flake_leases SET expires_at_us = 0", format!("{reserved}: expected no UPDATE of its row in ulid_flake_leases, found one")),
                    ("UPDATE ulid_flake_generators SET scalability_id = 1", fixed.to_owned()),
                    ("UPDATE ulid_flake_generators SET epoch_ms = 0", fixed.to_owned()),
                ] {
                    let error = connection.execute(statement).await.unwrap_err();
                    assert_eq!(database_message(error), expected, "{statement}");
                }
                let error = connection.execute("TRUNCATE ulid_flake_leases").await.unwrap_err();
                ($truncate_refused)(database, error);
                let row: (i64, i64) = sqlx::query_as($reserved_row).bind("billing").bind(0_i16).fetch_one(&mut connection).await.unwrap();
                assert_eq!(row, (ulid_flake_sqlx::sql::DATABASE_GENERATOR_HOLDER, i64::MAX));
                assert_eq!(generate(&mut connection, "ulid_flake_generate", "billing").await.unwrap().scalability_id(), 0);

                for statement in $remove_reservation {
                    connection.execute(statement).await.unwrap();
                }
                let error = sqlx::query($install).bind("billing").execute(&mut connection).await.unwrap_err();
                assert_eq!(database_message(error), RESERVATION_LOST);
            }

            #[tokio::test]
            async fn bad_calls_get_errors_naming_the_cause() {
                let url = fresh_database().await;
                let mut connection = <$connection>::connect(&url).await.unwrap();
                install(&mut connection, "billing").await;
                let long = "x".repeat(65);
                for (namespace, expected) in [
                    ("", "invalid namespace: expected 1..=64 bytes, found 0".to_owned()),
                    (long.as_str(), "invalid namespace: expected 1..=64 bytes, found 65".to_owned()),
                    ("unknown", "no generator in namespace 'unknown': expected one installed by ulid_flake_install_generator, found none".to_owned()),
                ] {
                    let error = generate(&mut connection, "ulid_flake_generate", namespace).await.unwrap_err();
                    assert_eq!(database_message(error), expected);
                }
                let error = sqlx::query($install_with_epoch).bind("billing").bind(5_i64).execute(&mut connection).await.unwrap_err();
                assert_eq!(
                    database_message(error),
                    "generator of namespace 'billing' installed already with another epoch: expected 1704067200000, found 5"
                );
                connection.execute(sql(&format!($set_randomness_max, 40_000))).await.unwrap();
                let error = sqlx::query_scalar::<_, i64>("SELECT test_generate('billing')").fetch_one(&mut connection).await.unwrap_err();
                assert_eq!(database_message(error), "invalid field maximum: expected 0..=32767, found 40000");
                connection.execute(sql(&format!($set_randomness_max, 32_767))).await.unwrap();
                let error = sqlx::query($install).bind(long.as_str()).execute(&mut connection).await.unwrap_err();
                assert_eq!(database_message(error), "invalid namespace: expected 1..=64 bytes, found 65");
                // An epoch in 2100: no key could be made with it, and no id is taken for it.
                assert_eq!(
                    refused_install(&mut connection, "future", 4_102_444_800_000).await,
                    "invalid epoch: expected one 0..=8796093022207 ms before the server's clock, found 4102444800000 Unix ms"
                );
                // Ids 0 and 1 leased, 2's lease expired: the install takes 2. Then all 32 leased.
                let far = i64::MAX - 1;
                for (id, expires) in [(0_i16, far), (1, far), (2, 1)] {
                    sqlx::query($insert_lease).bind("crowded").bind(id).bind(expires).execute(&mut connection).await.unwrap();
                }
                assert_eq!(install(&mut connection, "crowded").await, 2);
                // Leases of the default epoch expired 1 s ago on id 0 and 10 s ago on id 1: an
                // install whose epoch is 5 s later takes 1, the id on which its keys follow the
                // lease's IDs (in a database of its own: the namespaces of one share an epoch).
                let mut later = <$connection>::connect(&fresh_database().await).await.unwrap();
                let now_us = unix_ms_now() * 1_000;
                for (id, expires) in [(0_i16, now_us - 1_000_000), (1, now_us - 10_000_000)] {
                    sqlx::query($insert_lease).bind("later").bind(id).bind(expires).execute(&mut later).await.unwrap();
                }
                let reserved: i16 = sqlx::query_scalar($install_with_epoch)
                    .bind("later")
                    .bind(1_704_067_205_000_i64)
                    .fetch_one(&mut later)
                    .await
                    .unwrap();
                assert_eq!(reserved, 1);
                for id in 0..32_i16 {
                    sqlx::query($insert_lease).bind("full").bind(id).bind(far).execute(&mut connection).await.unwrap();
                }
                let error = sqlx::query($install).bind("full").execute(&mut connection).await.unwrap_err();
                assert_eq!(
                    database_message(error),
                    "all scalability ids 0..=31 of namespace 'full' are taken: expected a free id for the database's generator, found every one leased by another holder"
                );
                let generated = generate(&mut connection, "ulid_flake_generate", "crowded").await.unwrap();
                assert_eq!(generated.scalability_id(), 2);
                let _: UlidFlake = generated.into();
            }
        }
    };
}

generator_tests!(
    postgres,
    sqlx::PgConnection,
    postgres_url,
    ulid_flake_sqlx::POSTGRES_MIGRATOR,
    create_database: "CREATE DATABASE {}",
    install: "SELECT ulid_flake_install_generator($1)",
    install_with_epoch: "SELECT ulid_flake_install_generator($1, $2)",
    reserved_row: "SELECT holder, expires_at_us FROM ulid_flake_leases WHERE namespace = $1 AND scalability_id = $2",
    generate: "SELECT {}($1)",
    test_generator: "CREATE FUNCTION test_generate(namespace text) RETURNS bigint LANGUAGE sql VOLATILE AS $$ \
        SELECT ulid_flake_make_key(namespace, \
            floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint \
                + coalesce(nullif(current_setting('ulid_flake_test.clock_offset_ms', true), ''), '0')::bigint, \
            coalesce(nullif(current_setting('ulid_flake_test.randomness_max', true), ''), '32767')::bigint) $$",
    set_randomness_max: "SET ulid_flake_test.randomness_max = '{}'",
    set_clock_offset_ms: "SET ulid_flake_test.clock_offset_ms = '{}'",
    create_table: "CREATE TABLE invoice (id BIGINT PRIMARY KEY DEFAULT {}, session INT NOT NULL)",
    key_default: |_: &str, _: &str| None,
    insert: "INSERT INTO invoice (session) VALUES ($1) RETURNING id, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint AS clock_ms",
    insert_lease: "INSERT INTO ulid_flake_leases (namespace, scalability_id, holder, holder_epoch_ms, holder_margin_us, expires_at_us) VALUES ($1, $2, 7, 1704067200000, 200000, $3)",
    lease: ulid_flake_sqlx::lease_postgres,
    truncate_refused: |_: &str, error: sqlx::Error| assert_eq!(
        database_message(error),
        "cannot truncate a table referenced in a foreign key constraint"
    ),
    remove_reservation: [
        "ALTER TABLE ulid_flake_generators DROP CONSTRAINT ulid_flake_generators_reservation",
        "ALTER TABLE ulid_flake_leases DISABLE TRIGGER ulid_flake_keep_reservation",
        "DELETE FROM ulid_flake_leases WHERE namespace = 'billing'",
    ],
    begin_isolated: "BEGIN ISOLATION LEVEL SERIALIZABLE",
    concurrent_install_sqlstate: "40001"
);

generator_tests!(
    mysql,
    sqlx::MySqlConnection,
    mysql_url,
    ulid_flake_sqlx::MYSQL_MIGRATOR,
    create_database: "CREATE DATABASE {}",
    install: "CALL ulid_flake_install_generator(?, 1704067200000)",
    install_with_epoch: "CALL ulid_flake_install_generator(?, ?)",
    reserved_row: "SELECT holder, expires_at_us FROM ulid_flake_leases WHERE namespace = ? AND scalability_id = ?",
    generate: "SELECT {}(?)",
    test_generator: "CREATE FUNCTION test_generate(namespace TEXT) RETURNS BIGINT NOT DETERMINISTIC READS SQL DATA \
        BEGIN \
            DECLARE utc DATETIME(6); \
            SET STATEMENT time_zone = '+00:00' FOR SELECT SYSDATE(6) INTO utc; \
            RETURN ulid_flake_make_key(namespace, \
                ulid_flake_unix_ms(utc) + COALESCE(@ulid_flake_test_clock_offset_ms, 0), \
                COALESCE(@ulid_flake_test_randomness_max, 32767)); \
        END",
    set_randomness_max: "SET @ulid_flake_test_randomness_max = {}",
    set_clock_offset_ms: "SET @ulid_flake_test_clock_offset_ms = {}",
    create_table: "CREATE TABLE invoice (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, session INT NOT NULL) -- {}",
    key_default: |generator: &str, namespace: &str| Some(
        ulid_flake_sqlx::sql::mysql_generate_trigger("invoice", "id", namespace)
            .replace("ulid_flake_generate(", &format!("{generator}("))
    ),
    insert: "INSERT INTO invoice (session) VALUES (?) RETURNING id, CAST(UNIX_TIMESTAMP(SYSDATE(3)) * 1000 AS SIGNED) AS clock_ms",
    insert_lease: "INSERT INTO ulid_flake_leases (namespace, scalability_id, holder, holder_epoch_ms, holder_margin_us, expires_at_us) VALUES (?, ?, 7, 1704067200000, 200000, ?)",
    lease: ulid_flake_sqlx::lease_mysql,
    // The server cuts its message at 512 bytes, within the foreign key's text.
    truncate_refused: |database: &str, error: sqlx::Error| {
        let sqlx::Error::Database(error) = error else { panic!("expected a database error, found {error:?}") };
        assert_eq!(error.code().as_deref(), Some("42000"));
        let expected = format!(
            "Cannot truncate a table referenced in a foreign key constraint (`{database}`.`ulid_flake_generators`, \
             CONSTRAINT `ulid_flake_generators_reservation` FOREIGN KEY (`namespace`, `scalability_id`) REFERENCES"
        );
        assert!(error.message().starts_with(&expected), "{}", error.message());
    },
    remove_reservation: [
        "SET foreign_key_checks = 0",
        "DROP TRIGGER ulid_flake_keep_reservation_delete",
        "DELETE FROM ulid_flake_leases WHERE namespace = 'billing'",
        "SET foreign_key_checks = 1",
    ],
    begin_isolated: "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ; START TRANSACTION",
    concurrent_install_sqlstate: "23000"
);

/// The functions look their state up in the schema they were created in: a session's
/// temporary sequence of the same name does not stand in for it (the state 60 s ahead stays).
#[tokio::test]
async fn postgres_a_temporary_sequence_does_not_stand_in_for_the_state() {
    let (_, mut connection) = postgres_with_billing().await;
    connection
        .execute("SET ulid_flake_test.clock_offset_ms = '60000'")
        .await
        .unwrap();
    let ahead: Id<Invoice> = sqlx::query_scalar("SELECT test_generate('billing')")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    connection
        .execute("CREATE TEMP SEQUENCE ulid_flake_generator_state")
        .await
        .unwrap();
    let next: Id<Invoice> = sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    assert!(next > ahead, "{ahead} then {next}");
}

/// An install under `REPEATABLE READ` is refused: its snapshot, taken when the statement
/// began, before the install's lock, could miss another install of another epoch, and both
/// would pass the check of the epochs. Under `SERIALIZABLE` it goes through.
#[tokio::test]
async fn postgres_an_install_under_repeatable_read_is_refused() {
    let url = postgres::fresh_database().await;
    let mut connection = sqlx::PgConnection::connect(&url).await.unwrap();
    connection
        .execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        .await
        .unwrap();
    let error = connection
        .execute("SELECT ulid_flake_install_generator('billing')")
        .await
        .unwrap_err();
    assert_eq!(
        database_message(error),
        "invalid transaction isolation for an install: expected read committed or serializable, found repeatable read (its snapshot may predate another install)"
    );
    connection.execute("ROLLBACK").await.unwrap();
    connection
        .execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
        .await
        .unwrap();
    let reserved: i16 = sqlx::query_scalar("SELECT ulid_flake_install_generator('billing')")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    connection.execute("COMMIT").await.unwrap();
    assert_eq!(reserved, 0);
}

/// PostgreSQL checks the reservation at each call: once it is gone (past the foreign key and the
/// trigger, which the owner may drop), every call fails naming the loss, and a lease that then
/// takes the id issues IDs after every key the database made. `TRUNCATE … CASCADE`, which
/// the foreign key allows, is refused by a trigger.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_lost_reservation_stops_every_key_naming_it() {
    let (url, mut connection) = postgres_with_billing().await;
    let error = connection
        .execute("TRUNCATE ulid_flake_leases CASCADE")
        .await
        .unwrap_err();
    assert_eq!(
        database_message(error),
        "ulid_flake_leases holds ids reserved for the database's generator: expected no TRUNCATE of it, found one"
    );
    let mut made: Vec<Id<Invoice>> = Vec::new();
    for _ in 0..10 {
        made.push(
            sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
                .fetch_one(&mut connection)
                .await
                .unwrap(),
        );
    }
    connection
        .execute(
            "ALTER TABLE ulid_flake_generators DROP CONSTRAINT ulid_flake_generators_reservation; \
             ALTER TABLE ulid_flake_leases DISABLE TRIGGER ulid_flake_keep_reservation; \
             DELETE FROM ulid_flake_leases WHERE namespace = 'billing'",
        )
        .await
        .unwrap();
    let generate = "SELECT ulid_flake_generate('billing')";
    let error = connection.execute(generate).await.unwrap_err();
    assert_eq!(database_message(error), RESERVATION_LOST);
    let lease = ulid_flake_sqlx::lease_postgres(&url, LeaseOptions::new("billing").ids(0..=0))
        .await
        .unwrap();
    let issued = lease.generator().try_generate().unwrap();
    let last = made.iter().max().unwrap();
    assert_eq!(issued.scalability_id(), 0);
    assert!(
        issued.ms_since_epoch() > last.ms_since_epoch(),
        "the lease's {issued} not after the database's {last}"
    );
    let error = connection.execute(generate).await.unwrap_err();
    assert_eq!(database_message(error), RESERVATION_LOST);
    lease.release().unwrap();
}

/// Any login may take the state's advisory lock: a call then fails after the step's
/// `lock_timeout`, 2 s, with an error naming the lock and the process that holds it, instead
/// of waiting for as long as the lock is held; once it is released, calls go on.
#[tokio::test]
async fn postgres_a_session_holding_the_lock_makes_calls_fail_after_2_s_naming_it() {
    let (url, mut caller) = postgres_with_billing().await;
    let mut holder = sqlx::PgConnection::connect(&url).await.unwrap();
    let holder_pid: i32 =
        sqlx::query_scalar("SELECT pg_backend_pid() FROM pg_advisory_lock(1431062852, 1179402571)")
            .fetch_one(&mut holder)
            .await
            .unwrap();
    let call = sqlx::query_scalar::<_, i64>("SELECT ulid_flake_generate('billing')")
        .fetch_one(&mut caller);
    assert_eq!(
        message_after_2_s(call).await,
        format!(
            "lock timeout: expected the generator state's advisory lock (1431062852, 1179402571) within 2s, found it held by process {holder_pid}"
        )
    );
    holder
        .execute("SELECT pg_advisory_unlock(1431062852, 1179402571)")
        .await
        .unwrap();
    let key: Id<Invoice> = sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
        .fetch_one(&mut caller)
        .await
        .unwrap();
    assert_eq!(key.scalability_id(), 0);
}

/// Session settings an inserter may set — the names earlier versions of the functions read and
/// the ones `test_generate` reads — at their most harmful: a clock 2^43 - 1 ms ahead (the state pushed past the last
/// representable millisecond, every generator stopped) and one key a millisecond.
const HARMFUL_SETTINGS: [(&str, &str); 4] = [
    ("ulid_flake.test_clock_offset_ms", "8796093022207"),
    ("ulid_flake.test_randomness_max", "0"),
    ("ulid_flake_test.clock_offset_ms", "8796093022207"),
    ("ulid_flake_test.randomness_max", "0"),
];

/// Keys made between two readings of this machine's clock (the servers run on it): each
/// stamped by the clock, a millisecond's use running at most a second ahead of it.
fn check_made_by_the_clock(keys: &[Id<Invoice>], before_ms: i64, after_ms: i64) {
    for key in keys {
        assert!(
            (before_ms..=after_ms + 1_000).contains(&unix_ms(*key)),
            "{key} not made by the clock: {} ms, the test ran {before_ms}..={after_ms}",
            unix_ms(*key)
        );
    }
}

/// Keys an inserter made, and one the owner made after them: none moved by a setting. A clock
/// offset read would put a key 279 years ahead, a field of one value every key's randomness at
/// 0.
fn check_unmoved(keys: &[Id<Invoice>], before_ms: i64, after_ms: i64) {
    check_made_by_the_clock(keys, before_ms, after_ms);
    assert!(
        keys.iter().any(|key| key.scalable_randomness() != 0),
        "every key's randomness 0: {keys:?}"
    );
}

/// One statement that inserts fifty invoices, each keyed by the table's default or trigger,
/// and answers their keys (PostgreSQL's and MariaDB's SQL alike).
fn fifty_invoices() -> String {
    let rows: Vec<String> = (0..50).map(|total| format!("({total})")).collect();
    format!(
        "INSERT INTO invoice (total) VALUES {} RETURNING id",
        rows.join(", ")
    )
}

/// The URL of `url`'s server and database for `user` and `password`.
fn as_user(url: &str, user: &str, password: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap();
    let (_, address) = rest.split_once('@').unwrap();
    format!("{scheme}://{user}:{password}@{address}")
}

/// A role with `EXECUTE` on `ulid_flake_generate` alone (PUBLIC's) and `INSERT` on its table
/// gets keys through the column default, and nothing it sets moves the state: the settings of
/// [`HARMFUL_SETTINGS`] are read by no function of production, and it has no right on the
/// sequence, the step function or `ulid_flake_make_key`.
#[tokio::test]
async fn postgres_a_role_with_execute_alone_gets_keys_and_can_move_nothing() {
    let url = postgres::fresh_database().await;
    let mut owner = sqlx::PgConnection::connect(&url).await.unwrap();
    let role = unique_name("generator_role");
    owner
        .execute(sql(&format!(
            "SELECT ulid_flake_install_generator('billing'); \
             CREATE TABLE invoice (id BIGINT PRIMARY KEY DEFAULT ulid_flake_generate('billing'), total BIGINT); \
             CREATE ROLE {role} LOGIN PASSWORD 'inserts-only'; \
             GRANT INSERT, SELECT ON invoice TO {role}"
        )))
        .await
        .unwrap();
    let mut inserter = sqlx::PgConnection::connect(&as_user(&url, &role, "inserts-only"))
        .await
        .unwrap();
    for (setting, value) in HARMFUL_SETTINGS {
        inserter
            .execute(sql(&format!("SET {setting} = '{value}'")))
            .await
            .unwrap();
    }
    let before_ms = unix_ms_now();
    let mut keys: Vec<Id<Invoice>> = sqlx::query_scalar(sql(&fifty_invoices()))
        .fetch_all(&mut inserter)
        .await
        .unwrap();
    keys.push(
        sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
            .fetch_one(&mut owner)
            .await
            .unwrap(),
    );
    check_unmoved(&keys, before_ms, unix_ms_now());
    assert!(keys.iter().all(|key| key.scalability_id() == 0));
    for (statement, message) in [
        (
            "SELECT setval('ulid_flake_generator_state', 0)",
            "permission denied for sequence ulid_flake_generator_state",
        ),
        (
            "SELECT ulid_flake_next_state(0, 0, 0)",
            "permission denied for function ulid_flake_next_state",
        ),
        (
            "SELECT ulid_flake_make_key('billing', 8796093022207, 0)",
            "permission denied for function ulid_flake_make_key",
        ),
    ] {
        let error = inserter.execute(statement).await.unwrap_err();
        assert_eq!(database_message(error), message);
    }
}

/// `ulid_flake_generate` runs with its owner's rights, and each function's `search_path` is set
/// to the schema it was created in, then `pg_temp`: a role with `EXECUTE` on it and `CREATE` on
/// a schema of its own, first on its `search_path`, where it puts a stand-in for every name the
/// functions use unqualified — the four functions, the `=` of `varchar` and `text`, the two
/// tables and the sequence — runs none of them with the owner's rights. Each stand-in
/// function would set the state back to 0 and the key would be 42: the key goes on from a
/// state the owner put 60 s ahead, in its millisecond, under the reserved id.
#[tokio::test]
async fn postgres_a_caller_s_own_schema_first_on_its_search_path_stands_in_for_nothing() {
    let url = postgres::fresh_database().await;
    let mut owner = sqlx::PgConnection::connect(&url).await.unwrap();
    let role = unique_name("impostor_role");
    owner
        .execute(sql(&format!(
            "SELECT ulid_flake_install_generator('billing'); \
             CREATE ROLE {role} LOGIN PASSWORD 'own-schema'; \
             CREATE SCHEMA {role}; \
             GRANT USAGE, CREATE ON SCHEMA {role} TO {role}"
        )))
        .await
        .unwrap();
    let mut caller = sqlx::PgConnection::connect(&as_user(&url, &role, "own-schema"))
        .await
        .unwrap();
    let set_back = "PERFORM setval('public.ulid_flake_generator_state', 0);";
    caller
        .execute(sql(&format!(
            "SET search_path = {role}, public; \
             CREATE FUNCTION ulid_flake_make_key(namespace text, clock_ms bigint, field_max bigint) \
                 RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN {set_back} RETURN 42; END $$; \
             CREATE FUNCTION ulid_flake_check_namespace(namespace text) RETURNS void \
                 LANGUAGE plpgsql AS $$ BEGIN {set_back} END $$; \
             CREATE FUNCTION ulid_flake_check_reservation(namespace text, scalability_id smallint) \
                 RETURNS void LANGUAGE plpgsql AS $$ BEGIN {set_back} END $$; \
             CREATE FUNCTION ulid_flake_next_state(clock_ms bigint, field_max bigint, epoch_ms bigint) \
                 RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN {set_back} RETURN 0; END $$; \
             CREATE FUNCTION impostor_equals(varchar, text) RETURNS boolean \
                 LANGUAGE plpgsql AS $$ BEGIN {set_back} RETURN true; END $$; \
             CREATE OPERATOR = (LEFTARG = varchar, RIGHTARG = text, FUNCTION = impostor_equals); \
             CREATE TABLE ulid_flake_leases (namespace VARCHAR(64), scalability_id SMALLINT, \
                 holder BIGINT, expires_at_us BIGINT); \
             INSERT INTO ulid_flake_leases VALUES \
                 ('billing', 31, -9223372036854775808, 9223372036854775807); \
             CREATE TABLE ulid_flake_generators (namespace VARCHAR(64), scalability_id SMALLINT, \
                 epoch_ms BIGINT); \
             INSERT INTO ulid_flake_generators VALUES ('billing', 31, 0); \
             CREATE SEQUENCE ulid_flake_generator_state AS bigint MINVALUE 0 START 0"
        )))
        .await
        .unwrap();
    // The state 60 s ahead of the clock, at randomness 0: the next key is in its millisecond.
    owner
        .execute(
            "SET ulid_flake_test.clock_offset_ms = '60000'; \
             SET ulid_flake_test.randomness_max = '0'",
        )
        .await
        .unwrap();
    let ahead: Id<Invoice> = sqlx::query_scalar("SELECT test_generate('billing')")
        .fetch_one(&mut owner)
        .await
        .unwrap();
    assert_eq!(
        (ahead.scalability_id(), ahead.scalable_randomness()),
        (0, 0)
    );
    let key: Id<Invoice> = sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
        .fetch_one(&mut caller)
        .await
        .unwrap();
    assert_eq!(
        (key.ms_since_epoch(), key.scalability_id()),
        (ahead.ms_since_epoch(), 0),
        "{ahead} then {key}"
    );
    assert!(
        (1..=255).contains(&key.scalable_randomness()),
        "{ahead} then {key}"
    );
    let state: i64 = sqlx::query_scalar("SELECT last_value FROM ulid_flake_generator_state")
        .fetch_one(&mut owner)
        .await
        .unwrap();
    assert_eq!(
        state,
        (unix_ms(key) << 15) | i64::from(key.scalable_randomness())
    );
}

/// A user with `INSERT` on a table (the trigger runs as its definer) and `EXECUTE` on
/// `ulid_flake_generate` alone gets keys both ways, and nothing it sets moves the state: the
/// user variables `test_generate` reads (`@ulid_flake_test_clock_offset_ms`,
/// `@ulid_flake_test_randomness_max`, which earlier versions of the functions read too) are
/// read by no function of production, and it has no right on the state or
/// `ulid_flake_make_key`.
#[tokio::test]
async fn mariadb_a_user_with_insert_alone_gets_keys_and_can_move_nothing() {
    let url = mysql::fresh_database().await;
    let (_, database) = url.rsplit_once('/').unwrap();
    let mut owner = sqlx::MySqlConnection::connect(&url).await.unwrap();
    let user = unique_name("generator_user");
    let trigger = ulid_flake_sqlx::sql::mysql_generate_trigger("invoice", "id", "billing");
    for statement in [
        "CALL ulid_flake_install_generator('billing', 1704067200000)".to_owned(),
        "CREATE TABLE invoice (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, total BIGINT)".to_owned(),
        trigger,
        format!("CREATE USER '{user}'@'127.0.0.1' IDENTIFIED BY 'inserts-only'"),
        format!("GRANT INSERT, SELECT ON {database}.invoice TO '{user}'@'127.0.0.1'"),
        format!("GRANT EXECUTE ON FUNCTION {database}.ulid_flake_generate TO '{user}'@'127.0.0.1'"),
    ] {
        owner.execute(sql(&statement)).await.unwrap();
    }
    let mut inserter = sqlx::MySqlConnection::connect(&as_user(&url, &user, "inserts-only"))
        .await
        .unwrap();
    inserter
        .execute(
            "SET @ulid_flake_test_clock_offset_ms = 8796093022207, \
             @ulid_flake_test_randomness_max = 0",
        )
        .await
        .unwrap();
    let before_ms = unix_ms_now();
    let mut keys: Vec<Id<Invoice>> = sqlx::query_scalar(sql(&fifty_invoices()))
        .fetch_all(&mut inserter)
        .await
        .unwrap();
    for connection in [&mut inserter, &mut owner] {
        keys.push(
            sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
                .fetch_one(connection)
                .await
                .unwrap(),
        );
    }
    check_unmoved(&keys, before_ms, unix_ms_now());
    assert!(keys.iter().all(|key| key.scalability_id() == 0));
    for (statement, message) in [
        (
            "ALTER TABLE ulid_flake_generator_state AUTO_INCREMENT = 1".to_owned(),
            format!(
                "ALTER command denied to user '{user}'@'127.0.0.1' for table `{database}`.`ulid_flake_generator_state`"
            ),
        ),
        (
            "SELECT ulid_flake_make_key('billing', 8796093022207, 0)".to_owned(),
            format!(
                "execute command denied to user '{user}'@'127.0.0.1' for routine '{database}.ulid_flake_make_key'"
            ),
        ),
    ] {
        let error = inserter.execute(sql(&statement)).await.unwrap_err();
        assert_eq!(database_message(error), message);
    }
}

/// The trigger's namespace reaches the function as it is, quotes and backslashes included (a
/// hex literal, which no SQL mode reads differently).
#[tokio::test]
async fn mariadb_the_trigger_passes_any_namespace_as_it_is() {
    let url = mysql::fresh_database().await;
    let mut connection = sqlx::MySqlConnection::connect(&url).await.unwrap();
    let namespace = r"o'brien\billing";
    let reserved: i16 = sqlx::query_scalar("CALL ulid_flake_install_generator(?, 1704067200000)")
        .bind(namespace)
        .fetch_one(&mut connection)
        .await
        .unwrap();
    connection
        .execute(
            "CREATE TABLE invoice (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, session INT NOT NULL)",
        )
        .await
        .unwrap();
    let trigger = ulid_flake_sqlx::sql::mysql_generate_trigger("invoice", "id", namespace);
    connection.execute(sql(&trigger)).await.unwrap();
    let key: Id<Invoice> =
        sqlx::query_scalar("INSERT INTO invoice (session) VALUES (1) RETURNING id")
            .fetch_one(&mut connection)
            .await
            .unwrap();
    assert_eq!(i16::from(key.scalability_id()), reserved);
}

/// The clock counts Unix ms past 2038, where `UNIX_TIMESTAMP` answers NULL, and reads UTC
/// whatever the session's time zone (which it leaves as it was); a NULL reading is an error,
/// not a reading "behind the state" that would go on from it unnoticed. A key made at a 2039
/// reading carries that millisecond.
#[tokio::test]
async fn mariadb_the_clock_reads_past_2038_in_any_time_zone() {
    let url = mysql::fresh_database().await;
    let mut connection = sqlx::MySqlConnection::connect(&url).await.unwrap();
    let (old, new, last): (Option<i64>, i64, i64) = sqlx::query_as(
        "SELECT UNIX_TIMESTAMP('2039-01-01 00:00:00'), \
         ulid_flake_unix_ms('2039-01-01 00:00:00.123456'), \
         ulid_flake_unix_ms('9999-12-31 23:59:59.999999')",
    )
    .fetch_one(&mut connection)
    .await
    .unwrap();
    assert_eq!(
        (old, new, last),
        (None, 2_177_452_800_123, 253_402_300_799_999)
    );
    connection
        .execute("CALL ulid_flake_install_generator('billing', 1704067200000)")
        .await
        .unwrap();
    let before_ms = unix_ms_now();
    let mut keys: Vec<Id<Invoice>> = Vec::new();
    for zone in ["+05:30", "-11:00", "SYSTEM"] {
        connection
            .execute(sql(&format!("SET time_zone = '{zone}'")))
            .await
            .unwrap();
        keys.push(
            sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
                .fetch_one(&mut connection)
                .await
                .unwrap(),
        );
        let kept: String = sqlx::query_scalar("SELECT @@session.time_zone")
            .fetch_one(&mut connection)
            .await
            .unwrap();
        assert_eq!(kept, zone);
    }
    check_made_by_the_clock(&keys, before_ms, unix_ms_now());
    let error = connection
        .execute("SELECT ulid_flake_make_key('billing', NULL, 32767)")
        .await
        .unwrap_err();
    assert_eq!(
        database_message(error),
        "no clock reading: expected the server's time in Unix ms, found NULL"
    );
    let in_2039: Id<Invoice> = sqlx::query_scalar(
        "SELECT ulid_flake_make_key('billing', ulid_flake_unix_ms('2039-01-01 00:00:00.123456'), 32767)",
    )
    .fetch_one(&mut connection)
    .await
    .unwrap();
    assert_eq!(unix_ms(in_2039), 2_177_452_800_123);
}

/// Under statement-based binary logging each replica would run the trigger itself and make
/// keys of its own: the function refuses, naming the format, in the trigger and called alone;
/// MIXED (the default, which logs the rows of these statements) is accepted.
#[tokio::test]
async fn mariadb_statement_binary_logging_is_refused() {
    let url = mysql::fresh_database().await;
    let mut connection = sqlx::MySqlConnection::connect(&url).await.unwrap();
    let trigger = ulid_flake_sqlx::sql::mysql_generate_trigger("invoice", "id", "billing");
    for statement in [
        "CALL ulid_flake_install_generator('billing', 1704067200000)",
        "CREATE TABLE invoice (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, total BIGINT)",
        &trigger,
        "SET SESSION binlog_format = 'STATEMENT'",
    ] {
        connection.execute(sql(statement)).await.unwrap();
    }
    for statement in [
        "INSERT INTO invoice (total) VALUES (1)",
        "SELECT ulid_flake_generate('billing')",
    ] {
        let error = connection.execute(statement).await.unwrap_err();
        assert_eq!(
            database_message(error),
            "binary log format STATEMENT: expected ROW or MIXED, found STATEMENT, under which each replica would make keys of its own"
        );
    }
    connection
        .execute("SET SESSION binlog_format = 'MIXED'")
        .await
        .unwrap();
    let key: Id<Invoice> =
        sqlx::query_scalar("INSERT INTO invoice (total) VALUES (1) RETURNING id")
            .fetch_one(&mut connection)
            .await
            .unwrap();
    assert_eq!(key.scalability_id(), 0);
}

/// A fresh PostgreSQL database with the generator of `billing` installed (the default
/// epoch): its URL and a connection to it.
async fn postgres_with_billing() -> (String, sqlx::PgConnection) {
    let url = postgres::fresh_database().await;
    let mut connection = sqlx::PgConnection::connect(&url).await.unwrap();
    sqlx::query("SELECT ulid_flake_install_generator('billing')")
        .execute(&mut connection)
        .await
        .unwrap();
    (url, connection)
}

/// A fresh MariaDB database with the generator of `billing` installed (the default epoch):
/// its URL and a connection to it.
async fn mysql_with_billing() -> (String, sqlx::MySqlConnection) {
    let url = mysql::fresh_database().await;
    let mut connection = sqlx::MySqlConnection::connect(&url).await.unwrap();
    connection
        .execute("CALL ulid_flake_install_generator('billing', 1704067200000)")
        .await
        .unwrap();
    (url, connection)
}

/// MariaDB tables `ledger` (a unique `ref`, so that an insert can wait for another's) and
/// `receipt`, whose keys the triggers of the generators of `billing` and `other` make.
async fn ledger_and_receipt(connection: &mut sqlx::MySqlConnection) {
    for statement in [
        "CALL ulid_flake_install_generator('billing', 1704067200000)".to_owned(),
        "CALL ulid_flake_install_generator('other', 1704067200000)".to_owned(),
        "CREATE TABLE ledger (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, ref VARCHAR(8) NOT NULL UNIQUE)"
            .to_owned(),
        "CREATE TABLE receipt (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, total BIGINT)".to_owned(),
        ulid_flake_sqlx::sql::mysql_generate_trigger("ledger", "id", "billing"),
        ulid_flake_sqlx::sql::mysql_generate_trigger("receipt", "id", "other"),
    ] {
        connection.execute(sql(&statement)).await.unwrap();
    }
}

/// MariaDB locks every table a statement's triggers and functions use when the statement
/// starts, until it ends; the state's table is InnoDB's, whose locks for an insert let other
/// inserters in, and its named lock is released before the call returns. So while one insert
/// waits for a row lock an open transaction holds (a unique `ref` that transaction inserted),
/// other inserts into that table and into another one, in another namespace, go on at once; the
/// waiting one goes on when the transaction ends, with the key its trigger made before it
/// waited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mariadb_a_statement_waiting_for_a_row_lock_makes_no_other_inserter_wait() {
    let url = mysql::fresh_database().await;
    let mut owner = sqlx::MySqlConnection::connect(&url).await.unwrap();
    ledger_and_receipt(&mut owner).await;
    let insert = |statement: &'static str| sqlx::query_scalar::<_, Id<Invoice>>(statement);
    let mut first = owner.begin().await.unwrap();
    let held = insert("INSERT INTO ledger (ref) VALUES ('a') RETURNING id")
        .fetch_one(&mut *first)
        .await
        .unwrap();
    let mut second = sqlx::MySqlConnection::connect(&url).await.unwrap();
    second
        .execute("SET innodb_lock_wait_timeout = 10")
        .await
        .unwrap();
    let waiting = tokio::spawn(async move {
        insert("INSERT INTO ledger (ref) VALUES ('a') RETURNING id")
            .fetch_one(&mut second)
            .await
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut third = sqlx::MySqlConnection::connect(&url).await.unwrap();
    let started = std::time::Instant::now();
    let other_table = insert("INSERT INTO receipt (total) VALUES (1) RETURNING id")
        .fetch_one(&mut third)
        .await
        .unwrap();
    let same_table = insert("INSERT INTO ledger (ref) VALUES ('b') RETURNING id")
        .fetch_one(&mut third)
        .await
        .unwrap();
    let took = started.elapsed();
    assert!(
        took < Duration::from_secs(1),
        "the other inserts took {took:?}"
    );
    assert!(
        !waiting.is_finished(),
        "the second insert of 'a' did not wait"
    );
    first.rollback().await.unwrap();
    let waited = waiting.await.unwrap().unwrap();
    assert!(
        held < waited && waited < other_table && other_table < same_table,
        "{held}, {waited}, {other_table}, {same_table}"
    );
    assert_eq!(
        (waited.scalability_id(), other_table.scalability_id()),
        (0, 0),
        "each namespace's first id"
    );
}

/// A session that holds `LOCK TABLES … WRITE` of a table with the trigger, with autocommit
/// off, holds the state's table too (MariaDB locks the tables a trigger uses with its table,
/// and InnoDB then locks the whole table). Every other call waits for that table's lock
/// before it takes the named lock: it fails after 2 s, holding nothing, rather than stall
/// every caller behind it; once the tables are unlocked, calls go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mariadb_lock_tables_write_with_autocommit_off_makes_calls_fail_after_2_s_holding_nothing()
{
    let url = mysql::fresh_database().await;
    let mut locker = sqlx::MySqlConnection::connect(&url).await.unwrap();
    ledger_and_receipt(&mut locker).await;
    for statement in [
        "SET autocommit = 0",
        "LOCK TABLES ledger WRITE",
        "INSERT INTO ledger (ref) VALUES ('a')",
    ] {
        locker.execute(statement).await.unwrap();
    }
    let mut caller = sqlx::MySqlConnection::connect(&url).await.unwrap();
    let insert = "INSERT INTO receipt (total) VALUES (1) RETURNING id";
    let call = sqlx::query_scalar::<_, Id<Invoice>>(insert).fetch_one(&mut caller);
    assert_eq!(
        message_after_2_s(call).await,
        "Lock wait timeout exceeded; try restarting transaction"
    );
    let mut observer = sqlx::MySqlConnection::connect(&url).await.unwrap();
    let holder: Option<u64> = sqlx::query_scalar(
        "SELECT IS_USED_LOCK(CONCAT('ulid_flake_generator_state ', MD5(DATABASE())))",
    )
    .fetch_one(&mut observer)
    .await
    .unwrap();
    assert_eq!(holder, None, "the named lock was left held");
    for statement in ["UNLOCK TABLES", "COMMIT"] {
        locker.execute(statement).await.unwrap();
    }
    let key = sqlx::query_scalar::<_, Id<Invoice>>(insert)
        .fetch_one(&mut caller)
        .await
        .unwrap();
    assert_eq!(key.scalability_id(), 0);
}

/// The SQL applied again (a migration or `create_mysql_functions` run twice) while sessions
/// insert: each function is replaced in one statement (`CREATE OR REPLACE`), so no insert
/// meets it missing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mariadb_the_sql_applied_again_while_sessions_insert_fails_no_insert() {
    let url = mysql::fresh_database().await;
    let mut owner = sqlx::MySqlConnection::connect(&url).await.unwrap();
    ledger_and_receipt(&mut owner).await;
    let applying = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let mut inserters = Vec::new();
    for _ in 0..4 {
        let (url, applying) = (url.clone(), applying.clone());
        inserters.push(tokio::spawn(async move {
            let mut connection = sqlx::MySqlConnection::connect(&url).await.unwrap();
            let mut inserted = 0;
            while applying.load(std::sync::atomic::Ordering::Relaxed) {
                connection
                    .execute("INSERT INTO receipt (total) VALUES (1)")
                    .await
                    .unwrap();
                inserted += 1;
            }
            inserted
        }));
    }
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(200)).await;
        sqlx::raw_sql(ulid_flake_sqlx::sql::MYSQL_GENERATOR)
            .execute(&mut owner)
            .await
            .unwrap();
    }
    applying.store(false, std::sync::atomic::Ordering::Relaxed);
    for inserter in inserters {
        assert!(inserter.await.unwrap() > 0);
    }
}

/// Any login may take the state's named lock (`ulid_flake_generator_state` and the MD5 of the
/// database's name: named locks are the server's): a call then fails after 2 s with an error naming
/// the connection that holds it, instead of waiting for as long as the lock is held. A call
/// of the holding session itself makes its key and releases the lock however often its
/// session took it (as a call killed while holding it leaves it), so calls go on.
#[tokio::test]
async fn mariadb_a_session_holding_the_lock_makes_calls_fail_after_2_s_naming_it() {
    let (url, mut caller) = mysql_with_billing().await;
    let mut holder = sqlx::MySqlConnection::connect(&url).await.unwrap();
    let (holder_id, lock_name, taken): (u64, String, i32) = sqlx::query_as(
        "SELECT CONNECTION_ID(), @name := CONCAT('ulid_flake_generator_state ', MD5(DATABASE())), \
         GET_LOCK(@name, 0) + GET_LOCK(@name, 0)",
    )
    .fetch_one(&mut holder)
    .await
    .unwrap();
    assert_eq!(taken, 2);
    let generate = || sqlx::query_scalar::<_, Id<Invoice>>("SELECT ulid_flake_generate('billing')");
    assert_eq!(
        message_after_2_s(generate().fetch_one(&mut caller)).await,
        format!(
            "lock wait timeout: expected the generator state's lock, GET_LOCK('{lock_name}'), within 2 s, found it held by connection {holder_id}"
        )
    );
    let by_holder = generate().fetch_one(&mut holder).await.unwrap();
    let after = generate().fetch_one(&mut caller).await.unwrap();
    assert!(by_holder < after, "{by_holder} then {after}");
}

/// The state is the counter of an `AUTO_INCREMENT` column, and a session's `insert_id`,
/// `auto_increment_increment` and `auto_increment_offset` would move the value an insert takes
/// from it: the step sets them aside, and leaves them as the session set them. With the state a
/// minute ahead of the clock, a session with all three set makes keys after it, in its
/// millisecond; an owner's insert of a smaller value then sets nothing back.
#[tokio::test]
async fn mariadb_a_session_s_auto_increment_settings_move_nothing() {
    let (url, mut owner) = mysql_with_billing().await;
    // A field of 0 at most: `ahead`'s randomness is 0, so the four keys after it fit in its
    // millisecond whatever their increments (from a fresh draw near the top they would not).
    let ahead: Id<Invoice> = sqlx::query_scalar("SELECT ulid_flake_make_key('billing', ?, 0)")
        .bind(unix_ms_now() + 60_000)
        .fetch_one(&mut owner)
        .await
        .unwrap();
    let mut session = sqlx::MySqlConnection::connect(&url).await.unwrap();
    session
        .execute("SET insert_id = 1, auto_increment_increment = 1000, auto_increment_offset = 7")
        .await
        .unwrap();
    let mut keys = vec![ahead];
    for _ in 0..3 {
        keys.push(
            sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
                .fetch_one(&mut session)
                .await
                .unwrap(),
        );
    }
    assert!(keys.windows(2).all(|pair| pair[0] < pair[1]), "{keys:?}");
    assert_eq!(unix_ms(keys[1]), unix_ms(ahead), "{keys:?}");
    let kept: (u64, u64, u64) =
        sqlx::query_as("SELECT @@insert_id, @@auto_increment_increment, @@auto_increment_offset")
            .fetch_one(&mut session)
            .await
            .unwrap();
    assert_eq!(kept, (1, 1000, 7));
    // The README's way to raise a moved database's state: an insert raises the counter, and
    // one below it lowers nothing.
    owner
        .execute(
            "INSERT INTO ulid_flake_generator_state VALUES (1); \
             DELETE FROM ulid_flake_generator_state",
        )
        .await
        .unwrap();
    let after: Id<Invoice> = sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
        .fetch_one(&mut owner)
        .await
        .unwrap();
    assert!(keys[3] < after, "{} then {after}", keys[3]);
    assert_eq!(unix_ms(after), unix_ms(ahead));
}

/// A known limit, shown: MariaDB resolves a name to the session's temporary table first, in a
/// function or trigger too, so a session that may create temporary tables in the install
/// schema can put its own `ulid_flake_generators` in front of the real one and have its keys
/// made under another scalability id (here 7, which a lease could hold), or its own
/// `ulid_flake_generator_state`. Inserting users must not have `CREATE TEMPORARY TABLES` (nor
/// `ALTER`) on that schema.
#[tokio::test]
async fn mariadb_a_session_s_temporary_table_stands_in_for_the_generator_s() {
    let url = mysql::fresh_database().await;
    let mut connection = sqlx::MySqlConnection::connect(&url).await.unwrap();
    for statement in [
        "CALL ulid_flake_install_generator('billing', 1704067200000)",
        "CREATE TEMPORARY TABLE ulid_flake_generators \
         (namespace VARCHAR(64) PRIMARY KEY, scalability_id SMALLINT, epoch_ms BIGINT)",
        "INSERT INTO ulid_flake_generators VALUES ('billing', 7, 1704067200000)",
    ] {
        connection.execute(statement).await.unwrap();
    }
    let key: Id<Invoice> = sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
        .fetch_one(&mut connection)
        .await
        .unwrap();
    assert_eq!(key.scalability_id(), 7);
}

/// The test server logs binary and does not trust function creators, so the migrations above
/// passed the check MariaDB makes there (error 1418 otherwise).
#[tokio::test]
async fn mariadb_logs_binary_and_checks_function_characteristics() {
    let mut connection = sqlx::MySqlConnection::connect(&mysql_url()).await.unwrap();
    let (log_bin, trust): (i64, i64) =
        sqlx::query_as("SELECT @@log_bin, @@log_bin_trust_function_creators")
            .fetch_one(&mut connection)
            .await
            .unwrap();
    assert_eq!((log_bin, trust), (1, 0));
    let error = connection
        .execute("CREATE FUNCTION ulid_flake_test_refused() RETURNS INT NOT DETERMINISTIC MODIFIES SQL DATA RETURN 1")
        .await
        .unwrap_err();
    assert!(
        database_message(error)
            .starts_with("This function has none of DETERMINISTIC, NO SQL, or READS SQL DATA")
    );
}

/// Tests that kill the shared MariaDB server: never beside the other tests, but in the test
/// command's `leases` step, after every lease scenario on MariaDB (`server_crash::`, while the
/// scenarios on PostgreSQL, which it does not touch, go on).
mod server_crash {
    use super::*;

    /// The test server's `mariadbd`: its pid, from `ULID_FLAKE_TEST_MYSQL_PID_FILE`.
    fn server_pid() -> u32 {
        let file = std::env::var("ULID_FLAKE_TEST_MYSQL_PID_FILE").expect(
            "ULID_FLAKE_TEST_MYSQL_PID_FILE: run the tests through scripts/with-databases.sh",
        );
        std::fs::read_to_string(&file)
            .unwrap()
            .trim()
            .parse()
            .unwrap()
    }

    /// Kills the server with `SIGKILL` (a crash: nothing flushed on the way out) and starts it
    /// again with the same command line; returns once it accepts connections at `url`.
    async fn crash_and_restart(url: &str) {
        ulid_flake_test_support::lease::assert_alone_on_server();
        let pid = server_pid();
        let command_line = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap();
        let arguments: Vec<String> = command_line
            .split(|&byte| byte == 0)
            .filter(|argument| !argument.is_empty())
            .map(|argument| String::from_utf8(argument.to_vec()).unwrap())
            .collect();
        let killed = std::process::Command::new("kill")
            .args(["-KILL", &pid.to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let started = std::time::Instant::now();
        while std::path::Path::new(&format!("/proc/{pid}")).exists()
            && !std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .is_ok_and(|stat| stat.contains(") Z "))
        {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "mariadbd {pid} still runs"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        // Through a shell that leaves it running in the background: the server outlives this
        // test, and is no child of it to reap.
        let spawned = std::process::Command::new("sh")
            .arg("-c")
            .arg("\"$@\" </dev/null >/dev/null 2>&1 &")
            .arg("sh")
            .args(&arguments)
            .status()
            .unwrap();
        assert!(spawned.success());
        loop {
            if sqlx::MySqlConnection::connect(url).await.is_ok() {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "mariadbd did not come back within 60 s"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// MariaDB's state is InnoDB's `AUTO_INCREMENT` counter: neither a rollback nor a crash of
    /// the server sets it back. A key made a minute ahead of the clock, and one two minutes
    /// ahead in a transaction rolled back, then the server killed (after a second and a half:
    /// the test server writes its redo log once a second, not at each commit) and started
    /// again: the next key goes on after both, in the later one's millisecond.
    #[tokio::test]
    async fn mariadb_the_state_outlives_a_rollback_and_a_crash_of_the_server() {
        let (url, mut connection) = mysql_with_billing().await;
        // A field of 0 at most: randomness 0, so the key after `further` fits in its
        // millisecond whatever its increment.
        let make_key = |clock_ms: i64| {
            sqlx::query_scalar::<_, Id<Invoice>>("SELECT ulid_flake_make_key('billing', ?, 0)")
                .bind(clock_ms)
        };
        let ahead = make_key(unix_ms_now() + 60_000)
            .fetch_one(&mut connection)
            .await
            .unwrap();
        let mut rolled_back = connection.begin().await.unwrap();
        let further = make_key(unix_ms_now() + 120_000)
            .fetch_one(&mut *rolled_back)
            .await
            .unwrap();
        rolled_back.rollback().await.unwrap();
        drop(connection);
        tokio::time::sleep(Duration::from_millis(1_500)).await;
        crash_and_restart(&url).await;
        let mut connection = sqlx::MySqlConnection::connect(&url).await.unwrap();
        let after: Id<Invoice> = sqlx::query_scalar("SELECT ulid_flake_generate('billing')")
            .fetch_one(&mut connection)
            .await
            .unwrap();
        assert!(
            ahead < further && further < after,
            "{ahead}, {further}, then {after}"
        );
        assert_eq!(unix_ms(after), unix_ms(further), "{further} then {after}");
    }
}

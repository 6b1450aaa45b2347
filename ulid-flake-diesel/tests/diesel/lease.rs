//! Scalability-id leases against the real servers.
//!
//! The multi-process cases run this test binary again as children (only `lease::child`, with
//! `LEASE_CHILD_ROLE` saying what to do): each child is a replica with its own connection,
//! and can be killed like one.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use ulid_flake_diesel::generator::{Generator, default_generator, lease_key, lease_name};
use ulid_flake_diesel::{LeaseError, ScalabilityIdLease};

use crate::support::{mysql_url, postgres_url, unique_name};

use ulid_flake_test_support::lease_children::*;

#[derive(Clone, Copy, Debug)]
enum Backend {
    Postgres,
    Mysql,
}

impl Backend {
    fn url(self) -> String {
        match self {
            Self::Postgres => postgres_url(),
            Self::Mysql => mysql_url(),
        }
    }

    fn acquire(self, namespace: &str) -> Result<ScalabilityIdLease, LeaseError> {
        match self {
            Self::Postgres => ScalabilityIdLease::acquire_postgres(&self.url(), namespace),
            Self::Mysql => ScalabilityIdLease::acquire_mysql(&self.url(), namespace),
        }
    }

    /// Leases every free id of `namespace`, until the namespace is full.
    fn acquire_all(self, namespace: &str) -> Vec<ScalabilityIdLease> {
        let mut leases = Vec::new();
        loop {
            match self.acquire(namespace) {
                Ok(lease) => leases.push(lease),
                Err(LeaseError::AllTaken { .. }) => return leases,
                Err(other) => panic!("{other}"),
            }
        }
    }
}

fn sorted_ids(leases: &[ScalabilityIdLease]) -> Vec<u8> {
    let mut ids: Vec<u8> = leases
        .iter()
        .map(ScalabilityIdLease::scalability_id)
        .collect();
    ids.sort_unstable();
    ids
}

/// Not a test of its own: the replica side of the tests below (hence ignored).
#[test]
#[ignore = "run in a child process by the lease tests"]
fn child() {
    let namespace = std::env::var(NAMESPACE).unwrap();
    let lease = Backend::Postgres.acquire(&namespace).unwrap();
    let scalability_id = lease.scalability_id();
    match std::env::var(ROLE).unwrap().as_str() {
        "hold" => {
            println!("LEASED {scalability_id}");
            // Killed by the parent long before this ends.
            std::thread::sleep(Duration::from_secs(60));
        }
        "generate" => {
            let start_at: i64 = std::env::var(START_AT).unwrap().parse().unwrap();
            let out_dir = PathBuf::from(std::env::var_os(OUT_DIR).unwrap());
            let own;
            let generator: &Generator = if std::env::var(INSTALL).as_deref() == Ok("1") {
                lease.install_default().unwrap();
                // The default is taken: a second lease cannot replace it, and is released.
                let second = Backend::Postgres.acquire(&namespace).unwrap();
                assert!(matches!(
                    second.install_default(),
                    Err(LeaseError::DefaultGeneratorAlreadySet)
                ));
                default_generator().unwrap()
            } else {
                own = (lease.generator_builder().build().unwrap(), lease);
                &own.0
            };
            while unix_ms() < start_at {
                std::thread::sleep(Duration::from_micros(200));
            }
            let mut bytes = Vec::with_capacity(IDS_PER_CHILD * 8);
            for _ in 0..IDS_PER_CHILD {
                let id = generator.generate_blocking().unwrap();
                bytes.extend_from_slice(&id.to_u64().to_le_bytes());
            }
            let file = out_dir.join(format!("{}-{scalability_id}.bin", std::process::id()));
            std::fs::write(file, bytes).unwrap();
        }
        other => panic!("unknown role {other}"),
    }
}

#[test]
fn eight_processes_lease_distinct_ids_and_never_collide() {
    let namespace = unique_name("lease");
    let dir = scratch_dir();
    run_generating_children(&namespace, &dir);
    check_generated_ids(&dir);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_killed_process_frees_its_id() {
    let namespace = unique_name("lease");
    let mut child = KillOnDrop(
        child_command("hold", &namespace)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    let mut stdout = BufReader::new(child.0.stdout.take().unwrap());
    let taken: u8 = loop {
        let mut line = String::new();
        assert_ne!(stdout.read_line(&mut line).unwrap(), 0, "the child ended");
        if let Some(id) = line.trim().strip_prefix("LEASED ") {
            break id.parse().unwrap();
        }
    };

    let other = Backend::Postgres.acquire(&namespace).unwrap();
    assert_ne!(other.scalability_id(), taken);

    child.0.kill().unwrap(); // SIGKILL: no goodbye to the server
    child.0.wait().unwrap();
    let started = Instant::now();
    loop {
        let leases = Backend::Postgres.acquire_all(&namespace);
        if leases.iter().any(|lease| lease.scalability_id() == taken) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "id {taken} still taken 5 s after its process was killed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(other);
}

/// Fills a namespace: 32 leases, each id once, then the 33rd fails; ids come back on release
/// and on drop, and the leases say they hold their locks.
fn the_33rd_lease_fails_cleanly(backend: Backend) {
    let namespace = unique_name("lease");
    let mut leases = Vec::new();
    for _ in 0..32 {
        leases.push(backend.acquire(&namespace).unwrap());
    }
    assert_eq!(sorted_ids(&leases), (0..=31).collect::<Vec<u8>>());
    for lease in &mut leases {
        assert!(lease.is_held().unwrap());
        assert_eq!(lease.namespace(), namespace);
    }

    let error = backend.acquire(&namespace).unwrap_err();
    assert!(
        matches!(&error, LeaseError::AllTaken { namespace: found } if *found == namespace),
        "{error:?}"
    );
    assert_eq!(error.to_string(), all_taken_message(&namespace));

    // An explicit release frees the id at once.
    let released = leases.swap_remove(7);
    let released_id = released.scalability_id();
    released.release().unwrap();
    let again = backend.acquire(&namespace).unwrap();
    assert_eq!(again.scalability_id(), released_id);
    leases.push(again);

    // A dropped lease frees its id once the server sees the connection close.
    let dropped_id = leases.swap_remove(0).scalability_id();
    let started = Instant::now();
    let again = loop {
        match backend.acquire(&namespace) {
            Ok(lease) => break lease,
            Err(LeaseError::AllTaken { .. }) if started.elapsed() < Duration::from_secs(5) => {
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(other) => panic!("{other}"),
        }
    };
    assert_eq!(again.scalability_id(), dropped_id);
}

#[test]
fn postgres_the_33rd_lease_fails_cleanly() {
    the_33rd_lease_fails_cleanly(Backend::Postgres);
}

#[test]
fn mysql_the_33rd_lease_fails_cleanly() {
    the_33rd_lease_fails_cleanly(Backend::Mysql);
}

/// A full namespace does not block another one.
fn namespaces_are_independent(backend: Backend) {
    let full = unique_name("lease_a");
    let leases = backend.acquire_all(&full);
    assert_eq!(leases.len(), 32);
    let mut other = backend.acquire(&unique_name("lease_b")).unwrap();
    assert!(other.is_held().unwrap());
    assert!(matches!(
        backend.acquire(&full),
        Err(LeaseError::AllTaken { .. })
    ));
}

#[test]
fn postgres_namespaces_are_independent() {
    namespaces_are_independent(Backend::Postgres);
}

#[test]
fn mysql_namespaces_are_independent() {
    namespaces_are_independent(Backend::Mysql);
}

#[test]
fn a_bad_namespace_is_refused_before_connecting() {
    for namespace in [String::new(), "n".repeat(47)] {
        let error =
            ScalabilityIdLease::acquire_postgres("postgres://nowhere.invalid/db", &namespace)
                .unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "invalid lease namespace: expected 1..=46 bytes, found {}",
                namespace.len()
            )
        );
    }
}

#[test]
fn a_lease_builds_scalable_generators() {
    let lease = Backend::Postgres.acquire(&unique_name("lease")).unwrap();
    let generator = lease.generator_builder().entropy_bytes(2).build().unwrap();
    let id = generator.generate_blocking().unwrap();
    assert_eq!(id.scalability_id(), lease.scalability_id());
    assert_eq!(generator.entropy_bytes(), 2);
    let debug = format!("{lease:?}");
    assert!(debug.contains("backend: \"PostgreSQL\""), "{debug}");
    lease.release().unwrap();
}

/// The locks are those of the shared scheme (`lease_key`, `lease_name`), so that other
/// adapters' leases see them.
#[test]
fn the_locks_follow_the_shared_scheme() {
    use diesel::dsl::sql;
    use diesel::prelude::*;
    use diesel::sql_types::{BigInt, Bool, Nullable, Text};

    let namespace = unique_name("lease");
    let lease = Backend::Postgres.acquire(&namespace).unwrap();
    let key = lease_key(&namespace, lease.scalability_id()).unwrap();
    let mut conn = PgConnection::establish(&Backend::Postgres.url()).unwrap();
    let free: bool = diesel::select(
        sql::<Bool>("pg_try_advisory_lock(")
            .bind::<BigInt, _>(key)
            .sql(")"),
    )
    .get_result(&mut conn)
    .unwrap();
    assert!(!free, "key {key} is not locked");
    lease.release().unwrap();

    let lease = Backend::Mysql.acquire(&namespace).unwrap();
    let name = lease_name(&namespace, lease.scalability_id()).unwrap();
    let mut conn = MysqlConnection::establish(&Backend::Mysql.url()).unwrap();
    let free: Option<i64> = diesel::select(
        sql::<Nullable<BigInt>>("CAST(IS_FREE_LOCK(")
            .bind::<Text, _>(&name)
            .sql(") AS SIGNED)"),
    )
    .get_result(&mut conn)
    .unwrap();
    assert_eq!(free, Some(0), "lock {name} is free");
}

//! The process side of the lease tests: children are the calling test binary run again, as
//! replicas with connections of their own that can be killed like real ones.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use ulid_flake_core::UlidFlake;

use crate::databases::unique_name;

/// What a child does: `generate` or `hold`.
pub const ROLE: &str = "LEASE_CHILD_ROLE";

/// The namespace a child leases in.
pub const NAMESPACE: &str = "LEASE_CHILD_NAMESPACE";

/// The Unix millisecond at which generating children start.
pub const START_AT: &str = "LEASE_CHILD_START_AT_MS";

/// The directory generating children write their IDs to.
pub const OUT_DIR: &str = "LEASE_CHILD_OUT_DIR";

/// `1` when a generating child installs its lease as the default generator.
pub const INSTALL: &str = "LEASE_CHILD_INSTALL";

/// How many IDs each generating child makes.
pub const IDS_PER_CHILD: usize = 100_000;

/// How many generating children a test runs.
pub const CHILDREN: usize = 8;

/// The message of the error for a namespace whose 32 ids are all taken.
pub fn all_taken_message(namespace: &str) -> String {
    format!(
        "all 32 scalability ids of lease namespace \"{namespace}\" are taken: expected a free id \
         in 0..=31, found every one locked by another session"
    )
}

/// The system clock, in Unix milliseconds.
pub fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis()
        .try_into()
        .unwrap()
}

/// A child process that is killed if the test ends (or fails) first.
pub struct KillOnDrop(pub Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// This test binary run again as a child with `role` in `namespace`.
pub fn child_command(role: &str, namespace: &str) -> Command {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--exact", "lease::child", "--ignored", "--nocapture"])
        .env(ROLE, role)
        .env(NAMESPACE, namespace);
    command
}

/// The IDs each child wrote, by (pid, leased id).
pub fn read_ids(dir: &Path) -> Vec<(String, u8, Vec<UlidFlake>)> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| {
            let path = entry.unwrap().path();
            let stem = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let (pid, id) = stem.split_once('-').unwrap();
            let ids = std::fs::read(&path)
                .unwrap()
                .chunks_exact(8)
                .map(|chunk| UlidFlake::from_u64(u64::from_le_bytes(chunk.try_into().unwrap())))
                .collect::<Result<_, _>>()
                .unwrap();
            (pid.to_owned(), id.parse().unwrap(), ids)
        })
        .collect()
}

/// Starts the generating children, in `namespace`, all to begin at one wall-clock
/// millisecond, writing their IDs into `dir`; returns when they have all succeeded.
pub fn run_generating_children(namespace: &str, dir: &Path) {
    // Time to start the children and connect; then they all generate at once.
    let start_at = unix_ms() + 2_000;
    let children: Vec<KillOnDrop> = (0..CHILDREN)
        .map(|index| {
            let mut command = child_command("generate", namespace);
            command
                .env(START_AT, start_at.to_string())
                .env(OUT_DIR, dir)
                // Half of them through the default generator, half through their own.
                .env(INSTALL, if index % 2 == 0 { "1" } else { "0" })
                .stdout(Stdio::null());
            KillOnDrop(command.spawn().unwrap())
        })
        .collect();
    for mut child in children {
        let status = child.0.wait().unwrap();
        assert!(status.success(), "a child failed: {status}");
    }
}

/// Checks the children's IDs: distinct leased ids, each child's IDs in order and with its
/// id, no duplicate among all of them, and made in shared milliseconds.
pub fn check_generated_ids(dir: &Path) {
    let files = read_ids(dir);
    assert_eq!(files.len(), CHILDREN);
    let leased: HashSet<u8> = files.iter().map(|(_, id, _)| *id).collect();
    assert_eq!(leased.len(), CHILDREN, "leased ids {leased:?}");

    let mut all = Vec::with_capacity(CHILDREN * IDS_PER_CHILD);
    // How many children made IDs in each millisecond.
    let mut makers: HashMap<u64, usize> = HashMap::new();
    for (pid, scalability_id, ids) in &files {
        assert_eq!(ids.len(), IDS_PER_CHILD, "child {pid}");
        assert!(ids.iter().all(|id| id.scalability_id() == *scalability_id));
        assert!(ids.windows(2).all(|pair| pair[0] < pair[1]), "child {pid}");
        let milliseconds: HashSet<u64> = ids.iter().map(|id| id.ms_since_epoch()).collect();
        for ms in milliseconds {
            *makers.entry(ms).or_default() += 1;
        }
        all.extend_from_slice(ids);
    }
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), CHILDREN * IDS_PER_CHILD, "duplicate IDs");
    // They really did run in the same milliseconds.
    let shared = makers.values().filter(|&&count| count > 1).count();
    assert!(shared > 100, "only {shared} milliseconds shared");
}

/// A new, empty directory for the children's files.
pub fn scratch_dir() -> PathBuf {
    let dir = std::env::var_os("ULID_FLAKE_TEST_SQLITE_DIR")
        .map_or_else(std::env::temp_dir, PathBuf::from)
        .join(unique_name("lease_ids"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

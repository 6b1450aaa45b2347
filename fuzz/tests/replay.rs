//! Replays the fuzz corpus and any saved crash inputs through the fuzz targets' checks, as an
//! ordinary test on stable: `cargo test --manifest-path fuzz/Cargo.toml`.
//!
//! libFuzzer writes a failing input to `fuzz/artifacts/<target>/crash-…`; rerunning this test
//! reproduces it (with the file name in the failure) without cargo-fuzz or a nightly compiler.

use std::fs;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use ulid_flake_fuzz::{check_parse, check_serde, matches_canonical};

/// The files directly under `fuzz/<kind>/<target>/`, sorted; none if the folder is absent.
fn inputs(kind: &str, target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(kind)
        .join(target);
    let Ok(entries) = fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("readable folder entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

/// Runs every corpus and artifact file of `target` through `check`, and fails naming every
/// file whose check panicked (not only the first).
fn replay(target: &str, check: fn(&[u8])) {
    let corpus = inputs("corpus", target);
    assert!(!corpus.is_empty(), "fuzz/corpus/{target}/ is empty");
    let failures: Vec<String> = corpus
        .iter()
        .chain(&inputs("artifacts", target))
        .filter(|path| {
            let data = fs::read(path).expect("readable input");
            panic::catch_unwind(AssertUnwindSafe(|| check(&data))).is_err()
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        failures.is_empty(),
        "{target}: failing inputs: {failures:#?}"
    );
}

#[test]
fn parse_corpus_and_artifacts() {
    replay("parse", check_parse);
}

#[test]
fn serde_corpus_and_artifacts() {
    replay("serde", check_serde);
}

/// The oracle itself against SPEC §5, so that a wrong regex cannot make both sides agree.
#[test]
fn regex_oracle_matches_spec_vectors() {
    for accepted in [
        "0000000000000",
        "00CMXB6TAK4SA",
        "00cmxb6tak4sa",
        "128GGYHYYK08N",
        "7ZZZZZZZZZZZZ",
        "7zzzzzzzzzzzz",
    ] {
        assert!(matches_canonical(accepted.as_bytes()), "{accepted}");
    }
    for rejected in [
        "8000000000000",
        "ZZZZZZZZZZZZZ",
        "G000000000000",
        "00CMXB6TAK4SI",
        "00CMXB6TAK4SL",
        "00CMXB6TAK4SO",
        "00CMXB6TAK4SU",
        "00cmxb6tak4si",
        "00CMXB6TAK4S",
        "00CMXB6TAK4SAA",
        "",
        " 00CMXB6TAK4S",
        "00CMXB6TAK4S-",
    ] {
        assert!(!matches_canonical(rejected.as_bytes()), "{rejected}");
    }
}

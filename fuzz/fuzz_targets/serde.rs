//! Fuzz target: arbitrary bytes as JSON into the serde implementations
//! ([`ulid_flake_fuzz::check_serde`] lists the properties).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ulid_flake_fuzz::check_serde(data));

//! Fuzz target: arbitrary bytes through the canonical-text parser
//! ([`ulid_flake_fuzz::check_parse`] lists the properties).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ulid_flake_fuzz::check_parse(data));

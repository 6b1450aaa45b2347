//! Formatting: hex, binary, width and `Debug` (SPEC §2).

use ulid_flake_core::{UlidFlake, ulid_flake};

/// SPEC §2's formatting vector.
const VECTOR: UlidFlake = ulid_flake!("00F5MFHSEYXCM");

#[test]
fn hex_matches_the_spec_vector() {
    let id = VECTOR;
    assert_eq!(id.to_u64(), 17_086_945_199_879_572);
    assert_eq!(id.to_hex(), "0x3CB47C72EF7594");
    assert_eq!(format!("{id:X}"), "3CB47C72EF7594");
    assert_eq!(format!("{id:x}"), "3cb47c72ef7594");
    assert_eq!(format!("{id:#x}"), "0x3cb47c72ef7594");
}

#[test]
fn binary_matches_the_spec_vector() {
    let id = VECTOR;
    assert_eq!(
        id.to_bin(),
        "0b111100101101000111110001110010111011110111010110010100"
    );
    assert_eq!(format!("{id:b}"), id.to_bin()[2..]);
}

#[test]
fn small_values_give_short_forms() {
    // No padding.
    assert_eq!(UlidFlake::MIN.to_hex(), "0x0");
    assert_eq!(UlidFlake::MIN.to_bin(), "0b0");
    assert_eq!(UlidFlake::MAX.to_hex(), "0x7FFFFFFFFFFFFFFF");
}

#[test]
fn display_honours_width() {
    let id = ulid_flake!("00CMXB6TAK4SA");
    assert_eq!(format!("[{id:>15}]"), "[  00CMXB6TAK4SA]");
}

#[test]
fn debug_names_the_type() {
    let id = ulid_flake!("00CMXB6TAK4SA");
    assert_eq!(format!("{id:?}"), "UlidFlake(00CMXB6TAK4SA)");
}

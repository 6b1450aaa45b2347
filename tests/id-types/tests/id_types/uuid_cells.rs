use ulid_flake_core::Epoch;

use super::*;

/// SPEC §5's first vector as a UUIDv7, and back.
macro_rules! cell {
    ($ty:ty, $id:expr, $text:literal) => {{
        let id = $id;
        let uuid = id.to_uuid_v7(Epoch::DEFAULT);
        assert_eq!(uuid.to_string(), "018fec27-8f4a-7993-8a80-000000000000");
        assert_eq!(<$ty>::from_uuid_v7(uuid, Epoch::DEFAULT), Ok(id));
    }};
}

#[test]
fn every_id_type_maps_to_the_same_uuid_v7_and_back() {
    each_id_type!(cell);
}

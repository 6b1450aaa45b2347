use diesel::prelude::*;
use ulid_flake_test_support::databases::sqlite_file;

use super::*;

diesel::table! {
    ids (id) {
        id -> BigInt,
        parent -> Nullable<BigInt>,
    }
}

#[test]
fn every_id_type_round_trips_through_a_sqlite_bigint() {
    let path = sqlite_file("id_types_diesel");
    let conn = &mut SqliteConnection::establish(path.to_str().unwrap()).unwrap();
    diesel::sql_query("CREATE TABLE ids (id BIGINT NOT NULL, parent BIGINT)")
        .execute(conn)
        .unwrap();
    /// Inserts the ID into a `BIGINT` and a nullable `BIGINT` column of a SQLite file, reads
    /// both back typed, and reads a negative value as an error that names it.
    macro_rules! cell {
        ($ty:ty, $id:expr, $text:literal) => {{
            let id = $id;
            diesel::delete(ids::table).execute(conn).unwrap();
            diesel::insert_into(ids::table)
                .values((ids::id.eq(id), ids::parent.eq(id)))
                .execute(conn)
                .unwrap();
            assert_eq!(ids::table.select(ids::id).filter(ids::id.eq(&id)).first(conn), Ok(id));
            assert_eq!(ids::table.select(ids::parent).first(conn), Ok(Some(id)));
            let stored: i64 = ids::table.select(ids::id).first(conn).unwrap();
            assert_eq!(stored, INTEGER);
            diesel::update(ids::table).set(ids::id.eq(-5_i64)).execute(conn).unwrap();
            let error = ids::table.select(ids::id).first::<$ty>(conn).unwrap_err();
            assert!(error.to_string().ends_with("found -5"), "{error}");
        }};
    }
    each_id_type!(cell);
}

use std::fmt::Debug;

use rusqlite::types::{FromSql, ToSql};
use rusqlite::{Connection, params};
use ulid_flake_test_support::databases::sqlite_file;

use super::*;

/// Writes the ID as an `INTEGER` in a SQLite file, reads it back typed, and reads its text.
fn check<I: ToSql + FromSql + PartialEq + Debug + Copy>(conn: &Connection, id: I, text: &str) {
    conn.execute("DELETE FROM ids", []).unwrap();
    conn.execute("INSERT INTO ids (id) VALUES (?1)", params![id]).unwrap();
    let (back, kind): (I, String) = conn
        .query_row("SELECT id, typeof(id) FROM ids", [], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .unwrap();
    assert_eq!((back, kind.as_str()), (id, "integer"));
    let from_text: I = conn.query_row("SELECT ?1", [text], |row| row.get(0)).unwrap();
    assert_eq!(from_text, id);
}

#[test]
fn every_id_type_round_trips_through_a_sqlite_integer_and_reads_its_text() {
    let conn = Connection::open(sqlite_file("id_types_rusqlite")).unwrap();
    conn.execute("CREATE TABLE ids (id BIGINT NOT NULL)", []).unwrap();
    macro_rules! cell {
        ($ty:ty, $id:expr, $text:literal) => {
            check(&conn, $id, $text)
        };
    }
    each_id_type!(cell);
}

//! Keys the database makes itself (`ulid_flake_generate`, created by `create_*_functions`):
//! Diesel inserts that leave the key out, and the keys read back as `Id<T>`.

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::SmallInt;
use ulid_flake_diesel::Id;
use ulid_flake_diesel::functions::ulid_flake_generate;

diesel::table! {
    invoices (id) {
        id -> BigInt,
        total -> BigInt,
    }
}

#[derive(Debug, PartialEq, Queryable, Selectable, Insertable)]
#[diesel(table_name = invoices)]
struct Invoice {
    id: Id<Invoice>,
    total: i64,
}

#[derive(Insertable)]
#[diesel(table_name = invoices)]
struct NewInvoice {
    total: i64,
}

#[derive(QueryableByName)]
struct Reserved {
    #[diesel(sql_type = SmallInt)]
    scalability_id: i16,
}

/// The stored invoices, in key order (on either backend's connection).
macro_rules! stored {
    ($conn:expr) => {
        invoices::table
            .select(Invoice::as_select())
            .order(invoices::id)
            .load::<Invoice>($conn)
            .unwrap()
    };
}

#[test]
fn postgres_makes_the_key_of_a_diesel_insert_that_leaves_it_out() {
    let conn = &mut crate::support::postgres();
    ulid_flake_diesel::create_postgres_functions(conn).unwrap();
    let reserved: Reserved =
        diesel::sql_query("SELECT ulid_flake_install_generator('billing') AS scalability_id")
            .get_result(conn)
            .unwrap();
    conn.batch_execute(
        "CREATE TABLE invoices (id BIGINT PRIMARY KEY DEFAULT ulid_flake_generate('billing'), \
         total BIGINT NOT NULL)",
    )
    .unwrap();
    let keys: Vec<Id<Invoice>> = diesel::insert_into(invoices::table)
        .values(&[NewInvoice { total: 1 }, NewInvoice { total: 2 }])
        .returning(invoices::id)
        .get_results(conn)
        .unwrap();
    let stored = stored!(conn);
    assert_eq!(
        stored,
        [
            Invoice {
                id: keys[0],
                total: 1
            },
            Invoice {
                id: keys[1],
                total: 2
            }
        ]
    );
    assert!(keys[0] < keys[1]);
    assert!(
        keys.iter()
            .all(|id| i16::from(id.scalability_id()) == reserved.scalability_id)
    );
}

/// Diesel reads no `RETURNING` on MySQL backends: an insert through its DSL leaves the key
/// to the trigger, and one that needs the key selects `ulid_flake_generate` first and
/// inserts it (the trigger keeps a key it is given).
#[test]
fn mariadb_makes_the_key_of_a_diesel_insert_that_leaves_it_out() {
    let conn = &mut crate::support::mysql();
    ulid_flake_diesel::create_mysql_functions(conn).unwrap();
    // The procedure answers a result set, which Diesel's prepared statements cannot read
    // on MySQL backends: the id is read from the generators' table.
    conn.batch_execute("CALL ulid_flake_install_generator('billing', 1704067200000)")
        .unwrap();
    let reserved: Reserved = diesel::sql_query(
        "SELECT scalability_id FROM ulid_flake_generators WHERE namespace = 'billing'",
    )
    .get_result(conn)
    .unwrap();
    conn.batch_execute(
        "CREATE TABLE invoices (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, total BIGINT NOT NULL)",
    )
    .unwrap();
    conn.batch_execute(&ulid_flake_diesel::sql::mysql_generate_trigger(
        "invoices", "id", "billing",
    ))
    .unwrap();
    diesel::insert_into(invoices::table)
        .values(NewInvoice { total: 1 })
        .execute(conn)
        .unwrap();
    let chosen: Id<Invoice> = diesel::select(ulid_flake_generate("billing"))
        .get_result(conn)
        .unwrap();
    diesel::insert_into(invoices::table)
        .values(Invoice {
            id: chosen,
            total: 2,
        })
        .execute(conn)
        .unwrap();
    let stored = stored!(conn);
    assert_eq!(stored.len(), 2);
    assert_eq!(
        (stored[0].total, stored[1].total),
        (1, 2),
        "keys in insert order"
    );
    assert_eq!(stored[1].id, chosen);
    assert!(
        stored
            .iter()
            .all(|row| i16::from(row.id.scalability_id()) == reserved.scalability_id)
    );
}

//! Adopting Ulid-Flake keys on a table with `BIGSERIAL` / identity / `AUTO_INCREMENT` keys
//! and a foreign key pointing at it, with the statements the README's "Adopting on an
//! existing table" gives: no key changes, the old rows read through `Id<T>` and as JSON, and
//! the new rows sort after them.

use sqlx::{Connection, Executor};
use ulid_flake_sqlx::{Epoch, Id, Prefix, PrefixedId, UlidFlake, UnixMs};

use crate::support::{mysql_url, postgres_url, sql, unique_name};

struct Parent;

impl Prefix for Parent {
    const PREFIX: &'static str = "parent";
}

/// A row of the child table.
#[derive(Debug, PartialEq, sqlx::FromRow)]
struct Child {
    id: Id<Child>,
    parent: Id<Parent>,
}

/// An old key: a small integer, read as an ID of the epoch's first milliseconds.
fn old<T>(key: i64) -> Id<T> {
    Id::from_i64(key).unwrap()
}

/// After the adoption, on `$conn` (whose placeholders are `$p1`, `$p2`): the old keys
/// (parents 1..=3, children 1..=2 pointing at parents 2 and 3) unchanged and read as
/// `Id<T>`; an insert without a key refused on both tables (nothing numbers rows any more),
/// with `$no_key` in the database's message; the foreign key still enforced
/// (`$no_parent`); two new rows with generated keys, after every old one; the old keys' text
/// and JSON.
macro_rules! check_adopted {
    (
        $conn:expr, $parents:expr, $children:expr, $p1:literal, $p2:literal,
        $no_key:literal, $no_parent:literal
    ) => {{
        let (conn, parents, children) = ($conn, $parents, $children);
        for missing_key in [
            format!("INSERT INTO {parents} (name) VALUES ('d')"),
            format!("INSERT INTO {children} (parent) VALUES (1)"),
        ] {
            let error = conn.execute(sql(&missing_key)).await.unwrap_err();
            assert!(
                error.to_string().contains($no_key),
                "{missing_key}: {error}"
            );
        }
        let no_parent = format!("INSERT INTO {children} (id, parent) VALUES (99, 999)");
        let error = conn.execute(sql(&no_parent)).await.unwrap_err();
        assert!(error.to_string().contains($no_parent), "{error}");

        let (new_parent, new_child) = (
            Id::<Parent>::generate().unwrap(),
            Id::<Child>::generate().unwrap(),
        );
        let insert_parent = format!("INSERT INTO {parents} (id, name) VALUES ({}, 'd')", $p1);
        sqlx::query(sql(&insert_parent))
            .bind(new_parent)
            .execute(&mut *conn)
            .await
            .unwrap();
        let insert_child = format!(
            "INSERT INTO {children} (id, parent) VALUES ({}, {})",
            $p1, $p2
        );
        sqlx::query(sql(&insert_child))
            .bind(new_child)
            .bind(new_parent)
            .execute(&mut *conn)
            .await
            .unwrap();

        let select_parents = format!("SELECT id FROM {parents} ORDER BY id");
        let parent_ids: Vec<Id<Parent>> = sqlx::query_scalar(sql(&select_parents))
            .fetch_all(&mut *conn)
            .await
            .unwrap();
        assert_eq!(parent_ids, [old(1), old(2), old(3), new_parent]);
        let select_children = format!("SELECT id, parent FROM {children} ORDER BY id");
        let rows: Vec<Child> = sqlx::query_as(sql(&select_children))
            .fetch_all(&mut *conn)
            .await
            .unwrap();
        assert_eq!(
            rows,
            [
                Child {
                    id: old(1),
                    parent: old(2)
                },
                Child {
                    id: old(2),
                    parent: old(3)
                },
                Child {
                    id: new_child,
                    parent: new_parent
                },
            ]
        );
        check_old_keys_text();
    }};
}

/// What an API shows for an old key: its 13 characters (or its prefixed text), in the
/// epoch's first millisecond, so a time window that starts there includes it.
fn check_old_keys_text() {
    let key = old::<Parent>(3);
    assert_eq!(key.to_string(), "0000000000003");
    let prefixed = PrefixedId::<Parent>::from(key);
    let json = serde_json::to_string(&prefixed).unwrap();
    assert_eq!(json, "\"parent_0000000000003\"");
    assert_eq!(
        serde_json::from_str::<PrefixedId<Parent>>(&json).unwrap(),
        prefixed
    );
    assert_eq!(key.unix_ms(Epoch::DEFAULT), Epoch::DEFAULT.unix_ms());
    let epoch = Epoch::DEFAULT.unix_ms() as i64;
    let (_, highest) =
        Id::<Parent>::range_for(Epoch::DEFAULT, UnixMs(epoch)..UnixMs(epoch + 1)).unwrap();
    assert!(key <= highest);
    assert_eq!(UlidFlake::from(key).ms_since_epoch(), 0);
}

#[tokio::test]
async fn postgres_adopts_a_bigserial_table_keeping_every_key() {
    let mut conn = sqlx::PgConnection::connect(&postgres_url()).await.unwrap();
    let (parents, children) = (unique_name("parents"), unique_name("children"));
    for statement in [
        format!("CREATE TABLE {parents} (id BIGSERIAL PRIMARY KEY, name TEXT NOT NULL)"),
        format!(
            "CREATE TABLE {children} (id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, \
             parent BIGINT NOT NULL REFERENCES {parents} (id))"
        ),
        format!("INSERT INTO {parents} (name) VALUES ('a'), ('b'), ('c')"),
        format!("INSERT INTO {children} (parent) VALUES (2), (3)"),
        // The adoption, as the README gives it.
        format!("ALTER TABLE {parents} ALTER COLUMN id DROP DEFAULT"),
        format!("DROP SEQUENCE {parents}_id_seq"),
        format!("ALTER TABLE {children} ALTER COLUMN id DROP IDENTITY"),
    ] {
        conn.execute(sql(&statement)).await.unwrap();
    }
    check_adopted!(
        &mut conn,
        &parents,
        &children,
        "$1",
        "$2",
        "null value in column \"id\"",
        "violates foreign key constraint"
    );
}

#[tokio::test]
async fn mysql_adopts_an_auto_increment_table_keeping_every_key() {
    let mut conn = sqlx::MySqlConnection::connect(&mysql_url()).await.unwrap();
    let (parents, children) = (unique_name("parents"), unique_name("children"));
    for statement in [
        format!(
            "CREATE TABLE {parents} (id BIGINT AUTO_INCREMENT PRIMARY KEY, name TEXT NOT NULL) \
             ENGINE = InnoDB"
        ),
        format!(
            "CREATE TABLE {children} (id BIGINT AUTO_INCREMENT PRIMARY KEY, \
             parent BIGINT NOT NULL, FOREIGN KEY (parent) REFERENCES {parents} (id)) \
             ENGINE = InnoDB"
        ),
        format!("INSERT INTO {parents} (name) VALUES ('a'), ('b'), ('c')"),
        format!("INSERT INTO {children} (parent) VALUES (2), (3)"),
        // The adoption, as the README gives it.
        format!("ALTER TABLE {children} MODIFY id BIGINT NOT NULL"),
        format!("ALTER TABLE {parents} MODIFY id BIGINT NOT NULL"),
    ] {
        conn.execute(sql(&statement)).await.unwrap();
    }
    check_adopted!(
        &mut conn,
        &parents,
        &children,
        "?",
        "?",
        "Field 'id' doesn't have a default value",
        "a foreign key constraint fails"
    );
}

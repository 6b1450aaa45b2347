use sea_orm::sea_query::{ColumnType, ValueType};
use sea_orm::{ConnectionTrait, Database, DbBackend, Statement, TryFromU64, Value};
use ulid_flake_test_support::databases::sqlite_file;

use super::*;

#[tokio::test]
async fn every_id_type_round_trips_through_a_sqlite_bigint() {
    let path = sqlite_file("id_types_sea_orm");
    let db = Database::connect(format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .unwrap();
    db.execute_unprepared("CREATE TABLE ids (id BIGINT NOT NULL)")
        .await
        .unwrap();
    /// Inserts the ID as a SeaORM `Value` into a SQLite file, reads it back through `TryGetable`,
    /// and checks the column type, `ValueType` and `TryFromU64` (a primary key's).
    macro_rules! cell {
        ($ty:ty, $id:expr, $text:literal) => {{
            let id = $id;
            assert_eq!(Value::from(id), Value::BigInt(Some(INTEGER)));
            assert_eq!(<$ty as ValueType>::try_from(Value::BigInt(Some(INTEGER))).unwrap(), id);
            assert!(<$ty as ValueType>::try_from(Value::BigInt(Some(-5))).is_err());
            assert_eq!(<$ty as ValueType>::column_type(), ColumnType::BigInteger);
        let name = <$ty as ValueType>::type_name();
        assert_eq!(name, stringify!($ty).split('<').next().unwrap().trim());
            assert_eq!(<$ty as TryFromU64>::try_from_u64(INTEGER as u64).unwrap(), id);

            db.execute_unprepared("DELETE FROM ids").await.unwrap();
            db.execute_raw(Statement::from_sql_and_values(
                DbBackend::Sqlite,
                "INSERT INTO ids (id) VALUES (?)",
                [Value::from(id)],
            ))
            .await
            .unwrap();
            let row = db
                .query_one_raw(Statement::from_string(DbBackend::Sqlite, "SELECT id FROM ids"))
                .await
                .unwrap()
                .unwrap();
            assert_eq!(row.try_get::<$ty>("", "id").unwrap(), id);
            assert_eq!(row.try_get::<i64>("", "id").unwrap(), INTEGER);
        }};
    }
    each_id_type!(cell);
}

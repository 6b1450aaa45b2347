use std::fmt::Debug;

use tokio_postgres::types::{FromSqlOwned, ToSql};
use tokio_postgres::NoTls;
use ulid_flake_test_support::databases::postgres_url;

use super::*;

/// Sends the ID as an `INT8` and as `TEXT` through tokio-postgres and reads both back typed,
/// and the text from a `CHAR(48)`, which pads it with spaces.
async fn check<I: ToSql + FromSqlOwned + Sync + PartialEq + Debug>(
    client: &tokio_postgres::Client,
    id: I,
    text: &str,
) {
    let row = client
        .query_one("SELECT $1::INT8, $2::TEXT, $2::TEXT::CHAR(48)", &[&id, &id])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), INTEGER);
    assert_eq!(row.get::<_, String>(1), text);
    assert_eq!(row.get::<_, I>(0), id);
    assert_eq!(row.get::<_, I>(1), id);
    assert_eq!(row.get::<_, I>(2), id);
}

#[tokio::test]
async fn every_id_type_round_trips_as_int8_and_as_text() {
    let (client, connection) = tokio_postgres::connect(&postgres_url(), NoTls).await.unwrap();
    tokio::spawn(connection);
    macro_rules! cell {
        ($ty:ty, $id:expr, $text:literal) => {
            check(&client, $id, $text).await
        };
    }
    each_id_type!(cell);
}

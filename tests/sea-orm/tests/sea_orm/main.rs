//! SeaORM entities keyed by Ulid-Flake IDs (feature `sea-orm` of `ulid-flake-core`) on
//! PostgreSQL, MariaDB and a SQLite file: each test is written once and instantiated per
//! database, each on tables of its own (a schema, a database, a file), created from the
//! entities by SeaORM's schema builder.

mod entities;

use sea_orm::sea_query::{Expr, ExprTrait, PgFunc};
use sea_orm::{
    ActiveValue, ColumnTrait, ConnectOptions, ConnectionTrait, Database, DatabaseConnection,
    DbBackend, DbErr, EntityTrait, ModelTrait, QueryFilter, QueryOrder, Schema, Statement,
};
use ulid_flake_core::{Epoch, Error, Id, UlidFlake, UnixMs, ulid_flake};
use ulid_flake_test_support::databases::{
    VALUES, mysql_url, postgres_url, sqlite_file, unique_name,
};

use entities::{Post, User, post, reading_list, user};

/// A connection on a fresh schema of the test PostgreSQL database.
async fn postgres() -> DatabaseConnection {
    let url = postgres_url();
    let schema = unique_name("sea_orm");
    let admin = Database::connect(&url).await.unwrap();
    admin
        .execute_unprepared(&format!("CREATE SCHEMA {schema}"))
        .await
        .unwrap();
    admin.close().await.unwrap();
    let mut options = ConnectOptions::new(url);
    options.max_connections(2).set_schema_search_path(schema);
    connect(options).await
}

/// A connection to a fresh database of the test MariaDB server.
async fn mysql() -> DatabaseConnection {
    let url = mysql_url();
    let database = unique_name("ulid_flake_test_sea_orm");
    let admin = Database::connect(&url).await.unwrap();
    admin
        .execute_unprepared(&format!("CREATE DATABASE {database}"))
        .await
        .unwrap();
    admin.close().await.unwrap();
    let (server, _) = url.rsplit_once('/').unwrap();
    let mut options = ConnectOptions::new(format!("{server}/{database}"));
    options.max_connections(2);
    connect(options).await
}

/// A connection to a new SQLite file.
async fn sqlite() -> DatabaseConnection {
    let path = sqlite_file("sea_orm");
    let mut options = ConnectOptions::new(format!("sqlite://{}?mode=rwc", path.display()));
    options.max_connections(2);
    connect(options).await
}

/// Connects, and creates the tables of users and posts.
async fn connect(mut options: ConnectOptions) -> DatabaseConnection {
    options.sqlx_logging(false);
    let db = Database::connect(options).await.unwrap();
    create_table(&db, user::Entity).await;
    create_table(&db, post::Entity).await;
    db
}

/// Creates an entity's table from its definition, as SeaORM's schema builder writes it.
async fn create_table<E: EntityTrait>(db: &DatabaseConnection, entity: E) {
    let schema = Schema::new(db.get_database_backend());
    db.execute(&schema.create_table_from_entity(entity))
        .await
        .unwrap();
}

/// A user row.
fn user(id: UlidFlake, name: &str, invited_by: Option<UlidFlake>) -> User {
    User {
        id: id.into(),
        name: name.into(),
        invited_by: invited_by.map(Id::from),
    }
}

/// Inserts users, and checks that the insert reports the last key.
async fn insert_users(db: &DatabaseConnection, users: &[User]) {
    for row in users {
        let result = user::Entity::insert(user::ActiveModel {
            id: ActiveValue::Set(row.id),
            name: ActiveValue::Set(row.name.clone()),
            invited_by: ActiveValue::Set(row.invited_by),
        })
        .exec(db)
        .await
        .unwrap();
        assert_eq!(result.last_insert_id, row.id);
    }
}

/// Every user, in key order.
async fn all_users(db: &DatabaseConnection) -> Vec<User> {
    user::Entity::find()
        .order_by_asc(user::Column::Id)
        .all(db)
        .await
        .unwrap()
}

/// The ID made `ms_since_epoch` milliseconds after the default epoch, with this randomness.
fn at(ms_since_epoch: u64, randomness: u32) -> UlidFlake {
    UlidFlake::from_parts(ms_since_epoch, randomness).unwrap()
}

/// The message of reading `found` from a `BIGINT` column into an `Id<T>`.
fn out_of_range(found: i64) -> String {
    format!(
        "Error converting `i64` into `Id`: value out of range: expected \
         0..=9223372036854775807, found {found}"
    )
}

/// The core's error inside SeaORM's, for callers that match on it.
fn core_error(error: &DbErr) -> Option<Error> {
    match error {
        DbErr::TryIntoErr { source, .. } => source.downcast_ref::<Error>().copied(),
        _ => None,
    }
}

/// The SQL type of a column of `users`, as the database reports it.
async fn column_type(db: &DatabaseConnection, column: &str) -> String {
    let backend = db.get_database_backend();
    let sql = match backend {
        DbBackend::Sqlite => {
            format!("SELECT type FROM pragma_table_info('users') WHERE name = '{column}'")
        }
        DbBackend::MySql => format!(
            "SELECT CAST(data_type AS CHAR) FROM information_schema.columns \
             WHERE table_schema = database() AND table_name = 'users' \
             AND column_name = '{column}'"
        ),
        _ => format!(
            "SELECT data_type::text FROM information_schema.columns \
             WHERE table_schema = current_schema() AND table_name = 'users' \
             AND column_name = '{column}'"
        ),
    };
    let row = db
        .query_one_raw(Statement::from_string(backend, sql))
        .await
        .unwrap()
        .unwrap();
    row.try_get_by_index::<String>(0).unwrap()
}

macro_rules! database_tests {
    ($database:ident, $bigint:literal) => {
        mod $database {
            use super::*;

            #[tokio::test]
            async fn the_schema_builder_makes_the_keys_bigint_columns() {
                let db = $database().await;
                assert_eq!(column_type(&db, "id").await, $bigint);
                assert_eq!(column_type(&db, "invited_by").await, $bigint);
            }

            #[tokio::test]
            async fn an_inserted_user_is_found_by_its_id() {
                let db = $database().await;
                let ada = user(ulid_flake!("00CMXB6TAK4SA"), "ada", None);
                insert_users(&db, std::slice::from_ref(&ada)).await;
                let found = user::Entity::find_by_id(ada.id).one(&db).await.unwrap();
                assert_eq!(found, Some(ada));
                let missing = user::Entity::find_by_id(Id::from(ulid_flake!("00CMXB6TAK4SB")))
                    .one(&db)
                    .await
                    .unwrap();
                assert_eq!(missing, None);
            }

            #[tokio::test]
            async fn vectors_and_extremes_round_trip_in_key_order() {
                let db = $database().await;
                // Inserted in reverse, read back in ascending key order.
                let users: Vec<User> = VALUES.iter().rev().map(|&id| user(id, "u", None)).collect();
                insert_users(&db, &users).await;
                let ids: Vec<UlidFlake> = all_users(&db)
                    .await
                    .into_iter()
                    .map(|row| row.id.into())
                    .collect();
                assert_eq!(ids, VALUES);
            }

            #[tokio::test]
            async fn eq_and_is_in_filter_by_key() {
                let db = $database().await;
                let [a, b, c] = [VALUES[1], VALUES[2], VALUES[6]];
                insert_users(
                    &db,
                    &[user(a, "a", None), user(b, "b", None), user(c, "c", None)],
                )
                .await;
                let eq = user::Entity::find()
                    .filter(user::Column::Id.eq(Id::<User>::from(b)))
                    .all(&db)
                    .await
                    .unwrap();
                assert_eq!(eq, [user(b, "b", None)]);
                let is_in = user::Entity::find()
                    .filter(user::Column::Id.is_in([Id::<User>::from(c), Id::from(a)]))
                    .order_by_asc(user::Column::Id)
                    .all(&db)
                    .await
                    .unwrap();
                assert_eq!(is_in, [user(a, "a", None), user(c, "c", None)]);
            }

            #[tokio::test]
            async fn between_the_bounds_of_a_time_window_finds_the_ids_made_in_it() {
                let db = $database().await;
                // The last ID before the window, its first and last, the first after it.
                let ids = [
                    at(1_999, 0xF_FFFF),
                    at(2_000, 0),
                    at(2_999, 0xF_FFFF),
                    at(3_000, 0),
                ];
                let users: Vec<User> = ids.iter().map(|&id| user(id, "u", None)).collect();
                insert_users(&db, &users).await;
                let epoch = Epoch::DEFAULT.unix_ms() as i64;
                let (lowest, highest) = UlidFlake::range_for(
                    Epoch::DEFAULT,
                    UnixMs(epoch + 2_000)..UnixMs(epoch + 3_000),
                )
                .unwrap();
                let found = user::Entity::find()
                    .filter(user::Column::Id.between(lowest, highest))
                    .order_by_asc(user::Column::Id)
                    .all(&db)
                    .await
                    .unwrap();
                assert_eq!(found, users[1..3]);
            }

            #[tokio::test]
            async fn a_post_belongs_to_its_author_through_an_id_foreign_key() {
                let db = $database().await;
                let ada = user(VALUES[2], "ada", None);
                let bob = user(VALUES[3], "bob", None);
                insert_users(&db, &[ada.clone(), bob.clone()]).await;
                let posts = [
                    Post {
                        id: VALUES[4].into(),
                        author_id: bob.id,
                        title: "first".into(),
                    },
                    Post {
                        id: VALUES[5].into(),
                        author_id: ada.id,
                        title: "second".into(),
                    },
                ];
                post::Entity::insert_many(posts.iter().map(|row| post::ActiveModel {
                    id: ActiveValue::Set(row.id),
                    author_id: ActiveValue::Set(row.author_id),
                    title: ActiveValue::Set(row.title.clone()),
                }))
                .exec(&db)
                .await
                .unwrap();

                let with_authors = post::Entity::find()
                    .find_also_related(user::Entity)
                    .order_by_asc(post::Column::Id)
                    .all(&db)
                    .await
                    .unwrap();
                assert_eq!(
                    with_authors,
                    [
                        (posts[0].clone(), Some(bob.clone())),
                        (posts[1].clone(), Some(ada.clone()))
                    ]
                );
                let by_ada = ada.find_related(post::Entity).all(&db).await.unwrap();
                assert_eq!(by_ada, [posts[1].clone()]);
                let author = posts[0].find_related(user::Entity).one(&db).await.unwrap();
                assert_eq!(author, Some(bob));
                let by_foreign_key = post::Entity::find()
                    .filter(post::Column::AuthorId.eq(ada.id))
                    .all(&db)
                    .await
                    .unwrap();
                assert_eq!(by_foreign_key, [posts[1].clone()]);
            }

            #[tokio::test]
            async fn a_nullable_key_reads_back_as_none_or_the_id() {
                let db = $database().await;
                let ada = user(VALUES[2], "ada", None);
                let bob = user(VALUES[3], "bob", Some(VALUES[2]));
                insert_users(&db, &[ada.clone(), bob.clone()]).await;
                assert_eq!(all_users(&db).await, [ada.clone(), bob.clone()]);
                let invited = user::Entity::find()
                    .filter(user::Column::InvitedBy.eq(ada.id))
                    .all(&db)
                    .await
                    .unwrap();
                assert_eq!(invited, [bob]);
                let uninvited = user::Entity::find()
                    .filter(user::Column::InvitedBy.is_null())
                    .all(&db)
                    .await
                    .unwrap();
                assert_eq!(uninvited, [ada]);
            }

            #[tokio::test]
            async fn a_negative_bigint_is_an_error_that_names_it() {
                let db = $database().await;
                db.execute_unprepared(
                    "INSERT INTO users (id, name, invited_by) VALUES (-5, 'x', NULL)",
                )
                .await
                .unwrap();
                let error = user::Entity::find().one(&db).await.unwrap_err();
                assert_eq!(error.to_string(), out_of_range(-5));
                assert_eq!(core_error(&error), Some(Error::OutOfRange { found: -5 }));
            }

            #[tokio::test]
            async fn a_negative_nullable_bigint_is_an_error_that_names_it() {
                let db = $database().await;
                db.execute_unprepared(&format!(
                    "INSERT INTO users (id, name, invited_by) VALUES (5, 'x', {})",
                    i64::MIN
                ))
                .await
                .unwrap();
                let error = user::Entity::find().one(&db).await.unwrap_err();
                assert_eq!(error.to_string(), out_of_range(i64::MIN));
                assert_eq!(
                    core_error(&error),
                    Some(Error::OutOfRange {
                        found: i64::MIN.into()
                    })
                );
            }
        }
    };
}

database_tests!(postgres, "bigint");
database_tests!(mysql, "bigint");
// SQLite's one integer type (64 bits): what sea-query writes for a `BigInteger`.
database_tests!(sqlite, "INTEGER");

/// On SQLite the schema builder's `INTEGER` key is the table's rowid: an insert that leaves
/// the key out gets the largest key plus one from SQLite, in silence. A table whose key is
/// declared `BIGINT NOT NULL PRIMARY KEY` refuses that insert.
#[tokio::test]
async fn sqlite_a_key_left_out_is_made_up_by_the_rowid_unless_the_key_is_declared_bigint() {
    let db = sqlite().await;
    let ada = UlidFlake::generate().unwrap();
    insert_users(&db, &[user(ada, "Ada", None)]).await;
    let left_out = user::ActiveModel {
        id: ActiveValue::NotSet,
        name: ActiveValue::Set("no key".into()),
        invited_by: ActiveValue::Set(None),
    };
    let result = user::Entity::insert(left_out.clone())
        .exec(&db)
        .await
        .unwrap();
    assert_eq!(result.last_insert_id.to_u64(), ada.to_u64() + 1);

    let path = sqlite_file("sea_orm_bigint");
    let declared = Database::connect(format!("sqlite://{}?mode=rwc", path.display()))
        .await
        .unwrap();
    declared
        .execute_unprepared(
            "CREATE TABLE users (id BIGINT NOT NULL PRIMARY KEY, name TEXT NOT NULL, \
             invited_by BIGINT)",
        )
        .await
        .unwrap();
    insert_users(&declared, &[user(ada, "Ada", None)]).await;
    let refused = user::Entity::insert(left_out)
        .exec(&declared)
        .await
        .unwrap_err();
    assert!(
        refused
            .to_string()
            .contains("NOT NULL constraint failed: users.id"),
        "{refused}"
    );
    assert_eq!(all_users(&declared).await, [user(ada, "Ada", None)]);
}

/// SeaORM's own JSON goes through its values, not serde: `into_json` writes an ID as a JSON
/// number (past 2^53: JavaScript loses its last digits), and `ActiveModel::from_json` fills a
/// field left out with the number 0, which an ID's serde refuses. serde on the model writes
/// the text.
#[tokio::test]
async fn sea_orm_s_json_carries_ids_as_numbers_and_serde_as_text() {
    use sea_orm::ActiveModelTrait;

    let db = sqlite().await;
    let ada = UlidFlake::generate().unwrap();
    insert_users(&db, &[user(ada, "Ada", None)]).await;
    let model = user::Entity::find().one(&db).await.unwrap().unwrap();
    assert_eq!(
        serde_json::to_value(&model).unwrap(),
        serde_json::json!({ "id": ada.to_string(), "name": "Ada", "invited_by": null })
    );
    let own = user::Entity::find()
        .into_json()
        .one(&db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(own["id"], serde_json::json!(ada.to_u64()));

    let error = user::ActiveModel::from_json(serde_json::json!({ "name": "Bob" })).unwrap_err();
    assert_eq!(
        error.to_string(),
        "Json Error: invalid type: integer `0`, expected a Ulid-Flake as a 13-character \
         Crockford Base32 string (not a number: IDs exceed 2^53)"
    );
    let mut loaded: user::ActiveModel = model.into();
    let patch = loaded.set_from_json(serde_json::json!({ "name": "Ada L." }));
    assert_eq!(patch.unwrap_err().to_string(), error.to_string());
    let every_field =
        serde_json::json!({ "id": ada.to_string(), "name": "Ada", "invited_by": null });
    assert!(user::ActiveModel::from_json(every_field).is_ok());

    // The 0 comes from SeaORM's defaults, which give every ID column the ID 0.
    let defaults = user::ActiveModel::default_values();
    assert_eq!(defaults.id, ActiveValue::Set(Id::from(UlidFlake::MIN)));
}

/// Arrays: PostgreSQL's `BIGINT[]`.
mod postgres_arrays {
    use super::*;

    #[tokio::test]
    async fn a_vec_of_ids_round_trips_as_a_bigint_array() {
        let db = postgres().await;
        create_table(&db, reading_list::Entity).await;
        let list = reading_list::Model {
            id: VALUES[2],
            members: VALUES.iter().rev().map(|&id| Id::from(id)).collect(),
        };
        reading_list::Entity::insert(reading_list::ActiveModel {
            id: ActiveValue::Set(list.id),
            members: ActiveValue::Set(list.members.clone()),
        })
        .exec(&db)
        .await
        .unwrap();
        let found = reading_list::Entity::find_by_id(list.id)
            .one(&db)
            .await
            .unwrap();
        assert_eq!(found, Some(list));
    }

    #[tokio::test]
    async fn a_vec_of_ids_binds_as_one_array_for_any() {
        let db = postgres().await;
        let users: Vec<User> = VALUES.iter().map(|&id| user(id, "u", None)).collect();
        insert_users(&db, &users).await;
        let wanted: Vec<Id<User>> = vec![VALUES[6].into(), VALUES[1].into()];
        let found = user::Entity::find()
            .filter(Expr::col(user::Column::Id).eq(PgFunc::any(wanted)))
            .order_by_asc(user::Column::Id)
            .all(&db)
            .await
            .unwrap();
        assert_eq!(found, [users[1].clone(), users[6].clone()]);
    }

    #[tokio::test]
    async fn a_negative_array_element_is_an_error_that_names_it() {
        let db = postgres().await;
        create_table(&db, reading_list::Entity).await;
        db.execute_unprepared("INSERT INTO reading_lists (id, members) VALUES (1, '{3, -2}')")
            .await
            .unwrap();
        let error = reading_list::Entity::find().one(&db).await.unwrap_err();
        assert_eq!(error.to_string(), out_of_range(-2));
    }
}

/// Keys the database makes itself (`ulid_flake_generate`, as a column default on PostgreSQL,
/// from a trigger on MariaDB), through SeaORM inserts.
mod database_generator {
    use sea_orm::ActiveModelTrait;
    use ulid_flake_core::sql;

    use super::*;
    use entities::invoice;

    /// Installs the generator of `billing` with `generator` and `install`, and creates
    /// `invoices` with `create_table`'s statements: the id the install reserved.
    async fn install(
        db: &DatabaseConnection,
        generator: &str,
        install: &str,
        create_table: &[String],
    ) -> u8 {
        db.execute_unprepared(generator).await.unwrap();
        let reserved = db
            .query_one_raw(Statement::from_string(db.get_database_backend(), install))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index::<i16>(0)
            .unwrap();
        for statement in create_table {
            db.execute_unprepared(statement).await.unwrap();
        }
        u8::try_from(reserved).unwrap()
    }

    async fn stored(db: &DatabaseConnection) -> Vec<invoice::Model> {
        invoice::Entity::find()
            .order_by_asc(invoice::Column::Id)
            .all(db)
            .await
            .unwrap()
    }

    /// On PostgreSQL an insert that leaves the key out reads it back (SeaORM's `RETURNING`).
    #[tokio::test]
    async fn postgres_makes_the_key_of_an_insert_that_leaves_it_out() {
        let db = postgres().await;
        let reserved = install(
            &db,
            sql::POSTGRES_GENERATOR,
            "SELECT ulid_flake_install_generator('billing')",
            &["CREATE TABLE invoices (id BIGINT PRIMARY KEY DEFAULT ulid_flake_generate('billing'), total BIGINT NOT NULL)".into()],
        )
        .await;
        let mut inserted = Vec::new();
        for total in [1, 2] {
            let row = invoice::ActiveModel {
                id: ActiveValue::NotSet,
                total: ActiveValue::Set(total),
            }
            .insert(&db)
            .await
            .unwrap();
            inserted.push(row);
        }
        assert!(inserted[0].id < inserted[1].id);
        assert!(
            inserted
                .iter()
                .all(|row| row.id.scalability_id() == reserved)
        );
        assert_eq!(stored(&db).await, inserted);
    }

    /// On MySQL backends SeaORM reads a key back through `LAST_INSERT_ID()`, which does not
    /// see a trigger's, unless its `mariadb-use-returning` feature (not on here) makes it read
    /// `RETURNING`: an insert leaves the key to the trigger without reading it, and one that
    /// needs the key selects `ulid_flake_generate` first and inserts it.
    #[tokio::test]
    async fn mariadb_makes_the_key_of_an_insert_that_leaves_it_out() {
        let db = mysql().await;
        let reserved = install(
            &db,
            sql::MYSQL_GENERATOR,
            "CALL ulid_flake_install_generator('billing', 1704067200000)",
            &[
                "CREATE TABLE invoices (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, total BIGINT NOT NULL)".into(),
                sql::mysql_generate_trigger("invoices", "id", "billing"),
            ],
        )
        .await;
        invoice::Entity::insert(invoice::ActiveModel {
            id: ActiveValue::NotSet,
            total: ActiveValue::Set(1),
        })
        .exec_without_returning(&db)
        .await
        .unwrap();
        let chosen: Id<invoice::Model> = db
            .query_one_raw(Statement::from_string(
                DbBackend::MySql,
                "SELECT ulid_flake_generate('billing')",
            ))
            .await
            .unwrap()
            .unwrap()
            .try_get_by_index(0)
            .unwrap();
        let second = invoice::ActiveModel {
            id: ActiveValue::Set(chosen),
            total: ActiveValue::Set(2),
        }
        .insert(&db)
        .await
        .unwrap();
        let rows = stored(&db).await;
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].total, rows[1].total),
            (1, 2),
            "keys in insert order"
        );
        assert_eq!(rows[1], second);
        assert!(rows.iter().all(|row| row.id.scalability_id() == reserved));
    }
}

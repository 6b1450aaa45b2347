//! `ulid-flake sql`: the SQL of the helper functions and the database's generator, in the
//! order the adapters run it.

use predicates::prelude::*;
use ulid_flake_core::sql;

use super::{stdout_of, ulid_flake};

#[test]
fn sql_prints_each_database_s_sql_in_install_order() {
    for (database, parts) in [
        (
            "postgres",
            [
                sql::POSTGRES_FUNCTIONS,
                sql::POSTGRES_PREFIXED_FUNCTIONS,
                sql::POSTGRES_GENERATOR,
            ],
        ),
        (
            "mysql",
            [
                sql::MYSQL_FUNCTIONS,
                sql::MYSQL_PREFIXED_FUNCTIONS,
                sql::MYSQL_GENERATOR,
            ],
        ),
    ] {
        let expected: String = parts
            .iter()
            .map(|part| format!("{}\n", part.trim_end()))
            .collect();
        assert_eq!(stdout_of(&["sql", database]), expected, "{database}");
    }
    // The SQL for `mysql` is MariaDB's (its generator needs MariaDB): the name works too.
    assert_eq!(stdout_of(&["sql", "mariadb"]), stdout_of(&["sql", "mysql"]));
}

#[test]
fn sql_names_the_databases_it_knows() {
    ulid_flake()
        .args(["sql", "oracle"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicates::str::contains(
            "invalid value 'oracle' for '<DATABASE>'",
        ))
        .stderr(predicates::str::contains(
            "[possible values: postgres, mysql]",
        ));
}

/// Not clap's "a similar value exists: 'mysql'": SQLite has no SQL functions to install.
#[test]
fn sql_sqlite_says_sqlite_has_no_sql_functions() {
    for name in ["sqlite", "sqlite3"] {
        ulid_flake()
            .args(["sql", name])
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicates::str::starts_with(
                "error: no SQL for SQLite: expected postgres or mysql, found SQLite, which defines \
             no functions in SQL (read and write the IDs as BIGINT, and their text in Rust or \
             with `ulid-flake convert`)\n",
            ))
            .stderr(predicates::str::contains("similar").not());
    }
}

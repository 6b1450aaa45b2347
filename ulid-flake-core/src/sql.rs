//! SQL that creates helper functions in the database, so that someone reading it in `psql` or
//! `mysql` sees the IDs the API shows: `ulid_flake_to_text(id)`, `ulid_flake_from_text(text)`
//! and `ulid_flake_to_timestamp(id, epoch_ms)` (UTC). They follow the codec exactly (no
//! aliases, a first character 0-7, either case; the length, then each character, then the
//! range checked; a negative `BIGINT` refused by both functions that take one) and raise
//! the same kinds of error at the same indexes, in its words (the range error names the
//! first character): every case of the test vectors that SQL can take, on both
//! databases (`the_test_vectors_agree`, in `ulid-flake-sqlx`'s tests). They read and write the
//! 13 characters alone.
//!
//! For the IDs of an entity whose text has a prefix (a [`PrefixedId`](crate::PrefixedId) or a
//! prefixed `newtype!` key), [`POSTGRES_PREFIXED_FUNCTIONS`] and [`MYSQL_PREFIXED_FUNCTIONS`]
//! create `ulid_flake_to_prefixed_text(id, prefix)` (`user_00CMXB6TAK4SA`) and
//! `ulid_flake_from_prefixed_text(text, prefix)`: the column holds the ID alone, each call
//! names the prefix. They check the prefix as a [`Prefix`](crate::Prefix) is checked (a
//! lowercase ASCII letter, then up to 30 lowercase letters and digits), and read the text as
//! the prefixed ID's parser does, raising its very message for every case of the test vectors'
//! prefixed section and each wrong prefix (`prefixed_text_fails_with_the_codec_s_message`, in
//! `ulid-flake-sqlx`'s tests), but for the range error, worded as `ulid_flake_from_text`'s.
//! Like `ulid_flake_from_text`'s, their messages quote a character outside printable ASCII,
//! or `'`, `"` or `\`, as the database quotes text (`quote_literal`, `QUOTE`), where the codec
//! escapes it; a wrong prefix is cut to 16 characters, not 16 bytes, but counted in bytes as
//! the codec counts it (`a_non_ascii_wrong_prefix_is_counted_in_bytes`). On PostgreSQL they
//! find the functions they call in their own schema, whatever the caller's `search_path`
//! (`postgres_prefixed_functions_work_under_an_empty_search_path`: `pg_dump` and
//! `pg_restore` empty it while they rebuild an index on them).
//!
//! The messages above are a UTF-8 database's. In a database of another encoding (PostgreSQL
//! `LATIN1` or `SQL_ASCII`, a MariaDB database of `latin1` or `ascii`) the functions install
//! and read, write and refuse every case of the test vectors as the codec does; their
//! messages may differ there (a cut prefix ends in `...` on PostgreSQL, and a character the
//! encoding lacks fails before the function, in the conversion of its argument)
//! (`postgres_in_latin1_and_sql_ascii_databases_the_functions_take_what_the_codec_takes`,
//! `mariadb_in_latin1_and_ascii_databases_the_functions_take_what_the_codec_takes`).
//!
//! **Their errors' SQLSTATEs**, for a caller that tells bad input from other failures (Diesel
//! and sqlx report them as the database's errors): on PostgreSQL `22P02`
//! (`invalid_text_representation`) for bad text, `22003` (`numeric_value_out_of_range`) for a
//! negative `BIGINT` or a first character above `7`, `22023` (`invalid_parameter_value`) for
//! an invalid prefix; on MySQL/MariaDB `22018`, `22003` and `22023` likewise
//! (`each_kind_of_error_has_its_sqlstate`, in `ulid-flake-sqlx`'s tests). Input from a
//! request is better parsed in Rust first, where the error is the typed [`Error`](crate::Error).
//!
//! It also makes keys in the database itself: [`POSTGRES_GENERATOR`] and [`MYSQL_GENERATOR`]
//! create `ulid_flake_generate(namespace)`, for a column's default (PostgreSQL) or a
//! `BEFORE INSERT` trigger (`mysql_generate_trigger`, MariaDB), so that a SQL migration, a
//! job in another language or a plain `INSERT` gets the same kind of key as the Rust code. See
//! [Keys made by the database](#keys-made-by-the-database).
//!
//! The database adapters apply this SQL (`ulid-flake-sqlx` as migrations, `ulid-flake-diesel`
//! through its connection); it is here so both share one source. Without Rust, the files under
//! `sql/` install through `psql -f` and `mariadb --delimiter` as their headers say
//! (`the_sql_files_install_through_the_command_line_clients`, in `ulid-flake-sqlx`'s tests).
//!
//! # Keys made by the database
//!
//! ```sql
//! -- PostgreSQL
//! SELECT ulid_flake_install_generator('billing');       -- once: reserves a scalability id
//! CREATE TABLE invoice (id BIGINT PRIMARY KEY DEFAULT ulid_flake_generate('billing'), total BIGINT);
//! INSERT INTO invoice (total) VALUES (100) RETURNING id;
//!
//! -- MariaDB
//! CALL ulid_flake_install_generator('billing', 1704067200000);
//! CREATE TABLE invoice (id BIGINT NOT NULL DEFAULT 0 PRIMARY KEY, total BIGINT);
//! -- the statement mysql_generate_trigger("invoice", "id", "billing") returns
//! INSERT INTO invoice (total) VALUES (100) RETURNING id;
//! ```
//!
//! **The keys are the scalable layout's**, under a scalability id the install reserves in
//! the lease table, `ulid_flake_leases`, with a row that never expires, held by
//! [`DATABASE_GENERATOR_HOLDER`], a holder no lease of this crate uses: the application's
//! leases in the same namespace take the other ids, never that one. The epoch is the
//! default unless the install names another; read the keys with the same one. Every
//! namespace of a database takes the same epoch (the install refuses another): their keys
//! come from one state, and under two epochs a key of one namespace would be a key of
//! another, made as many milliseconds later. The install takes the lowest id that has no
//! row or an expired one (a lease takes any such id, trying them from a random offset; the
//! install waits, as a lease does, as long as its epoch is later than the last holder's:
//! the `lease` module), and fails when all 32 are leased. Installing a namespace again
//! answers the same id, once it has checked that the reservation is still there. A foreign
//! key and triggers keep the reserved row (no `DELETE`, `UPDATE` or `TRUNCATE` takes it
//! away) and the generator's row (its id and epoch are fixed); PostgreSQL also checks the row
//! at every call and fails when it is gone. MariaDB checks it at install only (a read within
//! an `INSERT` would lock the row until the inserter commits, and make a lease that tries the
//! id wait): with the triggers dropped, or `foreign_key_checks` off, a lease could take the
//! id and repeat the database's keys.
//!
//! **Never a duplicate** within one primary database, whatever its clock does: each key is
//! made from the state the key before left (its Unix millisecond and randomness), under one
//! lock, and the state only grows. The install raises it to the install's own millisecond, so
//! no key is stamped while a lease that held the reserved id was valid (the lease protocol
//! keeps its holder's clock close to the database's).
//! A new millisecond gets fresh randomness; within one, the randomness grows by a random
//! 1..=255; a clock read behind the state (a step back) goes on in the state's millisecond, and
//! a full millisecond in the next — the keys stay unique and increasing, stamped ahead of the
//! clock until it catches up. There is one state for all namespaces of a database, so they
//! share a millisecond's capacity (on average 128 keys). The state and its lock are outside
//! the caller's transaction: a rolled-back insert does not take its key back. The lock is a
//! session's, taken and released within each call, so an open transaction makes no other
//! inserter wait. On PostgreSQL the state is a sequence and the lock an advisory lock. On
//! MariaDB the state is the `AUTO_INCREMENT` counter of an empty InnoDB table (the last state
//! \+ 1; InnoDB never lowers it), which each call raises by inserting rows of its own and
//! deleting them, and the lock a named lock (`GET_LOCK`): MariaDB locks every table a
//! statement's triggers and functions use for the statement's whole length, and InnoDB's lock
//! for an insert lets other inserters in (a row of a non-transactional table would shut them
//! out while one insert waits for a row lock). The clock is the one read when the call runs:
//! PostgreSQL's `clock_timestamp()`, MariaDB's `SYSDATE(6)` read in UTC whatever the session's
//! time zone and counted without `UNIX_TIMESTAMP`'s 2038 limit.
//!
//! **Getting the key back**: `INSERT … RETURNING id` on PostgreSQL and MariaDB (10.5 and
//! later). Where a library reads no `RETURNING` from MariaDB (Diesel on its MySQL backend;
//! SeaORM unless its `mariadb-use-returning` feature is on), or on MySQL, whose
//! `LAST_INSERT_ID()` does not see a key a trigger set, call
//! `SELECT ulid_flake_generate('billing')` first and insert the key it answers (the trigger
//! keeps a key it is given).
//!
//! **The epoch**: install a namespace with the epoch its application's leases use: with a
//! later one, the database's keys under an id a lease held before the install could meet that
//! lease's keys.
//!
//! **Where it runs**: tested on PostgreSQL 15 and MariaDB 10.11; it needs `gen_random_uuid`
//! (PostgreSQL 13) and `RANDOM_BYTES` (MariaDB 10.10). It is SQL and PL/pgSQL alone — no
//! extension to compile — and not tested on a managed database. MariaDB with binary logging on
//! accepts the function as declared (`NOT DETERMINISTIC READS SQL DATA`); creating any
//! function or trigger there needs `SUPER` or `log_bin_trust_function_creators = 1`. SQLite has no stored
//! functions, so no generator: let the application make the keys. MySQL 8 cannot run the
//! MariaDB SQL as written: it lacks `SET STATEMENT`, which sets the session's `insert_id` and
//! `auto_increment_*` aside for the counter's insert, and `RETURNING`.
//!
//! **Privileges**: nothing a caller sets moves the state — the clock is the server's and the
//! randomness field whole; `ulid_flake_make_key(namespace, clock_ms, field_max)`, the step that
//! takes both as arguments (for tests), is the owner's. On PostgreSQL, `ulid_flake_generate`
//! runs with its owner's rights, so a caller needs only `EXECUTE` on it (`PUBLIC`'s by default)
//! and no right that could set the state back. On MariaDB a trigger runs as its definer: an
//! inserting user needs only `INSERT`, and `EXECUTE` on `ulid_flake_generate` to call it
//! itself (grant none on `ulid_flake_make_key`); a MariaDB user who may create temporary
//! tables or alter tables in the install schema can make keys repeat (a session's temporary
//! table stands in for the generator's). Install the functions in the schema whose
//! `ulid_flake_leases` the application's leases use: the reservation is a row of that table.
//!
//! **Limits**: one primary — multi-primary setups (Galera, BDR) do not share the state; on
//! MariaDB the function refuses `binlog_format = STATEMENT`, under which replicas would make
//! keys of their own; a crash that loses the state's last change (PostgreSQL with
//! `synchronous_commit` off) repeats a key only if the clock is then behind it. A database
//! moved elsewhere must take the state with it (the sequence `ulid_flake_generator_state`, or
//! the `AUTO_INCREMENT` of MariaDB's table of that name, which PostgreSQL's logical
//! replication does not copy): raise the new one's to the old one's before its first key.
//! Concurrent installs of one namespace inside explicit transactions fail but one (a
//! serialization error under PostgreSQL's `SERIALIZABLE`, a duplicate key on MariaDB): roll
//! back and retry. PostgreSQL refuses an install under `REPEATABLE READ`, whose snapshot,
//! taken before the install's lock, could miss another install of another epoch. The SQL
//! files' comments list the rest.
//!
//! **Errors** name the cause: an empty or over-long namespace (`expected 1..=64 bytes`), a
//! namespace without a generator, one whose 32 ids are all leased, another epoch for an
//! installed namespace, an epoch other than the installed namespaces', an epoch the server's
//! clock has not reached (refused before an id is taken for it). Any login may hold the
//! state's lock (PostgreSQL's advisory lock, MariaDB's named lock): calls then fail after
//! 2 s with an error naming the lock and its holder.
//!
//! ```
//! assert!(ulid_flake_core::sql::POSTGRES_FUNCTIONS.contains("FUNCTION ulid_flake_to_text"));
//! ```

/// The PostgreSQL functions; `ulid_flake_to_timestamp`'s epoch defaults to
/// `1704067200000`. Idempotent (`CREATE OR REPLACE`).
pub const POSTGRES_FUNCTIONS: &str = include_str!("../sql/postgres.sql");

/// The MySQL/MariaDB functions, in one batch of statements (compound bodies without a
/// `DELIMITER`: send it as a multi-statement query; the `mariadb` shell needs a delimiter the
/// file does not hold, as its header says).
/// Idempotent (each function is dropped first).
pub const MYSQL_FUNCTIONS: &str = include_str!("../sql/mysql.sql");

/// The PostgreSQL functions for prefixed IDs, `ulid_flake_to_prefixed_text(id, prefix)` and
/// `ulid_flake_from_prefixed_text(text_id, prefix)`, which call [`POSTGRES_FUNCTIONS`]
/// (install those first). Idempotent (`CREATE OR REPLACE`).
///
/// ```
/// assert!(ulid_flake_core::sql::POSTGRES_PREFIXED_FUNCTIONS.contains("FUNCTION ulid_flake_to_prefixed_text(id bigint, prefix text)"));
/// ```
pub const POSTGRES_PREFIXED_FUNCTIONS: &str = include_str!("../sql/postgres-prefixed.sql");

/// The MySQL/MariaDB functions for prefixed IDs, as [`POSTGRES_PREFIXED_FUNCTIONS`], which
/// call [`MYSQL_FUNCTIONS`] (install those first), in one batch as [`MYSQL_FUNCTIONS`].
/// Idempotent (each function is dropped first).
///
/// ```
/// assert!(ulid_flake_core::sql::MYSQL_PREFIXED_FUNCTIONS.contains("FUNCTION ulid_flake_from_prefixed_text(text_id LONGTEXT, prefix TEXT)"));
/// ```
pub const MYSQL_PREFIXED_FUNCTIONS: &str = include_str!("../sql/mysql-prefixed.sql");

/// Everything for PostgreSQL, in the order to run it (the prefixed functions call the
/// others): [`POSTGRES_FUNCTIONS`], [`POSTGRES_PREFIXED_FUNCTIONS`], [`POSTGRES_GENERATOR`].
/// `ulid-flake-diesel`'s `create_postgres_functions` runs it, `ulid-flake sql postgres`
/// prints it.
///
/// ```
/// use ulid_flake_core::sql::{POSTGRES_FUNCTIONS, POSTGRES_INSTALL};
///
/// assert_eq!(POSTGRES_INSTALL[0], POSTGRES_FUNCTIONS);
/// ```
pub const POSTGRES_INSTALL: [&str; 3] = [
    POSTGRES_FUNCTIONS,
    POSTGRES_PREFIXED_FUNCTIONS,
    POSTGRES_GENERATOR,
];

/// Everything for MariaDB, in the order to run it, as [`POSTGRES_INSTALL`]:
/// [`MYSQL_FUNCTIONS`], [`MYSQL_PREFIXED_FUNCTIONS`], [`MYSQL_GENERATOR`] (MariaDB's alone).
///
/// ```
/// use ulid_flake_core::sql::{MYSQL_GENERATOR, MYSQL_INSTALL};
///
/// assert_eq!(MYSQL_INSTALL[2], MYSQL_GENERATOR);
/// ```
pub const MYSQL_INSTALL: [&str; 3] = [MYSQL_FUNCTIONS, MYSQL_PREFIXED_FUNCTIONS, MYSQL_GENERATOR];

/// The PostgreSQL generator, `ulid_flake_install_generator(namespace, epoch_ms DEFAULT
/// 1704067200000)` and `ulid_flake_generate(namespace)`, with its state and the lease table
/// ([module docs](self#keys-made-by-the-database)). Idempotent.
///
/// ```
/// assert!(ulid_flake_core::sql::POSTGRES_GENERATOR.contains("FUNCTION ulid_flake_generate(namespace text)"));
/// ```
pub const POSTGRES_GENERATOR: &str = include_str!("../sql/postgres-generate.sql");

/// The MariaDB generator, the procedure `ulid_flake_install_generator(namespace, epoch_ms)` and
/// the function `ulid_flake_generate(namespace)`, with its state and the lease table, in one
/// batch as [`MYSQL_FUNCTIONS`] ([module docs](self#keys-made-by-the-database)). Idempotent.
///
/// ```
/// assert!(ulid_flake_core::sql::MYSQL_GENERATOR.contains("FUNCTION ulid_flake_generate(namespace TEXT)"));
/// ```
pub const MYSQL_GENERATOR: &str = include_str!("../sql/mysql-generate.sql");

/// The `holder` of the lease row that reserves the database generator's scalability id: no
/// lease of this crate takes it as its token.
///
/// ```
/// assert_eq!(ulid_flake_core::sql::DATABASE_GENERATOR_HOLDER, i64::MIN);
/// ```
pub const DATABASE_GENERATOR_HOLDER: i64 = i64::MIN;

/// The MariaDB trigger that gives `table`'s `column` a key from `namespace`'s generator when
/// an insert leaves it out (`0`, the column's default, or `NULL`); a key the insert gives is
/// kept. The trigger is named `<table>_<column>_ulid_flake`; identifiers are quoted. The
/// namespace is a string literal when it is printable ASCII without quotes or backslashes,
/// and a hex literal otherwise, so that no SQL mode or client character set can change it.
///
/// Declare the column `BIGINT NOT NULL DEFAULT 0`: without a default, MariaDB refuses an
/// `INSERT … SELECT` that leaves the column out before the trigger runs.
///
/// ```
/// use ulid_flake_core::sql::mysql_generate_trigger;
///
/// assert_eq!(
///     mysql_generate_trigger("invoice", "id", "billing"),
///     "CREATE TRIGGER `invoice_id_ulid_flake` BEFORE INSERT ON `invoice` FOR EACH ROW \
///      SET NEW.`id` = IF(IFNULL(NEW.`id`, 0) = 0, ulid_flake_generate('billing'), NEW.`id`)"
/// );
/// assert!(mysql_generate_trigger("invoice", "id", "o'brien").contains("ulid_flake_generate(CONVERT(X'6F27627269656E' USING utf8mb4))"));
/// ```
#[cfg(feature = "alloc")]
pub fn mysql_generate_trigger(table: &str, column: &str, namespace: &str) -> alloc::string::String {
    use alloc::format;
    use alloc::string::String;
    use core::fmt::Write as _;

    let identifier = |name: &str| format!("`{}`", name.replace('`', "``"));
    let plain = namespace
        .bytes()
        .all(|byte| byte.is_ascii_graphic() && byte != b'\'' && byte != b'\\' || byte == b' ');
    let literal = if plain {
        format!("'{namespace}'")
    } else {
        let mut hex = String::with_capacity(namespace.len() * 2);
        for byte in namespace.bytes() {
            let _ = write!(hex, "{byte:02X}");
        }
        format!("CONVERT(X'{hex}' USING utf8mb4)")
    };
    let (table_name, column_name) = (identifier(table), identifier(column));
    let trigger = identifier(&format!("{table}_{column}_ulid_flake"));
    format!(
        "CREATE TRIGGER {trigger} BEFORE INSERT ON {table_name} FOR EACH ROW \
         SET NEW.{column_name} = IF(IFNULL(NEW.{column_name}, 0) = 0, \
         ulid_flake_generate({literal}), NEW.{column_name})"
    )
}

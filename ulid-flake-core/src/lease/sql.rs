//! The SQL of the lease table, once for both adapters: `ulid-flake-sqlx` and
//! `ulid-flake-diesel` run these statements, with these parameters in this order, so their
//! leases share one table and exclude each other.
//!
//! Every statement is a single row operation that the adapters run in a transaction of its
//! own: behind a transaction-mode pooler (PgBouncer's `pool_mode = transaction`) each then
//! runs on one server session from start to end, and no state is kept in a session between
//! statements. Times are the database's, in microseconds since the Unix epoch, read when the
//! statement runs (PostgreSQL's `clock_timestamp()`, not the transaction's `now()`; MySQL's
//! `NOW(6)`, the statement's start, in the UTC session time zone that
//! [`LeaseSql::session_setup`] sets).

/// The statements of one SQL dialect.
///
/// ```
/// use ulid_flake_core::lease::sql::POSTGRES;
///
/// assert!(POSTGRES.take.contains("expires_at_us < "));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct LeaseSql {
    /// Creates the lease table when missing. No parameters.
    pub create_table: &'static str,
    /// Runs once on each new connection, when the dialect needs it. No parameters.
    pub session_setup: Option<&'static str>,
    /// Adds the row of one id, free, when missing. Parameters: namespace (text), id (small
    /// integer).
    pub insert_row: &'static str,
    /// Takes an id whose lease has expired by the database's clock: one row changed means it
    /// is taken. Parameters: holder (big integer), validity in µs (big integer), namespace,
    /// id.
    pub take: &'static str,
    /// Renews the holder's lease while the database still counts it valid: one row changed
    /// means it is renewed. Parameters: validity in µs, namespace, id, holder.
    pub renew: &'static str,
    /// Gives a lease up, letting it expire after a grace period (the margin that covers the
    /// clock difference between holders) rather than at once. Parameters: grace in µs,
    /// namespace, id, holder.
    pub release: &'static str,
}

/// PostgreSQL (directly or through a pooler in any mode).
///
/// ```
/// assert_eq!(ulid_flake_core::lease::sql::POSTGRES.session_setup, None);
/// ```
pub const POSTGRES: LeaseSql = LeaseSql {
    create_table: "CREATE TABLE IF NOT EXISTS ulid_flake_leases (\
        namespace VARCHAR(64) NOT NULL, \
        scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31), \
        holder BIGINT NOT NULL, \
        expires_at_us BIGINT NOT NULL, \
        PRIMARY KEY (namespace, scalability_id))",
    session_setup: None,
    insert_row: "INSERT INTO ulid_flake_leases (namespace, scalability_id, holder, expires_at_us) \
        VALUES ($1, $2, 0, 0) ON CONFLICT DO NOTHING",
    take: "UPDATE ulid_flake_leases \
        SET holder = $1, \
            expires_at_us = (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT + $2 \
        WHERE namespace = $3 AND scalability_id = $4 \
          AND expires_at_us < (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT",
    renew: "UPDATE ulid_flake_leases \
        SET expires_at_us = (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT + $1 \
        WHERE namespace = $2 AND scalability_id = $3 AND holder = $4 \
          AND expires_at_us >= (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT",
    release: "UPDATE ulid_flake_leases \
        SET expires_at_us = LEAST(expires_at_us, \
            (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT + $1) \
        WHERE namespace = $2 AND scalability_id = $3 AND holder = $4",
};

/// MySQL and MariaDB (InnoDB).
///
/// ```
/// assert!(ulid_flake_core::lease::sql::MYSQL.session_setup.unwrap().contains("time_zone"));
/// ```
pub const MYSQL: LeaseSql = LeaseSql {
    create_table: "CREATE TABLE IF NOT EXISTS ulid_flake_leases (\
        namespace VARCHAR(64) NOT NULL, \
        scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31), \
        holder BIGINT NOT NULL, \
        expires_at_us BIGINT NOT NULL, \
        PRIMARY KEY (namespace, scalability_id)) ENGINE = InnoDB",
    // UNIX_TIMESTAMP reads NOW(6) in the session's time zone: UTC has no daylight-saving
    // hour that would read twice.
    session_setup: Some("SET time_zone = '+00:00'"),
    insert_row: "INSERT IGNORE INTO ulid_flake_leases \
        (namespace, scalability_id, holder, expires_at_us) VALUES (?, ?, 0, 0)",
    take: "UPDATE ulid_flake_leases \
        SET holder = ?, expires_at_us = CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED) + ? \
        WHERE namespace = ? AND scalability_id = ? \
          AND expires_at_us < CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED)",
    renew: "UPDATE ulid_flake_leases \
        SET expires_at_us = CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED) + ? \
        WHERE namespace = ? AND scalability_id = ? AND holder = ? \
          AND expires_at_us >= CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED)",
    release: "UPDATE ulid_flake_leases \
        SET expires_at_us = LEAST(expires_at_us, \
            CAST(UNIX_TIMESTAMP(NOW(6)) * 1000000 AS SIGNED) + ?) \
        WHERE namespace = ? AND scalability_id = ? AND holder = ?",
};

//! The SQL of the lease table, once for both adapters: `ulid-flake-sqlx` and
//! `ulid-flake-diesel` run these statements, with these parameters in this order, so their
//! leases share one table and exclude each other.
//!
//! Every statement is a single row operation, safe on its own (the row's insert is
//! idempotent, each update one conditional statement). On PostgreSQL the adapters run a
//! call's statements in a transaction of its own: behind a transaction-mode pooler
//! (PgBouncer's `pool_mode = transaction`) they then run on one server session from start to
//! end, and no state is kept in a session between calls; the insert and the updates lock no
//! row another holder's renewal needs. On MySQL/MariaDB each statement is autocommitted:
//! InnoDB keeps a statement's locks until its transaction ends (an `INSERT IGNORE` that meets
//! an existing row keeps a shared lock), so a transaction held open across round trips by a
//! slow or paused caller would block the holder's renewal. Times are the database's, in microseconds since the Unix epoch, read when the
//! statement runs (PostgreSQL's `clock_timestamp()`, not the transaction's `now()`; MySQL's
//! `UTC_TIMESTAMP(6)`, the statement's start, whatever the session's time zone).

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
/// assert!(ulid_flake_core::lease::sql::POSTGRES.take.contains("clock_timestamp()"));
/// ```
pub const POSTGRES: LeaseSql = LeaseSql {
    create_table: "CREATE TABLE IF NOT EXISTS ulid_flake_leases (\
        namespace VARCHAR(64) NOT NULL, \
        scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31), \
        holder BIGINT NOT NULL, \
        expires_at_us BIGINT NOT NULL, \
        PRIMARY KEY (namespace, scalability_id))",
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

/// MySQL and MariaDB (InnoDB). `UTC_TIMESTAMP` depends on no session setting: a session
/// time zone with a daylight-saving hour that reads twice would step the lease clock.
///
/// ```
/// assert!(ulid_flake_core::lease::sql::MYSQL.take.contains("UTC_TIMESTAMP(6)"));
/// ```
pub const MYSQL: LeaseSql = LeaseSql {
    create_table: "CREATE TABLE IF NOT EXISTS ulid_flake_leases (\
        namespace VARCHAR(64) NOT NULL, \
        scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31), \
        holder BIGINT NOT NULL, \
        expires_at_us BIGINT NOT NULL, \
        PRIMARY KEY (namespace, scalability_id)) ENGINE = InnoDB",
    insert_row: "INSERT IGNORE INTO ulid_flake_leases \
        (namespace, scalability_id, holder, expires_at_us) VALUES (?, ?, 0, 0)",
    take: "UPDATE ulid_flake_leases \
        SET holder = ?, expires_at_us = TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) + ? \
        WHERE namespace = ? AND scalability_id = ? \
          AND expires_at_us < TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))",
    renew: "UPDATE ulid_flake_leases \
        SET expires_at_us = TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) + ? \
        WHERE namespace = ? AND scalability_id = ? AND holder = ? \
          AND expires_at_us >= TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))",
    release: "UPDATE ulid_flake_leases \
        SET expires_at_us = LEAST(expires_at_us, \
            TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6)) + ?) \
        WHERE namespace = ? AND scalability_id = ? AND holder = ?",
};

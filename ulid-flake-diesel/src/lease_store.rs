//! Scalability-id leases through Diesel: the core's protocol ([`ulid_flake_core::lease`])
//! with a connection of its own and the core's SQL.

use core::fmt;

use std::time::Duration;

use diesel::prelude::*;
use diesel::sql_types::{BigInt, SmallInt, Text};
use ulid_flake_core::lease::sql::{Dialect, LeaseDatabase, Param, SqlLeaseStore, Statement};
use ulid_flake_core::lease::{LeaseError, LeaseOptions, ScalabilityIdLease};

/// Leases a scalability id from PostgreSQL at `url` (anything libpq takes), directly or
/// through any pooler (PgBouncer's transaction mode included), as the core's
/// [`ScalabilityIdLease::acquire`] describes: creates the `ulid_flake_leases` table if
/// missing, takes a free id, and keeps it renewed on a thread of its own. Blocks until it
/// holds an id.
///
/// Diesel's connections cannot bound a call: while the server is stalled, a renewal waits
/// for it, and the generator stops at its deadline all the same
/// (`postgres_stalled_fails_closed_without_duplicates`). The first acquisition and
/// [`ScalabilityIdLease::release`] wait too, for as long as the server stalls: libpq's
/// `connect_timeout` in the URL (`?connect_timeout=2`) bounds a connection attempt, but
/// nothing bounds a statement on a server that accepted it and stopped answering — its
/// kernel acknowledges every packet, so `tcp_user_timeout` and `keepalives_idle` do not end
/// the wait either (tried by hand on a `SIGSTOP`ped server). `lease_mysql` has no timeout
/// at all: Diesel's MySQL URL takes none. Where start-up must not hang on a stalled
/// database, lease through `ulid-flake-sqlx`, which bounds every call.
///
/// # Errors
///
/// [`LeaseError::Database`] for a database that failed for the whole acquisition timeout,
/// a refusal included: a wrong password or no right to the lease table is retried like any
/// failure, since Diesel's errors carry no SQLSTATE to tell it apart (the sqlx adapter fails
/// at once); the other [`LeaseError`]s as [`ScalabilityIdLease::acquire`].
///
/// ```no_run
/// use ulid_flake_diesel::lease::LeaseOptions;
///
/// let lease = ulid_flake_diesel::lease_postgres("postgres://app@db/app", LeaseOptions::new("billing"))?;
/// let id = lease.generator().generate()?;
/// assert_eq!(Some(id.scalability_id()), lease.status().scalability_id);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "postgres")]
pub fn lease_postgres(url: &str, options: LeaseOptions) -> Result<ScalabilityIdLease, LeaseError> {
    ScalabilityIdLease::acquire(DieselLeaseStore::postgres(url)?, options)
}

/// Leases a scalability id from MySQL or MariaDB at `url`, as `lease_postgres` (feature
/// `postgres`) does.
///
/// # Errors
///
/// As `lease_postgres`'s.
///
/// ```no_run
/// use ulid_flake_diesel::lease::LeaseOptions;
///
/// ulid_flake_diesel::lease_mysql("mysql://app@db/app", LeaseOptions::new("billing"))?.install_default()?;
/// let id = ulid_flake_diesel::UlidFlake::generate()?; // scalable, with the leased id
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[cfg(feature = "mysql")]
pub fn lease_mysql(url: &str, options: LeaseOptions) -> Result<ScalabilityIdLease, LeaseError> {
    ScalabilityIdLease::acquire(DieselLeaseStore::mysql(url)?, options)
}

/// The lease store of Diesel: the core's [`SqlLeaseStore`] over [`DieselLeaseDatabase`].
/// `lease_postgres` and `lease_mysql` (features `postgres`, `mysql`) build one.
///
/// ```no_run
/// use ulid_flake_diesel::DieselLeaseStore;
/// use ulid_flake_diesel::lease::{LeaseOptions, ScalabilityIdLease};
///
/// let store = DieselLeaseStore::postgres("postgres://app@db/app")?;
/// let lease = ScalabilityIdLease::acquire(store, LeaseOptions::new("billing"))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// A URL of another server's scheme fails at once, before any connection:
///
/// ```
/// use ulid_flake_diesel::DieselLeaseStore;
///
/// let error = DieselLeaseStore::postgres("mysql://app@db/app").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "lease database error: bad PostgreSQL URL: expected postgres:// or postgresql://, found mysql://"
/// );
/// let error = DieselLeaseStore::mysql("postgres//app@db/app").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "lease database error: bad MySQL/MariaDB URL: expected mysql:// or mariadb://, found no scheme (no `://`)"
/// );
/// ```
pub type DieselLeaseStore = SqlLeaseStore<DieselLeaseDatabase>;

/// Diesel's way to the lease table: a connection of the lease's own, established from the
/// URL. Diesel's connections cannot bound a call: the timeouts are not applied (see
/// `lease_postgres`).
///
/// ```
/// use ulid_flake_diesel::DieselLeaseStore;
///
/// let store = DieselLeaseStore::mysql("mysql://app@db/app")?;
/// # Ok::<(), ulid_flake_diesel::lease::LeaseError>(())
/// ```
pub struct DieselLeaseDatabase {
    url: String,
    dialect: Dialect,
}

/// A connection of [`DieselLeaseDatabase`].
pub struct DieselLeaseConnection(Session);

enum Session {
    #[cfg(feature = "postgres")]
    Postgres(PgConnection),
    #[cfg(feature = "mysql")]
    Mysql(MysqlConnection),
}

/// The one `BIGINT` of a query the core hands over (`LeaseDatabase::query_i64`).
#[derive(QueryableByName)]
struct Value {
    #[diesel(sql_type = BigInt)]
    value: i64,
}

/// The statement as a Diesel query of backend `$backend`, its parameters bound in order.
macro_rules! query {
    ($statement:expr, $backend:ty) => {{
        let mut query = diesel::sql_query($statement.sql()).into_boxed::<$backend>();
        for param in $statement.params() {
            query = match *param {
                Param::BigInt(value) => query.bind::<BigInt, _>(value),
                Param::SmallInt(value) => query.bind::<SmallInt, _>(value),
                Param::Text(value) => query.bind::<Text, _>(value),
            };
        }
        query
    }};
}

impl LeaseDatabase for DieselLeaseDatabase {
    type Connection = DieselLeaseConnection;
    type Error = DatabaseError;

    fn open(dialect: Dialect, url: &str) -> Result<Self, LeaseError> {
        match dialect {
            #[cfg(feature = "postgres")]
            Dialect::Postgres => {}
            #[cfg(feature = "mysql")]
            Dialect::MySql => {}
            #[allow(
                unreachable_patterns,
                reason = "with both backends, every dialect is above"
            )]
            other => {
                return Err(LeaseError::Database(
                    format!("this build of ulid-flake-diesel has no {other} backend: expected its feature on, found it off").into(),
                ));
            }
        }
        Ok(Self {
            url: url.into(),
            dialect,
        })
    }

    fn connect(&mut self, _: Duration) -> Result<DieselLeaseConnection, DatabaseError> {
        let session = match self.dialect {
            #[cfg(feature = "postgres")]
            Dialect::Postgres => Session::Postgres(PgConnection::establish(&self.url)?),
            #[cfg(feature = "mysql")]
            Dialect::MySql => Session::Mysql(MysqlConnection::establish(&self.url)?),
            #[allow(unreachable_patterns, reason = "`open` refused the others")]
            _ => unreachable!("no backend for {}", self.dialect),
        };
        Ok(DieselLeaseConnection(session))
    }

    /// On PostgreSQL in a transaction of its own, which a pooler keeps on one server
    /// session from the statement's prepare to its execution, guarded against idling
    /// ([`Dialect::transaction_guard`]); on MySQL autocommitted.
    fn execute(
        &mut self,
        connection: &mut DieselLeaseConnection,
        statement: &Statement<'_>,
        timeout: Duration,
    ) -> Result<u64, DatabaseError> {
        let changed = match &mut connection.0 {
            #[cfg(feature = "postgres")]
            Session::Postgres(conn) => conn.transaction(|conn| {
                if let Some(guard) = Dialect::Postgres.transaction_guard(timeout) {
                    query!(guard, diesel::pg::Pg).execute(conn)?;
                }
                query!(statement, diesel::pg::Pg).execute(conn)
            })?,
            #[cfg(feature = "mysql")]
            Session::Mysql(conn) => query!(statement, diesel::mysql::Mysql).execute(conn)?,
        };
        Ok(changed as u64)
    }

    fn query_i64(
        &mut self,
        connection: &mut DieselLeaseConnection,
        statement: &Statement<'_>,
        _: Duration,
    ) -> Result<i64, DatabaseError> {
        let value: Value = match &mut connection.0 {
            #[cfg(feature = "postgres")]
            Session::Postgres(conn) => {
                conn.transaction(|conn| query!(statement, diesel::pg::Pg).get_result(conn))?
            }
            #[cfg(feature = "mysql")]
            Session::Mysql(conn) => query!(statement, diesel::mysql::Mysql).get_result(conn)?,
        };
        Ok(value.value)
    }
}

/// A Diesel error of a lease: connecting, or a query.
///
/// ```
/// use ulid_flake_diesel::DatabaseError;
///
/// let error = DatabaseError::from(diesel::result::Error::NotFound);
/// assert_eq!(error.to_string(), "Record not found");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum DatabaseError {
    /// The connection could not be made.
    Connection(ConnectionError),
    /// A query failed.
    Query(diesel::result::Error),
}

impl fmt::Display for DatabaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Connection(error) => error.fmt(f),
            Self::Query(error) => error.fmt(f),
        }
    }
}

/// Transparent: the message is Diesel's, so the source is that error's source, and a
/// reporter that prints the chain shows Diesel's message once.
impl std::error::Error for DatabaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Connection(error) => error.source(),
            Self::Query(error) => error.source(),
        }
    }
}

impl From<ConnectionError> for DatabaseError {
    fn from(error: ConnectionError) -> Self {
        Self::Connection(error)
    }
}

impl From<diesel::result::Error> for DatabaseError {
    fn from(error: diesel::result::Error) -> Self {
        Self::Query(error)
    }
}

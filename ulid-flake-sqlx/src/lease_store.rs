//! Scalability-id leases through sqlx: the core's protocol and statements
//! ([`ulid_flake_core::lease::sql`]) over a connection of sqlx's.

use std::future::Future;
use std::io;
use std::time::Duration;

#[cfg(feature = "mysql")]
use sqlx::mysql::{MySqlConnectOptions, MySqlConnection};
#[cfg(feature = "postgres")]
use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{Connection, Row};
use ulid_flake_core::lease::sql::{
    Dialect, LeaseDatabase, Param, SqlLeaseStore, Statement, is_refusal_sqlstate,
};
use ulid_flake_core::lease::{LeaseError, LeaseOptions, ScalabilityIdLease};

/// Leases a scalability id from PostgreSQL at `url`, directly or through any pooler
/// (PgBouncer's transaction mode included), as the core's
/// [`ScalabilityIdLease::acquire`] describes: creates the `ulid_flake_leases` table if
/// missing, takes a free id, and keeps it renewed on a thread of its own.
///
/// # Errors
///
/// [`LeaseError::Database`] for a bad URL, a database that failed for the whole
/// acquisition timeout, or one that refused the lease for good — a wrong password, a
/// missing database, no right to the lease table (its SQLSTATE says so:
/// [`is_refusal_sqlstate`]) — at once; the other [`LeaseError`]s as
/// [`ScalabilityIdLease::acquire`].
///
/// ```no_run
/// use ulid_flake_sqlx::lease::LeaseOptions;
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
/// let lease = ulid_flake_sqlx::lease_postgres("postgres://app@db/app", LeaseOptions::new("billing")).await?;
/// let id = lease.generator().generate()?;
/// assert_eq!(Some(id.scalability_id()), lease.status().scalability_id);
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "postgres")]
pub async fn lease_postgres(
    url: &str,
    options: LeaseOptions,
) -> Result<ScalabilityIdLease, LeaseError> {
    acquire(SqlxLeaseStore::postgres(url)?, options).await
}

/// Leases a scalability id from MySQL or MariaDB at `url`, as `lease_postgres` (feature
/// `postgres`) does.
///
/// # Errors
///
/// As `lease_postgres`'s.
///
/// ```no_run
/// use ulid_flake_sqlx::lease::LeaseOptions;
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
/// ulid_flake_sqlx::lease_mysql("mysql://app@db/app", LeaseOptions::new("billing"))
///     .await?
///     .install_default()?;
/// let id = ulid_flake_sqlx::UlidFlake::generate()?; // scalable, with the leased id
/// # Ok(())
/// # }
/// ```
#[cfg(feature = "mysql")]
pub async fn lease_mysql(
    url: &str,
    options: LeaseOptions,
) -> Result<ScalabilityIdLease, LeaseError> {
    acquire(SqlxLeaseStore::mysql(url)?, options).await
}

/// The first acquisition blocks (it may wait out a failing database): off the async
/// runtime's threads.
async fn acquire(
    store: SqlxLeaseStore,
    options: LeaseOptions,
) -> Result<ScalabilityIdLease, LeaseError> {
    tokio::task::spawn_blocking(move || ScalabilityIdLease::acquire(store, options))
        .await
        .map_err(|error| LeaseError::Database(Box::new(error)))?
}

/// The lease store of sqlx: the core's [`SqlLeaseStore`] over [`SqlxLeaseDatabase`].
/// `lease_postgres` and `lease_mysql` (features `postgres`, `mysql`) build one; build it
/// yourself to pass it to [`ScalabilityIdLease::acquire`] from synchronous code.
///
/// ```no_run
/// use ulid_flake_sqlx::SqlxLeaseStore;
/// use ulid_flake_sqlx::lease::{LeaseOptions, ScalabilityIdLease};
///
/// let store = SqlxLeaseStore::postgres("postgres://app@db/app")?;
/// let lease = ScalabilityIdLease::acquire(store, LeaseOptions::new("billing"))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub type SqlxLeaseStore = SqlLeaseStore<SqlxLeaseDatabase>;

/// sqlx's way to the lease table: a connection of the lease's own, and a single-threaded
/// tokio runtime on the lease's thread to drive it, so that renewals do not depend on the
/// application's runtime being responsive. Each call is bounded by its timeout.
///
/// ```
/// use ulid_flake_sqlx::SqlxLeaseStore;
///
/// let error = SqlxLeaseStore::postgres("postgres://app@db:99999/app").unwrap_err();
/// assert!(error.to_string().starts_with("lease database error:"));
/// // Another server's scheme, at once, before any connection:
/// let error = SqlxLeaseStore::postgres("mysql://app@db/app").unwrap_err();
/// assert_eq!(
///     error.to_string(),
///     "lease database error: bad PostgreSQL URL: expected postgres:// or postgresql://, found mysql://"
/// );
/// ```
pub struct SqlxLeaseDatabase {
    runtime: tokio::runtime::Runtime,
    target: Target,
}

/// A connection of [`SqlxLeaseDatabase`].
pub struct SqlxLeaseConnection(Session);

enum Target {
    #[cfg(feature = "postgres")]
    Postgres(PgConnectOptions),
    #[cfg(feature = "mysql")]
    MySql(MySqlConnectOptions),
}

enum Session {
    #[cfg(feature = "postgres")]
    Postgres(PgConnection),
    #[cfg(feature = "mysql")]
    MySql(MySqlConnection),
}

impl SqlxLeaseDatabase {
    /// Runs `work` to its end on the lease's runtime, or fails after `timeout`.
    fn block_on<T>(
        &self,
        timeout: Duration,
        work: impl Future<Output = Result<T, sqlx::Error>>,
    ) -> Result<T, sqlx::Error> {
        self.runtime
            .block_on(async { tokio::time::timeout(timeout, work).await })
            .unwrap_or_else(|_| {
                Err(sqlx::Error::Io(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("no answer from the database within {timeout:?}"),
                )))
            })
    }
}

/// The statement as an unnamed sqlx query (no prepared statement outlives it, as a
/// transaction-mode pooler needs), its parameters bound in order.
macro_rules! query {
    ($statement:expr) => {{
        let mut query = sqlx::query($statement.sql()).persistent(false);
        for param in $statement.params() {
            query = match *param {
                Param::BigInt(value) => query.bind(value),
                Param::SmallInt(value) => query.bind(value),
                Param::Text(value) => query.bind(value),
            };
        }
        query
    }};
}

impl LeaseDatabase for SqlxLeaseDatabase {
    type Connection = SqlxLeaseConnection;
    type Error = sqlx::Error;

    fn open(dialect: Dialect, url: &str) -> Result<Self, LeaseError> {
        let database_error = |error: sqlx::Error| LeaseError::Database(Box::new(error));
        let target = match dialect {
            #[cfg(feature = "postgres")]
            Dialect::Postgres => Target::Postgres(url.parse().map_err(database_error)?),
            #[cfg(feature = "mysql")]
            Dialect::MySql => Target::MySql(url.parse().map_err(database_error)?),
            #[allow(
                unreachable_patterns,
                reason = "with both drivers, every dialect is above"
            )]
            other => {
                return Err(LeaseError::Database(
                    format!("this build of ulid-flake-sqlx has no {other} driver: expected its feature on, found it off").into(),
                ));
            }
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| LeaseError::Database(Box::new(error)))?;
        Ok(Self { runtime, target })
    }

    fn connect(&mut self, timeout: Duration) -> Result<SqlxLeaseConnection, sqlx::Error> {
        let session = self.block_on(timeout, async {
            Ok(match &self.target {
                #[cfg(feature = "postgres")]
                Target::Postgres(options) => {
                    Session::Postgres(PgConnection::connect_with(options).await?)
                }
                #[cfg(feature = "mysql")]
                Target::MySql(options) => {
                    Session::MySql(MySqlConnection::connect_with(options).await?)
                }
            })
        })?;
        Ok(SqlxLeaseConnection(session))
    }

    /// On PostgreSQL in a transaction of its own, which a pooler keeps on one server
    /// session from the statement's prepare to its execution, guarded against idling
    /// ([`Dialect::transaction_guard`]); on MySQL autocommitted.
    fn execute(
        &mut self,
        connection: &mut SqlxLeaseConnection,
        statement: &Statement<'_>,
        timeout: Duration,
    ) -> Result<u64, sqlx::Error> {
        self.block_on(timeout, async {
            match &mut connection.0 {
                #[cfg(feature = "postgres")]
                Session::Postgres(conn) => {
                    let mut transaction = conn.begin().await?;
                    if let Some(guard) = Dialect::Postgres.transaction_guard(timeout) {
                        query!(guard).execute(&mut *transaction).await?;
                    }
                    let changed = query!(statement).execute(&mut *transaction).await?;
                    transaction.commit().await?;
                    Ok(changed.rows_affected())
                }
                #[cfg(feature = "mysql")]
                Session::MySql(conn) => Ok(query!(statement).execute(conn).await?.rows_affected()),
            }
        })
    }

    /// A query without parameters (all the core hands over) goes as a simple query on
    /// PostgreSQL: one round trip, which the clock comparison's bound needs short.
    fn query_i64(
        &mut self,
        connection: &mut SqlxLeaseConnection,
        statement: &Statement<'_>,
        timeout: Duration,
    ) -> Result<i64, sqlx::Error> {
        self.block_on(timeout, async {
            match &mut connection.0 {
                #[cfg(feature = "postgres")]
                Session::Postgres(conn) if statement.params().is_empty() => {
                    sqlx::raw_sql(statement.sql())
                        .fetch_one(&mut *conn)
                        .await?
                        .try_get(0)
                }
                #[cfg(feature = "postgres")]
                Session::Postgres(conn) => {
                    let mut transaction = conn.begin().await?;
                    let row = query!(statement).fetch_one(&mut *transaction).await?;
                    transaction.commit().await?;
                    row.try_get(0)
                }
                #[cfg(feature = "mysql")]
                Session::MySql(conn) => query!(statement).fetch_one(conn).await?.try_get(0),
            }
        })
    }

    /// An error the server answered with, whose SQLSTATE is a refusal
    /// ([`is_refusal_sqlstate`]): a wrong password, a missing database, no right to the
    /// table. The lease's first acquisition then fails at once.
    fn is_refusal(&self, error: &sqlx::Error) -> bool {
        matches!(error, sqlx::Error::Database(error)
            if error.code().is_some_and(|code| is_refusal_sqlstate(&code)))
    }
}

//! Scalability-id leases through Diesel: the core's protocol ([`ulid_flake_core::lease`])
//! with a connection of its own and the core's SQL.

use core::fmt;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::sql_types::{BigInt, SmallInt, Text};
use ulid_flake_core::lease::sql::LeaseSql;
use ulid_flake_core::lease::{
    LeaseError, LeaseOptions, LeaseRequest, LeaseStore, ScalabilityIdLease,
};

/// Leases a scalability id from PostgreSQL at `url` (anything libpq takes), directly or
/// through any pooler (PgBouncer's transaction mode included), as the core's
/// [`ScalabilityIdLease::acquire`] describes: creates the `ulid_flake_leases` table if
/// missing, takes a free id, and keeps it renewed on a thread of its own. Blocks until it
/// holds an id.
///
/// Diesel's connections cannot bound a call: while the server is stalled, a renewal waits
/// for it, and the generator stops at its deadline all the same. Add libpq's
/// `tcp_user_timeout` or `keepalives_idle` to the URL to have a lost network noticed sooner.
///
/// # Errors
///
/// [`LeaseError::Database`] for a database that failed for the whole acquisition timeout;
/// the other [`LeaseError`]s as [`ScalabilityIdLease::acquire`].
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
    ScalabilityIdLease::acquire(DieselLeaseStore::postgres(url), options)
}

/// Leases a scalability id from MySQL or MariaDB at `url`, as [`lease_postgres`] does.
///
/// # Errors
///
/// As [`lease_postgres`].
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
    ScalabilityIdLease::acquire(DieselLeaseStore::mysql(url), options)
}

/// The [`LeaseStore`] of Diesel: one connection of its own, opened when first needed and
/// again after any error. [`lease_postgres`] and [`lease_mysql`] build one.
///
/// ```no_run
/// use ulid_flake_diesel::DieselLeaseStore;
/// use ulid_flake_diesel::lease::{LeaseOptions, ScalabilityIdLease};
///
/// let lease = ScalabilityIdLease::acquire(
///     DieselLeaseStore::postgres("postgres://app@db/app"),
///     LeaseOptions::new("billing"),
/// )?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct DieselLeaseStore {
    url: String,
    backend: Backend,
    connection: Option<Session>,
}

#[derive(Clone, Copy)]
enum Backend {
    #[cfg(feature = "postgres")]
    Postgres,
    #[cfg(feature = "mysql")]
    Mysql,
}

enum Session {
    #[cfg(feature = "postgres")]
    Postgres(PgConnection),
    #[cfg(feature = "mysql")]
    Mysql(MysqlConnection),
}

/// A statement of the lease: which SQL, with which parameters.
#[derive(Clone, Copy)]
enum Statement<'a> {
    /// `insert_row` then `take` (in one transaction on PostgreSQL, each alone on MySQL).
    Take(&'a LeaseRequest<'a>),
    Renew(&'a LeaseRequest<'a>),
    Release(&'a LeaseRequest<'a>),
}

impl DieselLeaseStore {
    /// A store on PostgreSQL at `url`; nothing connects until the first call.
    ///
    /// ```
    /// let store = ulid_flake_diesel::DieselLeaseStore::postgres("postgres://app@db/app");
    /// ```
    #[cfg(feature = "postgres")]
    pub fn postgres(url: &str) -> Self {
        Self::new(url, Backend::Postgres)
    }

    /// A store on MySQL or MariaDB at `url`; nothing connects until the first call.
    ///
    /// ```
    /// let store = ulid_flake_diesel::DieselLeaseStore::mysql("mysql://app@db/app");
    /// ```
    #[cfg(feature = "mysql")]
    pub fn mysql(url: &str) -> Self {
        Self::new(url, Backend::Mysql)
    }

    fn new(url: &str, backend: Backend) -> Self {
        Self {
            url: url.into(),
            backend,
            connection: None,
        }
    }

    /// Runs `statement` in a transaction of its own and returns the rows it changed; drops
    /// the connection on any error.
    fn run(&mut self, statement: Statement<'_>) -> Result<usize, DatabaseError> {
        if self.connection.is_none() {
            self.connection = Some(connect(&self.url, self.backend)?);
        }
        let session = self.connection.as_mut().expect("connected above");
        let result = session.execute(statement);
        if result.is_err() {
            self.connection = None;
        }
        result
    }
}

/// Opens the lease's connection and creates the table if missing.
fn connect(url: &str, backend: Backend) -> Result<Session, DatabaseError> {
    let mut session = match backend {
        #[cfg(feature = "postgres")]
        Backend::Postgres => Session::Postgres(PgConnection::establish(url)?),
        #[cfg(feature = "mysql")]
        Backend::Mysql => Session::Mysql(MysqlConnection::establish(url)?),
    };
    let create_table = session.sql().create_table;
    match &mut session {
        #[cfg(feature = "postgres")]
        Session::Postgres(conn) => conn.batch_execute(create_table)?,
        #[cfg(feature = "mysql")]
        Session::Mysql(conn) => conn.batch_execute(create_table)?,
    }
    Ok(session)
}

impl Session {
    fn sql(&self) -> &'static LeaseSql {
        match self {
            #[cfg(feature = "postgres")]
            Self::Postgres(_) => &ulid_flake_core::lease::sql::POSTGRES,
            #[cfg(feature = "mysql")]
            Self::Mysql(_) => &ulid_flake_core::lease::sql::MYSQL,
        }
    }

    /// The statement. On PostgreSQL in a transaction of its own: behind a transaction-mode
    /// pooler, its prepare and execute then reach one server session. On MySQL/MariaDB each
    /// statement stands alone, autocommitted: InnoDB keeps a statement's locks until its
    /// transaction ends (even `INSERT IGNORE` meeting an existing row keeps a shared lock), so
    /// a transaction held open across round trips by a slow or paused contender would block
    /// the holder's renewal past its deadline. Each statement is safe alone: the row's insert
    /// is idempotent and every update is one conditional statement.
    fn execute(&mut self, statement: Statement<'_>) -> Result<usize, DatabaseError> {
        let sql = self.sql();
        macro_rules! statements {
            ($conn:expr) => {
                match statement {
                    Statement::Take(request) => diesel::sql_query(sql.insert_row)
                        .bind::<Text, _>(request.namespace)
                        .bind::<SmallInt, _>(i16::from(request.scalability_id))
                        .execute($conn)
                        .and_then(|_| {
                            diesel::sql_query(sql.take)
                                .bind::<BigInt, _>(request.holder)
                                .bind::<BigInt, _>(request.validity_us())
                                .bind::<Text, _>(request.namespace)
                                .bind::<SmallInt, _>(i16::from(request.scalability_id))
                                .execute($conn)
                        }),
                    Statement::Renew(request) | Statement::Release(request) => {
                        let text = match statement {
                            Statement::Renew(_) => sql.renew,
                            _ => sql.release,
                        };
                        diesel::sql_query(text)
                            .bind::<BigInt, _>(request.validity_us())
                            .bind::<Text, _>(request.namespace)
                            .bind::<SmallInt, _>(i16::from(request.scalability_id))
                            .bind::<BigInt, _>(request.holder)
                            .execute($conn)
                    }
                }
            };
        }
        let changed = match self {
            #[cfg(feature = "postgres")]
            Self::Postgres(conn) => conn.transaction(|conn| statements!(conn)),
            #[cfg(feature = "mysql")]
            Self::Mysql(conn) => statements!(conn),
        };
        Ok(changed?)
    }
}

impl LeaseStore for DieselLeaseStore {
    type Error = DatabaseError;

    fn take(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        Ok(self.run(Statement::Take(request))? == 1)
    }

    fn renew(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        Ok(self.run(Statement::Renew(request))? == 1)
    }

    fn release(&mut self, request: &LeaseRequest<'_>) -> Result<(), Self::Error> {
        self.run(Statement::Release(request)).map(drop)
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

impl std::error::Error for DatabaseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Connection(error) => Some(error),
            Self::Query(error) => Some(error),
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

//! Scalability-id leases through sqlx: the core's protocol
//! ([`ulid_flake_core::lease`]) with a connection of its own and the core's SQL.

use std::io;
use std::time::Duration;

use sqlx::Connection;
#[cfg(feature = "mysql")]
use sqlx::mysql::{MySqlConnectOptions, MySqlConnection};
#[cfg(feature = "postgres")]
use sqlx::postgres::{PgConnectOptions, PgConnection};
use ulid_flake_core::lease::sql::LeaseSql;
use ulid_flake_core::lease::{
    LeaseError, LeaseOptions, LeaseRequest, LeaseStore, ScalabilityIdLease,
};

/// Leases a scalability id from PostgreSQL at `url`, directly or through any pooler
/// (PgBouncer's transaction mode included), as the core's
/// [`ScalabilityIdLease::acquire`] describes: creates the `ulid_flake_leases` table if
/// missing, takes a free id, and keeps it renewed on a thread of its own.
///
/// # Errors
///
/// [`LeaseError::Database`] for a bad URL or a database that failed for the whole
/// acquisition timeout; the other [`LeaseError`]s as [`ScalabilityIdLease::acquire`].
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
    let connect: PgConnectOptions = url.parse().map_err(database_error)?;
    acquire(SqlxLeaseStore::postgres(connect)?, options).await
}

/// Leases a scalability id from MySQL or MariaDB at `url`, as [`lease_postgres`] does.
///
/// # Errors
///
/// As [`lease_postgres`].
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
    let connect: MySqlConnectOptions = url.parse().map_err(database_error)?;
    acquire(SqlxLeaseStore::mysql(connect)?, options).await
}

/// The first acquisition blocks (it may wait out a failing database): off the async
/// runtime's threads.
async fn acquire(
    store: SqlxLeaseStore,
    options: LeaseOptions,
) -> Result<ScalabilityIdLease, LeaseError> {
    tokio::task::spawn_blocking(move || ScalabilityIdLease::acquire(store, options))
        .await
        .map_err(database_error)?
}

fn database_error(error: impl std::error::Error + Send + Sync + 'static) -> LeaseError {
    LeaseError::Database(Box::new(error))
}

/// The [`LeaseStore`] of sqlx: one connection of its own (never a pool's, which could hand
/// it to other tasks), opened when first needed and again after any error, and a
/// single-threaded tokio runtime on the lease's thread to drive it, so renewals do not
/// depend on the application's runtime being responsive. Each call is bounded by the
/// request's timeout.
///
/// [`lease_postgres`] and [`lease_mysql`] build one; build it yourself to pass it to
/// [`ScalabilityIdLease::acquire`] from synchronous code.
///
/// ```no_run
/// use ulid_flake_sqlx::SqlxLeaseStore;
/// use ulid_flake_sqlx::lease::{LeaseOptions, ScalabilityIdLease};
///
/// let store = SqlxLeaseStore::postgres("postgres://app@db/app".parse()?)?;
/// let lease = ScalabilityIdLease::acquire(store, LeaseOptions::new("billing"))?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SqlxLeaseStore {
    runtime: tokio::runtime::Runtime,
    target: Target,
    connection: Option<Session>,
}

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

/// A statement's parameter.
#[derive(Clone, Copy)]
enum Param<'a> {
    Int(i64),
    Small(i16),
    Text(&'a str),
}

impl SqlxLeaseStore {
    /// A store on PostgreSQL.
    ///
    /// # Errors
    ///
    /// [`LeaseError::Database`] when the runtime cannot be built.
    ///
    /// ```no_run
    /// let store = ulid_flake_sqlx::SqlxLeaseStore::postgres("postgres://app@db/app".parse()?)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "postgres")]
    pub fn postgres(options: PgConnectOptions) -> Result<Self, LeaseError> {
        Self::new(Target::Postgres(options))
    }

    /// A store on MySQL or MariaDB.
    ///
    /// # Errors
    ///
    /// [`LeaseError::Database`] when the runtime cannot be built.
    ///
    /// ```no_run
    /// let store = ulid_flake_sqlx::SqlxLeaseStore::mysql("mysql://app@db/app".parse()?)?;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "mysql")]
    pub fn mysql(options: MySqlConnectOptions) -> Result<Self, LeaseError> {
        Self::new(Target::MySql(options))
    }

    fn new(target: Target) -> Result<Self, LeaseError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(database_error)?;
        Ok(Self {
            runtime,
            target,
            connection: None,
        })
    }

    fn sql(&self) -> &'static LeaseSql {
        self.target.sql()
    }

    /// Runs `statements` (each with its parameters) in one transaction and returns the rows
    /// the last one changed; drops the connection on any error or timeout.
    fn run(
        &mut self,
        timeout: Duration,
        statements: &[(&'static str, &[Param<'_>])],
    ) -> Result<u64, sqlx::Error> {
        let Self {
            runtime,
            target,
            connection,
        } = self;
        let work = async {
            if connection.is_none() {
                *connection = Some(connect(target).await?);
            }
            let session = connection.as_mut().expect("connected above");
            session.execute(statements).await
        };
        let result = runtime
            .block_on(async { tokio::time::timeout(timeout, work).await })
            .unwrap_or_else(|_| {
                Err(sqlx::Error::Io(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("no answer from the database within {timeout:?}"),
                )))
            });
        if result.is_err() {
            // Broken, or mid-transaction after a timeout: start afresh next time.
            self.connection = None;
        }
        result
    }
}

/// Opens the lease's connection and creates the table if missing.
async fn connect(target: &Target) -> Result<Session, sqlx::Error> {
    let mut session = match target {
        #[cfg(feature = "postgres")]
        Target::Postgres(options) => Session::Postgres(PgConnection::connect_with(options).await?),
        #[cfg(feature = "mysql")]
        Target::MySql(options) => Session::MySql(MySqlConnection::connect_with(options).await?),
    };
    session.execute(&[(target.sql().create_table, &[])]).await?;
    Ok(session)
}

impl Target {
    /// The lease SQL of the target's dialect.
    fn sql(&self) -> &'static LeaseSql {
        match self {
            #[cfg(feature = "postgres")]
            Self::Postgres(_) => &ulid_flake_core::lease::sql::POSTGRES,
            #[cfg(feature = "mysql")]
            Self::MySql(_) => &ulid_flake_core::lease::sql::MYSQL,
        }
    }
}

impl Session {
    /// The statements, unnamed (no prepared statement outlives them, as a transaction-mode
    /// pooler needs); the rows the last one changed. On PostgreSQL they run in one
    /// transaction, which a pooler keeps on one server session. On MySQL/MariaDB each one
    /// stands alone, autocommitted: InnoDB keeps the locks of a statement until its
    /// transaction ends (even `INSERT IGNORE` meeting an existing row keeps a shared lock), so
    /// a transaction held open across round trips by a slow or paused contender would block
    /// the holder's renewal past its deadline. Each statement is safe alone: the row's insert
    /// is idempotent and every update is one conditional statement.
    async fn execute(
        &mut self,
        statements: &[(&'static str, &[Param<'_>])],
    ) -> Result<u64, sqlx::Error> {
        macro_rules! each_on {
            ($executor:expr) => {{
                let mut changed = 0;
                for (sql, params) in statements {
                    let mut query = sqlx::query(*sql).persistent(false);
                    for param in *params {
                        query = match *param {
                            Param::Int(value) => query.bind(value),
                            Param::Small(value) => query.bind(value),
                            Param::Text(value) => query.bind(value),
                        };
                    }
                    changed = query.execute(&mut *$executor).await?.rows_affected();
                }
                changed
            }};
        }
        match self {
            #[cfg(feature = "postgres")]
            Self::Postgres(conn) => {
                let mut transaction = conn.begin().await?;
                let changed = each_on!(transaction);
                transaction.commit().await?;
                Ok(changed)
            }
            #[cfg(feature = "mysql")]
            Self::MySql(conn) => Ok(each_on!(conn)),
        }
    }
}

impl LeaseStore for SqlxLeaseStore {
    type Error = sqlx::Error;

    fn take(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        let sql = self.sql();
        let (namespace, id) = (
            Param::Text(request.namespace),
            Param::Small(request.scalability_id.into()),
        );
        let changed = self.run(
            request.timeout,
            &[
                (sql.insert_row, &[namespace, id]),
                (
                    sql.take,
                    &[
                        Param::Int(request.holder),
                        Param::Int(request.validity_us()),
                        namespace,
                        id,
                    ],
                ),
            ],
        )?;
        Ok(changed == 1)
    }

    fn renew(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        let sql = self.sql();
        let changed = self.run(
            request.timeout,
            &[(
                sql.renew,
                &[
                    Param::Int(request.validity_us()),
                    Param::Text(request.namespace),
                    Param::Small(request.scalability_id.into()),
                    Param::Int(request.holder),
                ],
            )],
        )?;
        Ok(changed == 1)
    }

    fn release(&mut self, request: &LeaseRequest<'_>) -> Result<(), Self::Error> {
        let sql = self.sql();
        self.run(
            request.timeout,
            &[(
                sql.release,
                &[
                    Param::Int(request.validity_us()),
                    Param::Text(request.namespace),
                    Param::Small(request.scalability_id.into()),
                    Param::Int(request.holder),
                ],
            )],
        )?;
        Ok(())
    }
}

//! Leases on scalability ids, taken with database locks so that replicas never share one.

use core::fmt;

use diesel::connection::SimpleConnection;
use diesel::dsl::sql;
use diesel::prelude::*;
use diesel::sql_types::BigInt;
#[cfg(feature = "postgres")]
use diesel::sql_types::Bool;
#[cfg(feature = "mysql")]
use diesel::sql_types::{Nullable, Text};
use ulid_flake_core::generator::{
    Generator, GeneratorBuilder, Layout, install_leased_default, lease_candidates,
};

/// A scalability id held exclusively, through a database lock, for as long as the lease
/// lives: give each replica one and their scalable IDs never collide, however many start at
/// once (up to 32 per namespace).
///
/// A lease opens a connection of its own — never one from a pool, which would hand it to
/// other threads and could close it, and with it the lock, at any time — and, on it, tries
/// the 32 ids from a random offset until one is free:
///
/// - PostgreSQL: `pg_try_advisory_lock(key)` with the key of
///   [`lease_key`](crate::generator::lease_key). Advisory locks belong to one database:
///   replicas must connect to the same one.
/// - MySQL/MariaDB: `GET_LOCK(name, 0)` with the name of
///   [`lease_name`](crate::generator::lease_name). Lock names are server-wide.
///
/// The keys and names are those of `ulid-flake-sqlx`'s lease too, so the two exclude each
/// other. Both kinds of lock belong to the database session: they end with it, whether the
/// lease is [released](Self::release), dropped (closing the connection), or the process dies
/// (the server sees the connection close). Connect directly or through a session-mode pooler,
/// never a transaction-mode one (`PgBouncer`'s `pool_mode = transaction`), which moves the
/// session under the lock. The lease turns off the session's idle timeouts (PostgreSQL's
/// `idle_session_timeout`; MySQL's `wait_timeout`, 8 hours by default, raised to a year),
/// which would otherwise end a quiet lease.
///
/// Hold the lease for as long as its IDs are made — normally the life of the process; a lost
/// lease lets another replica take the id. [`install_default`](Self::install_default) does
/// that for the process-wide default generator.
///
/// ```no_run
/// use ulid_flake_diesel::{ScalabilityIdLease, UlidFlake, generator::DEFAULT_LEASE_NAMESPACE};
///
/// # fn example() -> Result<(), Box<dyn std::error::Error>> {
/// let lease = ScalabilityIdLease::acquire_postgres("postgres://app@db/app", DEFAULT_LEASE_NAMESPACE)?;
/// let scalability_id = lease.scalability_id();
/// lease.install_default()?; // held until the process exits
/// assert_eq!(UlidFlake::generate()?.scalability_id(), scalability_id);
/// # Ok(())
/// # }
/// ```
pub struct ScalabilityIdLease {
    scalability_id: u8,
    namespace: String,
    session: Session,
}

/// The lease's own connection, holding the lock.
enum Session {
    #[cfg(feature = "postgres")]
    Postgres(PgConnection),
    #[cfg(feature = "mysql")]
    Mysql(MysqlConnection),
}

impl Session {
    fn backend(&self) -> &'static str {
        match self {
            #[cfg(feature = "postgres")]
            Self::Postgres(_) => "PostgreSQL",
            #[cfg(feature = "mysql")]
            Self::Mysql(_) => "MySQL",
        }
    }
}

/// Turns off PostgreSQL's idle-session timeout for this session, on servers that have it
/// (14 and later; older ones know no such setting).
#[cfg(feature = "postgres")]
const POSTGRES_KEEP_SESSION: &str = "DO $$ BEGIN \
    PERFORM set_config('idle_session_timeout', '0', false); \
    EXCEPTION WHEN undefined_object THEN NULL; END $$";

/// Raises MySQL's idle timeout to its maximum on Linux, a year (servers cap larger values).
#[cfg(feature = "mysql")]
const MYSQL_KEEP_SESSION: &str = "SET SESSION wait_timeout = 31536000";

impl ScalabilityIdLease {
    /// Connects to PostgreSQL at `url` (anything libpq takes) and leases a free scalability
    /// id in `namespace` (usually
    /// [`DEFAULT_LEASE_NAMESPACE`](crate::generator::DEFAULT_LEASE_NAMESPACE); give each
    /// application sharing a database its own).
    ///
    /// # Errors
    ///
    /// [`LeaseError::AllTaken`] when other sessions hold all 32 ids of the namespace;
    /// [`LeaseError::InvalidNamespace`]; [`LeaseError::Database`] with
    /// [`DatabaseError::Connection`] when the connection fails, [`DatabaseError::Query`] when a
    /// query does.
    ///
    /// ```no_run
    /// let lease = ulid_flake_diesel::ScalabilityIdLease::acquire_postgres("postgres://app@db/app", "billing")?;
    /// println!("leased scalability id {}", lease.scalability_id());
    /// # Ok::<(), ulid_flake_diesel::LeaseError>(())
    /// ```
    #[cfg(feature = "postgres")]
    pub fn acquire_postgres(url: &str, namespace: &str) -> Result<Self, LeaseError> {
        LeaseError::check_namespace(namespace)?;
        let mut conn = PgConnection::establish(url).map_err(DatabaseError::from)?;
        conn.batch_execute(POSTGRES_KEEP_SESSION)
            .map_err(DatabaseError::from)?;
        for scalability_id in lease_candidates() {
            let locked: bool = diesel::select(
                sql::<Bool>("pg_try_advisory_lock(")
                    .bind::<BigInt, _>(key(namespace, scalability_id))
                    .sql(")"),
            )
            .get_result(&mut conn)
            .map_err(DatabaseError::from)?;
            if locked {
                return Ok(Self::new(
                    scalability_id,
                    namespace,
                    Session::Postgres(conn),
                ));
            }
        }
        // Dropping the connection, which holds nothing, closes it.
        Err(LeaseError::AllTaken {
            namespace: namespace.into(),
        })
    }

    /// Connects to MySQL or MariaDB at `url` and leases a free scalability id in `namespace`,
    /// as [`acquire_postgres`](Self::acquire_postgres) does. MySQL lock names are server-wide:
    /// applications sharing a server, even in different databases, need different namespaces.
    ///
    /// # Errors
    ///
    /// As [`acquire_postgres`](Self::acquire_postgres).
    ///
    /// ```no_run
    /// let lease = ulid_flake_diesel::ScalabilityIdLease::acquire_mysql("mysql://app@db/app", "billing")?;
    /// # Ok::<(), ulid_flake_diesel::LeaseError>(())
    /// ```
    #[cfg(feature = "mysql")]
    pub fn acquire_mysql(url: &str, namespace: &str) -> Result<Self, LeaseError> {
        LeaseError::check_namespace(namespace)?;
        let mut conn = MysqlConnection::establish(url).map_err(DatabaseError::from)?;
        conn.batch_execute(MYSQL_KEEP_SESSION)
            .map_err(DatabaseError::from)?;
        for scalability_id in lease_candidates() {
            // 1 when locked, 0 when another session holds it, NULL on an error.
            let locked: Option<i64> = diesel::select(
                sql::<Nullable<BigInt>>("CAST(GET_LOCK(")
                    .bind::<Text, _>(name(namespace, scalability_id))
                    .sql(", 0) AS SIGNED)"),
            )
            .get_result(&mut conn)
            .map_err(DatabaseError::from)?;
            if locked == Some(1) {
                return Ok(Self::new(scalability_id, namespace, Session::Mysql(conn)));
            }
        }
        // Dropping the connection, which holds nothing, closes it.
        Err(LeaseError::AllTaken {
            namespace: namespace.into(),
        })
    }

    fn new(scalability_id: u8, namespace: &str, session: Session) -> Self {
        Self {
            scalability_id,
            namespace: namespace.into(),
            session,
        }
    }

    /// The leased scalability id, `0..=31`.
    ///
    /// ```no_run
    /// # fn example(lease: ulid_flake_diesel::ScalabilityIdLease) {
    /// assert!(lease.scalability_id() <= 31);
    /// # }
    /// ```
    pub fn scalability_id(&self) -> u8 {
        self.scalability_id
    }

    /// The namespace the id is leased in.
    ///
    /// ```no_run
    /// let lease = ulid_flake_diesel::ScalabilityIdLease::acquire_postgres("postgres://db/app", "billing")?;
    /// assert_eq!(lease.namespace(), "billing");
    /// # Ok::<(), ulid_flake_diesel::LeaseError>(())
    /// ```
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// A generator builder set to the scalable layout with the leased id; set anything else
    /// (epoch, entropy size) before building. Keep the lease for as long as the generator is
    /// used.
    ///
    /// ```no_run
    /// # fn example(lease: ulid_flake_diesel::ScalabilityIdLease) -> Result<(), ulid_flake_diesel::Error> {
    /// let generator = lease.generator_builder().entropy_bytes(2).build()?;
    /// assert_eq!(generator.generate_blocking()?.scalability_id(), lease.scalability_id());
    /// # Ok(())
    /// # }
    /// ```
    pub fn generator_builder(&self) -> GeneratorBuilder {
        Generator::builder().layout(Layout::Scalable {
            scalability_id: self.scalability_id,
        })
    }

    /// Installs a generator with the leased id (and the other defaults) as the process-wide
    /// default generator, and keeps the lease, with its connection, until the process exits:
    /// the default generator can never outlive its lease.
    ///
    /// # Errors
    ///
    /// [`LeaseError::DefaultGeneratorAlreadySet`] when the process has a default generator
    /// already (installed, or built by a first use); the lease is then released (dropped).
    ///
    /// ```no_run
    /// use ulid_flake_diesel::{Id, ScalabilityIdLease, generator::DEFAULT_LEASE_NAMESPACE};
    ///
    /// # fn example() -> Result<(), Box<dyn std::error::Error>> {
    /// ScalabilityIdLease::acquire_mysql("mysql://app@db/app", DEFAULT_LEASE_NAMESPACE)?.install_default()?;
    /// struct User;
    /// let id: Id<User> = Id::generate()?; // scalable, with the leased id
    /// # Ok(())
    /// # }
    /// ```
    pub fn install_default(self) -> Result<(), LeaseError> {
        install_leased_default(self.scalability_id, self)
            .map_err(|_| LeaseError::DefaultGeneratorAlreadySet)
    }

    /// Whether the lease still holds its lock: asks the server whether this lease's session
    /// holds it.
    ///
    /// # Errors
    ///
    /// [`LeaseError::Database`] when the server does not answer; the connection is probably
    /// gone, and with it the lock.
    ///
    /// ```no_run
    /// # fn example(mut lease: ulid_flake_diesel::ScalabilityIdLease) -> Result<(), ulid_flake_diesel::LeaseError> {
    /// assert!(lease.is_held()?);
    /// # Ok(())
    /// # }
    /// ```
    pub fn is_held(&mut self) -> Result<bool, LeaseError> {
        let (namespace, scalability_id) = (self.namespace.as_str(), self.scalability_id);
        let held = match &mut self.session {
            // A bigint key is held as (classid, objid) = (high, low 32 bits), objsubid 1.
            #[cfg(feature = "postgres")]
            Session::Postgres(conn) => {
                let key = key(namespace, scalability_id);
                diesel::select(
                    sql::<Bool>(
                        "EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' \
                         AND pid = pg_backend_pid() AND granted AND objsubid = 1 \
                         AND database = (SELECT oid FROM pg_database \
                                         WHERE datname = current_database()) \
                         AND classid = ((",
                    )
                    .bind::<BigInt, _>(key)
                    .sql(" >> 32) & 4294967295)::oid AND objid = (")
                    .bind::<BigInt, _>(key)
                    .sql(" & 4294967295)::oid)"),
                )
                .get_result(conn)
                .map_err(DatabaseError::from)?
            }
            #[cfg(feature = "mysql")]
            Session::Mysql(conn) => {
                let holder: Option<i64> = diesel::select(
                    sql::<Nullable<BigInt>>("CAST(IS_USED_LOCK(")
                        .bind::<Text, _>(name(namespace, scalability_id))
                        .sql(") = CONNECTION_ID() AS SIGNED)"),
                )
                .get_result(conn)
                .map_err(DatabaseError::from)?;
                holder == Some(1)
            }
        };
        Ok(held)
    }

    /// Gives the id up: unlocks it, so that it is free when this returns, and closes the
    /// connection. Dropping the lease frees the id too, once the server sees the connection
    /// close.
    ///
    /// # Errors
    ///
    /// [`LeaseError::Database`] when the unlock fails; the connection is closed regardless,
    /// and the server frees the lock when it sees it close.
    ///
    /// ```no_run
    /// let lease = ulid_flake_diesel::ScalabilityIdLease::acquire_postgres("postgres://db/app", "jobs")?;
    /// // ... a batch job's IDs ...
    /// lease.release()?;
    /// # Ok::<(), ulid_flake_diesel::LeaseError>(())
    /// ```
    pub fn release(self) -> Result<(), LeaseError> {
        let Self {
            scalability_id,
            namespace,
            session,
        } = self;
        // Each connection closes when it goes out of scope, at the end of its arm.
        match session {
            #[cfg(feature = "postgres")]
            Session::Postgres(mut conn) => {
                diesel::select(
                    sql::<Bool>("pg_advisory_unlock(")
                        .bind::<BigInt, _>(key(&namespace, scalability_id))
                        .sql(")"),
                )
                .execute(&mut conn)
                .map_err(DatabaseError::from)?;
            }
            #[cfg(feature = "mysql")]
            Session::Mysql(mut conn) => {
                diesel::select(
                    sql::<Nullable<BigInt>>("CAST(RELEASE_LOCK(")
                        .bind::<Text, _>(name(&namespace, scalability_id))
                        .sql(") AS SIGNED)"),
                )
                .execute(&mut conn)
                .map_err(DatabaseError::from)?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for ScalabilityIdLease {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScalabilityIdLease")
            .field("scalability_id", &self.scalability_id)
            .field("namespace", &self.namespace)
            .field("backend", &self.session.backend())
            .finish()
    }
}

#[cfg(feature = "postgres")]
fn key(namespace: &str, scalability_id: u8) -> i64 {
    ulid_flake_core::generator::lease_key(namespace, scalability_id)
        .expect("lease_candidates yields ids in 0..=31")
}

#[cfg(feature = "mysql")]
fn name(namespace: &str, scalability_id: u8) -> String {
    ulid_flake_core::generator::lease_name(namespace, scalability_id)
        .expect("lease_candidates yields ids in 0..=31")
}

/// Why a [`ScalabilityIdLease`] could not be taken or installed: the shared
/// [`LeaseError`](ulid_flake_core::generator::LeaseError), with Diesel's errors.
///
/// ```
/// let error = ulid_flake_diesel::LeaseError::AllTaken { namespace: "billing".into() };
/// assert!(error.to_string().starts_with("all 32 scalability ids of lease namespace \"billing\""));
/// ```
pub type LeaseError = ulid_flake_core::generator::LeaseError<DatabaseError>;

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

//! Leases on scalability ids, taken with database locks so that replicas never share one.

use core::fmt;

use sqlx::Connection;
#[cfg(feature = "mysql")]
use sqlx::mysql::{MySqlConnectOptions, MySqlConnection};
#[cfg(feature = "postgres")]
use sqlx::postgres::{PgConnectOptions, PgConnection};
use ulid_flake_core::generator::{
    Generator, GeneratorBuilder, Layout, install_leased_default, lease_candidates,
};

/// A scalability id held exclusively, through a database lock, for as long as the lease
/// lives: give each replica one and their scalable IDs never collide, however many start at
/// once (up to 32 per namespace).
///
/// A lease opens a connection of its own — never one from a pool, which would hand it to
/// other tasks and could close it, and with it the lock, at any time — and, on it, tries the
/// 32 ids from a random offset until one is free:
///
/// - PostgreSQL: `pg_try_advisory_lock(key)` with the key of
///   [`lease_key`](crate::generator::lease_key). Advisory locks belong to one database:
///   replicas must connect to the same one.
/// - MySQL/MariaDB: `GET_LOCK(name, 0)` with the name of
///   [`lease_name`](crate::generator::lease_name). Lock names are server-wide.
///
/// The keys and names are those of `ulid-flake-diesel`'s lease too, so the two exclude each
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
/// use ulid_flake_sqlx::{ScalabilityIdLease, UlidFlake, generator::DEFAULT_LEASE_NAMESPACE};
///
/// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
/// let lease =
///     ScalabilityIdLease::acquire_postgres("postgres://app@db/app", DEFAULT_LEASE_NAMESPACE)
///         .await?;
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
    MySql(MySqlConnection),
}

impl Session {
    fn backend(&self) -> &'static str {
        match self {
            #[cfg(feature = "postgres")]
            Self::Postgres(_) => "PostgreSQL",
            #[cfg(feature = "mysql")]
            Self::MySql(_) => "MySQL",
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
    /// Connects to PostgreSQL at `url` and leases a free scalability id in `namespace`
    /// (usually [`DEFAULT_LEASE_NAMESPACE`](crate::generator::DEFAULT_LEASE_NAMESPACE); give
    /// each application sharing a database its own).
    ///
    /// # Errors
    ///
    /// [`LeaseError::AllTaken`] when other sessions hold all 32 ids of the namespace;
    /// [`LeaseError::InvalidNamespace`]; [`LeaseError::Database`] for a bad URL or a failed
    /// connection or query.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), ulid_flake_sqlx::LeaseError> {
    /// let lease = ulid_flake_sqlx::ScalabilityIdLease::acquire_postgres(
    ///     "postgres://app@db/app",
    ///     "billing",
    /// )
    /// .await?;
    /// println!("leased scalability id {}", lease.scalability_id());
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "postgres")]
    pub async fn acquire_postgres(url: &str, namespace: &str) -> Result<Self, LeaseError> {
        let options: PgConnectOptions = url.parse()?;
        Self::acquire_postgres_with(&options, namespace).await
    }

    /// Connects to PostgreSQL with `options` and leases a free scalability id in `namespace`,
    /// as [`acquire_postgres`](Self::acquire_postgres) does.
    ///
    /// # Errors
    ///
    /// As [`acquire_postgres`](Self::acquire_postgres).
    ///
    /// ```no_run
    /// use sqlx::postgres::PgConnectOptions;
    /// use ulid_flake_sqlx::{ScalabilityIdLease, generator::DEFAULT_LEASE_NAMESPACE};
    ///
    /// # async fn example() -> Result<(), ulid_flake_sqlx::LeaseError> {
    /// let options = PgConnectOptions::new().host("db").username("app").database("app");
    /// let lease = ScalabilityIdLease::acquire_postgres_with(&options, DEFAULT_LEASE_NAMESPACE).await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "postgres")]
    pub async fn acquire_postgres_with(
        options: &PgConnectOptions,
        namespace: &str,
    ) -> Result<Self, LeaseError> {
        LeaseError::check_namespace(namespace)?;
        let mut conn = PgConnection::connect_with(options).await?;
        sqlx::raw_sql(POSTGRES_KEEP_SESSION)
            .execute(&mut conn)
            .await?;
        for scalability_id in lease_candidates() {
            let locked: bool = sqlx::query_scalar("SELECT pg_try_advisory_lock($1)")
                .bind(key(namespace, scalability_id))
                .fetch_one(&mut conn)
                .await?;
            if locked {
                return Ok(Self::new(
                    scalability_id,
                    namespace,
                    Session::Postgres(conn),
                ));
            }
        }
        // It holds nothing; a failure to say goodbye changes nothing.
        let _ = conn.close().await;
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
    /// # async fn example() -> Result<(), ulid_flake_sqlx::LeaseError> {
    /// let lease = ulid_flake_sqlx::ScalabilityIdLease::acquire_mysql(
    ///     "mysql://app@db/app",
    ///     "billing",
    /// )
    /// .await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "mysql")]
    pub async fn acquire_mysql(url: &str, namespace: &str) -> Result<Self, LeaseError> {
        let options: MySqlConnectOptions = url.parse()?;
        Self::acquire_mysql_with(&options, namespace).await
    }

    /// Connects to MySQL or MariaDB with `options` and leases a free scalability id in
    /// `namespace`, as [`acquire_mysql`](Self::acquire_mysql) does.
    ///
    /// # Errors
    ///
    /// As [`acquire_postgres`](Self::acquire_postgres).
    ///
    /// ```no_run
    /// use sqlx::mysql::MySqlConnectOptions;
    /// use ulid_flake_sqlx::{ScalabilityIdLease, generator::DEFAULT_LEASE_NAMESPACE};
    ///
    /// # async fn example() -> Result<(), ulid_flake_sqlx::LeaseError> {
    /// let options = MySqlConnectOptions::new().host("db").username("app").database("app");
    /// let lease = ScalabilityIdLease::acquire_mysql_with(&options, DEFAULT_LEASE_NAMESPACE).await?;
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "mysql")]
    pub async fn acquire_mysql_with(
        options: &MySqlConnectOptions,
        namespace: &str,
    ) -> Result<Self, LeaseError> {
        LeaseError::check_namespace(namespace)?;
        let mut conn = MySqlConnection::connect_with(options).await?;
        sqlx::raw_sql(MYSQL_KEEP_SESSION).execute(&mut conn).await?;
        for scalability_id in lease_candidates() {
            // 1 when locked, 0 when another session holds it, NULL on an error.
            let locked: Option<i64> = sqlx::query_scalar("SELECT CAST(GET_LOCK(?, 0) AS SIGNED)")
                .bind(name(namespace, scalability_id))
                .fetch_one(&mut conn)
                .await?;
            if locked == Some(1) {
                return Ok(Self::new(scalability_id, namespace, Session::MySql(conn)));
            }
        }
        // It holds nothing; a failure to say goodbye changes nothing.
        let _ = conn.close().await;
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
    /// # async fn example(lease: ulid_flake_sqlx::ScalabilityIdLease) {
    /// assert!(lease.scalability_id() <= 31);
    /// # }
    /// ```
    pub fn scalability_id(&self) -> u8 {
        self.scalability_id
    }

    /// The namespace the id is leased in.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), ulid_flake_sqlx::LeaseError> {
    /// let lease = ulid_flake_sqlx::ScalabilityIdLease::acquire_postgres("postgres://db/app", "billing").await?;
    /// assert_eq!(lease.namespace(), "billing");
    /// # Ok(())
    /// # }
    /// ```
    pub fn namespace(&self) -> &str {
        &self.namespace
    }

    /// A generator builder set to the scalable layout with the leased id; set anything else
    /// (epoch, entropy size) before building. Keep the lease for as long as the generator is
    /// used.
    ///
    /// ```no_run
    /// # async fn example(lease: ulid_flake_sqlx::ScalabilityIdLease) -> Result<(), ulid_flake_sqlx::Error> {
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
    /// use ulid_flake_sqlx::{Id, ScalabilityIdLease, generator::DEFAULT_LEASE_NAMESPACE};
    ///
    /// # async fn example() -> Result<(), Box<dyn std::error::Error>> {
    /// ScalabilityIdLease::acquire_mysql("mysql://app@db/app", DEFAULT_LEASE_NAMESPACE)
    ///     .await?
    ///     .install_default()?;
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
    /// # async fn example(mut lease: ulid_flake_sqlx::ScalabilityIdLease) -> Result<(), ulid_flake_sqlx::LeaseError> {
    /// assert!(lease.is_held().await?);
    /// # Ok(())
    /// # }
    /// ```
    pub async fn is_held(&mut self) -> Result<bool, LeaseError> {
        let (namespace, scalability_id) = (self.namespace.as_str(), self.scalability_id);
        let held = match &mut self.session {
            // A bigint key is held as (classid, objid) = (high, low 32 bits), objsubid 1.
            #[cfg(feature = "postgres")]
            Session::Postgres(conn) => {
                sqlx::query_scalar(
                    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' \
                     AND pid = pg_backend_pid() AND granted AND objsubid = 1 \
                     AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) \
                     AND classid = (($1 >> 32) & 4294967295)::oid \
                     AND objid = ($1 & 4294967295)::oid)",
                )
                .bind(key(namespace, scalability_id))
                .fetch_one(conn)
                .await?
            }
            #[cfg(feature = "mysql")]
            Session::MySql(conn) => {
                let holder: Option<i64> = sqlx::query_scalar(
                    "SELECT CAST(IS_USED_LOCK(?) = CONNECTION_ID() AS SIGNED)",
                )
                .bind(name(namespace, scalability_id))
                .fetch_one(conn)
                .await?;
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
    /// [`LeaseError::Database`] when the unlock or the goodbye fails; the connection is closed
    /// regardless, and the server frees the lock when it sees it close.
    ///
    /// ```no_run
    /// # async fn example() -> Result<(), ulid_flake_sqlx::LeaseError> {
    /// let lease = ulid_flake_sqlx::ScalabilityIdLease::acquire_postgres("postgres://db/app", "jobs").await?;
    /// // ... a batch job's IDs ...
    /// lease.release().await?;
    /// # Ok(())
    /// # }
    /// ```
    pub async fn release(self) -> Result<(), LeaseError> {
        let Self {
            scalability_id,
            namespace,
            session,
        } = self;
        match session {
            #[cfg(feature = "postgres")]
            Session::Postgres(mut conn) => {
                let unlocked = sqlx::query("SELECT pg_advisory_unlock($1)")
                    .bind(key(&namespace, scalability_id))
                    .execute(&mut conn)
                    .await;
                let closed = conn.close().await;
                unlocked?;
                closed?;
            }
            #[cfg(feature = "mysql")]
            Session::MySql(mut conn) => {
                let unlocked = sqlx::query("SELECT RELEASE_LOCK(?)")
                    .bind(name(&namespace, scalability_id))
                    .execute(&mut conn)
                    .await;
                let closed = conn.close().await;
                unlocked?;
                closed?;
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
/// [`LeaseError`](ulid_flake_core::generator::LeaseError), with sqlx's errors.
///
/// ```
/// let error = ulid_flake_sqlx::LeaseError::AllTaken { namespace: "billing".into() };
/// assert!(error.to_string().starts_with("all 32 scalability ids of lease namespace \"billing\""));
/// ```
pub type LeaseError = ulid_flake_core::generator::LeaseError<sqlx::Error>;

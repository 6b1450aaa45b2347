//! The lease table's statements, once for every adapter: each operation of the protocol as
//! statements with typed parameters, in the order of their placeholders, and
//! [`SqlLeaseStore`], which runs them through an adapter's [`LeaseDatabase`] — a connection
//! that executes what it is handed and nothing more. `ulid-flake-sqlx` and
//! `ulid-flake-diesel` supply one each, so their leases share one table and exclude each
//! other.
//!
//! **No transaction outlives a statement.** Every statement is a single row operation, safe
//! on its own: a take first inserts the row already taken (nothing happens when it exists),
//! then takes it if it has expired; a renewal and a release are one conditional update each.
//! A transaction held open across round trips by a slow or paused caller would keep its locks
//! (InnoDB keeps even the shared lock of an `INSERT IGNORE` that met an existing row until the
//! transaction ends) and could hold the holder's renewal past its deadline; here a statement's
//! locks end with it. On PostgreSQL an adapter may wrap a statement in a transaction of its
//! own (a transaction-mode pooler keeps a transaction on one server session, as a statement
//! prepared in one round trip and executed in the next needs): none of these statements locks
//! a row another holder still holds — the insert meets an existing row without locking it, and
//! an update whose condition is false on the row it reads takes no lock. One that meets a row
//! another take is changing at that moment waits for it, then locks the new row to re-read
//! it. To bound how long a process paused before its commit can keep that lock on the
//! winner's row, the transaction starts with [`Dialect::transaction_guard`] (PostgreSQL's own
//! idle-in-transaction timeout; no test here provokes that race).
//!
//! So the session's isolation level does not matter (InnoDB's default REPEATABLE READ or READ
//! COMMITTED alike). A deadlock or lock-wait error (MySQL's 1213, 1205) fails the one
//! statement; the lease treats it like any failed call: a renewal is retried after the
//! backoff while the deadline stands. MySQL 8 speaks the same statements; the tests run on
//! MariaDB and PostgreSQL (no MySQL server among this machine's packages).
//!
//! Times are the database's, in microseconds since the Unix epoch, read when the statement
//! runs (PostgreSQL's `clock_timestamp()`, not the transaction's `now()`; MySQL's
//! `UTC_TIMESTAMP(6)`, the statement's start, whatever the session's time zone, so that a
//! daylight-saving hour that reads twice does not step the lease clock).
//!
//! A row whose holder is [`DATABASE_GENERATOR_HOLDER`](crate::sql::DATABASE_GENERATOR_HOLDER)
//! never expires: it reserves the id of the database's own generator
//! ([`sql`](crate::sql#keys-made-by-the-database)), which no lease takes.
//!
//! # What a lease needs from the database
//!
//! The table, [`Dialect::create_table`], which the store creates when a new connection finds
//! it missing. To run the application without the right to create tables, create it once —
//! by hand or in a migration, with that statement — and grant the application's role
//! `SELECT`, `INSERT` and `UPDATE` on `ulid_flake_leases`; nothing else (no `DELETE`, no
//! locks, no functions). The fault suite leases through such a role on each server
//! (`*_leases_with_only_select_insert_update`).

use core::fmt;
use core::time::Duration;

use super::{LeaseError, LeaseRequest, LeaseStore};

/// The SQL dialects of the lease table.
///
/// ```
/// use ulid_flake_core::lease::sql::Dialect;
///
/// assert!(Dialect::Postgres.create_table().sql().starts_with("CREATE TABLE IF NOT EXISTS ulid_flake_leases"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Dialect {
    /// PostgreSQL, directly or through a pooler in any mode.
    Postgres,
    /// MySQL and MariaDB (InnoDB).
    MySql,
}

impl Dialect {
    /// The URL schemes of the dialect's servers.
    fn schemes(self) -> [&'static str; 2] {
        match self {
            Self::Postgres => ["postgres", "postgresql"],
            Self::MySql => ["mysql", "mariadb"],
        }
    }

    /// Refuses a URL of another scheme, or of none, naming the scheme alone (a URL may carry
    /// a password).
    fn check_scheme(self, url: &str) -> Result<(), LeaseError> {
        let scheme = url.split_once("://").map(|(scheme, _)| scheme);
        if scheme.is_some_and(|scheme| self.schemes().contains(&scheme)) {
            return Ok(());
        }
        let [first, second] = self.schemes();
        let found = match scheme {
            Some(scheme) => std::format!("{scheme}://"),
            None => "no scheme (no `://`)".into(),
        };
        Err(LeaseError::Database(
            std::format!("bad {self} URL: expected {first}:// or {second}://, found {found}")
                .into(),
        ))
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Postgres => "PostgreSQL",
            Self::MySql => "MySQL/MariaDB",
        })
    }
}

/// A statement's parameter, typed as the column it meets.
///
/// ```
/// use ulid_flake_core::lease::sql::Param;
///
/// assert_eq!(Param::SmallInt(5), Param::SmallInt(5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param<'a> {
    /// A `BIGINT`.
    BigInt(i64),
    /// A `SMALLINT`.
    SmallInt(i16),
    /// A `VARCHAR` (or `TEXT`).
    Text(&'a str),
}

/// The most parameters a statement has.
const MAX_PARAMS: usize = 8;

/// One statement: its SQL and its parameters, in the order of its placeholders (`$1`, `$2`…
/// on PostgreSQL, `?` on MySQL).
///
/// ```
/// use std::time::Duration;
/// use ulid_flake_core::lease::LeaseRequest;
/// use ulid_flake_core::lease::sql::{Dialect, Param};
///
/// let request = LeaseRequest { namespace: "billing", scalability_id: 5, holder: 42, epoch: ulid_flake_core::Epoch::DEFAULT, margin: Duration::from_secs(1), validity: Duration::from_secs(2), timeout: Duration::from_secs(1) };
/// let renew = Dialect::MySql.renew(&request);
/// assert!(renew.sql().starts_with("UPDATE ulid_flake_leases"));
/// assert_eq!(renew.params(), [Param::BigInt(2_000_000), Param::Text("billing"), Param::SmallInt(5), Param::BigInt(42)]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statement<'a> {
    sql: &'static str,
    params: [Param<'a>; MAX_PARAMS],
    len: usize,
}

impl<'a> Statement<'a> {
    fn new<const N: usize>(sql: &'static str, given: [Param<'a>; N]) -> Self {
        const { assert!(N <= MAX_PARAMS) };
        let mut params = [Param::BigInt(0); MAX_PARAMS];
        params[..N].copy_from_slice(&given);
        Self {
            sql,
            params,
            len: N,
        }
    }

    /// The SQL text.
    ///
    /// ```
    /// use ulid_flake_core::lease::sql::Dialect;
    /// assert!(Dialect::Postgres.database_time().sql().contains("clock_timestamp()"));
    /// ```
    pub fn sql(&self) -> &'static str {
        self.sql
    }

    /// The parameters, in the order of the placeholders.
    ///
    /// ```
    /// use ulid_flake_core::lease::sql::Dialect;
    /// assert!(Dialect::Postgres.database_time().params().is_empty());
    /// ```
    pub fn params(&self) -> &[Param<'a>] {
        &self.params[..self.len]
    }
}

/// The database's clock in µs since the Unix epoch, as an SQL expression of each dialect.
macro_rules! now_us {
    (postgres) => {
        "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::BIGINT"
    };
    (mysql) => {
        "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))"
    };
}

/// The statements of one dialect.
struct Sql {
    create_table: &'static str,
    insert_taken: &'static str,
    take_expired: &'static str,
    renew: &'static str,
    release: &'static str,
    database_time: &'static str,
    table_probe: &'static str,
}

const POSTGRES: Sql = Sql {
    create_table: "CREATE TABLE IF NOT EXISTS ulid_flake_leases (\
        namespace VARCHAR(64) NOT NULL, \
        scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31), \
        holder BIGINT NOT NULL, \
        holder_epoch_ms BIGINT NOT NULL, \
        holder_margin_us BIGINT NOT NULL, \
        expires_at_us BIGINT NOT NULL, \
        PRIMARY KEY (namespace, scalability_id))",
    insert_taken: concat!(
        "INSERT INTO ulid_flake_leases \
         (namespace, scalability_id, holder, holder_epoch_ms, holder_margin_us, expires_at_us) \
         VALUES ($1, $2, $3, $4, $5, ",
        now_us!(postgres),
        " + $6) ON CONFLICT DO NOTHING"
    ),
    take_expired: concat!(
        "UPDATE ulid_flake_leases SET holder = $1, holder_epoch_ms = $2, holder_margin_us = $3, \
         expires_at_us = ",
        now_us!(postgres),
        " + $4 WHERE namespace = $5 AND scalability_id = $6 AND expires_at_us < ",
        now_us!(postgres),
        " - GREATEST(0, ($7 - holder_epoch_ms) * 1000 + ($8 - holder_margin_us) / 2)"
    ),
    // Never lower: a renewal the client gave up on may still run later on the server, and
    // must not shorten the expiry a newer renewal set.
    renew: concat!(
        "UPDATE ulid_flake_leases SET expires_at_us = GREATEST(expires_at_us, ",
        now_us!(postgres),
        " + $1) WHERE namespace = $2 AND scalability_id = $3 AND holder = $4 \
         AND expires_at_us >= ",
        now_us!(postgres)
    ),
    release: concat!(
        "UPDATE ulid_flake_leases SET expires_at_us = LEAST(expires_at_us, ",
        now_us!(postgres),
        " + $1) WHERE namespace = $2 AND scalability_id = $3 AND holder = $4"
    ),
    database_time: concat!("SELECT ", now_us!(postgres), " AS value"),
    table_probe: "SELECT COUNT(*) AS value FROM ulid_flake_leases WHERE 1 = 0",
};

/// [`Dialect::single_table_check`]'s statement.
const POSTGRES_SINGLE_TABLE_CHECK: &str = "DO $$ \
    DECLARE schemas TEXT; \
    BEGIN \
        SELECT string_agg(quote_ident(n.nspname), ', ' ORDER BY n.nspname) INTO schemas \
        FROM pg_catalog.pg_class AS c \
        JOIN pg_catalog.pg_namespace AS n ON n.oid = c.relnamespace \
        WHERE c.relname = 'ulid_flake_leases' AND c.relkind IN ('r', 'p') \
            AND n.nspname = ANY (current_schemas(false)); \
        IF schemas LIKE '%,%' THEN \
            RAISE EXCEPTION 'two lease tables: expected one ulid_flake_leases table in the \
                schemas of the search_path, found one in each of %', schemas \
                USING ERRCODE = '42710', \
                HINT = 'replicas leasing from different tables can issue the same IDs: drop \
                    all but one, and let every role find that one first on its search_path'; \
        END IF; \
    END $$";

const MYSQL: Sql = Sql {
    create_table: "CREATE TABLE IF NOT EXISTS ulid_flake_leases (\
        namespace VARCHAR(64) NOT NULL, \
        scalability_id SMALLINT NOT NULL CHECK (scalability_id BETWEEN 0 AND 31), \
        holder BIGINT NOT NULL, \
        holder_epoch_ms BIGINT NOT NULL, \
        holder_margin_us BIGINT NOT NULL, \
        expires_at_us BIGINT NOT NULL, \
        PRIMARY KEY (namespace, scalability_id)) ENGINE = InnoDB",
    insert_taken: concat!(
        "INSERT IGNORE INTO ulid_flake_leases \
         (namespace, scalability_id, holder, holder_epoch_ms, holder_margin_us, expires_at_us) \
         VALUES (?, ?, ?, ?, ?, ",
        now_us!(mysql),
        " + ?)"
    ),
    // The condition reads the row as it was: MySQL applies the assignments to the rows it
    // matched.
    take_expired: concat!(
        "UPDATE ulid_flake_leases SET holder = ?, holder_epoch_ms = ?, holder_margin_us = ?, \
         expires_at_us = ",
        now_us!(mysql),
        " + ? WHERE namespace = ? AND scalability_id = ? AND expires_at_us < ",
        now_us!(mysql),
        " - GREATEST(0, (? - holder_epoch_ms) * 1000 + (? - holder_margin_us) DIV 2)"
    ),
    // Never lower, as on PostgreSQL: MySQL's `UTC_TIMESTAMP(6)` is the statement's start, so
    // a renewal stalled on the server after its client gave up would set an expiry from then.
    renew: concat!(
        "UPDATE ulid_flake_leases SET expires_at_us = GREATEST(expires_at_us, ",
        now_us!(mysql),
        " + ?) WHERE namespace = ? AND scalability_id = ? AND holder = ? AND expires_at_us >= ",
        now_us!(mysql)
    ),
    release: concat!(
        "UPDATE ulid_flake_leases SET expires_at_us = LEAST(expires_at_us, ",
        now_us!(mysql),
        " + ?) WHERE namespace = ? AND scalability_id = ? AND holder = ?"
    ),
    database_time: concat!("SELECT ", now_us!(mysql), " AS value"),
    table_probe: "SELECT COUNT(*) AS value FROM ulid_flake_leases WHERE 1 = 0",
};

impl Dialect {
    fn sql(self) -> &'static Sql {
        match self {
            Self::Postgres => &POSTGRES,
            Self::MySql => &MYSQL,
        }
    }

    /// Creates the lease table when missing (for a migration, too). No parameters.
    ///
    /// ```
    /// use ulid_flake_core::lease::sql::Dialect;
    /// assert!(Dialect::MySql.create_table().sql().ends_with("ENGINE = InnoDB"));
    /// ```
    pub fn create_table(self) -> Statement<'static> {
        Statement::new(self.sql().create_table, [])
    }

    /// Inserts the row of the request's id already taken by its holder, with the holder's
    /// epoch and margin, when the row is missing: one row changed means taken.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use ulid_flake_core::Epoch;
    /// # use ulid_flake_core::lease::{LeaseRequest, sql::{Dialect, Param}};
    /// # let request = LeaseRequest { namespace: "n", scalability_id: 1, holder: 9, epoch: Epoch::from_unix_ms(3).unwrap(), margin: Duration::from_micros(4), validity: Duration::from_micros(7), timeout: Duration::ZERO };
    /// assert_eq!(
    ///     Dialect::Postgres.insert_taken(&request).params(),
    ///     [Param::Text("n"), Param::SmallInt(1), Param::BigInt(9), Param::BigInt(3), Param::BigInt(4), Param::BigInt(7)],
    /// );
    /// ```
    pub fn insert_taken<'a>(self, request: &LeaseRequest<'a>) -> Statement<'a> {
        Statement::new(
            self.sql().insert_taken,
            [
                Param::Text(request.namespace),
                Param::SmallInt(request.scalability_id.into()),
                Param::BigInt(request.holder),
                Param::BigInt(request.epoch_ms()),
                Param::BigInt(request.margin_us()),
                Param::BigInt(request.validity_us()),
            ],
        )
    }

    /// Takes the request's id, recording the holder's epoch and margin, when its lease
    /// expired by the database's clock long enough ago that the taker's IDs follow the last
    /// holder's: one row changed means taken. Long enough is at once for the holders of
    /// one epoch and margin; a taker whose epoch is later by *Δe*, or whose margin is larger
    /// by *Δm*, waits *Δe* + *Δm*/2 more (see the [module docs](super)).
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use ulid_flake_core::Epoch;
    /// # use ulid_flake_core::lease::{LeaseRequest, sql::{Dialect, Param}};
    /// # let request = LeaseRequest { namespace: "n", scalability_id: 1, holder: 9, epoch: Epoch::from_unix_ms(3).unwrap(), margin: Duration::from_micros(4), validity: Duration::from_micros(7), timeout: Duration::ZERO };
    /// assert_eq!(
    ///     Dialect::MySql.take_expired(&request).params(),
    ///     [Param::BigInt(9), Param::BigInt(3), Param::BigInt(4), Param::BigInt(7), Param::Text("n"), Param::SmallInt(1), Param::BigInt(3), Param::BigInt(4)],
    /// );
    /// assert!(Dialect::Postgres.take_expired(&request).sql().ends_with("($8 - holder_margin_us) / 2)"));
    /// ```
    pub fn take_expired<'a>(self, request: &LeaseRequest<'a>) -> Statement<'a> {
        let (epoch_ms, margin_us) = (request.epoch_ms(), request.margin_us());
        Statement::new(
            self.sql().take_expired,
            [
                Param::BigInt(request.holder),
                Param::BigInt(epoch_ms),
                Param::BigInt(margin_us),
                Param::BigInt(request.validity_us()),
                Param::Text(request.namespace),
                Param::SmallInt(request.scalability_id.into()),
                Param::BigInt(epoch_ms),
                Param::BigInt(margin_us),
            ],
        )
    }

    /// Renews the holder's lease while the database still counts it valid: one row matched
    /// means renewed. The expiry is never lowered, so a renewal that runs late on the server
    /// (its client gave up) cannot shorten a newer one's.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use ulid_flake_core::lease::{LeaseRequest, sql::{Dialect, Param}};
    /// # let request = LeaseRequest { namespace: "n", scalability_id: 1, holder: 9, epoch: ulid_flake_core::Epoch::DEFAULT, margin: Duration::ZERO, validity: Duration::from_micros(7), timeout: Duration::ZERO };
    /// assert_eq!(Dialect::Postgres.renew(&request).params(), [Param::BigInt(7), Param::Text("n"), Param::SmallInt(1), Param::BigInt(9)]);
    /// ```
    pub fn renew<'a>(self, request: &LeaseRequest<'a>) -> Statement<'a> {
        Statement::new(self.sql().renew, Self::holder_params(request))
    }

    /// Gives the holder's lease up: it expires after `request.validity` (the grace period),
    /// or sooner if it was to expire sooner.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use ulid_flake_core::lease::{LeaseRequest, sql::{Dialect, Param}};
    /// # let request = LeaseRequest { namespace: "n", scalability_id: 1, holder: 9, epoch: ulid_flake_core::Epoch::DEFAULT, margin: Duration::ZERO, validity: Duration::from_micros(7), timeout: Duration::ZERO };
    /// assert!(Dialect::Postgres.release(&request).sql().contains("LEAST(expires_at_us"));
    /// ```
    pub fn release<'a>(self, request: &LeaseRequest<'a>) -> Statement<'a> {
        Statement::new(self.sql().release, Self::holder_params(request))
    }

    /// Reads the database's clock: one row of one `BIGINT` column, `value`, µs since the
    /// Unix epoch.
    ///
    /// ```
    /// use ulid_flake_core::lease::sql::Dialect;
    /// assert!(Dialect::MySql.database_time().sql().contains("UTC_TIMESTAMP(6)"));
    /// ```
    pub fn database_time(self) -> Statement<'static> {
        Statement::new(self.sql().database_time, [])
    }

    /// Whether the lease table is there: one row of one `BIGINT` column, `value` (0), or an
    /// error. Needs only `SELECT` on the table, where creating it needs `CREATE`.
    ///
    /// ```
    /// use ulid_flake_core::lease::sql::Dialect;
    /// assert!(Dialect::Postgres.table_probe().sql().contains("FROM ulid_flake_leases"));
    /// ```
    pub fn table_probe(self) -> Statement<'static> {
        Statement::new(self.sql().table_probe, [])
    }

    /// What a new connection runs after finding (or creating) the lease table, on PostgreSQL:
    /// it fails when the schemas of the session's `search_path` hold more than one
    /// `ulid_flake_leases` table, naming the schemas. The statements name the table
    /// unqualified, so a role with a schema of its own (`"$user"`, first on the default
    /// `search_path`) holding one would lease from it, apart from peers that find the one in
    /// `public`, and issue their IDs: its new connections fail instead (SQLSTATE `42710`, a
    /// refusal: [`is_refusal_sqlstate`]) until one is dropped. Tables outside the
    /// `search_path` are not looked at: another application's, in a schema of its own, is no
    /// concern — nor is a peer whose `search_path` holds another table alone, which nothing
    /// here sees. Nothing on MySQL, where a table's schema is its database.
    ///
    /// ```
    /// use ulid_flake_core::lease::sql::Dialect;
    /// assert!(Dialect::Postgres.single_table_check().unwrap().sql().starts_with("DO $$"));
    /// assert_eq!(Dialect::MySql.single_table_check(), None);
    /// ```
    pub fn single_table_check(self) -> Option<Statement<'static>> {
        match self {
            Self::Postgres => Some(Statement::new(POSTGRES_SINGLE_TABLE_CHECK, [])),
            Self::MySql => None,
        }
    }

    /// What a new connection runs first. On MySQL, `autocommit` on, whatever the server's
    /// `init_connect` set: with it off, every lease statement would stay in one open
    /// transaction, keeping its locks, and a dropped connection would roll renewals back that
    /// the holder counted on. Nothing on PostgreSQL.
    ///
    /// ```
    /// use ulid_flake_core::lease::sql::Dialect;
    /// assert_eq!(Dialect::MySql.session_setup().unwrap().sql(), "SET autocommit = 1");
    /// assert_eq!(Dialect::Postgres.session_setup(), None);
    /// ```
    pub fn session_setup(self) -> Option<Statement<'static>> {
        match self {
            Self::Postgres => None,
            Self::MySql => Some(Statement::new("SET autocommit = 1", [])),
        }
    }

    /// For an adapter that wraps a PostgreSQL statement in a transaction of its own: the
    /// statement to run first in it, which has the server end the session if the
    /// transaction then idles for `timeout` (`idle_in_transaction_session_timeout`, for this
    /// transaction only). A process paused between a statement and its commit would
    /// otherwise keep the statement's row locks — an update that lost a race for an expired
    /// row keeps a lock on the winner's new row — and hold the winner's renewals. Nothing on
    /// MySQL, whose statements run autocommitted.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ulid_flake_core::lease::sql::{Dialect, Param};
    ///
    /// let guard = Dialect::Postgres.transaction_guard(Duration::from_secs(2)).unwrap();
    /// assert_eq!(guard.params(), [Param::BigInt(2_000)]);
    /// ```
    pub fn transaction_guard(self, timeout: Duration) -> Option<Statement<'static>> {
        let timeout_ms = i64::try_from(timeout.as_millis())
            .unwrap_or(i64::MAX)
            .max(1);
        match self {
            Self::Postgres => Some(Statement::new(
                "SELECT set_config('idle_in_transaction_session_timeout', CAST($1 AS TEXT), true)",
                [Param::BigInt(timeout_ms)],
            )),
            Self::MySql => None,
        }
    }

    fn holder_params<'a>(request: &LeaseRequest<'a>) -> [Param<'a>; 4] {
        [
            Param::BigInt(request.validity_us()),
            Param::Text(request.namespace),
            Param::SmallInt(request.scalability_id.into()),
            Param::BigInt(request.holder),
        ]
    }
}

/// An adapter's way to a database: it opens connections dedicated to the lease and runs the
/// statements [`SqlLeaseStore`] hands it, each on its own — autocommitted, or on PostgreSQL
/// in a transaction of its own (see the [module docs](self)). [`SqlLeaseStore`] does the
/// rest: which statements, in which order, creating the table, reconnecting, and dropping a
/// connection after any error or timeout.
///
/// Calls block; they run on the lease's own thread. Each is to give up after `timeout`; a
/// driver that cannot bound its calls documents that it waits instead (the generator still
/// stops at its deadline).
pub trait LeaseDatabase: Sized + Send + 'static {
    /// A connection of the lease's own.
    type Connection: Send + 'static;
    /// The database library's error.
    type Error: core::error::Error + Send + Sync + 'static;

    /// Prepares to connect to the database of `dialect` at `url`; connects to nothing yet.
    ///
    /// # Errors
    ///
    /// [`LeaseError::Database`] for a URL the driver cannot use, or a dialect this build of
    /// the adapter has no driver for.
    fn open(dialect: Dialect, url: &str) -> Result<Self, LeaseError>;

    /// Opens a connection.
    ///
    /// # Errors
    ///
    /// The driver's error.
    fn connect(&mut self, timeout: Duration) -> Result<Self::Connection, Self::Error>;

    /// Runs `statement` on `connection` and returns the rows it matched: on MySQL, the driver
    /// must set `CLIENT_FOUND_ROWS` (sqlx-mysql 0.9 and Diesel 2.3 do: both adapters' lease
    /// tests `mysql_a_renewal_that_changes_no_row_keeps_the_lease`), since a renewal may match
    /// its row and leave the expiry as it is (one already later); a count of changed rows
    /// would read it as refused, and the lease would stop issuing until it holds an id again. On
    /// PostgreSQL, an adapter that wraps it in a transaction runs
    /// [`Dialect::transaction_guard`] first in it.
    ///
    /// # Errors
    ///
    /// The driver's error: the outcome is unknown.
    fn execute(
        &mut self,
        connection: &mut Self::Connection,
        statement: &Statement<'_>,
        timeout: Duration,
    ) -> Result<u64, Self::Error>;

    /// Runs `statement`, a query of one row of one `BIGINT` column named `value`, and
    /// returns the value.
    ///
    /// # Errors
    ///
    /// The driver's error.
    fn query_i64(
        &mut self,
        connection: &mut Self::Connection,
        statement: &Statement<'_>,
        timeout: Duration,
    ) -> Result<i64, Self::Error>;

    /// Whether `error` is the database refusing the lease for good, as
    /// [`LeaseStore::is_refusal`] describes: a driver that reads the error's SQLSTATE
    /// answers with [`is_refusal_sqlstate`]. None is, unless the adapter says so.
    ///
    /// ```
    /// use ulid_flake_core::lease::sql::is_refusal_sqlstate;
    ///
    /// // What sqlx's adapter does with `sqlx::Error::Database(error)`'s `error.code()`:
    /// let code = Some("42501"); // insufficient_privilege
    /// assert!(code.is_some_and(is_refusal_sqlstate));
    /// ```
    fn is_refusal(&self, error: &Self::Error) -> bool {
        let _ = error;
        false
    }
}

/// Whether a database error's SQLSTATE says the lease can never work as configured, so that
/// its first acquisition fails at once ([`LeaseStore::is_refusal`]): authorization refused
/// (class `28`: a wrong password or user), a database that does not exist (class `3D`), no
/// right to what the lease runs (PostgreSQL's `42501`; MySQL's `42000`, which it also gives a
/// syntax error, which no retry mends either), or two lease tables in one database
/// (`42710`, [`Dialect::single_table_check`]'s).
///
/// Not a refusal: a table that is missing or already exists (`42P01`, `42P07`, `42S02`,
/// `42S01`: the store creates it, or another replica just did), and every other class —
/// connections, timeouts, deadlocks, serialization failures — which a retry may mend.
///
/// ```
/// use ulid_flake_core::lease::sql::is_refusal_sqlstate;
///
/// assert!(is_refusal_sqlstate("28P01")); // PostgreSQL: password authentication failed
/// assert!(is_refusal_sqlstate("42000")); // MySQL: CREATE command denied
/// assert!(!is_refusal_sqlstate("42P01")); // undefined table: created on the next attempt
/// assert!(!is_refusal_sqlstate("40001")); // a serialization failure: retried
/// ```
pub fn is_refusal_sqlstate(sqlstate: &str) -> bool {
    matches!(sqlstate.get(..2), Some("28" | "3D"))
        || matches!(sqlstate, "42501" | "42000" | "42710")
}

/// The [`LeaseStore`] of an SQL database: the protocol's statements run through an adapter's
/// [`LeaseDatabase`] on one connection of its own (never a pool's, which could hand it to
/// other work), opened when first needed — creating the table if missing — and again after
/// any error.
///
/// The adapters name it for their driver (`ulid_flake_sqlx::SqlxLeaseStore`,
/// `ulid_flake_diesel::DieselLeaseStore`); build one to pass it to
/// [`ScalabilityIdLease::acquire`](super::ScalabilityIdLease::acquire).
pub struct SqlLeaseStore<D: LeaseDatabase> {
    database: D,
    dialect: Dialect,
    connection: Option<D::Connection>,
}

impl<D: LeaseDatabase> SqlLeaseStore<D> {
    /// A store on PostgreSQL at `url`; nothing connects until the first call.
    ///
    /// # Errors
    ///
    /// As [`LeaseDatabase::open`].
    pub fn postgres(url: &str) -> Result<Self, LeaseError> {
        Self::open(Dialect::Postgres, url)
    }

    /// A store on MySQL or MariaDB at `url`; nothing connects until the first call.
    ///
    /// # Errors
    ///
    /// As [`LeaseDatabase::open`].
    pub fn mysql(url: &str) -> Result<Self, LeaseError> {
        Self::open(Dialect::MySql, url)
    }

    /// A store on the database of `dialect` at `url`.
    ///
    /// # Errors
    ///
    /// [`LeaseError::Database`] at once for a URL whose scheme is not the dialect's
    /// (`postgres://` or `postgresql://`; `mysql://` or `mariadb://`), which no retry would
    /// mend; then as [`LeaseDatabase::open`].
    pub fn open(dialect: Dialect, url: &str) -> Result<Self, LeaseError> {
        dialect.check_scheme(url)?;
        Ok(Self {
            database: D::open(dialect, url)?,
            dialect,
            connection: None,
        })
    }

    /// Runs `work` on the connection, opening it (and creating the table) first when there is
    /// none; drops it after any error: broken, or in an unknown state after a timeout.
    fn on_connection<T>(
        &mut self,
        timeout: Duration,
        work: impl FnOnce(&mut D, Dialect, &mut D::Connection) -> Result<T, D::Error>,
    ) -> Result<T, D::Error> {
        let Self {
            database,
            dialect,
            connection,
        } = self;
        let result = (|| {
            if connection.is_none() {
                let mut opened = database.connect(timeout)?;
                if let Some(setup) = dialect.session_setup() {
                    database.execute(&mut opened, &setup, timeout)?;
                }
                // Probed first: creating it, even `IF NOT EXISTS`, needs the right to create
                // tables, which a role that only uses the table may lack.
                if database
                    .query_i64(&mut opened, &dialect.table_probe(), timeout)
                    .is_err()
                {
                    database.execute(&mut opened, &dialect.create_table(), timeout)?;
                }
                if let Some(check) = dialect.single_table_check() {
                    database.execute(&mut opened, &check, timeout)?;
                }
                *connection = Some(opened);
            }
            let open = connection.as_mut().expect("opened above");
            work(database, *dialect, open)
        })();
        if result.is_err() {
            *connection = None;
        }
        result
    }
}

impl<D: LeaseDatabase> LeaseStore for SqlLeaseStore<D> {
    type Error = D::Error;

    fn is_refusal(&self, error: &Self::Error) -> bool {
        self.database.is_refusal(error)
    }

    fn take(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        let timeout = request.timeout;
        self.on_connection(timeout, |database, dialect, connection| {
            let inserted = database.execute(connection, &dialect.insert_taken(request), timeout)?;
            if inserted == 1 {
                return Ok(true);
            }
            let taken = database.execute(connection, &dialect.take_expired(request), timeout)?;
            Ok(taken == 1)
        })
    }

    fn renew(&mut self, request: &LeaseRequest<'_>) -> Result<bool, Self::Error> {
        let timeout = request.timeout;
        self.on_connection(timeout, |database, dialect, connection| {
            Ok(database.execute(connection, &dialect.renew(request), timeout)? == 1)
        })
    }

    fn release(&mut self, request: &LeaseRequest<'_>) -> Result<(), Self::Error> {
        let timeout = request.timeout;
        self.on_connection(timeout, |database, dialect, connection| {
            database
                .execute(connection, &dialect.release(request), timeout)
                .map(drop)
        })
    }

    fn database_time(&mut self, timeout: Duration) -> Result<i64, Self::Error> {
        self.on_connection(timeout, |database, dialect, connection| {
            database.query_i64(connection, &dialect.database_time(), timeout)
        })
    }
}

impl<D: LeaseDatabase> fmt::Debug for SqlLeaseStore<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SqlLeaseStore")
            .field("dialect", &self.dialect)
            .field("connected", &self.connection.is_some())
            .finish_non_exhaustive()
    }
}

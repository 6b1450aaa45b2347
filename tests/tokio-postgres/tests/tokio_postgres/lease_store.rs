//! A third lease store, over tokio-postgres: the core's [`SqlLeaseStore`] needs from a driver
//! only a connection that runs the statements it hands over. Each statement goes in one round
//! trip, unprepared (`query_typed_raw`: parse, bind and execute before one sync), so it is
//! autocommitted and needs no transaction, even behind a transaction-mode pooler.

use std::io;
use std::time::Duration;

use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, NoTls};
use ulid_flake_core::lease::LeaseError;
use ulid_flake_core::lease::sql::{
    Dialect, LeaseDatabase, Param, SqlLeaseStore, Statement, is_refusal_sqlstate,
};

/// The lease store of tokio-postgres.
pub(crate) type TokioPostgresLeaseStore = SqlLeaseStore<TokioPostgres>;

/// tokio-postgres's way to the lease table, on a single-threaded runtime of the lease's own.
pub(crate) struct TokioPostgres {
    runtime: tokio::runtime::Runtime,
    url: String,
}

impl TokioPostgres {
    /// Runs `work` on the lease's runtime, or fails after `timeout`.
    fn block_on<T>(
        &self,
        timeout: Duration,
        work: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, io::Error> {
        match self
            .runtime
            .block_on(async { tokio::time::timeout(timeout, work).await })
        {
            Ok(result) => result.map_err(io::Error::other),
            Err(_) => Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("no answer from the database within {timeout:?}"),
            )),
        }
    }
}

/// The statement's parameters as tokio-postgres takes them, typed.
fn params<'a>(statement: &'a Statement<'_>) -> Vec<(&'a (dyn ToSql + Sync), Type)> {
    statement
        .params()
        .iter()
        .map(|param| match param {
            Param::BigInt(value) => (value as &(dyn ToSql + Sync), Type::INT8),
            Param::SmallInt(value) => (value as &(dyn ToSql + Sync), Type::INT2),
            Param::Text(value) => (value as &(dyn ToSql + Sync), Type::TEXT),
        })
        .collect()
}

impl LeaseDatabase for TokioPostgres {
    type Connection = Client;
    type Error = io::Error;

    fn open(dialect: Dialect, url: &str) -> Result<Self, LeaseError> {
        if dialect != Dialect::Postgres {
            return Err(LeaseError::Database(
                format!("tokio-postgres: expected PostgreSQL, found {dialect}").into(),
            ));
        }
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| LeaseError::Database(Box::new(error)))?;
        Ok(Self {
            runtime,
            url: url.into(),
        })
    }

    fn connect(&mut self, timeout: Duration) -> Result<Client, io::Error> {
        let (client, connection) =
            self.block_on(timeout, tokio_postgres::connect(&self.url, NoTls))?;
        // Driven whenever the lease's thread waits on this runtime; ends with the client.
        self.runtime.spawn(connection);
        Ok(client)
    }

    fn execute(
        &mut self,
        client: &mut Client,
        statement: &Statement<'_>,
        timeout: Duration,
    ) -> Result<u64, io::Error> {
        self.block_on(timeout, async {
            let rows = client
                .query_typed_raw(statement.sql(), params(statement))
                .await?;
            let mut rows = std::pin::pin!(rows);
            while futures_util::TryStreamExt::try_next(&mut rows)
                .await?
                .is_some()
            {}
            Ok(rows.rows_affected().unwrap_or(0))
        })
    }

    fn query_i64(
        &mut self,
        client: &mut Client,
        statement: &Statement<'_>,
        timeout: Duration,
    ) -> Result<i64, io::Error> {
        self.block_on(timeout, async {
            let rows = client
                .query_typed(statement.sql(), &params(statement))
                .await?;
            Ok(rows
                .first()
                .map(|row| row.try_get(0).map_err(io::Error::other)))
        })?
        .unwrap_or_else(|| Err(io::Error::other("expected one row, found none")))
    }

    fn is_refusal(&self, error: &io::Error) -> bool {
        error
            .get_ref()
            .and_then(|error| error.downcast_ref::<tokio_postgres::Error>())
            .and_then(tokio_postgres::Error::code)
            .is_some_and(|code| is_refusal_sqlstate(code.code()))
    }
}

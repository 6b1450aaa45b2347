//! The adversarial lease tests, shared by both adapters: replicas are child processes (the
//! calling test binary run again, see [`child_main`]) that lease an id and generate IDs at
//! 50,000 a second while the test kills their connections, partitions them from the
//! database and stalls the server; every ID any replica issued is then checked for
//! duplicates.
//!
//! An adapter's test binary supplies only how a child acquires a lease (its
//! `lease_postgres` or `lease_mysql`) and the command that runs the child.

use std::collections::HashSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant, SystemTime};

use ulid_flake_core::generator::Generator;
use ulid_flake_core::lease::sql::{Dialect, Param, Statement};
use ulid_flake_core::lease::{
    LeaseError, LeaseOptions, LeaseRequest, LeaseState, LeaseTiming, ScalabilityIdLease,
};
use ulid_flake_core::{Epoch, Error, UlidFlake};

use crate::databases::{mysql_url, postgres_url, unique_name};

/// The lease timing of the tests: 2 s validity, so that a loss and a take fit in seconds.
pub fn timing() -> LeaseTiming {
    LeaseTiming {
        validity: Duration::from_secs(2),
        renew_every: Duration::from_millis(400),
        margin: Duration::from_millis(200),
        max_drift: 1e-3,
        request_timeout: Duration::from_millis(500),
        retry_min: Duration::from_millis(50),
        retry_max: Duration::from_millis(400),
        acquire_timeout: Duration::from_secs(20),
        wait_for_free_id: Duration::ZERO,
    }
}

/// The id every replica of a scenario wants, so that a second replica can only have it
/// after the first lost it.
const CONTESTED_ID: u8 = 5;

/// IDs per millisecond a replica makes: 50,000 a second.
const IDS_PER_MS: usize = 50;

/// A server the leases live on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    /// PostgreSQL, directly.
    Postgres,
    /// PostgreSQL through PgBouncer in transaction mode.
    PgBouncer,
    /// MariaDB.
    Mysql,
}

impl Server {
    /// The URL of `database` on this server.
    pub fn url(self, database: &str) -> String {
        let base = match self {
            Self::Postgres => postgres_url(),
            Self::PgBouncer => crate::databases::pgbouncer_url(),
            Self::Mysql => mysql_url(),
        };
        let (server, _) = base.rsplit_once('/').expect("a URL ends in /database");
        format!("{server}/{database}")
    }

    /// Runs `sql` as the test role with the server's command-line client, on `database`;
    /// returns what it printed.
    pub fn client(self, database: &str, sql: &str) -> String {
        self.try_client(database, sql)
            .unwrap_or_else(|error| panic!("{sql}: {error}"))
    }

    /// [`Server::client`], with the client's complaint as the error.
    fn try_client(self, database: &str, sql: &str) -> Result<String, String> {
        let url = match self {
            Self::Postgres | Self::PgBouncer => Self::Postgres.url(database),
            Self::Mysql => Self::Mysql.url(database),
        };
        self.try_client_as(&url, sql)
    }

    /// Runs `sql` with the server's command-line client, connected as `url` says.
    fn try_client_as(self, url: &str, sql: &str) -> Result<String, String> {
        let output = match self {
            Self::Postgres | Self::PgBouncer => {
                Command::new("psql").args([url, "-XAtqc", sql]).output()
            }
            Self::Mysql => mariadb(url).args(["-e", sql]).output(),
        };
        client_output(output)
    }

    /// Runs the SQL files at `paths` in a new database with the server's command-line
    /// client, as a user without Rust installs them: `psql -f`, or `mariadb --delimiter=$$`
    /// reading the file and then `$$` (a delimiter no statement holds, so that the client
    /// sends the batch whole instead of cutting the functions' bodies at their `;`). Returns
    /// the database's name.
    pub fn install_with_the_client(self, paths: &[&Path]) -> Result<String, String> {
        let database = self.scratch_database();
        let url = self.url(&database);
        for path in paths {
            let output = match self {
                Self::Postgres | Self::PgBouncer => Command::new("psql")
                    .args([&url, "-Xq", "-v", "ON_ERROR_STOP=1", "-f"])
                    .arg(path)
                    .output(),
                Self::Mysql => {
                    let mut script = std::fs::read_to_string(path).expect("the SQL file");
                    script.push_str("\n$$\n");
                    let mut child = mariadb(&url)
                        .arg("--delimiter=$$")
                        .stdin(Stdio::piped())
                        .stdout(Stdio::piped())
                        .stderr(Stdio::piped())
                        .spawn()
                        .expect("the database client runs");
                    child
                        .stdin
                        .take()
                        .unwrap()
                        .write_all(script.as_bytes())
                        .unwrap();
                    child.wait_with_output()
                }
            };
            client_output(output)?;
        }
        Ok(database)
    }

    /// The URL of `database` for a new login role (a user, on MySQL) that may do only
    /// `privileges` on `object` (`GRANT privileges ON object`; on MySQL, a table of
    /// `database`).
    fn url_of_new_role(self, database: &str, privileges: &str, object: &str) -> String {
        let role = unique_name("lease_role");
        let password = "lease-only";
        let grant = match self {
            Self::Postgres | Self::PgBouncer => format!(
                "CREATE ROLE {role} LOGIN PASSWORD '{password}'; \
                 GRANT {privileges} ON {object} TO {role}"
            ),
            Self::Mysql => format!(
                "CREATE USER '{role}'@'127.0.0.1' IDENTIFIED BY '{password}'; \
                 CREATE USER '{role}'@'localhost' IDENTIFIED BY '{password}'; \
                 GRANT {privileges} ON {database}.{object} \
                 TO '{role}'@'127.0.0.1', '{role}'@'localhost'"
            ),
        };
        self.client(database, &grant);
        let url = self.url(database);
        let (scheme, rest) = url.split_once("://").expect("a URL");
        let (_, address) = rest.split_once('@').expect("user:password@");
        format!("{scheme}://{role}:{password}@{address}")
    }

    /// How many transactions of the sessions on `database` are open between statements, as
    /// the server sees them (another session's, never the client's own): those of one
    /// scenario, on its scratch database, not those of the others running beside it.
    pub fn open_transactions(self, database: &str) -> usize {
        let sql = match self {
            Self::Postgres | Self::PgBouncer => format!(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE state = 'idle in transaction' AND datname = '{database}'"
            ),
            Self::Mysql => format!(
                "SELECT COUNT(*) FROM information_schema.innodb_trx AS trx \
                 JOIN information_schema.PROCESSLIST AS session \
                 ON session.ID = trx.trx_mysql_thread_id WHERE session.DB = '{database}'"
            ),
        };
        self.client(database, &sql).trim().parse().unwrap()
    }

    /// A new, empty database for one test, so that killing its sessions hits no other test.
    pub fn scratch_database(self) -> String {
        let name = unique_name("ulid_flake_test_lease");
        let admin_database = match self {
            Self::Postgres | Self::PgBouncer => "postgres",
            Self::Mysql => "ulid_flake_test",
        };
        self.client(admin_database, &format!("CREATE DATABASE {name}"));
        name
    }

    /// Ends, from the server side, every session on `database` but the client's own: what
    /// `pg_terminate_backend` or `KILL` by a DBA, a failover or a proxy restart does.
    /// Returns how many it ended.
    pub fn kill_sessions(self, database: &str) -> usize {
        match self {
            Self::Postgres | Self::PgBouncer => {
                let sql = format!(
                    "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                     WHERE datname = '{database}' AND pid <> pg_backend_pid()"
                );
                self.client(database, &sql).trim().parse().expect("a count")
            }
            Self::Mysql => {
                let sql = format!(
                    "SELECT ID FROM information_schema.PROCESSLIST \
                     WHERE DB = '{database}' AND ID <> CONNECTION_ID()"
                );
                let sessions = self.client(database, &sql);
                // A session may end between the listing and its KILL: that one needs none.
                sessions
                    .lines()
                    .filter(|id| self.try_client(database, &format!("KILL {id}")).is_ok())
                    .count()
            }
        }
    }

    /// The server's processes: PostgreSQL's postmaster and its children, or mariadbd.
    fn processes(self) -> Vec<u32> {
        let read_pid = |path: PathBuf| -> u32 {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            text.lines().next().unwrap().trim().parse().unwrap()
        };
        match self {
            Self::Postgres | Self::PgBouncer => {
                let data = required_path("ULID_FLAKE_TEST_POSTGRES_DATA");
                let postmaster = read_pid(data.join("postmaster.pid"));
                let mut pids = vec![postmaster];
                for entry in std::fs::read_dir("/proc").unwrap().flatten() {
                    let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                        continue;
                    };
                    // pid (comm) state ppid ...: the comm may hold spaces, so split after it.
                    let after_comm = &stat[stat.rfind(')').unwrap() + 2..];
                    let ppid: u32 = after_comm.split(' ').nth(1).unwrap().parse().unwrap();
                    if ppid == postmaster {
                        pids.push(entry.file_name().to_str().unwrap().parse().unwrap());
                    }
                }
                pids
            }
            Self::Mysql => vec![read_pid(required_path("ULID_FLAKE_TEST_MYSQL_PID_FILE"))],
        }
    }

    /// Pauses the whole server with `SIGSTOP` for `duration`, then resumes it — even if the
    /// test fails meanwhile, so that no other test is left with a stopped server. A scenario
    /// that calls it is named `…_stalled_…`, which the test command runs alone on its server
    /// (see [`assert_alone_on_server`]).
    pub fn stall(self, duration: Duration) {
        assert_alone_on_server();
        pause(&self.processes(), duration);
    }

    /// The server's address.
    fn address(self) -> SocketAddr {
        let url = self.url("x");
        let after_at = url.rsplit_once('@').unwrap().1;
        let address = after_at.split_once('/').unwrap().0;
        address.to_socket_addrs().unwrap().next().unwrap()
    }
}

fn required_path(variable: &str) -> PathBuf {
    std::env::var_os(variable)
        .map(PathBuf::from)
        .unwrap_or_else(|| panic!("{variable} is not set: run through scripts/with-databases.sh"))
}

/// A TCP proxy on loopback in front of a server, which the test can partition: it then
/// closes every connection through it and refuses new ones, as a network that drops a
/// replica does.
pub struct Proxy {
    address: SocketAddr,
    open: Arc<AtomicBool>,
    connections: Arc<Mutex<Vec<TcpStream>>>,
    freeze: Arc<Freeze>,
}

/// A one-time freeze of the client-to-server stream: the first chunk that holds `marker` is
/// held back, with everything after it on that connection, for `duration`.
#[derive(Default)]
struct Freeze {
    armed: Mutex<Option<(&'static [u8], Duration)>>,
    /// When the freeze began, once it has.
    began: Mutex<Option<Instant>>,
}

impl Proxy {
    /// A proxy to `target`.
    pub fn start(target: SocketAddr) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap();
        let open = Arc::new(AtomicBool::new(true));
        let connections = Arc::new(Mutex::new(Vec::new()));
        let freeze = Arc::new(Freeze::default());
        let (accept_open, accept_connections) = (Arc::clone(&open), Arc::clone(&connections));
        let accept_freeze = Arc::clone(&freeze);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                if !accept_open.load(Ordering::SeqCst) {
                    continue; // dropped: refused
                }
                let Ok(server) = TcpStream::connect(target) else {
                    continue;
                };
                let mut list = lock(&accept_connections);
                list.push(client.try_clone().unwrap());
                list.push(server.try_clone().unwrap());
                forward_upstream(
                    client.try_clone().unwrap(),
                    server.try_clone().unwrap(),
                    Arc::clone(&accept_freeze),
                );
                forward(server, client);
            }
        });
        Self {
            address,
            open,
            connections,
            freeze,
        }
    }

    /// Holds back, once, the first chunk a client sends that contains `marker`, and what
    /// follows it on that connection, for `duration`: the client's session stays open on the
    /// server, stalled between the statements before it and the one it carries.
    pub fn freeze_at(&self, marker: &'static [u8], duration: Duration) {
        *lock(&self.freeze.armed) = Some((marker, duration));
    }

    /// When the freeze of [`Proxy::freeze_at`] began, once it has.
    pub fn frozen_since(&self) -> Option<Instant> {
        *lock(&self.freeze.began)
    }

    /// `url` with its host and port replaced by the proxy's.
    pub fn url(&self, url: &str) -> String {
        let (scheme_and_credentials, rest) = url.rsplit_once('@').unwrap();
        let (_, database) = rest.split_once('/').unwrap();
        format!("{scheme_and_credentials}@{}/{database}", self.address)
    }

    /// Closes every connection and refuses new ones.
    pub fn partition(&self) {
        self.open.store(false, Ordering::SeqCst);
        for stream in lock(&self.connections).drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    /// Accepts connections again.
    pub fn heal(&self) {
        self.open.store(true, Ordering::SeqCst);
    }
}

/// Copies a client's stream to the server, holding it back at the armed freeze's marker.
fn forward_upstream(mut from: TcpStream, mut to: TcpStream, freeze: Arc<Freeze>) {
    std::thread::spawn(move || {
        let mut buf = [0; 16 * 1024];
        while let Ok(n @ 1..) = from.read(&mut buf) {
            let chunk = &buf[..n];
            let hold = {
                let mut armed = lock(&freeze.armed);
                match *armed {
                    Some((marker, duration))
                        if chunk.windows(marker.len()).any(|window| window == marker) =>
                    {
                        *armed = None;
                        Some(duration)
                    }
                    _ => None,
                }
            };
            if let Some(duration) = hold {
                *lock(&freeze.began) = Some(Instant::now());
                std::thread::sleep(duration);
            }
            if to.write_all(chunk).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Both);
    });
}

fn forward(mut from: TcpStream, mut to: TcpStream) {
    std::thread::spawn(move || {
        let _ = std::io::copy(&mut from, &mut to);
        let _ = to.shutdown(Shutdown::Both);
    });
}

/// Stops the processes `pids` with `SIGSTOP` for `duration`, then continues them (also when
/// the caller unwinds).
fn pause(pids: &[u32], duration: Duration) {
    /// Continues the processes when dropped.
    struct Resume<'a>(&'a [u32]);
    impl Drop for Resume<'_> {
        fn drop(&mut self) {
            signal(self.0, "CONT");
        }
    }
    /// One `kill` per process: one that has just exited needs no signal.
    fn signal(pids: &[u32], name: &str) {
        for pid in pids {
            let _ = Command::new("kill")
                .arg(format!("-{name}"))
                .arg(pid.to_string())
                .stderr(Stdio::null())
                .status();
        }
    }
    let resume = Resume(pids);
    signal(resume.0, "STOP");
    std::thread::sleep(duration);
    drop(resume);
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Panics when the test command runs this test beside others on its server: a test that stops
/// or kills its server must have it to itself. The test command's `leases` step
/// (scripts/test.sh) names each lane in `ULID_FLAKE_TEST_LANE`, and only the lanes that run
/// alone on their server end in ` alone`; a test run by hand, one binary at a time, has no lane.
pub fn assert_alone_on_server() {
    if let Ok(lane) = std::env::var("ULID_FLAKE_TEST_LANE") {
        assert!(
            lane.ends_with(" alone"),
            "expected a lane alone on its server for a test that stops or kills it, found the \
             lane {lane:?} beside others: name the test `…_stalled_…` (scripts/test.sh, step \
             `leases`)"
        );
    }
}

/// One lease scenario at a time in a test binary (but `leases_with_only_select_insert_update`,
/// whose lease has no replica), whose replicas' renewals are sub-second. Between binaries the
/// test command (scripts/test.sh, step `leases`) runs scenarios at once: five, one per binary
/// and server, then the stalls and the crash each alone on its server.
pub fn one_at_a_time() -> MutexGuard<'static, ()> {
    static SCENARIOS: Mutex<()> = Mutex::new(());
    lock(&SCENARIOS)
}

// The child's environment.
const URL: &str = "LEASE_CHILD_URL";
const NAMESPACE: &str = "LEASE_CHILD_NAMESPACE";
const OUT: &str = "LEASE_CHILD_OUT";
const STOP: &str = "LEASE_CHILD_STOP";
const WAIT_FOR_ID: &str = "LEASE_CHILD_WAIT";

/// The replica side of the tests: run by the adapter's ignored `lease_child` test, with
/// `acquire` its way of leasing. Leases id 5 (waiting for it when
/// `LEASE_CHILD_WAIT` is set, failing at once otherwise), then makes 50 IDs a millisecond
/// until the stop file appears, and writes them; it reports on stdout: `HELD <n>` each time
/// it acquires the id, `TAKEN` when it could not, and at the end
/// `DONE <losses> <acquisitions> <longest gap in ms> <IDs refused for clock skew>`.
pub fn child_main(acquire: impl Fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>) {
    let var = |name: &str| std::env::var(name).unwrap_or_else(|_| panic!("{name} is not set"));
    let (url, namespace) = (var(URL), var(NAMESPACE));
    let (out, stop) = (PathBuf::from(var(OUT)), PathBuf::from(var(STOP)));
    let options = || {
        LeaseOptions::new(namespace.clone())
            .ids(CONTESTED_ID..=CONTESTED_ID)
            .timing(timing())
    };
    let started = Instant::now();
    let lease = loop {
        if stop.exists() {
            std::fs::write(&out, b"").unwrap();
            println!("DONE 0 0 0 0");
            return;
        }
        match acquire(&url, options()) {
            Ok(lease) => break lease,
            Err(LeaseError::AllTaken { .. }) if std::env::var_os(WAIT_FOR_ID).is_some() => {
                assert!(started.elapsed() < Duration::from_secs(30), "waited 30 s");
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(LeaseError::AllTaken { .. }) => {
                println!("TAKEN");
                return;
            }
            Err(error) => panic!("{error}"),
        }
    };
    let mut stdout = std::io::stdout();
    let mut acquisitions = 0;
    let mut ids: Vec<u64> = Vec::with_capacity(1 << 20);
    let mut last_issued_ms = None;
    let mut longest_gap_ms = 0;
    let mut skew_refusals = 0;
    while !stop.exists() {
        let status = lease.status();
        if status.acquisitions != acquisitions {
            acquisitions = status.acquisitions;
            writeln!(stdout, "HELD {acquisitions}").unwrap();
            stdout.flush().unwrap();
        }
        for _ in 0..IDS_PER_MS {
            match lease.generator().try_generate() {
                Ok(id) => {
                    assert_eq!(id.scalability_id(), CONTESTED_ID);
                    let ms = id.ms_since_epoch();
                    if let Some(last) = last_issued_ms {
                        longest_gap_ms = longest_gap_ms.max(ms - last);
                    }
                    last_issued_ms = Some(ms);
                    ids.push(id.to_u64());
                }
                Err(Error::Overflow { .. } | Error::LeaseNotValid { .. }) => break,
                Err(Error::ClockSkew { .. }) => {
                    skew_refusals += 1;
                    break;
                }
                Err(error) => panic!("{error}"),
            }
        }
        // On to the next millisecond.
        let into = SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_micros()
            % 1000;
        std::thread::sleep(Duration::from_micros(u64::from(1000 - into)));
    }
    let status = lease.status();
    let bytes: Vec<u8> = ids.iter().flat_map(|id| id.to_le_bytes()).collect();
    std::fs::write(&out, bytes).unwrap();
    println!(
        "DONE {} {} {longest_gap_ms} {skew_refusals}",
        status.losses, status.acquisitions
    );
    lease.release().unwrap();
}

/// A running replica.
pub struct Replica {
    child: Child,
    stdout: BufReader<ChildStdout>,
    out: PathBuf,
    stop: PathBuf,
}

/// What a replica reported when it stopped.
#[derive(Debug)]
pub struct Report {
    /// Every ID it issued, in order.
    pub ids: Vec<u64>,
    /// How many times it lost the lease.
    pub losses: u64,
    /// How many times it acquired it.
    pub acquisitions: u64,
    /// The longest time between two IDs it issued, in ms.
    pub longest_gap_ms: u64,
    /// How many of its attempts were refused with [`Error::ClockSkew`].
    pub skew_refusals: u64,
}

impl Replica {
    /// Starts `command` (the adapter's test binary, running only its `lease_child`) as a
    /// replica on `url`; `wait` makes it wait for the contested id instead of failing.
    pub fn start(mut command: Command, url: &str, namespace: &str, dir: &Path, wait: bool) -> Self {
        let name = unique_name("replica");
        let (out, stop) = (
            dir.join(format!("{name}.ids")),
            dir.join(format!("{name}.stop")),
        );
        command
            .env(URL, url)
            .env(NAMESPACE, namespace)
            .env(OUT, &out)
            .env(STOP, &stop)
            .stdout(Stdio::piped());
        if wait {
            command.env(WAIT_FOR_ID, "1");
        }
        let mut child = command.spawn().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdout,
            out,
            stop,
        }
    }

    /// The next report line the replica prints (the test harness's own lines skipped),
    /// within `limit`.
    fn line(&mut self, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        loop {
            let mut line = String::new();
            // The child prints whole lines; a read blocks until one comes or it exits.
            assert_ne!(
                self.stdout.read_line(&mut line).unwrap(),
                0,
                "the replica ended"
            );
            assert!(
                Instant::now() <= deadline,
                "waited longer than {limit:?} for {line:?}"
            );
            let line = line.trim();
            if ["HELD ", "TAKEN", "DONE "]
                .iter()
                .any(|prefix| line.starts_with(prefix))
            {
                return line.to_owned();
            }
        }
    }

    /// Waits until the replica holds the id for the `n`th time.
    pub fn wait_held(&mut self, n: u64) {
        loop {
            let line = self.line(Duration::from_secs(30));
            if line == format!("HELD {n}") {
                return;
            }
            assert!(line.starts_with("HELD "), "unexpected {line:?}");
        }
    }

    /// Waits for the replica's `TAKEN` (it could not have the id) and its exit.
    pub fn expect_taken(mut self) {
        assert_eq!(self.line(Duration::from_secs(30)), "TAKEN");
        assert!(self.child.wait().unwrap().success());
    }

    /// Stops the replica and reads what it issued.
    pub fn stop(mut self) -> Report {
        std::fs::write(&self.stop, b"").unwrap();
        let done = loop {
            let line = self.line(Duration::from_secs(30));
            if line.starts_with("DONE ") {
                break line;
            }
        };
        assert!(self.child.wait().unwrap().success());
        let numbers: Vec<u64> = done[5..].split(' ').map(|n| n.parse().unwrap()).collect();
        let mut bytes = Vec::new();
        std::fs::File::open(&self.out)
            .unwrap()
            .read_to_end(&mut bytes)
            .unwrap();
        Report {
            ids: bytes
                .chunks_exact(8)
                .map(|chunk| u64::from_le_bytes(chunk.try_into().unwrap()))
                .collect(),
            losses: numbers[0],
            acquisitions: numbers[1],
            longest_gap_ms: numbers[2],
            skew_refusals: numbers[3],
        }
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Fails with how many IDs the reports share, and the first.
pub fn assert_no_duplicates(reports: &[&Report]) {
    let mut seen = HashSet::new();
    let duplicates: Vec<u64> = reports
        .iter()
        .flat_map(|report| &report.ids)
        .filter(|&&id| !seen.insert(id))
        .copied()
        .collect();
    assert!(
        duplicates.is_empty(),
        "{} duplicate IDs among {} (the first: {:?})",
        duplicates.len(),
        seen.len() + duplicates.len(),
        duplicates.first()
    );
}

/// Fails unless `holder` issued no ID within `margin_ms` of the milliseconds in which
/// `other` held the id: the invariant is about (id, millisecond) pairs, not whole IDs, and on
/// one machine's clock the protocol keeps the margin between two holders.
pub fn assert_separated(holder: &Report, other: &Report, margin_ms: u64) {
    let ms = |id: &u64| id >> 20;
    let (Some(first), Some(last)) = (
        other.ids.iter().map(ms).min(),
        other.ids.iter().map(ms).max(),
    ) else {
        return;
    };
    let close = holder
        .ids
        .iter()
        .map(ms)
        .find(|&at| at + margin_ms > first && at < last + margin_ms);
    assert_eq!(
        close, None,
        "the holder issued an ID in millisecond {close:?}, within {margin_ms} ms of another \
         holder's {first}..={last}"
    );
}

/// A new directory for the replicas' files.
pub fn scratch_dir() -> PathBuf {
    let dir = std::env::var_os("ULID_FLAKE_TEST_SQLITE_DIR")
        .map_or_else(std::env::temp_dir, PathBuf::from)
        .join(unique_name("lease_ids"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The holder's connections killed from the server side, three times, while another replica
/// asks for its id: the holder reconnects and keeps its lease (its row has not expired), the
/// other is refused, and IDs never stop. Then three times: the holder partitioned from the
/// database (its connections cut, new ones refused) and its sessions killed; the other
/// replica takes the id once the holder's lease expired, generates, and leaves; the holder
/// reports the loss, takes the id back and resumes. No ID is ever issued twice.
///
/// Returns the holder's report, for the figures in RELIABILITY.md.
pub fn kill_partition_and_take(server: Server, child: impl Fn() -> Command) -> Report {
    let _one = one_at_a_time();
    let database = server.scratch_database();
    let (namespace, dir) = (unique_name("lease"), scratch_dir());
    let direct = server.url(&database);
    let proxy = Proxy::start(server.address());
    let mut holder = Replica::start(child(), &proxy.url(&direct), &namespace, &dir, false);
    holder.wait_held(1);

    for _ in 0..3 {
        std::thread::sleep(Duration::from_millis(300));
        // The holder reconnects at its next renewal: kill its session once it has one.
        let started = Instant::now();
        while server.kill_sessions(&database) == 0 {
            assert!(
                started.elapsed() < Duration::from_secs(5),
                "no session to kill"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Replica::start(child(), &direct, &namespace, &dir, false).expect_taken();
    }

    let mut others = Vec::new();
    for cycle in 0..3_u64 {
        std::thread::sleep(Duration::from_millis(500));
        proxy.partition();
        server.kill_sessions(&database);
        let mut other = Replica::start(child(), &direct, &namespace, &dir, true);
        other.wait_held(1);
        std::thread::sleep(Duration::from_millis(500));
        others.push(other.stop());
        proxy.heal();
        let healed = Instant::now();
        holder.wait_held(cycle + 2);
        println!(
            "{server:?}: the holder held its id again {} ms after the partition healed",
            healed.elapsed().as_millis()
        );
    }
    std::thread::sleep(Duration::from_millis(300));
    let report = holder.stop();

    let mut all: Vec<&Report> = others.iter().collect();
    all.push(&report);
    assert_no_duplicates(&all);
    for other in &others {
        // The margin of the tests' timing, less a millisecond of rounding.
        assert_separated(&report, other, 199);
    }
    assert_eq!(
        (report.losses, report.acquisitions),
        (3, 4),
        "the holder's losses"
    );
    let issued: usize = all.iter().map(|report| report.ids.len()).sum();
    println!(
        "{server:?}: {issued} IDs from {} replicas, no duplicate; the holder lost its lease \
         {} times (the partitions; the kills cost none)",
        all.len(),
        report.losses
    );
    assert!(
        others.iter().all(|other| !other.ids.is_empty()),
        "each other replica issued IDs"
    );
    std::fs::remove_dir_all(dir).unwrap();
    report
}

/// A role that may only `SELECT`, `INSERT` and `UPDATE` the lease table, which a migration
/// created before (here, the test role): the lease connects (its probe finds the table; it
/// has no right to create one), takes an id, issues an ID under it, and releases it.
pub fn leases_with_only_select_insert_update(
    server: Server,
    acquire: fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
) {
    let database = server.scratch_database();
    let dialect = match server {
        Server::Postgres | Server::PgBouncer => Dialect::Postgres,
        Server::Mysql => Dialect::MySql,
    };
    server.client(&database, dialect.create_table().sql());
    let url = server.url_of_new_role(&database, "SELECT, INSERT, UPDATE", "ulid_flake_leases");
    let cannot_create = server.try_client_as(&url, "CREATE TABLE elsewhere (x INT)");
    assert!(cannot_create.is_err(), "the role may create tables");

    let lease = acquire(
        &url,
        LeaseOptions::new(unique_name("lease")).timing(timing()),
    )
    .unwrap();
    let id = lease.generator().try_generate().unwrap();
    assert_eq!(Some(id.scalability_id()), lease.status().scalability_id);
    lease.release().unwrap();
}

/// A renewal never shortens the row. One that the server runs late, after its client gave up
/// and a newer renewal went through, computes its expiry from an older *now* (MySQL's
/// `UTC_TIMESTAMP(6)` is the statement's start); a renewal with a shorter validity after a
/// longer one computes the same earlier expiry, here on demand: the row keeps the later one.
pub fn a_late_renewal_never_shortens_the_row(server: Server) {
    let database = server.scratch_database();
    let dialect = match server {
        Server::Postgres | Server::PgBouncer => Dialect::Postgres,
        Server::Mysql => Dialect::MySql,
    };
    server.client(&database, dialect.create_table().sql());
    let request = |validity| LeaseRequest {
        namespace: "renewals",
        scalability_id: 6,
        holder: 77,
        epoch: Epoch::DEFAULT,
        margin: Duration::from_secs(1),
        validity,
        timeout: Duration::from_secs(1),
    };
    let run = |statement: Statement<'_>| server.client(&database, &inline(dialect, &statement));
    let expiry = || -> i64 {
        server
            .client(&database, "SELECT expires_at_us FROM ulid_flake_leases")
            .trim()
            .parse()
            .expect("one row")
    };
    run(dialect.insert_taken(&request(Duration::from_secs(15))));
    let taken = expiry();
    run(dialect.renew(&request(Duration::from_secs(1))));
    assert_eq!(expiry(), taken, "the renewal lowered the expiry");
    // A renewal that does extend it still does.
    run(dialect.renew(&request(Duration::from_secs(30))));
    assert!(
        expiry() > taken + 14_000_000,
        "the renewal did not extend the expiry"
    );
}

/// A renewal that matches its row but leaves the expiry as it is (the row's is already later:
/// here set an hour ahead behind the lease's back) keeps the lease. `GREATEST` makes such a
/// renewal change no row, so the store must count the rows it matched (on MySQL, the driver's
/// `CLIENT_FOUND_ROWS`): counting changed rows, it would read it as refused and lose the id.
pub fn a_renewal_that_changes_no_row_keeps_the_lease(
    server: Server,
    acquire: impl Fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
) {
    let _one = one_at_a_time();
    let url = server.url("ulid_flake_test");
    let namespace = unique_name("lease");
    let lease = acquire(&url, LeaseOptions::new(namespace.clone()).timing(timing())).unwrap();
    let sql = |sql: &str| server.client("ulid_flake_test", sql);
    let expiry = || -> i64 {
        sql(&format!(
            "SELECT expires_at_us FROM ulid_flake_leases WHERE namespace = '{namespace}'"
        ))
        .trim()
        .parse()
        .expect("the lease's row")
    };
    sql(&format!(
        "UPDATE ulid_flake_leases SET expires_at_us = expires_at_us + 3600000000 \
         WHERE namespace = '{namespace}'"
    ));
    let an_hour_ahead = expiry();
    // Several renewals (one every 400 ms), each matching the row and changing nothing.
    std::thread::sleep(timing().renew_every * 4);
    assert_eq!(expiry(), an_hour_ahead, "a renewal changed the row");
    let status = lease.status();
    assert_eq!(
        (status.state, status.losses, status.acquisitions),
        (LeaseState::Held, 0, 1),
        "{status:?}"
    );
    assert!(status.last_error.is_none(), "{status:?}");
    lease.generator().generate().unwrap();
    lease.release().unwrap();
}

/// `statement` with its parameters written into its SQL, for a command-line client.
fn inline(dialect: Dialect, statement: &Statement<'_>) -> String {
    let literal = |param: &Param<'_>| match *param {
        Param::BigInt(value) => value.to_string(),
        Param::SmallInt(value) => value.to_string(),
        Param::Text(text) => format!("'{}'", text.replace('\'', "''")),
    };
    let mut sql = statement.sql().to_owned();
    match dialect {
        // From the last placeholder down, so that `$1` does not match the start of `$10`.
        Dialect::Postgres => {
            for (index, param) in statement.params().iter().enumerate().rev() {
                sql = sql.replace(&format!("${}", index + 1), &literal(param));
            }
        }
        _ => {
            for param in statement.params() {
                sql = sql.replacen('?', &literal(param), 1);
            }
        }
    }
    sql
}

/// How an adapter's first acquisition meets the database refusing it for good
/// (`LeaseStore::is_refusal`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusals {
    /// It fails at once: the adapter reads the error's SQLSTATE.
    AtOnce,
    /// It retries until its acquire timeout, then fails with the same error: the adapter's
    /// errors carry no SQLSTATE.
    AfterTheTimeout,
}

/// The database refusing a lease for good ends its first acquisition with the database's
/// own message — a role with no right to create the missing lease table, a wrong password,
/// a missing database — at once or after the acquire timeout, as `refusals` says of the
/// adapter.
pub fn refusals_end_the_first_acquisition(
    server: Server,
    acquire: fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
    refusals: Refusals,
) {
    let database = server.scratch_database();
    // No table; on PostgreSQL (15 and later) a new role may not create one in `public`.
    let (url, no_right, wrong_password, no_database) = match server {
        Server::Postgres | Server::PgBouncer => (
            server.url_of_new_role(&database, "CONNECT", &format!("DATABASE {database}")),
            "permission denied for schema public",
            "password authentication failed",
            "database \"ulid_flake_no_such_database\" does not exist",
        ),
        Server::Mysql => (
            // A right to another table, which lets the user use the database.
            {
                server.client(&database, "CREATE TABLE other (x INT)");
                server.url_of_new_role(&database, "SELECT", "other")
            },
            "CREATE command denied",
            "Access denied for user",
            // Said of a database the user may not see, as of one that does not exist.
            "to database 'ulid_flake_no_such_database'",
        ),
    };
    let (credentials, address) = url.rsplit_once('@').expect("user:password@");
    let (user, _) = credentials.rsplit_once(':').expect("user:password");
    let wrong = format!("{user}:wrong@{address}");
    let missing = server.url("ulid_flake_no_such_database");
    for (url, expected) in [
        (url.as_str(), no_right),
        (wrong.as_str(), wrong_password),
        (missing.as_str(), no_database),
    ] {
        let messages = refused(url, acquire, refusals);
        assert!(
            messages.contains(expected),
            "expected a database error saying {expected:?}, found {messages}"
        );
    }
}

/// How long a refused first acquisition may take in the refusal scenarios.
const REFUSED_ACQUIRE_TIMEOUT: Duration = Duration::from_secs(4);

/// Acquires at `url`, which must fail with [`LeaseError::Database`] at once or after its
/// acquire timeout, as `refusals` says; returns the error's messages, its sources' after it
/// (the database's own, at whatever depth the driver's error keeps it).
fn refused(
    url: &str,
    acquire: fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
    refusals: Refusals,
) -> String {
    let options = LeaseOptions::new(unique_name("lease")).timing(LeaseTiming {
        acquire_timeout: REFUSED_ACQUIRE_TIMEOUT,
        ..timing()
    });
    let started = Instant::now();
    let error = acquire(url, options).unwrap_err();
    let took = started.elapsed();
    assert!(matches!(error, LeaseError::Database(_)), "{error}");
    match refusals {
        Refusals::AtOnce => assert!(took < Duration::from_secs(2), "took {took:?}"),
        // It gives up when its next retry would end past the timeout: up to one backoff
        // (`retry_max`) before it.
        Refusals::AfterTheTimeout => assert!(
            took >= REFUSED_ACQUIRE_TIMEOUT - timing().retry_max,
            "took {took:?}"
        ),
    }
    let mut messages = error.to_string();
    let mut cause = std::error::Error::source(&error);
    while let Some(error) = cause {
        messages += &format!(": {error}");
        cause = error.source();
    }
    messages
}

/// Two `ulid_flake_leases` tables on a PostgreSQL role's `search_path` (one in `public`, one
/// in a schema named after the role, `"$user"`, which the default `search_path` puts first):
/// a lease that works with one table fails with the second in place — at once or after its
/// acquire timeout, as `refusals` says — naming both schemas, rather than lease apart from
/// peers that find the one in `public`. A table in a schema off the `search_path` is no
/// concern.
pub fn two_lease_tables_fail_the_acquisition(
    server: Server,
    acquire: fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
    refusals: Refusals,
) {
    let database = server.scratch_database();
    let url = server.url(&database);
    let options = LeaseOptions::new(unique_name("lease")).timing(timing());
    acquire(&url, options).unwrap().release().unwrap();
    let create = Dialect::Postgres.create_table();
    let elsewhere = create
        .sql()
        .replace("ulid_flake_leases", "other.ulid_flake_leases");
    server.client(&database, &format!("CREATE SCHEMA other; {elsewhere}"));
    let options = LeaseOptions::new(unique_name("lease")).timing(timing());
    acquire(&url, options).unwrap().release().unwrap();
    let (_, user) = url.split_once("://").expect("a URL");
    let (user, _) = user.split_once(':').expect("user:password");
    let own = create
        .sql()
        .replace("ulid_flake_leases", &format!("{user}.ulid_flake_leases"));
    server.client(&database, &format!("CREATE SCHEMA {user}; {own}"));

    let messages = refused(&url, acquire, refusals);
    let expected = format!(
        "two lease tables: expected one ulid_flake_leases table in the schemas of the \
         search_path, found one in each of public, {user}"
    );
    assert!(
        messages.contains(&expected),
        "expected {expected:?}, found {messages}"
    );
}

/// The libfaketime library that fakes a replica's wall clock (`scripts/install-build-deps.sh`
/// installs it): the multi-threaded build, which a replica with a lease thread needs, in
/// Debian's directory for this machine's architecture.
fn faketime_library() -> PathBuf {
    let arch = std::env::consts::ARCH;
    PathBuf::from(format!(
        "/usr/lib/{arch}-linux-gnu/faketime/libfaketimeMT.so.1"
    ))
}

/// A replica's wall clock, offset from the machine's by the test (libfaketime, reading the
/// offset from a file at every call); its monotonic clocks (`CLOCK_BOOTTIME` included) are
/// left alone.
struct SteppedClock {
    file: PathBuf,
}

impl SteppedClock {
    fn new(dir: &Path, name: &str, offset: &str) -> Self {
        let library = faketime_library();
        assert!(
            library.exists(),
            "{} is missing: the clock-step scenarios need libfaketime \
             (scripts/install-build-deps.sh installs it)",
            library.display()
        );
        let clock = Self {
            file: dir.join(format!("{name}.faketime")),
        };
        clock.step(offset);
        clock
    }

    /// `command` with its wall clock read through this offset.
    fn apply(&self, mut command: Command) -> Command {
        command
            .env("LD_PRELOAD", faketime_library())
            .env("FAKETIME_TIMESTAMP_FILE", &self.file)
            .env("FAKETIME_NO_CACHE", "1")
            .env("FAKETIME_DONT_FAKE_MONOTONIC", "1");
        command
    }

    /// Sets the offset (`+3s`, `-3s`, `+0`), written whole: the library exits on a torn one.
    fn step(&self, offset: &str) {
        let next = self.file.with_extension("next");
        std::fs::write(&next, format!("{offset}\n")).unwrap();
        std::fs::rename(&next, &self.file).unwrap();
    }
}

/// Removes what libfaketime leaves in `/dev/shm` for process `pid`.
fn remove_faketime_files(pid: u32) {
    for name in [
        format!("faketime_shm_{pid}"),
        format!("sem.faketime_sem_{pid}"),
    ] {
        let _ = std::fs::remove_file(Path::new("/dev/shm").join(name));
    }
}

/// Wall clocks that step while the id passes from replica to replica (each replica's
/// monotonic clock untouched): the holder's clock steps 1 s ahead of the database's (less
/// than its gate has left, so it stamps IDs ahead until its next renewal notices), and it
/// hands the id to a second replica; that one hands it to a third whose clock is 3 s behind,
/// until the test sets it right. Each skewed replica notices at its next renewal (or its
/// take), refuses IDs with [`Error::ClockSkew`] while keeping the id, and resumes once its
/// clock agrees; the release's grace covers the IDs stamped ahead. No ID is issued twice, and
/// each holder's first ID comes after the previous holder's last.
pub fn clock_steps(server: Server, child: impl Fn() -> Command) {
    let _one = one_at_a_time();
    let database = server.scratch_database();
    let url = server.url(&database);
    let (namespace, dir) = (unique_name("lease"), scratch_dir());
    let sleep = |ms| std::thread::sleep(Duration::from_millis(ms));
    let ahead = SteppedClock::new(&dir, "ahead", "+0");
    let mut first = Replica::start(ahead.apply(child()), &url, &namespace, &dir, false);
    first.wait_held(1);
    sleep(300);
    let mut second = Replica::start(child(), &url, &namespace, &dir, true);
    sleep(300);
    ahead.step("+1s");
    // Handed on while its last IDs, stamped up to 1 s ahead before a renewal noticed, are
    // still ahead of the database's clock: the release's grace must cover them.
    sleep(600);
    let first_pid = first.child.id();
    let first = first.stop();
    remove_faketime_files(first_pid);
    second.wait_held(1);
    // Long enough for the second replica's clock to reach the first one's milliseconds.
    sleep(3_500);
    let behind = SteppedClock::new(&dir, "behind", "-3s");
    let mut third = Replica::start(behind.apply(child()), &url, &namespace, &dir, true);
    sleep(300);
    let second = second.stop();
    third.wait_held(1);
    sleep(800);
    behind.step("+0");
    sleep(1_500);
    let third_pid = third.child.id();
    let third = third.stop();
    remove_faketime_files(third_pid);

    assert_no_duplicates(&[&first, &second, &third]);
    let ms = |id: u64| id >> 20;
    for (earlier, later) in [(&first, &second), (&second, &third)] {
        let (Some(&last), Some(&next)) = (earlier.ids.last(), later.ids.first()) else {
            panic!("a replica issued no ID");
        };
        assert!(
            ms(last) < ms(next),
            "a holder's first ID (millisecond {}) is not after the previous holder's last ({})",
            ms(next),
            ms(last)
        );
    }
    // The skewed replicas kept the id: never lost, taken once.
    assert_eq!(
        (first.losses, first.acquisitions),
        (0, 1),
        "the replica 1 s ahead"
    );
    assert_eq!(
        (third.losses, third.acquisitions),
        (0, 1),
        "the replica 3 s behind"
    );
    assert!(
        first.skew_refusals > 0,
        "the clock 1 s ahead was never refused"
    );
    assert!(
        third.skew_refusals > 0,
        "the clock 3 s behind was never refused"
    );
    std::fs::remove_dir_all(dir).unwrap();
    println!(
        "{server:?}: clocks stepped +1 s and -3 s: {} IDs, none twice; {} and {} refused for \
         clock skew",
        first.ids.len() + second.ids.len() + third.ids.len(),
        first.skew_refusals,
        third.skew_refusals
    );
}

/// The server paused with `SIGSTOP` for longer than the lease's validity while the holder
/// generates and another replica waits for its id: the holder stops issuing before its
/// deadline (it reports a loss), one of the two holds the id afterwards, and no ID is issued
/// twice.
pub fn stall_server(server: Server, child: impl Fn() -> Command) -> Report {
    let _one = one_at_a_time();
    let database = server.scratch_database();
    let (namespace, dir) = (unique_name("lease"), scratch_dir());
    let url = server.url(&database);
    let mut holder = Replica::start(child(), &url, &namespace, &dir, false);
    holder.wait_held(1);
    let other = Replica::start(child(), &url, &namespace, &dir, true);
    std::thread::sleep(Duration::from_millis(500));

    server.stall(Duration::from_millis(2_500));
    std::thread::sleep(Duration::from_secs(3));

    let other = other.stop();
    let report = holder.stop();
    assert_no_duplicates(&[&report, &other]);
    assert_separated(&report, &other, 199);
    assert!(
        report.losses >= 1,
        "the holder did not notice the stall: {report:?}"
    );
    assert!(!report.ids.is_empty());
    std::fs::remove_dir_all(dir).unwrap();
    report
}

/// Two leases on ids `3..=4` get one each; a third is refused with a message naming the
/// namespace and range; once one is released, the id is free again after the margin, which
/// a third told to wait for a free id waits out.
pub fn ids_in_use_are_refused(
    server: Server,
    acquire: impl Fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
) {
    let _one = one_at_a_time();
    let url = server.url("ulid_flake_test");
    let namespace = unique_name("lease");
    let options = || {
        LeaseOptions::new(namespace.clone())
            .ids(3..=4)
            .timing(timing())
    };
    let first = acquire(&url, options()).unwrap();
    let second = acquire(&url, options()).unwrap();
    let mut held = [
        first.status().scalability_id,
        second.status().scalability_id,
    ];
    held.sort_unstable();
    assert_eq!(held, [Some(3), Some(4)]);

    let asked = Instant::now();
    let refused = acquire(&url, options()).unwrap_err();
    // At once: a connection, its checks and a take of each id, no retry and no wait for a
    // free id (its acquire timeout is 20 s; 5 s leaves a busy machine room).
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "refused after {:?}",
        asked.elapsed()
    );
    assert!(
        matches!(&refused, LeaseError::AllTaken { ids, .. } if *ids == (3..=4)),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        format!(
            "all scalability ids 3..=4 of lease namespace {namespace:?} are taken: expected a \
             free id at once (LeaseTiming::wait_for_free_id is zero), found every one leased \
             by another holder (or given up too recently for this lease's later epoch or larger \
             margin)"
        )
    );

    let freed = first.status().scalability_id;
    first.release().unwrap();
    let started = Instant::now();
    let waiting = LeaseTiming {
        wait_for_free_id: Duration::from_secs(2),
        ..timing()
    };
    let third = acquire(&url, options().timing(waiting)).unwrap();
    // Not before the 200 ms margin: the released holder's clock may be behind.
    let waited = started.elapsed();
    assert!(waited >= Duration::from_millis(150), "{waited:?}");
    assert_eq!(third.status().scalability_id, freed);
    assert_eq!(
        third.generator().generate().unwrap().scalability_id(),
        freed.unwrap()
    );
}

/// The `mariadb` command-line client, connected as the `mysql://` `url` says.
fn mariadb(url: &str) -> Command {
    let rest = url.strip_prefix("mysql://").expect("a mysql:// URL");
    let (credentials, rest) = rest.split_once('@').expect("user:password@");
    let (user, password) = credentials.split_once(':').expect("user:password");
    let (address, database) = rest.split_once('/').expect("host:port/database");
    let (host, port) = address.split_once(':').expect("host:port");
    let mut command = Command::new("mariadb");
    command
        .args([
            "--no-defaults",
            "-N",
            "-B",
            "-h",
            host,
            "-P",
            port,
            "-u",
            user,
        ])
        .arg(format!("-p{password}"))
        .arg(database);
    command
}

/// A client's standard output, or its complaint as the error.
fn client_output(output: std::io::Result<std::process::Output>) -> Result<String, String> {
    let output = output.expect("the database client runs");
    if output.status.success() {
        Ok(String::from_utf8(output.stdout).expect("UTF-8"))
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    }
}

/// Two stores of one database (two adapters) lease from one table: while one holds the only
/// id of a range, the other is refused it with `AllTaken`, and the other way round once the
/// first released it; each issues IDs under the id it holds.
pub fn two_stores_exclude_each_other(
    server: Server,
    first: impl Fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
    second: impl Fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
) {
    let _one = one_at_a_time();
    let url = server.url("ulid_flake_test");
    let namespace = unique_name("lease");
    let options = || {
        LeaseOptions::new(namespace.clone())
            .ids(5..=5)
            .timing(timing())
    };
    let refused =
        |acquire: &dyn Fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>| {
            let error = acquire(&url, options()).unwrap_err();
            assert!(
                matches!(&error, LeaseError::AllTaken { ids, .. } if *ids == (5..=5)),
                "{error:?}"
            );
        };

    let held = first(&url, options()).unwrap();
    assert_eq!(held.generator().generate().unwrap().scalability_id(), 5);
    refused(&second);
    held.release().unwrap();
    // Free once the released holder's margin has passed.
    let (held, _) = acquire_once_free(&second, &url, options, Duration::from_secs(5));
    assert_eq!(held.generator().generate().unwrap().scalability_id(), 5);
    refused(&first);
    held.release().unwrap();
}

/// Acquires with `options` until the id is free, for at most `limit`; returns the lease and
/// how long that took.
fn acquire_once_free(
    acquire: impl Fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
    url: &str,
    options: impl Fn() -> LeaseOptions,
    limit: Duration,
) -> (ScalabilityIdLease, Duration) {
    let started = Instant::now();
    loop {
        match acquire(url, options()) {
            Ok(lease) => return (lease, started.elapsed()),
            Err(LeaseError::AllTaken { .. }) => {
                assert!(started.elapsed() < limit, "not free within {limit:?}");
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(error) => panic!("{error}"),
        }
    }
}

/// Generates IDs for `duration`; returns the last.
fn generate_for(lease: &ScalabilityIdLease, duration: Duration) -> UlidFlake {
    let started = Instant::now();
    let mut last = lease.generator().generate().unwrap();
    while started.elapsed() < duration {
        last = lease.generator().generate().unwrap();
    }
    last
}

/// An id handed from one holder to the next across epochs and margins: each successor's IDs
/// follow its predecessor's. The successor of a holder with the default epoch and the tests'
/// 200 ms margin has an epoch 500 ms later (its IDs stamp each moment 500 ms lower) and a
/// margin of 600 ms (its clock may be 200 ms further behind the database's): it takes the id
/// 500 ms + 400 ms / 2 after the release's grace, not at its end. The third, back to the
/// first's epoch and margin, waits out the second's grace (its 600 ms margin) alone.
pub fn later_epochs_and_larger_margins_wait_until_their_ids_follow(
    server: Server,
    acquire: impl Fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
) {
    let _one = one_at_a_time();
    let url = server.url("ulid_flake_test");
    let namespace = unique_name("lease");
    let later = Epoch::from_unix_ms(Epoch::DEFAULT.unix_ms() + 500).unwrap();
    let wide = LeaseTiming {
        margin: Duration::from_millis(600),
        ..timing()
    };
    let options = |epoch: Epoch, timing: LeaseTiming| {
        let namespace = namespace.clone();
        move || {
            LeaseOptions::new(namespace.clone())
                .ids(CONTESTED_ID..=CONTESTED_ID)
                .timing(timing)
                .generator(Generator::builder().epoch(epoch))
        }
    };
    let (first, _) = acquire_once_free(
        &acquire,
        &url,
        options(Epoch::DEFAULT, timing()),
        Duration::ZERO,
    );
    let first_last = generate_for(&first, Duration::from_millis(50));
    first.release().unwrap();

    let (second, waited) =
        acquire_once_free(&acquire, &url, options(later, wide), Duration::from_secs(5));
    let second_first = second.generator().generate().unwrap();
    assert!(
        first_last < second_first,
        "{first_last:?}, then {second_first:?}"
    );
    // 200 ms + 500 ms + 200 ms after the database ran the release, which was up to the
    // release's answer and the lease thread's end (here 100 ms) before it returned.
    assert!(waited >= Duration::from_millis(800), "{waited:?}");
    let second_last = generate_for(&second, Duration::from_millis(50));
    second.release().unwrap();

    let (third, waited) = acquire_once_free(
        &acquire,
        &url,
        options(Epoch::DEFAULT, timing()),
        Duration::from_secs(5),
    );
    assert!(
        (Duration::from_millis(500)..Duration::from_millis(1_000)).contains(&waited),
        "{waited:?}"
    );
    let third_first = third.generator().generate().unwrap();
    third.release().unwrap();
    assert!(
        second_last < third_first,
        "{second_last:?}, then {third_first:?}"
    );
}

/// How a contender stalls inside its take, after the row's insert and before the take's
/// update (the statement that carries `SET holder`), for longer than the validity.
pub enum Stall {
    /// Its connection frozen by a proxy, the update held back.
    Frozen,
    /// Its process (a replica: the adapter's test binary) paused with `SIGSTOP` once the
    /// update is on its way, so that nothing after it (a commit) is sent.
    Paused(Command),
}

/// A contender stalled inside its take (see [`Stall`]) while it asks for the id a holder has.
/// The holder must not notice: it stays `held`, issues IDs without [`Error::LeaseNotValid`]
/// all the while, and its lease is renewed on time (its validity always more than 600 ms
/// ahead). On MariaDB no transaction stays open on the server across the stall (each
/// statement stands alone); on PostgreSQL an adapter's transaction around the statement may,
/// and locks nothing the holder needs.
pub fn slow_contender(
    server: Server,
    acquire: fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>,
    stall: Stall,
) {
    let _one = one_at_a_time();
    let database = server.scratch_database();
    let url = server.url(&database);
    let namespace = unique_name("lease");
    let options = |timing| {
        LeaseOptions::new(namespace.clone())
            .ids(CONTESTED_ID..=CONTESTED_ID)
            .timing(timing)
    };
    let holder = acquire(&url, options(timing())).unwrap();
    let stalled_for = Duration::from_millis(2_500);
    let proxy = Proxy::start(server.address());
    let contender_url = proxy.url(&url);
    let (contender, replica, dir) = match stall {
        Stall::Frozen => {
            proxy.freeze_at(b"SET holder", stalled_for);
            let contender_options = options(LeaseTiming {
                acquire_timeout: Duration::from_secs(2),
                ..timing()
            });
            let contender = std::thread::spawn(move || acquire(&contender_url, contender_options));
            (Some(contender), None, None)
        }
        Stall::Paused(child) => {
            // Held back just long enough to stop the process before it sends what follows.
            proxy.freeze_at(b"SET holder", Duration::from_millis(200));
            let dir = scratch_dir();
            let replica = Replica::start(child, &contender_url, &namespace, &dir, true);
            (None, Some(replica), Some(dir))
        }
    };

    let started = Instant::now();
    while proxy.frozen_since().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the contender never took"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let watcher = std::thread::scope(|scope| {
        let watch = scope.spawn(|| watch_holder(server, &database, &holder, stalled_for));
        if let Some(replica) = &replica {
            pause(&[replica.child.id()], stalled_for);
        }
        watch.join().unwrap()
    });
    let (issued, open_transactions) = watcher;
    if let Some(contender) = contender {
        let refused = contender.join().unwrap().unwrap_err();
        assert!(matches!(refused, LeaseError::AllTaken { .. }), "{refused}");
    }
    if let Some(replica) = replica {
        let report = replica.stop();
        assert_eq!(report.acquisitions, 0, "the contender took the held id");
        std::fs::remove_dir_all(dir.unwrap()).unwrap();
    }
    assert_eq!(holder.status().losses, 0);
    if server == Server::Mysql {
        // Each statement stands alone: the stall holds no transaction, so no InnoDB lock.
        assert!(
            open_transactions.iter().all(|&open| open == 0),
            "a transaction stayed open across the stall: {open_transactions:?}"
        );
    }
    // On PostgreSQL an adapter may run the statement in a transaction of its own (sqlx and
    // Diesel do, for poolers; tokio-postgres sends it in one round trip, without one): either
    // way the stalled update locks no held row, and the holder's checks above passed.
    let open = open_transactions.iter().filter(|&&open| open > 0).count();
    println!(
        "{server:?}: the holder stayed held and issued {issued} IDs while a contender stalled \
         {} ms inside its take ({open} of {} checks found a transaction open)",
        stalled_for.as_millis(),
        open_transactions.len()
    );
}

/// Checks the holder every 20 ms for `duration`: held, renewed on time, issuing IDs. Returns
/// how many it issued and the open transactions on `database` at each check.
fn watch_holder(
    server: Server,
    database: &str,
    holder: &ScalabilityIdLease,
    duration: Duration,
) -> (u64, Vec<usize>) {
    let started = Instant::now();
    let mut issued = 0_u64;
    let mut open_transactions = Vec::new();
    while started.elapsed() < duration {
        let status = holder.status();
        assert_eq!(status.state, LeaseState::Held, "{status:?}");
        let until = status.valid_until.expect("a held lease has a deadline");
        // Renewed every 400 ms for 2 s, less the margin: the deadline stays > 1 s ahead.
        let ahead = until.duration_since(SystemTime::now()).unwrap_or_default();
        assert!(
            ahead > Duration::from_millis(600),
            "renewal late: {ahead:?} left, {status:?}"
        );
        for _ in 0..IDS_PER_MS {
            match holder.generator().try_generate() {
                Ok(_) => issued += 1,
                Err(Error::Overflow { .. }) => break,
                Err(error) => panic!("the holder stopped issuing: {error}"),
            }
        }
        open_transactions.push(server.open_transactions(database));
        std::thread::sleep(Duration::from_millis(20));
    }
    (issued, open_transactions)
}

/// The lease tests of an adapter's test binary, in its module `lease_faults` (the test command
/// runs them as a step of their own, by that name, in lanes of a server picked by the start
/// of each test's name: `postgres_`, `pgbouncer_` or `mysql_`): `acquire` is how the adapter leases
/// (`fn(&str, LeaseOptions) -> Result<ScalabilityIdLease, LeaseError>`, the URL telling the
/// server), and `refusals` how its first acquisition meets a refusal (a [`Refusals`] variant).
/// Expands to the replica (`lease_child`, ignored) and one test per scenario and server: on
/// every server, or on those listed after a `;` (`postgres` — directly and through PgBouncer —
/// and `mysql`).
#[macro_export]
macro_rules! lease_tests {
    ($acquire:path, $refusals:ident) => {
        $crate::lease_tests!($acquire, $refusals; postgres, mysql);
    };
    ($acquire:path, $refusals:ident; $($server:ident),+) => {
        /// Not a test of its own: the replica the scenarios run (hence ignored).
        #[test]
        #[ignore = "run in a child process by the lease tests"]
        fn lease_child() {
            $crate::lease::child_main($acquire);
        }

        fn child() -> ::std::process::Command {
            let mut command = ::std::process::Command::new(::std::env::current_exe().unwrap());
            command.args([
                "--exact",
                "lease_faults::lease_child",
                "--ignored",
                "--nocapture",
            ]);
            command
        }

        $($crate::lease_tests!(@$server $acquire, $refusals);)+
    };
    (@postgres $acquire:path, $refusals:ident) => {
        #[test]
        fn postgres_survives_killed_connections_and_partitions_without_duplicates() {
            $crate::lease::kill_partition_and_take($crate::lease::Server::Postgres, child);
        }

        #[test]
        fn pgbouncer_survives_killed_connections_and_partitions_without_duplicates() {
            $crate::lease::kill_partition_and_take($crate::lease::Server::PgBouncer, child);
        }

        #[test]
        fn postgres_stalled_fails_closed_without_duplicates() {
            $crate::lease::stall_server($crate::lease::Server::Postgres, child);
        }

        #[test]
        fn postgres_holder_keeps_its_lease_through_a_frozen_contender() {
            let stall = $crate::lease::Stall::Frozen;
            $crate::lease::slow_contender($crate::lease::Server::Postgres, $acquire, stall);
        }

        #[test]
        fn postgres_holder_keeps_its_lease_through_a_paused_contender() {
            let stall = $crate::lease::Stall::Paused(child());
            $crate::lease::slow_contender($crate::lease::Server::Postgres, $acquire, stall);
        }

        #[test]
        fn postgres_clock_steps_fail_closed_without_duplicates() {
            $crate::lease::clock_steps($crate::lease::Server::Postgres, child);
        }

        #[test]
        fn postgres_leases_with_only_select_insert_update() {
            let server = $crate::lease::Server::Postgres;
            $crate::lease::leases_with_only_select_insert_update(server, $acquire);
        }

        #[test]
        fn postgres_refusals_end_the_first_acquisition() {
            let refusals = $crate::lease::Refusals::$refusals;
            let server = $crate::lease::Server::Postgres;
            $crate::lease::refusals_end_the_first_acquisition(server, $acquire, refusals);
        }

        #[test]
        fn postgres_two_lease_tables_fail_the_acquisition() {
            let refusals = $crate::lease::Refusals::$refusals;
            let server = $crate::lease::Server::Postgres;
            $crate::lease::two_lease_tables_fail_the_acquisition(server, $acquire, refusals);
        }

        #[test]
        fn postgres_later_epochs_and_larger_margins_wait_until_their_ids_follow() {
            let server = $crate::lease::Server::Postgres;
            $crate::lease::later_epochs_and_larger_margins_wait_until_their_ids_follow(server, $acquire);
        }

        #[test]
        fn postgres_a_renewal_that_changes_no_row_keeps_the_lease() {
            let server = $crate::lease::Server::Postgres;
            $crate::lease::a_renewal_that_changes_no_row_keeps_the_lease(server, $acquire);
        }

        #[test]
        fn postgres_refuses_ids_in_use() {
            $crate::lease::ids_in_use_are_refused($crate::lease::Server::Postgres, $acquire);
        }

        #[test]
        fn pgbouncer_refuses_ids_in_use() {
            $crate::lease::ids_in_use_are_refused($crate::lease::Server::PgBouncer, $acquire);
        }
    };
    (@mysql $acquire:path, $refusals:ident) => {
        #[test]
        fn mysql_survives_killed_connections_and_partitions_without_duplicates() {
            $crate::lease::kill_partition_and_take($crate::lease::Server::Mysql, child);
        }

        #[test]
        fn mysql_stalled_fails_closed_without_duplicates() {
            $crate::lease::stall_server($crate::lease::Server::Mysql, child);
        }

        #[test]
        fn mysql_holder_keeps_its_lease_through_a_frozen_contender() {
            let stall = $crate::lease::Stall::Frozen;
            $crate::lease::slow_contender($crate::lease::Server::Mysql, $acquire, stall);
        }

        #[test]
        fn mysql_holder_keeps_its_lease_through_a_paused_contender() {
            let stall = $crate::lease::Stall::Paused(child());
            $crate::lease::slow_contender($crate::lease::Server::Mysql, $acquire, stall);
        }

        #[test]
        fn mysql_clock_steps_fail_closed_without_duplicates() {
            $crate::lease::clock_steps($crate::lease::Server::Mysql, child);
        }

        #[test]
        fn mysql_leases_with_only_select_insert_update() {
            let server = $crate::lease::Server::Mysql;
            $crate::lease::leases_with_only_select_insert_update(server, $acquire);
        }

        #[test]
        fn mysql_refusals_end_the_first_acquisition() {
            let refusals = $crate::lease::Refusals::$refusals;
            let server = $crate::lease::Server::Mysql;
            $crate::lease::refusals_end_the_first_acquisition(server, $acquire, refusals);
        }

        #[test]
        fn mysql_later_epochs_and_larger_margins_wait_until_their_ids_follow() {
            let server = $crate::lease::Server::Mysql;
            $crate::lease::later_epochs_and_larger_margins_wait_until_their_ids_follow(server, $acquire);
        }

        #[test]
        fn mysql_a_renewal_that_changes_no_row_keeps_the_lease() {
            let server = $crate::lease::Server::Mysql;
            $crate::lease::a_renewal_that_changes_no_row_keeps_the_lease(server, $acquire);
        }

        #[test]
        fn mysql_refuses_ids_in_use() {
            $crate::lease::ids_in_use_are_refused($crate::lease::Server::Mysql, $acquire);
        }
    };
}

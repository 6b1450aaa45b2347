//! `ulid-flake`: generate, inspect and convert Ulid-Flake IDs from the command line, and print
//! the SQL of the database helper functions.
//!
//! A Ulid-Flake is a 64-bit, time-sortable ID: 43 bits of milliseconds since an epoch above
//! 20 bits of randomness (or 15 bits and a 5-bit scalability id), written as 13 characters of
//! Crockford's Base32. This binary is a thin layer over `ulid-flake-core`: the command line
//! is defined here, and the work is done in the modules.
//!
//! Exit status: 0 on success; 1 when an input was invalid (the others are still processed)
//! or on an I/O or clock error; 2 for bad arguments. A closed output pipe
//! (`ulid-flake generate -n 10000000 | head -1`) ends the run quietly with 0.

mod generate;
mod input;
mod output;
mod stream;

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{Args, CommandFactory, Parser, Subcommand};
use ulid_flake_core::Epoch;

use crate::input::Form;
use crate::output::{Format, Inspection};

/// The examples of the top-level `--help`.
const EXAMPLES: &str = "\
Examples:
  ulid-flake generate                               One new ID, e.g. 00F5PEXFDQCGR
  ulid-flake generate -n 1000 --format integer      A thousand, as BIGINT values
  ulid-flake generate --scalability-id 3            For replica 3 of up to 32
  ulid-flake inspect 00CMXB6TAK4SA                  Its time, randomness and all its forms
  ulid-flake generate --prefix user                 user_00F5PEXFDQCGR, for a PrefixedId<User>
  ulid-flake convert 00F5MFHSEYXCM --to hex         0x3CB47C72EF7594
  ulid-flake generate -n 5 | ulid-flake convert --to integer
  ulid-flake sql postgres > up.sql                  The SQL helper functions, for a migration

Exit status: 0 on success, 1 if an input was invalid or on an I/O error, 2 for bad arguments.";

/// The examples of `generate --help`.
const GENERATE_EXAMPLES: &str = "\
Examples:
  ulid-flake generate
      00F5PEXFDQCGR
  ulid-flake generate -n 3 --format integer
      17089122411459096
      17089122411459163
      17089122411459214
  ulid-flake generate --format json
      {\"id\":\"00CMXB6TAK4SA\",\"integer\":14246757444195114}
  ulid-flake generate -n 1000000 --scalability-id 7 > ids.txt
  ulid-flake generate --epoch 1735689600000     # timestamps from 2025-01-01
  ulid-flake generate --prefix user
      user_00F5PEXFDQCGR

A millisecond holds about 4,100 IDs (130 with --scalability-id) with the default entropy, and
about one with the largest (--entropy-bytes 3, or 2 with --scalability-id); when it is full,
generation waits for the next one, so large counts take a while but never fail.";

/// The examples of `inspect --help`.
const INSPECT_EXAMPLES: &str = "\
Examples:
  ulid-flake inspect 00CMXB6TAK4SA
  ulid-flake inspect 14246757444195114 0x329D59B4A9932A
  ulid-flake inspect --json 00cmxb6tak4sa
  ulid-flake inspect user_02MWMFBHB1YJ2         # a prefixed ID: its prefix is shown too
  ulid-flake generate -n 3 | ulid-flake inspect --json
  ulid-flake inspect --epoch 0 00CMXB6TAK4SA    # an ID made with the Unix epoch

The date-time is only right with the epoch the ID was made with: an ID does not store it.";

/// The examples of `convert --help`.
const CONVERT_EXAMPLES: &str = "\
Examples:
  ulid-flake convert 00F5MFHSEYXCM --to integer           17086945199879572
  ulid-flake convert 17086945199879572 --to hex           0x3CB47C72EF7594
  ulid-flake convert 0x3CB47C72EF7594 --to base32         00F5MFHSEYXCM
  ulid-flake convert --from integer 1234567890123 --to base32
  ulid-flake convert --to integer < ids.txt > integers.txt
  ulid-flake convert 95583272615082562 --to base32 --prefix user   user_02MWMFBHB1YJ2

With --from auto, exactly 13 characters are always Base32, even if they are all digits
(the decimal integer of any ID made 2.6 hours or more after the epoch has more digits), with
a warning on standard error when they are also 13 digits or 0x and 11 hex digits.";

/// The examples of `sql --help`.
const SQL_EXAMPLES: &str = "\
Examples:
  ulid-flake sql postgres > migrations/2026-01-01-000000_ulid_flake/up.sql
  ulid-flake sql postgres | psql -v ON_ERROR_STOP=1 DATABASE
  (ulid-flake sql mysql; echo '$$') | mariadb --delimiter='$$' DATABASE

The same SQL as ulid-flake-sqlx's migrations and ulid-flake-diesel's create_*_functions, in
the latter's order: the helper functions (ulid_flake_to_text, ulid_flake_from_text,
ulid_flake_to_timestamp), those for prefixed IDs, then the database's own generator
(ulid_flake_generate) and its tables. Running it again replaces the functions and keeps the
tables. The generator's part of `sql mysql` is MariaDB's (10.10 or later): MySQL 8 runs the
helper functions but not the generator.";

/// Generate, inspect and convert Ulid-Flake IDs: 64-bit, time-sortable, 13 characters of
/// Crockford Base32; print the SQL of the database helper functions.
#[derive(Debug, Parser)]
#[command(name = "ulid-flake", version, after_help = EXAMPLES)]
struct Cli {
    /// What to do.
    #[command(subcommand)]
    command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
enum Command {
    /// Generate new IDs, in order, one per line
    #[command(after_help = GENERATE_EXAMPLES)]
    Generate(GenerateArgs),
    /// Show everything an ID holds: its forms, its time, and its low bits as each layout reads
    /// them (an ID does not record its layout)
    #[command(after_help = INSPECT_EXAMPLES)]
    Inspect(InspectArgs),
    /// Convert IDs between Base32, integer and hex
    #[command(after_help = CONVERT_EXAMPLES)]
    Convert(ConvertArgs),
    /// Print the SQL that creates the helper functions and the database's own generator, in
    /// the order ulid-flake-diesel runs it: for a migration of your own
    #[command(after_help = SQL_EXAMPLES)]
    Sql(SqlArgs),
}

/// The options of `sql`.
#[derive(Debug, Args)]
struct SqlArgs {
    /// The database the SQL is for
    #[arg(value_enum)]
    database: Database,
}

/// The databases `sql` writes for.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Database {
    /// PostgreSQL
    Postgres,
    /// MariaDB (the helper functions also on MySQL; the generator MariaDB's alone)
    #[value(alias = "mariadb")]
    Mysql,
    /// Not listed: accepted only to say why there is no SQL for it, where clap would suggest
    /// `mysql` as the value meant.
    #[value(hide = true, alias = "sqlite3")]
    Sqlite,
}

impl Database {
    /// The SQL, in the order to run it.
    fn sql(self) -> [&'static str; 3] {
        match self {
            Self::Postgres => ulid_flake_core::sql::POSTGRES_INSTALL,
            Self::Mysql => ulid_flake_core::sql::MYSQL_INSTALL,
            Self::Sqlite => usage_error(
                "sql",
                ErrorKind::InvalidValue,
                "no SQL for SQLite: expected postgres or mysql, found SQLite, which defines no \
                 functions in SQL (read and write the IDs as BIGINT, and their text in Rust or \
                 with `ulid-flake convert`)",
            ),
        }
    }
}

/// `--epoch`, of `generate` and `inspect`.
#[derive(Debug, Args)]
struct EpochArg {
    /// The epoch the IDs are made with, in milliseconds since 1970-01-01 (1704067200000 is
    /// 2024-01-01T00:00:00Z)
    // A negative value is a bad epoch, not an unknown flag.
    #[arg(
        long = "epoch",
        value_name = "UNIX_MS",
        default_value = "1704067200000",
        value_parser = parse_epoch,
        allow_negative_numbers = true
    )]
    value: Epoch,
}

/// The options of `generate`.
#[derive(Debug, Args)]
struct GenerateArgs {
    /// How many IDs to generate
    #[arg(short = 'n', long, value_name = "N", default_value_t = 1)]
    count: u64,
    /// Use the scalable layout with this scalability id (0..=31), one per replica; without
    /// it, the stand-alone layout
    #[arg(long, value_name = "ID")]
    scalability_id: Option<u64>,
    /// The entropy size in bytes, bounding the random step between IDs of one millisecond:
    /// 1..=3 stand-alone, 1..=2 scalable. The largest leaves about one ID a millisecond
    #[arg(long, value_name = "N", default_value_t = 1)]
    entropy_bytes: u8,
    #[command(flatten)]
    epoch: EpochArg,
    /// The form of each line
    #[arg(long, visible_alias = "to", value_enum, default_value_t = Format::Base32)]
    format: Format,
    /// Write each ID after this entity prefix and an underscore, as prefixed IDs of
    /// ulid-flake-core are written: a lowercase letter, then lowercase letters and digits, at
    /// most 31; base32 and json formats only
    #[arg(long, value_name = "PREFIX", value_parser = parse_prefix)]
    prefix: Option<String>,
}

/// The options of `inspect`.
#[derive(Debug, Args)]
struct InspectArgs {
    /// The IDs (Base32, optionally after an entity prefix such as user_, decimal or 0x-hex);
    /// read from standard input, one per line, when none are given
    #[arg(value_name = "ID", allow_negative_numbers = true)]
    ids: Vec<OsString>,
    /// One JSON object per line instead of a table
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    epoch: EpochArg,
    /// The form of the inputs
    #[arg(long, value_enum, default_value_t = Form::Auto)]
    from: Form,
}

/// The options of `convert`.
#[derive(Debug, Args)]
struct ConvertArgs {
    /// The IDs; read from standard input, one per line, when none are given
    #[arg(value_name = "ID", allow_negative_numbers = true)]
    ids: Vec<OsString>,
    /// The form of the inputs
    #[arg(long, value_enum, default_value_t = Form::Auto)]
    from: Form,
    /// The form of the outputs
    #[arg(long, visible_alias = "format", value_enum)]
    to: Format,
    /// Write each ID after this entity prefix and an underscore, as `generate --prefix` does;
    /// base32 and json formats only. An input with another prefix is an error; without this
    /// option, an input's own prefix is kept in the base32 and json formats
    #[arg(long, value_name = "PREFIX", value_parser = parse_prefix)]
    prefix: Option<String>,
}

/// Parses `--epoch`, with the library's range check and message.
fn parse_epoch(text: &str) -> Result<Epoch, String> {
    let unix_ms = text
        .parse::<u64>()
        .map_err(|_| "expected milliseconds since 1970-01-01, a non-negative integer".to_owned())?;
    Epoch::from_unix_ms(unix_ms).map_err(|error| error.to_string())
}

/// Parses `--prefix`: the prefixes `ulid_flake_core::Prefix` allows (the core's rule), so that
/// the IDs parse as `PrefixedId`s.
fn parse_prefix(text: &str) -> Result<String, String> {
    if ulid_flake_core::is_valid_prefix(text) {
        Ok(text.to_owned())
    } else {
        Err(
            "expected a lowercase ASCII letter, then lowercase letters and digits, at most 31 \
             characters (the `_` is added)"
                .to_owned(),
        )
    }
}

/// Exits, as a usage error of `subcommand`, when `--prefix` comes with a format that has no
/// text.
fn check_prefix_format(subcommand: &str, prefix: Option<&str>, format: Format) {
    if prefix.is_some() && matches!(format, Format::Integer | Format::Hex) {
        usage_error(
            subcommand,
            ErrorKind::ArgumentConflict,
            "--prefix applies to the base32 and json formats only: the integer and hex forms \
             carry no prefix",
        );
    }
}

/// Exits on a bad combination of a subcommand's options, reported like clap's own argument
/// errors (with that subcommand's usage), with status 2.
fn usage_error(subcommand: &str, kind: ErrorKind, message: impl std::fmt::Display) -> ! {
    let mut command = Cli::command();
    command.build();
    command
        .find_subcommand_mut(subcommand)
        .expect("the subcommand is defined")
        .error(kind, message)
        .exit()
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // One lock and one large buffer for the whole run: locking and writing per line would
    // dominate the cost of generating millions of IDs.
    let mut out = BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let result = match cli.command {
        Command::Generate(args) => {
            check_prefix_format("generate", args.prefix.as_deref(), args.format);
            let generator = generate::build_generator(
                args.epoch.value,
                args.scalability_id,
                args.entropy_bytes,
            )
            .unwrap_or_else(|error| usage_error("generate", ErrorKind::ValueValidation, error));
            let prefix = args.prefix.as_deref();
            generate::run(&generator, args.count, args.format, prefix, &mut out).map(|()| 0)
        }
        Command::Inspect(args) => {
            let mut first = true;
            stream::each_id(&args.ids, args.from, None, &mut out, |out, prefix, id| {
                let inspection = Inspection::new(id, args.epoch.value).with_prefix(prefix);
                if args.json {
                    return inspection.write_json(out);
                }
                // A blank line between tables.
                if !std::mem::take(&mut first) {
                    out.write_all(b"\n")?;
                }
                inspection.write_table(out)
            })
        }
        Command::Convert(args) => {
            check_prefix_format("convert", args.prefix.as_deref(), args.to);
            let prefix = args.prefix.as_deref();
            // An input's own prefix is kept where the output form has room for one: converting
            // changes how an ID is written, not whose it is.
            stream::each_id(&args.ids, args.from, prefix, &mut out, |out, found, id| {
                output::write_prefixed_id(out, prefix.or(found), id, args.to)
            })
        }
        Command::Sql(args) => args
            .database
            .sql()
            .iter()
            .try_for_each(|sql| writeln!(out, "{}", sql.trim_end()))
            .map(|()| 0),
    };
    match result.and_then(|failures| out.flush().map(|()| failures)) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::FAILURE,
        // The reader went away (`| head`): it has all it wanted, so this is success. Rust
        // ignores SIGPIPE, so the closed pipe arrives here as an error instead of a signal.
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("ulid-flake: {error}");
            ExitCode::FAILURE
        }
    }
}

//! `ulid-flake generate`: new IDs from one generator, in order.

use std::io::{self, Write};

use ulid_flake_core::generator::{Clock, Generator, Layout, SystemClock};
use ulid_flake_core::{Epoch, Error};

use crate::output::{self, Format};

/// The generator the options describe, validated by the library's builder (so the limits and
/// the messages are the library's: entropy 1..=3 bytes stand-alone, 1..=2 scalable), with an
/// epoch the clock has reached.
///
/// # Errors
///
/// A usage error's message: the option at fault, then what was wrong with it.
pub(crate) fn build_generator(
    epoch: Epoch,
    scalability_id: Option<u64>,
    entropy_bytes: u8,
) -> Result<Generator, String> {
    let layout = match scalability_id {
        None => Layout::StandAlone,
        // Taken as a u64 so that any number gets the library's message, not clap's.
        Some(found) => Layout::Scalable {
            scalability_id: u8::try_from(found).map_err(|_| {
                format!(
                    "--scalability-id: {}",
                    Error::InvalidScalabilityId { found }
                )
            })?,
        },
    };
    let generator = Generator::builder()
        .epoch(epoch)
        .layout(layout)
        .entropy_bytes(entropy_bytes)
        .build()
        .map_err(|error| match error {
            Error::InvalidScalabilityId { .. } => format!("--scalability-id: {error}"),
            Error::InvalidEntropySize { .. } => format!("--entropy-bytes: {error}"),
            error => error.to_string(),
        })?;
    // A bad argument, not a failure of every ID to come; read from the clock the generator
    // reads.
    let now = i128::from(SystemClock.unix_ms());
    let epoch = i128::from(epoch.unix_ms());
    if epoch > now {
        return Err(format!(
            "--epoch {epoch}: expected a moment the clock has reached, found one {} ms after \
             now ({now})",
            epoch - now
        ));
    }
    Ok(generator)
}

/// Writes `count` new IDs to `out`, each after `prefix` and `_` when there is one.
///
/// `generate` waits for the next millisecond whenever the current one is full
/// (about every 4,097 IDs stand-alone, 129 scalable), so a large count is paced by the clock
/// but never fails for it.
///
/// # Errors
///
/// A write error, or a clock the generator cannot use (before the epoch, or moved backwards
/// beyond its allowance) as an [`io::Error`] carrying the library's message.
pub(crate) fn run(
    generator: &Generator,
    count: u64,
    format: Format,
    prefix: Option<&str>,
    out: &mut impl Write,
) -> io::Result<()> {
    for _ in 0..count {
        let id = generator.generate().map_err(io::Error::other)?;
        output::write_prefixed_id(out, prefix, id, format)?;
    }
    Ok(())
}

//! Where the IDs of `inspect` and `convert` come from: the arguments, or else standard input,
//! one per line, streamed.
//!
//! A bad input does not stop the run: its message goes to standard error, naming the
//! argument or line, and the others are still processed; the caller turns the count of
//! failures into the exit status.

use std::ffi::OsString;
use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};

use ulid_flake_core::UlidFlake;

use crate::input::{self, Form, InputError};

/// The longest line kept in memory. Every valid input is far shorter (leading zeros aside);
/// the cap keeps a huge line without a newline (a binary file piped in by mistake) from
/// being read into memory whole. A longer line is skipped and reported.
const MAX_LINE: usize = 1024;

/// Calls `emit` with each ID of the arguments, or of standard input when there are none, and
/// the entity prefix it was written with (`user` in `user_00CMXB6TAK4SA`), and returns how
/// many inputs were invalid (each reported on standard error). With an `entity`, an input
/// with another prefix is invalid.
///
/// # Errors
///
/// An error reading standard input, or the first error of `emit` or of writing to `out`.
pub(crate) fn each_id<W: Write>(
    args: &[OsString],
    form: Form,
    entity: Option<&str>,
    out: &mut W,
    mut emit: impl FnMut(&mut W, Option<&str>, UlidFlake) -> io::Result<()>,
) -> io::Result<u64> {
    let mut failures = 0;
    if !args.is_empty() {
        for (position, arg) in (1..).zip(args) {
            // The raw bytes, so that an argument that is not UTF-8 gets a precise message
            // instead of clap refusing the whole command line.
            let text = arg.as_encoded_bytes();
            match input::parse_prefixed(text, form, entity) {
                Ok((prefix, id)) => {
                    warn_if_also(out, format_args!("argument {position}"), text, form, id)?;
                    emit(out, prefix, id)?;
                }
                Err(error) => {
                    failures += 1;
                    let why = Hint(text, &error);
                    report(out, format_args!("argument {position}: {error}{why}"))?;
                }
            }
        }
        return Ok(failures);
    }

    // Our own buffer on the raw handle, for `buffer()`: see the flush below.
    let mut reader = BufReader::with_capacity(64 * 1024, io::stdin().lock());
    let mut line = Vec::with_capacity(MAX_LINE + 2);
    for number in 1.. {
        // Output is flushed only when no input is waiting: a large input is written in big
        // blocks, while an interactive or slow producer sees each answer at once.
        if reader.buffer().is_empty() {
            out.flush()?;
        }
        let Some(result) = next_line(&mut reader, &mut line).map_err(reading_stdin)? else {
            break;
        };
        match result.and_then(|line| {
            input::parse_prefixed(line, form, entity)
                .map(|parsed| (line, parsed))
                .map_err(|error| format!("{error}{}", Hint(line, &error)))
        }) {
            Ok((line, (prefix, id))) => {
                warn_if_also(out, format_args!("line {number}"), line, form, id)?;
                emit(out, prefix, id)?;
            }
            Err(error) => {
                failures += 1;
                report(out, format_args!("line {number}: {error}"))?;
            }
        }
    }
    Ok(failures)
}

/// Reads the next line into `line` and returns it without its line ending (`\n` or
/// `\r\n`), or a message if it is longer than [`MAX_LINE`]; `None` at the end of the input.
fn next_line<'a>(
    reader: &mut impl BufRead,
    line: &'a mut Vec<u8>,
) -> io::Result<Option<Result<&'a [u8], String>>> {
    line.clear();
    // Room for the limit and a `\r\n`, so that a line that just fits is read whole.
    let cap = MAX_LINE + 2;
    if reader.take(cap as u64).read_until(b'\n', line)? == 0 {
        return Ok(None);
    }
    let mut length = line.len();
    if line.last() == Some(&b'\n') {
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        length = line.len();
    } else if length == cap {
        // Cut off: count the rest of the line without keeping it.
        let mut last = line.last().copied();
        loop {
            let buffer = reader.fill_buf()?;
            let Some(&final_byte) = buffer.last() else {
                break; // the end of the input
            };
            match buffer.iter().position(|&byte| byte == b'\n') {
                Some(end) => {
                    length += end;
                    last = if end > 0 { Some(buffer[end - 1]) } else { last };
                    reader.consume(end + 1);
                    length -= usize::from(last == Some(b'\r'));
                    break;
                }
                None => {
                    length += buffer.len();
                    last = Some(final_byte);
                    let consumed = buffer.len();
                    reader.consume(consumed);
                }
            }
        }
    }
    if length > MAX_LINE {
        // A length in bytes: a line of wide characters is longer than it looks.
        let hint = NonAscii::in_text(line).map_or(String::new(), |found| format!(" ({found})"));
        return Ok(Some(Err(format!(
            "line too long: expected at most {MAX_LINE} bytes, found {length} bytes{hint}"
        ))));
    }
    Ok(Some(Ok(line)))
}

/// After an input's error, what is plainly wrong with the input besides: it is blank, has
/// whitespace around it, or (for an error about its length, which counts bytes) holds a
/// non-ASCII character; the error alone would not say so. Nothing otherwise.
struct Hint<'a>(&'a [u8], &'a InputError);

impl fmt::Display for Hint<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self(text, error) = *self;
        let trimmed = text.trim_ascii();
        if trimmed.is_empty() {
            f.write_str(" (a blank input)")
        } else if trimmed.len() < text.len() {
            f.write_str(" (whitespace around it: the ID must stand alone)")
        } else if let Some(found) = NonAscii::in_text(text)
            && error.is_about_length()
        {
            write!(f, " ({found})")
        } else {
            Ok(())
        }
    }
}

/// The first non-ASCII byte of a text and its index: why a length in bytes is more than the
/// characters the text shows.
struct NonAscii {
    byte: u8,
    index: usize,
}

impl NonAscii {
    fn in_text(text: &[u8]) -> Option<Self> {
        let index = text.iter().position(|byte| !byte.is_ascii())?;
        Some(Self {
            byte: text[index],
            index,
        })
    }
}

impl fmt::Display for NonAscii {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self { byte, index } = self;
        write!(
            f,
            "a non-ASCII byte 0x{byte:02X} at index {index}: an ID is ASCII"
        )
    }
}

/// Warns, on standard error, that `text` was read as Base32 though it is also another form's
/// text (see [`input::also_reads_as`]); the reading stands, as the help says, and the run's
/// status does not change.
fn warn_if_also(
    out: &mut impl Write,
    place: fmt::Arguments<'_>,
    text: &[u8],
    form: Form,
    id: UlidFlake,
) -> io::Result<()> {
    let (what, flag) = match input::also_reads_as(text, form, id) {
        Some(Form::Integer) => ("a decimal integer", "integer"),
        Some(_) => ("a hex number", "hex"),
        None => return Ok(()),
    };
    report(
        out,
        format_args!(
            "{place}: warning: `{}` read as Base32 (13 characters are), though it is also \
             {what}, another ID; pass --from {flag} if it is",
            text.escape_ascii(),
        ),
    )
}

/// Says which stream an error came from: the same kinds of error occur writing the output.
fn reading_stdin(error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("reading standard input: {error}"))
}

/// Writes a message about one bad input to standard error, after flushing `out` so that
/// when both go to one terminal the message appears among the results where it belongs.
fn report(out: &mut impl Write, message: fmt::Arguments<'_>) -> io::Result<()> {
    out.flush()?;
    // A standard error that cannot be written (full, closed) loses the message, not the
    // run: the exit status still counts the bad input, and the good ones are still written.
    let _ = writeln!(io::stderr().lock(), "{message}");
    Ok(())
}

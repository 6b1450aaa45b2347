//! Writing IDs: one per line in a chosen form (`generate`, `convert`), or everything an ID
//! holds (`inspect`).

use std::io::{self, Write};

use clap::ValueEnum;
use serde::Serialize;
use ulid_flake_core::{ENCODED_LEN, Epoch, UlidFlake};

/// The form of each output line of `generate` and `convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// The canonical 13-character Crockford Base32 text.
    Base32,
    /// The decimal integer, as stored in an SQL BIGINT.
    Integer,
    /// 0x and uppercase hexadecimal digits, without padding.
    Hex,
    /// One JSON object per line, e.g. {"id":"00CMXB6TAK4SA","integer":14246757444195114}
    Json,
}

/// Writes one ID as a line in `format`.
///
/// This is the hot path of `generate -n <millions>`, so nothing is allocated: the Base32
/// text goes through a stack buffer and the numbers through `write!`.
pub(crate) fn write_id(out: &mut impl Write, id: UlidFlake, format: Format) -> io::Result<()> {
    let mut text = [0; ENCODED_LEN];
    match format {
        Format::Base32 => {
            out.write_all(id.encode(&mut text).as_bytes())?;
            out.write_all(b"\n")
        }
        Format::Integer => writeln!(out, "{}", id.to_u64()),
        Format::Hex => writeln!(out, "{id:#X}"),
        // The integer is a JSON number, exact in the text; the Base32 string is there for
        // readers (JavaScript) that cannot hold integers above 2^53.
        Format::Json => writeln!(
            out,
            r#"{{"id":"{}","integer":{}}}"#,
            id.encode(&mut text),
            id.to_u64()
        ),
    }
}

/// Writes one ID as a line in `format`, its text after `prefix` and `_` when there is one
/// (`user_00CMXB6TAK4SA`): the Base32 line, or the JSON object's `id`. The integer forms
/// have no prefix (`main` refuses `--prefix` with them).
pub(crate) fn write_prefixed_id(
    out: &mut impl Write,
    prefix: Option<&str>,
    id: UlidFlake,
    format: Format,
) -> io::Result<()> {
    let Some(prefix) = prefix else {
        return write_id(out, id, format);
    };
    let mut text = [0; ENCODED_LEN];
    match format {
        Format::Base32 => writeln!(out, "{prefix}_{}", id.encode(&mut text)),
        Format::Json => writeln!(
            out,
            r#"{{"id":"{prefix}_{}","integer":{}}}"#,
            id.encode(&mut text),
            id.to_u64()
        ),
        Format::Integer | Format::Hex => write_id(out, id, format),
    }
}

/// Everything an ID holds, as `inspect` shows it: the fields are both the rows of the table
/// and the members of the JSON object, in this order.
///
/// An ID does not record its layout, so the low 20 bits are shown as both layouts would read
/// them, each labelled as such: `if_stand_alone` and `if_scalable` in JSON, `(if stand-alone,
/// ...)` and `(if scalable, ...)` in the table. Neither reading is asserted.
#[derive(Debug, Serialize)]
pub(crate) struct Inspection {
    /// The entity prefix the input was written with (`user` in `user_00CMXB6TAK4SA`); the
    /// row and the member are left out without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    prefix: Option<String>,
    /// The canonical text.
    base32: UlidFlake,
    /// The integer value.
    integer: u64,
    /// `0x` and uppercase hexadecimal digits.
    hex: String,
    /// `0b` and binary digits.
    binary: String,
    /// The 8 big-endian bytes as space-separated hex pairs.
    bytes: String,
    /// Milliseconds since the epoch.
    ms_since_epoch: u64,
    /// Milliseconds since 1970-01-01, with the given epoch.
    unix_ms: u64,
    /// RFC 3339 in UTC with milliseconds; `None` past the year 9999, which RFC 3339 cannot
    /// write (reachable only with a late custom epoch).
    datetime: Option<String>,
    /// The low 20 bits, read as the stand-alone layout writes them.
    if_stand_alone: IfStandAlone,
    /// The low 20 bits, read as the scalable layout writes them.
    if_scalable: IfScalable,
}

/// The stand-alone reading of an ID's low 20 bits.
#[derive(Debug, Serialize)]
struct IfStandAlone {
    /// Bits 19..0.
    randomness: u32,
}

/// The scalable reading of an ID's low 20 bits.
#[derive(Debug, Serialize)]
struct IfScalable {
    /// Bits 19..5.
    randomness: u16,
    /// Bits 4..0.
    scalability_id: u8,
}

impl Inspection {
    /// Reads every field of `id`, whose timestamp counts from `epoch`.
    pub(crate) fn new(id: UlidFlake, epoch: Epoch) -> Self {
        let unix_ms = id.unix_ms(epoch);
        let bytes = id.to_bytes().map(|byte| format!("{byte:02X}")).join(" ");
        let datetime = i64::try_from(unix_ms)
            .ok()
            .and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok())
            // `.3`: always three fractional digits, so that the texts sort as the IDs do.
            .map(|moment| format!("{moment:.3}"));
        Self {
            prefix: None,
            base32: id,
            integer: id.to_u64(),
            hex: id.to_hex(),
            binary: id.to_bin(),
            bytes,
            ms_since_epoch: id.ms_since_epoch(),
            unix_ms,
            datetime,
            if_stand_alone: IfStandAlone {
                randomness: id.randomness(),
            },
            if_scalable: IfScalable {
                randomness: id.scalable_randomness(),
                scalability_id: id.scalability_id(),
            },
        }
    }

    /// The same, for an input written with an entity prefix.
    pub(crate) fn with_prefix(self, prefix: Option<&str>) -> Self {
        Self {
            prefix: prefix.map(str::to_owned),
            ..self
        }
    }

    /// Writes the human table: one `label  value` row per field.
    pub(crate) fn write_table(&self, out: &mut impl Write) -> io::Result<()> {
        if let Some(prefix) = &self.prefix {
            writeln!(out, "{:<35}  {prefix}", "prefix")?;
        }
        let datetime = self
            .datetime
            .as_deref()
            .unwrap_or("(after the year 9999: not expressible in RFC 3339)");
        let rows: [(&str, &dyn std::fmt::Display); 11] = [
            ("base32", &self.base32),
            ("integer", &self.integer),
            ("hex", &self.hex),
            ("binary", &self.binary),
            ("bytes", &self.bytes),
            ("timestamp (ms since epoch)", &self.ms_since_epoch),
            ("unix time (ms)", &self.unix_ms),
            ("date-time (UTC)", &datetime),
            (
                "randomness (if stand-alone, 20-bit)",
                &self.if_stand_alone.randomness,
            ),
            (
                "randomness (if scalable, 15-bit)",
                &self.if_scalable.randomness,
            ),
            (
                "scalability id (if scalable)",
                &self.if_scalable.scalability_id,
            ),
        ];
        for (label, value) in rows {
            writeln!(out, "{label:<35}  {value}")?;
        }
        Ok(())
    }

    /// Writes the JSON object on one line.
    pub(crate) fn write_json(&self, out: &mut impl Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        out.write_all(b"\n")
    }
}

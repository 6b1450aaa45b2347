//! The process-wide default generator behind `UlidFlake::generate` and `Id::generate`.

use alloc::boxed::Box;
use std::sync::OnceLock;

use super::config::Layout;
use super::state::Generator;
use crate::error::{Error, Excerpt};
use crate::ulid_flake::UlidFlake;

/// The environment variable that selects the scalable layout, with its scalability id, for
/// the default generator: `ULID_FLAKE_SCALABILITY_ID=3`. The value is decimal digits only (no
/// sign); whitespace around them is ignored, as a value written from a file or a manifest may
/// end in a newline.
///
/// ```
/// assert_eq!(ulid_flake_core::generator::SCALABILITY_ID_VARIABLE, "ULID_FLAKE_SCALABILITY_ID");
/// ```
pub const SCALABILITY_ID_VARIABLE: &str = "ULID_FLAKE_SCALABILITY_ID";

/// Set once, by [`set_default_generator`], a lease, [`init_from_env`] or the first use, with
/// whether a lease installed it (what the environment variable would conflict with); an
/// environment that fails to configure it is kept as its error, returned to every caller.
static DEFAULT: OnceLock<Result<(&'static Generator, Leased), Error>> = OnceLock::new();

/// Whether a scalability-id lease installed the default generator.
type Leased = bool;

/// The process-wide default generator.
///
/// Unless [`set_default_generator`] or a lease installed one first, the first call builds it:
/// a stand-alone generator with the defaults of [`Generator::new`] — or the scalable layout
/// when [`SCALABILITY_ID_VARIABLE`] is set (see
/// [`GeneratorBuilder::layout_from_env`](super::GeneratorBuilder::layout_from_env)).
///
/// # Errors
///
/// The error of a bad [`SCALABILITY_ID_VARIABLE`], on this and every later call: a
/// misconfigured replica makes no IDs rather than IDs that may collide.
///
/// ```
/// let generator = ulid_flake_core::generator::default_generator()?;
/// let id = generator.generate()?;
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub fn default_generator() -> Result<&'static Generator, Error> {
    default_in_place().map(|(generator, _)| generator)
}

/// The default generator, built now unless it is in place, and whether a lease installed it.
fn default_in_place() -> Result<(&'static Generator, Leased), Error> {
    *DEFAULT.get_or_init(|| {
        let generator = Generator::builder().layout_from_env()?.build()?;
        Ok((&*Box::leak(Box::new(generator)), false))
    })
}

/// Installs `generator` as the process-wide default; call it once, at start-up, before any
/// ID is made through the default. Where [`SCALABILITY_ID_VARIABLE`] is set, `generator` must
/// have the layout it asks for (build it with
/// [`GeneratorBuilder::layout_from_env`](super::GeneratorBuilder::layout_from_env)): a
/// replica whose code installed another id would otherwise pass over the id its operator
/// gave it, and replicas told apart by the variable would issue IDs of one id.
///
/// # Errors
///
/// [`Error::DefaultGeneratorAlreadySet`] when a default exists already (installed before,
/// or built by a first use); the default in place stays. Where the variable is set,
/// [`Error::InvalidEnvironmentValue`] for a bad value and [`Error::ScalabilityIdMismatch`]
/// for a `generator` of another layout; nothing is installed, and the first ID made through
/// the default builds it from the variable (or meets the same error).
///
/// ```
/// use ulid_flake_core::{UlidFlake, generator::{Generator, Layout, set_default_generator}};
///
/// let generator = Generator::builder()
///     .layout(Layout::Scalable { scalability_id: 5 })
///     .build()?;
/// set_default_generator(generator)?;
/// assert_eq!(UlidFlake::generate()?.scalability_id(), 5);
/// # Ok::<(), ulid_flake_core::Error>(())
/// ```
pub fn set_default_generator(generator: Generator) -> Result<(), Error> {
    if DEFAULT.get().is_some() {
        return Err(Error::DefaultGeneratorAlreadySet);
    }
    if let Some(expected) = scalability_id_from_env()? {
        has_layout_of_variable(generator.layout(), expected)?;
    }
    install(Box::leak(Box::new(generator)), false)
}

/// Whether `layout` is the scalable one on `expected`, the id [`SCALABILITY_ID_VARIABLE`]
/// asks for: [`Error::ScalabilityIdMismatch`] if not.
fn has_layout_of_variable(layout: Layout, expected: u8) -> Result<(), Error> {
    let found = match layout {
        Layout::Scalable { scalability_id } if scalability_id == expected => return Ok(()),
        Layout::Scalable { scalability_id } => Some(scalability_id),
        Layout::StandAlone => None,
    };
    Err(Error::ScalabilityIdMismatch {
        variable: SCALABILITY_ID_VARIABLE,
        expected,
        found,
    })
}

/// Installs a leased generator, which lives until the process exits, as the default. The
/// lease assigns the scalability id, so [`SCALABILITY_ID_VARIABLE`] must not be set.
pub(crate) fn install_leased(generator: &'static Generator) -> Result<(), Error> {
    if std::env::var_os(SCALABILITY_ID_VARIABLE).is_some() {
        return Err(Error::ScalabilityIdConfiguredTwice {
            variable: SCALABILITY_ID_VARIABLE,
        });
    }
    install(generator, true)
}

fn install(generator: &'static Generator, leased: Leased) -> Result<(), Error> {
    DEFAULT
        .set(Ok((generator, leased)))
        .map_err(|_| Error::DefaultGeneratorAlreadySet)
}

/// The scalability id that [`SCALABILITY_ID_VARIABLE`] asks for, if it is set.
pub(super) fn scalability_id_from_env() -> Result<Option<u8>, Error> {
    let Some(value) = std::env::var_os(SCALABILITY_ID_VARIABLE) else {
        return Ok(None);
    };
    let text = value.to_string_lossy();
    let invalid = Error::InvalidEnvironmentValue {
        name: SCALABILITY_ID_VARIABLE,
        expected: "a scalability id, an integer 0..=31",
        found: Excerpt::new(&text),
    };
    let digits = text.trim();
    // Decimal digits only: `parse` would also take a sign.
    if digits.is_empty() || !digits.bytes().all(|byte| byte.is_ascii_digit()) {
        return Err(invalid);
    }
    match digits.parse::<u8>() {
        Ok(id) if id <= crate::layout::SCALABILITY_ID_MAX => Ok(Some(id)),
        _ => Err(invalid),
    }
}

/// Checks the environment now, at start-up, so that a bad [`SCALABILITY_ID_VARIABLE`] stops
/// the process before it serves anything, with an error that names the variable, the value
/// found and the range expected. Without this call the first ID made through the default
/// generator reports the same error then.
///
/// It composes with a scalability-id lease, in either order: where the variable is unset it
/// builds nothing (the default is built at the first ID, stand-alone, unless a lease's
/// `install_default` installs the leased generator first); where the variable is set it
/// builds the scalable default from it now. The variable and a lease both configuring the
/// default is an error, whichever comes second. So is a default in place with another layout
/// than the variable asks for (built by a use before the variable was set; one from code,
/// [`set_default_generator`], is refused already when it is installed): the variable would be
/// ignored, and replicas told apart by it would issue IDs of one id.
///
/// # Errors
///
/// [`Error::InvalidEnvironmentValue`] for a bad [`SCALABILITY_ID_VARIABLE`];
/// [`Error::ScalabilityIdConfiguredTwice`] when the variable is set and a lease's generator is
/// the default; [`Error::ScalabilityIdMismatch`] when the variable is set and the default in
/// place has another layout (built by a use before the variable was set).
///
/// ```
/// fn main() -> Result<(), ulid_flake_core::Error> {
///     ulid_flake_core::init_from_env()?; // e.g. ULID_FLAKE_SCALABILITY_ID=3
///     // ... serve requests; `UlidFlake::new()` now never meets a configuration error.
///     Ok(())
/// }
/// ```
pub fn init_from_env() -> Result<(), Error> {
    let Some(expected) = scalability_id_from_env()? else {
        return DEFAULT.get().map_or(Ok(()), |result| result.map(drop));
    };
    // Built from the variable now, unless a default is in place (or another thread's lands
    // first): the one in place, whichever it is, is then checked against the variable.
    let (generator, leased) = default_in_place()?;
    if leased {
        return Err(Error::ScalabilityIdConfiguredTwice {
            variable: SCALABILITY_ID_VARIABLE,
        });
    }
    has_layout_of_variable(generator.layout(), expected)
}

/// The process-wide generator's entry points on the value type itself.
impl UlidFlake {
    /// A new ID from the process-wide default generator
    /// ([`default_generator`]). Unlike
    /// [`Generator::try_generate`], it waits when the current
    /// millisecond is exhausted: until the next one begins, which is well under a millisecond
    /// — except after the clock moved back (within the rollback allowance), when it waits
    /// until the clock catches up with the last ID. It fails only on a broken clock or
    /// configuration. In `async` code, prefer `UlidFlake::generate_async` (with the `tokio` feature).
    ///
    /// # Errors
    ///
    /// [`Error::ClockMovedBackwards`] and [`Error::TimestampOutOfRange`] from the clock, and
    /// the configuration error of a bad `ULID_FLAKE_SCALABILITY_ID`.
    ///
    /// ```
    /// let a = ulid_flake_core::UlidFlake::generate()?;
    /// let b = ulid_flake_core::UlidFlake::generate()?;
    /// assert!(a < b);
    /// # Ok::<(), ulid_flake_core::Error>(())
    /// ```
    pub fn generate() -> Result<Self, Error> {
        default_generator()?.generate()
    }

    /// A new ID from the process-wide default generator, never waiting: when the current
    /// millisecond is exhausted, [`Error::Overflow`] (see [`Generator::try_generate`]).
    ///
    /// # Errors
    ///
    /// [`Error::Overflow`], and the errors of [`UlidFlake::generate`].
    ///
    /// ```
    /// use ulid_flake_core::{Error, UlidFlake};
    ///
    /// match UlidFlake::try_generate() {
    ///     Ok(id) => assert!(id > UlidFlake::MIN),
    ///     Err(Error::Overflow { .. }) => { /* the next millisecond will have room */ }
    ///     Err(other) => panic!("{other}"),
    /// }
    /// ```
    pub fn try_generate() -> Result<Self, Error> {
        default_generator()?.try_generate()
    }

    /// A new ID from the process-wide default generator, without an error to handle: the
    /// everyday constructor, as `Uuid::now_v7()` is. What it does when the clock fails (waits
    /// for the next millisecond, carries on from the last ID after a rollback, waits for a
    /// lease) is [`Generator::new_id`]'s policy; it never issues
    /// a duplicate. [`UlidFlake::generate`] returns the errors instead.
    ///
    /// # Panics
    ///
    /// When the environment misconfigures the default generator (a bad
    /// `ULID_FLAKE_SCALABILITY_ID`, with the message of [`init_from_env`]: call that at
    /// start-up to meet it as an error), and in the cases of
    /// [`Generator::new_id`].
    ///
    /// ```
    /// let (a, b) = (ulid_flake_core::UlidFlake::new(), ulid_flake_core::UlidFlake::new());
    /// assert!(a < b);
    /// ```
    #[allow(
        clippy::new_without_default,
        reason = "Default is MIN, a constant; new() makes IDs"
    )]
    pub fn new() -> Self {
        match default_generator() {
            Ok(generator) => generator.new_id(),
            Err(error) => panic!("ulid-flake: no ID can be issued: {error}"),
        }
    }

    /// A new ID from the process-wide default generator, waiting on the tokio timer instead
    /// of blocking the thread; see [`UlidFlake::generate`].
    ///
    /// # Errors
    ///
    /// As [`UlidFlake::generate`].
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ulid_flake_core::Error> {
    /// let id = ulid_flake_core::UlidFlake::generate_async().await?;
    /// # assert!(id > ulid_flake_core::UlidFlake::MIN);
    /// # Ok(())
    /// # }
    /// ```
    #[cfg(feature = "tokio")]
    pub async fn generate_async() -> Result<Self, Error> {
        default_generator()?.generate_async().await
    }
}

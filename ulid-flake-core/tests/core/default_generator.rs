//! The process-wide default generator. It is set up once per process, so each case runs in
//! a child process: this test binary again, running only `probe` with the case's
//! environment, and printing what it saw.

use ulid_flake_core::generator::{Generator, Layout, SCALABILITY_ID_VARIABLE, default_generator};
use ulid_flake_core::{Error, Id, UlidFlake};

use ulid_flake_core::lease::{LeaseOptions, ScalabilityIdLease};

use crate::lease::LocalTable;
use crate::support::report_of_child;

/// Installs a lease on scalability id 9 as the default generator; a refused install also
/// reports the ids the table had released by the time the error returned.
fn install_lease() -> String {
    let table = LocalTable::default();
    let released = std::sync::Arc::clone(&table.released);
    match ScalabilityIdLease::acquire(table, LeaseOptions::new("jobs").ids(9..=9))
        .unwrap()
        .install_default()
    {
        Ok(()) => "installed".to_owned(),
        Err(error) => format!("{error} (released {:?})", released.lock().unwrap()),
    }
}

/// Installs, from code, a scalable generator on `scalability_id` as the default.
fn install_scalable(scalability_id: u8) -> Result<(), Error> {
    let generator = Generator::builder()
        .layout(Layout::Scalable { scalability_id })
        .build()
        .unwrap();
    ulid_flake_core::generator::set_default_generator(generator)
}

/// `init_from_env`'s result, as the report shows it.
fn init() -> String {
    ulid_flake_core::init_from_env().map_or_else(|e| e.to_string(), |()| "ok".into())
}

/// What the default generator issues now: its layout and the id its IDs carry.
fn issued() -> String {
    let id = match UlidFlake::generate() {
        Ok(id) => id,
        Err(error) => return format!("no ID: {error}"),
    };
    match default_generator().unwrap().layout() {
        Layout::StandAlone => "stand-alone".to_owned(),
        Layout::Scalable { scalability_id } => {
            format!("id {} (layout {scalability_id})", id.scalability_id())
        }
    }
}

/// Runs `probe` in a child with `ULID_FLAKE_SCALABILITY_ID` set to `value` (or unset) and
/// `PROBE_CASE` to `case`, and returns its report.
fn probe_in_child(case: &str, value: Option<&str>) -> String {
    report_of_child(
        "default_generator::probe",
        SCALABILITY_ID_VARIABLE,
        value,
        &[("PROBE_CASE", case)],
    )
}

/// Not a test of its own: the child side of the tests below (hence ignored).
#[test]
#[ignore = "run in a child process by the default_generator tests"]
fn probe() {
    struct User;
    let report = match std::env::var("PROBE_CASE").unwrap().as_str() {
        "generate" => match (UlidFlake::generate(), Id::<User>::generate()) {
            (Ok(a), Ok(b)) => {
                let b = b.to_ulid_flake();
                let layout = default_generator().unwrap().layout();
                // Stand-alone IDs have random low bits: only scalable ones carry an id.
                let ids = match layout {
                    Layout::StandAlone => String::new(),
                    Layout::Scalable { .. } => {
                        format!(" ids {} {}", a.scalability_id(), b.scalability_id())
                    }
                };
                format!("ok {layout:?}{ids} ordered {}", a < b)
            }
            (a, b) => format!("errors {:?} {:?}", a.err(), b.err()),
        },
        "configure-then-use" => {
            let first = install_scalable(12);
            let second = ulid_flake_core::generator::set_default_generator(Generator::new());
            let id = UlidFlake::generate().unwrap();
            format!("{first:?} {second:?} id {}", id.scalability_id())
        }
        "init" => {
            let init =
                ulid_flake_core::init_from_env().map_or_else(|e| e.to_string(), |()| "ok".into());
            let generate = UlidFlake::generate()
                .map_or_else(|e| e.to_string(), |id| id.scalability_id().to_string());
            std::panic::set_hook(Box::new(|_| {}));
            let new = std::panic::catch_unwind(UlidFlake::new).map_or_else(
                |panic| format!("panics: {}", panic.downcast_ref::<String>().unwrap()),
                |id| id.scalability_id().to_string(),
            );
            format!("init {init}; generate {generate}; new {new}")
        }
        "env-then-code" => {
            let init = init();
            format!("init {init}; {:?}; {}", install_scalable(5), issued())
        }
        "code-then-env" => {
            let installed = install_scalable(3);
            format!("{installed:?}; init {}; {}", init(), issued())
        }
        "stand-alone-code" => {
            let installed =
                ulid_flake_core::generator::set_default_generator(Generator::new());
            format!("{installed:?}; {}", issued())
        }
        "use-then-configure" => {
            UlidFlake::generate().unwrap();
            format!(
                "{:?}",
                ulid_flake_core::generator::set_default_generator(Generator::new())
            )
        }
        "env-then-lease" => format!("init {}; lease {}; {}", init(), install_lease(), issued()),
        "lease-then-env" => format!("lease {}; init {}; {}", install_lease(), init(), issued()),
        "id-then-lease" => {
            let first = issued();
            format!("{first}; lease {}; {}", install_lease(), issued())
        }
        "use-then-variable-then-env" => {
            let first = issued();
            // SAFETY: no other thread runs in this child.
            unsafe { std::env::set_var(SCALABILITY_ID_VARIABLE, "3") };
            format!("{first}; init {}; {}", init(), issued())
        }
        "lease-then-variable-then-env" => {
            let lease = install_lease();
            // SAFETY: no other thread reads the environment: the lease's renewal thread
            // talks to its store only.
            unsafe { std::env::set_var(SCALABILITY_ID_VARIABLE, "3") };
            format!("lease {lease}; init {}; {}", init(), issued())
        }
        other => panic!("unknown case {other}"),
    };
    println!("REPORT {report}");
}

#[test]
fn without_the_variable_the_default_is_stand_alone() {
    assert_eq!(
        probe_in_child("generate", None),
        "ok StandAlone ordered true"
    );
}

#[test]
fn the_variable_selects_the_scalable_layout() {
    assert_eq!(
        probe_in_child("generate", Some("3")),
        "ok Scalable { scalability_id: 3 } ids 3 3 ordered true"
    );
}

#[test]
fn whitespace_around_the_variable_is_ignored() {
    assert_eq!(
        probe_in_child("generate", Some(" 31\n")),
        "ok Scalable { scalability_id: 31 } ids 31 31 ordered true"
    );
}

fn bad_value(value: &str) -> Error {
    Error::InvalidEnvironmentValue {
        name: "ULID_FLAKE_SCALABILITY_ID",
        expected: "a scalability id, an integer 0..=31",
        found: ulid_flake_core::error::Excerpt::new(value),
    }
}

#[test]
fn a_bad_variable_is_an_error_on_every_call() {
    for value in ["32", "40", "web-3", "", "-1", "+3", "3.0"] {
        let error = bad_value(value);
        assert_eq!(
            probe_in_child("generate", Some(value)),
            format!("errors Some({error:?}) Some({error:?})"),
            "{value:?}"
        );
    }
}

#[test]
fn a_bad_variable_names_itself_its_value_and_the_range() {
    assert_eq!(
        bad_value("40").to_string(),
        "invalid environment variable ULID_FLAKE_SCALABILITY_ID: expected a scalability id, \
         an integer 0..=31, found \"40\""
    );
}

#[test]
fn init_from_env_reports_a_bad_variable_at_start_up_as_the_lazy_path_does() {
    let message = bad_value("40").to_string();
    assert_eq!(
        probe_in_child("init", Some("40")),
        format!(
            "init {message}; generate {message}; new panics: ulid-flake: no ID can be issued: {message}"
        )
    );
}

#[test]
fn init_from_env_sets_up_a_good_variable() {
    assert_eq!(
        probe_in_child("init", Some("7")),
        "init ok; generate 7; new 7"
    );
}

#[test]
fn configuring_in_code_works_once() {
    assert_eq!(
        probe_in_child("configure-then-use", None),
        format!("Ok(()) Err({ALREADY_SET}) id 12")
    );
}

/// The message of a second configuration of the default generator.
const ALREADY_SET: &str = "default generator already set: expected to configure it once, at \
    start-up before the first ID made through it, found it configured (by set_default_generator, \
    a lease's install_default, or init_from_env with ULID_FLAKE_SCALABILITY_ID set) or built by its \
    first use (an ID, or default_generator())";

#[test]
fn a_default_from_code_that_ignores_the_variable_is_refused() {
    // Not installed: the first ID builds the default from the variable.
    assert_eq!(
        probe_in_child("code-then-env", Some("4")),
        "Err(default generator not the one ULID_FLAKE_SCALABILITY_ID asks for: expected \
         scalability id 4, found scalability id 3 (build a default from code with \
         GeneratorBuilder::layout_from_env, and set the variable before the first ID)); init \
         ok; id 4 (layout 4)"
    );
    let message = bad_value("web-3").to_string();
    assert_eq!(
        probe_in_child("code-then-env", Some("web-3")),
        format!("Err({message}); init {message}; no ID: {message}")
    );
    // A default from code that is what the variable asks for, or with the variable unset.
    assert_eq!(
        probe_in_child("code-then-env", Some("3")),
        "Ok(()); init ok; id 3 (layout 3)"
    );
    assert_eq!(
        probe_in_child("code-then-env", None),
        "Ok(()); init ok; id 3 (layout 3)"
    );
}

#[test]
fn a_stand_alone_default_from_code_beside_the_variable_is_refused() {
    assert_eq!(
        probe_in_child("stand-alone-code", Some("4")),
        "Err(default generator not the one ULID_FLAKE_SCALABILITY_ID asks for: expected \
         scalability id 4, found a stand-alone generator (build a default from code with \
         GeneratorBuilder::layout_from_env, and set the variable before the first ID)); id 4 \
         (layout 4)"
    );
    assert_eq!(
        probe_in_child("stand-alone-code", None),
        "Ok(()); stand-alone"
    );
}

#[test]
fn init_from_env_refuses_a_default_built_before_the_variable_was_set() {
    assert_eq!(
        probe_in_child("use-then-variable-then-env", None),
        "stand-alone; init default generator not the one ULID_FLAKE_SCALABILITY_ID asks for: \
         expected scalability id 3, found a stand-alone generator (build a default from code \
         with GeneratorBuilder::layout_from_env, and set the variable before the first ID); \
         stand-alone"
    );
}

#[test]
fn a_default_from_code_after_init_from_env_is_refused_only_where_the_variable_is_set() {
    // With the variable set, init_from_env installed its default: code comes second.
    assert_eq!(
        probe_in_child("env-then-code", Some("3")),
        format!("init ok; Err({ALREADY_SET}); id 3 (layout 3)")
    );
    // Unset, init_from_env built nothing, and the default from code is installed.
    assert_eq!(
        probe_in_child("env-then-code", None),
        "init ok; Ok(()); id 5 (layout 5)"
    );
}

#[test]
fn configuring_in_code_after_first_use_is_refused() {
    assert_eq!(
        probe_in_child("use-then-configure", None),
        format!("Err({ALREADY_SET})")
    );
}

/// The message of a lease refused because the variable is set.
const CONFIGURED_TWICE: &str = "lease not installed as the default generator: scalability id \
    configured twice: expected ULID_FLAKE_SCALABILITY_ID or a scalability-id lease, found both; \
    where a lease assigns the id, unset ULID_FLAKE_SCALABILITY_ID; the lease was released \
    (released [9])";

#[test]
fn init_from_env_then_a_lease_compose() {
    assert_eq!(
        probe_in_child("env-then-lease", None),
        "init ok; lease installed; id 9 (layout 9)"
    );
}

#[test]
fn a_lease_then_init_from_env_compose() {
    assert_eq!(
        probe_in_child("lease-then-env", None),
        "lease installed; init ok; id 9 (layout 9)"
    );
}

#[test]
fn a_lease_after_the_first_id_is_refused_with_what_to_do() {
    assert_eq!(
        probe_in_child("id-then-lease", None),
        format!(
            "stand-alone; lease lease not installed as the default generator: {ALREADY_SET}; \
             the lease was released (released [9]); stand-alone"
        )
    );
}

#[test]
fn the_variable_and_a_lease_are_an_error_naming_both_in_either_order() {
    assert_eq!(
        probe_in_child("env-then-lease", Some("3")),
        format!("init ok; lease {CONFIGURED_TWICE}; id 3 (layout 3)")
    );
    assert_eq!(
        probe_in_child("lease-then-env", Some("3")),
        format!("lease {CONFIGURED_TWICE}; init ok; id 3 (layout 3)")
    );
    assert_eq!(
        probe_in_child("lease-then-variable-then-env", None),
        "lease installed; init scalability id configured twice: expected \
         ULID_FLAKE_SCALABILITY_ID or a scalability-id lease, found both; where a lease assigns \
         the id, unset ULID_FLAKE_SCALABILITY_ID; id 9 (layout 9)"
    );
}

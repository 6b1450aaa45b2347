//! The integration table, cell by cell: every ID type through every integration of the core,
//! used for real (a round trip through SQLite files and PostgreSQL, schema JSON compared, a
//! GraphQL query executed, arbitrary and proptest values drawn and checked, TypeScript types
//! declared).
//!
//! The test modules come from the core's own list of integrations (`__integrations!`, the list
//! its impls come from), one module per entry: an integration added there without its cells
//! here does not compile.

use ulid_flake_core::{Id, PrefixedId, UlidFlake, ulid_flake};

use id_types_tests::{OrderKey, User, UserKey};

/// The ID every cell uses: SPEC §5's first vector.
const ID: UlidFlake = ulid_flake!("00CMXB6TAK4SA");

/// `ID` as an integer.
const INTEGER: i64 = 14_246_757_444_195_114;

/// Calls `$check!(Type, id, text)` for every ID type, with `ID` as that type and its text.
macro_rules! each_id_type {
    ($check:ident) => {
        $check!(UlidFlake, ID, "00CMXB6TAK4SA");
        $check!(Id<User>, Id::<User>::from_ulid_flake(ID), "00CMXB6TAK4SA");
        $check!(
            PrefixedId<User>,
            PrefixedId::<User>::from(ID),
            "user_00CMXB6TAK4SA"
        );
        $check!(UserKey, UserKey::from(ID), "00CMXB6TAK4SA");
        $check!(OrderKey, OrderKey::from(ID), "order_00CMXB6TAK4SA");
    };
}

mod readings;

/// One module per entry of the core's list; no arm for an entry is a compile error.
macro_rules! cells {
    ({}) => {};
    ({} "serde" $impl:ident $($rest:tt)*) => { mod serde_cells; cells!({} $($rest)*); };
    ({} "sqlx09" $impl:ident $($rest:tt)*) => { mod sqlx09_cells; cells!({} $($rest)*); };
    ({} "sqlx09-postgres" $impl:ident $($rest:tt)*) => { mod sqlx09_postgres_cells; cells!({} $($rest)*); };
    ({} "diesel2" $impl:ident $($rest:tt)*) => { mod diesel2_cells; cells!({} $($rest)*); };
    ({} "sea-orm2" $impl:ident $($rest:tt)*) => { mod sea_orm2_cells; cells!({} $($rest)*); };
    ({} "utoipa5" $impl:ident $($rest:tt)*) => { mod utoipa5_cells; cells!({} $($rest)*); };
    ({} "schemars1" $impl:ident $($rest:tt)*) => { mod schemars1_cells; cells!({} $($rest)*); };
    ({} "postgres-types02" $impl:ident $($rest:tt)*) => { mod postgres_types02_cells; cells!({} $($rest)*); };
    ({} "rusqlite" $impl:ident $($rest:tt)*) => { mod rusqlite_cells; cells!({} $($rest)*); };
    ({} "async-graphql7" $impl:ident $($rest:tt)*) => { mod async_graphql7_cells; cells!({} $($rest)*); };
    ({} "arbitrary" $impl:ident $($rest:tt)*) => { mod arbitrary_cells; cells!({} $($rest)*); };
    ({} "proptest" $impl:ident $($rest:tt)*) => { mod proptest_cells; cells!({} $($rest)*); };
    ({} "uuid" $impl:ident $($rest:tt)*) => { mod uuid_cells; cells!({} $($rest)*); };
    ({} "ts-rs12" $impl:ident $($rest:tt)*) => { mod ts_rs12_cells; cells!({} $($rest)*); };
}

ulid_flake_core::__integrations!([cells] {});

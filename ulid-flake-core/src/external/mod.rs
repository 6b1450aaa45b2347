//! Integrations with other crates, each behind a feature named after the crate (with its major
//! where the feature is versioned: the policy in the crate docs); and what several of them share.

#[cfg(feature = "arbitrary")]
pub mod arbitrary_support;
#[cfg(feature = "async-graphql7")]
pub mod async_graphql7_support;
#[cfg(feature = "chrono04")]
mod chrono04_support;
#[cfg(feature = "diesel2")]
pub mod diesel2_support;
#[cfg(feature = "jiff02")]
mod jiff02_support;
#[cfg(feature = "postgres-types02")]
pub mod postgres_types02_support;
#[cfg(feature = "proptest")]
pub mod proptest_support;
#[cfg(feature = "rand010")]
pub(crate) mod rand010_support;
#[cfg(feature = "rusqlite")]
pub mod rusqlite_support;
#[cfg(feature = "schemars1")]
pub mod schemars1_support;
#[cfg(feature = "sea-orm2")]
pub mod sea_orm2_support;
#[cfg(feature = "serde")]
pub mod serde_support;
#[cfg(feature = "sqlx09")]
pub mod sqlx09_support;
#[cfg(feature = "time03")]
mod time03_support;
#[cfg(feature = "ts-rs12")]
pub mod ts_rs12_support;
#[cfg(feature = "utoipa5")]
pub mod utoipa5_support;
#[cfg(feature = "uuid")]
mod uuid_support;

// What several integrations share.
#[cfg(any(feature = "arbitrary", feature = "proptest"))]
mod edges;
#[cfg(any(feature = "utoipa5", feature = "schemars1"))]
pub(crate) mod schema_text;

/// Every integration with another crate: its feature, and the macro of its support file that
/// implements it for one ID type (`[without] [generics,] Type`). The core's ID types (below),
/// `newtype!` keys and the tests of the integration table all take theirs from this one list,
/// so adding an integration is its support file and one line here.
///
/// Calls `$callback! { $args "feature" __impl_macro ... }` once, with every entry.
#[doc(hidden)]
#[macro_export]
macro_rules! __integrations {
    ([$($callback:tt)*] $args:tt) => {
        $($callback)*! { $args
            "serde" __impl_serde
            "sqlx09" __impl_sqlx09
            "sqlx09-postgres" __impl_sqlx09_postgres
            "diesel2" __impl_diesel2
            "sea-orm2" __impl_sea_orm2
            "utoipa5" __impl_utoipa5
            "schemars1" __impl_schemars1
            "postgres-types02" __impl_postgres_types02
            "rusqlite" __impl_rusqlite
            "async-graphql7" __impl_async_graphql7
            "arbitrary" __impl_arbitrary
            "proptest" __impl_proptest
            "uuid" __impl_uuid
            "ts-rs12" __impl_ts_rs12
        }
    };
}

/// Implements every enabled integration for one ID type, but those named in `without`:
/// `__impl_integrations!(["serde"] [T: ?Sized,] Id<T>)`.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_integrations {
    ([$($without:tt)*] [$($generics:tt)*] $ty:ty) => {
        $crate::__integrations!([$crate::__impl_each_integration] {[$($without)*] [$($generics)*] $ty});
    };
}

/// [`__impl_integrations!`]'s callback: each entry through its gate, and a check that every
/// name in `without` is an integration.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_each_integration {
    ({$without:tt $generics:tt $ty:ty} $($feature:literal $impl:ident)*) => {
        $crate::__impl_each_integration!(@check $without [$($feature)*]);
        $($crate::__private::gate::$impl!($without $generics $ty);)*
    };
    (@check [$($without:tt)*] $features:tt) => {
        $($crate::__impl_each_integration!(@name $without $features);)*
    };
    (@name $name:literal [$($feature:literal)*]) => {
        const _: () = ::core::assert!(
            $crate::__private::is_integration($name, &[$($feature),*]),
            ::core::concat!(
                "newtype!: ", ::core::stringify!($name), " in `without` is no integration: \
                 expected one of ", $(::core::stringify!($feature), " ",)*
                "(the versioned feature names; a plain name such as \"sqlx\" is an alias)"
            )
        );
    };
    (@name $name:tt $features:tt) => {
        ::core::compile_error!(::core::concat!(
            "newtype!: `without` takes features' names as strings: write \"",
            ::core::stringify!($name), "\", not ", ::core::stringify!($name)
        ));
    };
}

/// A disabled integration: its invocations expand to nothing.
#[doc(hidden)]
#[macro_export]
macro_rules! __disabled {
    ($($tokens:tt)*) => {};
}

/// The gate of each integration, under the name of its macro: the macro itself when its
/// feature is on, [`__disabled!`] when it is off. A `#[cfg]` in a macro's output is evaluated
/// in the crate that calls it, so `newtype!` reaches this crate's features only through
/// these re-exports.
macro_rules! gates {
    ({} $($feature:literal $impl:ident)*) => {
        /// The gates (see `external/mod.rs`).
        pub mod gate {
            $(
                #[cfg(feature = $feature)]
                pub use crate::$impl;
                #[cfg(not(feature = $feature))]
                pub use crate::__disabled as $impl;
            )*
        }
    };
}
pub(crate) use gates;

/// Whether `name` is one of `features`.
pub const fn is_integration(name: &str, features: &[&str]) -> bool {
    let mut i = 0;
    while i < features.len() {
        if eq(name, features[i]) {
            return true;
        }
        i += 1;
    }
    false
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

// The core's ID types. `UlidFlake` is without `uuid`: its conversions are the methods the
// others' delegate to.
crate::__impl_integrations!(["uuid"] [] crate::ulid_flake::UlidFlake);
crate::__impl_integrations!([] [T: ?Sized,] crate::id::Id<T>);
crate::__impl_integrations!([] [T: crate::prefixed::Prefix + ?Sized,] crate::prefixed::PrefixedId<T>);

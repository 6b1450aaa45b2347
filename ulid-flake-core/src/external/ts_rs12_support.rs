//! ts-rs: the TypeScript type of every ID type, as JSON carries it. `UlidFlake`, `Id<T>` and
//! unprefixed `newtype!` keys are `string`; a prefixed type is the template literal type of its
//! text, `` `user_${string}` ``, so that a frontend cannot pass a post's ID where a user's is
//! expected. Nothing is a `number`: IDs exceed 2^53, which a JavaScript number cannot hold.
//!
//! The types are written inline where a derived type uses them (ts-rs exports no file for
//! them, and needs none to be imported); `T` of `Id<T>` needs no `TS`. A derived type generic
//! over the entity (`Page<T>` with an `Id<T>` field) gets ts-rs' default bound `T: TS` all the
//! same: lift it with `#[ts(bound = "")]`.

use alloc::format;
use alloc::string::String;

use crate::id_type::IdType;

/// The TypeScript type of an ID type's text, as the module docs say.
pub fn name<I: IdType>() -> String {
    match I::PREFIX {
        None => "string".into(),
        Some(prefix) => format!("`{prefix}_${{string}}`"),
    }
}

/// Implements ts-rs' `TS` for an ID type, as [`name`]. Not public API: the list in
/// `external/mod.rs` calls it.
#[doc(hidden)]
#[macro_export]
macro_rules! __impl_ts_rs12 {
    (["ts-rs12" $($without:tt)*] $($rest:tt)*) => {};
    ([$other:tt $($without:tt)*] $($rest:tt)*) => {
        $crate::__impl_ts_rs12!([$($without)*] $($rest)*);
    };
    ([] [$($generics:tt)*] $ty:ty) => {
        impl<$($generics)*> $crate::__private::ts_rs::TS for $ty {
            type WithoutGenerics = Self;
            type OptionInnerType = Self;

            fn name(_: &$crate::__private::ts_rs::Config) -> $crate::__private::String {
                $crate::__private::ts_rs12_support::name::<Self>()
            }

            fn inline(config: &$crate::__private::ts_rs::Config) -> $crate::__private::String {
                <Self as $crate::__private::ts_rs::TS>::name(config)
            }
        }
    };
}

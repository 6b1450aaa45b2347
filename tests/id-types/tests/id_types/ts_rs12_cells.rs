use ts_rs::{Config, TS};

use super::*;

/// The TypeScript type is the text's: `string`, or the template literal of a prefixed text.
fn check<I: TS>(_id: I, text: &str) {
    let expected = match text.strip_suffix("_00CMXB6TAK4SA") {
        None => "string".to_owned(),
        Some(prefix) => format!("`{prefix}_${{string}}`"),
    };
    let config = Config::new();
    assert_eq!(I::name(&config), expected);
    assert_eq!(I::inline(&config), expected);
}

macro_rules! cell {
    ($ty:ty, $id:expr, $text:literal) => {
        check($id, $text)
    };
}

#[test]
fn every_id_type_is_declared_as_its_text() {
    each_id_type!(cell);
}

/// In a derived type, each field as its text, inline (no file to import), and no `number`
/// anywhere, even for large-integer settings: an ID exceeds 2^53.
#[test]
fn a_derived_type_declares_each_id_field_as_its_text() {
    #[derive(TS)]
    #[allow(dead_code)]
    struct Row {
        a: UlidFlake,
        b: Id<User>,
        c: PrefixedId<User>,
        d: UserKey,
        e: OrderKey,
        f: Option<PrefixedId<User>>,
        g: Vec<OrderKey>,
    }
    let config = Config::new().with_large_int("number");
    assert_eq!(
        Row::decl(&config),
        "type Row = { a: string, b: string, c: `user_${string}`, d: string, \
         e: `order_${string}`, f: `user_${string}` | null, g: Array<`order_${string}`>, };"
    );
    assert!(Row::dependencies(&config).is_empty());
}

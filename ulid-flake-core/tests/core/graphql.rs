//! The async-graphql scalars, through a real schema executed with queries and mutations that
//! take `Id<User>` and `PrefixedId<User>` arguments.

use std::collections::BTreeMap;
use std::sync::Mutex;

use async_graphql::{Context, EmptySubscription, Object, Request, Schema, SimpleObject, Variables};
use serde_json::{Value, json};
use ulid_flake_core::{Id, Prefix, PrefixedId, UlidFlake, ulid_flake};

struct User;

impl Prefix for User {
    const PREFIX: &'static str = "user";
}

/// A user as the API shows it.
#[derive(SimpleObject, Clone)]
#[graphql(name = "User")]
struct UserObject {
    id: Id<User>,
    handle: PrefixedId<User>,
    name: String,
    invited_by: Option<Id<User>>,
}

/// The users, by ID.
#[derive(Default)]
struct Store(Mutex<BTreeMap<Id<User>, UserObject>>);

struct Query;

#[Object]
impl Query {
    async fn user(&self, ctx: &Context<'_>, id: Id<User>) -> Option<UserObject> {
        ctx.data_unchecked::<Store>()
            .0
            .lock()
            .unwrap()
            .get(&id)
            .cloned()
    }

    async fn users(&self, ctx: &Context<'_>, ids: Vec<Id<User>>) -> Vec<UserObject> {
        let store = ctx.data_unchecked::<Store>().0.lock().unwrap();
        ids.iter().filter_map(|id| store.get(id).cloned()).collect()
    }

    async fn by_handle(&self, ctx: &Context<'_>, handle: PrefixedId<User>) -> Option<UserObject> {
        let store = ctx.data_unchecked::<Store>().0.lock().unwrap();
        store.get(&handle.to_id()).cloned()
    }

    async fn echo(&self, value: UlidFlake) -> UlidFlake {
        value
    }
}

struct Mutation;

#[Object]
impl Mutation {
    async fn create_user(
        &self,
        ctx: &Context<'_>,
        id: Id<User>,
        name: String,
        invited_by: Option<Id<User>>,
    ) -> UserObject {
        let user = UserObject {
            id,
            handle: id.into(),
            name,
            invited_by,
        };
        let mut store = ctx.data_unchecked::<Store>().0.lock().unwrap();
        store.insert(id, user.clone());
        user
    }
}

type UsersSchema = Schema<Query, Mutation, EmptySubscription>;

fn schema() -> UsersSchema {
    Schema::build(Query, Mutation, EmptySubscription)
        .data(Store::default())
        .finish()
}

/// The response to `request`, as JSON.
async fn execute(schema: &UsersSchema, request: impl Into<Request>) -> Value {
    serde_json::to_value(schema.execute(request).await).unwrap()
}

const ADA: UlidFlake = ulid_flake!("00CMXB6TAK4SA");
const BOB: UlidFlake = ulid_flake!("00F5PEXFDQCGR");

#[tokio::test]
async fn a_mutation_and_a_query_carry_ids_as_strings() {
    let schema = schema();
    let created = execute(
        &schema,
        r#"mutation {
            ada: createUser(id: "00CMXB6TAK4SA", name: "Ada") { id handle invitedBy }
            bob: createUser(id: "00f5pexfdqcgr", name: "Bob", invitedBy: "00CMXB6TAK4SA") { id invitedBy }
        }"#,
    )
    .await;
    assert_eq!(
        created,
        json!({"data": {
            "ada": {"id": "00CMXB6TAK4SA", "handle": "user_00CMXB6TAK4SA", "invitedBy": null},
            "bob": {"id": "00F5PEXFDQCGR", "invitedBy": "00CMXB6TAK4SA"},
        }})
    );

    let request = Request::new(
        "query($id: UlidFlake!, $ids: [UlidFlake!]!) { user(id: $id) { name } users(ids: $ids) { id } }",
    )
    .variables(Variables::from_json(json!({
        "id": BOB.to_string(),
        "ids": [BOB.to_string(), ADA.to_string()],
    })));
    assert_eq!(
        execute(&schema, request).await,
        json!({"data": {
            "user": {"name": "Bob"},
            "users": [{"id": "00F5PEXFDQCGR"}, {"id": "00CMXB6TAK4SA"}],
        }})
    );
}

#[tokio::test]
async fn a_prefixed_argument_is_its_own_scalar() {
    let schema = schema();
    execute(
        &schema,
        r#"mutation { createUser(id: "00CMXB6TAK4SA", name: "Ada") { id } }"#,
    )
    .await;
    let request =
        Request::new("query($handle: PrefixedId_user!) { byHandle(handle: $handle) { name } }")
            .variables(Variables::from_json(
                json!({"handle": "user_00CMXB6TAK4SA"}),
            ));
    assert_eq!(
        execute(&schema, request).await,
        json!({"data": {"byHandle": {"name": "Ada"}}})
    );
    assert_eq!(
        execute(&schema, r#"{ echo(value: "7zzzzzzzzzzzz") }"#).await,
        json!({"data": {"echo": "7ZZZZZZZZZZZZ"}})
    );
}

#[tokio::test]
async fn a_malformed_id_argument_is_a_graphql_error() {
    let schema = schema();
    let response = execute(&schema, r#"{ user(id: "00CMXB6TAK4SI") { name } }"#).await;
    assert_eq!(
        response["errors"][0]["message"],
        "Failed to parse \"UlidFlake\": invalid character 'I' at index 12: expected a \
         Crockford Base32 digit (0-9, A-Z without I, L, O, U, in either case)"
    );
    assert_eq!(response["data"], Value::Null);
}

#[tokio::test]
async fn a_malformed_id_variable_is_a_graphql_error() {
    let schema = schema();
    let request =
        Request::new("mutation($id: UlidFlake!) { createUser(id: $id, name: \"Ada\") { id } }")
            .variables(Variables::from_json(json!({"id": "80000000000000"})));
    let response = execute(&schema, request).await;
    assert_eq!(
        response["errors"][0]["message"],
        "Failed to parse \"UlidFlake\": invalid length: expected 13 ASCII characters, found 14 bytes"
    );
    let request =
        Request::new("mutation($id: UlidFlake!) { createUser(id: $id, name: \"Ada\") { id } }")
            .variables(Variables::from_json(json!({"id": "8000000000000"})));
    let response = execute(&schema, request).await;
    assert_eq!(
        response["errors"][0]["message"],
        "Failed to parse \"UlidFlake\": value out of range: expected 0..=9223372036854775807, \
        found 9223372036854775808 (in Base32 text: expected a first character 0-7, found 8)"
    );
}

#[tokio::test]
async fn a_number_where_an_id_belongs_is_a_graphql_error() {
    let schema = schema();
    let response = execute(&schema, "{ user(id: 14246757444195114) { name } }").await;
    assert_eq!(
        response["errors"][0]["message"],
        "Failed to parse \"UlidFlake\": expected a string of 13 Crockford Base32 characters, \
         found 14246757444195114"
    );
}

#[tokio::test]
async fn a_wrong_prefix_is_a_graphql_error() {
    let schema = schema();
    let response = execute(
        &schema,
        r#"{ byHandle(handle: "post_00CMXB6TAK4SA") { name } }"#,
    )
    .await;
    assert_eq!(
        response["errors"][0]["message"],
        "Failed to parse \"PrefixedId_user\": wrong prefix: expected `user_`, found `post_`"
    );
    let response = execute(&schema, "{ byHandle(handle: 5) { name } }").await;
    assert_eq!(
        response["errors"][0]["message"],
        "Failed to parse \"PrefixedId_user\": expected a string of `user_` and 13 Crockford \
         Base32 characters, found 5"
    );
}

#[test]
fn the_schema_declares_the_scalars_with_descriptions() {
    let sdl = schema().sdl();
    assert!(
        sdl.contains(
            "\"\"\"\nA Ulid-Flake: a time-sortable 64-bit ID as 13 Crockford Base32 characters \
             (either case accepted). A string, not a number: IDs exceed 2^53.\n\"\"\"\nscalar UlidFlake\n"
        ),
        "{sdl}"
    );
    assert!(
        sdl.contains(
            "\"\"\"\nA prefixed Ulid-Flake: the entity's prefix, `_`, then a time-sortable 64-bit \
             ID as 13 Crockford Base32 characters (either case accepted). A string, not a \
             number.\n\"\"\"\nscalar PrefixedId_user\n"
        ),
        "{sdl}"
    );
    assert!(sdl.contains("\tuser(id: UlidFlake!): User\n"), "{sdl}");
    assert!(
        sdl.contains("\tbyHandle(handle: PrefixedId_user!): User\n"),
        "{sdl}"
    );
    assert!(sdl.contains("\tinvitedBy: UlidFlake\n"), "{sdl}");
}

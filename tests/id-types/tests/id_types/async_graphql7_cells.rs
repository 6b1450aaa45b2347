use async_graphql::{EmptyMutation, EmptySubscription, Object, Schema};
use serde_json::json;

use super::*;

struct Query;

/// One field per ID type, each taking and returning it.
#[Object]
impl Query {
    async fn ulid_flake(&self, id: UlidFlake) -> UlidFlake {
        id
    }

    async fn id(&self, id: Id<User>) -> Id<User> {
        id
    }

    async fn prefixed_id(&self, id: PrefixedId<User>) -> PrefixedId<User> {
        id
    }

    async fn user_key(&self, id: UserKey) -> UserKey {
        id
    }

    async fn order_key(&self, id: OrderKey) -> OrderKey {
        id
    }
}

fn schema() -> Schema<Query, EmptyMutation, EmptySubscription> {
    Schema::new(Query, EmptyMutation, EmptySubscription)
}

#[tokio::test]
async fn every_id_type_is_a_string_scalar_in_and_out() {
    let response = schema()
        .execute(
            r#"{
                ulidFlake(id: "00CMXB6TAK4SA")
                id(id: "00cmxb6tak4sa")
                prefixedId(id: "user_00CMXB6TAK4SA")
                userKey(id: "00CMXB6TAK4SA")
                orderKey(id: "order_00CMXB6TAK4SA")
            }"#,
        )
        .await;
    assert!(response.errors.is_empty(), "{:?}", response.errors);
    assert_eq!(
        response.data.into_json().unwrap(),
        json!({
            "ulidFlake": "00CMXB6TAK4SA",
            "id": "00CMXB6TAK4SA",
            "prefixedId": "user_00CMXB6TAK4SA",
            "userKey": "00CMXB6TAK4SA",
            "orderKey": "order_00CMXB6TAK4SA",
        })
    );
}

#[tokio::test]
async fn a_prefixed_key_rejects_another_prefix_with_the_cores_message() {
    let response = schema()
        .execute(r#"{ orderKey(id: "user_00CMXB6TAK4SA") }"#)
        .await;
    assert_eq!(
        response.errors[0].message,
        "Failed to parse \"PrefixedId_order\": wrong prefix: expected `order_`, found `user_`"
    );
}

#[test]
fn unprefixed_types_share_one_scalar_and_each_prefix_has_its_own() {
    let sdl = schema().sdl();
    assert_eq!(sdl.matches("scalar ").count(), 3, "{sdl}");
    for scalar in ["UlidFlake", "PrefixedId_user", "PrefixedId_order"] {
        assert!(sdl.contains(&format!("scalar {scalar}\n")), "{sdl}");
    }
    assert!(sdl.contains("\tuserKey(id: UlidFlake!): UlidFlake!\n"), "{sdl}");
    assert!(sdl.contains("\torderKey(id: PrefixedId_order!): PrefixedId_order!\n"), "{sdl}");
}

//! The entities of the tests: users, their posts (`belongs_to` a user through an `Id<User>`
//! foreign key) and, on PostgreSQL, reading lists that hold an array of user IDs.

/// A user row.
pub(crate) type User = user::Model;
/// A post row.
pub(crate) type Post = post::Model;

pub(crate) mod user {
    use sea_orm::entity::prelude::*;
    use ulid_flake_core::Id;

    /// A user, keyed by an `Id<User>`, with a nullable reference to the user who invited them.
    #[derive(
        Clone, Debug, PartialEq, Eq, DeriveEntityModel, serde::Serialize, serde::Deserialize,
    )]
    #[sea_orm(table_name = "users")]
    pub(crate) struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub(crate) id: Id<Model>,
        pub(crate) name: String,
        pub(crate) invited_by: Option<Id<Model>>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub(crate) enum Relation {
        #[sea_orm(has_many = "super::post::Entity")]
        Post,
    }

    impl Related<super::post::Entity> for Entity {
        fn to() -> RelationDef {
            Relation::Post.def()
        }
    }

    impl ActiveModelBehavior for ActiveModel {}
}

pub(crate) mod post {
    use sea_orm::entity::prelude::*;
    use ulid_flake_core::Id;

    use super::User;

    /// A post, keyed by an `Id<Post>`, written by a user.
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "posts")]
    pub(crate) struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub(crate) id: Id<Model>,
        pub(crate) author_id: Id<User>,
        pub(crate) title: String,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub(crate) enum Relation {
        #[sea_orm(
            belongs_to = "super::user::Entity",
            from = "Column::AuthorId",
            to = "super::user::Column::Id"
        )]
        User,
    }

    impl Related<super::user::Entity> for Entity {
        fn to() -> RelationDef {
            Relation::User.def()
        }
    }

    impl ActiveModelBehavior for ActiveModel {}
}

pub(crate) mod reading_list {
    use sea_orm::entity::prelude::*;
    use ulid_flake_core::{Id, UlidFlake};

    use super::User;

    /// A list of users (PostgreSQL only: a `BIGINT[]` column).
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "reading_lists")]
    pub(crate) struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub(crate) id: UlidFlake,
        pub(crate) members: Vec<Id<User>>,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub(crate) enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

pub(crate) mod invoice {
    use sea_orm::entity::prelude::*;
    use ulid_flake_core::Id;

    /// An invoice, whose key the database makes (`ulid_flake_generate`).
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "invoices")]
    pub(crate) struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub(crate) id: Id<Model>,
        pub(crate) total: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub(crate) enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

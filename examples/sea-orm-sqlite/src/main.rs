//! Users and posts as SeaORM entities with typed Ulid-Flake keys (`Id<User>`, `Id<Post>`),
//! stored as `BIGINT` in an SQLite file: the tables created, rows inserted, then found by key,
//! by foreign key, through the relation and by time window.
//!
//! `cargo run -p example-sea-orm-sqlite [PATH]` (a temporary file unless `PATH` is given).

use std::time::{Duration, SystemTime};

use sea_orm::{
    ActiveValue, ColumnTrait, ConnectionTrait, Database, DatabaseConnection, DbErr, EntityTrait,
    ModelTrait, PaginatorTrait, QueryFilter, QueryOrder,
};
use ulid_flake_core::{Epoch, Id};

/// A user row.
type User = user::Model;
/// A post row.
type Post = post::Model;

mod user {
    use sea_orm::entity::prelude::*;
    use ulid_flake_core::Id;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "users")]
    pub(crate) struct Model {
        // The application makes the keys: no auto-increment.
        #[sea_orm(primary_key, auto_increment = false)]
        pub(crate) id: Id<Model>,
        pub(crate) name: String,
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

mod post {
    use sea_orm::entity::prelude::*;
    use ulid_flake_core::Id;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "posts")]
    pub(crate) struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub(crate) id: Id<Model>,
        // An `Id<User>`: an `Id<Post>` cannot be stored here by mistake.
        pub(crate) author: Id<super::User>,
        pub(crate) title: String,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub(crate) enum Relation {
        #[sea_orm(
            belongs_to = "super::user::Entity",
            from = "Column::Author",
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

/// Creates the tables, keys `BIGINT NOT NULL PRIMARY KEY`. Not with SeaORM's schema builder:
/// on SQLite it declares a key `INTEGER PRIMARY KEY`, the table's rowid, which gives a row
/// inserted without its key the largest key plus one, in silence, where this key refuses it.
async fn create_tables(db: &DatabaseConnection) -> Result<(), DbErr> {
    db.execute_unprepared(
        "CREATE TABLE IF NOT EXISTS users (id BIGINT NOT NULL PRIMARY KEY, name TEXT NOT NULL)",
    )
    .await?;
    db.execute_unprepared(
        "CREATE TABLE IF NOT EXISTS posts (id BIGINT NOT NULL PRIMARY KEY, \
         author BIGINT NOT NULL REFERENCES users (id), title TEXT NOT NULL)",
    )
    .await?;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).map_or_else(
        || std::env::temp_dir().join(format!("ulid-flake-sea-orm-{}.sqlite3", std::process::id())),
        Into::into,
    );
    let db = Database::connect(format!("sqlite://{}?mode=rwc", path.display())).await?;
    create_tables(&db).await?;

    let ada: Id<User> = Id::generate()?;
    user::Entity::insert(user::ActiveModel {
        id: ActiveValue::Set(ada),
        name: ActiveValue::Set("Ada".into()),
    })
    .exec(&db)
    .await?;
    for title in ["Notes on the Analytical Engine", "Sketch of the Engine"] {
        post::Entity::insert(post::ActiveModel {
            id: ActiveValue::Set(Id::generate()?),
            author: ActiveValue::Set(ada),
            title: ActiveValue::Set(title.into()),
        })
        .exec(&db)
        .await?;
    }

    let user = user::Entity::find_by_id(ada)
        .one(&db)
        .await?
        .ok_or("no user")?;
    let posts: Vec<Post> = user
        .find_related(post::Entity)
        .order_by_asc(post::Column::Id)
        .all(&db)
        .await?;
    let by_author = post::Entity::find()
        .filter(post::Column::Author.eq(ada))
        .count(&db)
        .await?;
    // Keys sort by time: the posts of the last hour are one range of keys.
    let now = SystemTime::now();
    let (lowest, highest) = Id::<Post>::range_for(
        Epoch::DEFAULT,
        now - Duration::from_secs(3600)..now + Duration::from_secs(1),
    )
    .ok_or("empty window")?;
    let recent = post::Entity::find()
        .filter(post::Column::Id.between(lowest, highest))
        .all(&db)
        .await?;
    let with_author = post::Entity::find()
        .filter(post::Column::Id.between(lowest, highest))
        .find_also_related(user::Entity)
        .order_by_asc(post::Column::Id)
        .all(&db)
        .await?;

    // What the run checks (scripts/test.sh runs it): the keys came back as they went in.
    assert_eq!(user.id, ada);
    assert_eq!(by_author, 2);
    assert!(posts.iter().all(|post| recent.contains(post)));
    assert!(
        posts
            .iter()
            .all(|post| with_author.contains(&(post.clone(), Some(user.clone()))))
    );

    println!("user {} ({}): {}", user.id, i64::from(user.id), user.name);
    for post in &posts {
        println!("post {} by {}: {}", post.id, post.author, post.title);
    }
    println!(
        "posts by {ada}: {by_author}; made in the last hour: {}",
        recent.len()
    );
    for (post, author) in with_author.iter().filter(|(post, _)| post.author == ada) {
        let author = author.as_ref().map_or("?", |author| author.name.as_str());
        println!("{} is by {author}", post.id);
    }
    println!("database file: {}", path.display());
    Ok(())
}

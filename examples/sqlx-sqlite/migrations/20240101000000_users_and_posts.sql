-- IDs are plain BIGINTs: 8 bytes, sorted by creation time. NOT NULL: SQLite lets any
-- primary key but an INTEGER one hold NULL.
CREATE TABLE users (
    id BIGINT NOT NULL PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE posts (
    id BIGINT NOT NULL PRIMARY KEY,
    author BIGINT NOT NULL REFERENCES users (id),
    title TEXT NOT NULL
);

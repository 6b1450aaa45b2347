-- IDs are plain BIGINTs: 8 bytes, sorted by creation time.
CREATE TABLE users (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL
);

CREATE TABLE posts (
    id BIGINT PRIMARY KEY,
    author BIGINT NOT NULL REFERENCES users (id),
    title TEXT NOT NULL
);

-- IDs are plain BIGINTs: 8 bytes, sorted by creation time.
CREATE TABLE users (
    id BIGINT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL
);

CREATE TABLE posts (
    id BIGINT PRIMARY KEY NOT NULL,
    author BIGINT NOT NULL REFERENCES users (id),
    title TEXT NOT NULL
);

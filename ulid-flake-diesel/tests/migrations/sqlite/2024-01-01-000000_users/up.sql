CREATE TABLE users (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL,
    invited_by BIGINT NULL REFERENCES users (id)
);

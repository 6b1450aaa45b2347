DROP TABLE posts;
DROP TABLE users;

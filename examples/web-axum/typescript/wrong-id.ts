// Must not compile (scripts/check-typescript.sh asserts the error): a post's ID where a
// user's belongs.
import type { NewPost, Post } from "./api";

declare const post: Post;
const body: NewPost = { author: post.id, title: "Notes" };
export { body };

// A client of the example API, compiled against the declarations the server prints
// (scripts/check-typescript.sh): every ID is a string, a prefixed one a template literal type.
import type { NewPost, Page, Post, User } from "./api";

const ada: User = { id: "user_00CMXB6TAK4SA", name: "Ada" };
const body: NewPost = { author: ada.id, title: "Notes" };
const post: Post = { id: "post_00CMXB6TAK4SB", author: body.author, title: body.title };
const url: string = `/users/${post.author}/posts?after=${post.id}`;
const page: Page<Post> = { items: [post], next: post.id };
// An ID is no number, and a user's is no post's: each line below must be an error.
// @ts-expect-error
const numeric: User["id"] = 14246757444195114;
// @ts-expect-error
const other: User["id"] = "post_00CMXB6TAK4SA";
// @ts-expect-error
const cursor: Page<User> = { items: [ada], next: post.id };
// The template type checks the prefix only: one built from a number type-checks, and is no ID.
const built: User["id"] = `user_${14246757444195114}`;
export { built, cursor, numeric, other, page, url };

// A client of the example API, compiled against the declarations the server prints
// (scripts/check-typescript.sh): every ID is a string, a prefixed one a template literal type.
import type { NewPost, Post, User } from "./api";

const ada: User = { id: "user_00CMXB6TAK4SA", name: "Ada" };
const body: NewPost = { author: ada.id, title: "Notes" };
const post: Post = { id: "post_00CMXB6TAK4SB", author: body.author, title: body.title };
const url: string = `/users/${post.author}/posts?after=${post.id}`;
export { url };

// Ids for conversations, turns and chips. They are stored (workspaceState) and travel to the
// webview, so they must be unique across reloads, not only within one run: the time, a counter
// for ids made in the same millisecond, and a little randomness for two windows doing the same.

let counter = 0;

/** A new id, unique in this process and, in practice, across reloads and windows. */
export function newId(): string {
  return `${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

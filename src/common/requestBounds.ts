import type { WebviewRequestName } from './protocol';

// How long the page waits for each reply (src/webview/rpc.ts). A reply that never comes (a host
// that was restarted, or lost the message) must not leave the page waiting for ever: past its
// bound a request fails and the page says so. One table, keyed by the protocol's requests
// (protocol.ts), so a new request needs a bound, or a reason for none.

/**
 * The host answers most requests at once: work in memory, or one clipboard or editor call,
 * milliseconds even on a loaded machine. Ten seconds is far past that, and short enough that
 * whoever pressed Send is told before they give up on the chat.
 */
const HOST_REPLY_MS = 10_000;

/** The host's own limit on fetching an image the user clicked: lookup, connection and body (src/chat/core/imageLoader.ts). */
export const IMAGE_FETCH_MS = 15_000;

/**
 * How long the page waits for each request's reply, in ms. `null` where the host waits on the
 * user (a dialog, an input box, VS Code's "open this link?") or on a whole answer: that takes as
 * long as it takes, and giving up would say "failed" while the dialog is still open. The host
 * answers every request once (src/chat/core/pageChannel.ts), so these settle when the user is done.
 */
export const REQUEST_TIMEOUT_MS: { readonly [N in WebviewRequestName]: number | null } = {
  ready: HOST_REPLY_MS,
  // The host starts the answer and replies; the answer itself arrives as notifications.
  send: HOST_REPLY_MS,
  stop: HOST_REPLY_MS,
  saveDraft: HOST_REPLY_MS,
  removeChip: HOST_REPLY_MS,
  toggleChipType: HOST_REPLY_MS,
  // vscode.env.openExternal asks the user first about a domain they have not trusted.
  openLink: null,
  copyCode: HOST_REPLY_MS,
  insertCode: HOST_REPLY_MS,
  copyAnswer: HOST_REPLY_MS,
  // Retry replies when the new answer is complete; setting the key waits in an input box.
  runAction: null,
  // The agent flow asks the user (instruction, review, confirmation) before anything is sent.
  fixInDocs: null,
  // Opening the pull request may ask about its link; a follow-up waits in an input box.
  jobAction: null,
  loadImage: IMAGE_FETCH_MS + HOST_REPLY_MS,
  // Opening a virtual document in an editor: no dialog, no network.
  openAccessibleView: HOST_REPLY_MS,
};

import type { AssistantApiVersion, AssistantRequest, ChatMessage, ContextItem } from './types';

// The assistant request body (service-interface.md §2.3, notes.md). Built field by field from
// known values only, so nothing a caller happens to carry on its objects leaks onto the wire.

export const CURRENT_PATH_MAX_CHARS = 200;
export const DEFAULT_RETRIEVAL_PAGE_SIZE = 5;

/**
 * `path` cut to its last 200 characters: the end of a path (the page itself) says more than
 * its start. A surrogate pair is never split, so the result may be 199 characters.
 */
export function trimCurrentPath(path: string): string {
  if (path.length <= CURRENT_PATH_MAX_CHARS) return path;
  let out = path.slice(-CURRENT_PATH_MAX_CHARS);
  const first = out.charCodeAt(0);
  if (first >= 0xdc00 && first <= 0xdfff) out = out.slice(1);
  return out;
}

/** The text of a message: its text parts joined, as the v1 `content` field wants it. */
export function messageContent(message: ChatMessage): string {
  return message.parts
    .filter((p) => p.type === 'text')
    .map((p) => p.text)
    .join('');
}

function wireMessage(message: ChatMessage, version: AssistantApiVersion): Record<string, unknown> {
  const parts = message.parts.filter((p) => p.type === 'text').map((p) => ({ type: 'text', text: p.text }));
  return version === 'v1' ? { id: message.id, role: message.role, content: messageContent(message), parts } : { id: message.id, role: message.role, parts };
}

function wireContext(item: ContextItem): Record<string, unknown> {
  const out: Record<string, unknown> = { type: item.type, value: item.value };
  if (item.path !== undefined && item.path !== '') out.path = item.path;
  if (item.elementId !== undefined && item.elementId !== '') out.elementId = item.elementId;
  return out;
}

/**
 * The JSON body for POST /discovery/{version}/assistant/{domain}/message.
 * - `fp` falls back to "anonymous" when blank (it is required).
 * - `threadId` is always present: null starts a new conversation.
 * - `threadKey` only when the service handed one out (it is not in the OpenAPI).
 * - `retrievalPageSize` defaults to 5, as the service's own example sends it on every request.
 * - `filter` when given (null included), `context` when not empty, `currentPath` when not empty.
 */
export function buildAssistantBody(request: AssistantRequest, version: AssistantApiVersion): Record<string, unknown> {
  const body: Record<string, unknown> = {
    fp: request.fp && request.fp.trim() !== '' ? request.fp : 'anonymous',
    messages: request.messages.map((m) => wireMessage(m, version)),
    threadId: request.threadId ? request.threadId : null,
  };
  if (request.threadId && request.threadKey) body.threadKey = request.threadKey;
  body.retrievalPageSize = request.retrievalPageSize ?? DEFAULT_RETRIEVAL_PAGE_SIZE;
  if (request.filter !== undefined) body.filter = request.filter;
  if (request.context && request.context.length > 0) body.context = request.context.map(wireContext);
  if (request.currentPath) body.currentPath = trimCurrentPath(request.currentPath);
  return body;
}

import type { UIMessageChunk } from './types';
import { isObj, str, type Obj } from './json';

// One chunk of the AI SDK v5 "UI message stream" (notes.md): checking its shape before the reducer
// trusts it. Unknown types are skipped, not fatal, because newer SDK versions add types; a chunk
// that is not JSON is reported and skipped too. Neither ever ends the answer.

export type SkipReason = 'unknown-type' | 'malformed';

/** What one stream event turns into. */
export type StreamItem = { kind: 'chunk'; chunk: UIMessageChunk } | { kind: 'skip'; reason: SkipReason; detail: string } | { kind: 'done' };

const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';

/** Copies `keys` that are present (not undefined), so optional fields stay absent, not `undefined`. */
function pick<T extends Obj>(o: Obj, base: T, keys: readonly string[]): T {
  const out: Obj = base;
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out as T;
}

type Skip = { kind: 'skip'; reason: SkipReason; detail: string };

// Module-level, not made per call: this runs for every chunk, thousands per answer.
const malformed = (t: string): Skip => ({ kind: 'skip', reason: 'malformed', detail: `a "${t.slice(0, 60)}" chunk with missing or invalid fields` });
const ok = (chunk: UIMessageChunk): StreamItem => ({ kind: 'chunk', chunk });

/**
 * Validates one chunk into a stream item: a clean chunk holding only the fields this client
 * uses, or a reason to skip it: `unknown-type` for a type this client does not know (newer SDKs
 * add types), `malformed` for a known type with missing or wrongly typed fields.
 */
function chunkItem(json: unknown): StreamItem {
  if (!isObj(json) || !str(json.type)) return { kind: 'skip', reason: 'malformed', detail: 'a chunk without a "type"' };
  const o = json;
  const t = o.type as string;
  switch (t) {
    case 'start':
      return optStr(o.messageId) ? ok(pick(o, { type: 'start' }, ['messageId', 'messageMetadata'])) : malformed(t);
    case 'start-step':
    case 'finish-step':
      return ok({ type: t });
    case 'text-start':
    case 'text-end':
    case 'reasoning-start':
    case 'reasoning-end':
      return str(o.id) ? ok({ type: t, id: o.id }) : malformed(t);
    case 'text-delta':
    case 'reasoning-delta':
      return str(o.id) && str(o.delta) ? ok({ type: t, id: o.id, delta: o.delta }) : malformed(t);
    case 'tool-input-start':
      return str(o.toolCallId) && str(o.toolName) ? ok({ type: t, toolCallId: o.toolCallId, toolName: o.toolName }) : malformed(t);
    case 'tool-input-delta':
      return str(o.toolCallId) && str(o.inputTextDelta) ? ok({ type: t, toolCallId: o.toolCallId, inputTextDelta: o.inputTextDelta }) : malformed(t);
    case 'tool-input-available':
      return str(o.toolCallId) && str(o.toolName) ? ok({ type: t, toolCallId: o.toolCallId, toolName: o.toolName, input: o.input }) : malformed(t);
    case 'tool-input-error':
      return str(o.toolCallId) && str(o.toolName) && str(o.errorText)
        ? ok({ type: t, toolCallId: o.toolCallId, toolName: o.toolName, input: o.input, errorText: o.errorText })
        : malformed(t);
    case 'tool-output-available':
      return str(o.toolCallId) ? ok({ type: t, toolCallId: o.toolCallId, output: o.output }) : malformed(t);
    case 'tool-output-error':
      return str(o.toolCallId) && str(o.errorText) ? ok({ type: t, toolCallId: o.toolCallId, errorText: o.errorText }) : malformed(t);
    case 'source-url':
      return str(o.sourceId) && str(o.url) && optStr(o.title) ? ok(pick(o, { type: t, sourceId: o.sourceId, url: o.url }, ['title'])) : malformed(t);
    case 'source-document':
      return str(o.sourceId) && str(o.mediaType) && str(o.title) && optStr(o.filename)
        ? ok(pick(o, { type: t, sourceId: o.sourceId, mediaType: o.mediaType, title: o.title }, ['filename']))
        : malformed(t);
    case 'file':
      return str(o.url) && str(o.mediaType) ? ok({ type: t, url: o.url, mediaType: o.mediaType }) : malformed(t);
    case 'error':
      return str(o.errorText) ? ok({ type: t, errorText: o.errorText }) : malformed(t);
    case 'abort':
      return optStr(o.reason) ? ok(pick(o, { type: t }, ['reason'])) : malformed(t);
    case 'message-metadata':
      return 'messageMetadata' in o ? ok({ type: t, messageMetadata: o.messageMetadata }) : malformed(t);
    case 'finish':
      return optStr(o.finishReason) && optStr(o.threadId) ? ok(pick(o, { type: t }, ['finishReason', 'messageMetadata', 'threadId'])) : malformed(t);
    default:
      if (t.startsWith('data-') && t.length > 5) {
        if (!optStr(o.id) || (o.transient !== undefined && typeof o.transient !== 'boolean')) return malformed(t);
        return ok(pick(o, { type: t as `data-${string}`, data: o.data }, ['id', 'transient']));
      }
      return { kind: 'skip', reason: 'unknown-type', detail: `a chunk of unknown type "${t.slice(0, 60)}"` };
  }
}

/** Validates one chunk: the clean chunk, or why it is skipped. */
export function classifyChunk(json: unknown): { chunk: UIMessageChunk } | { reason: SkipReason; detail: string } {
  const item = chunkItem(json);
  return item.kind === 'chunk' ? { chunk: item.chunk } : { reason: (item as Skip).reason, detail: (item as Skip).detail };
}

/** Validates one chunk's shape; undefined for an unknown type or an invalid chunk (skip it). */
export function parseChunk(json: unknown): UIMessageChunk | undefined {
  const r = classifyChunk(json);
  return 'chunk' in r ? r.chunk : undefined;
}

/** One SSE `data:` payload to a stream item: `[DONE]`, a chunk, or a reason to skip. */
export function itemFromSseData(data: string): StreamItem {
  if (data === '[DONE]' || (data.length < 20 && data.trim() === '[DONE]')) return { kind: 'done' };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    const head = data.length > 60 ? `${data.slice(0, 60)}…` : data;
    return { kind: 'skip', reason: 'malformed', detail: `a chunk that is not JSON: ${JSON.stringify(head)}` };
  }
  return chunkItem(json);
}

import type { UIMessageChunk } from './types';

// One chunk of the AI SDK v5 "UI message stream" (notes.md): checking its shape before the reducer
// trusts it. Unknown types are skipped, not fatal, because newer SDK versions add types; a chunk
// that is not JSON is reported and skipped too. Neither ever ends the answer.

export type SkipReason = 'unknown-type' | 'malformed';

/** What one stream event turns into. */
export type StreamItem =
  | { kind: 'chunk'; chunk: UIMessageChunk }
  | { kind: 'skip'; reason: SkipReason; detail: string }
  | { kind: 'done' };

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string';
const optStr = (v: unknown): boolean => v === undefined || typeof v === 'string';

/** Copies `keys` that are present (not undefined), so optional fields stay absent, not `undefined`. */
function pick<T extends Obj>(o: Obj, base: T, keys: readonly string[]): T {
  const out: Obj = base;
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out as T;
}

/**
 * Validates one chunk. Returns a clean chunk holding only the fields this client uses, or a
 * reason to skip it: `unknown-type` for a type this client does not know (newer SDKs add types),
 * `malformed` for a known type with missing or wrongly typed fields.
 */
export function classifyChunk(json: unknown): { chunk: UIMessageChunk } | { reason: SkipReason; detail: string } {
  if (!isObj(json) || !str(json.type)) return { reason: 'malformed', detail: 'a chunk without a "type"' };
  const o = json;
  const t = o.type as string;
  const bad = (): { reason: SkipReason; detail: string } => ({ reason: 'malformed', detail: `a "${t.slice(0, 60)}" chunk with missing or invalid fields` });
  const ok = (chunk: UIMessageChunk): { chunk: UIMessageChunk } => ({ chunk });
  switch (t) {
    case 'start':
      return optStr(o.messageId) ? ok(pick(o, { type: 'start' }, ['messageId', 'messageMetadata'])) : bad();
    case 'start-step':
    case 'finish-step':
      return ok({ type: t });
    case 'text-start':
    case 'text-end':
    case 'reasoning-start':
    case 'reasoning-end':
      return str(o.id) ? ok({ type: t, id: o.id }) : bad();
    case 'text-delta':
    case 'reasoning-delta':
      return str(o.id) && str(o.delta) ? ok({ type: t, id: o.id, delta: o.delta }) : bad();
    case 'tool-input-start':
      return str(o.toolCallId) && str(o.toolName) ? ok({ type: t, toolCallId: o.toolCallId, toolName: o.toolName }) : bad();
    case 'tool-input-delta':
      return str(o.toolCallId) && str(o.inputTextDelta) ? ok({ type: t, toolCallId: o.toolCallId, inputTextDelta: o.inputTextDelta }) : bad();
    case 'tool-input-available':
      return str(o.toolCallId) && str(o.toolName) ? ok({ type: t, toolCallId: o.toolCallId, toolName: o.toolName, input: o.input }) : bad();
    case 'tool-input-error':
      return str(o.toolCallId) && str(o.toolName) && str(o.errorText)
        ? ok({ type: t, toolCallId: o.toolCallId, toolName: o.toolName, input: o.input, errorText: o.errorText })
        : bad();
    case 'tool-output-available':
      return str(o.toolCallId) ? ok({ type: t, toolCallId: o.toolCallId, output: o.output }) : bad();
    case 'tool-output-error':
      return str(o.toolCallId) && str(o.errorText) ? ok({ type: t, toolCallId: o.toolCallId, errorText: o.errorText }) : bad();
    case 'source-url':
      return str(o.sourceId) && str(o.url) && optStr(o.title) ? ok(pick(o, { type: t, sourceId: o.sourceId, url: o.url }, ['title'])) : bad();
    case 'source-document':
      return str(o.sourceId) && str(o.mediaType) && str(o.title) && optStr(o.filename)
        ? ok(pick(o, { type: t, sourceId: o.sourceId, mediaType: o.mediaType, title: o.title }, ['filename']))
        : bad();
    case 'file':
      return str(o.url) && str(o.mediaType) ? ok({ type: t, url: o.url, mediaType: o.mediaType }) : bad();
    case 'error':
      return str(o.errorText) ? ok({ type: t, errorText: o.errorText }) : bad();
    case 'abort':
      return optStr(o.reason) ? ok(pick(o, { type: t }, ['reason'])) : bad();
    case 'message-metadata':
      return 'messageMetadata' in o ? ok({ type: t, messageMetadata: o.messageMetadata }) : bad();
    case 'finish':
      return optStr(o.finishReason) && optStr(o.threadId) ? ok(pick(o, { type: t }, ['finishReason', 'messageMetadata', 'threadId'])) : bad();
    default:
      if (t.startsWith('data-') && t.length > 5) {
        if (!optStr(o.id) || (o.transient !== undefined && typeof o.transient !== 'boolean')) return bad();
        return ok(pick(o, { type: t as `data-${string}`, data: o.data }, ['id', 'transient']));
      }
      return { reason: 'unknown-type', detail: `a chunk of unknown type "${t.slice(0, 60)}"` };
  }
}

/** Validates one chunk's shape; undefined for an unknown type or an invalid chunk (skip it). */
export function parseChunk(json: unknown): UIMessageChunk | undefined {
  const r = classifyChunk(json);
  return 'chunk' in r ? r.chunk : undefined;
}

/** One SSE `data:` payload to a stream item: `[DONE]`, a chunk, or a reason to skip. */
export function itemFromSseData(data: string): StreamItem {
  if (data.trim() === '[DONE]') return { kind: 'done' };
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    const head = data.length > 60 ? `${data.slice(0, 60)}…` : data;
    return { kind: 'skip', reason: 'malformed', detail: `a chunk that is not JSON: ${JSON.stringify(head)}` };
  }
  const r = classifyChunk(json);
  return 'chunk' in r ? { kind: 'chunk', chunk: r.chunk } : { kind: 'skip', reason: r.reason, detail: r.detail };
}

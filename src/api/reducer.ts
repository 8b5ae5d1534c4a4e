import type { AssembledDataPart, AssembledMessage, AssembledPart, AssembledReasoningPart, AssembledTextPart, AssembledToolCall, UIMessageChunk } from './types';
import { MAX_PARTS, MAX_SOURCES } from './limits';
import { isObj, str, type Obj } from './json';

// Folding UI message stream chunks into an AssembledMessage. Semantics follow the SDK's own
// `processUIMessageStream`, except that where the SDK would throw on an out-of-order chunk (a delta
// for a part that was never started, output for an unknown tool call) this reducer keeps the
// content: text is never dropped.

export function createEmptyMessage(): AssembledMessage {
  return { parts: [], sources: [], files: [], data: [], errors: [], finished: false, aborted: false, skippedChunks: 0 };
}

/** A deep, independent copy (e.g. to keep a snapshot while the stream goes on mutating). */
export function cloneMessage(message: AssembledMessage): AssembledMessage {
  return structuredClone(message);
}

/** All text parts joined, in arrival order. */
export function messageText(message: AssembledMessage): string {
  let out = '';
  for (const p of message.parts) if (p.type === 'text') out += p.text;
  return out;
}

/** Deep merge of plain objects, as the SDK merges message metadata (later values win). */
function mergeMetadata(base: unknown, update: unknown): unknown {
  if (update === undefined) return base;
  if (!isObj(base) || !isObj(update)) return update;
  const out: Obj = { ...base };
  for (const key of Object.keys(update)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const value = update[key];
    if (value === undefined) continue;
    out[key] = isObj(value) && isObj(out[key]) ? mergeMetadata(out[key], value) : value;
  }
  return out;
}

function applyMetadata(message: AssembledMessage, metadata: unknown): void {
  if (metadata === undefined || metadata === null) return;
  message.metadata = mergeMetadata(message.metadata, metadata);
  // The service may hand the thread back in metadata (notes.md "Threads"); the last one wins.
  if (isObj(metadata)) {
    if (str(metadata.threadId) && metadata.threadId !== '') message.threadId = metadata.threadId;
    if (str(metadata.threadKey) && metadata.threadKey !== '') message.threadKey = metadata.threadKey;
  }
}

// Lookups by id go through an index kept beside the message (not in it, so the message stays
// plain data that can be cloned, compared and posted to the webview). Without it every new id
// would scan all parts, and a long answer with many tool calls would cost O(n²).
interface PartIndex {
  parts: AssembledPart[];
  partsLength: number;
  data: AssembledDataPart[];
  dataLength: number;
  /** Newest open text/reasoning part per `${type}:${id}`. */
  open: Map<string, AssembledTextPart | AssembledReasoningPart>;
  /** Newest tool call per toolCallId. */
  tools: Map<string, AssembledToolCall>;
  /** Data part per `${type}:${id}`. */
  dataById: Map<string, AssembledDataPart>;
  /** The part the last delta went to: nearly every delta goes to the same one, without a key to build. */
  last?: AssembledTextPart | AssembledReasoningPart;
}

const indexes = new WeakMap<AssembledMessage, PartIndex>();

const openKey = (type: string, id: string): string => `${type}:${id}`;

/** The index for `message`, rebuilt when the message was not built here (a clone, a restored copy). */
function indexFor(message: AssembledMessage): PartIndex {
  const known = indexes.get(message);
  if (
    known &&
    known.parts === message.parts &&
    known.partsLength === message.parts.length &&
    known.data === message.data &&
    known.dataLength === message.data.length
  ) {
    return known;
  }
  const index: PartIndex = {
    parts: message.parts,
    partsLength: message.parts.length,
    data: message.data,
    dataLength: message.data.length,
    open: new Map(),
    tools: new Map(),
    dataById: new Map(),
  };
  for (const p of message.parts) {
    if (p.type === 'tool') index.tools.set(p.toolCallId, p);
    else if (!p.done) index.open.set(openKey(p.type, p.id), p);
  }
  for (const d of message.data) if (d.id !== undefined) index.dataById.set(openKey(d.type, d.id), d);
  indexes.set(message, index);
  return index;
}

function pushPart(message: AssembledMessage, index: PartIndex, part: AssembledPart): void {
  message.parts.push(part);
  index.partsLength = message.parts.length;
}

/**
 * True when no part may be added: past MAX_PARTS the answer is cut off (the client then reads no
 * further), because each part is shown, and compared on every chunk, for the rest of the answer.
 */
function full(message: AssembledMessage): boolean {
  if (message.parts.length < MAX_PARTS) return false;
  message.cutOff ??= { reason: 'size', limit: `${MAX_PARTS} parts` };
  return true;
}

/** The newest still-open part of `type` with `id` (a second start with the same id takes the id over, as in the SDK). */
function openPart(message: AssembledMessage, type: 'text' | 'reasoning', id: string): AssembledTextPart | AssembledReasoningPart | undefined {
  const index = indexFor(message);
  const last = index.last;
  if (last && !last.done && last.id === id && last.type === type) return last;
  const part = index.open.get(openKey(type, id));
  index.last = part;
  return part;
}

function startPart(message: AssembledMessage, type: 'text' | 'reasoning', id: string): AssembledTextPart | AssembledReasoningPart {
  const index = indexFor(message);
  const part = { type, id, text: '', done: false } as AssembledTextPart | AssembledReasoningPart;
  pushPart(message, index, part);
  index.open.set(openKey(type, id), part);
  index.last = part;
  return part;
}

function endPart(message: AssembledMessage, type: 'text' | 'reasoning', id: string): void {
  const index = indexFor(message);
  const part = index.open.get(openKey(type, id));
  if (!part) return;
  part.done = true;
  index.open.delete(openKey(type, id));
}

/** The tool call with this id, made if new; past MAX_PARTS a new one is a detached stand-in, never shown. */
function toolCall(message: AssembledMessage, toolCallId: string, toolName?: string): AssembledToolCall {
  const index = indexFor(message);
  const known = index.tools.get(toolCallId);
  if (known) return known;
  const created: AssembledToolCall = { type: 'tool', toolCallId, toolName: toolName ?? 'unknown', state: 'input-streaming', inputText: '' };
  if (full(message)) return created;
  pushPart(message, index, created);
  index.tools.set(toolCallId, created);
  return created;
}

/**
 * Folds one chunk into `message` and returns it.
 *
 * It MUTATES `message` in place and returns the same object: a delta then costs O(1) (one string
 * append, one map lookup), where copying the message per chunk would make a long answer O(n²).
 * It is pure in every other sense: no I/O, clock or randomness, so the same chunks give the same
 * message however the bytes were split (the splitting tests prove it). Keep a snapshot with
 * `cloneMessage`; a clone can be reduced further (its id index is rebuilt on first use).
 */
export function reduceChunk(message: AssembledMessage, chunk: UIMessageChunk): AssembledMessage {
  switch (chunk.type) {
    case 'start':
      if (chunk.messageId !== undefined) message.messageId = chunk.messageId;
      applyMetadata(message, chunk.messageMetadata);
      break;
    case 'start-step':
    case 'finish-step':
      // Steps only group parts; the assembled message keeps parts in arrival order regardless.
      break;
    case 'text-start':
    case 'reasoning-start':
      if (!full(message)) startPart(message, chunk.type === 'text-start' ? 'text' : 'reasoning', chunk.id);
      break;
    case 'text-delta':
    case 'reasoning-delta': {
      const type = chunk.type === 'text-delta' ? 'text' : 'reasoning';
      // A delta without its start still carries text the user should see.
      const part = openPart(message, type, chunk.id) ?? (full(message) ? undefined : startPart(message, type, chunk.id));
      if (part) part.text += chunk.delta;
      break;
    }
    case 'text-end':
    case 'reasoning-end':
      endPart(message, chunk.type === 'text-end' ? 'text' : 'reasoning', chunk.id);
      break;
    case 'tool-input-start': {
      const call = toolCall(message, chunk.toolCallId, chunk.toolName);
      call.toolName = chunk.toolName;
      call.state = 'input-streaming';
      break;
    }
    case 'tool-input-delta': {
      const call = toolCall(message, chunk.toolCallId);
      call.inputText += chunk.inputTextDelta;
      break;
    }
    case 'tool-input-available':
    case 'tool-input-error': {
      const call = toolCall(message, chunk.toolCallId, chunk.toolName);
      call.toolName = chunk.toolName;
      call.input = chunk.input;
      if (chunk.type === 'tool-input-error') {
        call.state = 'input-error';
        call.errorText = chunk.errorText;
      } else call.state = 'input-available';
      break;
    }
    case 'tool-output-available': {
      const call = toolCall(message, chunk.toolCallId);
      call.state = 'output-available';
      call.output = chunk.output;
      break;
    }
    case 'tool-output-error': {
      const call = toolCall(message, chunk.toolCallId);
      call.state = 'output-error';
      call.errorText = chunk.errorText;
      break;
    }
    case 'source-url':
      // Citations past MAX_SOURCES add nothing a reader can use, and each would be shown and compared.
      if (message.sources.length >= MAX_SOURCES) break;
      message.sources.push(
        chunk.title === undefined
          ? { sourceId: chunk.sourceId, kind: 'url', url: chunk.url }
          : { sourceId: chunk.sourceId, kind: 'url', url: chunk.url, title: chunk.title },
      );
      break;
    case 'source-document': {
      if (message.sources.length >= MAX_SOURCES) break;
      const source: AssembledMessage['sources'][number] = { sourceId: chunk.sourceId, kind: 'document', title: chunk.title, mediaType: chunk.mediaType };
      if (chunk.filename !== undefined) source.filename = chunk.filename;
      message.sources.push(source);
      break;
    }
    case 'file':
      if (message.files.length >= MAX_SOURCES) break;
      message.files.push({ url: chunk.url, mediaType: chunk.mediaType });
      break;
    case 'error':
      message.errors.push(chunk.errorText);
      break;
    case 'abort':
      message.aborted = true;
      if (chunk.reason !== undefined) message.abortReason = chunk.reason;
      break;
    case 'message-metadata':
      applyMetadata(message, chunk.messageMetadata);
      break;
    case 'finish':
      message.finished = true;
      if (chunk.finishReason !== undefined) message.finishReason = chunk.finishReason;
      applyMetadata(message, chunk.messageMetadata);
      // The interface puts threadId on the finish event itself (§6); most explicit, so applied last.
      if (chunk.threadId) message.threadId = chunk.threadId;
      break;
    default:
      reduceData(message, chunk);
  }
  return message;
}

function reduceData(message: AssembledMessage, chunk: UIMessageChunk): void {
  if (!chunk.type.startsWith('data-')) return;
  const d = chunk as { type: `data-${string}`; id?: string; data: unknown; transient?: boolean };
  // Transient data is for the moment it arrives (e.g. a status line), never part of the message.
  if (d.transient) return;
  const index = indexFor(message);
  if (d.id !== undefined) {
    // As in the SDK: a data part with the same type and id replaces the earlier one's data.
    const existing = index.dataById.get(openKey(d.type, d.id));
    if (existing) {
      existing.data = d.data;
      return;
    }
  }
  const part: AssembledDataPart = { type: d.type, data: d.data };
  if (d.id !== undefined) {
    part.id = d.id;
    index.dataById.set(openKey(d.type, d.id), part);
  }
  message.data.push(part);
  index.dataLength = message.data.length;
}

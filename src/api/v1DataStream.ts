import { MAX_LINE_CHARS } from './limits';
import { isObj, str, type Obj } from './json';
import type { StreamDecoder } from './sse';
import type { StreamItem } from './chunks';
import type { UIMessageChunk } from './types';

// The deprecated v1 answer: the AI SDK v4 "data stream protocol" (notes.md), one `CODE:JSON` line
// per event. It is mapped onto the same UI message chunks as v2, so everything after the decoder
// (reducer, chat view) has only one shape to handle.
//
// v4 has no part ids. A run of text deltas becomes one text part (text-start/delta/end with one
// id); a tool call, a reasoning run or a step boundary ends the run, so text after a tool call is
// a new part, in the order the user saw it.

/** Codes the v4 protocol defines that carry nothing this client shows (redacted reasoning, signatures). */
const IGNORED_CODES = new Set(['i', 'j']);

export interface V1LineDecoder {
  /** Items for one complete line (without its line break). */
  line(line: string): StreamItem[];
  /** Closes an open text or reasoning run at the end of the stream. */
  finish(): StreamItem[];
}

export function createV1LineDecoder(): V1LineDecoder {
  let open: { kind: 'text' | 'reasoning'; id: string } | undefined;
  let runs = 0;
  let started = false;

  const chunk = (c: UIMessageChunk): StreamItem => ({ kind: 'chunk', chunk: c });
  const close = (out: StreamItem[]): void => {
    if (open) out.push(chunk({ type: open.kind === 'text' ? 'text-end' : 'reasoning-end', id: open.id }));
    open = undefined;
  };
  const delta = (kind: 'text' | 'reasoning', value: string, out: StreamItem[]): void => {
    if (open?.kind !== kind) {
      close(out);
      open = { kind, id: `v1-${kind}-${++runs}` };
      out.push(chunk({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id: open.id }));
    }
    out.push(chunk({ type: kind === 'text' ? 'text-delta' : 'reasoning-delta', id: open.id, delta: value }));
  };
  const malformed = (code: string, why: string): StreamItem => ({ kind: 'skip', reason: 'malformed', detail: `a v1 "${code}" line ${why}` });
  /** Annotations and data items: a threadId among them is the thread; the rest is kept as data. */
  const annotations = (code: string, value: unknown, out: StreamItem[]): void => {
    if (!Array.isArray(value)) {
      out.push(malformed(code, 'that is not a list'));
      return;
    }
    for (const item of value) {
      if (isObj(item) && (str(item.threadId) || str(item.threadKey))) {
        const meta: Obj = {};
        if (str(item.threadId)) meta.threadId = item.threadId;
        if (str(item.threadKey)) meta.threadKey = item.threadKey;
        out.push(chunk({ type: 'message-metadata', messageMetadata: meta }));
      } else {
        out.push(chunk({ type: code === '8' ? 'data-annotation' : 'data-v1', data: item }));
      }
    }
  };

  return {
    line(raw) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (line.trim() === '') return [];
      const m = /^([0-9a-z]):/.exec(line);
      if (!m) return [{ kind: 'skip', reason: 'malformed', detail: `a line that is not "CODE:JSON": ${JSON.stringify(line.slice(0, 60))}` }];
      const code = m[1]!;
      let value: unknown;
      try {
        value = JSON.parse(line.slice(2));
      } catch {
        return [malformed(code, 'whose value is not JSON')];
      }
      const out: StreamItem[] = [];
      switch (code) {
        case '0':
        case 'g':
          if (!str(value)) return [malformed(code, 'whose value is not a string')];
          delta(code === '0' ? 'text' : 'reasoning', value, out);
          break;
        case '2':
        case '8':
          annotations(code, value, out);
          break;
        case '3':
          out.push(chunk({ type: 'error', errorText: str(value) ? value : JSON.stringify(value) }));
          break;
        case '9':
          if (!isObj(value) || !str(value.toolCallId) || !str(value.toolName)) return [malformed(code, 'without toolCallId/toolName')];
          close(out);
          out.push(chunk({ type: 'tool-input-available', toolCallId: value.toolCallId, toolName: value.toolName, input: value.args }));
          break;
        case 'a':
          if (!isObj(value) || !str(value.toolCallId)) return [malformed(code, 'without toolCallId')];
          close(out);
          out.push(chunk({ type: 'tool-output-available', toolCallId: value.toolCallId, output: value.result }));
          break;
        case 'b':
          if (!isObj(value) || !str(value.toolCallId) || !str(value.toolName)) return [malformed(code, 'without toolCallId/toolName')];
          close(out);
          out.push(chunk({ type: 'tool-input-start', toolCallId: value.toolCallId, toolName: value.toolName }));
          break;
        case 'c':
          if (!isObj(value) || !str(value.toolCallId) || !str(value.argsTextDelta)) return [malformed(code, 'without toolCallId/argsTextDelta')];
          out.push(chunk({ type: 'tool-input-delta', toolCallId: value.toolCallId, inputTextDelta: value.argsTextDelta }));
          break;
        case 'h': {
          if (!isObj(value) || !str(value.url)) return [malformed(code, 'without a url')];
          const source: UIMessageChunk = { type: 'source-url', sourceId: str(value.id) ? value.id : value.url, url: value.url };
          if (str(value.title)) source.title = value.title;
          out.push(chunk(source));
          break;
        }
        case 'k':
          if (!isObj(value) || !str(value.data) || !str(value.mimeType)) return [malformed(code, 'without data/mimeType')];
          out.push(chunk({ type: 'file', url: `data:${value.mimeType};base64,${value.data}`, mediaType: value.mimeType }));
          break;
        case 'f':
          close(out);
          if (!started) {
            started = true;
            const start: UIMessageChunk = { type: 'start' };
            if (isObj(value) && str(value.messageId)) start.messageId = value.messageId;
            out.push(chunk(start));
          }
          out.push(chunk({ type: 'start-step' }));
          break;
        case 'e':
          close(out);
          out.push(chunk({ type: 'finish-step' }));
          break;
        case 'd': {
          close(out);
          const finish: UIMessageChunk = { type: 'finish' };
          if (isObj(value) && str(value.finishReason)) finish.finishReason = value.finishReason;
          if (isObj(value) && str(value.threadId)) finish.threadId = value.threadId;
          out.push(chunk(finish));
          break;
        }
        default:
          if (IGNORED_CODES.has(code)) return [];
          return [{ kind: 'skip', reason: 'unknown-type', detail: `a v1 line of unknown code "${code}"` }];
      }
      return out;
    },
    finish() {
      const out: StreamItem[] = [];
      close(out);
      return out;
    },
  };
}

/**
 * Bytes of a v1 answer to stream items. Lines are found by scanning only the new bytes for a
 * line break, and a long line is kept as a list of pieces, so a 5 MB line costs O(n), not O(n²).
 * A line that grows past MAX_LINE_CHARS is given up on as soon as it gets there (one skip report)
 * and the rest of it is dropped as it arrives, unread: a line that never ends cannot fill memory.
 */
export function createV1Decoder(): StreamDecoder {
  const text = new TextDecoder('utf-8');
  const lines = createV1LineDecoder();
  let pending: string[] = [];
  let pendingChars = 0;
  /** Dropping the rest of a line that passed the cap, up to its line break. */
  let discarding = false;

  const feed = (chunk: string): StreamItem[] => {
    const out: StreamItem[] = [];
    let start = 0;
    for (let nl = chunk.indexOf('\n'); nl !== -1; nl = chunk.indexOf('\n', start)) {
      if (discarding) {
        discarding = false;
      } else if (pendingChars + (nl - start) > MAX_LINE_CHARS) {
        out.push(tooLong());
      } else {
        pending.push(chunk.slice(start, nl));
        const line = pending.join('');
        for (const item of lines.line(line)) out.push(item);
      }
      pending = [];
      pendingChars = 0;
      start = nl + 1;
    }
    if (start < chunk.length && !discarding) {
      if (pendingChars + (chunk.length - start) > MAX_LINE_CHARS) {
        out.push(tooLong());
        pending = [];
        pendingChars = 0;
        discarding = true;
      } else {
        pending.push(chunk.slice(start));
        pendingChars += chunk.length - start;
      }
    }
    return out;
  };

  return {
    push(bytes) {
      return feed(text.decode(bytes, { stream: true }));
    },
    end() {
      const out = feed(text.decode());
      if (pending.length > 0) {
        const last = pending.join('');
        pending = [];
        pendingChars = 0;
        out.push(...lines.line(last));
      }
      out.push(...lines.finish());
      return out;
    },
  };
}

function tooLong(): StreamItem {
  return { kind: 'skip', reason: 'malformed', detail: `a v1 line longer than ${MAX_LINE_CHARS / 1024 / 1024} MB` };
}

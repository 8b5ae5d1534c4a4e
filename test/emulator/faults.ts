import type { OutgoingHttpHeaders } from 'node:http';

// Faults on demand, so every failure a client must survive can be produced on cue over real HTTP.
// A fault is chosen per request by the header `x-emulator-fault: <mode>` or by `[[fault:<mode>]]`
// in the prompt / the last user message.

export const FAULT_HEADER = 'x-emulator-fault';

/** Assistant faults that shape the stream after 200 and its headers went out. */
export const STREAM_FAULTS = [
  'slow',
  'stall-mid',
  'drop-mid',
  'malformed',
  'unknown-chunks',
  'error-chunk',
  'abort-chunk',
  'no-done',
  'huge-chunk',
  // An answer that never ends: the whole answer again and again, forever.
  'endless',
  // One line that never ends: text without a line break, 64 KB at a time, forever.
  'huge-line',
  // Sources whose links must never reach the webview: javascript:, data:, and a user name that hides the real host.
  'hostile-sources',
] as const;
/** Assistant faults that replace the stream by another answer, or by none. */
export const RESPONSE_FAULTS = [
  'stall-headers',
  'non-sse',
  'html-502',
  '400',
  '401',
  '403',
  '404',
  '429',
  '429-no-retry-after',
  '429-huge',
  '500',
  '503',
] as const;
export const AGENT_FAULTS = [
  '500',
  '503',
  '429',
  '429-no-retry-after',
  // Retry-After: 99999999999 (about 3,000 years), more than a timer can hold.
  '429-huge',
  // A well-formed job, but not the one asked about.
  'other-id',
  '400',
  '401',
  '403',
  '404',
  'html-502',
  'stall-headers',
  'drop',
  'drop-mid',
  'bad-json',
  'bad-job',
] as const;

export type StreamFault = (typeof STREAM_FAULTS)[number];
export type ResponseFault = (typeof RESPONSE_FAULTS)[number];
export type AssistantFault = StreamFault | ResponseFault;
export type AgentFault = (typeof AGENT_FAULTS)[number];

/** Seconds; 1000 times more milliseconds than a timer can hold (2^31 - 1). */
export const HUGE_RETRY_AFTER = '99999999999';

const FAULT_WORD = /\[\[fault:([^\]\s]*)\]\]/i;
const MAGIC_WORDS = /\[\[(?:fault|outcome|answer):[^\]\s]*\]\]/gi;

/** The text without the emulator's `[[fault:…]]` / `[[outcome:…]]` words, which must not be searched for. */
export function stripMagicWords(text: string): string {
  return text
    .replace(MAGIC_WORDS, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

export type FaultChoice<T extends string> = { mode: T } | { unknown: string } | undefined;

/** The fault a request asks for; the header wins over a word in the text. */
export function chooseFault<T extends string>(header: string | undefined, text: string, allowed: readonly T[]): FaultChoice<T> {
  const asked = header?.trim() || FAULT_WORD.exec(text)?.[1];
  if (!asked) return undefined;
  const mode = asked.toLowerCase();
  return (allowed as readonly string[]).includes(mode) ? { mode: mode as T } : { unknown: asked };
}

export function isStreamFault(mode: AssistantFault): mode is StreamFault {
  return (STREAM_FAULTS as readonly string[]).includes(mode);
}

export interface CannedResponse {
  status: number;
  contentType: string;
  body: string;
  headers: OutgoingHttpHeaders;
}

const json = (status: number, body: unknown, headers: OutgoingHttpHeaders = {}): CannedResponse => ({
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify(body),
  headers,
});

/**
 * What a status fault answers. The body shapes differ on purpose ({error}, {message},
 * {error: {message}}), as real gateways and services differ, so clients must read all of them.
 */
export function cannedAssistantFault(mode: Exclude<ResponseFault, 'stall-headers'>, domain: string): CannedResponse {
  switch (mode) {
    case 'non-sse':
      return json(200, { answer: 'This is a plain JSON body where a stream was expected.', threadId: null });
    case 'html-502':
      return {
        status: 502,
        contentType: 'text/html; charset=utf-8',
        body: '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>emulated-proxy/1.0</center></body></html>\n',
        headers: {},
      };
    case '400':
      return json(400, { error: 'Invalid request: messages[0].parts must be an array.' });
    case '401':
      return json(401, { error: { message: 'Invalid or expired assistant API key.', code: 'unauthorized' } });
    case '403':
      return json(403, { message: `This key may not use the assistant of "${domain}".` });
    case '404':
      return json(404, { error: `Domain "${domain}" not found.` });
    case '429':
      return json(429, { error: 'Too many requests. Try again later.' }, { 'retry-after': '7' });
    case '429-no-retry-after':
      return json(429, { message: 'Rate limit exceeded.' });
    case '429-huge':
      return json(429, { error: 'Too many requests.' }, { 'retry-after': HUGE_RETRY_AFTER });
    case '500':
      return json(500, { error: 'Internal server error.' });
    case '503':
      return json(503, { error: { message: 'The assistant is temporarily unavailable.' } });
  }
}

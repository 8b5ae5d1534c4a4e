import { MAX_ANSWER_BYTES, MAX_INPUT_CHARS } from '../../api';
import { requestSchemas, type AnyRequestEnvelope, type RequestHandlers, type WebviewRequestName } from '../../common/protocol';
import { parse, type Schema } from '../../common/schema';

// The webview renders text from the network, so it is treated as untrusted: every message it
// sends is read through its request's schema (src/common/protocol.ts), and anything unknown or
// malformed is dropped. Each text is as long as what it carries can be, and no longer: the input
// box's text (a question is refused above MAX_QUESTION_CHARS with a reason, so a little more gets
// through to hear it), and code from an answer, which is at most an answer long.

export const REQUEST_SCHEMAS = requestSchemas({ inputChars: MAX_INPUT_CHARS, codeChars: MAX_ANSWER_BYTES });

export function parseWebviewRequest(msg: unknown): AnyRequestEnvelope | undefined {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return undefined;
  const m = msg as Record<string, unknown>;
  if (m.kind !== 'request' || typeof m.id !== 'number' || !Number.isSafeInteger(m.id) || typeof m.name !== 'string') return undefined;
  if (!Object.hasOwn(REQUEST_SCHEMAS, m.name)) return undefined;
  const name = m.name as WebviewRequestName;
  // Only the fields the request is known to have travel on; extra ones are dropped here.
  const payload = parse(REQUEST_SCHEMAS[name] as Schema<object>, m.payload === undefined ? {} : m.payload);
  if (!payload) return undefined;
  return { kind: 'request', id: m.id, name, payload } as AnyRequestEnvelope;
}

/**
 * Runs the handler for `req` and resolves with its reply (a handler that throws rejects). The
 * handlers are typed by the map; TypeScript cannot tie a union's name to its payload through an
 * index, so this is the one cast, and it is safe: `req` was read through the schema of its name.
 */
export function dispatch(handlers: RequestHandlers, req: AnyRequestEnvelope): Promise<unknown> {
  const handler = handlers[req.name] as (payload: typeof req.payload) => unknown;
  return new Promise((resolve) => resolve(handler(req.payload)));
}

export { safeExternalUrl } from '../../api';

import { MAX_ANSWER_BYTES, MAX_INPUT_CHARS } from '../api/limits';
import type { ErrorAction, RequestEnvelope, WebviewRequestName } from '../common/protocol';

// The webview renders text from the network, so it is treated as untrusted: every message it
// sends is checked here, field by field, and anything unknown or malformed is dropped.

type Check = (p: Record<string, unknown>) => boolean;

// Each text as long as what it carries can be, and no longer: the input box's text (a question is
// refused above MAX_QUESTION_CHARS with a reason, so a little more gets through to hear it), and
// code from an answer, which is at most an answer long.
const str = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const empty: Check = () => true;
const ERROR_ACTIONS: ReadonlySet<ErrorAction> = new Set(['retry', 'setAssistantKey', 'newConversation', 'openSettings']);
const JOB_ACTIONS = new Set(['openPullRequest', 'followUp', 'showJob']);

const CHECKS: { [N in WebviewRequestName]: Check } = {
  ready: empty,
  send: (p) => str(p.text, MAX_INPUT_CHARS),
  stop: empty,
  retry: (p) => str(p.turnId, 200),
  newConversation: empty,
  saveDraft: (p) => str(p.text, MAX_INPUT_CHARS),
  removeChip: (p) => str(p.chipId, 200),
  toggleChipType: (p) => str(p.chipId, 200),
  openLink: (p) => str(p.url, 8192),
  copyCode: (p) => str(p.code, MAX_ANSWER_BYTES),
  insertCode: (p) => str(p.code, MAX_ANSWER_BYTES),
  runAction: (p) => typeof p.action === 'string' && ERROR_ACTIONS.has(p.action as ErrorAction) && (p.turnId === undefined || str(p.turnId, 200)),
  fixInDocs: (p) => str(p.turnId, 200),
  jobAction: (p) => str(p.jobId, 200) && typeof p.action === 'string' && JOB_ACTIONS.has(p.action),
  showHistory: empty,
  loadImage: (p) => str(p.url, 8192),
};

const FIELDS: { [N in WebviewRequestName]: readonly string[] } = {
  ready: [],
  send: ['text'],
  stop: [],
  retry: ['turnId'],
  newConversation: [],
  saveDraft: ['text'],
  removeChip: ['chipId'],
  toggleChipType: ['chipId'],
  openLink: ['url'],
  copyCode: ['code'],
  insertCode: ['code'],
  runAction: ['action', 'turnId'],
  fixInDocs: ['turnId'],
  jobAction: ['jobId', 'action'],
  showHistory: [],
  loadImage: ['url'],
};

export function parseWebviewRequest(msg: unknown): RequestEnvelope | undefined {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return undefined;
  const m = msg as Record<string, unknown>;
  if (m.kind !== 'request' || typeof m.id !== 'number' || !Number.isSafeInteger(m.id) || typeof m.name !== 'string') return undefined;
  if (!Object.prototype.hasOwnProperty.call(CHECKS, m.name)) return undefined;
  const payload = m.payload === undefined ? {} : m.payload;
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  const name = m.name as WebviewRequestName;
  if (!CHECKS[name](payload as Record<string, unknown>)) return undefined;
  // Only the fields the request is known to have travel on; extra ones are dropped here.
  const known: Record<string, unknown> = {};
  for (const field of FIELDS[name]) {
    const v = (payload as Record<string, unknown>)[field];
    if (v !== undefined) known[field] = v;
  }
  return { kind: 'request', id: m.id, name, payload: known as never };
}

/**
 * Only web links leave the editor; everything else (command:, file:, javascript:, vscode:) is
 * refused, and so are links with a user name or password in them: `https://docs.example.com@evil.example`
 * reads as the docs but goes elsewhere.
 */
export function safeExternalUrl(raw: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return undefined;
  return url.href;
}

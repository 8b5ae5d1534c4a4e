import type { ErrorAction, RequestEnvelope, WebviewRequestName } from '../common/protocol';

// The webview renders text from the network, so it is treated as untrusted: every message it
// sends is checked here, field by field, and anything unknown or malformed is dropped.

type Check = (p: Record<string, unknown>) => boolean;

const MAX_TEXT = 200_000;
const str = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
const empty: Check = () => true;
const ERROR_ACTIONS: ReadonlySet<ErrorAction> = new Set(['retry', 'setAssistantKey', 'newConversation', 'openSettings']);
const JOB_ACTIONS = new Set(['openPullRequest', 'followUp', 'showJob']);

const CHECKS: { [N in WebviewRequestName]: Check } = {
  ready: empty,
  send: (p) => str(p.text),
  stop: empty,
  retry: (p) => str(p.turnId, 200),
  newConversation: empty,
  saveDraft: (p) => str(p.text),
  removeChip: (p) => str(p.chipId, 200),
  toggleChipType: (p) => str(p.chipId, 200),
  openLink: (p) => str(p.url, 8192),
  copyCode: (p) => str(p.code),
  insertCode: (p) => str(p.code),
  runAction: (p) => typeof p.action === 'string' && ERROR_ACTIONS.has(p.action as ErrorAction) && (p.turnId === undefined || str(p.turnId, 200)),
  fixInDocs: (p) => str(p.turnId, 200),
  jobAction: (p) => str(p.jobId, 200) && typeof p.action === 'string' && JOB_ACTIONS.has(p.action),
  showHistory: empty,
};

export function parseWebviewRequest(msg: unknown): RequestEnvelope | undefined {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return undefined;
  const m = msg as Record<string, unknown>;
  if (m.kind !== 'request' || typeof m.id !== 'number' || !Number.isSafeInteger(m.id) || typeof m.name !== 'string') return undefined;
  if (!Object.prototype.hasOwnProperty.call(CHECKS, m.name)) return undefined;
  const payload = m.payload === undefined ? {} : m.payload;
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return undefined;
  if (!CHECKS[m.name as WebviewRequestName](payload as Record<string, unknown>)) return undefined;
  return { kind: 'request', id: m.id, name: m.name as WebviewRequestName, payload: payload as never };
}

/** Only web links leave the editor; everything else (command:, file:, javascript:, vscode:) is refused. */
export function safeExternalUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
}

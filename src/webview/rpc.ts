import * as l10n from '@vscode/l10n';
import { type NotificationHandlers, type RequestPayload, type ResponsePayload, type WebviewPersistedState, type WebviewRequestName } from '../common/protocol';
import { REQUEST_TIMEOUT_MS } from '../common/requestBounds';
import { PendingRequests, reasonOf } from './pendingRequests';

// The webview's end of the protocol: typed requests that resolve with the host's response, or
// fail with what the user should read (the host's reason, or that it did not answer within the
// request's bound), and one typed handler per host notification. Messages that are not
// well-formed envelopes are ignored.

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const pending = new PendingRequests(
  { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>) },
  () => l10n.t('The Docs Assistant extension did not answer in time. Try again.'),
);
let handlers: NotificationHandlers | undefined;

export function request<N extends WebviewRequestName>(name: N, payload: RequestPayload<N>): Promise<ResponsePayload<N>> {
  const { id, reply } = pending.start(REQUEST_TIMEOUT_MS[name]);
  vscode.postMessage({ kind: 'request', id, name, payload });
  return reply as Promise<ResponsePayload<N>>;
}

let showFailure: (reason: string) => void = () => undefined;

/** Where the failures of `tell`'s requests are shown. */
export function handleRequestFailures(show: (reason: string) => void): void {
  showFailure = show;
}

/** A request whose reply the page does not use; if it fails, the user is told (handleRequestFailures). */
export function tell<N extends WebviewRequestName>(name: N, payload: RequestPayload<N>): void {
  request(name, payload).catch((e: unknown) => showFailure(reasonOf(e)));
}

/** Handles what the host sends, one handler per notification name; a name without one does not compile. */
export function handleNotifications(table: NotificationHandlers): void {
  handlers = table;
}

export function getPersistedState(): WebviewPersistedState {
  const s = vscode.getState();
  return s && typeof s === 'object' ? (s as WebviewPersistedState) : {};
}

export function setPersistedState(state: WebviewPersistedState): void {
  vscode.setState(state);
}

window.addEventListener('message', (event: MessageEvent) => {
  const m = event.data as { kind?: unknown; id?: unknown; ok?: unknown; payload?: unknown; error?: unknown; name?: unknown } | null;
  if (!m || typeof m !== 'object') return;
  if (m.kind === 'response' && typeof m.id === 'number') {
    pending.settle(
      m.id,
      m.ok === true ? { ok: true, payload: m.payload } : { ok: false, error: typeof m.error === 'string' ? m.error : l10n.t('The request failed.') },
    );
  } else if (m.kind === 'notify' && typeof m.name === 'string' && handlers && Object.hasOwn(handlers, m.name)) {
    const h = handlers[m.name as keyof NotificationHandlers] as (p: unknown) => void;
    if (m.payload && typeof m.payload === 'object') h(m.payload);
  }
});

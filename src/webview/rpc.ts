import type { NotificationHandlers, RequestPayload, ResponsePayload, WebviewPersistedState, WebviewRequestName } from '../common/protocol';
import { PendingRequests } from './pendingRequests';

// The webview's end of the protocol: typed requests that resolve with the host's response, and
// one typed handler per host notification. Messages that are not well-formed envelopes are ignored.

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const pending = new PendingRequests();
let handlers: NotificationHandlers | undefined;

export function request<N extends WebviewRequestName>(name: N, payload: RequestPayload<N>): Promise<ResponsePayload<N>> {
  const { id, reply } = pending.start();
  vscode.postMessage({ kind: 'request', id, name, payload });
  return reply as Promise<ResponsePayload<N>>;
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
      m.ok === true ? { ok: true, payload: m.payload } : { ok: false, error: typeof m.error === 'string' ? m.error : 'The request failed.' },
    );
  } else if (m.kind === 'notify' && typeof m.name === 'string' && handlers && Object.hasOwn(handlers, m.name)) {
    const h = handlers[m.name as keyof NotificationHandlers] as (p: unknown) => void;
    if (m.payload && typeof m.payload === 'object') h(m.payload);
  }
});

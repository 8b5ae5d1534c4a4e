import type * as l10n from '@vscode/l10n';
import type { HostNotificationName, HostNotifications, HostToWebviewMessage, RequestHandlers } from '../common/protocol';
import type { RedactingLog } from '../host/redactingLog';
import { dispatch, parseWebviewRequest } from './webviewMessages';

// The host's end of the protocol with one chat page (src/common/protocol.ts), free of vscode so
// that the order of what a page receives is tested in Node: every incoming message is validated
// and handed to its request's handler, every request gets exactly one response, and nothing is
// sent before the page's `ready`. chatWebview.ts puts it on a VS Code webview.

export interface PageChannelDeps {
  /** Posts to the page (webview.postMessage). */
  post(message: HostToWebviewMessage): void;
  handlers: RequestHandlers;
  log: Pick<RedactingLog, 'warn' | 'error'>;
  /** vscode.l10n.t on the host, `english` (src/common/l10n.ts) in tests. */
  t: (message: string, ...args: l10n.L10nReplacement[]) => string;
}

export class PageChannel {
  private ready = false;

  constructor(private readonly deps: PageChannelDeps) {}

  /** The page (re)loads: it says `ready` again and gets a fresh snapshot. */
  reload(): void {
    this.ready = false;
  }

  notify<N extends HostNotificationName>(name: N, payload: HostNotifications[N]): void {
    if (!this.ready) return;
    this.deps.post({ kind: 'notify', name, payload });
  }

  /** A message from the page. */
  async receive(raw: unknown): Promise<void> {
    const l10n = { t: this.deps.t };
    const req = parseWebviewRequest(raw);
    if (!req) {
      this.deps.log.warn('Dropped a malformed message from the chat webview.');
      return;
    }
    try {
      const payload = await dispatch(this.deps.handlers, req);
      if (req.name === 'ready') this.ready = true;
      this.deps.post({ kind: 'response', id: req.id, ok: true, payload });
    } catch (e) {
      this.deps.log.error(`Chat request "${req.name}" failed`, e);
      this.deps.post({ kind: 'response', id: req.id, ok: false, error: e instanceof Error ? e.message : l10n.t('Something went wrong.') });
    }
  }
}

import type * as l10n from '@vscode/l10n';
import type { HostNotificationName, HostNotifications, HostToWebviewMessage, RequestHandlers } from '../../common/protocol';
import type { RedactingLog } from '../../host/core/redactingLog';
import { PageOutbox } from './pageOutbox';
import { dispatch, parseWebviewRequest } from './webviewMessages';

// The host's end of the protocol with one chat page (src/common/protocol.ts), free of vscode so
// that the order of what a page receives is tested in Node: every incoming message is validated
// and handed to its request's handler, every request gets exactly one response, and nothing is
// sent before the page's `ready`: what is sent earlier waits, or is in the reply (pageOutbox.ts).
// chatWebview.ts puts it on a VS Code webview.

export interface PageChannelDeps {
  /** Posts to the page (webview.postMessage). */
  post(message: HostToWebviewMessage): void;
  handlers: RequestHandlers;
  log: Pick<RedactingLog, 'warn' | 'error'>;
  /** vscode.l10n.t on the host, `english` (src/common/l10n.ts) in tests. */
  t: (message: string, ...args: l10n.L10nReplacement[]) => string;
}

export class PageChannel {
  private readonly outbox: PageOutbox;

  constructor(private readonly deps: PageChannelDeps) {
    this.outbox = new PageOutbox(
      (m) => deps.post(m),
      (line) => deps.log.warn(line),
    );
  }

  /** The page (re)loads: it says `ready` again and gets a fresh snapshot. */
  reload(): void {
    this.outbox.reload();
  }

  notify<N extends HostNotificationName>(name: N, payload: HostNotifications[N]): void {
    this.outbox.notify(name, payload);
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
      const reply = dispatch(this.deps.handlers, req);
      // `ready`'s handler builds its snapshot before it returns (requestHandlers.ts): from here
      // on, what the host sends is not in it. It must stay so: were the snapshot built after an
      // await, a patch sent in between would be in the snapshot and then applied again.
      if (req.name === 'ready') this.outbox.snapshotTaken();
      const payload = await reply;
      this.deps.post({ kind: 'response', id: req.id, ok: true, payload });
      if (req.name === 'ready') this.outbox.open();
    } catch (e) {
      if (req.name === 'ready') this.outbox.reload();
      this.deps.log.error(`Chat request "${req.name}" failed`, e);
      this.deps.post({ kind: 'response', id: req.id, ok: false, error: e instanceof Error ? e.message : l10n.t('Something went wrong.') });
    }
  }
}

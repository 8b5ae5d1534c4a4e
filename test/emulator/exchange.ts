import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RecordedRequest } from './config';

// One request and its response. Everything that answers goes through here, so the request log
// gets the status, and every wait ends as soon as the client goes away or the emulator closes.

/** Thrown out of waits once the exchange is over; stream code stops quietly on it. */
export class ExchangeGone extends Error {
  constructor() {
    super('the client went away');
  }
}

export class Exchange {
  readonly url: URL;
  /** Set when the client disconnects, the response ends or the emulator closes. */
  readonly signal: AbortSignal;
  record: RecordedRequest | undefined;
  /** Called once the status is known, e.g. to log the request while a long stream is still going. */
  onHead: ((status: number) => void) | undefined;
  private readonly ended = new AbortController();
  /** Settles once the last write has been handed to the OS (or failed). */
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    readonly rawBody: string,
    base: string,
  ) {
    this.url = new URL(req.url ?? '/', base);
    this.signal = this.ended.signal;
    res.once('close', () => this.end());
    // The client may have left while its body was still being read, before anyone listened.
    if (req.socket.destroyed) this.end();
  }

  get method(): string {
    return this.req.method ?? 'GET';
  }

  /** Ends every wait of this exchange; called on disconnect and by `close()` of the emulator. */
  end(): void {
    if (!this.ended.signal.aborted) this.ended.abort();
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name.toLowerCase()];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  head(status: number, headers: OutgoingHttpHeaders): void {
    if (this.record) this.record.status = status;
    this.res.writeHead(status, headers);
    this.onHead?.(status);
  }

  json(status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
    this.send(status, 'application/json; charset=utf-8', JSON.stringify(body), headers);
  }

  html(status: number, html: string): void {
    this.send(status, 'text/html; charset=utf-8', html);
  }

  send(status: number, contentType: string, body: string, headers: OutgoingHttpHeaders = {}): void {
    if (this.res.headersSent || this.signal.aborted) return;
    this.head(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store', ...headers });
    this.res.end(body);
  }

  /** Writes respecting backpressure, so a 5 MB chunk does not pile up in memory unread. */
  async write(data: string): Promise<void> {
    if (this.signal.aborted) throw new ExchangeGone();
    let accepted = true;
    this.lastWrite = new Promise<void>((resolve) => {
      accepted = this.res.write(data, () => resolve());
    });
    if (!accepted) {
      try {
        await once(this.res, 'drain', { signal: this.signal });
      } catch {
        throw new ExchangeGone();
      }
    }
  }

  async pause(ms: number): Promise<void> {
    if (this.signal.aborted) throw new ExchangeGone();
    if (ms <= 0) return;
    try {
      await sleep(ms, undefined, { signal: this.signal });
    } catch {
      throw new ExchangeGone();
    }
  }

  /** Holds the connection open, sending nothing, until the client gives up. */
  async hold(): Promise<void> {
    if (this.signal.aborted) return;
    await once(this.signal, 'abort');
  }

  /** Waits until what was written has left the process, so a drop does not swallow it. */
  flushed(): Promise<void> {
    return this.lastWrite;
  }

  /** Breaks the connection without a proper end, as a crashed proxy would. */
  drop(): void {
    this.req.socket.destroy();
    this.end();
  }
}

export function errorBody(message: string): { error: string } {
  return { error: message };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A small standalone HTML page: the docs site, the pull request pages and the index. */
export function htmlPage(title: string, body: string, nav = ''): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{font:16px/1.55 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}
header{background:#24292f;color:#fff;padding:.7rem 1.5rem}header a{color:#fff;text-decoration:none;font-weight:600}
.wrap{display:flex;gap:2rem;max-width:1100px;margin:0 auto;padding:1.5rem}
nav{min-width:200px}nav ul{list-style:none;padding:0}nav li{margin:.3rem 0}
main{flex:1;min-width:0}pre{background:#f6f8fa;padding:.8rem;overflow:auto;border-radius:6px}
code{font-family:ui-monospace,monospace;font-size:90%}table{border-collapse:collapse}
td,th{border:1px solid #d0d7de;padding:.3rem .6rem}.muted{color:#59636e}.badge{display:inline-block;padding:.1rem .6rem;border-radius:1rem;background:#1f883d;color:#fff;font-size:85%}
</style></head>
<body><header><a href="/docs">Acme Relay docs</a> <span class="muted">· served by the local service emulator</span></header>
<div class="wrap">${nav ? `<nav>${nav}</nav>` : ''}<main>${body}</main></div></body></html>
`;
}

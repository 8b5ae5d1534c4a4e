import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { AnswerPatch, ChatSnapshot, HostNotificationName, HostNotifications } from '../../src/common/protocol';
import { renderWebviewHtml } from '../../src/chat/core/webviewHtml';
import { RENDER_INTERVAL_MS } from '../../src/webview/cadence';
import { launchChromium } from '../chromium.mjs';
import { DARK } from './themes';

// Loads the real webview bundle, in the real HTML the host generates (CSP included), into
// Debian's Chromium, with a stand-in for VS Code's acquireVsCodeApi that records what the
// webview posts and lets the test play the host's side.

const ROOT = join(__dirname, '..', '..');

let webviewBuilt = false;

/** Builds dist/ (esbuild.mjs) the first time a harness starts in this process: every suite tests the current source, and it is built once, not per suite. */
function buildWebviewOnce(): void {
  if (webviewBuilt) return;
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'ignore' });
  webviewBuilt = true;
}

export interface Posted {
  kind: string;
  id: number;
  name: string;
  payload: Record<string, unknown>;
}

export class WebviewHarness {
  private server!: Server;
  private browser!: Browser;
  page!: Page;
  origin = '';
  /** Origins whose images the page may load by themselves, as the host would pass them. */
  imageOrigins: string[] = [];
  /** The l10n bundle and display language the host would put in the page (vscode.l10n.bundle, vscode.env.language). */
  l10nBundle: Record<string, string> | undefined;
  lang: string | undefined;

  async start(): Promise<void> {
    buildWebviewOnce();
    const files: Record<string, [string, string]> = {
      '/dist/webview.js': ['dist/webview.js', 'text/javascript'],
      '/dist/codicon.css': ['dist/codicon.css', 'text/css'],
      '/dist/codicon.ttf': ['dist/codicon.ttf', 'font/ttf'],
      '/media/chat.css': ['media/chat.css', 'text/css'],
    };
    this.server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          renderWebviewHtml({
            cspSource: this.origin,
            nonce: 'testnonce1234567890abcdefghijkl',
            scriptUri: `${this.origin}/dist/webview.js`,
            styleUri: `${this.origin}/media/chat.css`,
            codiconUri: `${this.origin}/dist/codicon.css`,
            title: 'Ask Docs',
            imageOrigins: this.imageOrigins,
            l10nBundle: this.l10nBundle,
            lang: this.lang,
          }),
        );
        return;
      }
      const f = files[path];
      if (!f) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': f[1] });
      res.end(readFileSync(join(ROOT, f[0])));
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    this.browser = await launchChromium();
  }

  /**
   * Opens a fresh page whose host answers `ready` with `snapshot`. `vscodeLinkHandler` adds what
   * VS Code's webview frame does to every page (its pre/index.html): a click (or middle click) on a
   * link anywhere in the page opens it, whether or not the page called preventDefault. What it
   * would have opened is kept in `window.__vscodeOpened`. The host answers every request unless
   * `silent` names it (it never answers those) or `refuse` does (it answers with that error).
   * `clock` installs Playwright's clock first, so the test can move the page's time.
   */
  async open(
    snapshot: ChatSnapshot,
    opts: {
      theme?: Record<string, string>;
      state?: unknown;
      width?: number;
      height?: number;
      vscodeLinkHandler?: boolean;
      loadImageReply?: unknown;
      silent?: string[];
      refuse?: Record<string, string>;
      clock?: boolean;
    } = {},
  ): Promise<Page> {
    if (this.page) await this.page.close();
    this.page = await this.browser.newPage({ viewport: { width: opts.width ?? 420, height: opts.height ?? 700 } });
    // tsx compiles this file with esbuild's keepNames, which wraps functions in __name(); the functions
    // handed to the page need that helper there too.
    await this.page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    if (opts.clock) await this.page.clock.install();
    await this.page.addInitScript(
      ({ snapshot, theme, state, loadImageReply, silent, refuse }) => {
        const w = window as unknown as Record<string, unknown>;
        w.__posted = [] as unknown[];
        w.__violations = [] as string[];
        w.__executed = [] as string[];
        w.__state = state;
        w.__canary = (what: string) => (w.__executed as string[]).push(String(what));
        document.addEventListener('securitypolicyviolation', (e) => (w.__violations as string[]).push(`${e.violatedDirective} ${e.blockedURI}`));
        window.addEventListener('error', (e) => (w.__executed as string[]).push(`error: ${e.message}`));
        w.acquireVsCodeApi = () => ({
          postMessage(m: { kind: string; id: number; name: string }) {
            (w.__posted as unknown[]).push(m);
            if (silent.includes(m.name)) return;
            const refusal = Object.hasOwn(refuse, m.name) ? refuse[m.name] : undefined;
            if (refusal !== undefined) {
              setTimeout(() => window.postMessage({ kind: 'response', id: m.id, ok: false, error: refusal }, '*'), 0);
              return;
            }
            const reply =
              m.name === 'ready'
                ? snapshot
                : m.name === 'send'
                  ? { accepted: true }
                  : m.name === 'openLink'
                    ? { opened: true }
                    : m.name === 'loadImage'
                      ? loadImageReply
                      : m.name === 'copyAnswer'
                        ? { copied: true }
                        : undefined;
            setTimeout(() => window.postMessage({ kind: 'response', id: m.id, ok: true, payload: reply }, '*'), 0);
          },
          getState: () => w.__state,
          setState: (s: unknown) => (w.__state = s),
        });
        // Init scripts run before <html> exists; the theme goes on once it does (CSSOM writes are not inline styles, so the CSP allows them).
        const applyTheme = () => {
          for (const [k, v] of Object.entries(theme)) document.documentElement.style.setProperty(k, v);
        };
        if (document.documentElement) applyTheme();
        else
          new MutationObserver((_, obs) => {
            if (document.documentElement) {
              obs.disconnect();
              applyTheme();
            }
          }).observe(document, { childList: true });
      },
      {
        snapshot,
        theme: opts.theme ?? DARK,
        state: opts.state,
        loadImageReply: opts.loadImageReply,
        silent: opts.silent ?? [],
        refuse: opts.refuse ?? {},
      },
    );
    if (opts.vscodeLinkHandler) {
      await this.page.addInitScript(() => {
        const w = window as unknown as { __vscodeOpened: string[] };
        w.__vscodeOpened = [];
        const open = (e: MouseEvent) => {
          for (const node of e.composedPath()) {
            const el = node as HTMLAnchorElement;
            if (el.tagName && (el.tagName.toLowerCase() === 'a' || el.tagName.toLowerCase() === 'area') && el.href) {
              w.__vscodeOpened.push(el.href);
              e.preventDefault();
              return;
            }
          }
        };
        // Registered on the window in the bubble phase, as VS Code does, and before the page's own script.
        window.addEventListener('click', open);
        window.addEventListener('auxclick', (e) => e.button === 1 && open(e));
      });
    }
    await this.page.goto(this.origin + '/');
    // A page whose `ready` goes unanswered stays busy: the test waits for what it expects itself.
    if (!opts.silent?.includes('ready')) await this.page.waitForSelector('#app[aria-busy="false"]');
    return this.page;
  }

  async notify<N extends HostNotificationName>(name: N, payload: HostNotifications[N]): Promise<void> {
    await this.page.evaluate(([n, p]) => window.postMessage({ kind: 'notify', name: n, payload: p }, '*'), [name, payload] as const);
  }

  async patch(turnId: string, patches: AnswerPatch[]): Promise<void> {
    await this.notify('patch', { turnId, patches });
  }

  /**
   * Waits until the webview has rendered everything sent so far. Streaming text renders at least
   * once per RENDER_INTERVAL_MS but may be held back until then, so two animation frames alone
   * are not enough.
   */
  async rendered(): Promise<void> {
    await this.page.waitForTimeout(RENDER_INTERVAL_MS);
    await this.page.evaluate(() => new Promise<void>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r()))));
  }

  posted(name?: string): Promise<Posted[]> {
    return this.page.evaluate((n) => (window as unknown as { __posted: Posted[] }).__posted.filter((m) => !n || m.name === n), name);
  }

  async stop(): Promise<void> {
    await this.browser?.close();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

export function snapshotWith(partial: Partial<ChatSnapshot> = {}): ChatSnapshot {
  return { conversationId: 'c1', title: 'Test', turns: [], pendingContext: [], draft: '', busy: false, inputHistory: [], agentAvailable: true, ...partial };
}

import * as assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ServiceError } from '../../src/api/errors';
import { startEmulator, type RunningEmulator } from '../emulator';
import { launchChromium } from '../chromium.mjs';
import { bundleForBrowser } from '../webview/bundle';
import { words } from './helpers';

// Issue 20: the service client, bundled for the browser as the web extension host runs it, in
// Debian's Chromium on one origin, calling the emulator on another, so the browser enforces CORS
// for real: the preflight, the response headers a page may read (the thread's id and key), and
// what the user is told when a service sends no CORS headers at all.

const ENTRY = `import { AssistantClient, AgentClient } from './src/api'; window.__api = { AssistantClient, AgentClient };`;

interface Outcome {
  text?: string;
  threadId?: string;
  threadKey?: string;
  code?: string;
  origin?: string;
  message?: string;
}

describe('the service client in Chromium, across origins', function () {
  this.timeout(60_000);
  let browser: Browser;
  let page: Page;
  let site: Server;
  let siteOrigin: string;
  const emulators: RunningEmulator[] = [];

  before(async () => {
    const script = await bundleForBrowser(ENTRY);
    // The page's own origin: a plain page that loads the bundle, as the web worker host loads the extension.
    site = createServer((req, res) => {
      if (req.url === '/client.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><script src="/client.js"></script>');
    });
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
    page = await browser.newPage();
    await page.goto(siteOrigin);
  });
  after(async () => {
    await browser?.close();
    await new Promise((r) => site?.close(r));
    await Promise.all(emulators.map((e) => e.close()));
  });

  async function emulator(cors: boolean): Promise<RunningEmulator> {
    const e = await startEmulator({ cors, deltaDelayMs: 0 });
    emulators.push(e);
    return e;
  }

  /** Asks the emulator at `baseUrl` from the page, and follows up once in the thread the answer handed back. */
  const askTwice = (baseUrl: string, key: string): Promise<Outcome[]> =>
    page.evaluate(
      async ([baseUrl, key]) => {
        const { AssistantClient } = (window as any).__api;
        const client = new AssistantClient({ baseUrl, domain: 'acme-docs', apiKey: key });
        const out: any[] = [];
        let thread: { threadId: string | null; threadKey?: string } = { threadId: null };
        for (const text of ['How do I configure the connect timeout?', 'And the idle timeout?']) {
          try {
            const it = client.send({ fp: 'anonymous', messages: [{ id: `q${out.length}`, role: 'user', parts: [{ type: 'text', text }] }], ...thread });
            let step = await it.next();
            while (!step.done) step = await it.next();
            const m = step.value;
            out.push({
              text: m.parts
                .filter((p: any) => p.type === 'text')
                .map((p: any) => p.text)
                .join(''),
              threadId: m.threadId,
              threadKey: m.threadKey,
            });
            thread = { threadId: m.threadId, threadKey: m.threadKey };
          } catch (e: any) {
            out.push({ code: e.reason?.code, origin: e.reason?.origin, message: e.message });
            break;
          }
        }
        return out;
      },
      [baseUrl, key] as const,
    );

  it('streams an answer across origins, reads the thread from the exposed headers, and follows up in it', async () => {
    const emu = await emulator(true);
    const [first, second] = await askTwice(emu.url, emu.assistantKey);
    assert.ok(first?.text && first.text.length > 50, `an answer: ${JSON.stringify(first)}`);
    assert.ok(first.threadId && first.threadKey, 'X-Thread-Id and X-Thread-Key were readable: the emulator exposes them');
    assert.ok(second?.text, `the follow-up was answered: ${JSON.stringify(second)}`);
    const asks = emu.requests.filter((r) => r.path.includes('/assistant/'));
    assert.deepEqual(
      asks.map((r) => r.method),
      ['OPTIONS', 'POST', 'POST'],
      'Chromium asked first (a preflight), then sent both; the preflight is remembered (Access-Control-Max-Age)',
    );
    assert.ok(
      asks.every((r) => r.headers.origin === siteOrigin),
      'every request says where it came from',
    );
    assert.equal((asks[2]!.body as { threadId: string }).threadId, first.threadId);
    assert.equal(asks[2]!.status, 200, 'the thread key was sent back and accepted');
  });

  it('a job is created and read across origins with the admin key', async () => {
    const emu = await emulator(true);
    const job = await page.evaluate(
      async ([baseUrl, key]) => {
        const { AgentClient } = (window as any).__api;
        const client = new AgentClient({ baseUrl, projectId: 'demo-project', apiKey: key });
        const created = await client.createJob('Say that the connect timeout defaults to 30 s');
        return (await client.getJob(created.id)).status;
      },
      [emu.url, emu.adminKey] as const,
    );
    assert.match(job, /queued|active|completed/);
  });

  it('a service without CORS headers: the user is told so, with the page’s origin; the question never left', async () => {
    const emu = await emulator(false);
    const [outcome] = await askTwice(emu.url, emu.assistantKey);
    assert.equal(outcome?.code, 'crossOriginRefused', JSON.stringify(outcome));
    assert.equal(outcome.origin, siteOrigin);
    assert.match(outcome.message!, /^crossOriginRefused host=127\.0\.0\.1:\d+ origin=http:\/\/127\.0\.0\.1:\d+$/, 'the log line, from the reason');
    const reason = { code: 'crossOriginRefused' as const, host: '127.0.0.1', origin: outcome.origin };
    assert.match(words(new ServiceError({ reason })), /^127\.0\.0\.1 does not accept requests from a browser .*requests from http:\/\/127\.0\.0\.1:\d+\.$/);
    assert.ok(words(new ServiceError({ reason })).endsWith(`${siteOrigin}.`), 'it names the page’s origin');
    const asks = emu.requests.filter((r) => r.path.includes('/assistant/'));
    assert.deepEqual(
      asks.map((r) => r.method),
      ['OPTIONS'],
      'only the preflight arrived: the browser refused to send the question',
    );
  });

  it('a redirect is not followed in a browser either: the key stays, and the user is told', async () => {
    const seen: string[] = [];
    const redirecting = createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ? 'with key' : 'no key'}`);
      res.setHeader('access-control-allow-origin', '*');
      if (req.method === 'OPTIONS')
        res.writeHead(204, { 'access-control-allow-headers': 'authorization, content-type', 'access-control-allow-methods': 'POST' }).end();
      else res.writeHead(307, { location: 'http://127.0.0.1:9/elsewhere' }).end();
    });
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    try {
      const [outcome] = await askTwice(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`, 'svc_dsc_Hq4nV8yTb2Kp6Lm1');
      assert.equal(outcome?.code, 'redirected', JSON.stringify(outcome));
      assert.deepEqual(
        seen.map((s) => s.split(' ')[0]),
        ['OPTIONS', 'POST'],
        'nothing went to where it pointed',
      );
    } finally {
      await new Promise((r) => redirecting.close(r));
    }
  });

  it('a service that is down is "could not reach", not a CORS problem', async () => {
    const emu = await emulator(true);
    await emu.close();
    const [outcome] = await askTwice(emu.url, emu.assistantKey);
    assert.equal(outcome?.code, 'unreachable', JSON.stringify(outcome));
  });
});

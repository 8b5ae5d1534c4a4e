import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clickReviewAction, SEND, waitForReview } from './review';
import { startEmulator, type RunningEmulator } from '../emulator';
import { step } from './workbench';
import { withStack } from './withStack';

// Issue 20: the extension in a browser's extension host, as github.dev and vscode.dev run it.
// code-server runs an extension in its web worker host when the user settings say
// `"remote.extensionKind": {"<publisher>.<name>": ["ui"]}`: the .vsix's "browser" bundle, with
// fetch, SecretStorage and the webview of the browser. Every call to the emulator is then a
// cross-origin call from Chromium. The walk: keys through the palette (a browser has no demo
// keys), a question with a selection and a follow-up in its thread, and an agent job to its PR.

type Body = { threadId: string | null; threadKey?: string; context?: unknown[]; messages: unknown[] };

describe('e2e: the web extension in code-server’s web worker extension host', function () {
  const e2e = withStack({
    stack: {
      demoKeys: false,
      emulator: { jobDurationMs: 4000 },
      settings: { 'remote.extensionKind': { 'docs-assistant.docs-assistant': ['ui'] } },
    },
  });
  const asks = () => e2e.wb.requests('/assistant/');
  const posts = () => asks().filter((r) => r.method === 'POST');

  it('runs in the workbench’s web worker, where there is no process global', async function () {
    // The web worker extension host is the page's one dedicated worker; the Node extension host
    // would be a process on the server, out of the browser's sight.
    const facts = await step(e2e.wb, 'look inside the page’s workers', () =>
      Promise.all(
        e2e.wb.page.workers().map((w) =>
          w.evaluate(() => ({
            name: (self as any).name as string,
            worker: typeof (self as any).importScripts === 'function',
            process: typeof (globalThis as any).process,
          })),
        ),
      ),
    );
    const host = facts.find((f) => /extension ?host/i.test(f.name));
    assert.ok(host, `a worker named for the extension host: ${JSON.stringify(facts)}`);
    assert.equal(host.worker, true);
    assert.equal(host.process, 'undefined', 'no process global where the extension runs');
  });

  it('sets both keys through the palette, into the browser’s SecretStorage', async function () {
    for (const [title, key, saved] of [
      ['Docs Assistant: Set Assistant API Key…', e2e.stack.emulator.assistantKey, /assistant api key.*(saved|stored)/i],
      ['Docs Assistant: Set Admin API Key…', e2e.stack.emulator.adminKey, /admin api key.*(saved|stored)/i],
    ] as const) {
      await step(e2e.wb, title, async () => {
        await e2e.wb.command(title);
        await e2e.wb.waitForQuickInput(/key/i);
        await e2e.wb.typeIntoQuickInput(key);
        await e2e.wb.notification(saved);
      });
    }
  });

  it('asks about a selection and follows up in the same thread, across origins', async function () {
    const lines = readFileSync(join(e2e.stack.workspace, 'src', 'relay.ts'), 'utf8').split('\n');
    await step(e2e.wb, 'select lines 2-6 of src/relay.ts and ask about them', async () => {
      await e2e.wb.selectLinesIn('src/relay.ts', 2, 6);
      await e2e.wb.command('Docs Assistant: Ask Docs About Selection');
      e2e.chat = await e2e.wb.chatWithChip('src/relay.ts:2-6');
      await e2e.wb.ask(e2e.chat, 'What are the defaults of these options?');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
      await e2e.wb.shot('web-1-answer');
    });
    const first = posts().at(-1)!.body as Body;
    assert.deepEqual(first.context, [{ type: 'code', value: lines.slice(1, 6).join('\n'), path: 'src/relay.ts' }]);
    assert.equal(first.threadId, null);
    await step(e2e.wb, 'a follow-up', async () => {
      await e2e.wb.ask(e2e.chat, 'And what is the default idle timeout?');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
    });
    const second = posts().at(-1)!.body as Body;
    assert.equal(typeof second.threadId, 'string', 'the thread came back in X-Thread-Id, which the emulator exposes to the browser');
    assert.ok(second.threadKey, 'and its key');
    assert.equal(posts().at(-1)!.status, 200);
  });

  it('launches an agent job and shows its pull request link', async function () {
    await step(e2e.wb, 'Fix Docs with Agent… through the review', async () => {
      await e2e.wb.selectLinesIn('docs/configuration.md', 5, 8);
      await e2e.wb.command('Docs Assistant: Fix Docs with Agent…');
      await e2e.wb.waitForQuickInput(/Describe the fix/i);
      await e2e.wb.typeIntoQuickInput('The connect timeout default is 30 s, say so');
      await waitForReview(e2e.wb);
      await clickReviewAction(e2e.wb, SEND);
    });
    await step(e2e.wb, 'the job completes with its PR link', async () => {
      await e2e.wb.showDocsAssistant();
      const row = await e2e.wb.jobRow(/connect timeout default/);
      await e2e.wb.waitForRowIcon(row, 'git-pull-request', 30_000);
      if ((await row.getAttribute('aria-expanded')) !== 'true') await row.click();
      await e2e.wb.jobRow(/Pull request #\d+: /);
      await e2e.wb.shot('web-2-job-with-pr');
    });
    const created = e2e.wb.requests(`/v2/agent/${e2e.stack.emulator.projectId}/job`).filter((r) => r.method === 'POST');
    assert.equal(created.length, 1);
    assert.equal(created[0]!.auth, 'admin');
  });

  it('every call came from the browser: preflighted, with the workbench’s origin and a browser’s user agent', function () {
    const calls = e2e.stack.emulator.requests.filter((r) => !r.path.startsWith('/mcp'));
    const origin = new URL(e2e.stack.url).origin;
    assert.ok(calls.length >= 7, `the calls: ${JSON.stringify(calls.map((r) => `${r.method} ${r.path}`))}`);
    // Node's fetch sends no Origin and says "node" (undici) as its agent: none of these came from a Node host.
    for (const r of calls) {
      assert.equal(r.headers.origin, origin, `${r.method} ${r.path} came from the workbench's page`);
      assert.match(r.headers['user-agent'] ?? '', /Chrome\//, `${r.method} ${r.path} came from Chromium`);
    }
    for (const path of ['/assistant/', '/job']) {
      const first = calls.find((r) => r.path.includes(path));
      assert.equal(first?.method, 'OPTIONS', `Chromium asked the emulator first (a CORS preflight) before ${path}`);
    }
  });

  it('a service that sends no CORS headers: the chat says so and what to use instead', async function () {
    let noCors: RunningEmulator | undefined;
    try {
      noCors = await startEmulator({ cors: false });
      /** What Configure Service… lists as the Base URL: what the extension host reads. */
      const listedBaseUrl = async (): Promise<string> => {
        await e2e.wb.command('Docs Assistant: Configure Service…');
        const row = e2e.wb.page.locator('.quick-input-widget .monaco-list-row', { hasText: /Base URL/ }).first();
        await row.waitFor({ state: 'visible', timeout: 10_000 });
        const shown = await row.innerText();
        await e2e.wb.page.keyboard.press('Escape');
        return shown;
      };
      await step(e2e.wb, 'Configure Service… → Base URL: a service without CORS headers', async () => {
        // Enter can come before the input box has the typed value's validation back from the
        // web worker, and is then ignored: type, let it settle, and look at what the extension reads.
        for (let attempt = 1; ; attempt++) {
          await e2e.wb.command('Docs Assistant: Configure Service…');
          await e2e.wb.pickQuickItem(/Base URL/);
          // The input box's title; the pick list before it also says "service address".
          await e2e.wb.waitForQuickInput(/Docs Assistant: Base URL/);
          await e2e.wb.typeIntoQuickInput(noCors!.url, { enter: false });
          await e2e.wb.page.waitForTimeout(500);
          await e2e.wb.page.keyboard.press('Enter');
          const deadline = Date.now() + 5000;
          let shown = '';
          while (Date.now() < deadline && !shown.includes(noCors!.url)) {
            await e2e.wb.page.waitForTimeout(300);
            shown = await listedBaseUrl();
          }
          if (shown.includes(noCors!.url)) break;
          if (attempt === 3) throw new Error(`Configure Service… still lists ${JSON.stringify(shown)} after 3 tries`);
        }
      });
      const turn = await step(e2e.wb, 'ask', async () => {
        e2e.chat = await e2e.wb.chatFrame();
        await e2e.wb.ask(e2e.chat, 'Does this reach the service?');
        return e2e.wb.waitForAnswer(e2e.chat, 'error');
      });
      const shown = await turn.locator('.error').innerText();
      assert.match(shown, new RegExp(`${new URL(noCors.url).host.replace(/\./g, '\\.')} does not accept requests from a browser`), shown);
      assert.match(shown, /Use VS Code Desktop/);
      assert.ok(shown.includes(new URL(e2e.stack.url).origin), `it names the page's origin to allow: ${shown}`);
      // Docs Health is open in the same sidebar, so the new address also has it read the reader
      // analytics: those are refused the same way. What matters is that nothing but preflights
      // arrived, and that the question's was one of them.
      const arrived = noCors.requests.map((r) => `${r.method} ${r.path}`);
      assert.deepEqual(
        arrived.filter((r) => !r.startsWith('OPTIONS ')),
        [],
        `the browser refused to send anything: only preflights arrived (${JSON.stringify(arrived)})`,
      );
      assert.equal(arrived.filter((r) => r.includes('/assistant/')).length, 1, `the question's preflight arrived once (${JSON.stringify(arrived)})`);
      await turn.locator('.error').scrollIntoViewIfNeeded();
      await e2e.wb.shot('web-3-no-cors');
    } finally {
      await noCors?.close();
    }
  });
});

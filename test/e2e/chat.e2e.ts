import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { step } from './workbench';
import { withStack } from './withStack';

// A developer's chat flow in a real VS Code, with the demo keys seeded by the first-run path:
// ask, follow up in the same thread, stop, ask about a selection (code and prose), and the bad
// paths: a dropped stream, 429, a wrong key, a window reloaded mid-answer.

type Body = { threadId: string | null; threadKey?: string; context?: unknown[]; messages: unknown[] };

describe('e2e: Ask Docs in a real VS Code', function () {
  const e2e = withStack({ stack: { demoKeys: true, emulator: { slowDripMs: 300 } }, openChat: true });

  const askRequests = () => e2e.wb.requests('/assistant/').filter((r) => r.method === 'POST');
  const lastBody = () => askRequests().at(-1)!.body as Body;
  // The answer's markdown text only (not the "Searched the docs…" line).
  const answerText = async () => (await e2e.chat.locator('.turn').last().locator('.answer-parts [data-kind="text"]').allInnerTexts()).join('\n').trim();

  /** Waits until the streaming answer shows some text, then returns it. */
  async function someText(min = 20): Promise<string> {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const t = await answerText();
      if (t.length >= min) return t;
      if (Date.now() > deadline) throw new Error(`No answer text appeared (has ${JSON.stringify(t)}).`);
      await e2e.wb.page.waitForTimeout(100);
    }
  }

  /**
   * How much of the answer to `question` the host has written to its conversation files (one JSON
   * file per conversation, in the workspace's storage), in characters of text.
   */
  function savedAnswerLength(question: string): number {
    const storage = join(e2e.stack.userDataDir, 'User', 'workspaceStorage');
    let most = 0;
    for (const workspace of existsSync(storage) ? readdirSync(storage) : []) {
      const folder = join(storage, workspace, 'docs-assistant.docs-assistant', 'conversations');
      for (const name of existsSync(folder) ? readdirSync(folder).filter((n) => n.endsWith('.json')) : []) {
        let stored: { turns?: { question: string; answer: { parts: { kind: string; text?: string }[] } }[] };
        try {
          stored = JSON.parse(readFileSync(join(folder, name), 'utf8'));
        } catch {
          continue; // replaced while read: the next look reads the new one
        }
        for (const turn of stored.turns ?? [])
          if (turn.question === question)
            most = Math.max(
              most,
              turn.answer.parts.reduce((n, p) => n + (p.kind === 'text' ? (p.text?.length ?? 0) : 0), 0),
            );
      }
    }
    return most;
  }

  /** The side bar is short: show the start of the last answer in the screenshot, not its sources. */
  const showAnswerStart = () =>
    e2e.chat
      .locator('.turn')
      .last()
      .locator('.answer-parts [data-kind="text"]')
      .first()
      .evaluate((e) => e.scrollIntoView({ block: 'start' }));

  it('streams an answer with its sources, and a follow-up stays in the same thread', async function () {
    await step(e2e.wb, 'ask a first question', async () => {
      await e2e.wb.ask(e2e.chat, 'How do I configure the connect timeout?');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
    });
    await step(e2e.wb, 'the answer has text and sources', async () => {
      assert.ok((await answerText()).length > 50, 'the answer has text');
      const sources = e2e.chat.locator('.turn').last().locator('.sources a');
      assert.ok((await sources.count()) >= 1, 'sources are listed under the answer');
      assert.match((await sources.first().getAttribute('href')) ?? '', /^http:\/\/127\.0\.0\.1:\d+\/docs\//);
      await showAnswerStart();
      await e2e.wb.shot('chat-1-first-answer');
    });
    const first = lastBody();
    assert.equal(first.threadId, null, 'a new conversation sends threadId null');
    await step(e2e.wb, 'ask a follow-up', async () => {
      await e2e.wb.ask(e2e.chat, 'And what is the default idle timeout?');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
    });
    const second = lastBody();
    assert.equal(typeof second.threadId, 'string', 'the follow-up sends the thread the first answer handed back');
    assert.ok(second.threadKey, 'and its thread key');
    assert.equal(second.messages.length, 3, 'with the whole conversation');
    assert.equal(askRequests().at(-1)!.status, 200, 'the service accepted the thread');
    await step(e2e.wb, 'a third question keeps the same thread', async () => {
      await e2e.wb.ask(e2e.chat, 'Does the relay retry failed requests?');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
      assert.equal(lastBody().threadId, second.threadId);
      await showAnswerStart();
      await e2e.wb.shot('chat-2-follow-ups');
    });
  });

  it('Stop keeps the partial answer, marked as stopped', async function () {
    let partial = '';
    await step(e2e.wb, 'ask a question that streams slowly', async () => {
      await e2e.wb.ask(e2e.chat, 'How do I deploy the relay with Helm? [[fault:slow]]');
      partial = await someText();
    });
    await step(e2e.wb, 'press Stop', async () => {
      await e2e.chat.locator('button.send').click();
      await e2e.wb.waitForAnswer(e2e.chat, 'stopped');
    });
    await step(e2e.wb, 'the partial text stays', async () => {
      const kept = await answerText();
      assert.ok(kept.startsWith(partial.slice(0, 20)), 'the text streamed so far is kept');
      assert.match(await e2e.chat.locator('.turn').last().innerText(), /Stopped/);
      await e2e.wb.shot('chat-3-stopped');
    });
  });

  it('"Ask Docs About Selection" sends code as `code` with its workspace-relative path', async function () {
    const lines = readFileSync(join(e2e.stack.workspace, 'src', 'relay.ts'), 'utf8').split('\n');
    await step(e2e.wb, 'select lines 2-6 of src/relay.ts', async () => {
      await e2e.wb.selectLinesIn('src/relay.ts', 2, 6);
    });
    await step(e2e.wb, 'run Ask Docs About Selection and ask', async () => {
      await e2e.wb.command('Docs Assistant: Ask Docs About Selection');
      e2e.chat = await e2e.wb.chatWithChip('src/relay.ts:2-6');
      await e2e.wb.shot('chat-4-code-chip');
      await e2e.wb.ask(e2e.chat, 'What are the defaults of these options?');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
    });
    assert.deepEqual(lastBody().context, [{ type: 'code', value: lines.slice(1, 6).join('\n'), path: 'src/relay.ts' }]);
  });

  it('prose from a Markdown file goes as `textSelection`, and the same selection is attached once', async function () {
    const lines = readFileSync(join(e2e.stack.workspace, 'docs', 'getting-started.md'), 'utf8').split('\n');
    await step(e2e.wb, 'select lines 1-3 of docs/getting-started.md', async () => {
      await e2e.wb.selectLinesIn('docs/getting-started.md', 1, 3);
    });
    await step(e2e.wb, 'attach it twice, then ask', async () => {
      await e2e.wb.command('Docs Assistant: Add Selection to Docs Chat');
      await e2e.wb.command('Docs Assistant: Ask Docs About Selection');
      e2e.chat = await e2e.wb.chatFrame();
      await e2e.chat.locator('.composer .chip', { hasText: 'docs/getting-started.md:1-3' }).first().waitFor({ timeout: 10_000 });
      assert.equal(await e2e.chat.locator('.composer .chip').count(), 1, 'the same selection is attached only once');
      await e2e.wb.ask(e2e.chat, 'Is this page accurate?');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
    });
    assert.deepEqual(lastBody().context, [{ type: 'textSelection', value: lines.slice(0, 3).join('\n'), path: 'docs/getting-started.md' }]);
  });

  it('a dropped stream keeps the partial answer and offers Retry, which asks again in the same turn', async function () {
    await step(e2e.wb, 'the stream drops mid-answer', async () => {
      await e2e.wb.ask(e2e.chat, 'How do I authenticate requests? [[fault:drop-mid]]');
      const turn = await e2e.wb.waitForAnswer(e2e.chat, 'error');
      assert.ok((await answerText()).length > 0, 'the partial answer stays');
      assert.match(await turn.locator('.error').innerText(), /connection|dropped|network/i);
      // The side bar is short: bring the message and its Retry into the screenshot.
      await turn.locator('.error').scrollIntoViewIfNeeded();
      await e2e.wb.shot('chat-5-dropped-stream');
    });
    await step(e2e.wb, 'Retry asks the same question again in the same turn', async () => {
      const before = askRequests().length;
      const firstBody = JSON.stringify(lastBody().messages);
      const turns = await e2e.chat.locator('.turn').count();
      const opening = (await answerText()).slice(0, 30);
      // The old turn already says "error": record every status it goes through, so the wait below
      // ends on the retried answer's error and not on the one already shown.
      await e2e.chat.evaluate(() => {
        const w = window as unknown as { e2eStatuses: string[] };
        w.e2eStatuses = [];
        const lastStatus = () => Array.from(document.querySelectorAll('.turn')).at(-1)?.getAttribute('data-status') ?? '';
        new MutationObserver(() => w.e2eStatuses.push(lastStatus())).observe(document.body, {
          subtree: true,
          childList: true,
          attributes: true,
          attributeFilter: ['data-status'],
        });
      });
      await e2e.chat.locator('.turn').last().locator('.error-actions button', { hasText: 'Retry' }).click();
      // The retried question still carries the fault word, so it drops again: what matters here
      // is that Retry asked the same question again and the partial answer was replaced, not doubled.
      const deadline = Date.now() + 20_000;
      for (;;) {
        const seen = await e2e.chat.evaluate(() => (window as unknown as { e2eStatuses: string[] }).e2eStatuses);
        const retried = seen.findIndex((x) => x !== 'error');
        if (retried !== -1 && seen.slice(retried).includes('error') && seen.at(-1) === 'error') break;
        if (Date.now() > deadline) throw new Error(`The retried answer never ended in an error; statuses seen: ${JSON.stringify(seen)}`);
        await e2e.wb.page.waitForTimeout(100);
      }
      assert.equal(askRequests().length, before + 1, 'Retry sent the question again');
      assert.equal(JSON.stringify(lastBody().messages), firstBody, 'the same conversation, the same question');
      assert.equal(await e2e.chat.locator('.turn').count(), turns, 'Retry answers in the same turn, it adds none');
      const text = await answerText();
      assert.equal(
        text.split(opening).length - 1,
        1,
        `the retried answer replaced the partial one instead of adding to it: ${JSON.stringify(text.slice(0, 200))}`,
      );
    });
  });

  it('429 says when to try again', async function () {
    await step(e2e.wb, 'the service rate-limits the question', async () => {
      await e2e.wb.ask(e2e.chat, 'What are the rate limits? [[fault:429]]');
      const turn = await e2e.wb.waitForAnswer(e2e.chat, 'error');
      assert.match(await turn.locator('.error').innerText(), /try again in \d+ s|too many/i);
      await e2e.wb.shot('chat-6-rate-limited');
    });
  });

  it('a wrong assistant key gives the 401 message with "Set Assistant Key", which fixes it', async function () {
    await step(e2e.wb, 'store a wrong (well-formed) key', async () => {
      await e2e.wb.command('Docs Assistant: Set Assistant API Key…');
      await e2e.wb.waitForQuickInput(/assistant/i);
      await e2e.wb.typeIntoQuickInput('svc_dsc_wrong_0000000000000000000000');
      await e2e.wb.notification(/the assistant api key is saved/i);
    });
    await step(e2e.wb, 'the question is refused with 401 and a Set Assistant Key action', async () => {
      e2e.chat = await e2e.wb.chatFrame();
      await e2e.wb.ask(e2e.chat, 'How do I get started?');
      const turn = await e2e.wb.waitForAnswer(e2e.chat, 'error');
      assert.equal(askRequests().at(-1)!.status, 401);
      assert.match(await turn.locator('.error').innerText(), /key/i);
      await e2e.wb.shot('chat-7-unauthorized');
      // The wrong key's "saved" toast may still be up; the wait for the right key's must not find it.
      await e2e.wb.command('Notifications: Clear All Notifications');
      await e2e.wb.page.locator('.notification-toast-container .notification-list-item').first().waitFor({ state: 'hidden', timeout: 5000 });
      await turn.locator('.error-actions button', { hasText: 'Set Assistant Key' }).click();
    });
    await step(e2e.wb, 'the key input opens; the right key and Retry answer the question', async () => {
      await e2e.wb.waitForQuickInput(/assistant/i);
      await e2e.wb.typeIntoQuickInput(e2e.stack.emulator.assistantKey);
      await e2e.wb.notification(/the assistant api key is saved/i);
      await e2e.chat.locator('.turn').last().locator('.error-actions button', { hasText: 'Retry' }).click();
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
      assert.equal(askRequests().at(-1)!.status, 200);
    });
  });

  it('a window reloaded mid-answer brings the conversation back, the partial answer marked interrupted', async function () {
    let partial = '';
    const question = 'How do I run the relay in Kubernetes? [[fault:slow]]';
    await step(e2e.wb, 'ask a slow question, until what it shows is on disk', async () => {
      await e2e.wb.ask(e2e.chat, question);
      partial = await someText();
      // The host saves every 250 ms while streaming, since it cannot count on saving on the way
      // out. The reload waits until the text shown is saved (its markdown is at least as long),
      // not for a fixed time that a loaded machine's disk may outlast.
      const deadline = Date.now() + 20_000;
      while (savedAnswerLength(question) < partial.length) {
        if (Date.now() > deadline)
          throw new Error(`After 20 s the host had saved ${savedAnswerLength(question)} characters of the answer; the chat shows ${partial.length}.`);
        await e2e.wb.page.waitForTimeout(100);
      }
    });
    await step(e2e.wb, 'reload the window mid-answer', async () => {
      await e2e.wb.reload();
      e2e.chat = await e2e.wb.openChat();
    });
    await step(e2e.wb, 'the conversation is back, the partial answer kept and marked', async () => {
      const turn = await e2e.wb.waitForAnswer(e2e.chat, 'stopped');
      assert.ok((await answerText()).startsWith(partial.slice(0, 20)), 'the partial answer is kept');
      assert.match(await turn.innerText(), /Interrupted/);
      assert.ok((await e2e.chat.locator('.turn').count()) >= 5, 'the earlier turns are back too');
      await e2e.wb.shot('chat-8-after-reload');
    });
  });
});

import * as assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnView } from '../../src/common/protocol';
import { snapshotWith, withWebview } from './fixture';
import { LIGHT } from './themes';
import { XSS_PAYLOADS } from './xssPayloads';

const ROOT = join(__dirname, '..', '..');
const SHOTS = join(ROOT, 'test-results', 'screenshots');

export const ANSWER = `## Configure the relay

Here is what the documentation says about **timeouts**:

- \`connectTimeout\` defaults to 30 s
- \`idleTimeout\` defaults to 60 s

| Setting | Default |
|---|---|
| connectTimeout | 30 s |
| idleTimeout | 60 s |

\`\`\`ts
import { Relay } from '@acme/relay';
const relay = new Relay({ connectTimeout: 30_000 });
\`\`\`

See [the configuration page](https://docs.acme.test/configuration) for more.
`;

function streamingTurn(id = 't1', extra: Partial<TurnView> = {}): TurnView {
  return { id, question: 'How do I set the timeout?', context: [], answer: { parts: [], sources: [], status: 'streaming', notices: [], jobs: [] }, ...extra };
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

describe('chat webview in Chromium', function () {
  this.timeout(60_000);
  const h = withWebview();

  before(() => mkdirSync(SHOTS, { recursive: true }));

  async function streamAnswer(turnId = 't1', text = ANSWER, size = 7): Promise<void> {
    await h.patch(turnId, [{ op: 'setPart', part: 0, value: { kind: 'tool', toolName: 'searchDocs', query: 'timeout', state: 'done', resultCount: 3 } }]);
    await h.patch(turnId, [{ op: 'setPart', part: 1, value: { kind: 'text', text: '' } }]);
    // A real answer arrives over seconds, so the webview renders it several times while it grows.
    for (const [i, p] of pieces(text, size).entries()) {
      await h.patch(turnId, [{ op: 'appendText', part: 1, text: p }]);
      if (i % 20 === 19) await h.rendered();
    }
    await h.patch(turnId, [
      {
        op: 'setSources',
        sources: [
          { url: 'https://docs.acme.test/configuration', title: 'Configuration reference' },
          { url: 'https://docs.acme.test/faq', title: 'FAQ' },
        ],
      },
      { op: 'setStatus', status: 'done' },
    ]);
    await h.rendered();
  }

  it('renders a streamed answer as markdown with its sources and the search line', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    await streamAnswer();
    assert.equal(await page.textContent('.answer h2'), 'Configure the relay');
    assert.equal((await page.locator('.answer li').count()) >= 2, true);
    assert.equal(await page.locator('.answer table td').first().textContent(), 'connectTimeout');
    assert.match((await page.textContent('.tool'))!, /Searched the docs for “timeout” · 3 results/);
    assert.deepEqual(
      await page.locator('.sources a').allTextContents(),
      [' Configuration reference', ' FAQ'].map((s) => s),
    );
    // The text was rendered in pieces, not re-rendered whole: finished blocks are separate nodes.
    assert.ok((await page.locator('.answer .md-block').count()) >= 3, 'finished blocks were committed one by one');
  });

  it('numbered lists go on after a code block, and table columns keep their alignment', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    await streamAnswer(
      't1',
      '1. Install it.\n2. Configure it:\n\n```sh\nrelay init\n```\n\n3. Start it.\n\n| Setting | Default | Unit |\n|---|:-:|--:|\n| timeout | 30 | s |\n',
    );
    assert.deepEqual(await page.locator('.answer .markdown ol').evaluateAll((ols) => ols.map((ol) => (ol as HTMLOListElement).start)), [1, 3]);
    const align = await page
      .locator('.answer .markdown table tr')
      .evaluateAll((rows) => rows.map((r) => Array.from(r.children, (c) => getComputedStyle(c).textAlign.replace('-webkit-', ''))));
    assert.deepEqual(align, [
      ['left', 'center', 'right'],
      ['start', 'center', 'right'],
    ]);
  });

  it('code blocks have a language label, Copy and Insert that send the code to the host', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    await streamAnswer();
    assert.equal(await page.textContent('.code-lang'), 'ts');
    await page.click('.code-block [data-action="copyCode"]');
    await page.click('.code-block [data-action="insertCode"]');
    const [copy] = await h.posted('copyCode');
    const [insert] = await h.posted('insertCode');
    assert.match(String(copy!.payload.code), /new Relay\(\{ connectTimeout: 30_000 \}\)/);
    assert.equal(insert!.payload.code, copy!.payload.code);
  });

  it('links go to the host and never navigate the webview', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    await streamAnswer();
    const url = page.url();
    await page.click('.sources a >> nth=0');
    await page.click('.answer .markdown a');
    const opened = (await h.posted('openLink')).map((m) => m.payload.url);
    assert.deepEqual(opened, ['https://docs.acme.test/configuration', 'https://docs.acme.test/configuration']);
    assert.equal(page.url(), url);
  });

  it('a stopped answer keeps its text, says Stopped and offers Retry', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    await h.patch('t1', [
      { op: 'setPart', part: 0, value: { kind: 'text', text: 'Partial answer so far' } },
      { op: 'setStatus', status: 'stopped' },
    ]);
    await h.rendered();
    assert.match((await page.textContent('.answer'))!, /Partial answer so far/);
    assert.match((await page.textContent('.answer-status'))!, /Stopped/);
    await page.click('.answer-status [data-action="runAction"]');
    const [retry] = await h.posted('runAction');
    assert.deepEqual(retry!.payload, { action: 'retry', turnId: 't1' });
  });

  it('a finished job card offers Review Changes, which asks the host to review that job (issue 30)', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    await h.patch('t1', [
      { op: 'setJobs', jobs: [{ jobId: 'j-done', status: 'completed', prLink: 'https://github.com/acme/acme-docs/pull/7', label: 'Fix the timeout docs' }] },
      { op: 'setStatus', status: 'done' },
    ]);
    await h.rendered();
    const review = page.locator('.job-card [data-job_action="reviewChanges"]');
    assert.equal(await review.count(), 1, 'one Review Changes button on the finished job');
    assert.match((await review.textContent())!, /Review Changes/);
    await review.click();
    const [action] = await h.posted('jobAction');
    assert.deepEqual(action!.payload, { jobId: 'j-done', action: 'reviewChanges' });
    // A job still working has no branch worth reviewing from the card yet.
    await h.patch('t1', [{ op: 'setJobs', jobs: [{ jobId: 'j-run', status: 'active', prLink: null, label: 'Still working' }] }]);
    await h.rendered();
    assert.equal(await page.locator('.job-card [data-job_action="reviewChanges"]').count(), 0);
  });

  it('a job card with a ready preview shows its address and opens it through the host (issue 30 §2)', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    const url = 'https://preview.example.com/fix-timeout/';
    await h.patch('t1', [
      { op: 'setJobs', jobs: [{ jobId: 'j-done', status: 'completed', prLink: null, label: 'Fix the timeout docs', previewUrl: url }] },
      { op: 'setStatus', status: 'done' },
    ]);
    await h.rendered();
    assert.match((await page.textContent('.job-card'))!, /preview\.example\.com\/fix-timeout/, 'the address is shown as text');
    assert.equal(await page.locator('.job-card a[href]').count(), 0, 'never a link the page itself follows');
    const open = page.locator('.job-card [data-job_action="openPreview"]');
    assert.match((await open.textContent())!, /Open Preview/);
    await open.click();
    const [action] = await h.posted('jobAction');
    assert.deepEqual(action!.payload, { jobId: 'j-done', action: 'openPreview' }, 'the host opens the address it keeps, never one from the page');
  });

  it('an error shows inline with its actions and a countdown, the partial text kept', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    await h.patch('t1', [
      { op: 'setPart', part: 0, value: { kind: 'text', text: 'Half an answer' } },
      {
        op: 'setStatus',
        status: 'error',
        error: { message: 'Too many requests.', kind: 'rateLimited', retryAt: Date.now() + 7000, actions: ['setAssistantKey', 'retry'] },
      },
    ]);
    await h.rendered();
    assert.match((await page.textContent('.answer'))!, /Half an answer/);
    assert.equal(await page.textContent('.error-message'), 'Too many requests.');
    assert.match((await page.textContent('.retry-countdown'))!, /Try again in [67] s/);
    await page.click('.error [data-action_name="setAssistantKey"]');
    const [action] = await h.posted('runAction');
    assert.equal(action!.payload.action, 'setAssistantKey');
  });

  it('input: Enter sends, Shift+Enter adds a line, blank is not sent, ↑ recalls earlier questions', async () => {
    const page = await h.open(snapshotWith({ inputHistory: ['first question', 'second question'] }));
    const input = page.locator('textarea.input');
    assert.equal(await page.locator('button.send').isDisabled(), true);
    await input.fill('   ');
    await input.press('Enter');
    assert.equal((await h.posted('send')).length, 0, 'whitespace is not sent');
    await input.fill('');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'second question');
    await input.press('ArrowUp');
    assert.equal(await input.inputValue(), 'first question');
    await input.fill('line one');
    await input.press('Shift+Enter');
    await input.type('line two');
    assert.equal(await input.inputValue(), 'line one\nline two');
    await input.press('Enter');
    const sent = await h.posted('send');
    assert.deepEqual(
      sent.map((m) => m.payload.text),
      ['line one\nline two'],
    );
  });

  it('context chips show where the selection came from and can be removed or flipped', async () => {
    const page = await h.open(
      snapshotWith({
        pendingContext: [
          { id: 'k1', type: 'code', path: 'src/app.ts', startLine: 3, endLine: 9, value: 'x', languageId: 'typescript' },
          { id: 'k2', type: 'textSelection', path: 'docs/a.md', startLine: 1, endLine: 1, value: 'y'.repeat(200), truncatedFrom: 90_000 },
        ],
      }),
    );
    assert.deepEqual(await page.locator('.composer .chip-label').allTextContents(), ['src/app.ts:3-9', 'docs/a.md:1']);
    assert.match((await page.locator('.composer .chip').nth(1).textContent())!, /cut to 200 chars/);
    await page.click('.composer .chip >> nth=0 >> [data-action="toggleChipType"]');
    await page.click('.composer .chip >> nth=1 >> [data-action="removeChip"]');
    assert.deepEqual(
      (await h.posted('toggleChipType')).map((m) => m.payload),
      [{ chipId: 'k1' }],
    );
    assert.deepEqual(
      (await h.posted('removeChip')).map((m) => m.payload),
      [{ chipId: 'k2' }],
    );
  });

  it('a reader who scrolls up while the answer streams is not pulled down', async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }), { height: 400 });
    await h.patch('t1', [{ op: 'setPart', part: 0, value: { kind: 'text', text: '' } }]);
    for (const p of pieces(ANSWER.repeat(3), 60)) await h.patch('t1', [{ op: 'appendText', part: 0, text: p }]);
    await h.rendered();
    const bottom = await page.evaluate(() => {
      const t = document.querySelector('.transcript')!;
      return t.scrollHeight - t.clientHeight - t.scrollTop;
    });
    assert.ok(bottom < 30, 'follows the answer while pinned to the bottom');
    const anchoring = () => page.evaluate(() => getComputedStyle(document.querySelector('.transcript')!).overflowAnchor);
    assert.equal(await anchoring(), 'none', 'no scroll anchoring while the view follows the answer');
    await page.evaluate(() => {
      const t = document.querySelector('.transcript')!;
      t.scrollTop = 50;
      t.dispatchEvent(new Event('scroll'));
    });
    for (const p of pieces(ANSWER, 40)) await h.patch('t1', [{ op: 'appendText', part: 0, text: p }]);
    await h.rendered();
    assert.equal(await page.evaluate(() => document.querySelector('.transcript')!.scrollTop), 50);
    assert.equal(await anchoring(), 'auto', 'scroll anchoring keeps the place of a reader who scrolled up');
    assert.equal(await page.locator('.jump-to-latest').isVisible(), true);
    await page.waitForTimeout(200);
    const saved = await page.evaluate(() => (window as unknown as { __state: { scrollTop: number; pinned: boolean } }).__state);
    assert.deepEqual({ scrollTop: saved.scrollTop, pinned: saved.pinned }, { scrollTop: 50, pinned: false });
  });

  it('the scroll position comes back after a reload (getState)', async () => {
    const done: TurnView = {
      id: 't1',
      question: 'q',
      context: [],
      answer: { parts: [{ kind: 'text', text: ANSWER.repeat(4) }], sources: [], status: 'done', notices: [], jobs: [] },
    };
    const page = await h.open(snapshotWith({ turns: [done] }), { height: 400, state: { conversationId: 'c1', scrollTop: 120, pinned: false } });
    await h.rendered();
    assert.equal(await page.evaluate(() => document.querySelector('.transcript')!.scrollTop), 120);
  });

  it(`executes none of ${XSS_PAYLOADS.length} XSS payloads streamed as answer text, and loads nothing external`, async () => {
    const page = await h.open(snapshotWith({ turns: [streamingTurn()], busy: true }));
    await h.patch('t1', [{ op: 'setPart', part: 0, value: { kind: 'text', text: '' } }]);
    for (const payload of XSS_PAYLOADS) for (const p of pieces(`\n\n${payload}\n\n`, 11)) await h.patch('t1', [{ op: 'appendText', part: 0, text: p }]);
    await h.patch('t1', [{ op: 'setStatus', status: 'done' }]);
    await h.rendered();
    // Click every link the payloads produced: none may run script or navigate.
    const url = page.url();
    for (const a of await page.locator('.answer a').all()) await a.click({ force: true }).catch(() => undefined);
    await page.waitForTimeout(300);
    const executed = await page.evaluate(() => (window as unknown as { __executed: string[] }).__executed);
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    assert.deepEqual(executed, []);
    // DOMPurify parses into an inert document; Chromium still reports the inline handlers it sees
    // there as blocked (`script-src-attr inline`) although nothing runs (`executed` is empty).
    // The same goes for <style> (`style-src-elem inline`). A violation with a URL would be
    // something that tried to load for real.
    // (A <base> seen there is reported as `base-uri` with no URL.)
    assert.deepEqual(
      violations.filter((v) => !v.endsWith(' inline') && !v.endsWith(' ')),
      [],
    );
    assert.equal(page.url(), url);
    const bad = await page.evaluate(() =>
      Array.from(document.querySelectorAll('.answer *')).flatMap((el) => [
        ...Array.from(el.attributes)
          .filter(
            (a) =>
              /^on/i.test(a.name) || a.name === 'style' || ((a.name === 'href' || a.name === 'src') && /^\s*(javascript|data:text|vbscript)/i.test(a.value)),
          )
          .map((a) => `${el.tagName}[${a.name}]`),
        ...(/^(SCRIPT|IFRAME|OBJECT|EMBED|SVG|MATH|FORM|STYLE|BASE|META|LINK)$/i.test(el.tagName) ? [el.tagName] : []),
      ]),
    );
    assert.deepEqual(bad, []);
    const opened = (await h.posted('openLink')).map((m) => String(m.payload.url));
    assert.deepEqual(
      opened.filter((u) => !/^(https?:|mailto:)/.test(u)),
      [],
      'only web links ever reach the host',
    );
  });

  it('looks right in a dark and a light theme (screenshots)', async () => {
    for (const [name, theme] of [
      ['dark', undefined],
      ['light', LIGHT],
    ] as const) {
      const turns: TurnView[] = [
        {
          id: 'a',
          question: 'How do I set the timeout?',
          context: [{ id: 'c', type: 'code', path: 'src/relay.ts', startLine: 12, endLine: 18, value: 'x' }],
          answer: {
            parts: [
              { kind: 'tool', toolName: 'searchDocs', query: 'timeout', state: 'done', resultCount: 3 },
              { kind: 'text', text: ANSWER },
            ],
            sources: [{ url: 'https://docs.acme.test/configuration', title: 'Configuration reference' }],
            status: 'done',
            notices: [],
            jobs: [{ jobId: 'j1', status: 'completed', prLink: 'https://github.com/acme/docs/pull/7', label: 'Fix the timeout default' }],
          },
        },
        {
          id: 'b',
          question: 'And the retry limit?',
          context: [],
          answer: {
            parts: [{ kind: 'text', text: 'The retry limit is set with `maxRetries`' }],
            sources: [],
            status: 'error',
            notices: [],
            jobs: [],
            error: { message: 'The connection dropped before the answer was complete.', kind: 'network', actions: ['retry'] },
          },
        },
      ];
      const page = await h.open(
        snapshotWith({
          turns,
          pendingContext: [{ id: 'p', type: 'textSelection', path: 'docs/configuration.md', startLine: 4, endLine: 10, value: 'x' }],
          draft: 'What about TLS?',
        }),
        { theme, height: 900 },
      );
      await h.rendered();
      await page.screenshot({ path: join(SHOTS, `webview-${name}.png`), fullPage: true });
      const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, name === 'dark' ? 'rgb(24, 24, 24)' : 'rgb(248, 248, 248)', 'the theme variables drive the colours');
    }
  });
});

import assert from 'node:assert/strict';
import { waitForFilledComposer } from './composer';
import { CANCEL, clickReviewAction, editorText, waitForReview } from './review';
import { EDITOR_INPUT, step } from './workbench';
import { withStack } from './withStack';

// Issue 19, item 1, as a user meets it: Quick Fix (Ctrl+.) on a selected passage of the docs
// offers Fix This in the Docs… and Ask Docs About This, and Fix opens the review with the
// passage; at a symbol in TypeScript it offers Ask Docs About `RelayOptions`, which fills the
// Docs chat's composer with the question and the code; Send asks.

type Body = { context?: { type: string; value: string; path?: string }[]; messages: unknown[] };

describe('e2e: the lightbulb’s Docs actions', function () {
  const e2e = withStack({
    stack: { demoKeys: true },
    // Nothing of the extension is opened first: a Markdown file activates it (onLanguage), as a
    // writer's first docs file would.
  });

  /** The Quick Fix menu's rows, once it shows `titles`. */
  async function quickFix(titles: string[], place: () => Promise<void>): Promise<string[]> {
    const editor = e2e.wb.page.locator(`.editor-instance .monaco-editor :is(${EDITOR_INPUT})`).first();
    const rows = e2e.wb.page.locator('.action-widget .monaco-list-row');
    // 1.139's Go to Line box lingers a moment after Enter and can take the first Ctrl+.: try again.
    // The extension may still be activating (the Markdown file itself activates it), and an Escape
    // between tries can drop the selection: each try puts the selection or cursor back first.
    // While TypeScript's server is still loading the project ("Analyzing 'relay.ts'…" in the status
    // bar), VS Code drops every provider's actions, ours too: a provider TypeScript registers
    // meanwhile cancels the request, and a cancelled request lists nothing ("No code actions
    // available"; seen on a loaded machine). So each try waits for that to end first.
    // On a loaded 2-core machine TypeScript's server, with the sample's second project, kept
    // cancelling the requests for longer than three tries (seen once in CI on 1.139): the tries go
    // on until TypeScript has settled, bounded by a minute of them.
    const analyzing = e2e.wb.page.locator('.statusbar-item', { hasText: 'Analyzing' }).first();
    const giveUp = Date.now() + 60_000;
    for (let attempt = 1; ; attempt++) {
      await analyzing.waitFor({ state: 'hidden', timeout: 120_000 }).catch(() => {
        throw new Error('TypeScript was still analyzing the workspace after 120 s.');
      });
      await place();
      await editor.focus();
      await e2e.wb.page.keyboard.press('Control+.');
      const shown = await rows
        .filter({ hasText: titles[0] })
        .first()
        .waitFor({ state: 'visible', timeout: 5000 })
        .then(() => true)
        .catch(() => false);
      if (shown) break;
      if (Date.now() > giveUp)
        throw new Error(`Quick Fix did not list "${titles[0]}" in ${attempt} tries over a minute (it lists ${JSON.stringify(await rows.allInnerTexts())}).`);
      await e2e.wb.page.keyboard.press('Escape');
    }
    for (const t of titles) await rows.filter({ hasText: t }).first().waitFor({ state: 'visible', timeout: 15_000 });
    return (await rows.allInnerTexts()).map((s) => s.trim());
  }

  /** Picks a row of the Quick Fix menu as a keyboard user does (the menu's pointer block swallows synthetic clicks). */
  async function pick(title: string): Promise<void> {
    const focused = e2e.wb.page.locator('.action-widget .monaco-list-row.focused');
    for (let i = 0; i < 30; i++) {
      if ((await focused.innerText().catch(() => '')).includes(title)) {
        await e2e.wb.page.keyboard.press('Enter');
        return;
      }
      await e2e.wb.page.keyboard.press('ArrowDown');
    }
    throw new Error(`No row "${title}" in the Quick Fix menu.`);
  }

  /** Puts the cursor at a 1-based line and column (Go to Line). */
  async function cursorAt(line: number, column: number): Promise<void> {
    const editor = e2e.wb.page.locator(`.editor-instance .monaco-editor :is(${EDITOR_INPUT})`).first();
    await editor.focus();
    await e2e.wb.page.keyboard.press('Control+G');
    await e2e.wb.page.locator('.quick-input-widget input').fill(`:${line}:${column}`);
    await e2e.wb.page.keyboard.press('Enter');
  }

  it('on a Markdown selection offers both actions; Fix This in the Docs… opens the review with the passage', async function () {
    await step(e2e.wb, 'select lines 3-3 of docs/getting-started.md', async () => {
      await e2e.wb.selectLinesIn('docs/getting-started.md', 3, 3);
    });
    const rows = await step(e2e.wb, 'Quick Fix lists both actions', () =>
      quickFix(['Fix This in the Docs…', 'Ask Docs About This'], () => e2e.wb.selectLines(3, 3)),
    );
    await e2e.wb.shot('code-actions-1-markdown-quick-fix');
    assert.ok(rows.some((r) => r.includes('Fix This in the Docs…')) && rows.some((r) => r.includes('Ask Docs About This')), JSON.stringify(rows));
    await step(e2e.wb, 'pick Fix This in the Docs…', async () => {
      await pick('Fix This in the Docs…');
      await waitForReview(e2e.wb);
    });
    const text = await step(e2e.wb, 'the review has the file, line and text', () => editorText(e2e.wb));
    await e2e.wb.shot('code-actions-2-review');
    assert.match(text, /^File: docs\/getting-started\.md \(line 3\)$/m, text);
    assert.ok(text.includes('Install the relay with `npm install @acme/relay`, then create one:'), text);
    assert.match(text, /^Instruction: Fix this passage of the documentation\./m, text);
    await step(e2e.wb, 'cancel the review', () => clickReviewAction(e2e.wb, CANCEL));
  });

  it('at `RelayOptions` in src/relay.ts offers Ask Docs About `RelayOptions`, which fills the chat’s composer; Send asks with the code attached', async function () {
    // Issue 27: this asserted that the question was sent at once. A command run with arguments
    // (any extension or link can run it) now fills the composer, and only the user sends.
    const asks = () => e2e.wb.requests('/assistant/').filter((r) => r.method === 'POST');
    const before = asks().length;
    await step(e2e.wb, 'put the cursor on RelayOptions in src/relay.ts', async () => {
      await e2e.wb.page.keyboard.press('Escape'); // a menu left open by an earlier failure
      await e2e.wb.openFile('src/relay.ts');
      await cursorAt(2, 22);
    });
    await step(e2e.wb, 'Quick Fix lists the symbol’s actions', () =>
      quickFix(['Ask Docs About `RelayOptions`', 'Fix the Docs for `RelayOptions`…'], () => cursorAt(2, 22)),
    );
    await e2e.wb.shot('code-actions-3-typescript-quick-fix');
    await step(e2e.wb, 'pick Ask Docs About `RelayOptions`', () => pick('Ask Docs About `RelayOptions`'));
    e2e.chat = await e2e.wb.chatFrame();
    const box = await step(e2e.wb, 'the composer holds the question and the code chip', () =>
      waitForFilledComposer(e2e.chat, 'What do the docs say about `RelayOptions`?', 'relay.ts'),
    );
    await e2e.wb.page.waitForTimeout(1000);
    assert.equal(asks().length, before, 'nothing was sent before Send');
    const turn = await step(e2e.wb, 'Send: the chat shows the question with the code chip', async () => {
      await box.press('Enter');
      const t = e2e.chat.locator('.turn', { hasText: 'What do the docs say about `RelayOptions`?' }).last();
      await t.waitFor({ state: 'visible', timeout: 20_000 });
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
      return t;
    });
    await e2e.wb.shot('code-actions-4-chat');
    assert.match(await turn.innerText(), /relay\.ts:\d+/, 'the turn names the attached code');
    assert.equal(asks().length, before + 1, 'one question was sent');
    const body = asks().at(-1)!.body as Body;
    assert.equal(body.context?.length, 1);
    assert.equal(body.context![0]!.type, 'code');
    assert.equal(body.context![0]!.path, 'src/relay.ts');
    assert.ok(body.context![0]!.value.startsWith('export interface RelayOptions {'), body.context![0]!.value);
    assert.match(JSON.stringify(body.messages.at(-1)), /What do the docs say about `RelayOptions`\?/);
  });
});

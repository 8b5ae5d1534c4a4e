import assert from 'node:assert/strict';
import { step } from './workbench';
import { withStack } from './withStack';

// Issue 33 in a real VS Code: conversations are files in the workspace's storage folder, and the
// chat keeps every one the user did not delete. A first conversation, then 25 more (past the 20 the
// chat kept before, so it would have been dropped), all asked through the chat (no shortcut around
// the store); after a window reload, the history's search still finds the first one by a word of
// its answer. Deleted from the history list, it is gone, and stays gone after another reload.

const TARGET = 'How do I verify webhook signatures?';
const OTHER = (n: number): string => `What are the rate limits? (${n})`;
const MORE = 25;

describe('e2e: the chat keeps every conversation, on disk', function () {
  const e2e = withStack({ stack: { demoKeys: true }, openChat: true });
  const rows = () => e2e.wb.page.locator('.quick-input-widget .monaco-list-row');
  const answerText = async () => (await e2e.chat.locator('.turn').last().locator('.answer-parts [data-kind="text"]').allInnerTexts()).join('\n');

  /** The history's rows for `query`, once the search (which reads the files) has settled on `want` rows. */
  async function search(query: string, want: (shown: string[]) => boolean): Promise<string[]> {
    await e2e.wb.command('Docs Assistant: Show Conversation History…');
    await e2e.wb.waitForQuickInput(/Reopen a conversation/);
    await rows().first().waitFor({ timeout: 10_000 });
    await e2e.wb.typeIntoQuickInput(query, { enter: false });
    const deadline = Date.now() + 15_000;
    for (;;) {
      await e2e.wb.page.waitForTimeout(300);
      const busy = await e2e.wb.page
        .locator('.quick-input-widget .quick-input-progress-bar .progress-bit')
        .isVisible()
        .catch(() => false);
      const shown = await rows().allInnerTexts();
      if (!busy && want(shown)) return shown;
      if (Date.now() > deadline) throw new Error(`The history offers ${JSON.stringify(shown)} for "${query}".`);
    }
  }

  it(`finds a conversation after ${MORE} more and a reload, deletes it, and it stays gone`, async function () {
    this.timeout(900_000);
    const target = await step(e2e.wb, 'ask the first question', async () => {
      await e2e.wb.ask(e2e.chat, TARGET);
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
      return answerText();
    });
    const others: string[] = [];
    await step(e2e.wb, `ask ${MORE} more, each in a conversation of its own`, async () => {
      for (let n = 1; n <= MORE; n++) {
        await e2e.wb.command('Docs Assistant: New Conversation');
        await e2e.chat.locator('.empty-state').waitFor({ timeout: 10_000 });
        await e2e.wb.ask(e2e.chat, OTHER(n));
        await e2e.wb.waitForAnswer(e2e.chat, 'done');
        others.push(await answerText());
      }
    });
    // A word only the first answer holds: the search must read its file to find it.
    const elsewhere = [TARGET, ...others, ...Array.from({ length: MORE }, (_, i) => OTHER(i + 1))].join('\n').toLowerCase();
    const word = target.match(/\b[A-Za-z]{7,}\b/g)?.find((w) => !elsewhere.includes(w.toLowerCase()));
    assert.ok(word, `no word of the first answer is missing from the others: ${JSON.stringify(target.slice(0, 300))}`);

    await step(e2e.wb, 'reload the window', async () => {
      await e2e.wb.reload();
      e2e.chat = await e2e.wb.openChat();
    });
    await step(e2e.wb, `the history finds the first conversation by "${word}"`, async () => {
      const shown = await search(word, (s) => s.length === 1 && s[0]!.includes(TARGET));
      assert.match(shown[0]!.toLowerCase(), new RegExp(word.toLowerCase()), 'with the excerpt around the word');
      await e2e.wb.shot('history-store-found');
    });
    await step(e2e.wb, 'delete it from the history list', async () => {
      const row = rows().first();
      await row.hover();
      await row.locator('.action-label[aria-label^="Delete Conversation"]').click({ timeout: 10_000 });
      const deadline = Date.now() + 10_000;
      while ((await rows().allInnerTexts()).some((t) => t.includes(TARGET))) {
        if (Date.now() > deadline) throw new Error('The deleted conversation is still listed.');
        await e2e.wb.page.waitForTimeout(200);
      }
      await e2e.wb.page.keyboard.press('Escape');
    });
    await step(e2e.wb, 'after another reload it is still gone, and the others are there', async () => {
      await e2e.wb.reload();
      e2e.chat = await e2e.wb.openChat();
      await search(word, (s) => s.length === 0);
      await e2e.wb.page.keyboard.press('Escape');
      const kept = await search('rate limits', (s) => s.length > 0);
      assert.ok(!kept.some((t) => t.includes(TARGET)), 'the deleted one is not among them');
      await e2e.wb.page.keyboard.press('Escape');
      await search('(1)', (s) => s.length === 1 && s[0]!.includes(OTHER(1)));
      await e2e.wb.page.keyboard.press('Escape');
    });
  });
});

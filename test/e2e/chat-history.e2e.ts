import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { editorText } from './review';
import { step } from './workbench';
import { withStack } from './withStack';

// Issue 19, item 3, in a real VS Code: the history quick pick finds a conversation by a word only
// its answer holds (not its title), with the excerpt around it; and the conversation exported to
// an untitled document holds what it held: the question, the attached selection, the answer's
// text and its sources.

const Q1 = 'How do I verify webhook signatures?';
const Q2 = 'What are the rate limits?';

describe('e2e: a chat history you can use', function () {
  const e2e = withStack({ stack: { demoKeys: true }, openChat: true });

  const lastTurn = () => e2e.chat.locator('.turn').last();
  const answerText = async () => (await lastTurn().locator('.answer-parts [data-kind="text"]').allInnerTexts()).join('\n');
  const sourceLinks = async () =>
    (
      await lastTurn()
        .locator('.sources a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''))
    ).filter(Boolean);

  it('search finds a word from an old answer, and the export writes what the conversation held', async function () {
    const relay = readFileSync(join(e2e.stack.workspace, 'src', 'relay.ts'), 'utf8').split('\n');
    const first = await step(e2e.wb, 'ask a first question with a selection attached', async () => {
      await e2e.wb.selectLinesIn('src/relay.ts', 2, 6);
      await e2e.wb.command('Docs Assistant: Ask Docs About Selection');
      e2e.chat = await e2e.wb.chatWithChip('src/relay.ts:2-6');
      await e2e.wb.ask(e2e.chat, Q1);
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
      return { text: await answerText(), links: await sourceLinks() };
    });
    const second = await step(e2e.wb, 'ask a second question in a new conversation, then start a third', async () => {
      await e2e.wb.command('Docs Assistant: New Conversation');
      await e2e.chat.locator('.empty-state').waitFor({ timeout: 10_000 });
      await e2e.wb.ask(e2e.chat, Q2);
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
      const out = { text: await answerText(), links: await sourceLinks() };
      await e2e.wb.command('Docs Assistant: New Conversation');
      await e2e.chat.locator('.empty-state').waitFor({ timeout: 10_000 });
      return out;
    });
    assert.ok(first.links.length > 0, 'the first answer has sources');
    // A word only the first answer holds: not in its question, nor anywhere in the second conversation.
    const elsewhere = [Q1, Q2, second.text, ...second.links].join('\n').toLowerCase();
    const word = first.text.match(/\b[A-Za-z]{7,}\b/g)?.find((w) => !elsewhere.includes(w.toLowerCase()));
    assert.ok(word, `no word of the first answer is missing from the second: ${JSON.stringify(first.text.slice(0, 300))}`);

    const rows = e2e.wb.page.locator('.quick-input-widget .monaco-list-row');
    await step(e2e.wb, `the history finds the first conversation by "${word}"`, async () => {
      await e2e.wb.command('Docs Assistant: Show Conversation History…');
      await e2e.wb.waitForQuickInput(/Reopen a conversation/);
      await rows.nth(1).waitFor({ timeout: 10_000 });
      await e2e.wb.typeIntoQuickInput(word, { enter: false });
      const deadline = Date.now() + 10_000;
      let shown: string[];
      for (;;) {
        shown = await rows.allInnerTexts();
        if (shown.length === 1 && shown[0]!.includes(Q1) && shown[0]!.toLowerCase().includes(word.toLowerCase())) break;
        if (Date.now() > deadline) throw new Error(`The history offers ${JSON.stringify(shown)} for "${word}".`);
        await e2e.wb.page.waitForTimeout(100);
      }
      // The row's detail is the excerpt of the answer around the word, not the date.
      const detail = (await rows.first().locator('.quick-input-list-detail, .quick-input-list-row .monaco-icon-label').last().innerText()).trim();
      assert.ok(detail.toLowerCase().includes(word.toLowerCase()), `the excerpt: ${JSON.stringify(detail)}`);
      await e2e.wb.shot('history-search');
      await e2e.wb.page.keyboard.press('Enter');
      await e2e.chat.locator('.turn .question-text', { hasText: Q1 }).waitFor({ timeout: 10_000 });
    });

    const exported = await step(e2e.wb, 'export the reopened conversation to an untitled document', async () => {
      await e2e.wb.command('Docs Assistant: Export Conversation as Markdown…');
      await e2e.wb.waitForQuickInput(/Open as Untitled Document/);
      await e2e.wb.pickQuickItem(/Open as Untitled Document/);
      await e2e.wb.page.locator('.editor-group-container.active .tab.active[aria-label*="Untitled"]').waitFor({ timeout: 10_000 });
      await e2e.wb.shot('history-export');
      return editorText(e2e.wb);
    });
    assert.ok(exported.startsWith(`# ${Q1}\n`), exported.slice(0, 200));
    assert.ok(exported.includes(`## Question\n\n${Q1}\n`), 'the question');
    assert.ok(exported.includes(`src/relay.ts:2-6\n\n\`\`\`typescript\n${relay.slice(1, 6).join('\n')}\n\`\`\``), 'the attached selection, fenced');
    assert.ok(exported.includes('## Answer'), 'the answer heading');
    assert.ok(exported.includes(word), 'the answer text');
    assert.ok(
      first.links.some((url) => exported.includes(`](${url})`)),
      `a source link of ${JSON.stringify(first.links)} in ${JSON.stringify(exported.slice(-600))}`,
    );
    assert.ok(!exported.includes(Q2), 'nothing of the other conversation');
  });
});

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitForFilledComposer } from './composer';
import { packTestOnlyExtension, ROOT } from './stack';
import { step } from './workbench';
import { withStack } from './withStack';

// Issue 27, item 2, as it was reproduced: another extension runs Ask Docs About Selection with a
// key file outside the workspace as its argument. A test-only extension (test/command-caller)
// plays that extension: it runs a docsAssistant command with the arguments typed into its input
// box. The file is refused with a message that names it, and the emulator receives none of its
// text, not even with the next question. A document of the workspace, open in an editor, only
// fills the chat's composer: nothing leaves until the user presses Send.

const CALLER = 'Another Extension (test): Run a Docs Assistant Command with Arguments';
const ASK = 'docsAssistant.chat.askAboutSelection';
const FIX = 'docsAssistant.agent.fixDocs';

type Body = { context?: { type: string; value: string; path?: string }[]; messages: unknown[] };

describe('e2e: commands run with arguments by another extension', function () {
  const e2e = withStack({
    stack: () => ({ demoKeys: true, extraExtensions: [packTestOnlyExtension(join(ROOT, 'test', 'command-caller'), 'command-caller')] }),
    openChat: true,
  });
  const marker = `SECRET-MARKER-${randomUUID()}`;
  let keyFile: string;

  const asks = () => e2e.wb.requests('/assistant/').filter((r) => r.method === 'POST');
  const leaked = () => JSON.stringify(e2e.stack.emulator.requests).includes(marker);
  const range = { start: { line: 0, character: 0 }, end: { line: 3, character: 0 } };

  /** What the other extension does: executeCommand(command, ...args). */
  async function runAsAnotherExtension(command: string, args: unknown[]): Promise<void> {
    await e2e.wb.command(CALLER);
    await e2e.wb.waitForQuickInput(/JSON/);
    await e2e.wb.typeIntoQuickInput(JSON.stringify({ command, args }));
  }

  before(function () {
    // Beside the workspace copy (userDataDir/workspace), not in it.
    const outside = join(e2e.stack.userDataDir, 'outside');
    mkdirSync(outside, { recursive: true });
    keyFile = join(outside, 'deploy-key.txt');
    writeFileSync(keyFile, `${marker}\nsvc_${marker}\n${marker}\n`);
  });

  it('refuses a key file outside the workspace, naming it; the emulator receives none of its text', async function () {
    const uri = pathToFileURL(keyFile).href;
    await step(e2e.wb, 'another extension runs Ask Docs About Selection on the key file', () =>
      runAsAnotherExtension(ASK, [{ uri, ...range, question: 'What is in this file?' }]),
    );
    await e2e.wb.page.waitForTimeout(2000);
    assert.equal(leaked(), false, 'the emulator received the key file’s text');
    const toast = await step(e2e.wb, 'a warning names the file', () => e2e.wb.notification(/Not reading .*outside this workspace/));
    await e2e.wb.shot('command-args-1-refused');
    assert.ok((await toast.innerText()).includes(uri), await toast.innerText());
    await step(e2e.wb, 'another extension runs Fix Docs with Agent on the key file', async () => {
      await e2e.wb.dismissNotifications();
      await runAsAnotherExtension(FIX, [{ uri, ...range }]);
      await e2e.wb.notification(/Not reading .*outside this workspace/);
    });
    assert.equal(await e2e.wb.page.locator('.tabs-container .tab', { hasText: /Untitled/ }).count(), 0, 'a review document opened');
    assert.equal(await e2e.chat.locator('.composer-chips .chip').count(), 0, 'the file is a chip in the composer');
    assert.notEqual(await e2e.chat.locator('textarea').first().inputValue(), 'What is in this file?');

    await step(e2e.wb, 'the user’s next question', async () => {
      await e2e.wb.ask(e2e.chat, 'How do I configure the connect timeout?');
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
    });
    assert.ok(asks().length >= 1, 'the question reached the emulator');
    assert.equal(leaked(), false, 'the emulator received the key file’s text');
  });

  it('fills the composer from a workspace document open in an editor, and sends nothing until Send', async function () {
    const before = asks().length;
    const doc = pathToFileURL(join(e2e.stack.workspace, 'docs', 'getting-started.md')).href;
    await step(e2e.wb, 'open docs/getting-started.md', () => e2e.wb.openFile('docs/getting-started.md'));
    await step(e2e.wb, 'another extension runs Ask Docs About Selection on it', () =>
      runAsAnotherExtension(ASK, [{ uri: doc, start: { line: 2, character: 0 }, end: { line: 3, character: 0 }, question: 'How do I install the relay?' }]),
    );
    const box = await step(e2e.wb, 'the composer holds the question and the passage', () =>
      waitForFilledComposer(e2e.chat, 'How do I install the relay?', 'getting-started.md'),
    );
    await e2e.wb.shot('command-args-2-composer-filled');
    await e2e.wb.page.waitForTimeout(1500);
    assert.equal(asks().length, before, 'a question reached the emulator before the user pressed Send');

    await step(e2e.wb, 'the user presses Send', async () => {
      await box.press('Enter');
      await e2e.chat.locator('.turn', { hasText: 'How do I install the relay?' }).last().waitFor({ state: 'visible', timeout: 15_000 });
      await e2e.wb.waitForAnswer(e2e.chat, 'done');
    });
    assert.equal(asks().length, before + 1, 'one question was sent');
    const body = asks().at(-1)!.body as Body;
    assert.equal(body.context?.length, 1);
    assert.equal(body.context![0]!.path, 'docs/getting-started.md');
    assert.match(JSON.stringify(body.messages.at(-1)), /How do I install the relay\?/);
    assert.equal(leaked(), false);
  });
});

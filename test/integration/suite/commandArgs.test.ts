import * as assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import type { RunningEmulator } from '../../emulator';
import { activatedWithEmulator, sleep, stillPending, waitFor } from './harness';
import { CANCEL, received } from './review';

// Issue 27, item 2, in the real VS Code: another extension (or a `command:` link) runs the
// commands that take a document with arguments, as this test does through executeCommand. A file
// outside the workspace, or one not open in an editor, is refused; a document that may be read
// fills the chat's composer (or the agent's review), and nothing reaches the service until Send.

const ASK = 'docsAssistant.chat.askAboutSelection';
const FIX = 'docsAssistant.agent.fixDocs';

describe('Commands run with arguments (another extension, a command: link)', () => {
  let hooks: DocsAssistantTestHooks;
  let emu: RunningEmulator;
  /** In a file outside the workspace, and in one inside it that is not open: it must never leave. */
  const marker = `SECRET-MARKER-${randomUUID()}`;
  let outside: vscode.Uri;
  let closedInside: vscode.Uri;
  let openInside: vscode.Uri;

  const target = (uri: vscode.Uri) => ({ uri: uri.toString(), start: { line: 0, character: 0 }, end: { line: 2, character: 0 } });
  const leaked = async () => JSON.stringify(await received(emu)).includes(marker);
  const asks = async () => (await received(emu)).filter((r) => r.method === 'POST' && r.path.includes('/assistant/'));
  /** The user's Send, once any earlier answer has finished. */
  async function send(question: string): Promise<void> {
    await waitFor('the chat to be free', () => !hooks.chat.session.busy, 30_000);
    const sent = await hooks.chat.session.ask(question);
    assert.equal(sent.accepted, true, sent.reason);
  }
  const composer = () => hooks.chat.snapshot();
  const reviewWithMarker = () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'untitled' && d.getText().includes(marker));

  /** Runs both commands with `uri`; each must be refused at once, opening nothing and sending nothing. */
  async function runBothRefused(uri: vscode.Uri): Promise<void> {
    await vscode.commands.executeCommand(ASK, { ...target(uri), question: 'What does this file say?' });
    const fix = Promise.resolve(vscode.commands.executeCommand(FIX, target(uri)));
    try {
      await sleep(1500);
      assert.equal(await leaked(), false, 'the service received the file’s text');
      assert.equal(reviewWithMarker(), undefined, 'a review document quotes the file');
      assert.equal(await stillPending(fix, 100), false, 'Fix Docs with Agent is still waiting on a review');
    } finally {
      if (reviewWithMarker()) await vscode.commands.executeCommand(CANCEL);
    }
    const { pendingContext, draft } = composer();
    assert.ok(!pendingContext.some((c) => c.value.includes(marker)), 'the file is a chip in the composer');
    assert.notEqual(draft, 'What does this file say?', 'the command’s question is in the input box');
  }

  before(async () => {
    ({ hooks, emu } = await activatedWithEmulator());
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    assert.ok(folder?.scheme === 'file', 'the suite runs with a workspace folder on disk');
    const secretDir = mkdtempSync(join(tmpdir(), 'command-args-'));
    writeFileSync(join(secretDir, 'key.txt'), `${marker}\napi_key = ${marker}\n`);
    outside = vscode.Uri.file(join(secretDir, 'key.txt'));
    const inside = join(folder.fsPath, 'command-args');
    mkdirSync(inside, { recursive: true });
    writeFileSync(join(inside, 'private-notes.md'), `# Notes\n\n${marker}\n`);
    writeFileSync(join(inside, 'relay.md'), '# Relay\n\nInstall the relay with `npm i -g relay`.\n');
    closedInside = vscode.Uri.file(join(inside, 'private-notes.md'));
    openInside = vscode.Uri.file(join(inside, 'relay.md'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('refuses a file outside the workspace, even open in an editor: the service never receives its text', async () => {
    await vscode.window.showTextDocument(outside, { preview: false });
    await runBothRefused(outside);
    // Whatever the chat holds goes with the user's next question: that one carries none of the file either.
    const before = (await asks()).length;
    await send('What is new in the relay?');
    await waitFor('the question to reach the service', async () => (await asks()).length > before);
    await waitFor('the answer to finish', () => !hooks.chat.session.busy, 30_000);
    assert.equal(await leaked(), false, 'the service received the file’s text with the next question');
  });

  it('refuses a workspace document that is not open in an editor', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    // Loaded by VS Code (as another extension may do), but in no editor the user can see.
    await vscode.workspace.openTextDocument(closedInside);
    await runBothRefused(closedInside);
  });

  it('fills the composer from a workspace document open in an editor, and sends nothing until Send', async () => {
    await vscode.window.showTextDocument(openInside, { preview: false });
    const before = (await asks()).length;
    await vscode.commands.executeCommand(ASK, { ...target(openInside), question: 'How do I install the relay?' });
    await sleep(1500);
    assert.equal((await asks()).length, before, 'a question reached the service before the user pressed Send');
    const filled = composer();
    assert.equal(filled.draft, 'How do I install the relay?');
    const chip = filled.pendingContext.at(-1);
    assert.equal(chip?.path, 'command-args/relay.md');
    assert.ok(chip?.value.startsWith('# Relay'), chip?.value);

    // The user presses Send: the question goes, with the passage.
    await send(filled.draft);
    const body = await waitFor('the question to reach the service', async () => (await asks())[before]?.body);
    const { context } = body as { context?: { value: string; path?: string }[] };
    assert.ok(
      context?.some((c) => c.path === 'command-args/relay.md' && c.value.startsWith('# Relay')),
      JSON.stringify(context),
    );
    await waitFor('the answer to finish', () => !hooks.chat.session.busy, 30_000);
  });
});

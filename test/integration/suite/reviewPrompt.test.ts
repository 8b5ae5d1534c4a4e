import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RunningEmulator } from '../../emulator';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import { activated, configureForEmulator, DEMO, extension, stillPending, waitFor } from './harness';
import { CANCEL, received, replaceText, reviewEditor, SEND } from './review';

// Issue 16, item 11: the prompt for the agent is reviewed in a real editor (an untitled Markdown
// document with Send to Agent / Cancel in its title bar), and what is sent is exactly that
// document's text when Send is pressed: every line break, and a literal ⏎ as the character it is.
// The old one-line input box showed line breaks as ⏎ and turned every ⏎ back into one.

const isCreate = (r: { method: string; path: string }) => r.method === 'POST' && /\/agent\/.+\/job$/.test(r.path);

describe('Prompt review before an agent job', () => {
  let emu: RunningEmulator;
  let hooks: DocsAssistantTestHooks;

  before(async () => {
    ({ hooks } = await activated());
    if ((await hooks.keys.get('admin')) !== DEMO.adminKey) await hooks.keys.store('admin', DEMO.adminKey);
    emu = await configureForEmulator();
    await waitFor('the jobs of the emulator project to load', () => hooks.agent.current);
  });

  afterEach(async () => {
    // A failed test must not leave a review (or, on the old code, an input box) open for the next.
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    if (vscode.window.activeTextEditor?.document.uri.scheme === 'untitled')
      await Promise.resolve(vscode.commands.executeCommand(CANCEL)).catch(() => undefined);
  });

  // The chat's way in: a prefilled prompt through the AgentJobsService that extension.ts hands it.
  const fixDocs = (prompt: string) => hooks.jobs.launch({ draft: prompt, label: 'A question from the chat' });
  const isOpen = (uri: vscode.Uri) =>
    vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()));

  it('sends exactly the text of the review document when Send is pressed: line breaks, spaces and a literal ⏎', async () => {
    const draft = `Answer from the chat, to be fixed ${Date.now()}\n\nSecond paragraph.`;
    const edited = [
      'File: docs/configuration.md (lines 5-8)',
      '',
      '```yaml',
      'connectTimeout: 10s ⏎ this ⏎ is a character, not a line break',
      '```',
      '',
      'Instruction: the default is 30 s.',
      '   Keep the table order.   ',
      '',
    ].join('\n');
    const before = (await received(emu)).length;
    const result = fixDocs(draft);

    const editor = await reviewEditor(draft);
    const uri = editor.document.uri;
    await replaceText(editor, edited);
    assert.ok(await stillPending(result, 300), 'nothing may be sent before Send is pressed');
    assert.equal((await received(emu)).slice(before).filter(isCreate).length, 0, 'a job was created before Send');

    await vscode.commands.executeCommand(SEND);
    const started = await result;
    assert.ok(started?.jobId, 'fixDocs returned no job id after Send');
    const creates = (await received(emu)).slice(before).filter(isCreate);
    assert.equal(creates.length, 1, 'exactly one job is created');
    assert.equal((creates[0]!.body as { prompt: string }).prompt, edited, 'the prompt sent is not the text of the review document');
    await waitFor('the review editor to close after Send, with no save prompt', () => !isOpen(uri));
  });

  it('Cancel sends nothing and closes the review', async () => {
    const draft = `Cancel me ${Date.now()}`;
    const before = (await received(emu)).length;
    const result = fixDocs(draft);
    const uri = (await reviewEditor(draft)).document.uri;
    await vscode.commands.executeCommand(CANCEL);
    assert.equal(await result, undefined);
    await waitFor('the review editor to close after Cancel', () => !isOpen(uri));
    assert.equal((await received(emu)).slice(before).filter(isCreate).length, 0, 'Cancel created a job');
  });

  it('closing the review editor cancels', async () => {
    const draft = `Close me ${Date.now()}`;
    const before = (await received(emu)).length;
    const result = fixDocs(draft);
    await reviewEditor(draft);
    // What "Don't Save" does when the user closes the tab.
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    assert.equal(await result, undefined);
    assert.equal((await received(emu)).slice(before).filter(isCreate).length, 0, 'closing the review created a job');
  });

  it('refuses to send a blank review and keeps it open', async () => {
    const draft = `Blank me ${Date.now()}`;
    const before = (await received(emu)).length;
    const result = fixDocs(draft);
    const editor = await reviewEditor(draft);
    await replaceText(editor, '  \n\t\n');
    await vscode.commands.executeCommand(SEND);
    assert.ok(await stillPending(result, 500), 'a blank review ended the command');
    assert.ok(isOpen(editor.document.uri), 'a blank review was closed');
    assert.equal((await received(emu)).slice(before).filter(isCreate).length, 0, 'a blank prompt was sent');
    await vscode.commands.executeCommand(CANCEL);
    assert.equal(await result, undefined);
  });

  it('puts Send to Agent and Cancel in the title bar of review documents only', () => {
    const menus = extension().packageJSON.contributes.menus as Record<string, { command: string; when?: string; group?: string }[]>;
    for (const command of [SEND, CANCEL]) {
      const item = menus['editor/title']?.find((m) => m.command === command);
      assert.ok(item, `${command} is not in the editor title bar`);
      assert.match(item.group ?? '', /^navigation/, `${command} is not a title bar button`);
      assert.match(item.when ?? '', /\bresource in docsAssistant\.reviewDocuments\b/, `${command} shows on editors that are not a review`);
    }
  });
});

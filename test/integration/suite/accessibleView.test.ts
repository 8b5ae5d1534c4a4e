import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import { activatedWithEmulator, waitFor } from './harness';

// Issue 29: the chat's Accessible View and Accessibility Help, in the real extension host. The
// commands open read-only plaintext documents of the extension's scheme: the latest answer (its
// question, text and sources), and the keys, with the titles VS Code shows for the commands.

const SCHEME = 'docs-assistant-view';

async function activeEditor(what: string): Promise<vscode.TextEditor> {
  return waitFor(what, () => vscode.window.activeTextEditor?.document.uri.scheme === SCHEME && vscode.window.activeTextEditor);
}

/** Whether typing into the document's editor leaves it as it was: its editor is read-only. */
async function refusesTyping(editor: vscode.TextEditor): Promise<boolean> {
  const before = editor.document.getText();
  await vscode.window.showTextDocument(editor.document, { preview: true, preserveFocus: false });
  await vscode.commands.executeCommand('type', { text: 'edited ' });
  await vscode.commands.executeCommand('deleteLeft');
  return editor.document.getText() === before && !editor.document.isDirty;
}

describe('Accessible View and Accessibility Help', () => {
  let hooks: DocsAssistantTestHooks;

  before(async () => {
    ({ hooks } = await activatedWithEmulator());
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('Open Answer in Accessible View shows the latest answer in a read-only plaintext document', async () => {
    hooks.chat.session.newConversation();
    const sent = await hooks.chat.session.ask('How do I configure webhooks?');
    assert.equal(sent.accepted, true, sent.reason);
    await waitFor('the answer to end', () => !hooks.chat.session.busy, 60_000);
    const answer = hooks.chat.session.conversation.turns.at(-1)!.answer;
    assert.equal(answer.status, 'done');

    await vscode.commands.executeCommand('docsAssistant.chat.accessibleView');
    const editor = await activeEditor('the Accessible View to open');
    const doc = editor.document;
    assert.equal(doc.languageId, 'plaintext');
    const text = doc.getText();
    assert.match(text, /^Question: How do I configure webhooks\?\n/);
    const firstWords = (answer.parts.find((p) => p.kind === 'text') as { text: string }).text.split(/\s+/).find((w) => /^[A-Za-z]{4,}$/.test(w))!;
    assert.ok(text.includes(firstWords), `the answer's text (${firstWords}) is in:\n${text}`);
    for (const s of answer.sources.filter((x) => x.url)) assert.ok(text.includes(s.url!), `source ${s.url} is listed`);
    assert.ok(await refusesTyping(editor), 'the Accessible View is read-only');
  });

  it('typing does change a writable document: the read-only check can fail', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'plain' });
    const editor = await vscode.window.showTextDocument(doc);
    assert.equal(await refusesTyping(editor), false);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Accessibility Help lists the keys with the commands’ titles', async () => {
    await vscode.commands.executeCommand('docsAssistant.chat.accessibilityHelp');
    const editor = await activeEditor('the help to open');
    const text = editor.document.getText();
    assert.match(text, /- Alt\+F2: Docs Assistant: Open Answer in Accessible View\n/);
    assert.match(text, /- Alt\+F1: Docs Assistant: Accessibility Help\n/);
    assert.match(text, /In the Agent Jobs tree:/);
    assert.ok(await refusesTyping(editor), 'the help is read-only');
  });
});

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activated, extension } from './harness';

interface CommandContribution {
  command: string;
  title: string;
}

// Registered by the extension for its own use (the chat's live job card), on purpose not in
// package.json's contributes.commands, so it is not in the palette.
const INTERNAL = ['docsAssistant.agent.jobState'];

describe('Commands', () => {
  let declared: string[];
  let registered: Set<string>;

  before(async () => {
    await activated();
    declared = (extension().packageJSON.contributes.commands as CommandContribution[]).map((c) => c.command);
    registered = new Set(await vscode.commands.getCommands(true));
  });

  it('registers every command package.json declares', () => {
    assert.ok(declared.length >= 19, `package.json declares ${declared.length} commands`);
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  it('registers no docsAssistant command that package.json does not declare, except the internal ones', () => {
    // VS Code adds <viewId>.focus, <viewId>.resetViewLocation and so on for each contributed view.
    const viewIds = ['docsAssistant.chatView', 'docsAssistant.jobsView'];
    const extra = [...registered].filter((c) => c.startsWith('docsAssistant.') && !declared.includes(c) && !viewIds.some((v) => c.startsWith(`${v}.`)));
    assert.deepEqual(extra.sort(), INTERNAL);
  });

  it('gets the focus commands of both contributed views from VS Code', () => {
    for (const c of ['docsAssistant.chatView.focus', 'docsAssistant.jobsView.focus']) assert.ok(registered.has(c), `${c} is not registered`);
  });

  it('answers the internal job-state command with nothing for an unknown job, without throwing', async () => {
    assert.equal(await vscode.commands.executeCommand('docsAssistant.agent.jobState', 'no-such-job'), undefined);
    assert.equal(await vscode.commands.executeCommand('docsAssistant.agent.jobState', 42), undefined);
  });
});

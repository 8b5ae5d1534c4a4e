import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activated, extension } from './harness';

interface CommandContribution {
  command: string;
  title: string;
}

// Commands are for what the user runs: the features meet through an interface (src/common/jobs.ts),
// so there is no internal command left (the chat's job card used to poll docsAssistant.agent.jobState).
const INTERNAL: string[] = [];

describe('Commands', () => {
  let declared: string[];
  let registered: Set<string>;
  /** Every view package.json contributes, in any container. */
  let viewIds: string[];

  before(async () => {
    await activated();
    declared = (extension().packageJSON.contributes.commands as CommandContribution[]).map((c) => c.command);
    const views = extension().packageJSON.contributes.views as Record<string, { id: string }[]>;
    viewIds = Object.values(views).flatMap((list) => list.map((v) => v.id));
    registered = new Set(await vscode.commands.getCommands(true));
  });

  it('registers every command package.json declares', () => {
    assert.ok(declared.length >= 19, `package.json declares ${declared.length} commands`);
    const missing = declared.filter((c) => !registered.has(c));
    assert.deepEqual(missing, [], `declared but not registered: ${missing.join(', ')}`);
  });

  it('registers no docsAssistant command that package.json does not declare', () => {
    // VS Code adds <viewId>.focus, <viewId>.resetViewLocation and so on for each contributed view.
    const extra = [...registered].filter((c) => c.startsWith('docsAssistant.') && !declared.includes(c) && !viewIds.some((v) => c.startsWith(`${v}.`)));
    assert.deepEqual(extra.sort(), INTERNAL);
  });

  it('gets the focus command of every contributed view from VS Code', () => {
    for (const v of ['docsAssistant.chatView', 'docsAssistant.jobsView', 'docsAssistant.healthView', 'docsAssistant.staleDocsView'])
      assert.ok(viewIds.includes(v), `${v} is not contributed`);
    for (const v of viewIds) assert.ok(registered.has(`${v}.focus`), `${v}.focus is not registered`);
  });

  it('answers the chat’s job-state question with nothing for an unknown job, without throwing', async () => {
    const { hooks } = await activated();
    assert.equal(hooks.jobs.state('no-such-job'), undefined);
  });
});

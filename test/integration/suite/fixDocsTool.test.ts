import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activatedWithEmulator, extension } from './harness';

// #fixDocs and the Docs writer files in the real extension host, on both VS Codes (issue 30 §4).
// A call with a valid input needs the user's Allow (a dialog, outside a chat), which this suite
// cannot give: that path is the e2e's (test/e2e/delegate.e2e.ts, VS Code 1.139). Here: the tool
// is registered with its reference name everywhere, a refused input asks nothing and sends
// nothing, and VS Code 1.139 registers the three chat files while 1.100 ignores them.

const TOOL = 'docs-assistant_fixDocs';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('#fixDocs and the Docs writer set-up', () => {
  it('is registered as #fixDocs, and a refused input asks nothing, sends nothing and tells the model why', async () => {
    const { emu } = await activatedWithEmulator();
    const tool = vscode.lm.tools.find((t) => t.name === TOOL);
    assert.ok(tool, `vscode.lm.tools has no ${TOOL}`);
    const declared = (extension().packageJSON.contributes.languageModelTools as { name: string; toolReferenceName: string }[]).find((t) => t.name === TOOL);
    assert.equal(declared?.toolReferenceName, 'fixDocs');
    assert.deepEqual((tool.inputSchema as { required?: string[] }).required, ['instruction']);
    emu.reset();
    // No confirmation is asked for an input that sends nothing: without a chat, VS Code would show a dialog here.
    const text = textOf(await vscode.lm.invokeTool(TOOL, { input: { instruction: '  \u202e ' }, toolInvocationToken: undefined }));
    assert.match(text, /instruction is empty/);
    const tooLong = textOf(await vscode.lm.invokeTool(TOOL, { input: { instruction: 'x'.repeat(30_001) }, toolInvocationToken: undefined }));
    assert.match(tooLong, /at most 30000/);
    assert.deepEqual(
      emu.requests.filter((r) => r.path.includes('/job')),
      [],
      'nothing reached the agent',
    );
  });

  it('VS Code 1.139 registers the agent, instructions and prompt file; 1.100 ignores them', async function () {
    await activatedWithEmulator();
    // VS Code's own command behind its Chat Customizations view (chatPromptFilesContribution.ts).
    const list = '_listExtensionPromptFiles';
    // Internal (its name starts with `_`): listed only when internal commands are not filtered out.
    if (!(await vscode.commands.getCommands(false)).includes(list)) {
      const [major = 0, minor = 0] = vscode.version.split('.').map(Number);
      assert.ok(major === 1 && minor < 139, `VS Code ${vscode.version} has no ${list}`);
      console.log(`      (VS Code ${vscode.version} has no chat prompt file contributions: they are inert here, and activation went on)`);
      return;
    }
    const files = (await vscode.commands.executeCommand<{ uri: { path: string }; type: string }[]>(list)) ?? [];
    const root = extension().extensionUri.path;
    const ours = files
      .filter((f) => f.uri.path.startsWith(`${root}/`))
      .map((f) => `${f.type}: ${f.uri.path.slice(root.length + 1)}`)
      .sort();
    assert.deepEqual(ours, [
      'agent: resources/chat/docs-writer.agent.md',
      'instructions: resources/chat/docs-writer.instructions.md',
      'prompt: resources/chat/fix-docs.prompt.md',
    ]);
  });
});

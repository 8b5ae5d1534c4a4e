import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activated, configureForEmulator, extension, resetSettings } from './harness';

// `#docs`, the language model tool, run through vscode.lm.invokeTool as agent mode runs it, against
// the emulator over real HTTP. (VS Code's Chat view and agent mode are in test/e2e.)

const TOOL = 'docs-assistant_searchDocs';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

describe('#docs: the language model tool', () => {
  after(() => configureForEmulator());

  it('is registered, and can be named in a prompt as #docs', async () => {
    await activated();
    const tool = vscode.lm.tools.find((t) => t.name === TOOL);
    assert.ok(tool, `vscode.lm.tools has no ${TOOL}`);
    assert.equal(extension().packageJSON.contributes.languageModelTools[0].toolReferenceName, 'docs');
    assert.deepEqual(tool.inputSchema && (tool.inputSchema as { required?: string[] }).required, ['query']);
  });

  it('asks the docs and returns the answer with its sources, as text, in a new thread', async () => {
    await activated();
    const emu = await configureForEmulator();
    emu.reset();
    const result = await vscode.lm.invokeTool(TOOL, { input: { query: 'How do I rotate an API key?' }, toolInvocationToken: undefined });
    const text = textOf(result);
    assert.match(text, /Sources \([^)]+\):\n- .+: http/);
    assert.match(text, /authentication/i, 'the page the emulator answers from is among the sources');
    assert.ok(text.length <= 12_000, `the result is ${text.length} characters`);
    const asked = emu.requests.filter((r) => r.path.includes('/assistant/'));
    assert.equal(asked.length, 1);
    const body = asked[0]!.body as { messages: { parts: { text: string }[] }[]; threadId?: unknown };
    assert.equal(body.messages.at(-1)!.parts[0]!.text, 'How do I rotate an API key?');
    assert.equal(body.threadId ?? null, null, 'a tool call starts no thread of its own');
  });

  it('says clearly, as its result, when the extension is not set up', async () => {
    await activated();
    await resetSettings();
    const result = await vscode.lm.invokeTool(TOOL, { input: { query: 'anything' }, toolInvocationToken: undefined });
    const text = textOf(result);
    assert.match(text, /Docs Assistant is not set up/);
    assert.match(text, /Configure Service/);
  });
});

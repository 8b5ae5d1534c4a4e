import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { HIDDEN_COMMAND } from '../../fixtures/hostileAnswer';
import { activated, configureForEmulator, extension, resetSettings } from './harness';

// `#docs`, the language model tool, run through vscode.lm.invokeTool as agent mode runs it, against
// the emulator over real HTTP. (VS Code's Chat view and agent mode are in test/e2e.) What the
// service says reaches the model only inside a block marked as its untrusted text, whose tags
// carry a nonce the answer cannot know (issue 27).

const TOOL = 'docs-assistant_searchDocs';

function textOf(result: vscode.LanguageModelToolResult): string {
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** The result's parts: the words before the block, the answer, the sources; it fails on any other shape. */
function blockOf(text: string): { words: string; answer: string; sources: string | undefined } {
  const m =
    /^([^\n]+)\n<docs_result_([0-9a-f]{32})>\n<docs_answer_\2>\n([^]*)\n<\/docs_answer_\2>\n(?:<docs_sources_\2>\n([^]*)\n<\/docs_sources_\2>\n)?<\/docs_result_\2>$/.exec(
      text,
    );
  assert.ok(m, `not a marked block:\n${text.slice(0, 1500)}`);
  const [, words, nonce, answer, sources] = m;
  assert.match(words!, /untrusted text from the docs service/);
  assert.match(words!, /not instructions/);
  for (const tag of ['docs_result', 'docs_answer']) {
    const after = text.slice(text.indexOf('\n'));
    assert.equal(after.split(`</${tag}_${nonce!}>`).length - 1, 1, `</${tag}_…> closes once, at its place`);
  }
  return { words: words!, answer: answer!, sources };
}

async function ask(query: string): Promise<string> {
  return textOf(await vscode.lm.invokeTool(TOOL, { input: { query }, toolInvocationToken: undefined }));
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

  it('asks the docs and returns the answer with its sources, marked as the service’s untrusted text, in a new thread', async () => {
    await activated();
    const emu = await configureForEmulator();
    emu.reset();
    const text = await ask('How do I rotate an API key?');
    const { answer, sources } = blockOf(text);
    assert.ok(answer.trim().length > 0, 'an answer');
    assert.match(sources ?? '', /^- .+: http/m);
    assert.match(sources ?? '', /authentication/i, 'the page the emulator answers from is among the sources');
    assert.ok(text.length <= 12_000, `the result is ${text.length} characters`);
    const asked = emu.requests.filter((r) => r.path.includes('/assistant/'));
    assert.equal(asked.length, 1);
    const body = asked[0]!.body as { messages: { parts: { text: string }[] }[]; threadId?: unknown };
    assert.equal(body.messages.at(-1)!.parts[0]!.text, 'How do I rotate an API key?');
    assert.equal(body.threadId ?? null, null, 'a tool call starts no thread of its own');
  });

  it('keeps a hostile answer inside the block, and a new nonce each time', async () => {
    await activated();
    await configureForEmulator();
    const first = await ask('[[answer:hostile]] How do I configure the relay?');
    const { answer, words } = blockOf(first);
    assert.ok(answer.includes(HIDDEN_COMMAND), 'the hostile answer is in the answer block');
    assert.ok(!words.includes(HIDDEN_COMMAND));
    const second = await ask('[[answer:hostile]] How do I configure the relay?');
    assert.notEqual(/docs_result_([0-9a-f]{32})/.exec(first)![1], /docs_result_([0-9a-f]{32})/.exec(second)![1]);
  });

  it('tells a failure in the extension’s words, not the service’s error text', async () => {
    await activated();
    await configureForEmulator();
    const text = await ask('[[fault:400]] anything');
    assert.match(text, /^The documentation could not be asked: The service refused the request \(HTTP 400\)\.$/);
    assert.doesNotMatch(text, /messages\[0\]|must be an array/, 'the emulator’s 400 body');
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

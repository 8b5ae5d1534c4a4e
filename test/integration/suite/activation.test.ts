import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activated, beforeSuite, DEMO, extension, waitFor } from './harness';

describe('Activation', () => {
  it('is loaded as the extension under development, and not active before anything of it is used', () => {
    const ext = extension();
    assert.equal(ext.packageJSON.name, 'docs-assistant');
    assert.equal(ext.extensionKind, vscode.ExtensionKind.Workspace, 'runs in the Node extension host, next to the files');
    // Never at startup: VS Code activates it from its views, commands, chat participant and tool,
    // and when a docs file (Markdown, MDX, reStructuredText, AsciiDoc) opens, so that the lightbulb's
    // Docs actions are there where writers work before anything else of the extension was used.
    const events = ext.packageJSON.activationEvents as string[];
    assert.deepEqual(
      events.filter((e) => e === '*' || e === 'onStartupFinished'),
      [],
    );
    assert.deepEqual(events, ['onLanguage:markdown', 'onLanguage:mdx', 'onLanguage:restructuredtext', 'onLanguage:asciidoc']);
    assert.equal(beforeSuite.extensionWasActive, false, 'the extension was already active when the suite started');
  });

  it('activates without error and hands the test hooks over in a test host', async () => {
    const { ext, hooks } = await activated();
    assert.equal(ext.isActive, true);
    assert.ok(hooks.agent.tree, 'the Agent Jobs tree provider');
    assert.ok(hooks.chatView, 'the chat view provider');
    assert.ok(hooks.keys, 'the key store');
  });

  it('stores the demo keys from the environment in SecretStorage on first activation', async () => {
    const { hooks } = await activated();
    // Compared, never printed: an assertion message must not show a key.
    await waitFor('the demo admin key in SecretStorage', async () => (await hooks.keys.get('admin')) === DEMO.adminKey);
    await waitFor('the demo assistant key in SecretStorage', async () => (await hooks.keys.get('assistant')) === DEMO.assistantKey);
  });

  it('loads the webview bundle and the codicons it ships from dist/', async () => {
    const dist = vscode.Uri.joinPath(extension().extensionUri, 'dist');
    const names = new Set((await vscode.workspace.fs.readDirectory(dist)).map(([name]) => name));
    for (const f of ['extension.js', 'webview.js', 'codicon.css', 'codicon.ttf']) assert.ok(names.has(f), `dist/${f} is missing`);
  });
});

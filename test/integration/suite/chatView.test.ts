import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import { activated, configureForEmulator, waitFor } from './harness';

// The "Ask Docs" webview view: VS Code resolves the provider the extension registered when the
// view is shown, the extension renders its page under a strict CSP, and the real webview bundle
// runs in it and opens the protocol with `ready`.

describe('Ask Docs view', () => {
  let hooks: DocsAssistantTestHooks;

  before(async () => {
    ({ hooks } = await activated());
    await configureForEmulator();
  });

  it('is resolved by its provider when its focus command runs', async () => {
    await vscode.commands.executeCommand('docsAssistant.chatView.focus');
    const view = await waitFor('VS Code to resolve the chat view', () => hooks.chatView.resolvedView);
    assert.equal(view.viewType, 'docsAssistant.chatView');
    await waitFor('the chat view to be visible', () => view.visible);
  });

  it('renders its page with a strict CSP, a nonce on the script, and only media/ and dist/ as resources', () => {
    const view = hooks.chatView.resolvedView!;
    const { options, html } = view.webview;
    assert.equal(options.enableScripts, true);
    assert.equal(options.enableCommandUris, false);
    const roots = (options.localResourceRoots ?? []).map((u) => u.path.split('/').slice(-1)[0]).sort();
    assert.deepEqual(roots, ['dist', 'media']);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1]?.replace(/&#39;/g, "'").replace(/&amp;/g, '&');
    assert.ok(csp, 'no CSP meta tag');
    assert.match(csp, /default-src 'none'/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16, 'script-src has no nonce');
    assert.match(html, new RegExp(`<script nonce="${nonce}" src="[^"]+/dist/webview\\.js[^"]*"`));
    assert.doesNotMatch(html, /svc_/, 'a key-like string in the page');
  });

  it('runs the real webview bundle, which opens the protocol with `ready`', async () => {
    // Reloading the webview starts the bundle over; it then sends `ready` first. Listening before
    // the reload catches that message deterministically.
    const view = await waitFor('the chat view to be visible', () => hooks.chatView.resolvedView?.visible && hooks.chatView.resolvedView);
    const seen: unknown[] = [];
    const sub = view.webview.onDidReceiveMessage((m) => seen.push(m));
    try {
      await vscode.commands.executeCommand('workbench.action.webview.reloadWebviewAction');
      const ready = await waitFor('the webview to send `ready`', () => seen.filter(isRequest).find((m) => m.name === 'ready'), 20_000);
      assert.equal(typeof ready.id, 'number');
      assert.equal(hooks.chatView.resolvedView, view, 'reloading the page must not replace the view');
    } finally {
      sub.dispose();
    }
  });

  it('runs New Conversation and Open in Editor without an error', async () => {
    await vscode.commands.executeCommand('docsAssistant.chat.newConversation');
    await vscode.commands.executeCommand('docsAssistant.chat.openInEditor');
    const tab = await waitFor('the chat editor tab', () =>
      vscode.window.tabGroups.all
        .flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('docsAssistant.chatPanel')),
    );
    assert.equal(tab.label, 'Ask Docs');
    await vscode.window.tabGroups.close(tab);
  });
});

function isRequest(m: unknown): m is { kind: 'request'; id: number; name: string } {
  return !!m && typeof m === 'object' && (m as { kind?: unknown }).kind === 'request' && typeof (m as { name?: unknown }).name === 'string';
}

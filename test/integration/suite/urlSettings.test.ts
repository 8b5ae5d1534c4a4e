import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { docsSiteName } from '../../../src/assistant/vscode/docsSite';
import type { Log } from '../../../src/host/vscode/log';
import { UrlSettingsGuard } from '../../../src/host/vscode/urlSettingsGuard';
import { mcpServerUri } from '../../../src/participant/vscode/mcpProvider';
import { activated, waitFor } from './harness';

// Issue 27: a user name or password in an address setting is refused, with a message that names
// the setting and never repeats the value; each reader of the setting leaves it unused.

const SECRET_PARTS = /alice|hunter2|imgpass|sitepw/;
const SETTINGS = ['docsSiteUrl', 'mcpServerUrl', 'chat.imageOrigins', 'domain'] as const;

describe('Address settings with a user name or password', () => {
  const original = vscode.window.showWarningMessage;
  let shown: string[] = [];
  const cfg = () => vscode.workspace.getConfiguration('docsAssistant');
  const set = (key: (typeof SETTINGS)[number], value: unknown) => cfg().update(key, value, vscode.ConfigurationTarget.Global);

  before(async () => {
    await activated();
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = async (message: string) => {
      shown.push(message);
      return undefined;
    };
  });
  after(async () => {
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = original;
    for (const key of SETTINGS) await set(key, undefined);
  });

  it('are named in a warning and the log, without their value, and each is left unused', async () => {
    shown = [];
    const logged: string[] = [];
    const log = { warn: (l: string) => logged.push(l) } as unknown as Log;
    await set('domain', 'acme');
    await set('docsSiteUrl', 'https://sitepw@docs.example.com');
    await set('mcpServerUrl', 'https://alice:hunter2@docs.example.com/mcp');
    await set('chat.imageOrigins', ['https://img.example.com', 'https://u:imgpass@cdn.example.com']);
    const guard = new UrlSettingsGuard(log);
    try {
      assert.equal(logged.length, 1, logged.join('\n'));
      assert.match(logged[0]!, /docsAssistant\.docsSiteUrl, docsAssistant\.mcpServerUrl, docsAssistant\.chat\.imageOrigins/);
      const mine = shown.filter((m) => m.includes('docsAssistant.mcpServerUrl'));
      assert.ok(mine.length >= 1, `no warning named the setting: ${JSON.stringify(shown)}`);
      assert.match(mine[0]!, /must not contain a user name or password/);
      for (const text of [...shown, ...logged]) assert.doesNotMatch(text, SECRET_PARTS);
      // Said once while it stays so; again once it comes back after a fix (the guard follows the settings' change event).
      assert.deepEqual(guard.check(), []);
      await set('mcpServerUrl', 'https://docs.example.com/mcp');
      assert.deepEqual(guard.check(), []);
      await set('mcpServerUrl', 'https://tok@docs.example.com/mcp');
      await waitFor('a second warning', () => logged.length === 2);
      assert.match(logged[1]!, /: docsAssistant\.mcpServerUrl$/);
      assert.deepEqual(guard.check(), []);
      // Unused: the MCP server is not offered, and the docs site is named by the domain.
      assert.equal(mcpServerUri('https://alice:hunter2@docs.example.com/mcp'), undefined);
      assert.equal(docsSiteName(), 'acme');
    } finally {
      guard.dispose();
    }
  });
});

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activated, extension } from './harness';

interface PropertySchema {
  default?: unknown;
}

describe('Settings', () => {
  it('has every docsAssistant.* setting VS Code knows default to what package.json declares', async () => {
    await activated();
    const properties = extension().packageJSON.contributes.configuration.properties as Record<string, PropertySchema>;
    const cfg = vscode.workspace.getConfiguration();
    const names = Object.keys(properties);
    assert.ok(names.length >= 11, `package.json declares ${names.length} settings`);
    for (const name of names) {
      const inspected = cfg.inspect(name);
      assert.ok(inspected, `VS Code does not know the setting ${name}`);
      assert.deepEqual(inspected.defaultValue, properties[name]!.default, `default of ${name}`);
    }
  });

  it('defaults to "not configured": no base URL, no project, and the documented numbers', () => {
    const cfg = vscode.workspace.getConfiguration('docsAssistant');
    const defaults = (key: string) => cfg.inspect(key)?.defaultValue;
    assert.equal(defaults('baseUrl'), '');
    assert.equal(defaults('projectId'), '');
    assert.equal(defaults('domain'), '');
    assert.equal(defaults('retrievalPageSize'), 5);
    assert.equal(defaults('fingerprint'), 'anonymous');
    assert.equal(defaults('assistantApiVersion'), 'v2');
    assert.equal(defaults('filter'), null);
    assert.equal(defaults('requestTimeoutSeconds'), 30);
    assert.equal(defaults('streamIdleTimeoutSeconds'), 60);
    assert.equal(defaults('agent.pollIntervalSeconds'), 5);
    assert.equal(defaults('chat.maxSelectionChars'), 20000);
  });
});

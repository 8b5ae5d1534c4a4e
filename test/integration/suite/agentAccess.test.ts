import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ServiceError } from '../../../src/api/errors';
import { english } from '../../../src/common/l10n';
import { describeForUser } from '../../../src/host/core/errorWords';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import { activatedWithEmulator, configureForEmulator, DEMO, waitFor } from './harness';

// Issue 28: the agent's home in the real extension host. One client while the settings and the
// admin key stay as they are (it was one per call), a new one when either changes, SecretStorage's
// own change event included; and one readiness, worded once, whichever way the user meets it.

describe('The agent: one client per settings and key, one readiness', () => {
  let hooks: DocsAssistantTestHooks;
  const cfg = () => vscode.workspace.getConfiguration('docsAssistant');
  const failureOf = async (p: Promise<unknown>) =>
    (await p.then(
      () => assert.fail('expected the call to fail'),
      (e: ServiceError) => e,
    )) as ServiceError;

  before(async () => {
    ({ hooks } = await activatedWithEmulator());
  });
  after(async () => {
    if ((await hooks.keys.get('admin')) !== DEMO.adminKey) await hooks.keys.store('admin', DEMO.adminKey);
    await cfg().update('requestTimeoutSeconds', undefined, vscode.ConfigurationTarget.Global);
    await configureForEmulator();
  });

  // Clients are compared by identity with assert.ok: a failed assert.equal would print both, key and all.
  it('uses one client for many calls, and a new one after a setting changes and after the admin key changes', async () => {
    const first = await hooks.agent.client();
    assert.ok((await hooks.agent.client()) === first, 'a second call built another client');
    assert.ok((await hooks.agent.client()) === first, 'a third call built another client');

    await cfg().update('requestTimeoutSeconds', 31, vscode.ConfigurationTarget.Global);
    const second = await waitFor('a new client for the new setting', async () => {
      const c = await hooks.agent.client();
      return c !== first && c;
    });
    assert.ok((await hooks.agent.client()) === second, 'a call after the new setting built another client');

    // Cleared and set again through SecretStorage: its onDidChange renews the client.
    await hooks.keys.clear('admin');
    await waitFor('the agent to see the key gone', () => !hooks.jobs.available);
    await hooks.keys.store('admin', DEMO.adminKey);
    await waitFor('the agent to see the key back', () => hooks.jobs.available);
    const third = await hooks.agent.client();
    assert.ok(third !== second, 'the client of the old key is still in use');
    assert.ok((await hooks.agent.client()) === third, 'a call after the new key built another client');
  });

  it('says what is missing in the same words in the warning before a job and in the error of a call', async () => {
    const original = vscode.window.showWarningMessage;
    const warned: string[] = [];
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = async (message: string) => {
      warned.push(message);
      return undefined;
    };
    try {
      const expected = [
        "Docs Assistant needs the service's base URL before it can start agent jobs.",
        'Agent jobs need the admin API key (it starts with "svc_").',
      ];
      await configureForEmulator({ baseUrl: '' });
      await waitFor('the agent to see the base URL gone', () => !hooks.jobs.available);
      await vscode.commands.executeCommand('docsAssistant.agent.refresh');
      const noBaseUrl = await failureOf(hooks.agent.client());
      await configureForEmulator();
      await hooks.keys.clear('admin');
      await waitFor('the agent to see the key gone', () => !hooks.jobs.available);
      await vscode.commands.executeCommand('docsAssistant.agent.refresh');
      const noKey = await failureOf(hooks.agent.client());
      assert.deepEqual(warned, expected);
      assert.deepEqual([describeForUser(noBaseUrl, english).message, describeForUser(noKey, english).message], expected);
    } finally {
      (vscode.window as { showWarningMessage: unknown }).showWarningMessage = original;
      await hooks.keys.store('admin', DEMO.adminKey);
      await waitFor('the agent to see the key back', () => hooks.jobs.available);
    }
  });
});

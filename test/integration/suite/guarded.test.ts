import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ServiceError } from '../../../src/api/errors';
import { commandGuard } from '../../../src/host/vscode/guarded';
import type { Log } from '../../../src/host/vscode/log';
import type { KeyStore } from '../../../src/host/vscode/secrets';

// The guard every command of both features runs inside (src/host/vscode/guarded.ts), in a real extension
// host: a failure never escapes as a rejection, is logged and shown without either key, offers
// the fix for what went wrong, and a cancelled command says nothing.

const ADMIN = 'svc_admin_guard_test_0123456789';
const ASSISTANT = 'svc_dsc_guard_test_0123456789';

function rig() {
  const logged: string[] = [];
  const keys = { get: async (kind: 'admin' | 'assistant') => (kind === 'admin' ? ADMIN : ASSISTANT) } as unknown as KeyStore;
  const log = { error: (message: string, err?: unknown) => logged.push(`${message} ${err instanceof Error ? err.message : String(err)}`) } as unknown as Log;
  return { guarded: commandGuard({ keys, log }), logged };
}

describe('Command guard', () => {
  const original = vscode.window.showErrorMessage;
  let shown: { message: string; items: string[] }[] = [];

  before(() => {
    // The notification is the user's; here it is recorded and dismissed at once.
    (vscode.window as { showErrorMessage: unknown }).showErrorMessage = async (message: string, ...items: string[]) => {
      shown.push({ message, items });
      return undefined;
    };
  });
  after(() => {
    (vscode.window as { showErrorMessage: unknown }).showErrorMessage = original;
  });
  beforeEach(() => {
    shown = [];
  });

  it('turns a failure into a message and a log line, never a rejection, and keeps both keys out of them', async () => {
    const r = rig();
    const run = r.guarded('Do Something', async (n: number) => {
      throw new Error(`boom ${n} with ${ADMIN} and ${ASSISTANT}`);
    });
    assert.equal(await run(7), undefined);
    assert.equal(shown.length, 1);
    assert.match(shown[0]!.message, /^Docs Assistant: .*boom 7/);
    assert.equal(r.logged.length, 1);
    assert.match(r.logged[0]!, /^Do Something failed/);
    for (const text of [shown[0]!.message, r.logged[0]!]) {
      assert.ok(!text.includes(ADMIN) && !text.includes(ASSISTANT), text);
    }
  });

  it('passes the result through when nothing fails', async () => {
    const r = rig();
    assert.equal(await r.guarded('Add', (a: number, b: number) => a + b)(2, 3), 5);
    assert.deepEqual([shown, r.logged], [[], []]);
  });

  it('offers the fix: a refused assistant key offers to set it', async () => {
    const r = rig();
    await r.guarded('Ask', () => {
      throw new ServiceError({ reason: { code: 'keyRefused', service: 'assistant' }, message: 'The assistant key was refused.', status: 401 });
    })();
    assert.equal(shown.length, 1);
    assert.ok(shown[0]!.items.includes('Set Assistant API Key'), JSON.stringify(shown[0]));
  });

  it('says nothing when the command was cancelled', async () => {
    const r = rig();
    const abort = new AbortController();
    abort.abort();
    await r.guarded('Cancelled', () => {
      throw abort.signal.reason;
    })();
    assert.deepEqual([shown, r.logged], [[], []]);
  });
});

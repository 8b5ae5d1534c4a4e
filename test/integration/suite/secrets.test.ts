import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { KeyKind } from '../../../src/api/keys';
import { activated, DEMO, stillPending, waitFor } from './harness';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import { RedactingLog } from '../../../src/host/core/redactingLog';
import { KeyStore } from '../../../src/host/vscode/secrets';

// The keys' commands against VS Code's real SecretStorage. The extension host cannot type into an
// input box, so a key goes in through the store the Set commands use, and the commands are
// checked for what they do on their own: Clear removes, Set asks and stores nothing when cancelled.

const KEYS: { kind: KeyKind; demo: string; set: string; clear: string }[] = [
  { kind: 'admin', demo: DEMO.adminKey, set: 'docsAssistant.setAdminKey', clear: 'docsAssistant.clearAdminKey' },
  { kind: 'assistant', demo: DEMO.assistantKey, set: 'docsAssistant.setAssistantKey', clear: 'docsAssistant.clearAssistantKey' },
];

describe('Keys in SecretStorage', () => {
  let hooks: DocsAssistantTestHooks;

  before(async () => {
    ({ hooks } = await activated());
  });

  after(async () => {
    for (const k of KEYS) if ((await hooks.keys.get(k.kind)) !== k.demo) await hooks.keys.store(k.kind, k.demo);
  });

  for (const k of KEYS) {
    describe(k.kind, () => {
      it('round-trips through SecretStorage and tells the extension it changed', async () => {
        const changed: KeyKind[] = [];
        const sub = hooks.keys.onDidChange((kind) => changed.push(kind));
        try {
          // store() throws when SecretStorage refuses the write (it would keep the key in memory only).
          await hooks.keys.store(k.kind, `  ${k.demo}  `);
          assert.ok((await hooks.keys.get(k.kind)) === k.demo, `the ${k.kind} key read back differs from the one stored (trimmed)`);
          await waitFor(`onDidChange for the ${k.kind} key`, () => changed.includes(k.kind));
        } finally {
          sub.dispose();
        }
      });

      it(`${k.clear} removes it from SecretStorage`, async () => {
        await hooks.keys.store(k.kind, k.demo);
        assert.equal(await hooks.keys.has(k.kind), true);
        await vscode.commands.executeCommand(k.clear);
        assert.equal(await hooks.keys.has(k.kind), false);
        // Idempotent: clearing again is not an error the user sees as a crash.
        await vscode.commands.executeCommand(k.clear);
        assert.equal(await hooks.keys.has(k.kind), false);
      });

      it(`${k.set} waits for the input box, and stores nothing when it is dismissed`, async () => {
        await hooks.keys.clear(k.kind);
        const command = Promise.resolve(vscode.commands.executeCommand(k.set));
        assert.equal(await stillPending(command, 800), true, `${k.set} finished without asking for the key`);
        await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
        await waitFor(`${k.set} to finish after Escape`, async () => !(await stillPending(command, 50)), 5000);
        assert.equal(await hooks.keys.has(k.kind), false, 'a dismissed input box stored a key');
      });

      it('refuses a key of the other kind with a message that says which one it is', async () => {
        const other = k.kind === 'admin' ? DEMO.assistantKey : DEMO.adminKey;
        await assert.rejects(hooks.keys.store(k.kind, other), (e: Error) => {
          assert.ok(!e.message.includes(other), 'the refusal must not repeat the key');
          assert.match(e.message, /assistant|admin/i);
          return true;
        });
      });
    });
  }
});

describe('Keys and the log (issue 27: nothing secret in logs)', () => {
  /** SecretStorage in memory, with its change event, as VS Code's behaves. */
  function memoryStorage(initial: Record<string, string>) {
    const data = new Map(Object.entries(initial));
    const changed = new vscode.EventEmitter<vscode.SecretStorageChangeEvent>();
    const storage: vscode.SecretStorage = {
      get: async (key) => data.get(key),
      store: async (key, value) => {
        data.set(key, value);
        changed.fire({ key });
      },
      delete: async (key) => {
        data.delete(key);
        changed.fire({ key });
      },
      onDidChange: changed.event,
    };
    return { storage, data, changed };
  }

  function logOf(keys: KeyStore) {
    const lines: string[] = [];
    return { lines, log: new RedactingLog({ info: (l) => lines.push(l), warn: (l) => lines.push(l), error: (l) => lines.push(l) }, keys) };
  }

  it('hides every key the store hands out or is given, by its value, whatever its shape', async () => {
    // Stored before the key check refused `!` and `:`: no pattern knows its shape.
    const legacy = 'svc_dsc_legacy!key:0123';
    const { storage } = memoryStorage({ 'docsAssistant.assistantApiKey': legacy });
    const keys = new KeyStore(storage);
    const { lines, log } = logOf(keys);
    const read = await keys.get('assistant');
    log.info(`asked with ${String(read)}`);
    await keys.store('admin', `  ${DEMO.adminKey} `);
    log.warn(`created a job with ${DEMO.adminKey} after ${legacy}`);
    assert.deepEqual(lines, ['asked with [redacted]', 'created a job with [redacted] after [redacted]']);
    keys.dispose();
  });

  it('a key asked for while the first-run keys are stored waits for them: a command run at once finds the demo key', async () => {
    const { storage } = memoryStorage({});
    const keys = new KeyStore(storage);
    let release!: () => void;
    const slowKeyring = new Promise<void>((resolve) => (release = resolve));
    keys.seed(
      async (target) => {
        await slowKeyring;
        if (!(await target.has('admin'))) await target.store('admin', DEMO.adminKey);
      },
      (e) => assert.fail(String(e)),
    );
    const asked = keys.get('admin');
    release();
    assert.equal(await asked, DEMO.adminKey, 'the read made during the seeding saw no key');
    keys.dispose();
  });

  it('learns a key set in another window from the change event, before anything asks for it', async () => {
    const { storage, data, changed } = memoryStorage({});
    const keys = new KeyStore(storage);
    const { lines, log } = logOf(keys);
    const other = 'svc_other!window:key';
    data.set('docsAssistant.adminApiKey', other);
    changed.fire({ key: 'docsAssistant.adminApiKey' });
    await waitFor('the store to read the new key', () => [...keys.knownSecrets()].includes(other));
    log.error('failed', new Error(`with ${other}`));
    assert.deepEqual(lines, ['failed (Error: with [redacted])']);
    keys.dispose();
  });
});

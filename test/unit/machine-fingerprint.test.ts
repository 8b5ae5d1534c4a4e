import * as assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { machineFingerprint } from '../../src/host/core/machineFingerprint';

// Issue 20: the `machine` fingerprint is hashed with Web Crypto so that it runs in the browser's
// extension host. It must be the value node:crypto gave before, or every install would look new
// to the service after the upgrade.

describe('the machine fingerprint (Web Crypto)', () => {
  for (const machineId of ['', 'someValue.machineId', 'f'.repeat(64), 'ünïcödé-machine']) {
    it(`is node:crypto's sha256("docs-assistant:" + id) to 32 hex digits for ${JSON.stringify(machineId.slice(0, 20))}`, async () => {
      const before = createHash('sha256').update(`docs-assistant:${machineId}`).digest('hex').slice(0, 32);
      assert.equal(await machineFingerprint(machineId), before);
    });
  }

  it('never contains the machine id itself', async () => {
    const id = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    assert.ok(!(await machineFingerprint(id)).includes(id));
  });
});

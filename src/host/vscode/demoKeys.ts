import type { KeySeedTarget } from './secrets';
import type { Log } from './log';
import { keyProblem, type KeyKind } from '../../api';

// First-run path for `npm start`: the demo launcher passes the local emulator's keys in the
// environment, and they go into SecretStorage once, so a new user can try everything without
// pasting keys. A key the user stored is never overwritten, and nothing is read on a normal start.
const ENV: Record<KeyKind, string> = {
  admin: 'DOCS_ASSISTANT_DEMO_ADMIN_KEY',
  assistant: 'DOCS_ASSISTANT_DEMO_ASSISTANT_KEY',
};

export async function seedDemoKeys(keys: KeySeedTarget, env: Readonly<Record<string, string | undefined>>, log: Log): Promise<void> {
  for (const kind of Object.keys(ENV) as KeyKind[]) {
    const value = env[ENV[kind]]?.trim();
    if (!value) continue;
    if (keyProblem(value, kind) !== undefined) {
      log.warn(`${ENV[kind]} is set but is not a valid ${kind} key; ignored.`);
      continue;
    }
    if (await keys.has(kind)) continue;
    await keys.store(kind, value);
    log.info(`Stored the demo ${kind} key from ${ENV[kind]} (first run).`);
  }
}

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The extension's own log ("Docs Assistant" output) from a stack's user-data folder, printed when a
// test failed: the story of what the extension did, which the run's folders lose when the next run starts.

/** For an afterEach: prints the end of each extension host's Docs Assistant log when the test failed. */
export function printExtensionLogIfFailed(test: Mocha.Test | undefined, userDataDir: string): void {
  if (test?.state !== 'failed') return;
  const logs = join(userDataDir, 'logs');
  for (const session of existsSync(logs) ? readdirSync(logs) : [])
    for (const host of readdirSync(join(logs, session)).filter((h) => h.startsWith('exthost'))) {
      const log = join(logs, session, host, 'docs-assistant.docs-assistant', 'Docs Assistant.log');
      if (existsSync(log)) console.log(`--- ${log}\n${readFileSync(log, 'utf8').slice(-4000)}`);
    }
}

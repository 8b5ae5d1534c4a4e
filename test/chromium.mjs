import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

// Every test that drives a browser drives Debian's Chromium (playwright-core downloads none),
// with one set of flags: no sandbox (containers have none to give), no GPU, and nothing that
// reaches the network on its own, so a test sees only the requests it caused. Plain JavaScript,
// so that the integration runner (node test/integration/run.mjs) shares it with the mocha suites.

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium with the shared flags and `extraArgs`; a missing Chromium says how to install it. */
export async function launchChromium(extraArgs = []) {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does).`);
  const { chromium } = createRequire(import.meta.url)('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// Every test that drives a browser drives Debian's Chromium (playwright-core downloads none),
// with one set of flags: no sandbox (containers have none to give), no GPU, and nothing that
// reaches the network on its own, so a test sees only the requests it caused.

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
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does).`);
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

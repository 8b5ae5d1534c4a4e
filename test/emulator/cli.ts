import { resolve } from 'node:path';
import { cloneDocsWorkspace, startEmulator } from './index';

// `npm run emulator [-- --port N --job-duration-ms N --no-cors --no-analytics --no-search --hostile-analytics --clone-into DIR]`: the emulator on its
// own, for the demo and for trying the extension by hand. Ctrl+C stops it. `--clone-into` makes (or
// re-points) a workspace clone of its docs repository there before the banner, for `npm start`.

const DEFAULT_PORT = 4010;

function stringFlag(args: string[], name: string): string | undefined {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i === -1) return undefined;
  const raw = args[i]!.includes('=') ? args[i]!.slice(name.length + 1) : args[i + 1];
  if (raw === undefined || raw === '' || raw.startsWith('-')) {
    console.error(`${name} needs a folder.`);
    process.exit(2);
  }
  return raw;
}

function numberFlag(args: string[], name: string): number | undefined {
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i === -1) return undefined;
  const raw = args[i]!.includes('=') ? args[i]!.slice(name.length + 1) : args[i + 1];
  const n = Number(raw);
  if (raw === undefined || raw === '' || !Number.isInteger(n) || n < 0) {
    console.error(`${name} needs a whole number, not ${JSON.stringify(raw ?? '')}.`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(
      'Usage: npm run emulator -- [--port N] [--job-duration-ms N] [--no-cors] [--no-analytics] [--no-search] [--hostile-analytics] [--clone-into DIR]',
    );
    return;
  }
  const emu = await startEmulator({
    port: numberFlag(args, '--port') ?? DEFAULT_PORT,
    jobDurationMs: numberFlag(args, '--job-duration-ms'),
    // A service without CORS headers, to see what a browser's extension host says about it.
    cors: !args.includes('--no-cors'),
    // A plan without reader analytics (403), or analytics with the hostile reader entries among them.
    analytics: !args.includes('--no-analytics'),
    analyticsHostile: args.includes('--hostile-analytics'),
    // A service without the docs search and page endpoints (404): the stale-docs check falls back to the assistant.
    search: !args.includes('--no-search'),
    log: (line) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`),
  });
  const cloneInto = stringFlag(args, '--clone-into');
  let clone = '';
  if (cloneInto !== undefined) {
    // Not fatal: without the clone the emulator still serves everything else.
    clone = await cloneDocsWorkspace(emu.docsRepo, resolve(cloneInto)).then(
      () => `\n  docs workspace  ${resolve(cloneInto)}   (origin ${emu.docsRepo.repository})`,
      (e: unknown) => `\n  docs workspace  not cloned: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
  // The demo keys are printed on purpose: they only open this local emulator.
  console.log(`Service emulator listening on ${emu.url}
  project id      ${emu.projectId}
  domain          ${emu.domain}
  admin key       ${emu.adminKey}
  assistant key   ${emu.assistantKey}
  docs site       ${emu.url}/docs
  MCP server      ${emu.mcpUrl}   (Streamable HTTP, no key)
  docs repository ${emu.docsRepo.repository} = ${emu.docsRepo.bareDir} (bare, removed on exit)${clone}
Ctrl+C to stop.`);

  const stop = (): void => {
    emu.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error(`The emulator could not start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});

// Bundles the benchmarks the way the extension ships (esbuild, no tsx transform, no keepNames
// wrappers), so what is timed is the code users run, then runs them.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';

await esbuild.build({
  entryPoints: ['bench/run.ts'],
  outfile: 'bench/.build/run.cjs',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // The SDK and the browser driver are what we compare with and drive, not what we ship.
  external: ['ai', 'playwright-core', 'esbuild', 'vscode'],
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
});
const r = spawnSync(process.execPath, ['--expose-gc', 'bench/.build/run.cjs', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(r.status ?? 1);

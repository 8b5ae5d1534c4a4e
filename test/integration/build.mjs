// Bundles the integration suite (mocha runner, tests, the emulator they start) into
// out/integration/suite/index.js, one CommonJS file the extension host can require without
// tsx. `vscode` comes from the host; mocha is required from the repository's node_modules.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SUITE = join(ROOT, 'test', 'integration', 'suite');
export const SUITE_OUT = join(ROOT, 'out', 'integration', 'suite', 'index.js');

/** `integration-test-files`: one lazy import per *.test.ts, so tests load after mocha's globals exist. */
const testFilesPlugin = {
  name: 'integration-test-files',
  setup(build) {
    build.onResolve({ filter: /^integration-test-files$/ }, () => ({ path: 'integration-test-files', namespace: 'integration-test-files' }));
    build.onLoad({ filter: /.*/, namespace: 'integration-test-files' }, () => {
      const files = readdirSync(SUITE)
        .filter((f) => f.endsWith('.test.ts'))
        .sort();
      if (files.length === 0) throw new Error(`No *.test.ts in ${SUITE}`);
      return { contents: `export default [${files.map((f) => `() => import(${JSON.stringify(`./${f}`)})`).join(', ')}];`, resolveDir: SUITE, loader: 'js' };
    });
  },
};

export async function buildSuite() {
  await esbuild.build({
    entryPoints: [join(SUITE, 'index.ts')],
    outfile: SUITE_OUT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node18',
    external: ['vscode', 'mocha'],
    sourcemap: 'inline',
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [testFilesPlugin],
  });
  return SUITE_OUT;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(await buildSuite());
}

/**
 * Builds what a run needs: the extension's dist/ (the extension under development is this
 * folder, so dist/ must be the current source), unless `--no-build`, then the suite bundle.
 */
export async function buildForRun(argv) {
  if (!argv.includes('--no-build')) {
    const b = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: ROOT, stdio: 'inherit' });
    if (b.status !== 0) throw new Error('Building the extension (node esbuild.mjs) failed.');
  }
  return buildSuite();
}

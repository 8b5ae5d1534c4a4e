import * as esbuild from 'esbuild';
import { join } from 'node:path';

// For suites that test one module of the webview (the renderer, the service client) in Chromium
// without the whole chat page: the module, bundled from its source as the browser would run it.

const ROOT = join(__dirname, '..', '..');

/** `entry` (TypeScript whose imports are relative to the repository root) bundled for the browser as one script. */
export async function bundleForBrowser(entry: string): Promise<string> {
  const bundle = await esbuild.build({
    stdin: { contents: entry, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
  });
  return bundle.outputFiles[0]!.text;
}

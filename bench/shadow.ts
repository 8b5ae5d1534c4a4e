import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A production build and package of the extension in a scratch directory that mirrors the
// project, so the benchmarks measure exactly what `npm run package` ships without touching the
// dist/ and .vsix that tests and other tools in the working tree may be using at the same time.

export const ROOT = process.cwd();

export interface Shadow {
  dir: string;
  dist: string;
  /** The .vsix, once `packageVsix` has run. */
  vsix?: string;
  dispose(): void;
}

function run(cmd: string, args: string[], cwd: string): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
}

export function buildShadow(): Shadow {
  const dir = mkdtempSync(join(tmpdir(), 'docs-assistant-bench-'));
  for (const entry of ['src', 'node_modules', 'tsconfig.json']) symlinkSync(join(ROOT, entry), join(dir, entry));
  for (const f of ['esbuild.mjs', 'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', '.vscodeignore']) copyFileSync(join(ROOT, f), join(dir, f));
  cpSync(join(ROOT, 'media'), join(dir, 'media'), { recursive: true });
  run(process.execPath, ['esbuild.mjs', '--production'], dir);
  return { dir, dist: join(dir, 'dist'), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `vsce package` as `npm run package` runs it, on the shadow's production build. */
export function packageVsix(shadow: Shadow): string {
  // vsce walks the whole directory before applying .vscodeignore; node_modules is not shipped.
  rmSync(join(shadow.dir, 'node_modules'));
  const out = join(shadow.dir, 'docs-assistant.vsix');
  run(
    process.execPath,
    [
      join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'),
      'package',
      '--no-dependencies',
      '--allow-missing-repository',
      '--no-rewrite-relative-links',
      '-o',
      out,
    ],
    shadow.dir,
  );
  symlinkSync(join(ROOT, 'node_modules'), join(shadow.dir, 'node_modules'));
  shadow.vsix = out;
  return out;
}

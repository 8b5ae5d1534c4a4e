import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { git } from './git';

// A workspace clone of the docs repository that looks like one of GitHub: its remote `origin` is
// the GitHub URL a job's `source.repository` names, and Git's own `url.<base>.insteadOf` in the
// clone's config sends every fetch to the bare repository. Matching a job to the workspace's
// repository, and fetching its branch, then run exactly as they would against GitHub.

export interface DocsRepoLocation {
  bareDir: string;
  /** The GitHub-style URL, e.g. https://github.com/acme/acme-docs. */
  repository: string;
}

/** The clone's config entries: the URL as is and with `.git`, the two forms a remote is written in. */
function insteadOf(repo: DocsRepoLocation): { base: string; values: string[] } {
  return { base: pathToFileURL(repo.bareDir).href, values: [repo.repository, `${repo.repository}.git`] };
}

/**
 * Clones the docs repository into `targetDir`. A clone made there before (`npm start` keeps one in
 * the demo workspace, and the emulator's bare repository is new at every start) is pointed at this
 * bare repository instead and fetched, so the writer's own changes in it stay.
 */
export async function cloneDocsWorkspace(repo: DocsRepoLocation, targetDir: string): Promise<void> {
  const target = resolve(targetDir);
  const { base, values } = insteadOf(repo);
  if (!existsSync(join(target, '.git'))) {
    mkdirSync(resolve(target, '..'), { recursive: true });
    const config = values.flatMap((v) => ['-c', `url.${base}.insteadOf=${v}`]);
    await git(resolve(target, '..'), ['clone', '--quiet', ...config, repo.repository, target]);
    return;
  }
  const entries = await git(target, ['config', '--local', '--get-regexp', '^url\\..*\\.insteadof$']).catch(() => '');
  for (const line of entries.split('\n')) {
    const m = /^url\.(.+)\.insteadof (.+)$/.exec(line);
    if (m && values.includes(m[2]!)) await git(target, ['config', '--local', '--remove-section', `url.${m[1]!}`]).catch(() => undefined);
  }
  for (const v of values) await git(target, ['config', '--local', '--add', `url.${base}.insteadOf`, v]);
  await git(target, ['fetch', '--quiet', 'origin']);
}

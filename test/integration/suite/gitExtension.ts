import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { waitFor } from './harness';

// The built-in Git extension, turned on (the suite's settings turn it off, test/integration/run.mjs)
// and made to open a repository the test made inside the workspace (it opens none outside it).
// Not a *.test.ts file, so the suite's loader does not run it as tests.

export interface OpenedRepository {
  rootUri: vscode.Uri;
  state: { HEAD?: unknown; remotes: unknown[] };
}

type GitExtension = { enabled: boolean; getAPI(v: 1): { openRepository(root: vscode.Uri): Promise<OpenedRepository | null> } };

/** Turns Git on and opens the repository at `dir` through the Git extension's API. */
export async function openWithGit(dir: string): Promise<OpenedRepository> {
  await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
  const ext = vscode.extensions.getExtension<GitExtension>('vscode.git')!;
  const exports = ext.isActive ? ext.exports : await ext.activate();
  await waitFor('the Git extension to be enabled', () => exports.enabled, 20_000);
  const repo = await exports.getAPI(1).openRepository(vscode.Uri.file(dir));
  assert.ok(repo, `the Git extension did not open ${dir}`);
  return repo;
}

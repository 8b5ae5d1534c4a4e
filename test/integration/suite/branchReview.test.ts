import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { AgentJob } from '../../../src/api/types';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import { git, GITHUB_URL, makeAgentBranchRepo, type AgentBranchRepo } from '../../fixtures/agentBranchRepo';
import { openWithGit } from './gitExtension';
import { activated, configureForEmulator, DEMO, waitFor } from './harness';

// Review Changes and Check Out Agent Branch (issue 30 §1) in the real VS Code, with the real
// built-in Git extension and real git: a bare "GitHub" repository made with the git CLI
// (test/fixtures/agentBranchRepo.ts; the emulator's own comes with slice emu-git), a clone of it that reaches it through
// `url.<bare>.insteadOf=https://github.com/acme/acme-docs`, so its remote shows the GitHub URL and
// the match and fetch run as they would against GitHub. The agent's commits are pushed to the bare
// repository by a second clone, as the service's agent would. Jobs are put in the job store as the
// poller leaves them (completed, with `source.ref`); only the messages are answered by the test.

interface Shown {
  kind: 'info' | 'warning' | 'error';
  message: string;
  items: string[];
  modal: boolean;
}

describe('Review Changes and Check Out Agent Branch (real Git extension, real git)', function () {
  this.timeout(90_000);
  let hooks: DocsAssistantTestHooks;
  let dir: string;
  let repo: AgentBranchRepo;
  let clone: string;
  let shown: Shown[] = [];
  /** What the next message returns, by its first matching words. */
  let answer: (s: Shown) => string | undefined = () => undefined;
  const originals = {
    info: vscode.window.showInformationMessage,
    warning: vscode.window.showWarningMessage,
    error: vscode.window.showErrorMessage,
  };
  let gitCalls = 0;
  let originalGit: DocsAssistantTestHooks['agent']['host']['git'];
  let n = 0;

  function record(kind: Shown['kind']) {
    return async (message: string, ...rest: unknown[]) => {
      const modal = typeof rest[0] === 'object' && rest[0] !== null && (rest[0] as { modal?: boolean }).modal === true;
      const items = rest.filter((r): r is string => typeof r === 'string');
      const s = { kind, message, items, modal };
      shown.push(s);
      return answer(s);
    };
  }

  /** A completed job in the store, as the poller leaves one. */
  function job(ref: string | null, repository = GITHUB_URL): string {
    const id = `review-job-${Date.now()}-${++n}`;
    const j: AgentJob = {
      id,
      status: 'completed',
      source: { repository, ref },
      model: 'docs-agent-1',
      prLink: `${GITHUB_URL}/pull/${n}`,
      createdAt: new Date().toISOString(),
      archivedAt: null,
    };
    hooks.agent.current!.store.add(j, `Instruction: Fix the page ${n}`, new Date(), `Fix the page ${n}`);
    return id;
  }

  const activeTab = () => vscode.window.tabGroups.activeTabGroup.activeTab;
  const textDiffs = () => ((activeTab()?.input as { textDiffs?: { original?: vscode.Uri; modified?: vscode.Uri }[] } | undefined)?.textDiffs ?? []).slice();
  const text = async (uri: vscode.Uri | undefined) => (uri ? (await vscode.workspace.openTextDocument(uri)).getText() : undefined);
  const fileOf = (d: { original?: vscode.Uri; modified?: vscode.Uri }) => (d.modified ?? d.original)!.path.split('/').pop();

  before(async () => {
    ({ hooks } = await activated());
    if ((await hooks.keys.get('admin')) !== DEMO.adminKey) await hooks.keys.store('admin', DEMO.adminKey);
    await configureForEmulator();
    await waitFor('the jobs of the emulator project to load', () => hooks.agent.current);

    dir = mkdtempSync(join(tmpdir(), 'docs-review-'));
    // Inside the workspace folder: the Git extension opens no repository outside it (nor in a parent).
    clone = join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, `review-clone-${Date.now()}`);
    // The user's clone is made before the agent's branch exists, as a writer's would be.
    repo = makeAgentBranchRepo(dir, clone, {
      'quickstart.md': '# Quickstart\n\nThe timeout default is 10 s.\n',
      'faq.md': '# FAQ\n\nOld answer.\n',
      'obsolete.md': '# Obsolete\n',
    });
    assert.equal(git(clone, 'config', 'remote.origin.url'), GITHUB_URL, 'the clone’s remote is the GitHub URL');

    (vscode.window as { showInformationMessage: unknown }).showInformationMessage = record('info');
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = record('warning');
    (vscode.window as { showErrorMessage: unknown }).showErrorMessage = record('error');
    originalGit = hooks.agent.host.git;
    hooks.agent.host.git = () => {
      gitCalls++;
      return originalGit();
    };
  });

  after(async () => {
    (vscode.window as { showInformationMessage: unknown }).showInformationMessage = originals.info;
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = originals.warning;
    (vscode.window as { showErrorMessage: unknown }).showErrorMessage = originals.error;
    if (originalGit) hooks.agent.host.git = originalGit;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (clone) rmSync(clone, { recursive: true, force: true });
  });

  beforeEach(() => {
    shown = [];
    answer = () => undefined;
    gitCalls = 0;
  });

  it('with Git disabled (as in the browser), says so and offers only the pull request', async () => {
    // The suite's settings turn Git off (test/integration/run.mjs), as a user can.
    assert.equal(vscode.workspace.getConfiguration('git').get('enabled'), false);
    await vscode.commands.executeCommand('docsAssistant.agent.reviewChanges', job('docs-agent/none'));
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0]!.message, /Git is not available here/);
    assert.deepEqual(shown[0]!.items, ['Open Pull Request']);
  });

  it('refuses a ref that is not a valid branch name before any Git call', async () => {
    for (const ref of ['-upload-pack=touch /tmp/pwned', '../../etc', 'main..evil', 'a b']) {
      shown = [];
      await vscode.commands.executeCommand('docsAssistant.agent.reviewChanges', job(ref));
      await vscode.commands.executeCommand('docsAssistant.agent.checkOutBranch', job(ref));
      assert.equal(shown.length, 2, JSON.stringify(shown));
      for (const s of shown) {
        assert.match(s.message, /not a valid Git branch name, so nothing was fetched/);
        assert.deepEqual(s.items, ['Open Pull Request']);
      }
    }
    assert.equal(gitCalls, 0, 'the Git extension was asked for');
  });

  describe('with Git enabled', () => {
    before(async function () {
      this.timeout(60_000);
      const repo = await openWithGit(clone);
      await waitFor('the clone’s remotes', () => repo.state.remotes.length > 0, 20_000);
    });

    after(async () => {
      await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Global);
    });

    it('with no repository whose remote is the job’s, says so and offers Clone Repository and the pull request', async () => {
      await vscode.commands.executeCommand('docsAssistant.agent.reviewChanges', job('docs-agent/x', 'git@github.com:acme/other-docs.git'));
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.match(shown[0]!.message, /No repository open in this workspace has git@github.com:acme\/other-docs.git as a remote/);
      assert.deepEqual(shown[0]!.items, ['Clone Repository', 'Open Pull Request']);
    });

    it('a branch the remote does not have: the fetch fails, says why, and keeps the pull request', async () => {
      await vscode.commands.executeCommand('docsAssistant.agent.reviewChanges', job('docs-agent/never-pushed'));
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.equal(shown[0]!.kind, 'warning');
      assert.match(shown[0]!.message, /Could not fetch docs-agent\/never-pushed from origin: the remote has no such branch/);
      assert.deepEqual(shown[0]!.items, ['Open Pull Request']);
    });

    it('opens the multi-file diff from the merge base to the branch, one entry per file, and a follow-up’s commit after re-review', async () => {
      const branch = `docs-agent/${Date.now().toString(36)}`;
      // Meanwhile the default branch moves on: the diff is from where the branch left it, not from its tip.
      repo.onBranch(branch);
      repo.commit(
        { 'quickstart.md': '# Quickstart\n\nThe timeout default is 30 s.\n', 'limits.md': '# Limits\n\n100 requests per hour.\n', 'obsolete.md': null },
        'Fix the timeout default',
      );
      repo.push(branch);
      repo.onBranch('base');
      repo.commit({ 'faq.md': '# FAQ\n\nNew answer on base.\n' }, 'base moves on');
      repo.push('base');
      git(clone, 'fetch', '-q', 'origin', 'base');
      const headBefore = git(clone, 'rev-parse', 'HEAD');

      const id = job(branch);
      await vscode.commands.executeCommand('docsAssistant.agent.reviewChanges', id);
      assert.deepEqual(shown, [], 'nothing to say when the diff opens');
      // The editor's title is the one given, with VS Code's count of its entries: one per file (an
      // added and a deleted one included). The tab API lists the entries with both sides.
      const title = `Agent Changes: Fix the page ${n} (${branch})`;
      await waitFor(`a tab titled ${title} (3 files), not ${activeTab()?.label}`, () => activeTab()?.label === `${title} (3 files)`);
      // The job's timeline says it was reviewed, and how many files the diff had.
      const reviews = () => hooks.agent.current!.store.get(id)!.timeline.filter((e) => e.kind === 'review');
      assert.deepEqual(
        reviews().map((e) => e.kind === 'review' && [e.action, e.files]),
        [['diff', 3]],
      );
      let diffs = textDiffs();
      assert.deepEqual(diffs.map(fileOf), ['quickstart.md']);
      assert.match((await text(diffs[0]!.original))!, /default is 10 s/);
      assert.match((await text(diffs[0]!.modified))!, /default is 30 s/);

      // A follow-up: the agent adds a commit; Review Changes fetches again and shows it.
      repo.onBranch(branch);
      repo.commit({ 'faq.md': '# FAQ\n\nOld answer, with the agent’s follow-up.\n' }, 'Follow-up: the FAQ too');
      repo.push(branch);
      const bareRefs = git(repo.bare, 'for-each-ref');
      await vscode.commands.executeCommand('docsAssistant.agent.reviewChanges', id);
      assert.deepEqual(shown, []);
      await waitFor(`a tab titled ${title} (4 files), not ${activeTab()?.label}`, () => activeTab()?.label === `${title} (4 files)`);
      diffs = textDiffs();
      assert.deepEqual(diffs.map(fileOf).sort(), ['faq.md', 'quickstart.md']);
      assert.match((await text(diffs.find((d) => fileOf(d) === 'faq.md')!.modified))!, /agent’s follow-up/);

      // Nothing of the user's changed: same HEAD, no local branch, and the "GitHub" side untouched.
      assert.equal(git(clone, 'rev-parse', 'HEAD'), headBefore);
      assert.equal(git(clone, 'branch', '--list', branch), '');
      assert.equal(git(clone, 'rev-parse', `refs/remotes/origin/${branch}`), git(repo.bare, 'rev-parse', `refs/heads/${branch}`));
      assert.equal(git(repo.bare, 'for-each-ref'), bareRefs, 'the bare repository’s refs changed');
    });

    it('Check Out asks first when the working tree has changes, and checks out only when told to', async () => {
      const branch = `docs-agent/co-${Date.now().toString(36)}`;
      repo.onBranch(branch);
      repo.commit({ 'limits.md': '# Limits\n' }, 'limits');
      repo.push(branch);
      const bareRefs = git(repo.bare, 'for-each-ref');
      writeFileSync(join(clone, 'quickstart.md'), '# Quickstart\n\nMy own unsaved thought.\n');
      const id = job(branch);

      await vscode.commands.executeCommand('docsAssistant.agent.checkOutBranch', id);
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.equal(shown[0]!.modal, true, 'the question is modal');
      assert.match(shown[0]!.message, new RegExp(`Your working tree has changes. Check out ${branch} anyway`));
      assert.deepEqual(shown[0]!.items, ['Check Out']);
      assert.notEqual(git(clone, 'rev-parse', '--abbrev-ref', 'HEAD'), branch, 'checked out without a yes');

      shown = [];
      answer = (s) => (s.modal ? 'Check Out' : undefined);
      await vscode.commands.executeCommand('docsAssistant.agent.checkOutBranch', id);
      assert.equal(git(clone, 'rev-parse', '--abbrev-ref', 'HEAD'), branch);
      assert.equal(git(clone, 'rev-parse', '--abbrev-ref', `${branch}@{upstream}`), `origin/${branch}`);
      assert.match(git(clone, 'diff', '--', 'quickstart.md'), /My own unsaved thought/, 'the user’s change was carried over');
      assert.match(shown.at(-1)!.message, new RegExp(`Checked out ${branch}\\.`));
      assert.deepEqual(
        hooks.agent
          .current!.store.get(id)!
          .timeline.filter((e) => e.kind === 'review')
          .map((e) => e.kind === 'review' && e.action),
        ['checkout'],
        'one checkout in the timeline (the one the user said yes to)',
      );
      assert.equal(git(repo.bare, 'for-each-ref'), bareRefs, 'nothing was pushed');
      git(clone, 'checkout', '-q', 'base');
    });
  });
});

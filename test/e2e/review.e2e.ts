import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { makeAgentBranchRepo, type AgentBranchRepo } from '../fixtures/agentBranchRepo';
import { clickRowAction, multiDiffEntries, rowAction, rowBranch } from './agentBranch';
import { clickReviewAction, fixDocsThroughReview, SEND, waitForReview } from './review';
import { RUN_DIR } from './stack';
import { step } from './workbench';
import { withStack } from './withStack';

// From the palette to the multi-file diff (issue 30, "Show it"): a job launched with Fix Docs with
// Agent…, the agent's commit on the job's branch, Review Changes on the job's row, and the changed
// lines in VS Code's multi-file diff editor; then a follow-up, its commit, and the diff again with
// both. The workspace is a clone whose remote is the GitHub URL and reaches a bare repository
// through `url.<bare>.insteadOf` (test/fixtures/agentBranchRepo.ts); the agent's commits are pushed
// to it by the test, on the branch the job names (the emulator's agent does not commit yet).

interface Repo {
  repo: AgentBranchRepo;
  userDataDir: string;
  close(): Promise<void>;
}

const DOCS = {
  'docs/configuration.md': '# Configuration\n\n| Option | Default |\n|---|---|\n| connectTimeout | 10 s |\n',
  'docs/faq.md': '# FAQ\n\nHow long does a connection wait? Ten seconds.\n',
};

describe('e2e: Review Changes, from the palette to the multi-file diff', function () {
  const e2e = withStack<Repo>({
    server: async () => {
      mkdirSync(RUN_DIR, { recursive: true });
      const root = mkdtempSync(join(RUN_DIR, 'review-repos-'));
      const userDataDir = mkdtempSync(join(RUN_DIR, 'user-'));
      const repo = makeAgentBranchRepo(root, join(userDataDir, 'workspace'), DOCS);
      return { repo, userDataDir, close: async () => rmSync(root, { recursive: true, force: true }) };
    },
    stack: (server) => ({ userDataDir: server.userDataDir, settings: { 'git.enabled': true } }),
  });
  const instruction = 'Say that the connect timeout default is 30 s';
  let branch = '';

  it('launches a job and reviews the agent’s commit in the multi-file diff editor', async function () {
    const row = await step(e2e.wb, 'launch the job from the palette; it completes', async () => {
      // The extension activates on a docs file and its view: the first command then finds it ready.
      await e2e.wb.openFile('docs/configuration.md');
      await e2e.wb.showDocsAssistant();
      await fixDocsThroughReview(e2e.wb, instruction);
      await e2e.wb.showDocsAssistant();
      const r = await e2e.wb.jobRow(/connect timeout default/);
      await e2e.wb.waitForRowIcon(r, 'git-pull-request', 30_000);
      return r;
    });
    await step(e2e.wb, 'the agent’s commit is on the job’s branch', async () => {
      branch = await rowBranch(row);
      const { repo } = e2e.server;
      repo.onBranch(branch);
      repo.commit(
        { 'docs/configuration.md': DOCS['docs/configuration.md'].replace('10 s', '30 s'), 'docs/limits.md': '# Limits\n\n100 agent jobs per hour.\n' },
        instruction,
      );
      repo.push(branch);
    });
    await step(e2e.wb, 'Review Changes on the row opens the multi-file diff, one entry per file', async () => {
      await clickRowAction(row, 'Review Changes');
      const entries = await multiDiffEntries(e2e.wb, 2);
      const config = entries.find((t) => t.includes('configuration.md'));
      const limits = entries.find((t) => t.includes('limits.md'));
      assert.ok(config && limits, `entries: ${JSON.stringify(entries)}`);
      assert.match(config, /connectTimeout \| 10 s/, 'the old line is on the left');
      assert.match(config, /connectTimeout \| 30 s/, 'the new line is on the right');
      assert.match(limits, /100 agent jobs per hour/);
      const tab = (await e2e.wb.page.locator('.editor-group-container.active .tab.active').first().getAttribute('aria-label')) ?? '';
      assert.match(tab, new RegExp(`Agent Changes: ${instruction} \\(${branch.replace(/[/.]/g, '\\$&')}\\)`));
      await e2e.wb.shot('review-1-multi-file-diff');
    });
  });

  it('after a follow-up and its commit, Review Changes shows the branch as it is now', async function () {
    const row = await e2e.wb.jobRow(/connect timeout default/);
    await step(e2e.wb, 'send a follow-up (the row’s inline button); the job works, then completes again', async () => {
      await clickRowAction(row, 'Send Follow-up…');
      await e2e.wb.waitForQuickInput(/follow-up|instruction/i);
      await e2e.wb.typeIntoQuickInput('Also say it in the FAQ');
      await waitForReview(e2e.wb);
      await clickReviewAction(e2e.wb, SEND);
      await e2e.wb.waitForRowIcon(row, 'loading', 10_000);
      await e2e.wb.waitForRowIcon(row, 'git-pull-request', 30_000);
    });
    await step(e2e.wb, 'the follow-up’s commit is on the branch', async () => {
      const { repo } = e2e.server;
      repo.onBranch(branch);
      repo.commit({ 'docs/faq.md': '# FAQ\n\nHow long does a connection wait? Thirty seconds.\n' }, 'Also say it in the FAQ');
      repo.push(branch);
    });
    await step(e2e.wb, 'Review Changes again: both commits, three files', async () => {
      await e2e.wb.command('View: Close All Editors');
      assert.equal(await rowAction(row, 'Review Changes').count(), 1, 'the finished job has Review Changes inline');
      await clickRowAction(row, 'Review Changes');
      const entries = await multiDiffEntries(e2e.wb, 3);
      const faq = entries.find((t) => t.includes('faq.md'));
      assert.ok(faq, `entries: ${JSON.stringify(entries)}`);
      assert.match(faq, /Thirty seconds/);
      assert.ok(
        entries.some((t) => /connectTimeout \| 30 s/.test(t)),
        'the first commit is still in the diff',
      );
      await e2e.wb.shot('review-2-after-follow-up');
    });
  });
});

import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentJob } from '../../../src/api/types';
import type { JobsTreeElement } from '../../../src/agent/vscode/jobsTreeProvider';
import type { DocsAssistantTestHooks } from '../../../src/extension';
import type { RunningEmulator } from '../../emulator';
import { activated, configureForEmulator, DEMO, waitFor } from './harness';
import { runSendingReview } from './review';

// The Agent Jobs tree as VS Code sees it: the provider the extension registered, asked for its
// children and items, with jobs that the real commands started against the emulator, and jobs
// already in the job store (globalState) when the project is loaded.

describe('Agent Jobs tree', () => {
  let hooks: DocsAssistantTestHooks;
  let emu: RunningEmulator;

  const tree = () => hooks.agent.tree;
  const roots = () => tree().getChildren();
  const rootFor = (jobId: string) => roots().find((e) => e.kind === 'job' && e.jobId === jobId);
  const item = (el: JobsTreeElement) => tree().getTreeItem(el);

  before(async () => {
    ({ hooks } = await activated());
    if ((await hooks.keys.get('admin')) !== DEMO.adminKey) await hooks.keys.store('admin', DEMO.adminKey);
    emu = await configureForEmulator();
    await waitFor('the jobs of the emulator project to load after the settings changed', () => hooks.agent.current);
  });

  // A test that failed while holding the emulator's jobs active must not hold them for the next.
  afterEach(() => emu.holdJobs(false));

  it('shows a job started with "Fix Docs with Agent…" as active, then completed with its pull request link as a child', async () => {
    const instruction = `Correct the timeout default on the configuration page ${Date.now()}`;
    // The job stays active until it has been seen active: on a loaded machine the poller could
    // otherwise see it completed (after the emulator's 2.5 s) before the first look at the tree.
    emu.holdJobs(true);
    // The chat's way in (the AgentJobsService extension.ts hands it): the prefilled prompt opens in
    // the review document, and Send to Agent sends it as it is.
    const started = await runSendingReview(instruction, undefined, () => hooks.jobs.launch({ draft: instruction, label: instruction }));
    assert.ok(started?.jobId, 'fixDocs returned no job id: the job was not started');
    const { jobId } = started;

    const create = emu.requests.find((r) => r.method === 'POST' && /\/agent\/.+\/job$/.test(r.path));
    assert.ok(create, 'the emulator received no create request');
    assert.equal(create.auth, 'admin', 'the create request did not carry the admin key');
    assert.ok(JSON.stringify(create.body).includes(instruction), 'the prompt sent is not the one confirmed');

    const el = rootFor(jobId);
    assert.ok(el, 'the new job is not a root of the tree');
    const first = item(el);
    assert.equal(first.id, `job:${jobId}`);
    assert.equal(first.label, instruction);
    // `preview`: the job has a branch, so its row offers Open Preview (previewFeature.ts).
    assert.equal(first.contextValue, 'job active preview');
    assert.equal((first.iconPath as vscode.ThemeIcon).id, 'loading~spin');
    emu.holdJobs(false);
    // fixDocs revealed it: the real TreeView found it through getParent/getChildren.
    assert.ok(
      hooks.agent.view.selection.some((s) => s.kind === 'job' && s.jobId === jobId),
      'the new job is not selected in the view',
    );

    const done = await waitFor('the poller to see the job completed with a pull request', () => {
      const i = item(el);
      return i.contextValue === 'job completed pr preview' ? i : undefined;
    });
    assert.equal(done.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    assert.equal((done.iconPath as vscode.ThemeIcon).id, 'git-pull-request');

    // Its timeline (issue 30), oldest first: the prompt, the completion the poll saw, the pull request.
    const children = tree().getChildren(el);
    const prLink = hooks.agent.current!.store.get(jobId)!.job.prLink!;
    assert.ok(prLink.startsWith(emu.url), `the pull request link ${prLink} is not the emulator's`);
    const rows = children.map((c) => item(c));
    assert.deepEqual(
      rows.map((r) => r.contextValue),
      ['prompt', 'status', 'prLink last'],
    );
    assert.deepEqual(
      rows.slice(0, 2).map((r) => [r.label, r.accessibilityInformation?.label]),
      [
        [instruction, `${instruction}, prompt, sent just now`],
        ['Completed', 'Completed, status, just now'],
      ],
    );
    for (const r of rows) assert.equal(r.description, 'just now', `${String(r.label)}: its time`);
    assert.ok(
      children.every((c) => tree().getParent(c) === el),
      'every entry has the job as its parent (for reveal)',
    );
    // The whole prompt and the local time (the year, at least, in any display language).
    assert.match(String(rows[0]!.tooltip), new RegExp(`^${instruction}\n\n.*${new Date().getFullYear()}`));
    const child = rows[2]!;
    // Named for what it is (issue 29): its number and repository, read from the link; the address is its tooltip.
    const [, repo, number] = /\/([^/]+\/[^/]+)\/pull\/(\d+)$/.exec(prLink)!;
    assert.equal(child.label, `Pull request #${number}: ${repo}`);
    assert.deepEqual(child.accessibilityInformation, { label: `Pull request #${number}: ${repo}` });
    assert.equal(child.tooltip, `Open ${prLink}`);
    // The row names its job; the command opens the link the job store holds, never a URL it is handed.
    assert.deepEqual(child.command, { command: 'docsAssistant.agent.openPullRequest', title: 'Open Pull Request', arguments: [jobId] });
    assert.equal(tree().getParent(children[2]!), el);

    const page = await fetch(prLink);
    assert.equal(page.status, 200, 'the pull request link does not open');

    // What the chat's job card reads, through the interface, not a command.
    assert.deepEqual(hooks.jobs.state(jobId), {
      id: jobId,
      status: 'completed',
      prLink,
      label: instruction,
      notFound: false,
    });
  });

  it('lists a job from the job store with its pull request and follow-ups as children', async () => {
    const jobs = hooks.agent.current!;
    const job: AgentJob = {
      id: `stored-${Date.now()}`,
      status: 'completed',
      source: { repository: 'https://github.com/acme/acme-docs', ref: 'main' },
      model: 'emulator-1',
      prLink: 'https://github.com/acme/acme-docs/pull/7',
      createdAt: new Date().toISOString(),
      archivedAt: null,
    };
    jobs.store.add(job, 'Instruction: Document the retry limit\n\nSelected text from docs/rate-limits.md');
    jobs.store.addFollowUp(job.id, 'Also mention the Retry-After header', job);

    const el = await waitFor('the stored job in the tree', () => rootFor(job.id));
    assert.equal(roots()[0], el, 'the newest job is not first');
    const parent = item(el);
    assert.equal(parent.label, 'Document the retry limit');
    assert.equal(parent.contextValue, 'job completed pr preview');
    assert.match(String(parent.description), /^acme\/acme-docs@main · emulator-1 · /);

    const children = tree()
      .getChildren(el)
      .map((c) => item(c));
    // Its timeline (issue 30): the prompt, the state it was stored in, then the follow-up, the last entry.
    assert.deepEqual(
      children.map((c) => [c.contextValue, c.label]),
      [
        ['prompt', 'Document the retry limit'],
        ['status', 'Completed'],
        ['prLink', 'Pull request #7: acme/acme-docs'],
        ['followUp last', 'Also mention the Retry-After header'],
      ],
    );
    assert.equal(children[3]!.command, undefined, 'a follow-up row opens nothing');

    // Copy Job ID and Remove from List take the tree element, as the context menu passes it.
    await vscode.commands.executeCommand('docsAssistant.agent.copyJobId', el);
    assert.equal(await vscode.env.clipboard.readText(), job.id);
    await vscode.commands.executeCommand('docsAssistant.agent.removeJob', el);
    assert.equal(rootFor(job.id), undefined, 'the removed job is still in the tree');
  });

  it('keeps the jobs of a project in globalState when the settings switch to another project and back', async () => {
    const jobId = hooks.agent.current!.store.all()[0]?.job.id;
    assert.ok(jobId, 'the first test left no job');
    const timeline = () =>
      tree()
        .getChildren(rootFor(jobId)!)
        .map((c) => [item(c).label, item(c).tooltip]);
    const before = timeline();
    assert.equal(before.length, 3, 'the first test left a job with its prompt, completion and pull request');
    await configureForEmulator({ projectId: 'another-project' });
    await waitFor('the other project (no jobs) to load', () => hooks.agent.current && roots().length === 0);
    await configureForEmulator();
    await waitFor('the first project and its job to come back', () => rootFor(jobId));
    // Read back from globalState, with the times it was recorded at.
    assert.deepEqual(timeline(), before, 'the timeline came back as it was');
  });

  it('has no jobs and no tree rows while the service is not configured', async () => {
    await configureForEmulator({ baseUrl: '' });
    await waitFor('the jobs to unload', () => hooks.agent.current === undefined);
    assert.deepEqual(roots(), []);
    await configureForEmulator();
    await waitFor('the jobs to load again', () => hooks.agent.current);
  });
});

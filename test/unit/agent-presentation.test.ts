import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { contextValueOf, presentJob, shortRepository } from '../../src/agent/core/jobPresentation';
import type { JobRecord } from '../../src/agent/core/jobStore';
import { readTimeline } from '../../src/agent/core/timeline';
import { presentChildren } from '../../src/agent/core/timelinePresentation';
import { buildAgentPrompt, isBlankPrompt } from '../../src/agent/core/prompt';
import type { AgentJobStatus } from '../../src/api/types';
import { english } from '../../src/common/l10n';

const NOW = Date.parse('2026-11-23T12:00:00Z');

/** A record as one saved before timelines is read (issue 30): its timeline made from what it has. */
function record(status: AgentJobStatus, extra: Partial<JobRecord> & { prLink?: string | null } = {}): JobRecord {
  const { prLink = null, ...rest } = extra;
  const r: Omit<JobRecord, 'timeline'> = {
    job: {
      id: `job-${status}`,
      status,
      source: { repository: 'https://github.com/acme/acme-docs', ref: 'main' },
      model: 'docs-agent-1',
      prLink,
      createdAt: '2026-11-23T11:55:00Z',
      archivedAt: status === 'archived' ? '2026-11-23T11:59:00Z' : null,
    },
    prompt: 'Fix the timeout default on the configuration page\nmore detail',
    followUps: [],
    updatedAt: '2026-11-23T11:55:00Z',
    ...rest,
  };
  return { ...r, timeline: readTimeline(undefined, r) };
}

// The when-clauses in package.json decide which actions a tree item gets; test against them.
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const itemMenus: { command: string; when: string }[] = pkg.contributes.menus['view/item/context'];
function actionsFor(contextValue: string): string[] {
  const out = new Set<string>();
  for (const m of itemMenus) {
    const re = /viewItem =~ \/(.+)\/$/.exec(m.when);
    if (re && new RegExp(re[1]!).test(contextValue)) out.add(m.command.replace('docsAssistant.agent.', ''));
  }
  return [...out].sort();
}

describe('job presentation in the Agent Jobs tree', () => {
  const cases: { name: string; r: JobRecord; icon: string; context: string; actions: string[]; children: string[] }[] = [
    {
      name: 'active',
      r: record('active'),
      icon: 'loading~spin',
      context: 'job active',
      actions: ['checkOutBranch', 'copyJobId', 'followUp', 'removeJob', 'reviewChanges'],
      children: [],
    },
    {
      name: 'completed with PR',
      r: record('completed', { prLink: 'https://github.com/acme/acme-docs/pull/7' }),
      icon: 'git-pull-request',
      context: 'job completed pr',
      actions: ['checkOutBranch', 'copyJobId', 'copyPullRequestLink', 'followUp', 'openPullRequest', 'removeJob', 'reviewChanges'],
      children: ['prLink'],
    },
    {
      name: 'completed without changes',
      r: record('completed'),
      icon: 'pass',
      context: 'job completed',
      actions: ['checkOutBranch', 'copyJobId', 'followUp', 'removeJob', 'reviewChanges'],
      children: [],
    },
    { name: 'failed', r: record('failed'), icon: 'error', context: 'job failed', actions: ['copyJobId', 'followUp', 'removeJob'], children: [] },
    { name: 'archived', r: record('archived'), icon: 'archive', context: 'job archived', actions: ['copyJobId', 'followUp', 'removeJob'], children: [] },
    {
      name: 'not found on the service',
      r: record('active', { notFound: true }),
      icon: 'question',
      context: 'job active notFound',
      actions: ['copyJobId', 'removeJob'],
      children: [],
    },
    {
      name: 'active with a polling error',
      r: record('active', { pollError: 'The service had a problem (HTTP 503).' }),
      icon: 'warning',
      context: 'job active',
      actions: ['checkOutBranch', 'copyJobId', 'followUp', 'removeJob', 'reviewChanges'],
      children: [],
    },
    {
      name: 'completed with PR and follow-ups',
      r: record('completed', {
        prLink: 'https://github.com/acme/acme-docs/pull/8',
        followUps: [
          { prompt: 'Also fix the table', sentAt: '2026-11-23T11:58:00Z' },
          { prompt: 'And the FAQ', sentAt: '2026-11-23T11:59:00Z' },
        ],
      }),
      icon: 'git-pull-request',
      context: 'job completed pr',
      actions: ['checkOutBranch', 'copyJobId', 'copyPullRequestLink', 'followUp', 'openPullRequest', 'removeJob', 'reviewChanges'],
      children: ['prLink', 'followUp', 'followUp'],
    },
  ];
  for (const c of cases) {
    it(`${c.name}: icon ${c.icon}, contextValue "${c.context}", the right actions and children`, () => {
      const v = presentJob(c.r, NOW, english);
      assert.equal(v.iconId, c.icon);
      assert.equal(v.contextValue, c.context);
      assert.equal(v.label, 'Fix the timeout default on the configuration page');
      assert.equal(v.description, 'acme/acme-docs@main · docs-agent-1 · 5m ago');
      assert.match(v.tooltipMarkdown, new RegExp(c.r.job.id.replace('-', '\\\\?-')));
      assert.deepEqual(actionsFor(v.contextValue), c.actions);
      // Read as a record from before timelines (issue 30): its prompt and status, then what it had.
      assert.deepEqual(
        presentChildren(c.r, NOW, english).map((ch) => ch.kind),
        ['prompt', 'status', ...c.children],
      );
    });
  }

  it('the PR link child gets only the PR actions', () => {
    assert.deepEqual(actionsFor('prLink'), ['copyPullRequestLink', 'openPullRequest']);
  });

  it('follow-ups are listed in the order they were sent', () => {
    const kids = presentChildren(cases.at(-1)!.r, NOW, english);
    assert.deepEqual(
      kids.filter((k) => k.kind === 'followUp').map((k) => k.label),
      ['Also fix the table', 'And the FAQ'],
    );
  });

  it('the tooltip shows the polling error and escapes markdown from the service', () => {
    const r = record('active', { pollError: 'bad *thing* [x](javascript:alert(1))' });
    const v = presentJob(r, NOW, english);
    assert.match(v.tooltipMarkdown, /bad \\\*thing\\\* \\\[x\\\]\(javascript:alert\(1\)\)/);
  });

  it('a job opens by itself for news of the last day, not for old news: a view of 1,000 old jobs is not 1,000 timelines (issue 33)', () => {
    const pr = { prLink: 'https://github.com/acme/acme-docs/pull/7' };
    assert.equal(presentJob(record('completed', { ...pr, updatedAt: '2026-11-23T11:55:00Z' }), NOW, english).expanded, true, 'a pull request 5 minutes ago');
    assert.equal(presentJob(record('completed', { ...pr, updatedAt: '2026-11-21T11:55:00Z' }), NOW, english).expanded, false, 'two days ago');
    const followedUp = { followUps: [{ prompt: 'Also the FAQ', sentAt: '2026-11-23T11:50:00Z' }], updatedAt: '2026-11-23T11:50:00Z' };
    assert.equal(presentJob(record('active', followedUp), NOW, english).expanded, true, 'a follow-up just sent');
    assert.equal(presentJob(record('active'), NOW, english).expanded, false, 'nothing new yet');
  });

  it('contextValue flags do not leak into each other', () => {
    assert.equal(contextValueOf(record('completed', { prLink: 'https://x/pr' })), 'job completed pr');
    assert.equal(shortRepository('https://github.com/a/b.git'), 'a/b');
    assert.equal(shortRepository('git@example.com:a/b'), 'git@example.com:a/b');
  });
});

// Issue 29: the tree by keyboard and screen reader. Every row says what it is (its label, then its
// status), Enter runs its primary action, and the context-menu key offers every action a row has.
describe('job presentation: keyboard and screen readers', () => {
  const PR_LINK = 'https://github.com/acme/acme-docs/pull/12';
  const states: [string, JobRecord, string][] = [
    ['active', record('active'), 'Working'],
    ['completed with PR', record('completed', { prLink: PR_LINK }), 'Pull request ready'],
    ['completed without changes', record('completed'), 'Finished without changes'],
    ['failed', record('failed'), 'Failed'],
    ['archived', record('archived'), 'Archived'],
    ['not found', record('active', { notFound: true }), 'Not found on the service'],
    ['polling error', record('active', { pollError: 'HTTP 503' }), 'Working (the last check for updates failed)'],
  ];
  for (const [name, r, status] of states) {
    it(`${name}: the job row is named by its label and status, Enter shows the job, and its context menu has actions`, () => {
      const v = presentJob(r, NOW, english);
      assert.equal(v.accessibilityLabel, `Fix the timeout default on the configuration page, ${status}, acme/acme-docs@main · docs-agent-1 · 5m ago`);
      assert.ok(v.accessibilityLabel.startsWith(v.label), 'the name starts with what is seen');
      assert.deepEqual(v.command, { id: 'docsAssistant.agent.showJob', title: 'Show Job' });
      assert.ok(actionsFor(v.contextValue).length >= 2, `"${v.contextValue}" has no actions`);
      for (const child of presentChildren(r, NOW, english)) assert.notDeepEqual(actionsFor(child.contextValue), [], `"${child.contextValue}" has no actions`);
    });
  }

  it('the PR row is named "Pull request #12: owner/repo", not by its address, and Enter opens it', () => {
    const pr = presentChildren(record('completed', { prLink: PR_LINK }), NOW, english).find((c) => c.kind === 'prLink');
    assert.ok(pr?.kind === 'prLink');
    assert.equal(pr.label, 'Pull request #12: acme/acme-docs');
    assert.equal(pr.accessibilityLabel, pr.label);
    assert.deepEqual(pr.command, { id: 'docsAssistant.agent.openPullRequest', title: 'Open Pull Request' });
    assert.equal(pr.tooltip, `Open ${PR_LINK}`, 'the address is still there, in the tooltip');
    // The newest entry of the timeline (issue 30) also offers Follow Up….
    assert.equal(pr.contextValue, 'prLink last');
    assert.deepEqual(actionsFor(pr.contextValue), ['copyPullRequestLink', 'followUp', 'openPullRequest']);
  });

  it('a link that names no pull request by its path is just "Pull request": nothing else of it is shown', () => {
    for (const link of ['https://example.com/review?id=12', 'https://github.com/acme/acme-docs/pull/12?<script>']) {
      const pr = presentChildren(record('completed', { prLink: link }), NOW, english).find((c) => c.kind === 'prLink');
      assert.equal(pr?.label, 'Pull request', link);
      assert.equal(pr?.accessibilityLabel, 'Pull request', link);
    }
    // Not a web address: the timeline keeps no entry for it (timeline.ts), so no row shows it at all.
    const kinds = presentChildren(record('completed', { prLink: 'javascript:alert(1)' }), NOW, english).map((c) => c.kind);
    assert.deepEqual(kinds, ['prompt', 'status']);
  });

  it('a follow-up row says it is one and when it was sent, and offers another follow-up and the job id', () => {
    const followUps = [{ prompt: 'Also fix the table', sentAt: '2026-11-23T11:58:00Z' }];
    const row = presentChildren(record('completed', { followUps }), NOW, english).find((c) => c.kind === 'followUp');
    assert.equal(row?.accessibilityLabel, 'Also fix the table, follow-up, sent 2m ago');
    assert.deepEqual(actionsFor(row!.contextValue), ['copyJobId', 'followUp']);
    const gone = presentChildren(record('active', { followUps, notFound: true }), NOW, english).find((c) => c.kind === 'followUp');
    assert.deepEqual(actionsFor(gone!.contextValue), ['copyJobId'], 'no follow-up for a job the service no longer has');
  });
});

describe('agent prompt', () => {
  it('names the file, the lines and the selected text before the instruction', () => {
    const p = buildAgentPrompt('  Fix the default  ', { path: 'docs/config.md', startLine: 10, endLine: 12, text: 'timeout: 10s', languageId: 'markdown' });
    assert.equal(p, 'File: docs/config.md (lines 10-12)\n\n```markdown\ntimeout: 10s\n```\n\nInstruction: Fix the default');
  });
  it('uses a fence longer than any backticks in the selection', () => {
    const p = buildAgentPrompt('x', { path: 'a.md', startLine: 1, endLine: 1, text: 'a ```` b' });
    assert.match(p, /^`{5}$/m);
  });
  it('without a selection it is the instruction alone', () => {
    assert.equal(buildAgentPrompt(' Fix it '), 'Fix it');
  });
  it('blank prompts are refused', () => {
    for (const p of [undefined, '', '   ', '\n\t']) assert.equal(isBlankPrompt(p), true);
    assert.equal(isBlankPrompt('x'), false);
  });
});

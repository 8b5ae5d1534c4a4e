import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { JobStore } from '../../src/agent/core/jobStore';
import type { JobRecord } from '../../src/agent/core/jobStore';
import { MAX_TIMELINE_ENTRIES, MAX_TIMELINE_TEXT, type TimelineEntry } from '../../src/agent/core/timeline';
import { presentChildren } from '../../src/agent/core/timelinePresentation';
import type { AgentJob } from '../../src/api/types';
import type { Memento } from '../../src/common/memento';
import { english } from '../../src/common/l10n';
import { story } from './timelineStory';

// Issue 30 §3: a job's timeline in the job store (bounded, checked when read back, made from what an
// older record has) and in the Agent Jobs tree (in order, each row with its time, a full tooltip, a
// name that contains what is seen, and Follow Up… on the last entry).

class JsonMemento implements Memento {
  readonly data = new Map<string, string>();
  get<T>(key: string): T | undefined {
    const raw = this.data.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  }
  async update(key: string, value: unknown): Promise<void> {
    this.data.set(key, JSON.stringify(value));
  }
}

const job = (over: Partial<AgentJob> = {}): AgentJob => ({
  id: 'job_1',
  status: 'active',
  source: { repository: 'https://github.com/acme/acme-docs', ref: 'docs-agent/1' },
  model: 'm',
  prLink: null,
  createdAt: '2026-11-23T11:50:00.000Z',
  archivedAt: null,
  ...over,
});

const NOW = Date.parse('2026-11-23T12:00:00Z');
const ORIGIN = Date.parse('2026-11-23T11:50:00Z');
const at = (minute: number) => new Date(ORIGIN + minute * 60_000);

// The when-clauses in package.json decide which actions a row gets; test against them.
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
const itemMenus: { command: string; when: string; group?: string }[] = pkg.contributes.menus['view/item/context'];
function actionsFor(contextValue: string, inline = false): string[] {
  const out = new Set<string>();
  for (const m of itemMenus) {
    if (inline !== (m.group ?? '').startsWith('inline')) continue;
    const re = /viewItem =~ \/(.+)\/$/.exec(m.when);
    if (re && new RegExp(re[1]!).test(contextValue)) out.add(m.command.replace('docsAssistant.agent.', ''));
  }
  return [...out].sort();
}

describe('a job timeline in the job store', () => {
  it('records the prompt at create, status changes and a new pull request on update, and each follow-up', () => {
    const store = new JobStore(new JsonMemento(), 'k');
    store.add(job(), 'Instruction: Fix the timeout', at(0));
    store.update('job_1', { job: job() }, at(1));
    store.update('job_1', { job: job({ status: 'completed', prLink: 'https://github.com/acme/acme-docs/pull/7' }) }, at(2));
    store.addFollowUp('job_1', 'Also the FAQ', job({ prLink: 'https://github.com/acme/acme-docs/pull/7' }), at(3));
    store.update('job_1', { job: job({ status: 'completed', prLink: 'https://github.com/acme/acme-docs/pull/7' }) }, at(4));
    assert.deepEqual(story(store.get('job_1')!.timeline, ORIGIN), [
      '+0m prompt: Instruction: Fix the timeout',
      '+2m status: completed',
      '+2m pullRequest: https://github.com/acme/acme-docs/pull/7',
      '+3m followUp: Also the FAQ',
      '+3m status: active',
      '+4m status: completed',
    ]);
  });

  it('appendTimeline adds an entry for the preview and review slices, saved and told, and ignores what is not one', () => {
    const memento = new JsonMemento();
    const store = new JobStore(memento, 'k');
    store.add(job(), 'Fix it', at(0));
    let changes = 0;
    store.onDidChange(() => changes++);
    store.appendTimeline('job_1', { at: at(5).toISOString(), kind: 'preview', state: 'success', url: 'https://preview.example.com/x' });
    store.appendTimeline('job_1', { at: at(6).toISOString(), kind: 'review', action: 'diff', files: 12 });
    store.appendTimeline('nobody', { at: at(6).toISOString(), kind: 'review', action: 'checkout' });
    store.appendTimeline('job_1', { at: 'yesterday', kind: 'review', action: 'checkout' });
    store.appendTimeline('job_1', { at: at(7).toISOString(), kind: 'preview', state: 'success', url: 'javascript:alert(1)' });
    store.appendTimeline('job_1', { at: at(7).toISOString(), kind: 'shell', command: 'rm -rf /' } as unknown as TimelineEntry);
    assert.equal(changes, 3, 'two entries and the preview without its bad link');
    const kept = new JobStore(memento, 'k').get('job_1')!.timeline;
    assert.deepEqual(kept.slice(1), [
      { at: at(5).toISOString(), kind: 'preview', state: 'success', url: 'https://preview.example.com/x' },
      { at: at(6).toISOString(), kind: 'review', action: 'diff', files: 12 },
      { at: at(7).toISOString(), kind: 'preview', state: 'success' },
    ]);
  });

  it(`keeps at most ${MAX_TIMELINE_ENTRIES} entries (the prompt and the newest) and ${MAX_TIMELINE_TEXT} characters of a text`, () => {
    const store = new JobStore(new JsonMemento(), 'k');
    store.add(job(), `Instruction: ${'x'.repeat(10_000)}`, at(0));
    for (let i = 0; i < 250; i++) store.appendTimeline('job_1', { at: at(1).toISOString(), kind: 'review', action: 'diff', files: i });
    store.addFollowUp('job_1', 'y'.repeat(5000), job(), at(2));
    const timeline = store.get('job_1')!.timeline;
    assert.equal(timeline.length, MAX_TIMELINE_ENTRIES);
    assert.equal(timeline[0]!.kind, 'prompt');
    assert.equal((timeline[0] as { text: string }).text.length, MAX_TIMELINE_TEXT);
    assert.ok((timeline[0] as { text: string }).text.endsWith('…'));
    assert.deepEqual(timeline[1], { at: at(1).toISOString(), kind: 'review', action: 'diff', files: 152 }, 'the oldest after the prompt went first');
    assert.equal(timeline.at(-1)!.kind, 'followUp');
    assert.equal((timeline.at(-1) as { text: string }).text.length, MAX_TIMELINE_TEXT);
  });

  it('reads a record saved before timelines as one made from its prompt, follow-ups, status and pull request, in time order', () => {
    const memento = new JsonMemento();
    const legacy = {
      job: job({ status: 'completed', prLink: 'https://github.com/acme/acme-docs/pull/3' }),
      prompt: 'Instruction: Document the retry limit',
      followUps: [
        { prompt: 'Also the Retry-After header', sentAt: at(3).toISOString() },
        { prompt: 'And the 429 example', sentAt: at(1).toISOString() },
      ],
      updatedAt: at(8).toISOString(),
    };
    void memento.update('k', [legacy]);
    // Each entry at the time the record has for it: created, sent, last updated (minutes after ORIGIN).
    const read = new JobStore(memento, 'k').get('job_1')!.timeline;
    assert.deepEqual(
      read.map((e, i) => [(Date.parse(e.at) - ORIGIN) / 60_000, story(read)[i]]),
      [
        [0, 'prompt: Instruction: Document the retry limit'],
        [1, 'followUp: And the 429 example'],
        [3, 'followUp: Also the Retry-After header'],
        [8, 'status: completed'],
        [8, 'pullRequest: https://github.com/acme/acme-docs/pull/3'],
      ],
    );
  });

  it('drops saved entries that are not entries (a hand edit, another version), and keeps the rest', () => {
    const memento = new JsonMemento();
    const timeline = [
      { at: at(0).toISOString(), kind: 'prompt', text: 'Fix it' },
      { at: at(1).toISOString(), kind: 'status', status: 'exploded' },
      { at: 'soon', kind: 'status', status: 'completed' },
      { at: at(2).toISOString(), kind: 'pullRequest', url: 'file:///etc/passwd' },
      { at: at(2).toISOString(), kind: 'pullRequest', url: 'https://user:secret@github.com/acme/acme-docs/pull/7' },
      { at: at(2).toISOString(), kind: 'preview', state: 'success', url: 'https://:@/x' },
      { at: at(2).toISOString(), kind: 'review', action: 'push' },
      null,
      'text',
      { at: at(3).toISOString(), kind: 'followUp', text: 'z'.repeat(MAX_TIMELINE_TEXT * 3) },
    ];
    void memento.update('k', [{ job: job(), prompt: 'Fix it', followUps: [], updatedAt: at(0).toISOString(), timeline }]);
    const read = new JobStore(memento, 'k').get('job_1')!.timeline;
    assert.deepEqual(
      read.map((e) => e.kind),
      ['prompt', 'preview', 'followUp'],
    );
    // The one rule for outside addresses (safeExternalUrl): no user info, a host, http(s).
    assert.equal((read[1] as { url?: string }).url, undefined, 'an address without a host is not kept');
    assert.equal((read[2] as { text: string }).text.length, MAX_TIMELINE_TEXT);
  });

  it('a record whose entries are all unreadable, or whose follow-ups are junk, still reads as what it has', () => {
    const memento = new JsonMemento();
    const followUps = [null, { prompt: 'Also the FAQ', sentAt: at(2).toISOString() }, { prompt: 7 }];
    const base = { prompt: 'Fix it', followUps, updatedAt: at(4).toISOString() };
    void memento.update('k', [
      { ...base, job: job(), timeline: [{ kind: 'status' }] },
      { ...base, job: job({ id: 'job_2' }) },
    ]);
    const store = new JobStore(memento, 'k');
    for (const id of ['job_1', 'job_2']) {
      assert.deepEqual(story(store.get(id)!.timeline, ORIGIN), ['+0m prompt: Fix it', '+2m followUp: Also the FAQ', '+4m status: active'], id);
    }
  });
});

describe('a job timeline in the Agent Jobs tree', () => {
  const record = (timeline: TimelineEntry[], over: Partial<JobRecord> = {}): JobRecord => ({
    job: job({ status: 'completed', prLink: 'https://github.com/acme/acme-docs/pull/7' }),
    prompt: 'Instruction: Fix the timeout default\nmore',
    followUps: [],
    updatedAt: at(0).toISOString(),
    timeline,
    ...over,
  });
  const full: TimelineEntry[] = [
    { at: at(0).toISOString(), kind: 'prompt', text: 'File: docs/config.md\n\nInstruction: Fix the timeout default' },
    { at: at(2).toISOString(), kind: 'status', status: 'completed' },
    { at: at(2).toISOString(), kind: 'pullRequest', url: 'https://github.com/acme/acme-docs/pull/7' },
    { at: at(3).toISOString(), kind: 'preview', state: 'success', url: 'https://preview.example.com/p/1' },
    { at: at(4).toISOString(), kind: 'review', action: 'diff', files: 3 },
    { at: at(5).toISOString(), kind: 'followUp', text: 'Also the FAQ\nand the table' },
    { at: at(5).toISOString(), kind: 'status', status: 'active' },
  ];
  const formatTime = (iso: string) => `at ${iso}`;

  it('shows every entry in order, each with its time as the description', () => {
    const rows = presentChildren(record(full), NOW, english, formatTime);
    assert.deepEqual(
      rows.map((r) => [r.kind, r.label, r.description]),
      [
        ['prompt', 'Fix the timeout default', '10m ago'],
        ['status', 'Completed', '8m ago'],
        ['prLink', 'Pull request #7: acme/acme-docs', '8m ago'],
        ['preview', 'Preview ready', '7m ago'],
        ['review', 'Reviewed the changes (3 files)', '6m ago'],
        ['followUp', 'Also the FAQ', '5m ago'],
        ['status', 'Working', '5m ago'],
      ],
    );
  });

  it('each row is named by what it shows, then what it is and when; its tooltip has the whole text and the time', () => {
    const rows = presentChildren(record(full), NOW, english, formatTime);
    for (const r of rows)
      assert.ok(r.accessibilityLabel.startsWith(r.label), `${JSON.stringify(r.accessibilityLabel)} does not start with ${JSON.stringify(r.label)}`);
    assert.equal(rows[0]!.accessibilityLabel, 'Fix the timeout default, prompt, sent 10m ago');
    assert.equal(rows[0]!.tooltip, `File: docs/config.md\n\nInstruction: Fix the timeout default\n\nat ${at(0).toISOString()}`);
    assert.equal(rows[1]!.accessibilityLabel, 'Completed, status, 8m ago');
    assert.equal(rows[3]!.tooltip, `Preview ready: https://preview.example.com/p/1\n\nat ${at(3).toISOString()}`);
    assert.equal(rows[5]!.accessibilityLabel, 'Also the FAQ, follow-up, sent 5m ago');
    assert.equal(rows[5]!.tooltip, `Also the FAQ\nand the table\n\nat ${at(5).toISOString()}`);
  });

  it('the pull request entry opens the pull request on Enter, as the pull request row did', () => {
    const pr = presentChildren(record(full), NOW, english, formatTime).find((r) => r.kind === 'prLink')!;
    assert.deepEqual(pr.command, { id: 'docsAssistant.agent.openPullRequest', title: 'Open Pull Request' });
    assert.equal(pr.tooltip, 'Open https://github.com/acme/acme-docs/pull/7');
    for (const r of presentChildren(record(full), NOW, english, formatTime).filter((r) => r.kind !== 'prLink')) assert.equal(r.command, undefined, r.kind);
  });

  it('Follow Up… is on the job and its last entry, in the context menu and inline; every entry has an action', () => {
    const rows = presentChildren(record(full), NOW, english, formatTime);
    const last = rows.at(-1)!;
    assert.equal(last.contextValue, 'status last');
    assert.ok(actionsFor(last.contextValue).includes('followUp'));
    assert.deepEqual(actionsFor(last.contextValue, true), ['followUp']);
    assert.deepEqual(
      actionsFor('job completed pr', true),
      ['followUp', 'openPullRequest', 'reviewChanges'],
      'the job row keeps its inline actions, and a finished one offers Review Changes',
    );
    for (const r of rows.slice(0, -1)) {
      assert.ok(!/\blast\b/.test(r.contextValue), r.contextValue);
      assert.deepEqual(actionsFor(r.contextValue, true), r.kind === 'prLink' ? ['openPullRequest'] : [], `${r.contextValue} inline`);
      assert.notDeepEqual(actionsFor(r.contextValue), [], `${r.contextValue} has no actions`);
    }
    const prLast = presentChildren(record(full.slice(0, 3)), NOW, english, formatTime).at(-1)!;
    assert.equal(prLast.contextValue, 'prLink last');
    assert.deepEqual(actionsFor(prLast.contextValue), ['copyPullRequestLink', 'followUp', 'openPullRequest']);
    const gone = presentChildren(record(full, { notFound: true }), NOW, english, formatTime).at(-1)!;
    assert.equal(gone.contextValue, 'status last notFound');
    assert.deepEqual(actionsFor(gone.contextValue), ['copyJobId'], 'no follow-up for a job the service no longer has');
  });

  it('shows what the preview and review slices record in words', () => {
    const rows = (entries: TimelineEntry[]) => presentChildren(record(entries), NOW, english, formatTime).map((r) => r.label);
    const t = at(1).toISOString();
    assert.deepEqual(
      rows([
        { at: t, kind: 'preview', state: 'requested' },
        { at: t, kind: 'preview', state: 'queued' },
        { at: t, kind: 'preview', state: 'in_progress' },
        { at: t, kind: 'preview', state: 'failure' },
        { at: t, kind: 'preview', state: 'notOffered' },
        { at: t, kind: 'review', action: 'diff' },
        { at: t, kind: 'review', action: 'checkout' },
        { at: t, kind: 'status', status: 'failed' },
        { at: t, kind: 'status', status: 'archived' },
      ]),
      [
        'Preview requested',
        'Preview queued',
        'Preview building',
        'Preview failed',
        'Previews are not on this plan',
        'Reviewed the changes',
        'Checked out the agent branch',
        'Failed',
        'Archived',
      ],
    );
  });
});

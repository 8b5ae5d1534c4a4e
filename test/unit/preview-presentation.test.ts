import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  previewBranch,
  previewFromTimeline,
  previewLogLines,
  previewTimelineEntry,
  previewTooltipMarkdown,
  previewUrlOf,
  previewWords,
} from '../../src/agent/core/previewPresentation';
import { JobStore } from '../../src/agent/core/jobStore';
import { ServiceError } from '../../src/api/errors';
import { MemoryMemento } from '../api/helpers';
import type { JobPreview } from '../../src/agent/core/previewRunner';
import { english } from '../../src/common/l10n';

// How a job's preview shows on its row and in the output channel, from what the service sent:
// only an http(s) address is shown or opened, a summary cannot write Markdown into the tooltip,
// and a log line cannot hide or reorder text. And which rows offer Open Preview (package.json).

const preview = (patch: Partial<JobPreview>): JobPreview => ({ jobId: 'job_1', branch: 'docs-agent/1', followUps: 0, phase: 'requested', ...patch });

/** A finished job on the branch `docs-agent/1`, created at `at`. */
const finishedJob = (at: string) => ({
  id: 'job_1',
  status: 'completed' as const,
  source: { repository: 'https://github.com/acme/acme-docs', ref: 'docs-agent/1' },
  model: 'm',
  prLink: null,
  createdAt: at,
  archivedAt: null,
});

describe('preview presentation', () => {
  it('says where the preview is, with the URL once it succeeded', () => {
    assert.equal(previewWords(preview({ phase: 'requested' }), english), 'Preview requested');
    assert.equal(previewWords(preview({ phase: 'queued', previewUrl: 'https://p.example/' }), english), 'Preview queued');
    assert.equal(previewWords(preview({ phase: 'in_progress' }), english), 'Preview building');
    assert.equal(previewWords(preview({ phase: 'success', previewUrl: 'https://p.example/x/' }), english), 'Preview: https://p.example/x/');
    assert.equal(previewWords(preview({ phase: 'failure' }), english), 'Preview failed');
    assert.equal(previewWords(preview({ phase: 'error' }), english), 'Preview not available');
  });

  it('never shows or opens an address that is not http(s) or carries a user name', () => {
    for (const bad of ['javascript:alert(1)', 'command:workbench.action.terminal.new', 'file:///etc/passwd', 'https://user:pw@p.example/']) {
      const p = preview({ phase: 'success', previewUrl: bad });
      assert.equal(previewUrlOf(p), undefined, bad);
      assert.equal(previewWords(p, english), 'Preview ready', bad);
    }
  });

  it("escapes the service's summary in the tooltip: no link, no image, no HTML", () => {
    const md = previewTooltipMarkdown(
      preview({ phase: 'failure', summary: '[Fix](https://evil.example) ![x](https://evil.example/i.png) <img src=x>' }),
      english,
    );
    assert.ok(!/[^\\]\]\(/.test(md), `an unescaped link: ${md}`);
    assert.ok(!md.includes('<img'), md);
    assert.match(md, /^Preview failed \(/);
  });

  it('log lines lose control and bidi characters and line breaks', () => {
    const lines = previewLogLines(preview({ logs: ['\u001b[31mError\u001b[0m: broken', 'a\u202egnp.exe', 'one\r\ntwo'] }));
    assert.deepEqual(lines, ['[31mError[0m: broken', 'agnp.exe', 'one two']);
  });

  it('sends a branch only when it is one line of sane length', () => {
    assert.equal(previewBranch('docs-agent/1a2b'), 'docs-agent/1a2b');
    assert.equal(previewBranch(null), undefined);
    assert.equal(previewBranch(''), undefined);
    assert.equal(previewBranch('a\nb'), undefined);
    assert.equal(previewBranch(' main'), undefined);
    assert.equal(previewBranch('x'.repeat(256)), undefined);
  });

  it('Open Preview is offered on a job row flagged `preview`, inline and in its menu, and hidden once not offered', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const menus: { command: string; when: string; group: string }[] = pkg.contributes.menus['view/item/context'].filter(
      (m: { command: string }) => m.command === 'docsAssistant.agent.openPreview',
    );
    assert.deepEqual(menus.map((m) => m.group).sort(), ['1_actions@3', 'inline@3']);
    for (const m of menus) {
      assert.match(m.when, /!docsAssistant\.previewNotOffered/);
      const re = new RegExp(/viewItem =~ \/(.+)\/$/.exec(m.when)![1]!);
      assert.ok(re.test('job completed pr preview'));
      assert.ok(re.test('job active preview'));
      assert.ok(!re.test('job completed pr'), 'not without the flag (no branch, or previews not offered)');
      assert.ok(!re.test('prLink') && !re.test('followUp'));
    }
    const palette = pkg.contributes.menus.commandPalette.find((m: { command: string }) => m.command === 'docsAssistant.agent.openPreview');
    assert.match(palette.when, /!docsAssistant\.previewNotOffered/);
  });

  it("keeps the preview's request and its end in the job's timeline, not each poll, and the store takes them", () => {
    const at = '2026-11-27T04:00:00.000Z';
    assert.deepEqual(previewTimelineEntry(preview({ phase: 'requested' }), at), { at, kind: 'preview', state: 'requested' });
    assert.equal(previewTimelineEntry(preview({ phase: 'queued' }), at), undefined);
    assert.equal(previewTimelineEntry(preview({ phase: 'in_progress' }), at), undefined);
    const success = previewTimelineEntry(preview({ phase: 'success', previewUrl: 'https://p.example/x/' }), at);
    assert.deepEqual(success, { at, kind: 'preview', state: 'success', url: 'https://p.example/x/' });
    assert.deepEqual(previewTimelineEntry(preview({ phase: 'success', previewUrl: 'javascript:alert(1)' }), at), { at, kind: 'preview', state: 'success' });
    assert.deepEqual(previewTimelineEntry(preview({ phase: 'failure' }), at), { at, kind: 'preview', state: 'failure' });
    const notOffered = new ServiceError({ reason: { code: 'notOffered', feature: 'preview', status: 403 } });
    assert.deepEqual(previewTimelineEntry(preview({ phase: 'error', error: notOffered }), at), { at, kind: 'preview', state: 'notOffered' });
    assert.equal(previewTimelineEntry(preview({ phase: 'error', error: new ServiceError({ reason: { code: 'timeout' } }) }), at), undefined);

    const memento = new MemoryMemento();
    const store = new JobStore(memento, 'jobs');
    store.add(finishedJob(at), 'Instruction: x');
    store.appendTimeline('job_1', success!);
    const reloaded = new JobStore(memento.copy(), 'jobs').get('job_1')!;
    assert.deepEqual(reloaded.timeline?.at(-1), success);
  });

  it('after a reload, a ready preview comes back from the timeline, unless a follow-up came after it', () => {
    const memento = new MemoryMemento();
    const store = new JobStore(memento, 'jobs');
    const at = '2026-11-27T04:00:00.000Z';
    store.add(finishedJob(at), 'Instruction: x');
    assert.equal(previewFromTimeline(store.get('job_1')!), undefined, 'no preview yet');
    store.appendTimeline('job_1', { at, kind: 'preview', state: 'requested' });
    store.appendTimeline('job_1', { at, kind: 'preview', state: 'success', url: 'https://p.example/x/' });
    const back = previewFromTimeline(new JobStore(memento.copy(), 'jobs').get('job_1')!);
    assert.deepEqual(back, { jobId: 'job_1', branch: 'docs-agent/1', followUps: 0, phase: 'success', previewUrl: 'https://p.example/x/' });
    store.appendTimeline('job_1', { at, kind: 'followUp', text: 'also the FAQ' });
    assert.equal(previewFromTimeline(store.get('job_1')!), undefined, 'the branch moved on after that preview');
    store.appendTimeline('job_1', { at, kind: 'preview', state: 'failure' });
    assert.equal(previewFromTimeline(store.get('job_1')!), undefined, 'the last build failed');
  });
});

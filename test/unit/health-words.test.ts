import * as assert from 'node:assert/strict';
import type { AssistantConversationRecord, FeedbackEntry, SearchRecord } from '../../src/api/types';
import { english } from '../../src/common/l10n';
import type { PageSignals } from '../../src/health/core/readerSignals';
import {
  LABEL_MAX_CHARS,
  TOOLTIP_MAX_CHARS,
  feedbackDescription,
  feedbackLabel,
  feedbackTooltip,
  lensTitle,
  pageCounts,
  pageDescription,
  pageLabel,
  questionLabel,
  questionTooltip,
  searchDescription,
  searchLabel,
  snippetLensTitle,
} from '../../src/health/core/signalsWords';

// The words of Docs Health: the lens title as the issue writes it, parts that are zero left out,
// and reader text made one plain, visible, bounded line wherever it is shown.

const HOSTILE = `<img src=x onerror=alert(1)> [run](command:workbench.action.terminal.new) [js](javascript:alert(1)) \u202eevil\u202c\u0007\n\n# heading\n${'A'.repeat(100_000)}`;

const fb = (over: Partial<FeedbackEntry> = {}): FeedbackEntry => ({
  id: 'f',
  path: '/getting-started',
  comment: 'Install fails',
  createdAt: '2026-11-20T08:00:00Z',
  source: 'contextual',
  status: 'pending',
  helpful: false,
  ...over,
});
const conv: AssistantConversationRecord = {
  id: 'c',
  timestamp: '2026-11-21T00:00:00Z',
  query: HOSTILE,
  response: HOSTILE,
  responseType: 'clarifying_question',
  sources: [],
  resolutionStatus: 'unanswered',
  queryCategory: null,
};
const page = (over: Partial<PageSignals> = {}): PageSignals => ({
  page: '/getting-started',
  file: { folder: 'file:///ws', path: 'getting-started.md' },
  thumbsUp: 12,
  thumbsDown: 7,
  comments: [fb(), fb(), fb()],
  snippets: [],
  unanswered: [conv, conv],
  ...over,
});

function assertInert(text: string, max: number): void {
  assert.ok(text.length <= max + 80, `bounded: ${text.length}`);
  // eslint-disable-next-line no-control-regex -- control characters are what is checked for
  assert.ok(!/[\n\r\u0000-\u001f\u202a-\u202e\u2066-\u2069]/.test(text), 'one line, visible characters only');
}

describe('signalsWords', () => {
  it('writes the lens title as the issue does, leaving out what is zero', () => {
    assert.equal(lensTitle(pageCounts(page()), 30, english), '👎 7 · 👍 12 · 3 comments · 2 unanswered questions (last 30 days)');
    assert.equal(lensTitle(pageCounts(page({ thumbsUp: 0, comments: [fb()], unanswered: [] })), 7, english), '👎 7 · 1 comment (last 7 days)');
    assert.equal(lensTitle(pageCounts(page({ thumbsUp: 0, thumbsDown: 0, comments: [], unanswered: [] })), 30, english), '');
  });

  it('counts only the snippets not placed on a code block on the page lens', () => {
    const p = page({ thumbsUp: 0, thumbsDown: 0, comments: [], unanswered: [], snippets: [fb({ source: 'code_snippet' }), fb({ source: 'code_snippet' })] });
    assert.equal(lensTitle(pageCounts(p, 1), 30, english), '1 code snippet comment (last 30 days)');
    assert.equal(lensTitle(pageCounts(p, 2), 30, english), '');
    assert.equal(snippetLensTitle(2, 90, english), '💬 2 reader comments on this code (last 90 days)');
  });

  it('describes pages, comments and searches with their numbers and dates', () => {
    assert.equal(pageDescription(page(), english), '👎 7 · 👍 12 · 3 comments · 2 unanswered questions · latest 2026-11-20');
    assert.match(pageDescription(page({ file: undefined }), english), /no file in the workspace$/);
    assert.equal(feedbackDescription(fb({ status: 'in_progress' }), english), '👎 · 2026-11-20 · in progress');
    const s: SearchRecord = { searchQuery: 'webhook retries', hits: 120, ctr: 0.041, topClickedPage: null, lastSearchedAt: '2026-11-19T00:00:00Z' };
    assert.equal(searchLabel(s), 'webhook retries');
    assert.equal(searchDescription(s, english), '120 searches · 4% clicked through · last 2026-11-19');
  });

  it('makes hostile reader text one bounded, visible line in every label, description and tooltip', () => {
    const e = fb({ comment: HOSTILE, path: HOSTILE, code: HOSTILE, filename: HOSTILE });
    const p = page({ page: HOSTILE, comments: [e] });
    assertInert(feedbackLabel(e, english), LABEL_MAX_CHARS);
    assertInert(feedbackTooltip(e, HOSTILE, english), TOOLTIP_MAX_CHARS + LABEL_MAX_CHARS);
    assertInert(pageLabel(p), LABEL_MAX_CHARS);
    assertInert(pageDescription(p, english), LABEL_MAX_CHARS);
    assertInert(questionLabel(conv), LABEL_MAX_CHARS);
    assertInert(questionTooltip(conv, english), 2 * TOOLTIP_MAX_CHARS);
    assertInert(searchLabel({ searchQuery: HOSTILE, hits: 1, ctr: 0, topClickedPage: null, lastSearchedAt: null }), LABEL_MAX_CHARS);
    assert.ok(feedbackLabel(e, english).endsWith('…'));
    assert.ok(!feedbackLabel(e, english).includes('evil\u202c'));
    assert.match(feedbackLabel(e, english), /^<img src=x onerror=alert\(1\)> \[run\]\(command:/, 'shown as the text it is, for a plain-text renderer');
  });
});

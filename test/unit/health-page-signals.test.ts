import * as assert from 'node:assert/strict';
import type { AssistantConversationRecord, FeedbackEntry, SearchRecord } from '../../src/api/types';
import { DocsSiteMap } from '../../src/host/core/docsSiteMap';
import { groupPages } from '../../src/health/core/pageSignals';
import { clarifyingTurns, lowClickSearches, unansweredQuestions } from '../../src/health/core/signalLists';

// Reader signals grouped by page, each page mapped to its file through the site's navigation,
// ranked by what needs attention; a page that maps to no file is listed, never dropped.

const site = new DocsSiteMap([{ folder: 'file:///ws', base: '', files: new Set(['getting-started.md', 'webhooks.md', 'cli.md']) }]);
const fileFor = (page: string) => site.fileFor(page);

let n = 0;
function fb(path: string, over: Partial<FeedbackEntry> = {}): FeedbackEntry {
  n++;
  return {
    id: `fb_${n}`,
    path,
    comment: null,
    createdAt: `2026-11-${String(28 - (n % 27)).padStart(2, '0')}T10:00:00Z`,
    source: 'contextual',
    status: 'pending',
    ...over,
  };
}
function conv(query: string, urls: string[], over: Partial<AssistantConversationRecord> = {}): AssistantConversationRecord {
  n++;
  return {
    id: `c_${n}`,
    timestamp: '2026-11-20T10:00:00Z',
    query,
    response: '',
    responseType: 'answer',
    sources: urls.map((url) => ({ title: url, url })),
    resolutionStatus: 'unanswered',
    queryCategory: null,
    ...over,
  };
}

describe('pageSignals', () => {
  const feedback = [
    ...Array.from({ length: 7 }, () => fb('/getting-started', { helpful: false })),
    ...Array.from({ length: 12 }, () => fb('https://docs.example.com/getting-started#install', { helpful: true })),
    fb('/getting-started', { comment: 'The install step fails on Windows', helpful: false }),
    fb('/getting-started/', { comment: '  ', helpful: true }),
    fb('/webhooks', { comment: 'Which header has the signature?' }),
    fb('/cli', { source: 'code_snippet', code: 'relay send --queue jobs', comment: 'flag is wrong' }),
    fb('/old/removed-page', { comment: 'This page is gone', helpful: false }),
    fb('javascript:alert(1)', { comment: 'odd path' }),
  ];
  const conversations = [
    conv('How do I rotate keys?', ['/getting-started', 'https://docs.example.com/getting-started']),
    conv('Proxy support?', ['/getting-started']),
    conv('Answered one', ['/getting-started'], { resolutionStatus: 'answered' }),
    conv('Which region?', ['/faq-gone']),
  ];

  it('groups by the normalized page: thumbs, comments (with words only), snippets, unanswered questions', () => {
    const pages = groupPages({ feedback, conversations }, fileFor);
    const gs = pages.find((p) => p.page === '/getting-started')!;
    assert.deepEqual(gs.file, { folder: 'file:///ws', path: 'getting-started.md' });
    assert.equal(gs.thumbsDown, 8);
    assert.equal(gs.thumbsUp, 13);
    assert.deepEqual(
      gs.comments.map((c) => c.comment),
      ['The install step fails on Windows'],
    );
    assert.deepEqual(
      gs.unanswered.map((c) => c.query),
      ['How do I rotate keys?', 'Proxy support?'],
      'each question once per page, answered ones left out',
    );
    const cli = pages.find((p) => p.page === '/cli')!;
    assert.equal(cli.snippets.length, 1);
    assert.equal(cli.comments.length, 0, 'a snippet is not also a comment');
  });

  it('lists pages that map to no file, and odd paths, never dropping them', () => {
    const pages = groupPages({ feedback, conversations }, fileFor);
    const removed = pages.find((p) => p.page === '/old/removed-page')!;
    assert.equal(removed.file, undefined);
    assert.equal(removed.comments.length, 1);
    assert.ok(pages.some((p) => p.page === 'javascript:alert(1)' && p.file === undefined && p.comments.length === 1));
    assert.ok(pages.some((p) => p.page === '/faq-gone' && p.unanswered.length === 1));
  });

  it('ranks by thumbs-down, then comments, then unanswered questions', () => {
    const pages = groupPages({ feedback, conversations }, fileFor);
    assert.equal(pages[0]!.page, '/getting-started');
    assert.equal(pages[1]!.page, '/old/removed-page');
    const ranks = pages.map((p) => [p.thumbsDown, p.comments.length, p.unanswered.length]);
    for (let i = 1; i < ranks.length; i++) assert.ok(compare(ranks[i - 1]!, ranks[i]!) >= 0, JSON.stringify(ranks));
  });

  it('takes the thumbs from the by-page counts when the service offers them (every entry, not only those kept)', () => {
    const pages = groupPages(
      {
        feedback,
        conversations: [],
        byPage: [
          { path: '/getting-started', thumbsUp: 40, thumbsDown: 30, code: 0, total: 70 },
          { path: 'https://docs.example.com/getting-started', thumbsUp: 2, thumbsDown: 1, code: 0, total: 3 },
          { path: '/installation', thumbsUp: 0, thumbsDown: 4, code: 0, total: 4 },
        ],
      },
      fileFor,
    );
    const gs = pages.find((p) => p.page === '/getting-started')!;
    assert.equal(gs.thumbsDown, 31);
    assert.equal(gs.thumbsUp, 42);
    assert.ok(pages.some((p) => p.page === '/installation' && p.thumbsDown === 4));
    assert.equal(pages.find((p) => p.page === '/webhooks')!.thumbsUp, 0);
  });
});

describe('signalLists', () => {
  it('unanswered questions and clarifying turns, newest first', () => {
    const list = [
      conv('old', [], { timestamp: '2026-11-01T00:00:00Z' }),
      conv('new', [], { timestamp: '2026-11-25T00:00:00Z' }),
      conv('answered', [], { resolutionStatus: 'answered' }),
      conv('clarify', [], { responseType: 'clarifying_question', resolutionStatus: 'answered' }),
    ];
    assert.deepEqual(
      unansweredQuestions(list).map((c) => c.query),
      ['new', 'old'],
    );
    assert.deepEqual(
      clarifyingTurns(list).map((c) => c.query),
      ['clarify'],
    );
  });

  it('searches with many hits and a low click-through, worst first', () => {
    const s = (q: string, hits: number, ctr: number): SearchRecord => ({ searchQuery: q, hits, ctr, topClickedPage: null, lastSearchedAt: null });
    const got = lowClickSearches([s('fine', 500, 0.8), s('few', 2, 0), s('bad', 40, 0.05), s('worse', 300, 0.1), s('borderline', 50, 0.5)]);
    assert.deepEqual(
      got.map((x) => x.searchQuery),
      ['worse', 'bad'],
    );
  });
});

function compare(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

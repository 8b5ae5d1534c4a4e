import * as assert from 'node:assert/strict';
import { historyIndex, MAX_SEARCH_CHARS, searchHistory, type SearchableConversation } from '../../src/chat/core/historySearch';

// Issue 19, item 3: the history quick pick finds a conversation by what was asked and answered in
// it, not only by its title. The search is plain text (case-insensitive, no pattern from the user),
// linear, and looks at most MAX_SEARCH_CHARS of each conversation.

function conversation(id: string, title: string, turns: [question: string, answer: string][]): SearchableConversation {
  return {
    id,
    title,
    turns: turns.map(([question, answer]) => ({ question, answer: { parts: [{ kind: 'text' as const, text: answer }] } })),
  };
}

const WEBHOOKS = conversation('c1', 'How do I configure webhooks?', [
  ['How do I configure webhooks?', 'Register an endpoint under Settings → Webhooks. Each delivery is signed with HMAC-SHA256; verify the signature header.'],
]);
const LIMITS = conversation('c2', 'What are the rate limits?', [['What are the rate limits?', 'The API allows 600 requests per minute per key.']]);
const BOTH = conversation('c3', 'Signatures', [['Are webhook payloads signed?', 'Yes.']]);

describe('history search', () => {
  it('finds a word that only an old answer holds, case-insensitively, with an excerpt around it', () => {
    const hits = searchHistory(historyIndex([LIMITS, WEBHOOKS]), 'hmac-sha256');
    assert.deepEqual(
      hits.map((h) => [h.id, h.where]),
      [['c1', 'answer']],
    );
    assert.match(hits[0]!.excerpt!, /signed with HMAC-SHA256; verify/);
    assert.equal(hits[0]!.title, 'How do I configure webhooks?');
  });

  it('matches questions, and every word of the query (in any order), not a pattern', () => {
    const index = historyIndex([LIMITS, WEBHOOKS, BOTH]);
    assert.deepEqual(
      searchHistory(index, 'PAYLOADS webhook').map((h) => h.id),
      ['c3'],
    );
    assert.equal(searchHistory(index, 'payloads webhook')[0]!.where, 'question');
    // A query that would be a regular expression is only text.
    assert.deepEqual(searchHistory(index, '.*'), []);
    assert.deepEqual(searchHistory(index, 'webhooks (').length, 0);
    assert.deepEqual(
      searchHistory(historyIndex([conversation('x', 't', [['what is a.*b?', '']])]), 'A.*B').map((h) => h.id),
      ['x'],
    );
  });

  it('ranks the whole phrase in a title first, then in a question, then in an answer; ties keep the newest first', () => {
    const index = historyIndex([
      conversation('answer', 'a', [['q', 'about rate limits here']]),
      conversation('question', 'b', [['any rate limits?', 'no']]),
      conversation('title', 'Rate limits', [['q', 'a']]),
      conversation('scattered', 'c', [['limits', 'the rate']]),
      conversation('answer2', 'd', [['q', 'Rate limits again']]),
    ]);
    assert.deepEqual(
      searchHistory(index, 'rate limits').map((h) => h.id),
      ['title', 'question', 'answer', 'answer2', 'scattered'],
    );
  });

  it('an empty query offers every conversation, in order, without an excerpt', () => {
    const hits = searchHistory(historyIndex([LIMITS, WEBHOOKS]), '   ');
    assert.deepEqual(
      hits.map((h) => [h.id, h.excerpt]),
      [
        ['c2', undefined],
        ['c1', undefined],
      ],
    );
  });

  it('an excerpt is one line, cut around the hit with ellipses, and shows no $(icon) syntax', () => {
    const long = `${'intro words '.repeat(20)}\n\nthe needle\tis here $(alert) ${'tail words '.repeat(20)}`;
    const [hit] = searchHistory(historyIndex([conversation('c', 't', [['q', long]])]), 'NEEDLE');
    assert.ok(hit?.excerpt);
    assert.ok(hit.excerpt.startsWith('…') && hit.excerpt.endsWith('…'), hit.excerpt);
    assert.doesNotMatch(hit.excerpt, /[\n\t]|\s{2}/);
    assert.match(hit.excerpt, /the needle is here/);
    assert.doesNotMatch(hit.excerpt, /\$\(alert\)/);
    assert.ok(hit.excerpt.length <= 140, `${hit.excerpt.length}`);
  });

  it('keeps offsets right when lower-casing changes a text’s length (İ)', () => {
    const [hit] = searchHistory(historyIndex([conversation('c', 't', [['q', 'İİİİ the word Zebra here']])]), 'zebra');
    assert.match(hit!.excerpt!, /the word Zebra here/);
  });

  it('looks at no more than MAX_SEARCH_CHARS of a conversation', () => {
    const filler = 'x'.repeat(MAX_SEARCH_CHARS);
    const index = historyIndex([
      conversation('c', 't', [
        ['q', filler],
        ['q2', 'findme'],
      ]),
    ]);
    assert.deepEqual(searchHistory(index, 'findme'), []);
    assert.equal(
      searchHistory(
        historyIndex([
          conversation('c', 't', [
            ['q', 'findme'],
            ['q2', filler],
          ]),
        ]),
        'findme',
      ).length,
      1,
    );
  });

  it('is linear: 20 conversations of MAX_SEARCH_CHARS each, searched per keystroke, in well under a second', () => {
    const big = Array.from({ length: 20 }, (_, i) => conversation(`c${i}`, `t${i}`, [['q', 'ab '.repeat(MAX_SEARCH_CHARS / 3)]]));
    const index = historyIndex(big);
    const started = Date.now();
    for (const q of ['a', 'ab', 'ab a', 'ab ab ab abc', 'b a b a b a b a b a zzz']) searchHistory(index, q);
    assert.ok(Date.now() - started < 1000, `${Date.now() - started} ms`);
  });
});

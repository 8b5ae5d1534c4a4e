import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_ANSWER_BYTES, MAX_CHIPS, MAX_CONTEXT_CHARS, MAX_INPUT_CHARS, MAX_QUESTION_CHARS, MAX_SELECTION_CHARS } from '../../src/api/limits';
import type { ChatSession } from '../../src/chat/core/chatSession';
import { ServiceError } from '../../src/api/errors';
import { ChatStore } from '../../src/chat/core/chatStore';
import { buildContextChip } from '../../src/host/core/selectionContext';
import { parseWebviewRequest } from '../../src/chat/core/webviewMessages';
import type { ContextChip } from '../../src/common/protocol';
import { testChatSession } from '../api/testChatSession';
import { MemoryMemento } from '../api/helpers';

// Issue 16, item 8: chips went up to 200,000 characters each, with no bound on how many a
// question carried, and the webview could send 200,000-character texts of any kind. A chip, the
// context of one question, a question and each text from the webview are now bounded.

function session(): { session: ChatSession; store: ChatStore } {
  let n = 0;
  const store = new ChatStore(new MemoryMemento(), () => `id-${n++}`);
  const s = testChatSession({
    store,
    client: async () => new ServiceError({ reason: { code: 'baseUrlMissing' } }), // not used here
  });
  return { session: s, store };
}

const chip = (id: string, chars: number, line = 1): ContextChip => ({
  id,
  type: 'code',
  path: `src/${id}.ts`,
  startLine: line,
  endLine: line,
  languageId: 'typescript',
  value: 'x'.repeat(chars),
});

describe('chat input is bounded (issue 16)', () => {
  it('a chip is never longer than MAX_SELECTION_CHARS, whatever the setting says', () => {
    const c = buildContextChip({ id: 'c', languageId: 'typescript', path: 'a.ts', startLine: 1, endLine: 1, text: 'y'.repeat(300_000), maxChars: 200_000 });
    assert.equal(c.value.length, MAX_SELECTION_CHARS);
    assert.equal(c.truncatedFrom, 300_000);
    assert.equal(MAX_SELECTION_CHARS, 50_000);
  });

  it('the setting offers no more than that: package.json maximum', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: { configuration: { properties: Record<string, { maximum?: number; default?: number }> } };
    };
    const setting = pkg.contributes.configuration.properties['docsAssistant.chat.maxSelectionChars']!;
    assert.equal(setting.maximum, MAX_SELECTION_CHARS);
    assert.ok(setting.default! <= MAX_SELECTION_CHARS);
  });

  it('the context of one question is at most MAX_CONTEXT_CHARS: a chip past it is cut to what is left, then none is taken', () => {
    const { session: s, store } = session();
    assert.deepEqual(s.attachChip(chip('a', 50_000)), { added: true });
    assert.deepEqual(s.attachChip(chip('b', 30_000)), { added: true });
    assert.deepEqual(s.attachChip(chip('c', 40_000)), { added: true });
    const c = store.pendingContext.find((x) => x.id === 'c')!;
    assert.equal(c.value.length, MAX_CONTEXT_CHARS - 80_000, 'cut to what was left');
    assert.equal(c.truncatedFrom, 40_000, 'and says so on the chip');
    const full = s.attachChip(chip('d', 10));
    assert.equal(full.added, false);
    assert.match(
      full.reason!,
      /^The question already carries 100,000 characters of selections, the most one question can\. Remove a selection to attach another\.$/,
    );
    assert.equal(
      store.pendingContext.reduce((n, x) => n + x.value.length, 0),
      MAX_CONTEXT_CHARS,
    );
    assert.equal(s.attach(chip('e', 10)), false, 'attach() says the same, for callers that only need yes or no');
  });

  it(`at most ${MAX_CHIPS} chips per question, and the same selection is refused with a reason`, () => {
    const { session: s, store } = session();
    for (let i = 0; i < MAX_CHIPS; i++) assert.equal(s.attachChip(chip(`c${i}`, 10, i + 1)).added, true);
    const more = s.attachChip(chip('one-more', 10, 999));
    assert.equal(more.added, false);
    assert.match(
      more.reason!,
      new RegExp(`^The question already carries ${MAX_CHIPS} selections, the most one question can\\. Remove one to attach another\\.$`),
    );
    assert.equal(store.pendingContext.length, MAX_CHIPS);
    const again = s.attachChip({ ...chip('c0', 10, 1), id: 'other-id' });
    assert.deepEqual(again, { added: false, reason: 'src/c0.ts:1 is already attached.' });
  });

  it(`a question longer than ${MAX_QUESTION_CHARS.toLocaleString('en-US')} characters is refused with what to do`, async () => {
    const { session: s, store } = session();
    const r = await s.ask('q'.repeat(MAX_QUESTION_CHARS + 1));
    assert.equal(r.accepted, false);
    assert.match(
      r.reason!,
      /^The question is 20,001 characters long; the most is 20,000\. Shorten it, or select the text in an editor and attach it with "Ask Docs About Selection"\.$/,
    );
    assert.equal(store.current.turns.length, 0);
    assert.equal((await s.ask('q'.repeat(MAX_QUESTION_CHARS))).accepted, true);
  });

  it('texts from the webview: what a question needs (with room to answer a too-long one), what an answer can hold', () => {
    const req = (name: string, payload: unknown) => parseWebviewRequest({ kind: 'request', id: 1, name, payload });
    assert.ok(req('send', { text: 'x'.repeat(MAX_INPUT_CHARS) }), 'long enough for the host to say why it is too long');
    assert.equal(req('send', { text: 'x'.repeat(MAX_INPUT_CHARS + 1) }), undefined);
    assert.equal(req('saveDraft', { text: 'x'.repeat(MAX_INPUT_CHARS + 1) }), undefined);
    assert.ok(MAX_INPUT_CHARS < 200_000 && MAX_INPUT_CHARS >= MAX_QUESTION_CHARS);
    assert.ok(req('copyCode', { code: 'x'.repeat(MAX_ANSWER_BYTES) }), 'a code block can be as long as an answer');
    assert.equal(req('insertCode', { code: 'x'.repeat(MAX_ANSWER_BYTES + 1) }), undefined);
  });
});

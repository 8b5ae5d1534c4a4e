import * as assert from 'node:assert/strict';
import { ServiceError, type ServiceErrorReason } from '../../src/api/errors';
import { createEmptyMessage } from '../../src/api/reducer';
import type { AssembledMessage } from '../../src/api/types';
import type { AssistantLike } from '../../src/assistant/core/assistant';
import type { ChatSession } from '../../src/chat/core/chatSession';
import { ChatStore } from '../../src/chat/core/chatStore';
import { english, type Translate } from '../../src/common/l10n';
import type { AnswerView, ErrorAction } from '../../src/common/protocol';
import { describeForUser } from '../../src/host/core/errorWords';
import { MemoryMemento } from '../api/helpers';
import { testChatSession } from '../api/testChatSession';

// Issue 17: the chat's core knows nothing of VS Code, so it is handed the translator
// (vscode.l10n.t in the extension). Everything it shows goes through it: a failed request in the
// host's words for its typed reason (src/host/core/errorWords.ts), with the buttons those words offer,
// and the chat's own words. A stand-in translator that marks what it translated shows which
// words went through it.

const NOW = new Date(2026, 10, 23, 14, 0, 0).getTime();
/** Translates into "⟦English⟧": a word without the brackets did not go through the translator. */
const marked: Translate = (message, ...args) => `⟦${english(message, ...args)}⟧`;

function chat(client: AssistantLike, memento = new MemoryMemento()): { session: ChatSession; store: ChatStore } {
  let n = 0;
  const store = new ChatStore(memento, () => `id-${n++}`, marked);
  const session = testChatSession({
    store,
    client: async () => client,
    now: () => NOW,
    t: marked,
  });
  return { session, store };
}

const failing = (err: ServiceError): AssistantLike => ({
  // eslint-disable-next-line require-yield
  async *send() {
    throw err;
  },
});
const answering = (message: AssembledMessage): AssistantLike => ({
  // eslint-disable-next-line require-yield
  async *send() {
    return message;
  },
});

async function answerTo(session: ChatSession, store: ChatStore, question = 'How do I rotate a key?'): Promise<AnswerView> {
  assert.deepEqual(await session.ask(question), { accepted: true });
  for (let i = 0; session.busy && i < 200; i++) await new Promise((r) => setTimeout(r, 5));
  return store.current.turns.at(-1)!.answer;
}

describe('the chat words what it shows through the translator it is given', () => {
  const cases: [name: string, reason: ServiceErrorReason, actions: ErrorAction[]][] = [
    ['404 for the domain: its setting', { code: 'domainNotFound', domain: 'acme' }, ['openSettings', 'retry']],
    ['404 for the thread: a new conversation', { code: 'threadGone', threadId: 'th_1' }, ['newConversation', 'retry']],
    ['401: the assistant key', { code: 'keyRefused', service: 'assistant' }, ['setAssistantKey', 'retry']],
    ['TLS: the address', { code: 'tls', host: 'docs.acme.test' }, ['openSettings', 'retry']],
    ['503: only Retry', { code: 'serverError' }, ['retry']],
    ['a key the chat has no button for (admin): only Retry', { code: 'keyRefused', service: 'agent' }, ['retry']],
  ];
  for (const [name, reason, actions] of cases) {
    it(`${name}`, async () => {
      const err = new ServiceError({ reason, status: 404, message: 'English for the log' });
      const { session, store } = chat(failing(err));
      const a = await answerTo(session, store);
      assert.equal(a.status, 'error');
      assert.equal(a.error!.message, describeForUser(err, marked, NOW).message, 'the host’s words for the reason');
      assert.match(a.error!.message, /^⟦.*⟧$/, 'translated');
      assert.notEqual(a.error!.message, err.message, 'never the client’s English');
      assert.deepEqual(a.error!.actions, actions);
    });
  }

  it('429: the words say when, and the countdown gets the same time', async () => {
    const err = new ServiceError({ reason: { code: 'rateLimited', service: 'assistant', retryAt: NOW + 7000 }, status: 429, retryAfterMs: 7000, message: 'x' });
    const { session, store } = chat(failing(err));
    const a = await answerTo(session, store);
    // Two sentences, each translated whole.
    assert.match(a.error!.message, /^⟦Too many requests: the service's rate limit was reached\.⟧ ⟦Try again after 14:00:07\.⟧$/);
    assert.equal(a.error!.retryAt, NOW + 7000);
    assert.deepEqual(a.error!.actions, ['retry']);
  });

  it('its own words: a refused question, an `error` chunk, skipped parts, a new conversation’s title, an interrupted answer', async () => {
    const message = createEmptyMessage();
    message.errors.push('The search backend timed out.');
    message.skippedChunks = 2;
    const memento = new MemoryMemento();
    const { session, store } = chat(answering(message), memento);
    assert.equal(store.current.title, '⟦New conversation⟧');
    assert.deepEqual(await session.ask('   '), { accepted: false, reason: '⟦Type a question first.⟧' });
    const a = await answerTo(session, store);
    assert.equal(a.error!.message, '⟦The service could not answer: The search backend timed out. Retry to ask again.⟧');
    assert.deepEqual(a.notices, [
      '⟦2 parts of the answer could not be read and were skipped.⟧',
      '⟦The service reported a problem: The search backend timed out.⟧',
    ]);

    // A window reloaded while an answer streamed: the store says so when it reads it back.
    const turns = store.current.turns.map((t) => ({ ...t, answer: { ...t.answer, status: 'streaming' as const } }));
    store.updateCurrent({ turns });
    const reloaded = new ChatStore(memento.copy(), () => 'x', marked);
    assert.equal(reloaded.current.turns[0]!.answer.notices.at(-1), '⟦Interrupted: the window was reloaded while this answer was streaming.⟧');
  });
});

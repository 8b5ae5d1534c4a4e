import * as assert from 'node:assert/strict';
import { lastExchange, messagesFor, MAX_ANSWER_CHARS } from '../../src/participant/core/history';
import { MAX_SESSIONS, SessionThreads } from '../../src/assistant/core/sessionThreads';
import { ThreadStore } from '../../src/assistant/core/threads';
import { SESSION_KEY, sessionOf } from '../../src/participant/core/session';
import { MemoryMemento } from '../api/helpers';

const ME = 'docs-assistant.docs';
const ask = (prompt: string, participant = ME) => ({ participant, prompt, references: [] });
const answer = (md: string, session?: string, participant = ME) => ({
  participant,
  response: [{ value: { value: md } }],
  result: { metadata: session ? { [SESSION_KEY]: session } : {} },
});

describe('@docs: one chat session is one thread', () => {
  it('finds the session in the newest answer of this participant, ignoring others', () => {
    assert.equal(sessionOf([], ME), undefined);
    const history = [ask('q1'), answer('a1', 's-1'), ask('x', 'other'), answer('b', 's-other', 'other')];
    assert.equal(sessionOf(history, ME), 's-1');
  });

  it('keeps the thread id and key per session, out of the history, and keeps an earlier key when a follow-up brings none', async () => {
    const memento = new MemoryMemento();
    const threads = new ThreadStore(new SessionThreads(memento));
    await threads.set('s-1', { threadId: 'th_1', threadKey: 'tk_secret' });
    await threads.set('s-1', { threadId: 'th_1' });
    assert.deepEqual(threads.get('s-1'), { threadId: 'th_1', threadKey: 'tk_secret' });
    await threads.set('s-2', { threadId: 'th_2' });
    assert.deepEqual(threads.get('s-2'), { threadId: 'th_2' });
    // What the history holds of a session is its id alone.
    const history = [ask('q'), answer('a', 's-1')];
    assert.doesNotMatch(JSON.stringify(history), /tk_secret|th_1/);
    await threads.forget('s-1');
    assert.equal(threads.get('s-1'), undefined);
  });

  it(`remembers at most ${MAX_SESSIONS} sessions, dropping the least recently used`, async () => {
    const memento = new MemoryMemento();
    let now = 0;
    const threads = new ThreadStore(new SessionThreads(memento, () => ++now));
    for (let i = 0; i <= MAX_SESSIONS; i++) await threads.set(`s${i}`, { threadId: `t${i}` });
    assert.equal(threads.get('s0'), undefined);
    assert.deepEqual(threads.get(`s${MAX_SESSIONS}`), { threadId: `t${MAX_SESSIONS}` });
  });

  it('reads a damaged store as empty rather than failing', () => {
    const memento = new MemoryMemento();
    memento.data.set('docsAssistant.participant.threads', JSON.stringify({ a: null, b: { threadId: 3 }, c: 'x' }));
    assert.equal(new ThreadStore(new SessionThreads(memento)).get('a'), undefined);
  });
});

describe('@docs: the history as the next request’s messages', () => {
  it('sends this participant’s earlier questions and answers, then the new question', () => {
    const history = [ask('How do I start?'), answer('Run `relay start`.'), ask('hi', 'other'), answer('hello', undefined, 'other')];
    const messages = messagesFor(history, ME, 'And stop?');
    assert.deepEqual(
      messages.map((m) => [m.role, m.parts[0]!.text]),
      [
        ['user', 'How do I start?'],
        ['assistant', 'Run `relay start`.'],
        ['user', 'And stop?'],
      ],
    );
  });

  it('caps an earlier answer, and /fix finds the last exchange', () => {
    const long = 'x'.repeat(MAX_ANSWER_CHARS * 2);
    const messages = messagesFor([ask('q'), answer(long)], ME, 'next');
    assert.equal(messages[1]!.parts[0]!.text.length, MAX_ANSWER_CHARS);
    assert.deepEqual(lastExchange([ask('q1'), answer('a1'), ask('q2'), answer('a2')], ME), { question: 'q2', answer: 'a2' });
    assert.equal(lastExchange([], ME), undefined);
  });
});

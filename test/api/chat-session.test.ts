import * as assert from 'node:assert/strict';
import {
  AssistantClient,
  type AssembledMessage,
  type AssistantRequest,
  type AssistantStreamEvent,
  type RequestSettings as ServiceSettings,
} from '../../src/api';
import { emptyAnswer, answerText } from '../../src/chat/core/answerView';
import { Assistant, type AssistantLike } from '../../src/assistant/core/assistant';
import { notSetUpError, setupStatus } from '../../src/assistant/core/setupState';
import { ChatSession } from '../../src/chat/core/chatSession';
import { ChatStore } from '../../src/chat/core/chatStore';
import { buildContextChip } from '../../src/host/core/selectionContext';
import { applyPatches } from '../../src/common/answerPatches';
import type { AnswerPatch, AnswerView, ChatSnapshot } from '../../src/common/protocol';
import { FAULT_HEADER, startEmulator, type RunningEmulator } from '../emulator';
import { MemoryMemento } from './helpers';

// The chat's conversation model (ChatSession + ChatStore + answerView) driving the real
// AssistantClient against the emulator over real HTTP. Only what VS Code would provide is
// stood in for: workspaceState (an in-memory memento that round-trips through JSON, as VS Code's
// does) and the post to the webview (recorded, so the patches can be replayed).

const QUESTION = 'How do I configure webhooks?';
const FOLLOW_UP = 'And how do I verify the signature?';

interface Post {
  turnId: string;
  patches: AnswerPatch[];
  at: number;
}

interface Chat {
  session: ChatSession;
  store: ChatStore;
  memento: MemoryMemento;
  posts: Post[];
  settings: RequestSettings;
  /** `x-emulator-fault` for the next requests, or undefined for a clean answer. */
  fault: string | undefined;
  /** Chunk events the client yielded (counted on the way through, the client is untouched). */
  chunks: number;
}

interface ChatOptions {
  memento?: MemoryMemento;
  apiKey?: string | null;
  settings?: Partial<RequestSettings>;
  schedule?: (fn: () => void) => void;
}

/** What a question carries from the settings, and the file being read (the editor's, in the extension). */
type RequestSettings = ServiceSettings & { currentPath?: string };

const SETTINGS: RequestSettings = { fp: 'anonymous', retrievalPageSize: 5, filter: null };

async function until(cond: () => boolean, what: string, ms = 8000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const view = (chat: Chat): ChatSnapshot => chat.session.snapshot({ agentAvailable: false });
const lastAnswer = (chat: Chat): AnswerView => view(chat).turns.at(-1)!.answer;
const bodies = (emu: RunningEmulator): Record<string, unknown>[] => emu.requests.map((r) => r.body as Record<string, unknown>);
const textOf = (a: AnswerView): string => answerText(a);

describe('ChatSession against the emulator (real AssistantClient)', function () {
  this.timeout(20_000);
  let emu: RunningEmulator;
  /** The clean answer to QUESTION: stopped and dropped answers must be a prefix of it. */
  let fullAnswer: string;

  function chat(opts: ChatOptions = {}): Chat {
    const memento = opts.memento ?? new MemoryMemento();
    let n = 0;
    const newId = () => `id-${(n++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const store = new ChatStore(memento, newId);
    const c: Chat = {
      memento,
      store,
      posts: [],
      settings: { ...SETTINGS, ...opts.settings },
      fault: undefined,
      chunks: 0,
      session: undefined as unknown as ChatSession,
    };
    const apiKey = opts.apiKey === undefined ? emu.assistantKey : opts.apiKey;
    c.session = new ChatSession({
      store,
      assistant: new Assistant({
        client: async () => {
          if (apiKey === null) return notSetUpError(setupStatus({ baseUrl: emu.url, domain: emu.domain, hasAssistantKey: false }))!;
          const fault = c.fault;
          const real = new AssistantClient({
            baseUrl: emu.url,
            domain: emu.domain,
            apiKey,
            requestTimeoutMs: 3000,
            streamIdleTimeoutMs: 3000,
            fetch: (input, init = {}) =>
              fetch(input, fault ? { ...init, headers: { ...(init.headers as Record<string, string>), [FAULT_HEADER]: fault } } : init),
          });
          return counting(real, () => c.chunks++);
        },
        settings: () => c.settings,
      }),
      currentPath: () => c.settings.currentPath,
      newId,
      ...(opts.schedule ? { schedule: opts.schedule } : {}),
    });
    c.session.onDidPatch(({ turnId, patches }) => c.posts.push({ turnId, patches, at: Date.now() }));
    return c;
  }

  /** Asks and waits until the answer has settled (done, stopped or error). */
  async function ask(c: Chat, text: string): Promise<AnswerView> {
    const r = await c.session.ask(text);
    assert.equal(r.accepted, true, r.reason);
    return settled(c);
  }

  async function settled(c: Chat): Promise<AnswerView> {
    await until(() => !c.session.busy && !['waiting', 'streaming'].includes(lastAnswer(c).status), 'the answer to settle');
    return lastAnswer(c);
  }

  /** What the webview shows for a turn: the answer it was first given, with every patch since applied. */
  function replay(c: Chat, turnId: string, base: AnswerView = emptyAnswer(), fromPost = 0): AnswerView {
    return c.posts
      .slice(fromPost)
      .filter((p) => p.turnId === turnId)
      .reduce((v, p) => applyPatches(v, p.patches), base);
  }

  before(async () => {
    emu = await startEmulator({ port: 0, deltaDelayMs: 0, slowDripMs: 40 });
    fullAnswer = textOf(await ask(chat(), QUESTION));
    assert.ok(fullAnswer.length > 200, 'the emulator answers at length');
  });
  after(async () => {
    await emu?.close();
  });
  beforeEach(() => emu.reset());

  describe('threads', () => {
    it('the first question sends threadId null and one user message with parts; the answer streams in and brings a thread', async () => {
      const c = chat();
      const answer = await ask(c, QUESTION);
      assert.equal(answer.status, 'done');
      assert.equal(textOf(answer), fullAnswer);
      assert.ok(answer.sources.length > 0 && answer.sources.every((s) => s.url?.startsWith(emu.url)), 'sources listed');
      assert.ok(
        answer.parts.some((p) => p.kind === 'tool' && p.state === 'done'),
        'the search shows as a tool line',
      );
      const [body] = bodies(emu);
      assert.equal(body!.threadId, null);
      assert.equal('threadKey' in body!, false);
      assert.deepEqual(body!.messages, [{ id: (body!.messages as { id: string }[])[0]!.id, role: 'user', parts: [{ type: 'text', text: QUESTION }] }]);
      assert.match(c.store.current.threadId ?? '', /^thr_/);
      assert.match(c.store.current.threadKey ?? '', /^tk_/);
      assert.equal(c.store.current.title, QUESTION);
    });

    it('a follow-up sends threadId and threadKey from the first answer and the whole conversation as parts; a third turn still carries the key', async () => {
      const c = chat();
      const first = await ask(c, QUESTION);
      const { threadId, threadKey } = c.store.current;
      const second = await ask(c, FOLLOW_UP);
      assert.equal(second.status, 'done', second.error?.message);
      await ask(c, 'Which events are there?');
      assert.equal(c.store.current.threadId, threadId, 'still the same thread');
      const [, b2, b3] = bodies(emu);
      assert.equal(b2!.threadId, threadId);
      assert.equal(b2!.threadKey, threadKey);
      assert.equal(b3!.threadId, threadId);
      assert.equal(b3!.threadKey, threadKey, 'the key came only with the first answer, yet goes with every follow-up');
      const strip = (m: unknown) => {
        const { role, parts } = m as { role: string; parts: unknown };
        return { role, parts };
      };
      assert.deepEqual((b2!.messages as unknown[]).map(strip), [
        { role: 'user', parts: [{ type: 'text', text: QUESTION }] },
        { role: 'assistant', parts: [{ type: 'text', text: textOf(first) }] },
        { role: 'user', parts: [{ type: 'text', text: FOLLOW_UP }] },
      ]);
      assert.equal((b3!.messages as unknown[]).length, 5);
      const ids = (b3!.messages as { id: string }[]).map((m) => m.id);
      assert.equal(new Set(ids).size, ids.length, 'message ids are unique');
      assert.ok(emu.requests.every((r) => r.status === 200));
    });

    it('"New Conversation" starts over with threadId null, and the old one goes to the history', async () => {
      const c = chat();
      await ask(c, QUESTION);
      const old = c.store.current;
      c.session.newConversation();
      assert.equal(view(c).turns.length, 0);
      await ask(c, 'What is an API key?');
      const b = bodies(emu)[1]!;
      assert.equal(b.threadId, null);
      assert.equal('threadKey' in b, false);
      assert.equal((b.messages as unknown[]).length, 1, 'nothing of the old conversation is sent');
      assert.notEqual(c.store.current.threadId, old.threadId);
      assert.deepEqual(
        c.store.history.map((h) => h.id),
        [old.id],
      );
    });

    it('a 404 on a follow-up (the service forgot the thread) clears the thread and offers a new conversation; the next question starts a new thread', async () => {
      const c = chat();
      await ask(c, QUESTION);
      emu.reset(); // the service no longer knows the thread
      const failed = await ask(c, FOLLOW_UP);
      assert.equal(failed.status, 'error');
      assert.equal(failed.error?.kind, 'notFound');
      assert.deepEqual(failed.error?.actions, ['newConversation', 'retry']);
      assert.match(failed.error!.message, /Start a new conversation/);
      assert.equal(c.store.current.threadId, null);
      assert.equal(c.store.current.threadKey, null);
      const again = await ask(c, 'Which events are there?');
      assert.equal(again.status, 'done');
      const [b404, bNext] = bodies(emu);
      assert.ok(typeof b404!.threadId === 'string');
      assert.equal(bNext!.threadId, null);
      assert.equal('threadKey' in bNext!, false);
      assert.match(c.store.current.threadId ?? '', /^thr_/);
    });

    it('a question is not accepted twice while the first is still on its way (two views, a double Enter)', async () => {
      const c = chat();
      const [a, b] = await Promise.all([c.session.ask(QUESTION), c.session.ask(FOLLOW_UP)]);
      assert.equal(a.accepted, true);
      assert.equal(b.accepted, false);
      await settled(c);
      assert.equal(emu.requests.length, 1);
      assert.equal(view(c).turns.length, 1);
      assert.equal(await c.session.ask('   ').then((r) => r.accepted), false, 'blank input is refused');
    });
  });

  describe('persistence and history', () => {
    it('a new window rebuilds the conversation from workspaceState and continues the same thread', async () => {
      const c = chat();
      const first = await ask(c, QUESTION);
      const { threadId, threadKey } = c.store.current;
      const reloaded = chat({ memento: c.memento.copy() });
      const snap = view(reloaded);
      assert.equal(snap.conversationId, c.store.current.id);
      assert.equal(snap.turns.length, 1);
      assert.deepEqual(snap.turns[0]!.answer, first, 'the answer comes back exactly');
      assert.deepEqual(snap.inputHistory, [QUESTION]);
      const second = await ask(reloaded, FOLLOW_UP);
      assert.equal(second.status, 'done', second.error?.message);
      const b = bodies(emu)[1]!;
      assert.equal(b.threadId, threadId);
      assert.equal(b.threadKey, threadKey);
      assert.equal((b.messages as unknown[]).length, 3);
      assert.equal(reloaded.store.current.threadId, threadId);
    });

    it('a window reloaded mid-answer finds the text so far, marked as interrupted, not as still streaming', async () => {
      const c = chat();
      c.fault = 'slow';
      await c.session.ask(QUESTION);
      await until(() => textOf(lastAnswer(c)).length > 40, 'some text');
      // The stored copy is refreshed every 250 ms while the answer streams.
      await until(() => textOf(c.store.current.turns[0]!.answer).length > 0, 'the stored copy to have text');
      assert.equal(c.session.busy, true, 'still streaming');
      const reloaded = chat({ memento: c.memento.copy() });
      const turn = view(reloaded).turns[0]!;
      assert.equal(turn.answer.status, 'stopped');
      assert.ok(turn.answer.notices.some((n) => /Interrupted/.test(n)));
      assert.ok(textOf(turn.answer).length > 0 && fullAnswer.startsWith(textOf(turn.answer)), 'a prefix of the answer is kept');
      c.session.stop();
      await settled(c);
    });

    it('closing mid-answer (the extension host shutting down) stores all the text shown so far, marked interrupted', async () => {
      const c = chat();
      c.fault = 'slow';
      await c.session.ask(QUESTION);
      await until(() => textOf(lastAnswer(c)).length > 40, 'some text');
      const shown = textOf(lastAnswer(c));
      c.session.close();
      const saved = c.memento.copy();
      const turn = view(chat({ memento: saved })).turns[0]!;
      assert.equal(turn.answer.status, 'stopped');
      assert.ok(turn.answer.notices.some((n) => /Interrupted/.test(n)));
      assert.ok(textOf(turn.answer).startsWith(shown), 'everything the user saw is kept, not only the last periodic save');
      await settled(c);
      const after = view(chat({ memento: c.memento.copy() })).turns[0]!;
      assert.deepEqual(after.answer, turn.answer, 'the abort that follows close does not overwrite the stored answer');
    });

    it('past conversations can be reopened and continued in their own thread', async () => {
      const c = chat();
      await ask(c, QUESTION);
      const first = c.store.current;
      c.session.newConversation();
      await ask(c, 'What is an API key?');
      const second = c.store.current;
      assert.notEqual(first.threadId, second.threadId);
      assert.equal(await c.session.openConversation(first.id), true);
      const snap = view(c);
      assert.equal(snap.conversationId, first.id);
      assert.deepEqual(
        snap.turns.map((t) => t.question),
        [QUESTION],
      );
      assert.deepEqual(
        c.store.history.map((h) => h.id),
        [second.id],
        'the one that was on screen went to the history',
      );
      assert.equal(await c.session.openConversation('no-such-id'), false);
      await ask(c, FOLLOW_UP);
      const b = bodies(emu)[2]!;
      assert.equal(b.threadId, first.threadId);
      assert.equal(b.threadKey, first.threadKey);
      assert.equal((b.messages as unknown[]).length, 3);
    });

    it('"New Conversation" in the middle of an answer: the new conversation does not inherit the old thread', async () => {
      const c = chat();
      c.fault = 'slow';
      await c.session.ask(QUESTION);
      await until(() => textOf(lastAnswer(c)).length > 20, 'some text');
      const oldId = c.store.current.id;
      c.session.newConversation();
      await until(() => !c.session.busy, 'the old answer to stop');
      assert.equal(c.store.current.threadId, null, 'the new conversation has no thread');
      c.fault = undefined;
      await ask(c, 'What is an API key?');
      assert.equal(bodies(emu)[1]!.threadId, null);
      const old = c.store.history.find((h) => h.id === oldId)!;
      assert.equal(old.turns[0]!.answer.status, 'stopped', 'the old answer was stopped');
      assert.ok(textOf(old.turns[0]!.answer).length > 0, 'with its text kept');
      assert.match(old.threadId ?? '', /^thr_/, 'the old conversation keeps its own thread');
    });
  });

  describe('stop, errors and retry', () => {
    it('Stop mid-answer keeps the partial text, marked stopped, without an error', async () => {
      const c = chat();
      c.fault = 'slow';
      await c.session.ask(QUESTION);
      await until(() => textOf(lastAnswer(c)).length > 40, 'some text');
      assert.equal(c.session.busy, true);
      c.session.stop();
      const a = await settled(c);
      assert.equal(a.status, 'stopped');
      assert.equal(a.error, undefined);
      const text = textOf(a);
      assert.ok(text.length >= 40 && text.length < fullAnswer.length, `kept ${text.length} of ${fullAnswer.length} characters`);
      assert.ok(fullAnswer.startsWith(text), 'the kept text is the start of the answer');
      assert.deepEqual(replay(c, view(c).turns[0]!.id), a, 'the webview shows the same stopped answer');
      assert.deepEqual(c.store.current.turns[0]!.answer, a, 'and it is stored as shown');
    });

    it('a dropped stream shows the error inline with the partial answer; Retry replaces it with the full answer', async () => {
      const c = chat();
      c.fault = 'drop-mid';
      const broken = await ask(c, QUESTION);
      const turnId = view(c).turns[0]!.id;
      assert.equal(broken.status, 'error');
      assert.equal(broken.error?.kind, 'network');
      assert.match(broken.error!.message, /before the answer was complete.*What arrived so far is kept/);
      assert.deepEqual(broken.error?.actions, ['retry']);
      const partial = textOf(broken);
      assert.ok(partial.length > 0 && partial.length < fullAnswer.length && fullAnswer.startsWith(partial), 'the partial answer stays');
      c.fault = undefined;
      await c.session.retry(turnId);
      const fixed = await settled(c);
      assert.equal(fixed.status, 'done');
      assert.equal(fixed.error, undefined);
      // The dropped answer had opened a thread; the retry continues it, so the emulator words its
      // first line as a follow-up. The rest is the same answer, once.
      const text = textOf(fixed);
      assert.equal(text.split('Here is what the documentation says').length, 2, 'replaced, not appended to');
      assert.equal(text.slice(text.indexOf('\n')), fullAnswer.slice(fullAnswer.indexOf('\n')));
      assert.equal(bodies(emu)[1]!.threadId, bodies(emu)[0]!.threadId === null ? c.store.current.threadId : undefined);
      assert.deepEqual(
        view(c).turns.map((t) => t.id),
        [turnId],
        'the same turn, no duplicate',
      );
      assert.deepEqual(replay(c, turnId), fixed, 'the webview ends on the same answer');
      const retryBody = bodies(emu)[1]!;
      assert.deepEqual(
        (retryBody.messages as { role: string }[]).map((m) => m.role),
        ['user'],
        'the failed answer is not sent back',
      );
    });

    it('401 (a wrong key): the error offers to set the assistant key and never shows the key', async () => {
      const wrongKey = 'svc_dsc_wrong_0000000000000000000000';
      const c = chat({ apiKey: wrongKey });
      const a = await ask(c, QUESTION);
      assert.equal(a.status, 'error');
      assert.equal(a.error?.kind, 'unauthorized');
      assert.deepEqual(a.error?.actions, ['setAssistantKey', 'retry']);
      assert.equal(emu.requests[0]!.status, 401);
      const shown = JSON.stringify(view(c)) + JSON.stringify(c.posts);
      assert.ok(!shown.includes(wrongKey), 'the key is not in anything the webview gets');
    });

    it('no key at all: nothing is sent, and the answer says what to do with a set-key action', async () => {
      const c = chat({ apiKey: null });
      const a = await ask(c, QUESTION);
      assert.equal(a.status, 'error');
      assert.match(a.error!.message, /assistant API key is not set/);
      assert.deepEqual(a.error?.actions, ['setAssistantKey', 'retry']);
      assert.equal(emu.requests.length, 0);
    });

    it('429: the error says when to try again and carries the time for the Retry button', async () => {
      const c = chat();
      c.fault = '429';
      const t0 = Date.now();
      const a = await ask(c, QUESTION);
      assert.equal(a.status, 'error');
      assert.equal(a.error?.kind, 'rateLimited');
      assert.match(a.error!.message, /Try again after \d{2}:\d{2}:\d{2}\./);
      assert.ok(a.error!.retryAt! >= t0 + 7000 && a.error!.retryAt! <= Date.now() + 7000, 'retryAt is Retry-After from now');
      assert.deepEqual(a.error?.actions, ['retry']);
    });
  });

  describe('what goes into the request', () => {
    it('context chips, currentPath, fp, retrievalPageSize and filter land in the body as the spec says', async () => {
      const longPath = `${'deep/'.repeat(50)}guide/webhooks.md`;
      const c = chat({ settings: { fp: 'fp-0123456789', retrievalPageSize: 7, filter: { version: 'v2', groups: ['admin'] }, currentPath: longPath } });
      const code = buildContextChip({
        id: 'c1',
        languageId: 'typescript',
        path: 'src/hooks.ts',
        startLine: 3,
        endLine: 4,
        text: 'const hook = new Webhook();\nhook.verify(sig);',
        maxChars: 20000,
      });
      const prose = buildContextChip({
        id: 'c2',
        languageId: 'markdown',
        path: '',
        startLine: 1,
        endLine: 1,
        text: 'Webhooks are retried three times.',
        maxChars: 20000,
      });
      assert.equal(c.session.attach(code), true);
      assert.equal(c.session.attach(prose), true);
      assert.equal(c.session.attach({ ...code, id: 'c3' }), false, 'the same selection is not attached twice');
      assert.equal(view(c).pendingContext.length, 2);
      const a = await ask(c, QUESTION);
      assert.equal(a.status, 'done', a.error?.message);
      const b = bodies(emu)[0]!;
      assert.equal(b.fp, 'fp-0123456789');
      assert.equal(b.retrievalPageSize, 7);
      assert.deepEqual(b.filter, { version: 'v2', groups: ['admin'] });
      assert.deepEqual(b.context, [
        { type: 'code', value: 'const hook = new Webhook();\nhook.verify(sig);', path: 'src/hooks.ts' },
        { type: 'textSelection', value: 'Webhooks are retried three times.' },
      ]);
      assert.equal((b.currentPath as string).length, 200);
      assert.ok(longPath.endsWith(b.currentPath as string), 'the end of the path is kept');
      assert.deepEqual(Object.keys(b).sort(), ['context', 'currentPath', 'filter', 'fp', 'messages', 'retrievalPageSize', 'threadId']);
      assert.deepEqual(view(c).pendingContext, [], 'chips are used up by the question');
      assert.deepEqual(
        view(c).turns[0]!.context.map((x) => x.id),
        ['c1', 'c2'],
        'and stay with the turn they went with',
      );

      c.settings = { fp: 'anonymous', retrievalPageSize: 5, filter: null };
      await ask(c, FOLLOW_UP);
      const b2 = bodies(emu)[1]!;
      assert.equal('context' in b2, false, 'a follow-up without chips sends no context');
      assert.equal('currentPath' in b2, false);
      assert.equal(b2.filter, null);
    });

    it('a command run with arguments fills the composer and sends nothing: the chip and the question wait for Send', async () => {
      // Issue 27, item 2: another extension or a `command:` link can run the command; only the user sends.
      const c = chat();
      const where = { languageId: 'markdown', path: 'docs/a.md', startLine: 3, endLine: 4 };
      const passage = buildContextChip({ id: 'p1', ...where, text: 'Install the relay.', maxChars: 20000 });
      c.session.saveDraft('what the user was typing');
      assert.equal(c.session.fillComposer(passage, 'What do the docs say about this passage?'), undefined);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(emu.requests, [], 'nothing reached the service');
      const filled = view(c);
      assert.equal(filled.turns.length, 0, 'no question was asked');
      assert.equal(filled.busy, false);
      assert.equal(filled.draft, 'What do the docs say about this passage?', 'the question is in the input box');
      assert.deepEqual(
        filled.pendingContext.map((x) => x.id),
        ['p1'],
        'the passage is a chip in the composer',
      );
      assert.equal(c.session.fillComposer({ ...passage, id: 'p2' }, 'And this?'), undefined, 'the same passage again is already there');
      assert.equal(view(c).pendingContext.length, 1);
      assert.equal(view(c).draft, 'And this?');
      assert.deepEqual(emu.requests, []);

      await ask(c, view(c).draft); // the user presses Send
      assert.equal(emu.requests.length, 1);
      assert.deepEqual(bodies(emu)[0]!.context, [{ type: 'textSelection', value: 'Install the relay.', path: 'docs/a.md' }]);
    });

    it('a chip flipped to the other type is sent as that type; a removed chip is not sent', async () => {
      const c = chat();
      const code = buildContextChip({
        id: 'k1',
        languageId: 'markdown',
        path: 'docs/a.md',
        startLine: 1,
        endLine: 2,
        text: '```js\nhook()\n```',
        maxChars: 20000,
      });
      const gone = buildContextChip({ id: 'k2', languageId: 'python', path: 'b.py', startLine: 9, endLine: 9, text: 'x = 1', maxChars: 20000 });
      c.session.attach(code);
      c.session.attach(gone);
      c.session.toggleChipType('k1');
      c.session.removeChip('k2');
      await ask(c, QUESTION);
      assert.deepEqual(bodies(emu)[0]!.context, [{ type: 'code', value: '```js\nhook()\n```', path: 'docs/a.md' }]);
    });
  });

  describe('patches to the webview', () => {
    it('are batched: a burst of deltas is not one post per delta, appends are merged, and replaying them gives exactly the final answer', async () => {
      const c = chat();
      const a = await ask(c, QUESTION);
      const turnId = view(c).turns[0]!.id;
      const posts = c.posts.filter((p) => p.turnId === turnId);
      assert.ok(c.chunks > 30, `${c.chunks} chunks streamed`);
      assert.ok(posts.length * 3 <= c.chunks, `${posts.length} posts for ${c.chunks} chunks`);
      for (const p of posts) {
        p.patches.forEach((patch, i) => {
          const prev = p.patches[i - 1];
          assert.ok(!(patch.op === 'appendText' && prev?.op === 'appendText' && prev.part === patch.part), 'consecutive appends to a part are merged');
        });
      }
      assert.deepEqual(replay(c, turnId), a);
      assert.deepEqual(c.store.current.turns[0]!.answer, a, 'the stored answer is the one shown');
    });

    it('with a slow stream, posts come at most about once per interval, and text travels as appends', async () => {
      const c = chat();
      c.fault = 'slow';
      await c.session.ask(QUESTION);
      await until(() => textOf(lastAnswer(c)).length > 60, 'some text');
      c.session.stop();
      const a = await settled(c);
      const turnId = view(c).turns[0]!.id;
      const appends = c.posts.flatMap((p) => p.patches).filter((p) => p.op === 'appendText');
      assert.ok(appends.length > 1, 'text arrives as appends');
      const setParts = c.posts.flatMap((p) => p.patches).filter((p) => p.op === 'setPart' && p.value.kind === 'text');
      assert.ok(
        setParts.every((p) => p.op === 'setPart' && p.value.kind === 'text' && p.value.text.length < 200),
        'whole text parts are not resent',
      );
      assert.deepEqual(replay(c, turnId), a);
    });

    it('a snapshot taken mid-stream (a second view opening) plus the later patches gives the final answer, with no text doubled', async () => {
      const queued: (() => void)[] = [];
      const c = chat({ schedule: (fn) => void queued.push(fn) }); // flushes only when told
      c.fault = 'slow';
      await c.session.ask(QUESTION);
      const flushQueued = () => {
        while (queued.length) queued.shift()!();
      };
      await until(() => textOf(lastAnswer(c)).length > 20, 'some text');
      flushQueued(); // the text part exists in the webview; from now on text travels as appends
      const sent = textOf(lastAnswer(c)).length;
      await until(() => textOf(lastAnswer(c)).length > sent + 20, 'more text, not yet posted');
      const turnId = view(c).turns[0]!.id;
      const fromPost = c.posts.length;
      const base = view(c).turns[0]!.answer; // what a view that just said `ready` gets
      flushQueued();
      await until(() => textOf(lastAnswer(c)).length > textOf(base).length + 20, 'more text');
      c.session.stop();
      const a = await settled(c);
      assert.deepEqual(replay(c, turnId, base, fromPost), a);
    });

    it('an answer whose patches are held back until the end still arrives whole in one post', async () => {
      const c = chat({ schedule: () => undefined }); // the batching timer never fires
      const a = await ask(c, QUESTION);
      const turnId = view(c).turns[0]!.id;
      assert.equal(c.posts.filter((p) => p.turnId === turnId).length, 1);
      assert.deepEqual(replay(c, turnId), a);
      assert.equal(textOf(a), fullAnswer);
    });
  });
});

/** The real client with its chunk events counted on the way through. */
function counting(real: AssistantClient, onChunk: () => void): AssistantLike {
  return {
    async *send(request: AssistantRequest, opts?: { signal?: AbortSignal }): AsyncGenerator<AssistantStreamEvent, AssembledMessage> {
      const it = real.send(request, opts);
      for (;;) {
        const step = await it.next();
        if (step.done) return step.value;
        if (step.value.type === 'chunk') onChunk();
        yield step.value;
      }
    },
  };
}

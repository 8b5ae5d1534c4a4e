import * as assert from 'node:assert/strict';
import { dispatch, parseWebviewRequest } from '../../src/chat/core/webviewMessages';
import type { RequestHandlers, RequestPayload, WebviewRequestName } from '../../src/common/protocol';

// The host answers the webview through one handler per request name, typed by the protocol's
// map. What this file proves at compile time (`npm run typecheck` covers test/): a table without
// a handler for some request, or with a handler of the wrong payload or reply, does not compile.
// At run time: a validated request reaches its own handler with its payload, and nothing else.

type Calls = [WebviewRequestName, unknown][];

/** A full table that records each call; `ready` replies with a snapshot, the others as typed. */
function recordingHandlers(calls: Calls): RequestHandlers {
  const seen =
    <N extends WebviewRequestName>(name: N) =>
    (payload: RequestPayload<N>) => {
      calls.push([name, payload]);
    };
  return {
    ready: (payload) => {
      calls.push(['ready', payload]);
      return { conversationId: 'c', title: '', turns: [], pendingContext: [], draft: '', busy: false, inputHistory: [], agentAvailable: false };
    },
    send: (payload) => {
      calls.push(['send', payload]);
      return { accepted: true };
    },
    stop: seen('stop'),
    saveDraft: seen('saveDraft'),
    removeChip: seen('removeChip'),
    toggleChipType: seen('toggleChipType'),
    openLink: async (payload) => {
      calls.push(['openLink', payload]);
      return { opened: false };
    },
    copyCode: seen('copyCode'),
    insertCode: (payload) => {
      calls.push(['insertCode', payload]);
      return { inserted: true };
    },
    copyAnswer: (payload) => {
      calls.push(['copyAnswer', payload]);
      return { copied: true };
    },
    runAction: seen('runAction'),
    fixInDocs: seen('fixInDocs'),
    jobAction: seen('jobAction'),
    loadImage: (payload) => {
      calls.push(['loadImage', payload]);
      return { error: 'not here' };
    },
    openAccessibleView: (payload) => {
      calls.push(['openAccessibleView', payload]);
      return { opened: true };
    },
  };
}

describe('chat request handlers: one per request, typed by the map', () => {
  it('compile time: a table missing a handler, or with a wrong payload or reply, is an error', () => {
    const full = recordingHandlers([]);
    const { loadImage: _dropped, ...rest } = full;
    // @ts-expect-error: `loadImage` has no handler
    const missing: RequestHandlers = rest;
    // @ts-expect-error: `send` must reply { accepted, reason? }, not a string
    const wrongReply: RequestHandlers = { ...full, send: () => 'ok' };
    // @ts-expect-error: `send`'s payload has `text`, not `question`
    const wrongPayload: RequestHandlers = { ...full, send: ({ question }: { question: string }) => ({ accepted: question.length > 0 }) };
    // @ts-expect-error: a handler for a request the protocol does not have
    const extra: RequestHandlers = { ...full, showHistory: () => undefined };
    assert.ok(missing && wrongReply && wrongPayload && extra);
  });

  it('dispatch hands each validated request to its own handler, with its payload', async () => {
    const calls: Calls = [];
    const handlers = recordingHandlers(calls);
    const sent: [string, unknown][] = [
      ['send', { text: 'How do I configure webhooks?', extra: 'dropped' }],
      ['runAction', { action: 'retry', turnId: 't-1' }],
      ['jobAction', { jobId: 'job_1', action: 'showJob' }],
      ['copyAnswer', { turnId: 't-1', text: 'dropped' }],
      ['stop', undefined],
    ];
    const replies: unknown[] = [];
    for (const [name, payload] of sent) {
      const req = parseWebviewRequest({ kind: 'request', id: 1, name, payload });
      assert.ok(req, name);
      replies.push(await dispatch(handlers, req));
    }
    assert.deepEqual(calls, [
      ['send', { text: 'How do I configure webhooks?' }],
      ['runAction', { action: 'retry', turnId: 't-1' }],
      ['jobAction', { jobId: 'job_1', action: 'showJob' }],
      ['copyAnswer', { turnId: 't-1' }],
      ['stop', {}],
    ]);
    assert.deepEqual(replies, [{ accepted: true }, undefined, undefined, { copied: true }, undefined]);
  });

  it('dispatch resolves with a handler’s async reply, and a handler that throws rejects (it never throws)', async () => {
    const handlers = recordingHandlers([]);
    assert.deepEqual(
      await dispatch(handlers, parseWebviewRequest({ kind: 'request', id: 2, name: 'openLink', payload: { url: 'https://docs.example.com' } })!),
      { opened: false },
    );
    const throwing: RequestHandlers = {
      ...handlers,
      stop: () => {
        throw new Error('boom');
      },
    };
    const req = parseWebviewRequest({ kind: 'request', id: 3, name: 'stop' })!;
    let settled: Promise<unknown> | undefined;
    assert.doesNotThrow(() => (settled = dispatch(throwing, req)));
    await assert.rejects(settled!, /boom/);
  });
});

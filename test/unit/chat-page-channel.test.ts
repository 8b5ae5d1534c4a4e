import * as assert from 'node:assert/strict';
import { PageChannel } from '../../src/chat/core/pageChannel';
import { MAX_HELD } from '../../src/chat/core/pageOutbox';
import { english } from '../../src/common/l10n';
import type { AnswerPatch, ChatSnapshot, HostToWebviewMessage, RequestHandlers } from '../../src/common/protocol';

// Issue 28: what the host tells a chat page before the page has said `ready` must not be lost.
// The reply to `ready` is a snapshot of everything, so a snapshot or patch sent before it was
// taken is in it (and sent again would double the text); what no snapshot carries (focusInput:
// the cursor, a command's question) waits and follows the reply, and so does whatever was sent
// after the snapshot was taken. All in order, coalesced, and bounded.

const SNAP: ChatSnapshot = { conversationId: 'c1', title: '', turns: [], pendingContext: [], draft: '', busy: false, inputHistory: [], agentAvailable: false };
const append = (text: string): { turnId: string; patches: AnswerPatch[] } => ({ turnId: 't1', patches: [{ op: 'appendText', part: 0, text }] });
const READY = (id: number) => ({ kind: 'request', id, name: 'ready', payload: {} });

/** A page's channel whose `ready` runs `onReady` (the host's snapshot()) and replies SNAP. */
function setup(onReady: (channel: PageChannel) => void = () => undefined) {
  const posted: HostToWebviewMessage[] = [];
  const warnings: string[] = [];
  // Only `ready` is asked for here; the other handlers are never reached.
  const handlers = {
    ready: () => {
      onReady(channel);
      return SNAP;
    },
  } as unknown as RequestHandlers;
  const channel: PageChannel = new PageChannel({
    post: (m) => posted.push(m),
    handlers,
    log: { warn: (line) => warnings.push(line), error: () => undefined },
    t: english,
  });
  return { channel, posted, warnings };
}

/** What the page received, in order, in short: `response 1`, `focusInput {"text":"x"}`, `patch x`. */
function seen(posted: HostToWebviewMessage[]): string[] {
  return posted.map((m) => {
    if (m.kind === 'response') return `response ${m.id}`;
    if (m.name === 'patch') return `patch ${(m.payload as { patches: AnswerPatch[] }).patches.map((p) => (p.op === 'appendText' ? p.text : p.op)).join('')}`;
    return `${m.name} ${JSON.stringify(m.payload)}`;
  });
}

describe('chat page channel: what is sent before the page says ready', () => {
  it('a focusInput sent while the page loads reaches it right after the reply to ready', async () => {
    const { channel, posted } = setup();
    channel.notify('focusInput', { text: 'Why does this throw?' });
    assert.deepEqual(posted, [], 'nothing goes out before ready');
    await channel.receive(READY(1));
    assert.deepEqual(seen(posted), ['response 1', 'focusInput {"text":"Why does this throw?"}']);
  });

  it('state from before the snapshot is not sent again; what comes after it follows the reply, in order', async () => {
    const { channel, posted } = setup((c) => {
      // As chat.snapshot() does: queued patches go out first, and the snapshot has them.
      c.notify('patch', append('in the snapshot'));
      // After the snapshot was taken, before the reply went out.
      queueMicrotask(() => c.notify('patch', append('after it')));
    });
    channel.notify('snapshot', SNAP);
    channel.notify('patch', append('before'));
    channel.notify('focusInput', {});
    await channel.receive(READY(1));
    assert.deepEqual(seen(posted), ['response 1', 'focusInput {}', 'patch after it']);
    channel.notify('patch', append('live'));
    assert.deepEqual(seen(posted).at(-1), 'patch live');
  });

  it('two focusInputs held become one: a later text wins, a later one without text keeps the earlier text', async () => {
    const a = setup();
    a.channel.notify('focusInput', { text: 'first' });
    a.channel.notify('focusInput', {});
    await a.channel.receive(READY(1));
    assert.deepEqual(seen(a.posted), ['response 1', 'focusInput {"text":"first"}']);
    const b = setup();
    b.channel.notify('focusInput', {});
    b.channel.notify('focusInput', { text: 'second' });
    await b.channel.receive(READY(1));
    assert.deepEqual(seen(b.posted), ['response 1', 'focusInput {"text":"second"}']);
  });

  it('a page that reloads gets nothing until its new ready, then what no snapshot carries', async () => {
    const { channel, posted } = setup();
    await channel.receive(READY(1));
    channel.reload();
    channel.notify('snapshot', SNAP);
    channel.notify('focusInput', { text: 'again' });
    assert.deepEqual(seen(posted), ['response 1']);
    await channel.receive(READY(2));
    assert.deepEqual(seen(posted), ['response 1', 'response 2', 'focusInput {"text":"again"}']);
  });

  it('a ready that fails keeps what is held for the ready that succeeds', async () => {
    let fail = true;
    const { channel, posted } = setup(() => {
      if (fail) throw new Error('not yet');
    });
    channel.notify('focusInput', { text: 'kept' });
    await channel.receive(READY(1));
    fail = false;
    await channel.receive(READY(2));
    assert.deepEqual(seen(posted), ['response 1', 'response 2', 'focusInput {"text":"kept"}']);
    assert.equal(posted[0]!.kind === 'response' && posted[0]!.ok, false);
  });

  it('what is held is bounded: past MAX_HELD the oldest go, and the log says how many', async () => {
    const extra = 5;
    const { channel, posted, warnings } = setup(() =>
      queueMicrotask(() => {
        for (let i = 0; i < MAX_HELD + extra; i++) channel.notify('patch', append(String(i)));
      }),
    );
    await channel.receive(READY(1));
    const patches = seen(posted).slice(1);
    assert.equal(patches.length, MAX_HELD);
    assert.equal(patches[0], `patch ${extra}`);
    assert.equal(patches.at(-1), `patch ${MAX_HELD + extra - 1}`);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, new RegExp(`\\b${extra}\\b`));
  });
});

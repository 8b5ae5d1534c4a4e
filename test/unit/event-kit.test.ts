import * as assert from 'node:assert/strict';
import { setErrorSink, type ErrorOrigin } from '../../src/common/errorSink';
import { Emitter } from '../../src/common/event';
import { Disposable, DisposableStore, MutableDisposable, toDisposable } from '../../src/common/lifecycle';

// Issue 28: one event and disposable kit. An error in a listener or in a dispose reaches the
// error sink (the redacting log, in the extension) instead of vanishing, and never stops the
// other listeners or the other disposables.

describe('the event and disposable kit (src/common)', () => {
  let caught: { error: unknown; origin: ErrorOrigin }[];
  let previous: ReturnType<typeof setErrorSink>;
  beforeEach(() => {
    caught = [];
    previous = setErrorSink((error, origin) => caught.push({ error, origin }));
  });
  afterEach(() => setErrorSink(previous));

  const boom = (what: string) => () => {
    throw new Error(what);
  };
  const messages = () => caught.map((c) => `${c.origin}: ${(c.error as Error).message}`);

  it('Emitter: a listener that throws reaches the sink, and the listeners after it still hear the event', () => {
    const emitter = new Emitter<number>();
    const heard: string[] = [];
    emitter.event((n) => heard.push(`a${n}`));
    emitter.event(boom('listener b broke'));
    emitter.event((n) => heard.push(`c${n}`));
    emitter.fire(1);
    emitter.fire(2);
    assert.deepEqual(heard, ['a1', 'c1', 'a2', 'c2']);
    assert.deepEqual(messages(), ['listener: listener b broke', 'listener: listener b broke']);
  });

  it('Emitter: its event is a vscode.Event (thisArgs, and the disposables array it adds to)', () => {
    const emitter = new Emitter<string>();
    const owner = { seen: [] as string[] };
    const subscriptions: { dispose(): void }[] = [];
    emitter.event(
      function (this: typeof owner, s: string) {
        this.seen.push(s);
      },
      owner,
      subscriptions,
    );
    emitter.fire('x');
    assert.equal(subscriptions.length, 1);
    subscriptions[0]!.dispose();
    emitter.fire('y');
    assert.deepEqual(owner.seen, ['x']);
    emitter.dispose();
    emitter.event(boom('never called'));
    emitter.fire('z');
    assert.deepEqual(caught, []);
  });

  it('DisposableStore: every item is disposed, newest first, though some throw; each error reaches the sink', () => {
    const store = new DisposableStore();
    const order: string[] = [];
    store.add(toDisposable(() => order.push('first')));
    store.add(toDisposable(boom('second broke')));
    store.add(toDisposable(() => order.push('third')));
    store.add(toDisposable(boom('fourth broke')));
    store.dispose();
    assert.deepEqual(order, ['third', 'first']);
    assert.deepEqual(messages(), ['dispose: fourth broke', 'dispose: second broke']);
    // Added once disposed: it goes at once, it does not leak.
    store.add(toDisposable(() => order.push('late')));
    assert.deepEqual(order, ['third', 'first', 'late']);
  });

  it('DisposableStore.clear disposes what it holds and keeps taking more', () => {
    const store = new DisposableStore();
    let n = 0;
    store.add(toDisposable(() => n++));
    store.clear();
    assert.equal(n, 1);
    store.add(toDisposable(() => n++));
    assert.equal(n, 1, 'a cleared store is not disposed');
    store.dispose();
    assert.equal(n, 2);
  });

  it('Disposable: what it registered goes with it, and a failing dispose reaches the sink without stopping the rest', () => {
    const order: string[] = [];
    class Owner extends Disposable {
      constructor() {
        super();
        this._register(toDisposable(() => order.push('a')));
        this._register(toDisposable(boom('b broke')));
        this._register(toDisposable(() => order.push('c')));
      }
    }
    new Owner().dispose();
    assert.deepEqual(order, ['c', 'a']);
    assert.deepEqual(messages(), ['dispose: b broke']);
  });

  it('MutableDisposable: setting a value disposes the old one; the same value again, or clear, as expected', () => {
    const disposed: string[] = [];
    const item = (name: string) => toDisposable(() => disposed.push(name));
    const slot = new MutableDisposable();
    const a = item('a');
    slot.value = a;
    slot.value = a;
    assert.deepEqual(disposed, [], 'the same value again is not disposed');
    slot.value = item('b');
    assert.deepEqual(disposed, ['a']);
    slot.clear();
    assert.deepEqual(disposed, ['a', 'b']);
    assert.equal(slot.value, undefined);
    slot.value = item('c');
    slot.dispose();
    assert.deepEqual(disposed, ['a', 'b', 'c']);
    // Set after the slot is gone: disposed at once, never held.
    slot.value = item('d');
    assert.deepEqual(disposed, ['a', 'b', 'c', 'd']);
    assert.equal(slot.value, undefined);
  });

  it('MutableDisposable: an old value that throws on dispose reaches the sink, and the new value is set', () => {
    const slot = new MutableDisposable();
    slot.value = toDisposable(boom('old broke'));
    const next = toDisposable(() => undefined);
    slot.value = next;
    assert.equal(slot.value, next);
    assert.deepEqual(messages(), ['dispose: old broke']);
  });
});

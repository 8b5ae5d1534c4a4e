import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_ANSWER_BYTES, MAX_INPUT_CHARS } from '../../src/api/limits';
import { REQUEST_SCHEMAS } from '../../src/chat/core/webviewMessages';
import type { ErrorAction, RequestPayload, WebviewRequestName, WebviewRequests } from '../../src/common/protocol';
import { empty, literal, object, optional, parse, str, type Infer } from '../../src/common/schema';

// The schema combinators behind the webview protocol: each validates at run time and gives the
// TypeScript type of what it accepts, so a request's payload type comes from its schema. The
// type-level checks below are checked by `npm run typecheck` (tsc covers test/).

/** True when A and B are the same type (not merely assignable either way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Equal<A, B>): Equal<A, B> => ok;

describe('schema: the combinators', () => {
  it('str(max): strings up to max characters, nothing else', () => {
    const s = object({ v: str(3) });
    assert.deepEqual(parse(s, { v: '' }), { v: '' });
    assert.deepEqual(parse(s, { v: 'abc' }), { v: 'abc' });
    for (const v of ['abcd', 3, null, undefined, ['a'], { toString: () => 'a' }, new String('a')]) assert.equal(parse(s, { v }), undefined, String(v));
  });

  it('literal(...): exactly one of the given strings', () => {
    const s = object({ v: literal('a', 'b') });
    assert.deepEqual(parse(s, { v: 'b' }), { v: 'b' });
    for (const v of ['c', 'A', 'a ', '', 1, null, undefined]) assert.equal(parse(s, { v }), undefined, String(v));
  });

  it('optional(): the field may be absent or undefined, and is then left out', () => {
    const s = object({ a: str(5), b: optional(str(5)) });
    assert.deepEqual(parse(s, { a: 'x' }), { a: 'x' });
    assert.deepEqual(parse(s, { a: 'x', b: undefined }), { a: 'x' });
    assert.ok(!('b' in parse(s, { a: 'x', b: undefined })!));
    assert.deepEqual(parse(s, { a: 'x', b: 'y' }), { a: 'x', b: 'y' });
    assert.equal(parse(s, { a: 'x', b: null }), undefined, 'null is not absent');
    assert.equal(parse(s, { a: 'x', b: 'toolong' }), undefined);
    assert.equal(parse(s, { b: 'y' }), undefined, 'a required field stays required');
  });

  it('object(): only objects; the result is a new object with only the named, own fields', () => {
    const s = object({ a: str(5) });
    for (const v of [null, undefined, 'a', 1, [], [{ a: 'x' }], true]) assert.equal(parse(s, v), undefined, JSON.stringify(v));
    const input = { a: 'x', extra: 'dropped', nested: { a: 1 } };
    const out = parse(s, input);
    assert.deepEqual(out, { a: 'x' });
    assert.notEqual(out, input, 'a copy, never the object that came in');
    // Inherited fields are not the message's own: a field must be on the object itself.
    assert.equal(parse(s, Object.create({ a: 'x' })), undefined);
    const bare = Object.create(null) as Record<string, unknown>;
    bare.a = 'x';
    assert.deepEqual({ ...parse(s, bare) }, { a: 'x' });
    assert.deepEqual(parse(empty, { anything: 1 }), {});
  });

  it('object(): nested objects are read (and pruned) the same way', () => {
    const s = object({ inner: object({ id: str(2) }), kind: literal('x') });
    assert.deepEqual(parse(s, { inner: { id: 'ab', junk: 1 }, kind: 'x' }), { inner: { id: 'ab' }, kind: 'x' });
    assert.equal(parse(s, { inner: { id: 'abc' }, kind: 'x' }), undefined);
  });

  it('property: never throws, and what it accepts has only the known fields, well typed', () => {
    const s = object({ a: str(10), b: optional(literal('x', 'y')) });
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything({ maxDepth: 2, withNullPrototype: true }),
          fc.record({ a: fc.anything(), b: fc.anything(), c: fc.anything() }, { requiredKeys: [] }),
        ),
        (v) => {
          const out = parse(s, v);
          if (!out) return;
          assert.deepEqual(
            Object.keys(out).filter((k) => k !== 'a' && k !== 'b'),
            [],
          );
          assert.ok(typeof out.a === 'string' && out.a.length <= 10);
          assert.ok(out.b === undefined || out.b === 'x' || out.b === 'y');
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('types: Infer gives the type the schema accepts (required, optional and literal fields)', () => {
    const s = object({ text: str(1), turnId: optional(str(1)), action: literal('a', 'b') });
    assert.ok(same<Infer<typeof s>, { text: string; turnId?: string; action: 'a' | 'b' }>(true));
    assert.deepEqual(parse(s, { text: 'x', action: 'a' }), { text: 'x', action: 'a' });
    assert.ok(same<Infer<typeof empty>, Record<string, never>>(true));
    // @ts-expect-error: a field the schema does not name is not part of the type
    const wrong: Infer<typeof s> = { text: 'x', action: 'a', extra: 1 };
    assert.ok(wrong);
  });
});

describe('schema: the webview protocol takes its payload types from the schemas', () => {
  it('every request name has exactly one schema, and nothing else has one', () => {
    const names: Record<WebviewRequestName, true> = {
      ready: true,
      send: true,
      stop: true,
      saveDraft: true,
      removeChip: true,
      toggleChipType: true,
      openLink: true,
      copyCode: true,
      insertCode: true,
      copyAnswer: true,
      runAction: true,
      fixInDocs: true,
      jobAction: true,
      loadImage: true,
      openAccessibleView: true,
    };
    assert.deepEqual(Object.keys(REQUEST_SCHEMAS).sort(), Object.keys(names).sort());
  });

  it('types: payloads are what the schemas say', () => {
    assert.ok(same<RequestPayload<'send'>, { text: string }>(true));
    assert.ok(same<RequestPayload<'runAction'>, { action: ErrorAction; turnId?: string }>(true));
    assert.ok(same<RequestPayload<'jobAction'>, { jobId: string; action: 'openPullRequest' | 'followUp' | 'showJob' | 'reviewChanges' | 'openPreview' }>(true));
    assert.ok(same<RequestPayload<'ready'>, Record<string, never>>(true));
    assert.ok(same<WebviewRequests['insertCode'][1], { inserted: boolean }>(true));
  });

  it('the limits come from src/api: the input box up to MAX_INPUT_CHARS, code up to MAX_ANSWER_BYTES', () => {
    assert.ok(parse(REQUEST_SCHEMAS.send, { text: 'x'.repeat(MAX_INPUT_CHARS) }));
    assert.equal(parse(REQUEST_SCHEMAS.send, { text: 'x'.repeat(MAX_INPUT_CHARS + 1) }), undefined);
    assert.ok(parse(REQUEST_SCHEMAS.copyCode, { code: 'x'.repeat(MAX_ANSWER_BYTES) }));
    assert.equal(parse(REQUEST_SCHEMAS.insertCode, { code: 'x'.repeat(MAX_ANSWER_BYTES + 1) }), undefined);
  });
});

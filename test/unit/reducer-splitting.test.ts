import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { applyStreamItem, assembleFromBytes, cloneMessage, createDecoder, createEmptyMessage, type AssembledMessage, type StreamFormat } from '../../src/api';
import { SSE_FIXTURES, V1_FIXTURES, expectedTexts, loadFixture, randomCuts, seededRandom, splitAt } from '../fixtures/streams';

// The reducer must give the same message however the network splits the bytes: at any byte,
// inside a UTF-8 sequence, inside `data:`, between \r and \n. Each recording is split at random
// places many times, and every result must equal the unsplit one. Text is never lost or doubled.

const RUNS_PER_FIXTURE = 1000;
const SEED = 20241123;
let randomSplittings = 0;
let exhaustiveSplittings = 0;

function textsOf(m: AssembledMessage): string[] {
  return m.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
}

/** Cut points: a few random ones, or many (down to single bytes), biased toward small pieces. */
function cutsArb(length: number): fc.Arbitrary<number[]> {
  return fc.oneof(
    fc.array(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { minLength: 1, maxLength: 8 }),
    fc.array(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { minLength: 20, maxLength: 400 }),
  );
}

function checkFixture(name: string, format: StreamFormat): void {
  const bytes = loadFixture(name);
  const whole = assembleFromBytes([bytes], format).message;
  if (format === 'sse') assert.deepEqual(textsOf(whole), expectedTexts(new TextDecoder().decode(bytes)));
  fc.assert(
    fc.property(cutsArb(bytes.length), (cuts) => {
      randomSplittings++;
      const { message } = assembleFromBytes(splitAt(bytes, cuts), format);
      assert.deepEqual(message, whole);
    }),
    { numRuns: RUNS_PER_FIXTURE, seed: SEED },
  );
}

describe('reducer under random byte splitting', () => {
  after(() => {
    // Reported so the total is visible in the test log.
    console.log(`      (${randomSplittings} random + ${exhaustiveSplittings} exhaustive splittings assembled identically)`);
  });

  for (const { name } of SSE_FIXTURES) {
    it(`${name}: ${RUNS_PER_FIXTURE} random splittings assemble identically to the unsplit stream`, () => checkFixture(name, 'sse'));
  }
  for (const name of V1_FIXTURES) {
    it(`${name} (v1): ${RUNS_PER_FIXTURE} random splittings assemble identically`, () => checkFixture(name, 'v1'));
  }

  it('one byte at a time, and at every single cut point, for every recording', () => {
    for (const { name, format } of [
      ...SSE_FIXTURES.map((f) => ({ name: f.name, format: 'sse' as const })),
      ...V1_FIXTURES.map((name) => ({ name, format: 'v1' as const })),
    ]) {
      const bytes = loadFixture(name);
      const whole = assembleFromBytes([bytes], format).message;
      const ones = Array.from({ length: bytes.length }, (_, i) => i);
      assert.deepEqual(assembleFromBytes(splitAt(bytes, ones), format).message, whole, `${name} byte by byte`);
      exhaustiveSplittings++;
      for (let cut = 1; cut < bytes.length; cut++) {
        assert.deepEqual(assembleFromBytes(splitAt(bytes, [cut]), format).message, whole, `${name} cut at ${cut}`);
        exhaustiveSplittings++;
      }
    }
  });

  it('a snapshot taken mid-stream and reduced further ends up the same (index rebuilt from a clone)', () => {
    const random = seededRandom(SEED);
    for (const { name } of SSE_FIXTURES) {
      const bytes = loadFixture(name);
      const whole = assembleFromBytes([bytes], 'sse').message;
      for (let run = 0; run < 50; run++) {
        const pieces = splitAt(bytes, randomCuts(random, bytes.length, 30));
        const decoder = createDecoder('sse');
        let message = createEmptyMessage();
        const cloneAt = Math.floor(random() * pieces.length);
        let done = false;
        pieces.forEach((piece, i) => {
          if (i === cloneAt) message = cloneMessage(message);
          for (const item of decoder.push(piece)) {
            if (done || item.kind === 'done') {
              done = true;
              continue;
            }
            applyStreamItem(message, item);
          }
        });
        assert.deepEqual(message, whole, `${name} run ${run}`);
        randomSplittings++;
      }
    }
  });

  it('ran at least 5,000 random splittings in total', () => {
    assert.ok(randomSplittings >= 5000, `only ${randomSplittings}`);
  });
});

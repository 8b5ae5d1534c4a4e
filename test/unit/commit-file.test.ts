import * as assert from 'node:assert/strict';
import { concurrencyLimit, hasDotSegments, isCommitId, isShownAsText, MAX_SHOWN_BYTES, TextCache } from '../../src/agent/core/commitFile';

// The vscode-free half of Review Changes' own documents (src/agent/vscode/review/commitDocuments.ts):
// what an address may name before git is asked, what is shown of git's answer, and how many reads
// run at once when the multi-file diff editor asks for every side of every file together.

describe('Review Changes: a file at a commit (commitFile.ts)', () => {
  it('only a full commit id names the commit: no ref, range, option or short id', () => {
    assert.ok(isCommitId('a'.repeat(40)));
    assert.ok(isCommitId('0123456789abcdef'.repeat(4)));
    for (const v of [
      'HEAD',
      'main',
      'a'.repeat(39),
      'A'.repeat(40),
      `${'a'.repeat(40)}..HEAD`,
      `--output=/tmp/x${'a'.repeat(30)}`,
      'a'.repeat(41),
      undefined,
      40,
    ]) {
      assert.equal(isCommitId(v), false, String(v));
    }
  });

  it('a path with a dot segment is refused; a plain one, dots in names included, is not', () => {
    for (const p of ['/r/../etc/passwd', '/r/./a.md', '/r//a.md', '/r/docs/..']) assert.equal(hasDotSegments(p), true, p);
    for (const p of ['/r/docs/a.md', '/r/.github/x.md', '/r/v1..2.md']) assert.equal(hasDotSegments(p), false, p);
  });

  it('text is shown; a NUL in the first 8,000 bytes (binary, by git’s test) or past the size bound is not', () => {
    assert.ok(isShownAsText(new TextEncoder().encode('# Page\n\nText.\n')));
    assert.equal(isShownAsText(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01])), false);
    const late = new Uint8Array(9000).fill(0x61);
    late[8500] = 0;
    assert.ok(isShownAsText(late), 'a NUL past the probe is text, as git says');
    assert.equal(isShownAsText(new Uint8Array(MAX_SHOWN_BYTES + 1).fill(0x61)), false);
  });

  it('runs at most the limit at once, every task to its end, in order, a failure included', async () => {
    const limit = concurrencyLimit(3);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const task = (i: number) => async () => {
      started.push(i);
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 5 + (i % 4)));
      running--;
      if (i === 5) throw new Error('five');
      return i;
    };
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => limit(task(i))));
    assert.equal(most, 3);
    assert.deepEqual(
      started,
      Array.from({ length: 20 }, (_, i) => i),
    );
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      Array.from({ length: 20 }, (_, i) => (i === 5 ? 'five' : i)),
    );
  });

  it('a task that throws before its promise does not stop the queue', async () => {
    const limit = concurrencyLimit(1);
    const thrown = limit(() => {
      throw new Error('sync');
    });
    await assert.rejects(thrown, /sync/);
    assert.equal(await limit(async () => 'next'), 'next');
  });

  it('keeps texts up to its bound, dropping the least recently used first; a text past the bound is not kept', () => {
    const cache = new TextCache(10);
    cache.set('a', 'aaaa');
    cache.set('b', 'bbbb');
    assert.equal(cache.get('a'), 'aaaa', 'a is now the most recently used');
    cache.set('c', 'cccc');
    assert.equal(cache.get('b'), undefined, 'b, the least recently used, made room');
    assert.equal(cache.get('a'), 'aaaa');
    assert.equal(cache.get('c'), 'cccc');
    cache.set('a', 'AAAAAA');
    assert.equal(cache.get('c'), 'cccc', 'replacing a text counts its new length only');
    cache.set('big', 'x'.repeat(11));
    assert.equal(cache.get('big'), undefined);
    assert.equal(cache.get('a'), 'AAAAAA');
  });
});

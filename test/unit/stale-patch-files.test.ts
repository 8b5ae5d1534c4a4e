import * as assert from 'node:assert/strict';
import { patchPaths, readPatches } from '../../src/staleDocs/core/patchFiles';
import { PatchText } from '../../src/staleDocs/core/patchText';

// The local change is read file by file (review of issue 32, findings 3 and 11): which paths, in
// which order, how many, and the reads bounded in size, count and concurrency.

/** A read that answers when told to, and records how many were in flight at once. */
function gatedReads(patchOf: (path: string) => string | undefined) {
  const started: string[] = [];
  let inFlight = 0;
  let most = 0;
  const read = async (path: string): Promise<string | undefined> => {
    started.push(path);
    inFlight += 1;
    most = Math.max(most, inFlight);
    // Answers out of order: a later path first, so the text's order is the paths', not the answers'.
    await new Promise((r) => setTimeout(r, path.length % 3));
    inFlight -= 1;
    return patchOf(path);
  };
  return { read, started, most: () => most };
}

const diffOf = (path: string, lines = 1) => `diff --git a/${path} b/${path}\n${'+x\n'.repeat(lines)}`;

describe('Docs to Update: the local change read file by file', () => {
  it('skips lockfiles, build output and vendored code before anything is read', () => {
    const { paths, cut } = patchPaths([
      { path: 'src/cli.ts' },
      { path: 'package-lock.json' },
      { path: 'dist/extension.js' },
      { path: 'vendor/lib/a.go' },
      { path: 'web/app.min.js' },
      { path: 'README.md' },
    ]);
    assert.deepEqual(paths, ['README.md', 'src/cli.ts']);
    assert.equal(cut, false);
  });

  it('reads each file once, both sides of a move, in git’s order (by path)', () => {
    const { paths } = patchPaths([
      { path: 'src/z.ts' },
      { path: 'src/new.ts', oldPath: 'src/old.ts' },
      { path: 'src/a.ts' },
      // Staged and unstaged changes to the same file: one read against HEAD.
      { path: 'src/z.ts' },
    ]);
    assert.deepEqual(paths, ['src/a.ts', 'src/new.ts', 'src/old.ts', 'src/z.ts']);
  });

  it('reads at most the file bound, and says the rest was left out', () => {
    const changes = Array.from({ length: 12 }, (_, i) => ({ path: `src/f${String(i).padStart(2, '0')}.ts` }));
    const { paths, cut } = patchPaths(changes, 10);
    assert.equal(paths.length, 10);
    assert.equal(paths[9], 'src/f09.ts');
    assert.equal(cut, true);
  });

  it('keeps a few reads in flight, and the text in path order', async () => {
    const paths = Array.from({ length: 10 }, (_, i) => `src/${'x'.repeat(i)}f.ts`);
    const reads = gatedReads((p) => diffOf(p));
    const patch = new PatchText();
    await readPatches(paths, reads.read, patch, new AbortController().signal, 3);
    assert.equal(reads.most(), 3, 'three at once, no more');
    assert.deepEqual(reads.started, paths);
    const order = [...patch.text.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1]);
    assert.deepEqual(order, paths);
    assert.equal(patch.cut, false);
  });

  it('stops reading once the patch bound is full', async () => {
    const paths = Array.from({ length: 50 }, (_, i) => `src/f${i}.ts`);
    const reads = gatedReads((p) => diffOf(p, 20));
    const patch = new PatchText(200);
    await readPatches(paths, reads.read, patch, new AbortController().signal, 2);
    assert.equal(patch.cut, true);
    assert.ok(patch.length <= 200);
    assert.ok(reads.started.length <= 4, `read ${reads.started.length} files for a bound one fills`);
  });

  it('a file too large to read is left out and counted as cut; the others are read', async () => {
    const reads = gatedReads((p) => (p === 'big.json' ? undefined : diffOf(p)));
    const patch = new PatchText();
    await readPatches(['a.ts', 'big.json', 'c.ts'], reads.read, patch, new AbortController().signal);
    assert.ok(patch.text.includes('a/a.ts') && patch.text.includes('a/c.ts'));
    assert.equal(patch.cut, true);
  });

  it('stops between reads when cancelled', async () => {
    const ac = new AbortController();
    const paths = Array.from({ length: 20 }, (_, i) => `f${i}.ts`);
    const started: string[] = [];
    const read = async (p: string) => {
      started.push(p);
      if (started.length === 2) ac.abort();
      await Promise.resolve();
      return diffOf(p);
    };
    await readPatches(paths, read, new PatchText(), ac.signal, 1);
    assert.equal(started.length, 2);
  });
});

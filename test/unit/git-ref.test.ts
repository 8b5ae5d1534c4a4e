import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { branchNameOf, isValidBranchName } from '../../src/agent/core/gitRef';

// A job's `source.ref` comes from the service: it is checked against git check-ref-format's rules
// (and a few of our own: no leading `-`, which git would read as an option) before any Git call.

const VALID = ['main', 'docs-agent/abc123', 'feature/x.y', 'a/b/c', 'release-1.2', 'ünïcode', 'x@y', 'under_score'];
const INVALID = [
  '',
  '-upload-pack=touch /tmp/x',
  '--help',
  '.hidden',
  'a/.hidden',
  'a..b',
  'a/b.lock',
  'a.lock',
  'trailing/',
  '/leading',
  'a//b',
  'dot.',
  'sp ace',
  'tab\tname',
  'new\nline',
  'del\u007f',
  'tilde~1',
  'caret^',
  'co:lon',
  'que?',
  'st*r',
  'br[acket',
  'back\\slash',
  'at@{1}',
  '@',
  'HEAD',
  'x'.repeat(256),
];

describe('git ref names (gitRef.ts)', () => {
  for (const ref of VALID) it(`accepts ${JSON.stringify(ref)}`, () => assert.equal(isValidBranchName(ref), true));
  for (const ref of INVALID) it(`refuses ${JSON.stringify(ref.slice(0, 40))}`, () => assert.equal(isValidBranchName(ref), false));

  it('refuses what is not a string', () => {
    for (const v of [undefined, null, 3, {}, ['main']]) assert.equal(isValidBranchName(v), false);
  });

  it('agrees with git check-ref-format --branch on every case it accepts', () => {
    for (const ref of VALID) {
      // Throws (exit 1) if git disagrees.
      execFileSync('git', ['check-ref-format', '--branch', ref], { stdio: 'pipe' });
    }
  });

  // Our own rules beyond git's: a leading `-`, `HEAD`, `@` alone, the empty name, past 255 characters.
  const OURS = (r: string) => r.startsWith('-') || r === 'HEAD' || r === '@' || r === '' || r.length > 255;

  it('agrees with git check-ref-format on every other refused case', () => {
    for (const ref of INVALID.filter((r) => !OURS(r))) {
      assert.throws(() => execFileSync('git', ['check-ref-format', `refs/heads/${ref}`], { stdio: 'pipe' }), `git accepts ${JSON.stringify(ref)}`);
    }
  });

  it('reads a full refs/heads/ name as its branch, and nothing else', () => {
    assert.equal(branchNameOf('refs/heads/docs-agent/1'), 'docs-agent/1');
    assert.equal(branchNameOf('docs-agent/1'), 'docs-agent/1');
    assert.equal(branchNameOf('refs/heads/'), undefined);
    assert.equal(branchNameOf('refs/tags/v1'), undefined);
    assert.equal(branchNameOf('../x'), undefined);
    assert.equal(branchNameOf(null), undefined);
  });
});

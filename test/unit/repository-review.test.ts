import * as assert from 'node:assert/strict';
import { describeFetchFailure } from '../../src/agent/core/repositoryFetchError';
import { diffEntries, GIT_STATUS, reviewTarget } from '../../src/agent/core/repositoryReview';

// The vscode-free half of Review Changes: what a job's source allows (a branch, a repository URL),
// the diff editor's entries from the Git extension's changes, and a failed fetch in words' terms.

const job = (repository: unknown, ref: unknown) => ({ source: { repository, ref } }) as never;

describe('Review Changes: the job’s target (repositoryReview.ts)', () => {
  it('a valid branch and a repository URL are reviewable', () => {
    assert.deepEqual(reviewTarget(job('https://github.com/acme/acme-docs', 'docs-agent/1a2b')), {
      kind: 'branch',
      branch: 'docs-agent/1a2b',
      repository: 'https://github.com/acme/acme-docs',
    });
  });

  it('no ref yet is said as such, not as an invalid one', () => {
    assert.deepEqual(reviewTarget(job('https://github.com/acme/acme-docs', null)), { kind: 'noBranch' });
  });

  it('an invalid ref is refused, before anything else is looked at', () => {
    for (const ref of ['-upload-pack=sh', '../x', 'a b', 'refs/tags/v1', 'x'.repeat(300), 7]) {
      assert.equal(reviewTarget(job('not a url', ref)).kind, 'invalidRef', String(ref));
    }
  });

  it('a repository that is not a URL we can match is its own outcome', () => {
    assert.deepEqual(reviewTarget(job('/srv/docs.git', 'main')), { kind: 'invalidRepository' });
  });
});

describe('Review Changes: the diff editor’s entries', () => {
  const toGit = (uri: string, ref: string) => `git:${uri}@${ref}`;
  it('one entry per change; an added file has no left side, a deleted one no right side', () => {
    const entries = diffEntries(
      [
        { status: GIT_STATUS.MODIFIED, uri: '/r/a.md', originalUri: '/r/a.md' },
        { status: GIT_STATUS.INDEX_ADDED, uri: '/r/new.md', originalUri: '/r/new.md' },
        { status: GIT_STATUS.INDEX_DELETED, uri: '/r/gone.md', originalUri: '/r/gone.md' },
        { status: GIT_STATUS.INDEX_RENAMED, uri: '/r/to.md', originalUri: '/r/from.md' },
      ],
      toGit,
      'BASE',
      'HEAD2',
    );
    assert.deepEqual(entries, [
      ['/r/a.md', 'git:/r/a.md@BASE', 'git:/r/a.md@HEAD2'],
      ['/r/new.md', undefined, 'git:/r/new.md@HEAD2'],
      ['/r/gone.md', 'git:/r/gone.md@BASE', undefined],
      ['/r/to.md', 'git:/r/from.md@BASE', 'git:/r/to.md@HEAD2'],
    ]);
  });

  it('5,000 changes in well under a frame’s budget per thousand', () => {
    const many = Array.from({ length: 5000 }, (_, i) => ({ status: GIT_STATUS.MODIFIED, uri: `/r/${i}.md`, originalUri: `/r/${i}.md` }));
    const t0 = performance.now();
    assert.equal(diffEntries(many, toGit, 'a', 'b').length, 5000);
    assert.ok(performance.now() - t0 < 50, 'building the entries took too long');
  });
});

describe('Review Changes: a failed fetch (repositoryFetchError.ts)', () => {
  it('authentication, network and a missing branch are told apart', () => {
    assert.equal(describeFetchFailure({ gitErrorCode: 'AuthenticationFailed', stderr: 'fatal: Authentication failed' }).reason, 'auth');
    assert.equal(
      describeFetchFailure({ stderr: "remote: Invalid username or password.\nfatal: Authentication failed for 'https://github.com/a/b/'" }).reason,
      'auth',
    );
    assert.equal(describeFetchFailure({ gitErrorCode: 'RemoteConnectionError', stderr: 'fatal: Could not read from remote repository.' }).reason, 'network');
    assert.equal(describeFetchFailure({ stderr: 'fatal: unable to access https://x/: Could not resolve host: x' }).reason, 'network');
    assert.equal(describeFetchFailure({ stderr: "fatal: couldn't find remote ref refs/heads/docs-agent/9" }).reason, 'noBranch');
    assert.equal(describeFetchFailure(new Error('boom')).reason, 'other');
    assert.equal(describeFetchFailure(undefined).reason, 'other');
  });

  it('the detail is git’s last fatal line, bounded, without credentials or control characters', () => {
    const d = describeFetchFailure({
      stderr: `remote: noise\nfatal: unable to access 'https://bob:ghp_secret123@github.com/a/b/': The requested URL returned error: 403\u001b[31m\n`,
    });
    assert.equal(d.detail, "fatal: unable to access 'https://github.com/a/b/': The requested URL returned error: 403[31m");
    assert.ok(!d.detail.includes('ghp_secret123'));
    const long = describeFetchFailure({ stderr: `fatal: ${'x'.repeat(5000)}` });
    assert.ok(long.detail.length <= 300);
  });
});

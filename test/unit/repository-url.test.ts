import * as assert from 'node:assert/strict';
import { parseRepositoryUrl, sameRepository } from '../../src/agent/core/repositoryUrl';

// The job's `source.repository` (from the service) against a workspace repository's remote URLs:
// HTTPS, SSH (scp-like and ssh://), git://, with or without `.git` and a trailing slash, the
// host in any case. Anything else matches nothing.

const JOB = 'https://github.com/acme/acme-docs';

describe('repository URLs (repositoryUrl.ts)', () => {
  const same = [
    'https://github.com/acme/acme-docs',
    'https://github.com/acme/acme-docs.git',
    'https://github.com/acme/acme-docs/',
    'https://github.com/acme/acme-docs.git/',
    'https://GitHub.COM/acme/acme-docs',
    'https://user@github.com/acme/acme-docs.git',
    'https://github.com:443/acme/acme-docs',
    'http://github.com/acme/acme-docs',
    'git@github.com:acme/acme-docs.git',
    'git@GITHUB.com:acme/acme-docs',
    'git@github.com:/acme/acme-docs.git',
    'ssh://git@github.com/acme/acme-docs.git',
    'ssh://git@github.com:22/acme/acme-docs',
    'git://github.com/acme/acme-docs.git',
    '  https://github.com/acme/acme-docs  ',
  ];
  for (const url of same) it(`matches ${url.trim()}`, () => assert.equal(sameRepository(JOB, url), true));

  const other = [
    'https://github.com/acme/acme-docs-old',
    'https://github.com/acme/other',
    'https://gitlab.com/acme/acme-docs',
    'https://github.com/acme',
    'https://github.com/other/acme/acme-docs',
    'file:///srv/acme-docs.git',
    '/srv/git/acme-docs.git',
    '../acme-docs',
    'javascript:alert(1)',
    '-uhttps://github.com/acme/acme-docs',
    '',
  ];
  for (const url of other) it(`does not match ${JSON.stringify(url)}`, () => assert.equal(sameRepository(JOB, url), false));

  it('matches nothing when the job URL itself is not a repository URL', () => {
    assert.equal(sameRepository('file:///srv/acme-docs.git', 'file:///srv/acme-docs.git'), false);
    assert.equal(sameRepository(undefined, JOB), false);
    assert.equal(sameRepository(JOB, undefined), false);
  });

  it('parses host (lower case) and path (as written, without .git)', () => {
    assert.deepEqual(parseRepositoryUrl('git@Example.org:Team/Docs.git'), { host: 'example.org', path: 'Team/Docs' });
    assert.deepEqual(parseRepositoryUrl('https://example.org/group/sub/docs/'), { host: 'example.org', path: 'group/sub/docs' });
    assert.equal(parseRepositoryUrl('https://example.org/'), undefined);
    assert.equal(parseRepositoryUrl('x'.repeat(3000)), undefined);
  });

  it('keeps the path case: another owner is another repository', () => {
    assert.equal(sameRepository(JOB, 'https://github.com/Acme/acme-docs'), false);
  });
});

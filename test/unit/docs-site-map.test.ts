import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DocsSiteMap, navigationPages, pageCandidates, sitePath } from '../../src/host/core/docsSiteMap';

// The site's navigation (docs.json, or mint.json on older sites) read as untrusted JSON, and a
// page path from the service mapped to the workspace file that holds it, without any I/O.

const FIXTURE = join(__dirname, '..', 'fixtures', 'docs-site');

describe('docsSiteMap', () => {
  it('collects the page paths of the fixture site, in order', () => {
    const pages = navigationPages(readFileSync(join(FIXTURE, 'docs.json'), 'utf8'));
    assert.deepEqual(pages?.slice(0, 4), ['getting-started', 'installation', 'authentication', 'erste-schritte']);
    assert.equal(pages?.length, 14);
  });

  it('walks tabs, nested groups, roots and a mint.json navigation array; drops what is not a page', () => {
    const docs = {
      navigation: {
        tabs: [
          { tab: 'Guides', groups: [{ group: 'A', root: 'guides', pages: ['quickstart', { group: 'B', pages: ['api/auth', 42, null, '../etc/passwd'] }] }] },
          { tab: 'Blog', href: 'https://blog.example.com' },
        ],
      },
    };
    assert.deepEqual(navigationPages(JSON.stringify(docs)), ['guides', 'quickstart', 'api/auth']);
    assert.deepEqual(navigationPages(JSON.stringify({ navigation: [{ group: 'G', pages: ['intro', 'more/x'] }] })), ['intro', 'more/x']);
  });

  it('refuses what is not a site file: bad JSON, no navigation, too deep, too large; bounds the pages', () => {
    assert.equal(navigationPages('{not json'), undefined);
    assert.equal(navigationPages('[]'), undefined);
    assert.equal(navigationPages(JSON.stringify({ name: 'x' })), undefined);
    let deep: unknown = { pages: ['deep'] };
    for (let i = 0; i < 200; i++) deep = { group: 'g', pages: [deep] };
    assert.deepEqual(navigationPages(JSON.stringify({ navigation: { pages: [deep] } })), []);
    assert.equal(navigationPages(`{"navigation":{"pages":["a"]},"pad":"${'x'.repeat(3_000_000)}"}`), undefined);
    const many = Array.from({ length: 50_000 }, (_, i) => `p${i}`);
    assert.equal(navigationPages(JSON.stringify({ navigation: { pages: many } }))?.length, 10_000);
  });

  it('normalizes a page path or a URL on the docs site: origin, hash, query and slashes go', () => {
    for (const raw of [
      '/quickstart',
      'quickstart',
      '/quickstart/',
      'https://docs.example.com/quickstart',
      '/quickstart#step-2',
      '/quickstart?x=1#y',
      ' /quickstart ',
    ])
      assert.equal(sitePath(raw), '/quickstart', raw);
    assert.equal(sitePath('https://docs.example.com/api/auth/?tab=1'), '/api/auth');
    assert.equal(sitePath('/'), '/');
    assert.equal(sitePath('https://docs.example.com'), '/');
    assert.equal(sitePath('/caf%C3%A9'), '/café');
  });

  it('refuses `..`, backslashes, odd schemes, control characters and overlong paths', () => {
    for (const raw of [
      '/../secret',
      '/a/../../b',
      '..',
      '/a/./b',
      'a\\b',
      'javascript:alert(1)',
      'command:x',
      'file:///etc/passwd',
      '//evil.example.com/x',
      '/a\u0000b',
      '/a\u202eb',
      '/%2e%2e/x',
      '/a%2fb',
      '/%zz',
      '',
      `/${'a'.repeat(3000)}`,
      'C:/x',
      'https://docs.example.com@evil.example/x',
      'https://user:pw@docs.example.com/x',
    ])
      assert.equal(sitePath(raw), undefined, JSON.stringify(raw.slice(0, 40)));
  });

  it('maps a page to its .mdx or .md file among the files that exist, in the folder and base of its site', () => {
    const map = new DocsSiteMap([
      { folder: 'file:///ws', base: 'docs', files: new Set(['quickstart.mdx', 'api/auth.md', 'index.mdx', 'guides/index.md']) },
      { folder: 'file:///other', base: '', files: new Set(['faq.md']) },
    ]);
    assert.deepEqual(map.fileFor('/quickstart'), { folder: 'file:///ws', path: 'docs/quickstart.mdx' });
    assert.deepEqual(map.fileFor('https://docs.example.com/api/auth#x'), { folder: 'file:///ws', path: 'docs/api/auth.md' });
    assert.deepEqual(map.fileFor('/'), { folder: 'file:///ws', path: 'docs/index.mdx' });
    assert.deepEqual(map.fileFor('/guides'), { folder: 'file:///ws', path: 'docs/guides/index.md' });
    assert.deepEqual(map.fileFor('faq'), { folder: 'file:///other', path: 'faq.md' });
    assert.equal(map.fileFor('/old/removed-page'), undefined);
    assert.equal(map.fileFor('/../quickstart'), undefined);
    assert.deepEqual(pageCandidates('/quickstart'), ['quickstart.mdx', 'quickstart.md', 'quickstart/index.mdx', 'quickstart/index.md']);
    assert.deepEqual(pageCandidates('/../x'), []);
  });

  it('prefers the .mdx file when both exist', () => {
    const map = new DocsSiteMap([{ folder: 'f', base: '', files: new Set(['a.md', 'a.mdx']) }]);
    assert.equal(map.fileFor('/a')?.path, 'a.mdx');
  });
});

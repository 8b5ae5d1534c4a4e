import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator';
import { cloneDocsWorkspace, createDocsRepository, type DocsRepo } from '../emulator/docsRepo';
import { git } from '../emulator/git';

// The emulator's docs site is a real one (a docs.json and its pages), and its agent does real Git
// work on a real bare repository, so that reviewing and previewing an agent's branch run against
// what GitHub would hold. Everything here runs the `git` CLI and plain fetch over HTTP.

const tmpDirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-git-test-'));
  tmpDirs.push(dir);
  return dir;
}
after(() => {
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

describe('emulator: the docs site', () => {
  let emu: RunningEmulator;
  afterEach(() => emu?.close());

  it('serves the pages docs.json names, .mdx and .md, and no other file', async () => {
    const site = tempDir();
    writeFileSync(join(site, 'docs.json'), JSON.stringify({ name: 'Site', navigation: { groups: [{ group: 'A', pages: ['intro', 'guides/setup'] }] } }));
    writeFileSync(join(site, 'intro.mdx'), '---\ntitle: Intro page\n---\n\n# Intro page\n\nWelcome.\n');
    mkdirSync(join(site, 'guides'));
    writeFileSync(join(site, 'guides', 'setup.md'), '# Setup guide\n\nInstall it.\n');
    writeFileSync(join(site, 'draft.md'), '# Draft\n\nNot in the navigation.\n');
    emu = await startEmulator({ docsDir: site });
    const list = await (await fetch(`${emu.url}/docs`)).text();
    assert.match(list, /Intro page/);
    assert.match(list, /Setup guide/);
    assert.doesNotMatch(list, /Draft/);
    assert.equal((await fetch(`${emu.url}/docs/guides/setup`)).status, 200);
    assert.equal((await fetch(`${emu.url}/docs/draft`)).status, 404);
  });

  it('refuses a docs.json that names a page without a file', async () => {
    const site = tempDir();
    writeFileSync(join(site, 'docs.json'), JSON.stringify({ navigation: { pages: ['missing'] } }));
    // Closed at once should it start after all, so that a failure here does not keep mocha running.
    await assert.rejects(
      startEmulator({ docsDir: site }).then((started) => started.close()),
      /docs\.json names "missing"/,
    );
  });
});

/** git in a clone, with none of the user's own configuration (as the emulator runs it). */
const gitIn = (dir: string, ...args: string[]): Promise<string> => git(dir, args).then((out) => out.trim());

describe('emulator: the docs repository', () => {
  let repo: DocsRepo;
  before(async () => {
    repo = await createDocsRepository(tempDir());
  });

  it('is a bare repository whose main holds docs.json and every page it names', async () => {
    assert.equal(await gitIn(repo.bareDir, 'rev-parse', '--is-bare-repository'), 'true');
    const files = (await gitIn(repo.bareDir, 'ls-tree', '-r', '--name-only', 'main')).split('\n');
    assert.ok(files.includes('docs.json'));
    assert.equal(repo.pages.length, 14);
    for (const page of repo.pages) assert.ok(files.includes(page.file), page.file);
    assert.ok(files.some((f) => f.endsWith('.mdx')) && files.some((f) => f.endsWith('.md')));
    assert.match((await repo.readFile('main', 'webhooks.md'))!, /^# Webhooks$/m);
  });

  it('main is the same commit at every start, so an earlier clone still fits', async () => {
    const again = await createDocsRepository(tempDir());
    assert.equal(await again.head('main'), await repo.head('main'));
  });

  it('commits on a branch, and reads each branch as it is', async () => {
    await repo.createBranch('docs-agent/test1');
    await assert.rejects(repo.createBranch('docs-agent/test1'), /update-ref/);
    const sha = await repo.commit('docs-agent/test1', 'Edit', [{ path: 'faq.md', text: 'new text\n' }]);
    assert.equal(await repo.head('docs-agent/test1'), sha);
    assert.equal(await repo.readFile('docs-agent/test1', 'faq.md'), 'new text\n');
    assert.notEqual(await repo.readFile('main', 'faq.md'), 'new text\n');
    assert.equal(await gitIn(repo.bareDir, 'rev-parse', `${sha}^`), await repo.head('main'));
  });

  it('refuses names that are not a branch or a file before any git call, and reads nothing for them', async () => {
    for (const bad of ['--upload-pack=touch x', '-x', '../main', 'a..b', 'main.lock', 'a b', 'ma~in', 'main:faq.md', '']) {
      assert.equal(await repo.readFile(bad, 'faq.md'), undefined, bad);
      await assert.rejects(repo.createBranch(bad), /Not a branch name/, bad);
    }
    for (const bad of ['../docs.json', '/etc/passwd', '-p', 'a/../b']) assert.equal(await repo.readFile('main', bad), undefined, bad);
    await assert.rejects(repo.commit('docs-agent/x', 'm', [{ path: '../x', text: '' }]), /Not a file path/);
    assert.equal(await repo.readFile('no-such-branch', 'faq.md'), undefined);
    assert.equal(await repo.readFile('main', 'no-such-page.md'), undefined);
  });

  it('a workspace clone shows the GitHub URL as origin, and fetches a branch by it from the bare repository', async () => {
    const work = join(tempDir(), 'acme-docs');
    await cloneDocsWorkspace(repo, work);
    // As the config holds it, which is what VS Code's Git extension reads (`git remote get-url` would rewrite it).
    assert.equal(await gitIn(work, 'config', '--get', 'remote.origin.url'), 'https://github.com/acme/acme-docs');
    assert.equal(await gitIn(work, 'rev-parse', 'HEAD'), await repo.head('main'));
    const sha = await repo.commit('docs-agent/fetched', 'Edit', [{ path: 'cli.md', text: 'x\n' }]);
    await gitIn(work, 'fetch', 'origin', 'docs-agent/fetched');
    assert.equal(await gitIn(work, 'rev-parse', 'FETCH_HEAD'), sha);
    // The `.git` form of the URL reaches it too.
    await gitIn(work, 'fetch', 'https://github.com/acme/acme-docs.git', 'docs-agent/fetched');
    assert.equal(await gitIn(work, 'rev-parse', 'FETCH_HEAD'), sha);
  });

  it('an earlier clone is pointed at a new bare repository, keeping its own changes', async () => {
    const work = join(tempDir(), 'acme-docs');
    await cloneDocsWorkspace(repo, work);
    writeFileSync(join(work, 'faq.md'), 'my own edit\n');
    const next = await createDocsRepository(tempDir());
    const sha = await next.commit('docs-agent/next', 'Edit', [{ path: 'sdk.md', text: 'y\n' }]);
    await cloneDocsWorkspace(next, work);
    assert.equal(await gitIn(work, 'rev-parse', 'origin/docs-agent/next'), sha);
    assert.equal(readFileSync(join(work, 'faq.md'), 'utf8'), 'my own edit\n');
    const rules = await gitIn(work, 'config', '--get-regexp', 'insteadof');
    assert.ok(!rules.includes(repo.bareDir), 'the old bare repository is forgotten');
  });
});

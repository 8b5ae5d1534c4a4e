import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../emulator';

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

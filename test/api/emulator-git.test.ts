import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
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

describe('emulator: the agent commits on its branch', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ jobDurationMs: 30 });
  });
  after(() => emu.close());

  type Job = { id: string; status: string; source: { repository: string; ref: string | null } };
  const send = async (path: string, prompt?: string): Promise<Job> => {
    const res = await fetch(`${emu.url}/v2/agent/${emu.projectId}/job${path}`, {
      method: prompt === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${emu.adminKey}`, 'content-type': 'application/json' },
      body: prompt === undefined ? undefined : JSON.stringify({ prompt }),
    });
    assert.ok(res.ok, `${res.status} ${await res.clone().text()}`);
    return (await res.json()) as Job;
  };
  const settled = async (id: string): Promise<Job> => {
    for (let i = 0; i < 200; i++) {
      const job = await send(`/${id}`);
      if (job.status !== 'active') return job;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`job ${id} stayed active`);
  };
  const repoGit = (...args: string[]): Promise<string> => gitIn(emu.docsRepo.bareDir, ...args);
  const changedFiles = async (ref: string): Promise<string[]> => (await repoGit('diff', '--name-only', `main...${ref}`)).split('\n').filter(Boolean);

  it('a job works on its own branch, there from the start, and commits an edit of the page the prompt names', async () => {
    const job = await send('', 'Fix the broken link on the webhooks page');
    const ref = job.source.ref!;
    assert.match(ref, /^docs-agent\/[0-9a-f]{8}$/);
    assert.equal(job.source.repository, 'https://github.com/acme/acme-docs');
    assert.equal(await emu.docsRepo.head(ref), await emu.docsRepo.head('main'), 'the branch exists while the job is active');
    const done = await settled(job.id);
    assert.equal(done.status, 'completed');
    assert.equal(done.source.ref, ref);
    assert.deepEqual(await changedFiles(ref), ['webhooks.md']);
    assert.equal(await repoGit('rev-list', '--count', `main..${ref}`), '1');
    const page = (await emu.docsRepo.readFile(ref, 'webhooks.md'))!;
    assert.ok(page.startsWith((await emu.docsRepo.readFile('main', 'webhooks.md'))!.trimEnd()), 'the page is kept, the edit added');
    assert.match(page, /Fix the broken link on the webhooks page/);
  });

  it('a follow-up adds a second commit on the same branch, to the page the job is about', async () => {
    const job = await send('', 'Explain retries on the webhooks page');
    await settled(job.id);
    const first = await emu.docsRepo.head(job.source.ref!);
    await send(`/${job.id}/message`, 'Also mention the Retry-After header');
    const again = await settled(job.id);
    assert.equal(again.source.ref, job.source.ref);
    assert.equal(await repoGit('rev-list', '--count', `main..${job.source.ref!}`), '2');
    assert.equal(await repoGit('rev-parse', `${job.source.ref!}^`), first);
    const page = (await emu.docsRepo.readFile(job.source.ref!, 'webhooks.md'))!;
    assert.match(page, /Explain retries on the webhooks page[\s\S]*Also mention the Retry-After header/);
  });

  it("edits the file a reviewed prompt names, with its instruction; else the site's first page", async () => {
    const prompt = 'File: docs/configuration.md (lines 3-4)\n\n```markdown\nvisibility_timeout: 60\n```\n\nInstruction: Say the default is 30 seconds';
    const named = await settled((await send('', prompt)).id);
    assert.deepEqual(await changedFiles(named.source.ref!), ['configuration.md']);
    const page = (await emu.docsRepo.readFile(named.source.ref!, 'configuration.md'))!;
    assert.match(page, /Say the default is 30 seconds/);
    assert.doesNotMatch(page.slice(-200), /File: docs|```/, 'the instruction, not the whole prompt');
    const longer = await settled((await send('', 'Link configuration-v1 to the migration notes')).id);
    assert.deepEqual(await changedFiles(longer.source.ref!), ['configuration-v1.md'], 'the longest page name that is a whole word');
    const unnamed = await settled((await send('', 'Make the tone friendlier')).id);
    assert.deepEqual(await changedFiles(unnamed.source.ref!), ['getting-started.md']);
  });

  it('makes its commit while the job runs, and moves the branch only at the outcome; a follow-up meanwhile adds to it', async () => {
    emu.holdJobs(true);
    try {
      const job = await send('', 'Fix the FAQ [[files:300]]');
      const ref = job.source.ref!;
      const made = async (): Promise<string> => gitIn(emu.docsRepo.bareDir, 'for-each-ref', '--format=%(objectname)', `refs/emulator/made/${ref}`);
      for (let i = 0; i < 200 && (await made()) === ''; i++) await new Promise((r) => setTimeout(r, 20));
      assert.notEqual(await made(), '', 'the commit is made before the outcome');
      assert.equal(await emu.docsRepo.head(ref), await emu.docsRepo.head('main'), 'the branch waits for the outcome');
      await send(`/${job.id}/message`, 'And say more about ordering');
      emu.holdJobs(false);
      await settled(job.id);
      assert.equal(await repoGit('rev-list', '--count', `main..${ref}`), '2');
      assert.match((await emu.docsRepo.readFile(ref, 'faq.md'))!, /Fix the FAQ[\s\S]*And say more about ordering/);
    } finally {
      emu.holdJobs(false);
    }
  });

  it('[[files:500]] makes a branch that changes 500 files', async () => {
    const job = await settled((await send('', 'Regenerate the reference [[files:500]]')).id);
    const files = await changedFiles(job.source.ref!);
    assert.equal(files.length, 500);
    assert.equal(new Set(files).size, 500);
  });

  it('no changes, a failure or an archive commit nothing', async () => {
    const jobs = await Promise.all(
      ['Check the intro [[outcome:no-changes]]', 'Rewrite it [[outcome:fail]]', 'Old [[outcome:archive]]'].map((p) => send('', p)),
    );
    for (const job of jobs) {
      await settled(job.id);
      assert.equal(await emu.docsRepo.head(job.source.ref!), await emu.docsRepo.head('main'), job.source.ref!);
    }
  });

  it("a clone made by cloneDocsWorkspace fetches a job's branch by the GitHub URL", async () => {
    const job = await settled((await send('', 'Fix the FAQ')).id);
    const work = join(tempDir(), 'acme-docs');
    await cloneDocsWorkspace(emu.docsRepo, work);
    assert.equal(await gitIn(work, 'config', '--get', 'remote.origin.url'), job.source.repository);
    await gitIn(work, 'fetch', 'origin', job.source.ref!);
    assert.equal(await gitIn(work, 'rev-parse', 'FETCH_HEAD'), await emu.docsRepo.head(job.source.ref!));
    assert.match(await gitIn(work, 'diff', '--stat', 'HEAD', 'FETCH_HEAD'), /faq\.md/);
  });

  it('its bare repository is a temporary one, removed on close', async () => {
    const other = await startEmulator();
    const dir = other.docsRepo.bareDir;
    assert.ok(existsSync(dir));
    await other.close();
    assert.ok(!existsSync(dir));
  });
});

describe('emulator: `npm run emulator -- --clone-into DIR` (what npm start runs)', () => {
  it('clones the docs repository there before its banner, with the GitHub URL as origin', async function () {
    this.timeout(30_000);
    const target = join(tempDir(), 'workspace', 'acme-docs');
    const child = spawn(
      join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx'),
      [join(__dirname, '..', 'emulator', 'cli.ts'), '--port', '0', '--clone-into', target],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      let out = '';
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.includes('Ctrl+C to stop.')) resolve();
        });
        child.stderr.on('data', (d: Buffer) => (out += d.toString()));
        child.once('exit', (code) => reject(new Error(`the emulator exited (${code}): ${out}`)));
      });
      assert.match(out, new RegExp(`docs workspace\\s+${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.equal(await gitIn(target, 'config', '--get', 'remote.origin.url'), 'https://github.com/acme/acme-docs');
      assert.ok(existsSync(join(target, 'docs.json')));
      const bare = /docs repository .* = (\S+)/.exec(out)![1]!;
      assert.equal(await gitIn(target, 'rev-parse', 'HEAD'), await gitIn(bare, 'rev-parse', 'main'));
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });
});

import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../fixtures/agentBranchRepo';
import {
  applyStaleDocsChange,
  commitSampleWorkspace,
  expectedChanges,
  expectedNotStale,
  expectedStaleLines,
  expectedStalePages,
} from '../fixtures/staleDocsChange';

// Issue 32's demo: the sample workspace's relay CLI, a scripted change to it (a flag renamed, a
// default changed, a flag removed), and the docs pages the emulator serves, some of which that
// change makes wrong. The e2e and the benchmark trust these expectations, so they are checked here
// against the real files: the change through real `git diff`, the changed CLI by running it, the
// pages by reading them line by line as the check does.

const ROOT = join(__dirname, '..', '..');
const SAMPLE = join(ROOT, 'sample-workspace');
const DOCS = join(ROOT, 'test', 'fixtures', 'docs-site');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

/** The docs site's pages as docs.json names them (`/cli`), each with its lines. */
function docsPages(): Map<string, string[]> {
  const nav = JSON.parse(readFileSync(join(DOCS, 'docs.json'), 'utf8')) as { navigation: { groups: { pages: string[] }[] } };
  const pages = new Map<string, string[]>();
  for (const slug of nav.navigation.groups.flatMap((g) => g.pages)) {
    const file = ['.md', '.mdx'].map((ext) => join(DOCS, slug + ext)).find((f) => existsSync(f))!;
    pages.set(`/${slug}`, readFileSync(file, 'utf8').split('\n'));
  }
  return pages;
}

const says = (line: string, needles: readonly string[]): boolean => needles.length > 0 && needles.every((n) => line.includes(n));

describe('the stale-docs sample: the relay CLI and its scripted change (issue 32)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'stale-sample-'));
    cpSync(SAMPLE, dir, { recursive: true });
    commitSampleWorkspace(dir);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('renames --dlq, changes the visibility_timeout default and removes --delay, as git diff shows', () => {
    const changed = applyStaleDocsChange(dir);
    assert.deepEqual(changed.sort(), ['relay-cli/relay.defaults.yaml', 'relay-cli/src/messageCommands.ts', 'relay-cli/src/queueCommands.ts']);
    assert.deepEqual(git(dir, 'diff', '--name-only').split('\n').sort(), changed);
    const diff = git(dir, 'diff', '--unified=3');
    const removed = diff.split('\n').filter((l) => l.startsWith('-') && !l.startsWith('---'));
    const added = diff.split('\n').filter((l) => l.startsWith('+') && !l.startsWith('+++'));
    assert.ok(removed.some((l) => l.includes("'--dlq <queue>'")) && added.some((l) => l.includes("'--dead-letter-queue <queue>'")), diff);
    assert.ok(removed.includes('-visibility_timeout: 30s') && added.includes('+visibility_timeout: 60s'), diff);
    assert.ok(
      removed.some((l) => l.includes("'--delay <duration>'")),
      diff,
    );
    assert.ok(!added.some((l) => /--dlq|--delay|30s/.test(l)), `no added line keeps an old form:\n${diff}`);
    // The rename and the removal are in different files, so no hunk pairs --delay with the new name.
    assert.equal(diff.match(/^@@/gm)?.length, 4, diff);
  });

  it('is idempotent: a second run changes nothing', () => {
    applyStaleDocsChange(dir);
    const once = git(dir, 'diff');
    assert.deepEqual(applyStaleDocsChange(dir), []);
    assert.equal(git(dir, 'diff'), once);
  });

  it('leaves a CLI that runs, with the new flag and without the removed one', () => {
    const run = (...args: string[]) =>
      spawnSync(TSX, ['relay-cli/src/main.ts', ...args], { cwd: dir, encoding: 'utf8', env: { ...process.env, RELAY_API_KEY: '' } });
    assert.match(run('--help').stdout, /--dlq/, 'before the change');
    applyStaleDocsChange(dir);
    const help = run('--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /--dead-letter-queue {2}Queue that takes messages/);
    assert.doesNotMatch(help.stdout, /--dlq|--delay/);
    const old = run('queues', 'create', 'orders', '--dlq', 'orders-dlq');
    assert.equal(old.status, 1, 'the old flag is a usage error');
    assert.match(old.stderr, /Unknown flag --dlq/);
    assert.match(readFileSync(join(dir, 'relay-cli', 'relay.defaults.yaml'), 'utf8'), /^visibility_timeout: 60s$/m);
  });

  it("commits the sample without a repository of its own inside it (the demo's docs clone)", () => {
    const other = mkdtempSync(join(tmpdir(), 'stale-sample-nested-'));
    try {
      cpSync(SAMPLE, other, { recursive: true });
      git(join(other, 'docs'), 'init', '--quiet');
      commitSampleWorkspace(other);
      assert.equal(git(other, 'status', '--porcelain'), '', 'everything else is committed');
      assert.ok(
        !git(other, 'ls-files')
          .split('\n')
          .some((f) => f.startsWith('docs')),
        'docs/, a repository of its own, is left out',
      );
      assert.deepEqual(applyStaleDocsChange(other).length, 3);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('refuses a sample it does not recognize, naming the file, rather than half-apply', () => {
    const file = join(dir, 'relay-cli', 'src', 'messageCommands.ts');
    writeFileSync(file, '// rewritten by hand\n');
    assert.throws(() => applyStaleDocsChange(dir), /relay-cli\/src\/messageCommands\.ts/);
    assert.equal(git(dir, 'diff', '--name-only'), 'relay-cli/src/messageCommands.ts', 'nothing else was edited');
  });
});

describe("the docs pages the scripted change makes stale, and those it doesn't", () => {
  const pages = docsPages();
  /** Each page's lines that still say an item's old form: what the check lists. */
  const staleLines = (lines: string[]) => lines.filter((l) => expectedChanges.some((c) => says(l, c.staleNeedles)));

  it('lists exactly the pages whose lines say an old form, most changed items first, with those lines', () => {
    const stale = [...pages].filter(([, lines]) => staleLines(lines).length > 0);
    const rank = (lines: string[]) => expectedChanges.filter((c) => lines.some((l) => says(l, c.staleNeedles))).length;
    stale.sort(([a, x], [b, y]) => rank(y) - rank(x) || a.localeCompare(b));
    assert.deepEqual(
      stale.map(([path]) => path),
      [...expectedStalePages],
    );
    for (const [path, lines] of stale) {
      const shown = staleLines(lines);
      assert.equal(shown.length, expectedStaleLines[path]!.length, path);
      expectedStaleLines[path]!.forEach((fragment, i) => assert.ok(shown[i]!.includes(fragment), `${path}: ${shown[i]} has ${fragment}`));
    }
  });

  it('has a page that says only the new form, and pages that say the words apart: none is stale', () => {
    for (const path of expectedNotStale) {
      assert.ok(pages.has(path), path);
      assert.deepEqual(staleLines(pages.get(path)!), [], path);
    }
    const changelog = pages.get('/changelog')!;
    assert.ok(
      changelog.some((l) => expectedChanges.some((c) => says(l, c.updatedNeedles))),
      'the changelog already says a new form',
    );
    const v1 = pages.get('/configuration-v1')!.join('\n');
    assert.ok(v1.includes('visibility_timeout') && v1.includes('30s'), 'configuration-v1 says both words, on different lines');
  });
});

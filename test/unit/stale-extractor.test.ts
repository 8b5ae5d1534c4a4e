import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { extractChanges } from '../../src/staleDocs/core/changeExtractor';
import { MAX_ITEMS, type ChangedItem, type Extraction } from '../../src/staleDocs/core/staleDocs';
import { MAX_FILE_DIFF_LINES, MAX_LINE_CHARS, MAX_PATH_CHARS, parseUnifiedDiff } from '../../src/staleDocs/core/unifiedDiff';

// Issue 32's extractor, against REAL diffs: a small project (TypeScript, Python, Go, JSON, YAML,
// TOML, .env) committed in a temporary Git repository with the real `git`, changed, and read back
// with `git diff` exactly as the Git extension prints it.

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'core.quotepath=true', '-c', 'diff.renames=true', ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
  });

/** A repository with `before` committed, `moves` made with git mv and `after` written over it, all staged: the staged diff. */
function realDiff(before: Record<string, string | Buffer>, after: Record<string, string | Buffer>, moves: [string, string][] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'stale-extractor-'));
  try {
    const write = (path: string, text: string | Buffer) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    git(dir, 'init', '-q', '-b', 'main');
    for (const [path, text] of Object.entries(before)) write(path, text);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'before');
    for (const [from, to] of moves) {
      mkdirSync(dirname(join(dir, to)), { recursive: true });
      git(dir, 'mv', from, to);
    }
    for (const [path, text] of Object.entries(after)) write(path, text);
    git(dir, 'add', '-A');
    return git(dir, 'diff', '--cached');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const item = (x: Extraction, kind: ChangedItem['kind'], oldForm: string): ChangedItem => {
  const found = x.items.find((i) => i.kind === kind && i.oldForm === oldForm);
  assert.ok(found, `no ${kind} item ${oldForm}; items: ${x.items.map((i) => `${i.kind}:${i.oldForm}→${i.newForm ?? ''}`).join(', ')}`);
  return found;
};
const none = (x: Extraction, oldForm: string) =>
  assert.equal(
    x.items.find((i) => i.oldForm.includes(oldForm)),
    undefined,
    `unexpected item for ${oldForm}`,
  );

/** `text` with each [from, to] made once, in order; a `from` that is not there fails the test. */
function edited(text: string, edits: [string, string][]): string {
  return edits.reduce((t, [from, to]) => {
    assert.ok(t.includes(from), `the fixture has no ${JSON.stringify(from)}`);
    return t.replace(from, to);
  }, text);
}

const CLI_BEFORE = `import { Command } from 'commander';

export function publish(queue: string, body: string): void {
  send(queue, body);
}

export function listQueues(): string[] {
  return [];
}

const program = new Command();
program
  .command('send <queue>')
  .option('--dlq <queue>', 'Dead-letter queue for failed messages')
  .option('--delay <seconds>', 'Delay before delivery')
  .option('-o, --output <format>', 'Output format', 'text');
program.command('purge <queue>');

const token = process.env.RELAY_TOKEN;
// '--not-a-flag' in a comment is not a flag.

app.get('/v1/queues', listHandler);
app.delete('/v1/queues/:name', deleteHandler);

export function check(name: string): void {
  if (!name) throw new Error('Queue not found: check the name');
}
`;

const CLI_AFTER = edited(CLI_BEFORE, [
  ['publish(queue: string, body: string)', 'publish(queue: string, body: string, options: PublishOptions)'],
  ['send(queue, body)', 'send(queue, body, options)'],
  ['listQueues', 'queues'],
  ["'--dlq <queue>'", "'--dead-letter-queue <queue>'"],
  ["  .option('--delay <seconds>', 'Delay before delivery')\n", ''],
  ['RELAY_TOKEN', 'RELAY_API_TOKEN'],
  ['is not a flag.', 'is not a flag, still.'],
  ["app.delete('/v1/queues/:name', deleteHandler);\n", ''],
  ["'Queue not found: check the name'", "'No such queue'"],
]);

const PY_BEFORE = `import argparse
import os


def connect(url, timeout=30):
    return os.getenv('RELAY_URL')


class Client:
    pass


def _private():
    pass


parser = argparse.ArgumentParser()
parser.add_argument('--retention', default='7d')
sub = parser.add_subparsers()
sub.add_parser('purge')


@app.route('/health')
def health():
    raise ValueError('retention must be positive')
`;

const PY_AFTER = edited(PY_BEFORE, [
  ['timeout=30)', 'timeout=60, retries=3)'],
  ['class Client:', 'class RelayClient:'],
  ['def _private():\n    pass\n\n\n', ''],
  ["sub.add_parser('purge')\n", ''],
  ["@app.route('/health')\n", ''],
]);

const GO_BEFORE = `package main

import (
	"errors"
	"flag"
	"net/http"
	"os"
)

func Publish(queue string, body []byte) error {
	return errors.New("queue is full")
}

func helper() {}

func main() {
	region := flag.String("region", "us-east-1", "Region")
	_ = os.Getenv("RELAY_REGION")
	http.HandleFunc("/metrics", metrics)
}
`;

const GO_AFTER = edited(GO_BEFORE, [
  ['func Publish(queue string, body []byte) error {\n\treturn errors.New("queue is full")\n}\n\n', ''],
  ['flag.String("region"', 'flag.String("zone"'],
  ['\thttp.HandleFunc("/metrics", metrics)\n', '\thttp.HandleFunc("/metrics", metrics)\n\t_ = errors.New("the queue is full")\n'],
]);

/** Enough unchanged lines that git sees util.ts moved (and changed), not deleted and added. */
const UTIL_REST = Array.from({ length: 12 }, (_, i) => `export const unchanged${i} = ${i};\n`).join('');

const PROJECT_BEFORE: Record<string, string | Buffer> = {
  'src/cli.ts': CLI_BEFORE,
  'relay.py': PY_BEFORE,
  'main.go': GO_BEFORE,
  'relay.defaults.yaml': 'queue:\n  visibility_timeout: 30s\n  retention: 7d\n  max_receives: 5\n',
  'config.json': '{\n  "endpoint": "https://relay.example",\n  "batchSize": 10\n}\n',
  'relay.toml': '[server]\nregion = "us-east-1"\nport = 8080\n',
  '.env.example': 'RELAY_TOKEN=changeme\nRELAY_URL=http://localhost:8080\n',
  'src/util.ts': `export function helper(a: number): number {\n  return a;\n}\n${UTIL_REST}`,
  'docs/notes.md': 'Notes that move and do not change.\n',
  'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 1, 2, 3]),
};

const PROJECT_AFTER: Record<string, string | Buffer> = {
  'src/cli.ts': CLI_AFTER,
  'relay.py': PY_AFTER,
  'main.go': GO_AFTER,
  'relay.defaults.yaml': 'queue:\n  visibility_timeout: 60s\n  retention: 7d\n  max_deliveries: 5\n',
  'config.json': '{\n  "endpoint": "https://relay.example"\n}\n',
  'relay.toml': '[server]\nregion = "eu-west-1"\nport = 8080\n',
  '.env.example': 'RELAY_API_TOKEN=changeme\nRELAY_URL=http://localhost:8080\n',
  'lib/util.ts': `export function helper(a: number, b: number): number {\n  return a + b;\n}\n${UTIL_REST}`,
  'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 9, 9, 9]),
};

describe('stale docs: the change extractor on real git diffs (changeExtractor.ts)', function () {
  this.timeout(60_000);
  let x: Extraction;
  before(() => {
    x = extractChanges(
      realDiff(PROJECT_BEFORE, PROJECT_AFTER, [
        ['src/util.ts', 'lib/util.ts'],
        ['docs/notes.md', 'docs/guide/notes.md'],
      ]),
    );
  });

  // What the change made, item by item: kind, old form, how, new form; the needles and places where they matter.
  const EXPECTED: {
    kind: ChangedItem['kind'];
    oldForm: string;
    how: ChangedItem['how'];
    newForm?: string;
    /** The stale needles, then the updated ones when they are checked. */
    needles?: [string[], string[]?];
    old?: [string, number];
    new?: [string, number];
  }[] = [
    {
      kind: 'flag',
      oldForm: '--dlq',
      how: 'renamed',
      newForm: '--dead-letter-queue',
      needles: [['--dlq'], ['--dead-letter-queue']],
      old: ['src/cli.ts', 14],
      new: ['src/cli.ts', 14],
    },
    { kind: 'flag', oldForm: '--delay', how: 'removed', needles: [['--delay'], []], old: ['src/cli.ts', 15] },
    { kind: 'symbol', oldForm: 'listQueues', how: 'renamed', newForm: 'queues' },
    {
      kind: 'symbol',
      oldForm: 'publish(queue: string, body: string)',
      how: 'signature',
      newForm: 'publish(queue: string, body: string, options: PublishOptions)',
      needles: [['publish(queue, body)'], ['publish(', 'options']],
    },
    // Python: a new signature, a renamed public class (a private function is not listed, below).
    { kind: 'symbol', oldForm: 'connect(url, timeout=30)', how: 'signature', newForm: 'connect(url, timeout=60, retries=3)' },
    { kind: 'symbol', oldForm: 'Client', how: 'renamed', newForm: 'RelayClient' },
    // Go: a removed exported function, a renamed flag.
    { kind: 'symbol', oldForm: 'Publish(queue string, body []byte)', how: 'removed' },
    { kind: 'flag', oldForm: '-region', how: 'renamed', newForm: '-zone' },
    // Config: a changed value is `default`, the same value under a new key `renamed`, a dropped key `removed`.
    {
      kind: 'configKey',
      oldForm: 'visibility_timeout: 30s',
      how: 'default',
      newForm: 'visibility_timeout: 60s',
      needles: [
        ['visibility_timeout', '30s'],
        ['visibility_timeout', '60s'],
      ],
      old: ['relay.defaults.yaml', 2],
    },
    { kind: 'configKey', oldForm: 'max_receives: 5', how: 'renamed', newForm: 'max_deliveries: 5', needles: [['max_receives'], ['max_deliveries']] },
    { kind: 'configKey', oldForm: 'batchSize: 10', how: 'removed' },
    { kind: 'configKey', oldForm: 'region: us-east-1', how: 'default', newForm: 'region: eu-west-1', needles: [['region', 'us-east-1']] },
    // Renamed in the code and in .env.example: one item (ids are unique, below), at its first place.
    { kind: 'envVar', oldForm: 'RELAY_TOKEN', how: 'renamed', newForm: 'RELAY_API_TOKEN', old: ['.env.example', 1] },
    { kind: 'route', oldForm: 'DELETE /v1/queues/:name', how: 'removed', needles: [['/v1/queues/:name']] },
    { kind: 'route', oldForm: '/health', how: 'removed' },
    { kind: 'command', oldForm: 'purge', how: 'removed' },
    { kind: 'errorMessage', oldForm: 'Queue not found: check the name', how: 'message', newForm: 'No such queue' },
    // A Go message removed in one place and written elsewhere, not in the same run of lines: removed.
    { kind: 'errorMessage', oldForm: 'queue is full', how: 'removed' },
    // A moved file: the old path on the old side, the new path on the new side.
    {
      kind: 'symbol',
      oldForm: 'helper(a: number)',
      how: 'signature',
      newForm: 'helper(a: number, b: number)',
      old: ['src/util.ts', 1],
      new: ['lib/util.ts', 1],
    },
  ];

  for (const e of EXPECTED) {
    it(`${e.kind} ${e.oldForm}: ${e.how}${e.newForm ? ` → ${e.newForm}` : ''}`, () => {
      const got = item(x, e.kind, e.oldForm);
      assert.equal(got.id, `${e.kind}:${e.oldForm}`);
      assert.deepEqual([got.how, got.newForm], [e.how, e.newForm]);
      if (e.how === 'removed') assert.deepEqual([got.updatedNeedles, got.new], [[], undefined]);
      if (e.needles) assert.deepEqual(got.staleNeedles, e.needles[0]);
      if (e.needles?.[1]) assert.deepEqual(got.updatedNeedles, e.needles[1]);
      if (e.old) assert.deepEqual(got.old, { file: e.old[0], line: e.old[1] });
      if (e.new) assert.deepEqual(got.new, { file: e.new[0], line: e.new[1] });
    });
  }

  it('lists nothing for a comment, an unchanged flag, command, key or variable, a private or unexported name, a pure move', () => {
    for (const form of ['--not-a-flag', '--output', 'send', '--retention', '_private', 'helper()', 'RELAY_REGION', 'RELAY_URL', '/metrics']) none(x, form);
    for (const form of ['retention: 7d', 'endpoint', 'retention must be positive', 'Notes']) none(x, form);
  });

  it('a binary file is skipped as binary; every file is counted', () => {
    assert.deepEqual(x.skipped, [{ path: 'logo.png', why: 'binary' }]);
    assert.equal(x.skippedCount, 1);
    assert.equal(x.files, 10);
  });

  it('ranks removed and renamed names and flags over new signatures, defaults and messages, and keeps ids unique', () => {
    const rank = (i: ChangedItem) => x.items.indexOf(i);
    assert.ok(rank(item(x, 'flag', '--dlq')) < rank(item(x, 'configKey', 'visibility_timeout: 30s')));
    assert.ok(rank(item(x, 'symbol', 'listQueues')) < rank(item(x, 'symbol', 'publish(queue: string, body: string)')));
    assert.ok(rank(item(x, 'configKey', 'visibility_timeout: 30s')) < rank(item(x, 'errorMessage', 'Queue not found: check the name')));
    assert.equal(new Set(x.items.map((i) => i.id)).size, x.items.length);
    for (let k = 1; k < x.items.length; k++) assert.ok(x.items[k - 1]!.weight >= x.items[k]!.weight);
  });
});

describe('stale docs: a secret in a config or .env file never becomes a search', function () {
  this.timeout(60_000);

  // The needles are the search query (staleSearch.ts), sent to the docs service or asked of the
  // assistant: a changed secret must not be in them, nor in a form the tree or the draft shows.
  it('keeps the value of a secret-named key or a credential-shaped value out of every item, and still finds a plain default', () => {
    const before = {
      '.env.example': 'API_KEY=sk_live_4eC39HqLyjWDarjtT1zdp7dc\nRELAY_REGION=eu-west-1\nSESSION_ID=a8F3k29Dm4Lq7Zx1Vb6Nc0Tp\n',
      'config/relay.yaml': 'client_secret: hunter2hunter2\ndatabase_url: postgres://relay:s3cr3tpw@db.internal/relay\nvisibility_timeout: 30s\n',
    };
    const after = {
      '.env.example': 'API_KEY=sk_live_9ZQ4mPxW2vLk8RtY6uNb3cHd\nRELAY_REGION=us-east-1\nSESSION_ID=Qw7Er5Ty3Ui1Op9As8Df6Gh4\n',
      'config/relay.yaml': 'client_secret: correcthorsebattery\ndatabase_url: postgres://relay:n3wpassw0rd@db.internal/relay\nvisibility_timeout: 60s\n',
    };
    const x = extractChanges(realDiff(before, after));
    const secrets = ['sk_live', 'hunter2', 'correcthorse', 's3cr3tpw', 'n3wpassw0rd', 'a8F3k29', 'Qw7Er5'];
    for (const i of x.items) {
      const shown = [i.oldForm, i.newForm ?? '', ...i.staleNeedles, ...i.updatedNeedles].join(' ');
      for (const secret of secrets) assert.ok(!shown.includes(secret), `${i.id} carries ${secret}: ${shown}`);
    }
    assert.deepEqual(item(x, 'envVar', 'RELAY_REGION=eu-west-1').staleNeedles, ['RELAY_REGION', 'eu-west-1']);
    assert.deepEqual(item(x, 'configKey', 'visibility_timeout: 30s').staleNeedles, ['visibility_timeout', '30s']);
  });
});

describe('stale docs: generated, vendored and oversized files are skipped', function () {
  this.timeout(120_000);

  it('a 10,000-line generated file, a lockfile, dist/, vendor/ and a minified bundle are skipped, not read', () => {
    const table = (prefix: string) =>
      `// Code generated by tablegen. DO NOT EDIT.\n${Array.from({ length: 10_000 }, (_, i) => `export const ${prefix}${i} = ${i};`).join('\n')}\n`;
    const minified = (msg: string) => `${Array.from({ length: 200 }, (_, i) => `function f${i}(a){return a+${i}}`).join(';')};throw new Error("${msg}");\n`;
    const x = extractChanges(
      realDiff(
        {
          'src/tables.ts': table('T'),
          'package-lock.json': '{\n  "name": "relay",\n  "version": "1.0.0"\n}\n',
          'dist/index.js': "throw new Error('built message');\n",
          'vendor/lib.go': 'package lib\n\nfunc Vendored() {}\n',
          'web/bundle.js': minified('old minified message'),
          'src/real.ts': 'export function kept(): void {}\n',
        },
        {
          'src/tables.ts': table('U'),
          'package-lock.json': '{\n  "name": "relay",\n  "version": "1.0.1"\n}\n',
          'dist/index.js': "throw new Error('new built message');\n",
          'vendor/lib.go': 'package lib\n',
          'web/bundle.js': minified('new minified message'),
          'src/real.ts': 'export function renamed(): void {}\n',
        },
      ),
    );
    assert.deepEqual(
      x.items.map((i) => i.id),
      ['symbol:kept'],
    );
    assert.deepEqual(
      [...x.skipped].sort((a, b) => a.path.localeCompare(b.path)),
      [
        { path: 'dist/index.js', why: 'generated' },
        { path: 'package-lock.json', why: 'generated' },
        { path: 'src/tables.ts', why: 'generated' },
        { path: 'vendor/lib.go', why: 'vendored' },
        { path: 'web/bundle.js', why: 'generated' },
      ],
    );
    assert.equal(x.files, 6);
  });

  it('a source file with one long unbroken line (an inline image) is still read', () => {
    const image = `const LOGO = 'data:image/png;base64,${'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk'.repeat(30)}';`;
    const x = extractChanges(
      realDiff(
        { 'src/cli.ts': `${image}\nprogram.option('--dlq <queue>', 'dead-letter queue');\n` },
        { 'src/cli.ts': `${image.replace('const LOGO', 'const BRAND')}\nprogram.option('--dead-letter-queue <queue>', 'dead-letter queue');\n` },
      ),
    );
    assert.deepEqual(x.skipped, []);
    assert.equal(item(x, 'flag', '--dlq').newForm, '--dead-letter-queue');
  });

  it('a file whose diff is over the bound of lines is tooLarge, and the files after it are still read', () => {
    const lines = (p: string) => Array.from({ length: MAX_FILE_DIFF_LINES }, (_, i) => `const ${p}${i} = ${i};`).join('\n');
    const x = extractChanges(
      realDiff(
        { 'a/big.ts': `${lines('a')}\n`, 'b/after.ts': "export const limit = 'old';\n" },
        { 'a/big.ts': `${lines('b')}\nthrow new Error('hidden in a big file');\n`, 'b/after.ts': "export const bound = 'old';\n" },
      ),
    );
    assert.deepEqual(x.skipped, [{ path: 'a/big.ts', why: 'tooLarge' }]);
    assert.deepEqual(
      x.items.map((i) => [i.id, i.how, i.newForm]),
      [['symbol:limit', 'renamed', 'bound']],
    );
  });
});

describe('stale docs: the unified-diff parser (unifiedDiff.ts)', () => {
  it('reads renames, binary markers, new and deleted files, quoted paths and both sides’ line numbers', () => {
    const patch = [
      'diff --git a/old name.ts b/new name.ts',
      'similarity index 90%',
      'rename from old name.ts',
      'rename to new name.ts',
      'index 1..2 100644',
      '--- a/old name.ts',
      '+++ b/new name.ts',
      '@@ -3,4 +3,3 @@ context',
      ' same',
      '-export const a = 1;',
      '+export const b = 1;',
      '--- not a header: a removed line',
      ' end',
      '\\ No newline at end of file',
      'diff --git "a/caf\\303\\251.ts" "b/caf\\303\\251.ts"',
      'new file mode 100644',
      '--- /dev/null',
      '+++ "b/caf\\303\\251.ts"',
      '@@ -0,0 +1 @@',
      '+export const c = 2;',
      'diff --git a/img.png b/img.png',
      'deleted file mode 100644',
      'Binary files a/img.png and /dev/null differ',
    ].join('\n');
    const files = parseUnifiedDiff(patch);
    assert.equal(files.length, 3);
    const [renamed, created, image] = files;
    assert.deepEqual([renamed!.oldPath, renamed!.newPath, renamed!.renamed, renamed!.binary], ['old name.ts', 'new name.ts', true, false]);
    assert.deepEqual(
      renamed!.hunks[0]!.lines.map((l) => [l.side, l.line, l.text, l.block]),
      [
        ['old', 4, 'export const a = 1;', 0],
        ['new', 4, 'export const b = 1;', 0],
        ['old', 5, '-- not a header: a removed line', 0],
      ],
    );
    assert.deepEqual([created!.oldPath, created!.newPath, created!.path], [undefined, 'café.ts', 'café.ts']);
    assert.deepEqual(created!.hunks[0]!.lines, [{ side: 'new', line: 1, text: 'export const c = 2;', block: 0 }]);
    assert.deepEqual([image!.oldPath, image!.newPath, image!.path, image!.binary], ['img.png', undefined, 'img.png', true]);
  });

  it('drops a file whose path is over the bound, and reads the next', () => {
    const long = `${'d/'.repeat(MAX_PATH_CHARS / 2)}f.ts`;
    const files = parseUnifiedDiff(`--- a/${long}\n+++ b/${long}\n@@ -1 +1 @@\n-a\n+b\n--- a/ok.ts\n+++ b/ok.ts\n@@ -1 +1 @@\n-a\n+b\n`);
    assert.deepEqual(
      files.map((f) => f.path),
      ['ok.ts'],
    );
  });

  it('cuts a line over the bound, and reads a hostile patch in linear time', () => {
    const long = 'x'.repeat(MAX_LINE_CHARS * 3);
    const files = parseUnifiedDiff(`--- a/f.ts\n+++ b/f.ts\n@@ -1 +1 @@\n-${long}\n+y\n`);
    assert.equal(files[0]!.hunks[0]!.lines[0]!.text.length, MAX_LINE_CHARS);
    // Quotes, dashes and brackets by the hundred thousand: no regex may backtrack on them.
    // Lines under the minified bound (a longer line skips its file unread), 100 of each: 1.3 MB, under the file bound.
    const shapes = ['"', "'", '-', '--', '(', ' ', '`', '\\', 'a-', '--a ', 'process.env.', "throw new Error('", ".option('--"];
    const hostile = shapes.flatMap((s) => Array.from({ length: 100 }, () => s.repeat(Math.floor(980 / s.length))));
    const t0 = performance.now();
    const x = extractChanges(
      ['--- a/h.ts', '+++ b/h.ts', `@@ -1,${hostile.length} +1,1 @@`, ...hostile.map((h) => `-export const ${h}`), '+ok', ''].join('\n'),
    );
    const took = performance.now() - t0;
    assert.ok(took < 2000, `took ${took} ms`);
    assert.deepEqual(x.skipped, [], 'the hostile file was read, not skipped');
    assert.ok(x.items.length <= MAX_ITEMS);
  });
});

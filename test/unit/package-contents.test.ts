import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// What the .vsix carries, checked file by file: `vsce ls` (with the `package` script's
// --no-dependencies) must list exactly the files below. A source map, a test fixture, a README
// screenshot or anything else that starts shipping fails this test, and so does a shipped file
// that goes missing. A new shipped file is added here on purpose, in the same commit.
//
// It reads dist/: `npm test` builds before mocha runs. A development build leaves source maps in
// dist/, which is the case that matters: they must not ship.

const ROOT = join(__dirname, '..', '..');
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');

const EXPECTED = [
  'CHANGELOG.md',
  'LICENSE',
  'README.md',
  'package.json',
  'dist/codicon.css',
  'dist/codicon.ttf',
  'dist/extension.js',
  'dist/web/extension.js',
  'dist/webview.js',
  'media/chat.css',
  'media/docs-assistant.svg',
  'media/icon.png',
  'media/walkthrough/admin-key.md',
  'media/walkthrough/assistant-key.md',
  'media/walkthrough/configure.md',
  'media/walkthrough/first-job.md',
  'media/walkthrough/first-question.md',
  'resources/chat/docs-writer.agent.md',
  'resources/chat/docs-writer.instructions.md',
  'resources/chat/fix-docs.prompt.md',
];

/** Localization files ship whenever the project has them: package.nls.json (+ .<lang>) and l10n/ bundles. */
function localizationFiles(root: string): string[] {
  const nls = readdirSync(root).filter((f) => /^package\.nls(\.[\w-]+)?\.json$/.test(f));
  const l10n = existsSync(join(root, 'l10n'))
    ? readdirSync(join(root, 'l10n'))
        .filter((f) => f.endsWith('.json'))
        .map((f) => `l10n/${f}`)
    : [];
  return [...nls, ...l10n];
}

function expectedFor(root: string): string[] {
  return [...EXPECTED, ...localizationFiles(root)].sort();
}

/** The files `vsce ls --no-dependencies` lists for the project in `cwd`. */
function vsceLs(cwd: string): string[] {
  const r = spawnSync(process.execPath, [VSCE, 'ls', '--no-dependencies'], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`vsce ls failed (${r.status}) in ${cwd}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .sort();
}

function compare(actual: string[], expected: string[]): { unexpected: string[]; missing: string[] } {
  return { unexpected: actual.filter((f) => !expected.includes(f)), missing: expected.filter((f) => !actual.includes(f)) };
}

function assertShipsExactly(cwd: string, listed = vsceLs(cwd)): void {
  const { unexpected, missing } = compare(listed, expectedFor(cwd));
  assert.deepEqual(
    { unexpected, missing },
    { unexpected: [], missing: [] },
    `The .vsix would not carry exactly the expected files.\n` +
      (unexpected.length ? `Unexpected (leave them out in .vscodeignore, or add them to EXPECTED in this test): ${unexpected.join(', ')}\n` : '') +
      (missing.length ? `Missing (build first, or negate them in .vscodeignore): ${missing.join(', ')}\n` : ''),
  );
}

/** A copy of what `vsce ls` looks at: the manifest, .vscodeignore and the candidate files. */
function projectCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-assistant-vsce-ls-'));
  for (const f of ['package.json', '.vscodeignore', 'README.md', 'LICENSE', 'CHANGELOG.md', 'dist', 'media', 'resources', 'l10n', ...localizationFiles(ROOT)]) {
    if (existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(dir, f), { recursive: true });
  }
  return dir;
}

describe('the packaged file list (vsce ls)', function () {
  // vsce walks the whole working tree, .vscode-test/ (code-server) included, before it applies
  // .vscodeignore: over 10 s on a busy machine. The repository is listed once.
  this.timeout(120_000);
  let shipped: string[] = [];
  const copies: string[] = [];
  const copy = () => {
    const dir = projectCopy();
    copies.push(dir);
    return dir;
  };
  after(() => copies.forEach((d) => rmSync(d, { recursive: true, force: true })));

  before(function () {
    if (!existsSync(join(ROOT, 'dist', 'extension.js'))) throw new Error('dist/ is empty: run `npm run build` first (`npm test` does).');
    shipped = vsceLs(ROOT);
  });

  it('lists exactly the expected files, and no source map from the build', function () {
    assertShipsExactly(ROOT, shipped);
  });

  it('ships every file package.json points at (icon, view icons, walkthrough media, chat prompt files)', function () {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const c = pkg.contributes;
    const referenced = [
      pkg.icon,
      pkg.main.replace(/^\.\//, ''),
      ...c.viewsContainers.activitybar.map((v: { icon: string }) => v.icon),
      ...Object.values(c.views as Record<string, { icon?: string }[]>)
        .flat()
        .map((v) => v.icon)
        .filter(Boolean),
      ...c.walkthroughs.flatMap((w: { steps: { media: Record<string, unknown> }[] }) =>
        w.steps.flatMap((s) =>
          Object.entries(s.media)
            .filter(([k]) => ['markdown', 'image', 'svg'].includes(k))
            .flatMap(([, v]) => (typeof v === 'string' ? [v] : Object.values(v as object))),
        ),
      ),
      ...['chatAgents', 'chatInstructions', 'chatPromptFiles'].flatMap((point) => (c[point] as { path: string }[]).map((f) => f.path.replace(/^\.\//, ''))),
    ] as string[];
    assert.deepEqual(
      referenced.filter((f) => !shipped.includes(f)),
      [],
      'package.json names files the .vsix would not carry',
    );
  });

  it('bites: a stray file under a shipped folder is reported as unexpected', function () {
    const dir = copy();
    writeFileSync(join(dir, 'media', 'walkthrough', 'notes-to-self.md'), 'draft\n');
    assert.throws(() => assertShipsExactly(dir), /Unexpected [^\n]*media\/walkthrough\/notes-to-self\.md/);
  });

  it('bites: the old .vscodeignore (negated folders) ships source maps and README screenshots', function () {
    const dir = copy();
    writeFileSync(
      join(dir, '.vscodeignore'),
      ['**', '!dist/**', '!media/**', '!README.md', '!LICENSE', '!CHANGELOG.md', '!package.json', 'dist/**/*.map', ''].join('\n'),
    );
    writeFileSync(join(dir, 'dist', 'extension.js.map'), '{}');
    mkdirSync(join(dir, 'media', 'screenshots'), { recursive: true });
    cpSync(join(ROOT, 'media', 'icon.png'), join(dir, 'media', 'screenshots', 'chat.png'));
    let message = '';
    try {
      assertShipsExactly(dir);
    } catch (e) {
      message = (e as Error).message;
    }
    assert.match(message, /Unexpected [^\n]*dist\/extension\.js\.map/);
    assert.match(message, /Unexpected [^\n]*media\/screenshots\/chat\.png/);
  });

  it('bites: a shipped file that goes missing is reported', function () {
    const dir = copy();
    rmSync(join(dir, 'media', 'icon.png'));
    assert.throws(() => assertShipsExactly(dir), /Missing [^\n]*media\/icon\.png/);
  });
});

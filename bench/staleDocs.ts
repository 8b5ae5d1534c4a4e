import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractChanges } from '../src/staleDocs/core/changeExtractor';
import type { Extraction } from '../src/staleDocs/core/staleDocs';
import { fullGc, median, type BenchResult } from './util';

// 12. Check Docs for My Changes (issue 32): the extractor on a 10,000-line diff, against `git diff`
// of the same change run alone. A real repository in a temporary folder: 40 source files
// (TypeScript, Python, Go) and 10 YAML config files, every other declaration renamed, re-signed or
// given a new default, so most changed lines hold something the readers look for. `git diff` is
// timed as the wiring gets it (a process, its output read whole); the extractor on that output.
// A ratio of medians, rounds alternating, in one run; the heap one extraction allocates, and what
// its result holds after a full GC.

const NAME = 'Check Docs for My Changes: the extractor on a 10,000-line diff, against git diff of the same change alone';
/** The project: source files, YAML files, declarations per source file (a few lines each, every other one changed), keys per YAML file. */
const SIZE = { sourceFiles: 40, configFiles: 10, declarations: 25, configKeys: 250 } as const;
/** Rounds of each, alternating; and the budget: at most twice git diff of the same change. */
const RUN = { rounds: 15, budgetRatio: 2 } as const;

const ms = (n: number): string => `${n < 10 ? n.toFixed(2) : Math.round(n)} ms`;
const MB = (n: number): string => `${(n / (1024 * 1024)).toFixed(1)} MB`;
const KB = (n: number): string => `${Math.round(n / 1024)} KB`;

/** One source file, with every other declaration changed when `changed`. */
function source(lang: 'ts' | 'py' | 'go', file: number, changed: boolean): string {
  const out: string[] = [];
  for (let i = 0; i < SIZE.declarations; i++) {
    const n = `${file}_${i}`;
    const c = changed && i % 2 === 0;
    const name = c ? `renamed${n}` : `name${n}`;
    if (lang === 'ts') {
      out.push(
        `export function ${name}(queue: string, body: string${c ? ', options: Options' : ''}): void {`,
        `  program.command('cmd${n}').option('--${c ? 'new' : 'old'}-flag-${n} <value>', 'What flag ${n} does');`,
        `  const token = process.env.${c ? 'NEW' : 'OLD'}_VAR_${n};`,
        `  app.get('/v1/${c ? 'things' : 'items'}/${n}', handler);`,
        `  if (!token) throw new Error('Setting ${n} ${c ? 'is missing' : 'was not found'}');`,
        '}',
        '',
      );
    } else if (lang === 'py') {
      out.push(
        `def ${name}(url, timeout=${c ? 60 : 30}):`,
        `    parser.add_argument('--${c ? 'new' : 'old'}-opt-${n}', default='x')`,
        `    value = os.getenv('${c ? 'NEW' : 'OLD'}_ENV_${n}')`,
        `    raise ValueError('value ${n} ${c ? 'is invalid' : 'must be set'}')`,
        '',
      );
    } else {
      out.push(
        `func ${c ? 'Renamed' : 'Name'}${n}(queue string, body []byte) error {`,
        `\tregion := flag.String("${c ? 'zone' : 'region'}${n}", "us-east-1", "Region")`,
        `\treturn errors.New("queue ${n} ${c ? 'is full' : 'has no room'}")`,
        '}',
        '',
      );
    }
  }
  return `${out.join('\n')}\n`;
}

function config(file: number, changed: boolean): string {
  const keys = Array.from({ length: SIZE.configKeys }, (_, i) => `  key_${file}_${i}: ${changed && i % 2 === 0 ? '60s' : '30s'}`);
  return `settings:\n${keys.join('\n')}\n`;
}

function writeProject(dir: string, changed: boolean): void {
  const langs = ['ts', 'py', 'go'] as const;
  for (let f = 0; f < SIZE.sourceFiles; f++) {
    const lang = langs[f % 3]!;
    writeFileSync(join(dir, 'src', `file${f}.${lang}`), source(lang, f, changed));
  }
  for (let f = 0; f < SIZE.configFiles; f++) writeFileSync(join(dir, 'config', `settings${f}.yaml`), config(f, changed));
}

/** The CPU time (user + system, ms) of one `git diff` in `dir`, as its shell's `times` reports its children's. */
function gitDiffCpu(dir: string): number {
  // `times` counts in clock ticks (10 ms): the mean of 20 runs.
  const out = execFileSync('sh', ['-c', 'for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do git diff >/dev/null; done; times'], {
    cwd: dir,
    encoding: 'utf8',
  });
  const children = out.trim().split('\n')[1] ?? '';
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return ((seconds[0]! + seconds[1]!) * 1000) / 20;
}

export async function benchStaleDocs(): Promise<BenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'stale-bench-'));
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: dir, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  try {
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'config'));
    git('init', '-q', '-b', 'main');
    writeProject(dir, false);
    git('add', '-A');
    git('-c', 'user.name=bench', '-c', 'user.email=bench@bench', 'commit', '-q', '-m', 'before');
    writeProject(dir, true);

    const patch = git('diff');
    const diffLines = patch.split('\n').length;
    const changedLines = patch.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l)).length;
    const alone: number[] = [];
    const extract: number[] = [];
    const aloneCpu: number[] = [];
    const extractCpu: number[] = [];
    let x: Extraction = extractChanges(patch);
    for (let r = 0; r < 2; r++) git('diff');
    for (let r = 0; r < RUN.rounds; r++) {
      let t0 = performance.now();
      git('diff');
      alone.push(performance.now() - t0);
      aloneCpu.push(gitDiffCpu(dir));
      t0 = performance.now();
      const c0 = process.cpuUsage();
      x = extractChanges(patch);
      extract.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      extractCpu.push((c.user + c.system) / 1000);
    }

    // What one extraction allocates (garbage included: no collection runs during it unless the
    // young generation fills, which only lowers the figure), and what its result holds: the heap
    // with it, less the heap once it is let go, each after a full GC.
    const byKind = Object.entries(x.items.reduce<Record<string, number>>((m, i) => ({ ...m, [i.kind]: (m[i.kind] ?? 0) + 1 }), {})).map(
      ([k, n]) => `${k} ${n}`,
    );
    const counts = { items: x.items.length, dropped: x.dropped, files: x.files };
    x = { items: [], dropped: 0, files: 0, skipped: [], skippedCount: 0 };
    fullGc();
    const idle = process.memoryUsage().heapUsed;
    const holder: { result?: Extraction } = { result: extractChanges(patch) };
    const allocated = process.memoryUsage().heapUsed - idle;
    fullGc();
    const withResult = process.memoryUsage().heapUsed;
    delete holder.result;
    fullGc();
    const held = withResult - process.memoryUsage().heapUsed;
    const ratio = median(extract) / median(alone);
    const cpuRatio = median(extractCpu) / median(aloneCpu);
    return {
      name: NAME,
      rows: [
        [
          'change',
          `${SIZE.sourceFiles} source files (TypeScript, Python, Go) and ${SIZE.configFiles} YAML files; git diff: ${diffLines.toLocaleString()} lines (${changedLines.toLocaleString()} changed), ${MB(patch.length)}`,
        ],
        ['git diff alone (a process, output read whole)', `median ${ms(median(alone))} (${alone.map((t) => t.toFixed(1)).join(', ')})`],
        ['extractChanges on its output', `median ${ms(median(extract))} (${extract.map((t) => t.toFixed(1)).join(', ')})`],
        ['ratio', `${ratio.toFixed(2)}×`],
        [
          'CPU time, which a busy machine disturbs less',
          `git diff ${ms(median(aloneCpu))} (its process, from the shell's \`times\`), extractor ${ms(median(extractCpu))} (this process, GC threads included): ${cpuRatio.toFixed(2)}×`,
        ],
        [
          'load average at the end (2 cores)',
          loadavg()
            .map((l) => l.toFixed(1))
            .join(', '),
        ],
        ['items', `${counts.items} kept of ${counts.items + counts.dropped} (${byKind.join(', ')}), ${counts.files} files`],
        ['heap allocated by one extraction (garbage included)', MB(allocated)],
        ['heap held by its result (with it, less without it, each after a full GC)', KB(held)],
      ],
      budgets: [
        {
          what: 'extractor / git diff of the same change alone',
          value: `${ratio.toFixed(2)}×`,
          budget: `≤ ${RUN.budgetRatio}×`,
          met: ratio <= RUN.budgetRatio,
        },
      ],
      raw: {
        aloneCpu,
        extractCpu,
        cpuRatio,
        loadavg: loadavg(),
        diffLines,
        changedLines,
        patchChars: patch.length,
        alone,
        extract,
        ratio,
        allocatedBytes: allocated,
        heldBytes: held,
        items: counts.items,
        dropped: counts.dropped,
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { ReviewDriverOutput, ReviewRound } from './review-driver';
import type { ReviewSteps } from './reviewSteps';
import { ROOT } from './shadow';
import { median, percentile, type Budget, type BenchResult } from './util';

// 8. Review Changes on a 500-file agent branch (issue 30): from the click on the job row's inline
// action to the multi-file diff editor open (its first entry in the DOM), in code-server with the
// packaged extension and the real Git extension, against `git diff --stat` of the same two commits
// run alone, as a ratio. The longest animation frame from the click to a second after the editor
// opened says whether the window froze. Then the same on a branch of thousands of files (the
// issue's "opens without freezing the window"). Each round is split into its steps from the Git
// extension's own log (reviewSteps.ts): which share is the extension's, which VS Code's. The rounds
// run in review-driver.ts, under tsx in a child process (the e2e harness cannot be bundled).

const CODE_SERVER_ENV = 'DOCS_ASSISTANT_CODE_SERVER';
const VSIX = join(ROOT, 'docs-assistant.vsix');
const NAME = 'Review Changes: a 500-file agent branch, click → multi-file diff editor open, against git diff --stat (and a 2,000-file one)';
/** Budgets: the editor open within 3 s, and no frame longer than a quarter second (a window that does not freeze). */
const OPEN_BUDGET_MS = 3000;
const FRAME_BUDGET_MS = 250;
const SIZES = [
  { files: 500, rounds: Number(process.env.REVIEW_BENCH_ROUNDS ?? 5) },
  { files: Number(process.env.REVIEW_BENCH_LARGE_FILES ?? 2000), rounds: Number(process.env.REVIEW_BENCH_LARGE_ROUNDS ?? 2) },
].filter((s) => s.files > 0 && s.rounds > 0);

function skipped(why: string): BenchResult {
  return { name: NAME, rows: [['not run', why]], budgets: [], raw: { skipped: why } };
}

function missing(): string | undefined {
  const target = process.env[CODE_SERVER_ENV]?.trim() || '4.100.3';
  const dir = target === '4.100.3' ? 'code-server' : `code-server-${target}`;
  if (!existsSync(join(ROOT, '.vscode-test', dir))) return `needs code-server ${target}: node scripts/vscode/install-code-server.mjs ${target}.`;
  if (!existsSync(VSIX)) return 'needs docs-assistant.vsix: run `npm run package` first.';
  if (!existsSync('/usr/bin/chromium')) return 'needs /usr/bin/chromium (apt-get install -y chromium).';
  return undefined;
}

const ms = (n: number): string => `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;

function drive(files: number, rounds: number): ReviewDriverOutput {
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'review-driver.ts')], {
    cwd: ROOT,
    env: { ...process.env, REVIEW_BENCH_FILES: String(files), REVIEW_BENCH_ROUNDS: String(rounds) },
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    timeout: 20 * 60_000,
    maxBuffer: 16 * 1024 * 1024,
  });
  const last = r.stdout?.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !last.startsWith('{')) throw new Error(`review-driver.ts failed (exit ${r.status ?? r.signal}): ${r.error?.message ?? last}`);
  return JSON.parse(last) as ReviewDriverOutput;
}

/** The median of one step over the rounds whose log showed the steps. */
function step(rounds: ReviewRound[], key: keyof ReviewSteps): number {
  return median(rounds.flatMap((r) => (r.steps ? [r.steps[key]] : [])));
}

/** The step split, side by side: who owns each step, its median, its share of the median open. */
function splitRows(rounds: ReviewRound[], open: number): [string, string][] {
  if (!rounds.some((r) => r.steps)) return [['  step split', 'not shown: the Git extension’s log did not show the round’s commands']];
  const share = (n: number): string => `${ms(n)} (${Math.round((100 * n) / Math.max(1, open))} %)`;
  const ours = step(rounds, 'beforeFetchMs') + step(rounds, 'commitMergeBaseDiffMs') + step(rounds, 'toFirstReadMs');
  return [
    ['  ours: click → fetch starts (job resolved, repository found)', share(step(rounds, 'beforeFetchMs'))],
    ['  Git extension: the fetch, with the status refresh it runs', share(step(rounds, 'fetchMs'))],
    ['  ours: getCommit, merge-base, diffBetween (git through the API)', share(step(rounds, 'commitMergeBaseDiffMs'))],
    ['  ours + VS Code: entries, vscode.changes → first document read', share(step(rounds, 'toFirstReadMs'))],
    [
      '  VS Code: the diff editor reads every side before it shows one',
      `${share(step(rounds, 'readsMs'))}, ${Math.round(step(rounds, 'reads'))} git processes`,
    ],
    ['  VS Code: last read → first entry in the DOM (the view is built)', share(step(rounds, 'afterReadsMs'))],
    ['  the extension’s own share (the three "ours" rows)', share(ours)],
    ['  after it showed: git still busy (documents read again)', `${ms(step(rounds, 'settleMs'))}, ${Math.round(step(rounds, 'readsAfter'))} git processes`],
  ];
}

export async function benchReview(): Promise<BenchResult> {
  const why = missing();
  if (why) return skipped(why);
  const load = loadavg()[0]!;
  const stale = statSync(VSIX).mtimeMs < statSync(join(ROOT, 'src', 'agent', 'vscode', 'review', 'branchReview.ts')).mtimeMs;
  const rows: [string, string][] = [
    ['extension', `docs-assistant.vsix${stale ? ' (OLDER than src/: run `npm run package` to measure the current code)' : ''}`],
  ];
  const budgets: Budget[] = [];
  const raw: Record<string, unknown> = { loadAverage: load, vsixOlderThanSrc: stale };
  for (const { files, rounds } of SIZES) {
    const out = drive(files, rounds);
    if ('skipped' in out) return skipped(out.skipped);
    const open = out.rounds.map((x) => x.openMs);
    const frames = out.rounds.map((x) => x.longestFrameMs);
    const gitMs = median(out.gitDiffStatMs);
    const ratio = median(open) / Math.max(0.1, gitMs);
    const worst = Math.max(...frames, out.cold.longestFrameMs);
    rows.push(
      [
        `${files} files`,
        `code-server ${out.codeServer}, ${out.rounds.length} rounds (+1 warm-up); ${out.seconds.toFixed(0)} s at a load average of ${loadavg()[0]!.toFixed(1)}`,
      ],
      ['  click → diff editor open', `median ${ms(median(open))}, p90 ${ms(percentile(open, 90))} (${open.join(', ')})`],
      ['  git diff --stat, same commits, alone', `median ${ms(gitMs)}`],
      ['  ratio Review Changes / git diff --stat', `${ratio.toFixed(1)}×`],
      ['  longest frame, click → open + 1 s', `median ${ms(median(frames))}, worst ${ms(Math.max(...frames))}`],
      ...splitRows(out.rounds, median(open)),
      // The first Review Changes of the window reads every document: what a writer meets first.
      ['  the first round (cold, not in the median): open', `${ms(out.cold.openMs)}, longest frame ${ms(out.cold.longestFrameMs)}`],
      ...splitRows([out.cold], out.cold.openMs),
    );
    if (files === 500) {
      budgets.push({
        what: 'click → diff editor open (median, 500 files)',
        value: ms(median(open)),
        budget: `≤ ${OPEN_BUDGET_MS} ms`,
        met: median(open) <= OPEN_BUDGET_MS,
      });
    }
    budgets.push({
      what: `longest frame (worst round, the cold one included, ${files} files): the window does not freeze`,
      value: ms(worst),
      budget: `≤ ${FRAME_BUDGET_MS} ms`,
      met: worst <= FRAME_BUDGET_MS,
    });
    raw[`files${files}`] = { ...out, ratio };
  }
  return { name: NAME, rows, budgets, raw };
}

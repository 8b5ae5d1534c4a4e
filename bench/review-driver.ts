import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { clickRowAction, rowBranch } from '../test/e2e/agentBranch';
import { fixDocsThroughReview } from '../test/e2e/review';
import { RUN_DIR, startStack, type Stack } from '../test/e2e/stack';
import { closeBrowser, Workbench } from '../test/e2e/workbench';
import { git, makeAgentBranchRepo } from '../test/fixtures/agentBranchRepo';
import { gitCommands, splitRound, type ReviewSteps } from './reviewSteps';

// The rounds of bench/review.ts, run by it in a child process under tsx (the e2e harness cannot be
// bundled; see first-glyph-driver.ts): Review Changes on a branch that changes FILES files, in
// code-server with the packaged extension and the real Git extension, from the click on the job
// row's inline action to the multi-file diff editor's first entry in the DOM; and `git diff --stat`
// of the same two commits, run alone. A requestAnimationFrame loop in the page notes the longest
// frame from the click until a second after the editor opened: a frozen window shows there.
// The workspace is a clone of a bare repository made here; its remote shows the GitHub URL and
// reaches the bare one through `url.<bare>.insteadOf`. The bare repository's default branch is
// `base`; the emulator job's branch is pushed there with one commit that changes every file.
// Alone: DOCS_ASSISTANT_CODE_SERVER=4.139.1 REVIEW_BENCH_ROUNDS=2 node --import tsx bench/review-driver.ts

const FILES = Number(process.env.REVIEW_BENCH_FILES ?? 500);
const ROUNDS = Number(process.env.REVIEW_BENCH_ROUNDS ?? 5);
/** The Git extension re-reads open git: documents 1.1 s after a repository change: quiet this long means it is done. */
const QUIET_MS = 2500;
const SETTLE_MS = 180_000;
/** How long a round may take to open: a thousands-file diff read by every side takes minutes on two busy cores. */
const OPEN_TIMEOUT_MS = Math.max(60_000, FILES * 150);

export interface ReviewRound {
  /** Click → the diff editor's first entry in the DOM (ms, page clock). */
  openMs: number;
  /** The longest gap between animation frames from the click to a second after it opened. */
  longestFrameMs: number;
  /** Where the time went, from the Git extension's log (reviewSteps.ts); undefined when it does not show it. */
  steps?: ReviewSteps;
}

export type ReviewDriverOutput =
  | { skipped: string }
  /** `cold`: round 0, the first Review Changes of the window (not in `rounds`). */
  | { codeServer: string; files: number; cold: ReviewRound; rounds: ReviewRound[]; gitDiffStatMs: number[]; seconds: number };

/** `docs/page-<i>.md` for every file, saying `timeout`. */
const pages = (timeout: string): Record<string, string> =>
  Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`docs/page-${i}.md`, `# Page ${i}\n\nThe timeout default is ${timeout}.\n`]));

async function launchJob(wb: Workbench, instruction: string): Promise<string> {
  // The extension activates on a docs file and its view: the first command then finds it ready.
  await wb.openFile('docs/page-0.md');
  await wb.showDocsAssistant();
  await fixDocsThroughReview(wb, instruction);
  await wb.showDocsAssistant();
  const row = await wb.jobRow(/timeout default/);
  await wb.waitForRowIcon(row, 'git-pull-request', 60_000);
  return rowBranch(row);
}

type Probe = { clickAt?: number; openAt?: number; longestFrame: number; until?: number };
type Win = typeof globalThis & { __review?: Probe };

async function measure(wb: Workbench): Promise<ReviewRound & { clickAt: number; openAt: number }> {
  await wb.command('View: Close All Editors');
  await wb.page.evaluate(() => {
    const probe: Probe = { longestFrame: 0 };
    (window as Win).__review = probe;
    window.addEventListener('click', () => (probe.clickAt ??= Date.now()), { capture: true, once: true });
    let last = performance.now();
    const frame = (t: number): void => {
      if (probe.clickAt !== undefined) probe.longestFrame = Math.max(probe.longestFrame, t - last);
      last = t;
      if (probe.until === undefined || Date.now() < probe.until) requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
    const mo = new MutationObserver(() => {
      if (probe.openAt !== undefined || !document.querySelector('.multiDiffEditor .multiDiffEntry')) return;
      probe.openAt = Date.now();
      probe.until = probe.openAt + 1000;
      mo.disconnect();
    });
    mo.observe(document.body, { childList: true, subtree: true });
  });
  await clickRowAction(await wb.jobRow(/timeout default/), 'Review Changes');
  await wb.page.waitForFunction(() => (window as Win).__review?.until !== undefined && Date.now() > (window as Win).__review!.until!, null, {
    timeout: OPEN_TIMEOUT_MS,
    polling: 100,
  });
  const p = await wb.page.evaluate(() => (window as Win).__review!);
  return { clickAt: p.clickAt!, openAt: p.openAt!, openMs: p.openAt! - p.clickAt!, longestFrameMs: Math.round(p.longestFrame) };
}

/**
 * Waits until the Git extension has run nothing for QUIET_MS (at most SETTLE_MS): what the round
 * set off (documents read again after the fetch changed the repository) ends before the next
 * round's click, and is counted in this one's `settleMs`.
 */
async function settle(userDataDir: string): Promise<void> {
  const deadline = Date.now() + SETTLE_MS;
  let last = gitCommands(userDataDir).length;
  let quietSince = Date.now();
  while (Date.now() < deadline && Date.now() - quietSince < QUIET_MS) {
    await new Promise((r) => setTimeout(r, 250));
    const n = gitCommands(userDataDir).length;
    if (n !== last) [last, quietSince] = [n, Date.now()];
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  mkdirSync(RUN_DIR, { recursive: true });
  const userDataDir = mkdtempSync(join(RUN_DIR, 'user-'));
  const workspace = join(userDataDir, 'workspace');
  const repo = makeAgentBranchRepo(mkdtempSync(join(RUN_DIR, 'review-repos-')), workspace, pages('10 s'));
  let stack: Stack | undefined;
  let wb: Workbench | undefined;
  try {
    stack = await startStack({ userDataDir, settings: { 'git.enabled': true }, emulator: { jobDurationMs: 1000 } });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stack?.close().finally(() => process.exit(130)));
    wb = await Workbench.open(stack);
    const ref = await launchJob(wb, `Fix the timeout default on every page ${Date.now()}`);
    // The job's branch, as the agent would have pushed it: one commit that changes every page.
    repo.onBranch(ref);
    repo.commit(pages('30 s'), `Fix the timeout default on ${FILES} pages`);
    repo.push(ref);
    const rounds: ReviewRound[] = [];
    let cold: ReviewRound | undefined;
    // Round 0 warms up (the Git extension's first look, the diff editor's code): not counted.
    await settle(userDataDir);
    for (let i = 0; i <= ROUNDS; i++) {
      const { clickAt, openAt, ...r } = await measure(wb);
      await settle(userDataDir);
      const steps = splitRound(gitCommands(userDataDir), clickAt, openAt);
      const round: ReviewRound = steps ? { ...r, steps } : r;
      process.stderr.write(`round ${i}: ${JSON.stringify(round)}\n`);
      if (i > 0) rounds.push(round);
      else cold = round;
    }
    const base = git(repo.bare, 'rev-parse', 'base');
    const head = git(repo.bare, 'rev-parse', `refs/heads/${ref}`);
    const stat = git(workspace, 'diff', '--stat', base, head);
    if (!stat.includes(`${FILES} files changed`)) throw new Error(`git diff --stat does not say ${FILES} files: ${stat.split('\n').at(-1)}`);
    const gitDiffStatMs: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      git(workspace, 'diff', '--stat', base, head);
      gitDiffStatMs.push(performance.now() - t0);
    }
    const codeServer = process.env.DOCS_ASSISTANT_CODE_SERVER?.trim() || '4.100.3';
    const out: ReviewDriverOutput = { codeServer, files: FILES, cold: cold!, rounds, gitDiffStatMs, seconds: (Date.now() - started) / 1000 };
    process.stdout.write(`${JSON.stringify(out)}\n`);
  } finally {
    await wb?.close().catch(() => undefined);
    await closeBrowser();
    await stack?.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});

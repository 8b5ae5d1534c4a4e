import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The step split of one Review Changes round (bench/review-driver.ts), from two clocks of the same
// machine: the page's (the click, the first entry in the DOM) and the Git extension's own log,
// which notes every git command it runs with its end time and duration ("> git fetch … [15ms]").
// Which command is which step is known from Review Changes' code (branchReview.ts): the fetch, the
// status refresh the Git extension runs inside it, `show -s` (getCommit), `merge-base`, `diff
// --name-status` (diffBetween); after that every `show`/`ls-tree` is a document of the diff editor
// being read. No instrumentation in the extension: what is measured is the shipped code.

export interface GitCommand {
  /** End, ms since the epoch (the log line's time). */
  end: number;
  /** Start: the end less the duration the line notes. */
  start: number;
  args: string;
}

export interface ReviewSteps {
  /** Click → the fetch starts: the job resolved, the repository found (ours). */
  beforeFetchMs: number;
  /** The fetch, with the status refresh the Git extension runs before it resolves. */
  fetchMs: number;
  /** getCommit, the merge base, diffBetween (ours, through the Git extension). */
  commitMergeBaseDiffMs: number;
  /** diffBetween's end → the first document read: the entries, `vscode.changes`, the editor input. */
  toFirstReadMs: number;
  /** The first document read → the last, before the editor showed (the diff editor reading every side). */
  readsMs: number;
  /** How many git processes read documents before the editor showed, and how many after (until the round ended). */
  reads: number;
  readsAfter: number;
  /** The last read → the first entry in the DOM: the diff editor building its view. */
  afterReadsMs: number;
  /** The first entry in the DOM → the last git command of the round: the Git extension still busy after the editor showed. */
  settleMs: number;
}

function findFile(dir: string, name: string): string | undefined {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const f = findFile(p, name);
      if (f) return f;
    } else if (e.name === name) return p;
  }
  return undefined;
}

const LINE = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3}) \[\w+\] > git (.*?)(?: \[(\d+)ms\])?$/;

/** Every git command in the Git extension's log under a user data dir (its clock is the machine's: UTC here). */
export function gitCommands(userDataDir: string): GitCommand[] {
  const file = findFile(join(userDataDir, 'logs'), 'Git.log');
  if (!file) return [];
  const out: GitCommand[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const local = new Date(`${m[1]}T${m[2]}`);
    const end = local.getTime();
    out.push({ end, start: end - Number(m[4] ?? 0), args: m[3]! });
  }
  return out;
}

const isRead = (c: GitCommand): boolean => /^show --textconv |^ls-tree -l /.test(c.args);

/** The steps of the round clicked at `clickAt`, whose editor showed at `openAt`; undefined when the log does not show them. */
export function splitRound(commands: GitCommand[], clickAt: number, openAt: number): ReviewSteps | undefined {
  const round = commands.filter((c) => c.start >= clickAt - 50);
  const fetch = round.find((c) => c.args.startsWith('fetch '));
  const diff = round.find((c) => c.args.startsWith('diff --name-status'));
  const commit = round.find((c) => / show -s | ?show -s /.test(` ${c.args}`));
  if (!fetch || !diff || !commit) return undefined;
  const reads = round.filter((c) => isRead(c) && c.start >= diff.end);
  const before = reads.filter((c) => c.end <= openAt);
  const firstRead = Math.min(...reads.map((c) => c.start));
  const lastRead = before.length ? Math.max(...before.map((c) => c.end)) : diff.end;
  return {
    beforeFetchMs: fetch.start - clickAt,
    fetchMs: commit.start - fetch.start,
    commitMergeBaseDiffMs: diff.end - commit.start,
    toFirstReadMs: reads.length ? Math.min(firstRead, openAt) - diff.end : openAt - diff.end,
    readsMs: before.length ? lastRead - firstRead : 0,
    reads: before.length,
    readsAfter: reads.length - before.length,
    afterReadsMs: openAt - Math.max(lastRead, diff.end),
    settleMs: Math.max(0, Math.max(...round.map((c) => c.end)) - openAt),
  };
}

import { join } from 'node:path';
import { storeKey } from '../src/agent/core/jobStore';
import { buildShadow } from './shadow';
import { median, type BenchResult } from './util';
import { fakeContext, installStandIn, vscodeStandIn } from './vscodeStandIn';

// 10. Agent Jobs at scale (issue 33): 1,000 jobs in the store, most of them finished, each with
// its timeline. The production bundle is loaded in Node against the vscode stand-in, and what
// VS Code does to fill the view is played on the tree the view was given: the roots, each root's
// item, and the children of every root the item says is expanded, with their items. Timed from
// activate() to the last item: the extension's own time (VS Code's drawing is not in it). Beside
// it, the same with an empty store.

const JOBS = 1_000;
const ACTIVE = 20;
const RUNS = 15;
const SETTINGS = { baseUrl: 'https://api.bench.test', projectId: 'bench-project' };
const VIEW = 'docsAssistant.jobsView';

interface Item {
  collapsibleState?: number;
}
interface Tree {
  getChildren(e?: unknown): unknown[];
  getTreeItem(e: unknown): Item;
}

export function records(n: number) {
  // One job an hour up to now: the newest day's are news, the rest old.
  const base = Date.now() - (n + 1) * 3_600_000;
  return Array.from({ length: n }, (_, i) => {
    const at = (m: number) => new Date(base + i * 3_600_000 + m * 60_000).toISOString();
    const active = i >= n - ACTIVE;
    const status = active ? 'active' : i % 10 === 0 ? 'failed' : 'completed';
    const prLink = status === 'completed' ? `https://github.com/acme/acme-docs/pull/${i + 1}` : null;
    const prompt = `Fix the documentation of setting number ${i}: ${'the relay timeout default changed and the page still says the old value. '.repeat(6)}`;
    const followUps = i % 7 === 0 ? [{ prompt: 'Also update the FAQ.', sentAt: at(30) }] : [];
    const timeline = [
      { at: at(0), kind: 'prompt', text: prompt },
      ...(active ? [] : [{ at: at(20), kind: 'status', status }]),
      ...(prLink ? [{ at: at(21), kind: 'pullRequest', url: prLink }] : []),
      ...followUps.map((f) => ({ at: f.sentAt, kind: 'followUp', text: f.prompt })),
      ...(prLink && i % 3 === 0 ? [{ at: at(40), kind: 'preview', state: 'success', url: `https://preview.bench.test/p${i}/` }] : []),
      ...(prLink && i % 4 === 0 ? [{ at: at(50), kind: 'review', action: 'diff', files: 3 }] : []),
    ];
    return {
      job: {
        id: `job_${i}`,
        status,
        source: { repository: 'https://github.com/acme/acme-docs', ref: `docs-agent/${i}` },
        model: 'm',
        prLink,
        createdAt: at(0),
        archivedAt: null,
      },
      prompt,
      label: `Setting ${i}`,
      followUps,
      updatedAt: at(60),
      timeline,
    };
  }).reverse();
}

/** One fresh load, activate() and the view filled; [ms, rows, children]. */
export function fill(bundle: string, n: number): [number, number, number] {
  const trees = new Map<string, unknown>();
  const restore = installStandIn(vscodeStandIn({ settings: SETTINGS, trees }));
  try {
    delete require.cache[bundle];
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ext = require(bundle) as { activate(ctx: unknown): unknown };
    const ctx = fakeContext({ [storeKey(SETTINGS.baseUrl, SETTINGS.projectId)]: records(n) });
    const t0 = performance.now();
    ext.activate(ctx);
    const tree = trees.get(VIEW) as Tree;
    let children = 0;
    const roots = tree.getChildren();
    for (const r of roots) {
      if (tree.getTreeItem(r).collapsibleState !== 2) continue;
      for (const c of tree.getChildren(r)) {
        tree.getTreeItem(c);
        children++;
      }
    }
    const ms = performance.now() - t0;
    for (const d of ctx.subscriptions as { dispose(): void }[]) d.dispose();
    return [ms, roots.length, children];
  } finally {
    restore();
  }
}

export async function benchJobs(): Promise<BenchResult> {
  const shadow = buildShadow();
  try {
    const bundle = join(shadow.dist, 'extension.js');
    for (let i = 0; i < 3; i++) fill(bundle, JOBS);
    const full: number[] = [];
    const empty: number[] = [];
    let rows = 0;
    let children = 0;
    for (let i = 0; i < RUNS; i++) {
      const [ms, r, c] = fill(bundle, JOBS);
      full.push(ms);
      [rows, children] = [r, c];
      empty.push(fill(bundle, 0)[0]);
    }
    const ms = median(full);
    return {
      name: `Agent Jobs with ${JOBS.toLocaleString()} jobs (${ACTIVE} active): activate() to the view filled, the extension's own time (production bundle, vscode stand-in)`,
      rows: [
        ['rows, and children of the rows VS Code expands', `${rows} rows, ${children} children`],
        ['activate() + the view filled (median of 15)', `${ms.toFixed(1)} ms with ${JOBS} jobs vs ${median(empty).toFixed(1)} ms with none`],
      ],
      budgets: [{ what: `${JOBS} jobs: activation to the tree filled`, value: `${ms.toFixed(1)} ms`, budget: '< 100 ms', met: ms < 100 }],
      raw: { jobs: JOBS, active: ACTIVE, ms: full, emptyMs: empty, rows, children },
    };
  } finally {
    shadow.dispose();
  }
}

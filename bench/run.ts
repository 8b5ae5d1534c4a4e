import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchConversation } from './conversation';
import { benchFirstGlyph } from './first-glyph';
import { benchFootprint } from './footprint';
import { benchHealth } from './health';
import { benchHistorySearch } from './historySearch';
import { benchHost } from './host';
import { benchJobs } from './jobs';
import { benchPathological } from './pathological';
import { benchPolling } from './polling';
import { benchRender } from './render';
import { benchReview } from './review';
import { benchSoak } from './soak';
import { benchStaleDocs } from './staleDocs';
import { benchStaleCheck } from './staleCheck';
import { benchStream } from './stream';
import type { BenchResult } from './util';

// `npm run bench`: every benchmark in one run, one table, and bench/results.json. These are
// measurements, not tests: they print ratios side by side and say which budget is met; CI does
// not run them. `npm run bench -- stream render` runs only those.

type Bench = { key: string; run: () => Promise<BenchResult> };

const BENCHES: Bench[] = [
  { key: 'stream', run: benchStream },
  { key: 'render', run: benchRender },
  { key: 'host', run: benchHost },
  { key: 'footprint', run: benchFootprint },
  { key: 'polling', run: benchPolling },
  { key: 'first-glyph', run: benchFirstGlyph },
  { key: 'pathological', run: benchPathological },
  { key: 'review', run: benchReview },
  { key: 'conversation', run: benchConversation },
  { key: 'jobs', run: benchJobs },
  { key: 'health', run: benchHealth },
  { key: 'history', run: benchHistorySearch },
  { key: 'soak', run: benchSoak },
  { key: 'stale', run: benchStaleDocs },
  { key: 'stale-check', run: benchStaleCheck },
];

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join('  ')).join('\n');
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const chosen = only.length ? BENCHES.filter((b) => only.includes(b.key)) : BENCHES;
  const results: BenchResult[] = [];
  const started = Date.now();
  for (const b of chosen) {
    process.stderr.write(`running ${b.key}…\n`);
    results.push(await b.run());
  }
  for (const r of results) {
    console.log(`\n${r.name}`);
    console.log(table(r.rows.map(([k, v]) => [`  ${k}`, v])));
    if (r.budgets.length) console.log(table(r.budgets.map((b) => [`  ${b.met ? '✔' : '✘'} ${b.what}`, b.value, `budget ${b.budget}`])));
  }
  const all = results.flatMap((r) => r.budgets);
  console.log(
    `\n${all.filter((b) => b.met).length}/${all.length} budgets met (${((Date.now() - started) / 1000).toFixed(0)} s, Node ${process.versions.node}, ${process.platform}/${process.arch})`,
  );
  // A partial run (`-- first-glyph`) replaces its own entries and keeps the others, each with its date.
  const file = join(__dirname, '..', 'results.json');
  const before = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { benchmarks?: Record<string, unknown> }) : {};
  const date = new Date().toISOString();
  const fresh = Object.fromEntries(results.map((r, i) => [chosen[i]!.key, { name: r.name, date, rows: r.rows, budgets: r.budgets, raw: r.raw }]));
  const out = { date, node: process.versions.node, benchmarks: { ...(before.benchmarks ?? {}), ...fresh } };
  writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.stack : String(e));
  process.exit(1);
});

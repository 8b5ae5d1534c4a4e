import type { CDPSession } from 'playwright-core';

// Shared by the benchmarks: the tests' seeded random source, the median, the shape each returns,
// and Chromium's own counters of the page's main-thread work.

export interface Budget {
  what: string;
  value: string;
  budget: string;
  met: boolean;
}

export interface BenchResult {
  name: string;
  /** [label, measured] pairs, printed as a table. */
  rows: [string, string][];
  budgets: Budget[];
  /** Numbers for results.json. */
  raw: Record<string, unknown>;
}

export { seededRandom as seeded } from '../test/fixtures/streams';

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The element whose `key` is the median (the upper one of an even count): a whole run, not a mix of runs. */
export function medianBy<T>(xs: readonly T[], key: (x: T) => number): T {
  return [...xs].sort((a, b) => key(a) - key(b))[Math.floor(xs.length / 2)]!;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

/** A full garbage collection (npm run bench starts Node with --expose-gc). */
export function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run the benchmarks with --expose-gc (npm run bench does)');
  gc();
}

/**
 * Chromium's counters of the page's work so far (CDP Performance, enabled on `cdp`): script +
 * style + layout in ms, and how many layout and style passes. The render budgets are on their
 * difference across what is measured.
 */
export async function mainThreadWork(cdp: CDPSession): Promise<{ ms: number; layouts: number; styles: number }> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const m = Object.fromEntries(metrics.map((x) => [x.name, x.value]));
  return {
    ms: ((m.ScriptDuration ?? 0) + (m.LayoutDuration ?? 0) + (m.RecalcStyleDuration ?? 0)) * 1000,
    layouts: m.LayoutCount ?? 0,
    styles: m.RecalcStyleCount ?? 0,
  };
}

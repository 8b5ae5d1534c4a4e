// Shared by the benchmarks: a seeded random source, the median, and the shape each returns.

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

export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))]!;
}

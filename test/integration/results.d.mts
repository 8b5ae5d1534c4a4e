// Types for results.mjs, for the suite (suite/index.ts) and the tests that drive it from Node.

export interface IntegrationResults {
  host: string;
  done: boolean;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  tests: { title: string; state: 'passed' | 'failed' | 'pending'; durationMs: number; error?: string }[];
}

export declare const NOT_RUN_EXIT_CODE: number;
export declare function writeResults(file: string, results: IntegrationResults): void;
export declare function readResults(file: string): IntegrationResults | undefined;
export interface ResultsWatch {
  poll(): IntegrationResults | undefined;
  /** The last results read: kept when a later read fails. */
  readonly results: IntegrationResults | undefined;
  /** A read has succeeded once. */
  readonly started: boolean;
  failure(): string | undefined;
}
export declare function watchResults(file: string, opts?: { now?: () => number }): ResultsWatch;
export declare function report(results: IntegrationResults | undefined, where: string, wallMs: number): boolean;

// Types for results.mjs, for the suite (suite/index.ts) and the tests that drive it from Node.

export interface IntegrationResults {
  host: string;
  done: boolean;
  passed: number;
  failed: number;
  pending: number;
  durationMs: number;
  tests: { title: string; state: 'passed' | 'failed' | 'pending'; durationMs: number; error?: string }[];
  /** Rewrites by the suite's heartbeat (suite/heartbeat.ts), one every HEARTBEAT_MS. */
  heartbeats?: number;
  /** The test or hook running at the last heartbeat. */
  current?: { title: string; elapsedMs: number; timeoutMs: number };
}

/** How often the suite rewrites results.json while it runs, whether or not a test ended. */
export declare const HEARTBEAT_MS: number;

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

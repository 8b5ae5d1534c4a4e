import type { DocsRepo } from './docsRepo';
import type { AnalyticsControl } from './analytics';
import type { PreviewControl } from './preview';
import type { SearchControl } from './search';
import { DEFAULT_SITE_DIR } from './siteFiles';

// The emulator's public shapes and defaults. They live apart from server.ts so that every module
// can import them without importing the server.

/** Keys and identifiers of the demo setup; `npm start`, the e2e tests and the README use these. */
export const DEMO = {
  adminKey: 'svc_demo_admin_0123456789abcdef',
  assistantKey: 'svc_dsc_demo_assistant_0123456789abcdef',
  projectId: 'demo-project',
  domain: 'acme-docs',
} as const;

export interface EmulatorOptions {
  /** 0 = any free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  adminKey?: string;
  assistantKey?: string;
  projectId?: string;
  domain?: string;
  /** Time from `active` to the final status of an agent job. Default 4000. */
  jobDurationMs?: number;
  /** Agent create + follow-up uses per project in a rolling hour. Default 100. */
  rateLimitPerHour?: number;
  /** Pause between stream chunks. Default 15. */
  deltaDelayMs?: number;
  /** Pause between stream chunks under the `slow` fault. Default 400. */
  slowDripMs?: number;
  /** Answer cross-origin requests (CORS), as a public API does; false plays a service a browser cannot call. Default true. */
  cors?: boolean;
  /** Hand out X-Thread-Key and require it on follow-ups. Default true. */
  threadKeys?: boolean;
  /** The plan has preview deployments; false answers every preview call 403. Default true. */
  previews?: boolean;
  /** The plan has reader analytics; false answers every analytics call 403. Default true. */
  analytics?: boolean;
  /** The service offers the docs search and page endpoints; false answers both 404 (a service without them). Default true. */
  search?: boolean;
  /** Serve the hostile reader entries (markup, command links, 100 KB text, bidi controls) among the fixtures. Default false. */
  analyticsHostile?: boolean;
  /** Replace the analytics fixtures by this many generated feedback entries (the benchmark's project). Default 0: the fixtures. */
  analyticsEntries?: number;
  /** The pages the generated entries are spread over. Default 1000. */
  analyticsPages?: number;
  /** Each stage of a preview deployment (queued, then in progress) lasts this long. Default 1500. */
  previewStepMs?: number;
  /** Preview requests per minute (the published limit). Default 5. */
  previewRatePerMinute?: number;
  /**
   * The docs site the assistant answers from and the docs repository starts with: a docs.json and
   * its pages, or a folder of .md/.mdx pages. Default test/fixtures/docs-site.
   */
  docsDir?: string;
  /** One line per request. Never given a key. */
  log?: (line: string) => void;
}

export interface RecordedRequest {
  at: number;
  method: string;
  path: string;
  /** Which of the emulator's keys the request carried; `other` is a key it does not know. */
  auth: 'admin' | 'assistant' | 'none' | 'other';
  /** Lower-cased names; never `authorization`. */
  headers: Record<string, string>;
  /** Parsed JSON, else the raw text, else null for an empty body. */
  body: unknown;
  /** 0 while unanswered, and for requests the emulator never answers (stall, drop). */
  status: number;
  /** An answer's stream: Date.now() just before its first text delta was written to the socket. */
  firstTextAt?: number;
}

export interface RunningEmulator {
  url: string;
  /** The docs site's MCP server (Streamable HTTP, no key): `${url}/mcp`. */
  mcpUrl: string;
  adminKey: string;
  assistantKey: string;
  projectId: string;
  domain: string;
  requests: RecordedRequest[];
  /** The docs repository the agent commits on (a temporary bare repository, removed on close). */
  docsRepo: DocsRepo;
  /** Preview deployments: the plan, holding and failing them (test/emulator/preview.ts). */
  previews: PreviewControl;
  /** Reader analytics: the plan, hostile entries, a fault for every call, a generated project (test/emulator/analytics.ts). */
  analytics: AnalyticsControl;
  /** Docs search and page: offered or not (404), a fault for every call (test/emulator/search.ts). */
  search: SearchControl;
  /** Agent jobs stay active while held (AgentJobs.hold). */
  holdJobs(held: boolean): void;
  reset(): void;
  close(): Promise<void>;
}

export type ResolvedOptions = Required<Omit<EmulatorOptions, 'log'>> & { log: (line: string) => void };

export function resolveOptions(opts: EmulatorOptions): ResolvedOptions {
  return {
    port: opts.port ?? 0,
    host: opts.host ?? '127.0.0.1',
    adminKey: opts.adminKey ?? DEMO.adminKey,
    assistantKey: opts.assistantKey ?? DEMO.assistantKey,
    projectId: opts.projectId ?? DEMO.projectId,
    domain: opts.domain ?? DEMO.domain,
    jobDurationMs: opts.jobDurationMs ?? 4000,
    rateLimitPerHour: opts.rateLimitPerHour ?? 100,
    deltaDelayMs: opts.deltaDelayMs ?? 15,
    slowDripMs: opts.slowDripMs ?? 400,
    cors: opts.cors ?? true,
    threadKeys: opts.threadKeys ?? true,
    previews: opts.previews ?? true,
    analytics: opts.analytics ?? true,
    search: opts.search ?? true,
    analyticsHostile: opts.analyticsHostile ?? false,
    analyticsEntries: opts.analyticsEntries ?? 0,
    analyticsPages: opts.analyticsPages ?? 1000,
    previewStepMs: opts.previewStepMs ?? 1500,
    previewRatePerMinute: opts.previewRatePerMinute ?? 5,
    docsDir: opts.docsDir ?? DEFAULT_SITE_DIR,
    log: opts.log ?? (() => undefined),
  };
}

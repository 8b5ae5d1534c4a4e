import type { AssistantConversationRecord, FeedbackEntry, FeedbackStatus, SearchRecord, ServiceError } from '../../api';
import type { Event } from '../../common/event';

// What readers said about the docs (issue 31), as the Docs Health feature holds it: the four
// analytics reads (src/api/analyticsClient.ts) fetched, bounded and grouped by page, each page
// mapped to its workspace file through the site's docs.json (src/host/core/docsSiteMap.ts). The
// core (this folder) fetches, groups and words it; the wiring (src/health/vscode) shows it as a
// CodeLens, a tree and hovers, and never fetches by itself. Every string in here was written by a
// reader or by the service: untrusted text, bounded when it was read (src/api/analyticsShape.ts).

/** The date ranges the view offers. */
export type RangeDays = 7 | 30 | 90;
export const RANGE_DAYS: readonly RangeDays[] = [7, 30, 90];

/** What is fetched: the last `days` days, and feedback of these statuses. */
export interface HealthFilter {
  days: RangeDays;
  statuses: readonly FeedbackStatus[];
}

/** The view's default: the last 30 days, feedback still open (pending and in progress). */
export const DEFAULT_FILTER: HealthFilter = { days: 30, statuses: ['pending', 'in_progress'] };

/** The analytics reads this feature makes; each is detected on its own (a 403/404 hides only its part). */
export type SignalKind = 'feedback' | 'assistant' | 'searches';

/** Where a page's file is: a workspace folder (its URI, as vscode.Uri.toString() writes it) and the path in it. */
export interface PageFile {
  folder: string;
  /** Relative to the folder, `/`-separated: `quickstart.mdx`, `api/auth.md`. */
  path: string;
}

/** One docs page and what its readers said, in the chosen range. */
export interface PageSignals {
  /** The page as a path on the site, normalized: `/quickstart` (a full URL loses its origin). */
  page: string;
  /** The workspace file the site's navigation maps it to; undefined when none does (listed, never dropped). */
  file?: PageFile;
  thumbsUp: number;
  thumbsDown: number;
  /** Feedback with a comment, newest first. */
  comments: FeedbackEntry[];
  /** Code-snippet feedback, each placed on its code block when the snippet is found in the file. */
  snippets: FeedbackEntry[];
  /** Assistant questions marked `unanswered` whose sources name this page. */
  unanswered: AssistantConversationRecord[];
}

/** Everything the view shows for one project and one filter. */
export interface HealthSnapshot {
  filter: HealthFilter;
  /** The range asked for: `from` inclusive, `to` exclusive (YYYY-MM-DD). */
  from: string;
  to: string;
  /** When this was fetched (ISO). */
  fetchedAt: string;
  /** Pages ranked by what needs attention: thumbs-down, then comments, then unanswered questions. */
  pages: PageSignals[];
  /** Every question marked `unanswered`, newest first, with or without a page. */
  unanswered: AssistantConversationRecord[];
  /** The assistant's `clarifying_question` turns, newest first. */
  clarifying: AssistantConversationRecord[];
  /** Searches with many hits and a low click-through rate, worst first. */
  searches: SearchRecord[];
  /** The reads the service does not offer (403/404): their parts are hidden, the rest shows. */
  notOffered: readonly SignalKind[];
  /** Entries left out: past the 5,000 kept per read (oldest first), or not entries at all. */
  dropped: number;
}

/** The feature's one source of reader signals (src/health/core/readerSignalsStore.ts implements it). */
export interface ReaderSignals {
  readonly filter: HealthFilter;
  /** The last snapshot for the current project and filter, or undefined before the first fetch. */
  readonly snapshot: HealthSnapshot | undefined;
  /** A new snapshot, a new filter, or a fetch that started or ended. */
  readonly onDidChange: Event<void>;
  /** Whether a fetch is running. */
  readonly busy: boolean;
  /** Why the last fetch failed (a 429 keeps its retryAt), until one succeeds; notOffered is not an error. */
  readonly lastError: ServiceError | undefined;
  /** The page whose file this is, from the last snapshot: a map lookup, no I/O (the CodeLens asks it per file). */
  forFile(file: PageFile): PageSignals | undefined;
  /** Another range or status filter: cached snapshots are per project and filter. */
  setFilter(filter: HealthFilter): void;
  /**
   * Fetches unless the cached snapshot is younger than 10 minutes (`force`: fetch anyway, the
   * user asked). Never rejects: what went wrong is in `lastError`.
   */
  refresh(options?: { force?: boolean; signal?: AbortSignal }): Promise<void>;
}

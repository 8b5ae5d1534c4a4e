// Docs that a code change makes wrong (issue 32): the model every part of the check shares. The
// extractor (changeExtractor.ts) reads a diff into ChangedItems; the search (staleSearch.ts) finds
// the pages that still say an item's old form; the draft (fixDraft.ts) turns the result into one
// reviewed agent prompt; the wiring (src/staleDocs/vscode/) reads the diff through the Git
// extension and shows the pages. Plain data only: everything here crosses from a diff or the
// service, and none of it is trusted.

import type { ServiceError } from '../../api';

/** What readers of the docs would see changed. */
export type ChangeKind = 'symbol' | 'configKey' | 'flag' | 'command' | 'envVar' | 'route' | 'errorMessage';

/** How it changed: a new name, gone, a new signature, a new default, new words. */
export type ChangeHow = 'renamed' | 'removed' | 'signature' | 'default' | 'message';

/** A line of the diff: the file (repository-relative, `/`-separated) and its 1-based line on that side. */
export interface DiffPlace {
  file: string;
  line: number;
}

export interface ChangedItem {
  /** Unique within one extraction (kind and old form); the pages name items by it. */
  id: string;
  kind: ChangeKind;
  how: ChangeHow;
  /** What the docs would still say, as a reader sees it: `--dlq`, `visibility_timeout: 30s`, `publish(queue, body)`. */
  oldForm: string;
  /** What it says now; undefined when the item was removed. */
  newForm?: string;
  /**
   * What a docs line contains, all of them, when it still says the old thing: `['--dlq']`,
   * `['visibility_timeout', '30s']`. Joined with spaces, they are the search query.
   */
  staleNeedles: string[];
  /** What a docs line contains, all of them, when it already says the new thing; empty when removed. */
  updatedNeedles: string[];
  /** The removed line, on the diff's old side (undefined for a new signature read from the new side only). */
  old?: DiffPlace;
  /** The added line, on the new side (undefined when removed). */
  new?: DiffPlace;
  /** Higher is more important to readers; a check keeps the MAX_ITEMS highest. */
  weight: number;
}

export type SkipReason = 'generated' | 'vendored' | 'binary' | 'tooLarge';

export interface Extraction {
  /** Most important first, at most MAX_ITEMS. */
  items: ChangedItem[];
  /** Items past MAX_ITEMS, left out (the least important). */
  dropped: number;
  /** Files the diff touches, read or skipped. */
  files: number;
  /** Files not read, and why (at most MAX_SKIPPED listed; `skippedCount` counts them all). */
  skipped: { path: string; why: SkipReason }[];
  skippedCount: number;
}

/** At most this many items per check, the most important first (issue 32). */
export const MAX_ITEMS = 200;
export const MAX_SKIPPED = 50;

/** One search hit, whichever way the docs were searched. */
export interface DocsHit {
  /** The page's path (`/cli`) or URL, as the service names it. Untrusted. */
  path: string;
  /** The page's title, when known. Untrusted. */
  title?: string;
  /** The passage that matched (search), or what the answer's source showed (assistant). Untrusted. */
  content: string;
}

/**
 * How the docs are searched: the service's search endpoint when it offers one, else the
 * assistant's answer and its sources (`via` says which, and the UI says so).
 */
export interface DocsSearcher {
  readonly via: 'search' | 'assistant';
  search(query: string, opts: { signal: AbortSignal }): Promise<DocsHit[]>;
}

/** A line of a page that mentions items in their old form. */
export interface StaleLine {
  /** 1-based line in the page's text as read (the workspace file when the docs live here). */
  line: number;
  /** The line, as it is (shown as plain text only). */
  text: string;
  /** The items (ids) whose old form the line mentions. */
  itemIds: string[];
}

export interface StalePage {
  /** The page's path as the service names it, normalized (`/cli`), or its URL. */
  path: string;
  title?: string;
  /** Ids of the items the page mentions in their old form: the rank. */
  staleItemIds: string[];
  /** Ids of the items it already mentions in their new form. */
  updatedItemIds: string[];
  /** The lines that mention an old form, in page order (at most MAX_LINES_PER_PAGE). */
  lines: StaleLine[];
}

export const MAX_LINES_PER_PAGE = 20;

export interface StaleCheck {
  /** The items searched for (the extraction's, in its order). */
  items: ChangedItem[];
  /** Pages that still say an old form, most stale items first. Pages that only say new forms are not here. */
  pages: StalePage[];
  via: DocsSearcher['via'];
  /** Search requests made. */
  requests: number;
  /** True when the check stopped before every item was searched: the bound of search requests (MAX_SEARCHES), or `failed`. */
  cut: boolean;
  /** The failure that stopped the searches (a 429, a 500, a timeout…); the pages are what the searches before it found. */
  failed?: ServiceError;
  /** Page reads asked of the caller's reader (the workspace file or the page endpoint), paced like the searches. */
  pageReads?: number;
}

/** At most one search request in flight per this many ms, and this many in all (issue 32). */
export const SEARCH_GAP_MS = 100;
export const MAX_SEARCHES = 50;

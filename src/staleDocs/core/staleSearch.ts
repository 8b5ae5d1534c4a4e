import { abortedError, describeError, ServiceError } from '../../api';
import { realClock, sleepOn, type Clock } from '../../host/core/clock';
import { sitePathOn } from '../../host/core/docsSiteMap';
import { scanPage } from './staleLines';
import { MAX_SEARCHES, SEARCH_GAP_MS, type ChangedItem, type DocsHit, type DocsSearcher, type StaleCheck, type StalePage } from './staleDocs';

// Which docs pages still say what a code change made wrong (issue 32). For each item, in the
// extraction's order, the docs are searched for its old form and, when it has one, its new form:
// one search at a time, at least SEARCH_GAP_MS between starts, at most MAX_SEARCHES in all (then
// `cut`). A search the service fails (a 429, a 500, a timeout) stops the searches there: what was
// found is kept and the result says why it stopped (`failed`); only a cancel or a bug throws.
// The hits are merged per page (`/cli`, `cli` and `https://site/cli#x` are one page; a URL
// counts only on the docs site's address, docsSiteMap's sitePathOn); each page's full text is
// read through `readPage` when the caller has one (the workspace file, or the page endpoint), by
// the path the service first named it with, paced and counted like the searches; else the hits'
// own passages are the text. A page is listed when a line
// of it says an item's old form (staleLines.ts); ranked by how many items it says in their old
// form, then by path. Every size is bounded: hits, pages, passages, lines.

/** Pages read and scanned in one check, in the order the searches first named them. */
export const MAX_PAGES = 100;
/** Distinct passages kept per page when the hits are the text. */
const MAX_PASSAGES_PER_PAGE = 100;

/**
 * A page's full text, or undefined when it cannot be read (then its hits are the text). `path` is
 * the page's key (`/cli`), for a workspace file; `raw` the path the service first named it with
 * (`cli.md#flags`, a URL), what its page endpoint knows.
 */
export type ReadPage = (path: string, signal: AbortSignal, raw?: string) => Promise<string | undefined>;

export interface FindOptions {
  signal: AbortSignal;
  readPage?: ReadPage;
  /** After each search: how many were made, of how many planned. */
  progress?: (done: number, total: number) => void;
  /** Before each page read: which one, of how many. */
  pageProgress?: (done: number, total: number) => void;
  clock?: Clock;
  /** docsAssistant.docsSiteUrl: where the pages the assistant's sources name by URL are served. */
  docsSiteUrl?: string;
}

/** The page a hit names, as one key however it is spelled (`/cli`); undefined for anything that is no page of the docs site at `docsSiteUrl`. */
export function pageKey(raw: string, docsSiteUrl = ''): string | undefined {
  const path = sitePathOn(raw, docsSiteUrl);
  return path === undefined ? undefined : path.replace(/\.mdx?$/i, '');
}

interface PageHits {
  path: string;
  /** The path the first hit named the page with, as the service spelled it: what its page endpoint knows. */
  raw: string;
  title?: string;
  passages: Set<string>;
  /** The items whose searches named the page: the ones its lines are checked for. */
  items: Set<ChangedItem>;
}

/** Each distinct query once, in order, with the items it is for. */
function plan(items: readonly ChangedItem[]): Map<string, ChangedItem[]> {
  const queries = new Map<string, ChangedItem[]>();
  const add = (needles: readonly string[], item: ChangedItem): void => {
    const query = needles.join(' ').trim();
    if (query === '') return;
    const forQuery = queries.get(query);
    if (forQuery) forQuery.push(item);
    else queries.set(query, [item]);
  };
  for (const item of items) {
    if (item.staleNeedles.length === 0) continue;
    add(item.staleNeedles, item);
    if (item.how !== 'removed') add(item.updatedNeedles, item);
  }
  return queries;
}

/** Adds one search's hits to the pages they name; hits that name no page, or pages past MAX_PAGES, are left out. */
function merge(pages: Map<string, PageHits>, hits: readonly DocsHit[], items: readonly ChangedItem[], docsSiteUrl?: string): void {
  for (const hit of hits) {
    const path = pageKey(hit.path, docsSiteUrl);
    if (path === undefined) continue;
    let page = pages.get(path);
    if (!page) {
      if (pages.size >= MAX_PAGES) continue;
      page = { path, raw: hit.path, passages: new Set(), items: new Set() };
      pages.set(path, page);
    }
    if (page.title === undefined && hit.title) page.title = hit.title;
    if (page.passages.size < MAX_PASSAGES_PER_PAGE) page.passages.add(hit.content);
    for (const item of items) page.items.add(item);
  }
}

export async function findStalePages(items: ChangedItem[], searcher: DocsSearcher, opts: FindOptions): Promise<StaleCheck> {
  const { signal } = opts;
  const queries = plan(items);
  const total = Math.min(queries.size, MAX_SEARCHES);
  const pages = new Map<string, PageHits>();
  const pace = pacer(opts.clock ?? realClock, signal);
  let requests = 0;
  let failed: ServiceError | undefined;
  for (const [query, forItems] of queries) {
    if (requests >= MAX_SEARCHES) break;
    try {
      const hits = await pace(() => {
        requests++;
        return searcher.search(query, { signal });
      });
      merge(pages, hits, forItems, opts.docsSiteUrl);
    } catch (e) {
      // The service's failure stops the searches, keeping what they found; a cancel or a bug is thrown.
      if (signal.aborted || !(e instanceof ServiceError) || e.reason.code === 'aborted') throw e;
      failed = e;
      break;
    }
    opts.progress?.(requests, total);
  }

  const stale: StalePage[] = [];
  let pageReads = 0;
  for (const page of pages.values()) {
    if (signal.aborted) throw abortedError();
    let text: string | undefined;
    if (opts.readPage) {
      text = await pace(() => {
        opts.pageProgress?.(++pageReads, pages.size);
        return readText(page, opts);
      });
    }
    text ??= [...page.passages].join('\n');
    const wanted = items.filter((i) => page.items.has(i));
    const scan = scanPage(text, wanted);
    if (scan.lines.length === 0) continue;
    const out: StalePage = { path: page.path, staleItemIds: scan.staleItemIds, updatedItemIds: scan.updatedItemIds, lines: scan.lines };
    if (page.title !== undefined) out.title = page.title;
    stale.push(out);
  }
  stale.sort((a, b) => b.staleItemIds.length - a.staleItemIds.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const check: StaleCheck = { items, pages: stale, via: searcher.via, requests, cut: queries.size > requests || failed !== undefined, pageReads };
  if (failed) check.failed = failed;
  return check;
}

/**
 * Runs each request (a search or a page read) when it may start: one at a time (awaited by the
 * caller), never two starts closer than the gap. The start is marked as the request is made.
 */
function pacer(clock: Clock, signal: AbortSignal): <T>(request: () => Promise<T>) => Promise<T> {
  let lastStart: number | undefined;
  return async (request) => {
    if (signal.aborted) throw abortedError();
    const wait = lastStart === undefined ? 0 : lastStart + SEARCH_GAP_MS - clock.now();
    if (wait > 0) await sleepOn(clock, wait, signal);
    lastStart = clock.now();
    return request();
  };
}

/** The page's full text through the caller's reader; undefined when there is none or it failed (a cancel still stops). */
async function readText(page: PageHits, opts: FindOptions): Promise<string | undefined> {
  if (!opts.readPage) return undefined;
  try {
    return await opts.readPage(page.path, opts.signal, page.raw);
  } catch (e) {
    if (opts.signal.aborted) throw describeError(e);
    return undefined;
  }
}

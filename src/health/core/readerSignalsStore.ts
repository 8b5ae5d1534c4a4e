import { ServiceError } from '../../api';
import { Emitter } from '../../common/event';
import type { IDisposable } from '../../common/lifecycle';
import { realClock, type Clock } from '../../host/core/clock';
import { DocsSiteMap } from '../../host/core/docsSiteMap';
import { groupPages } from './pageSignals';
import { DEFAULT_FILTER, type HealthFilter, type HealthSnapshot, type PageFile, type PageSignals, type ReaderSignals } from './readerSignals';
import { clarifyingTurns, lowClickSearches, unansweredQuestions } from './signalLists';
import { rangeOf, readSignals, type RawSignals } from './signalsRead';
import type { AnalyticsCalls } from './signalsFetch';

// Docs Health's one source of reader signals (the ReaderSignals of readerSignals.ts). It fetches
// only when asked (the view asks while it is visible), keeps a snapshot per project and filter
// for ten minutes, and answers the CodeLens from an index of the current snapshot: a map lookup
// per file, no I/O. The raw reads are kept beside each snapshot so that a change of the docs
// site's files maps the pages again without asking the service.

/** How long a snapshot is fresh: refresh() does nothing before, unless forced. */
export const FRESH_MS = 10 * 60_000;
/** Snapshots kept (project × filter): a few ranges and status choices, not a history. */
export const MAX_CACHED = 6;

export interface ReaderSignalsStoreOptions {
  /** The current project (the cache's key), or undefined when none is set. */
  projectId: () => string | undefined;
  /** The analytics reads for the current project; rejects with a ServiceError when something is not configured. */
  calls: () => Promise<AnalyticsCalls>;
  clock?: Clock;
}

interface Cached {
  raw: RawSignals;
  fetchedAtMs: number;
  snapshot: HealthSnapshot;
  index: Map<string, PageSignals>;
}

const fileKey = (f: PageFile): string => `${f.folder}\n${f.path}`;
const filterKey = (f: HealthFilter): string => `${f.days}|${[...f.statuses].sort().join(',')}`;

export class ReaderSignalsStore implements ReaderSignals, IDisposable {
  private readonly emitter = new Emitter<void>();
  readonly onDidChange = this.emitter.event;
  private readonly clock: Clock;
  private readonly cache = new Map<string, Cached>();
  private sites = new DocsSiteMap([]);
  private currentFilter: HealthFilter = DEFAULT_FILTER;
  /** The fetch a refresh for `key` joins; a fetch dropped by invalidate() is no longer it. */
  private running: { key: string; done: Promise<void> } | undefined;
  private readonly aborts = new Set<AbortController>();
  private error: ServiceError | undefined;

  constructor(private readonly options: ReaderSignalsStoreOptions) {
    this.clock = options.clock ?? realClock;
  }

  get filter(): HealthFilter {
    return this.currentFilter;
  }

  get snapshot(): HealthSnapshot | undefined {
    return this.current()?.snapshot;
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  get lastError(): ServiceError | undefined {
    return this.error;
  }

  forFile(file: PageFile): PageSignals | undefined {
    return this.current()?.index.get(fileKey(file));
  }

  setFilter(filter: HealthFilter): void {
    this.currentFilter = { days: filter.days, statuses: [...filter.statuses] };
    this.emitter.fire();
  }

  /** The docs sites of the workspace changed (src/host/vscode/docsSiteFiles.ts): every snapshot is mapped again. */
  setSites(sites: DocsSiteMap): void {
    this.sites = sites;
    for (const [key, c] of this.cache) this.cache.set(key, this.build(c.raw, c.snapshot.filter, c.fetchedAtMs));
    this.emitter.fire();
  }

  async refresh(options: { force?: boolean; signal?: AbortSignal } = {}): Promise<void> {
    const key = this.key();
    const cached = this.cache.get(key);
    if (!options.force && cached && this.clock.now() - cached.fetchedAtMs < FRESH_MS) return;
    if (this.running?.key === key) return this.running.done;
    const entry = { key, done: Promise.resolve() };
    this.running = entry;
    entry.done = this.fetch(key, this.currentFilter, options.signal, () => this.running === entry);
    this.emitter.fire();
    return entry.done;
  }

  /**
   * The settings or the admin key changed: what was read with the old ones is dropped, and a
   * fetch still running for them is stopped rather than joined by the next refresh.
   */
  invalidate(): void {
    for (const ac of this.aborts) ac.abort();
    this.running = undefined;
    this.cache.clear();
    this.error = undefined;
    this.emitter.fire();
  }

  dispose(): void {
    for (const ac of this.aborts) ac.abort();
    this.emitter.dispose();
  }

  private key(): string {
    return `${this.options.projectId() ?? ''}\n${filterKey(this.currentFilter)}`;
  }

  private current(): Cached | undefined {
    return this.cache.get(this.key());
  }

  private async fetch(key: string, filter: HealthFilter, signal: AbortSignal | undefined, isRunning: () => boolean): Promise<void> {
    const ac = new AbortController();
    const onAbort = (): void => ac.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    this.aborts.add(ac);
    try {
      const calls = await this.options.calls();
      const now = this.clock.now();
      const raw = await readSignals(calls, filter, rangeOf(filter.days, now), { signal: ac.signal, clock: this.clock });
      if (ac.signal.aborted) return;
      this.cache.delete(key);
      this.cache.set(key, this.build(raw, filter, now));
      // The oldest snapshot goes first (a Map keeps insertion order).
      while (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
      this.error = undefined;
    } catch (e) {
      if (!ac.signal.aborted) this.error = asServiceError(e);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      this.aborts.delete(ac);
      if (isRunning()) this.running = undefined;
      this.emitter.fire();
    }
  }

  private build(raw: RawSignals, filter: HealthFilter, fetchedAtMs: number): Cached {
    const pages = groupPages(raw, (page) => this.sites.fileFor(page));
    const index = new Map<string, PageSignals>();
    // Pages arrive ranked: the first page a file maps from (the most in need) is the one its lens shows.
    for (const p of pages) if (p.file && !index.has(fileKey(p.file))) index.set(fileKey(p.file), p);
    const { from, to } = rangeOf(filter.days, fetchedAtMs);
    const snapshot: HealthSnapshot = {
      filter,
      from,
      to,
      fetchedAt: new Date(fetchedAtMs).toISOString(),
      pages,
      unanswered: unansweredQuestions(raw.conversations),
      clarifying: clarifyingTurns(raw.conversations),
      searches: lowClickSearches(raw.searches),
      notOffered: raw.notOffered,
      dropped: raw.dropped,
    };
    return { raw, fetchedAtMs, snapshot, index };
  }
}

function asServiceError(e: unknown): ServiceError {
  return e instanceof ServiceError ? e : new ServiceError({ reason: { code: 'unexpected' }, cause: e });
}

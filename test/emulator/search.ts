import type { ResolvedOptions } from './config';
import { errorBody, type Exchange } from './exchange';
import { chooseFault, FAULT_HEADER } from './faults';
import { matchesFilter, tokenize, type DocsIndex, type SearchFilter } from './retrieval';

// The docs search and page endpoints (notes.md, "Beyond the interface"; a client must detect
// them): POST /discovery/v1/search/{domain} {query, pageSize?, scoreThreshold?, filter?} → a JSON
// array of {content, path, metadata}, by BM25 over the same passages the assistant answers from
// (retrieval.ts), and POST /discovery/v1/page/{domain} {path, groups?} → {path, content}, the
// page's markdown. The assistant key only. A hit's `score` is relative to the best hit of the
// query (the best is 1), which is what `scoreThreshold` (0–1) compares with. A `tag` in the
// filter matches a page of that group: the fixture pages carry no other tags.

export const SEARCH_PATH = /^\/discovery\/v1\/(search|page)\/([^/]+)$/;

/**
 * `x-emulator-fault: <mode>` on a search or page call, or set for every call by `search.fault()`
 * (an extension's requests carry no header). 403: a plan without search; 404: a service without
 * it; 429 with Retry-After; a broken service; bodies a client must refuse or bound (`bad-json`,
 * `bad-shape`, `bad-entries` junk beside real hits, `hostile` hits or page text, `huge` past any
 * sane body); `stall-headers` and `drop`.
 */
export const SEARCH_FAULTS = [
  '403',
  '404',
  '429',
  '500',
  'html-502',
  'stall-headers',
  'drop',
  'bad-json',
  'bad-shape',
  'bad-entries',
  'hostile',
  'huge',
] as const;
export type SearchFault = (typeof SEARCH_FAULTS)[number];

/** Seconds the 429 fault asks a client to wait. */
export const SEARCH_RETRY_AFTER_S = 3;
const DEFAULT_PAGE_SIZE = 10;
const MAX_PAGE_SIZE = 50;

/** What a test can do to the search of a running emulator. */
export interface SearchControl {
  /** false plays a service without the search and page endpoints: both answer 404. */
  offer(offered: boolean): void;
  /** Every search and page call answers with this fault until it is cleared (undefined). */
  fault(mode: SearchFault | undefined): void;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const optString = (v: unknown): boolean => v === undefined || typeof v === 'string';
const stringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((g) => typeof g === 'string');

export class DocsSearch implements SearchControl {
  private offered: boolean;
  private stickyFault: SearchFault | undefined;

  constructor(
    private readonly opts: ResolvedOptions,
    private readonly docs: DocsIndex,
  ) {
    this.offered = opts.search;
  }

  reset(): void {
    this.offered = this.opts.search;
    this.stickyFault = undefined;
  }

  offer(offered: boolean): void {
    this.offered = offered;
  }

  fault(mode: SearchFault | undefined): void {
    this.stickyFault = mode;
  }

  /** Routes both endpoints; false when `ex` is neither. `keyRefused` answers 401 itself. */
  async route(ex: Exchange, keyRefused: (ex: Exchange) => boolean): Promise<boolean> {
    const m = SEARCH_PATH.exec(ex.url.pathname);
    if (!m) return false;
    // A service without the endpoints knows nothing of them, whatever the key.
    if (!this.offered) return notFound(ex);
    if (keyRefused(ex)) return true;
    const fault = chooseFault(ex.header(FAULT_HEADER) ?? this.stickyFault, '', SEARCH_FAULTS);
    if (fault && 'unknown' in fault) {
      ex.json(400, errorBody(`Unknown emulator fault "${fault.unknown}". Known: ${SEARCH_FAULTS.join(', ')}.`));
      return true;
    }
    const mode = fault?.mode;
    if (mode !== undefined && (await this.answerFault(ex, mode))) return true;
    if (ex.method !== 'POST') {
      ex.json(405, errorBody('Use POST here.'), { allow: 'POST' });
      return true;
    }
    let domain = m[2]!;
    try {
      domain = decodeURIComponent(domain);
    } catch {
      // Left as sent: it matches no domain.
    }
    if (domain !== this.opts.domain) {
      ex.json(404, { message: `Domain "${domain}" not found` });
      return true;
    }
    let body: unknown;
    try {
      body = JSON.parse(ex.rawBody);
    } catch {
      ex.json(400, errorBody('Request body is not valid JSON.'));
      return true;
    }
    if (m[1] === 'search') this.search(ex, body, mode);
    else this.page(ex, body, mode === 'hostile');
    return true;
  }

  private search(ex: Exchange, raw: unknown, mode: SearchFault | undefined): void {
    const q = validSearch(raw);
    if (typeof q === 'string') return ex.json(400, errorBody(q));
    const all = this.docs.search({ terms: tokenize(q.query), limit: this.docs.passages.length, filter: q.filter });
    const best = all[0]?.score ?? 1;
    const hits = all
      .map((h) => ({ hit: h, score: Math.round((h.score / best) * 1000) / 1000 }))
      .filter((h) => h.score >= q.scoreThreshold)
      .slice(0, q.pageSize)
      .map(({ hit: { passage }, score }) => ({
        content: passage.body,
        path: `/${passage.page.slug}`,
        metadata: { title: passage.page.title, heading: passage.heading, anchor: passage.anchor, score },
      }));
    if (mode === 'hostile') return ex.json(200, [...hostileHits(), ...hits]);
    ex.json(200, mode === 'bad-entries' ? [...JUNK, ...hits] : hits);
  }

  private page(ex: Exchange, raw: unknown, hostile: boolean): void {
    if (!isObj(raw) || typeof raw.path !== 'string' || raw.path.trim() === '')
      return ex.json(400, errorBody('path is required and must be a non-empty string.'));
    if (raw.groups !== undefined && !stringList(raw.groups)) return ex.json(400, errorBody('groups must be an array of strings.'));
    const page = this.docs.pageForPath(raw.path.trim());
    if (!page || !matchesFilter(page, raw.groups ? { groups: raw.groups } : undefined)) {
      notFound(ex, 'Page not found');
      return;
    }
    // Lines of 100 characters, bidi controls among them, well past what a client keeps of a page.
    const content = hostile ? `${page.markdown}\n${`\u202Elong line ${'x'.repeat(88)}\n`.repeat(30_000)}` : page.markdown;
    ex.json(200, { path: `/${page.slug}`, content });
  }

  /** Answers as a replacing fault says; true when it did. */
  private async answerFault(ex: Exchange, mode: SearchFault): Promise<boolean> {
    switch (mode) {
      case '403':
        ex.json(403, { message: 'Search is not available on your plan.' });
        return true;
      case '404':
        return notFound(ex);
      case '429':
        ex.json(429, errorBody('Rate limit exceeded.'), { 'retry-after': String(SEARCH_RETRY_AFTER_S) });
        return true;
      case '500':
        ex.json(500, errorBody('Internal server error'));
        return true;
      case 'html-502':
        ex.html(502, '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>');
        return true;
      case 'stall-headers':
        await ex.hold();
        return true;
      case 'drop':
        ex.drop();
        return true;
      case 'bad-json':
        ex.send(200, 'application/json; charset=utf-8', '[{"content": "Flags: `--dl');
        return true;
      case 'bad-shape':
        ex.json(200, { results: [{ content: 'x', path: '/cli' }], path: 42, content: ['not', 'text'] });
        return true;
      case 'huge':
        ex.json(
          200,
          Array.from({ length: 60 }, (_, i) => ({ content: 'x'.repeat(200_000), path: `/huge-${i}` })),
        );
        return true;
      default:
        return false;
    }
  }
}

function notFound(ex: Exchange, message = 'Not Found'): true {
  ex.json(404, { message });
  return true;
}

/** The search body as the service documents it, or why not (a 400 message). */
function validSearch(raw: unknown): { query: string; pageSize: number; scoreThreshold: number; filter?: SearchFilter } | string {
  if (!isObj(raw)) return 'The request body must be a JSON object.';
  if (typeof raw.query !== 'string' || raw.query.trim() === '') return 'query is required and must be a non-empty string.';
  let pageSize = DEFAULT_PAGE_SIZE;
  if (raw.pageSize !== undefined) {
    if (typeof raw.pageSize !== 'number' || !Number.isInteger(raw.pageSize) || raw.pageSize < 1 || raw.pageSize > MAX_PAGE_SIZE)
      return `pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}.`;
    pageSize = raw.pageSize;
  }
  let scoreThreshold = 0;
  if (raw.scoreThreshold !== undefined) {
    if (typeof raw.scoreThreshold !== 'number' || !(raw.scoreThreshold >= 0 && raw.scoreThreshold <= 1)) return 'scoreThreshold must be a number from 0 to 1.';
    scoreThreshold = raw.scoreThreshold;
  }
  if (raw.filter === undefined || raw.filter === null) return { query: raw.query, pageSize, scoreThreshold };
  const f = raw.filter;
  if (!isObj(f)) return 'filter must be an object.';
  if (!optString(f.version) || !optString(f.language) || !optString(f.tag)) return 'filter.version, filter.language and filter.tag must be strings.';
  if (f.groups !== undefined && !stringList(f.groups)) return 'filter.groups must be an array of strings.';
  const filter: SearchFilter = {};
  if (typeof f.version === 'string') filter.version = f.version;
  if (typeof f.language === 'string') filter.language = f.language;
  const groups = [...((f.groups as string[] | undefined) ?? []), ...(typeof f.tag === 'string' ? [f.tag] : [])];
  if (groups.length > 0) filter.groups = groups;
  return { query: raw.query, pageSize, scoreThreshold, filter };
}

/** Entries that are not hits, served beside real ones by `bad-entries`: a client drops and counts them. */
const JUNK: unknown[] = [null, 42, 'a hit', [], { content: 7, path: '/cli' }, { content: 'no path' }, { content: 'blank path', path: '  ' }];

/**
 * Hits a client must bound or keep inert: a 100 KB passage, markup and command links, bidi
 * controls, a `javascript:` path, a 5,000-character path, a polluting `__proto__`, and more hits
 * than any page size.
 */
function hostileHits(): unknown[] {
  const marked = '<img src=x onerror=alert(1)> [run](command:workbench.action.terminal.new) `--dlq` ![x](https://evil.example/p.png)';
  return [
    { content: `\`--dlq\` ${'A'.repeat(100_000)}`, path: '/cli', metadata: { title: 'T'.repeat(5000) } },
    { content: marked, path: 'javascript:alert(document.domain)' },
    { content: 'Use \u202E`--dlq`\u202C to name the queue.', path: '/cli#flags' },
    { content: 'a path too long to be one', path: `/${'p'.repeat(5000)}` },
    JSON.parse('{"content": "polluted", "path": "/faq", "__proto__": {"polluted": true}}'),
    ...Array.from({ length: 60 }, (_, i) => ({ content: `filler ${i}`, path: `/filler-${i}` })),
  ];
}

import { boundText } from './analyticsShape';
import { ServiceError } from './errors';
import { describeValue, isObj, own, str } from './json';

// Reads what the docs search and page endpoints answer (notes.md, "Beyond the interface"). Pages
// anyone may edit are the hits' text, and the hits go into trees, drafts and agent prompts: so a
// body that is not a list of hits is refused by name, a hit that is not one is dropped and counted
// (one bad hit must not hide the others), and every string is bounded here, before anything else
// holds it. The strings stay as sent: making them inert is for whoever shows them.

/** Hits kept from one search (the endpoint's own maximum `pageSize`); the rest are counted as dropped. */
export const MAX_SEARCH_HITS = 50;
/** A hit's passage past this is cut. */
export const MAX_HIT_CONTENT_CHARS = 20_000;
/** A page path or URL longer than this names no page: the hit is dropped, not cut to another path. */
export const MAX_HIT_PATH_CHARS = 2048;
/** A page's full text past this (2 MB of characters) is cut, and says so. */
export const MAX_PAGE_CONTENT_CHARS = 2 * 1024 * 1024;
const MAX_TITLE_CHARS = 300;

/** The filter the search endpoint documents; only these fields are sent. */
export interface DocsSearchFilter {
  version?: string;
  language?: string;
  tag?: string;
  groups?: string[];
}

export interface DocsSearchRequest {
  query: string;
  /** 1–50 (clamped); the service's default (10) when not given. */
  pageSize?: number;
  /** 0–1 (clamped). */
  scoreThreshold?: number;
  filter?: DocsSearchFilter;
}

export interface DocsSearchHit {
  /** The passage that matched, at most MAX_HIT_CONTENT_CHARS. Untrusted. */
  content: string;
  /** The page path (`/cli`) or URL, at most MAX_HIT_PATH_CHARS. Untrusted. */
  path: string;
  /** `metadata.title`, when the service sends one. Untrusted. */
  title?: string;
}

export interface DocsSearchResults {
  hits: DocsSearchHit[];
  /** Entries that were not hits, had a path too long to name a page, or came past MAX_SEARCH_HITS. */
  dropped: number;
}

export interface DocsPageText {
  path: string;
  /** The page's full text, at most MAX_PAGE_CONTENT_CHARS. Untrusted. */
  content: string;
  /** True when the text was longer and was cut. */
  cut: boolean;
}

function bad(field: string, expected: string, got: unknown): ServiceError {
  return new ServiceError({ reason: { code: 'badSearch', field, expected, got: describeValue(got) } });
}

/** A non-blank path of at most MAX_HIT_PATH_CHARS, or undefined. */
function pathOf(v: unknown): string | undefined {
  return str(v) && v.trim() !== '' && v.length <= MAX_HIT_PATH_CHARS ? v : undefined;
}

function hitOf(v: unknown): DocsSearchHit | undefined {
  if (!isObj(v)) return undefined;
  const content = own(v, 'content');
  const path = pathOf(own(v, 'path'));
  if (!str(content) || path === undefined) return undefined;
  const hit: DocsSearchHit = { content: boundText(content, MAX_HIT_CONTENT_CHARS), path };
  const metadata = own(v, 'metadata');
  const title = isObj(metadata) ? own(metadata, 'title') : undefined;
  if (str(title) && title.trim() !== '') hit.title = boundText(title, MAX_TITLE_CHARS);
  return hit;
}

/** POST /discovery/v1/search/{domain}: a JSON array of `{content, path, metadata?}`. */
export function parseSearchHits(body: unknown): DocsSearchResults {
  if (!Array.isArray(body)) throw bad('', 'a list of hits', body);
  const hits: DocsSearchHit[] = [];
  let dropped = 0;
  for (const entry of body) {
    const hit = hits.length < MAX_SEARCH_HITS ? hitOf(entry) : undefined;
    if (hit === undefined) dropped++;
    else hits.push(hit);
  }
  return { hits, dropped };
}

/** POST /discovery/v1/page/{domain}: `{path, content}`; the path asked for when the answer names none. */
export function parseDocsPage(body: unknown, asked: string): DocsPageText {
  if (!isObj(body)) throw bad('', 'a page', body);
  const content = own(body, 'content');
  if (!str(content)) throw bad('content', "the page's text", content);
  const cut = content.length > MAX_PAGE_CONTENT_CHARS;
  return { path: pathOf(own(body, 'path')) ?? asked, content: cut ? boundText(content, MAX_PAGE_CONTENT_CHARS) : content, cut };
}

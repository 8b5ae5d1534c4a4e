import type { CallOptions } from './agentClient';
import { keyedJson, optionalFeatureError, type AdminRequest } from './adminCall';
import { ServiceError } from './errors';
import type { ClientOptions } from './http';
import { keyProblem } from './keys';
import {
  MAX_HIT_PATH_CHARS,
  parseDocsPage,
  parseSearchHits,
  type DocsPageText,
  type DocsSearchFilter,
  type DocsSearchRequest,
  type DocsSearchResults,
} from './searchShape';
import { secureBaseUrl, serviceUrl } from './url';

// Client for the docs search and page endpoints (notes.md, "Beyond the interface"), with the
// ASSISTANT key, like AssistantClient (the same base URL rules: https unless this machine; the
// same headers and timeouts; the admin key is refused before anything is sent). They are beyond
// the interface, so they are detected: a 403 (a plan without them) or a 404 (a service without
// them) is `notOffered` naming search, which the caller turns into one quiet note and a fallback.
// A 429 keeps when to retry; nothing is retried here. Documented as not consuming answer credits.

export interface SearchClientOptions extends ClientOptions {
  domain: string;
  apiKey: string;
}

/** 50 hits of at most 20,000 characters each fit, escaped; a larger body is refused unread. */
const MAX_SEARCH_BODY_BYTES = 4 * 1024 * 1024;
/** A page of 2 MB of text, escaped in JSON, fits; a larger body is refused unread. */
const MAX_PAGE_BODY_BYTES = 8 * 1024 * 1024;
/** A query longer than this is no search a person or the stale-docs check would write: it is cut. */
export const MAX_SEARCH_QUERY_CHARS = 1000;
const MAX_FILTER_VALUE_CHARS = 200;
const MAX_FILTER_GROUPS = 50;

const short = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_FILTER_VALUE_CHARS;

/** The filter's documented fields only, each of the documented type; undefined when nothing is left. */
export function searchFilterBody(filter: DocsSearchFilter | undefined): DocsSearchFilter | undefined {
  if (!filter || typeof filter !== 'object') return undefined;
  const out: DocsSearchFilter = {};
  if (short(filter.version)) out.version = filter.version;
  if (short(filter.language)) out.language = filter.language;
  if (short(filter.tag)) out.tag = filter.tag;
  if (Array.isArray(filter.groups)) out.groups = filter.groups.filter(short).slice(0, MAX_FILTER_GROUPS);
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The body of a search: the query, and pageSize (1–50) and scoreThreshold (0–1) clamped, only when they are numbers. */
export function searchBody(req: DocsSearchRequest): Record<string, unknown> {
  const query = typeof req.query === 'string' ? req.query.trim().slice(0, MAX_SEARCH_QUERY_CHARS) : '';
  if (query === '') throw new ServiceError({ reason: { code: 'badRequest' }, detail: 'the search query is empty' });
  const body: Record<string, unknown> = { query };
  if (typeof req.pageSize === 'number' && Number.isFinite(req.pageSize)) body.pageSize = Math.min(50, Math.max(1, Math.round(req.pageSize)));
  if (typeof req.scoreThreshold === 'number' && Number.isFinite(req.scoreThreshold)) body.scoreThreshold = Math.min(1, Math.max(0, req.scoreThreshold));
  const filter = searchFilterBody(req.filter);
  if (filter) body.filter = filter;
  return body;
}

export class SearchClient {
  private readonly opts: SearchClientOptions;
  /** 403/404: not offered (one quiet note); a 429 is the assistant key's limit. */
  private readonly errorFor: AdminRequest['errorFor'];

  constructor(opts: SearchClientOptions) {
    // Copied, so a later change to the caller's object cannot redirect the key mid-flight.
    this.opts = { ...opts };
    this.errorFor = optionalFeatureError('search', { service: 'assistant', domain: this.opts.domain });
  }

  /** POST /discovery/v1/search/{domain}: the passages that match, at most 50, bounded. */
  async search(req: DocsSearchRequest, opts: CallOptions = {}): Promise<DocsSearchResults> {
    const url = this.url('search');
    const body = searchBody(req);
    const { json } = await keyedJson(this.opts, {
      method: 'POST',
      url,
      body,
      signal: opts.signal,
      maxBodyBytes: MAX_SEARCH_BODY_BYTES,
      errorFor: this.errorFor,
    });
    return parseSearchHits(json);
  }

  /** POST /discovery/v1/page/{domain}: the full text of the page a search named (its path or URL). */
  async page(req: { path: string; groups?: string[] }, opts: CallOptions = {}): Promise<DocsPageText> {
    const url = this.url('page');
    const path = typeof req.path === 'string' ? req.path.trim() : '';
    if (path === '' || path.length > MAX_HIT_PATH_CHARS) {
      throw new ServiceError({ reason: { code: 'badRequest' }, detail: `the page path must be 1 to ${MAX_HIT_PATH_CHARS} characters` });
    }
    const body: Record<string, unknown> = { path };
    const groups = searchFilterBody({ groups: req.groups })?.groups;
    if (groups && groups.length > 0) body.groups = groups;
    const { json } = await keyedJson(this.opts, { method: 'POST', url, body, signal: opts.signal, maxBodyBytes: MAX_PAGE_BODY_BYTES, errorFor: this.errorFor });
    return parseDocsPage(json, path);
  }

  /** The endpoint's address, once the key is an assistant key and the domain is set (never the admin key). */
  private url(endpoint: 'search' | 'page'): string {
    const problem = keyProblem(this.opts.apiKey ?? '', 'assistant');
    if (problem !== undefined) throw new ServiceError({ reason: { code: 'keyInvalid', keyKind: 'assistant', problem } });
    const domain = (this.opts.domain ?? '').trim();
    if (domain === '') throw new ServiceError({ reason: { code: 'domainMissing' } });
    return serviceUrl(secureBaseUrl(this.opts.baseUrl, 'assistant'), ['discovery', 'v1', endpoint, domain]);
  }
}

import {
  boundText,
  MAX_HIT_CONTENT_CHARS,
  MAX_SEARCH_HITS,
  ServiceError,
  sourcesOf,
  toolResults,
  type AssembledMessage,
  type DocsSearchFilter,
  type DocsSearchRequest,
  type DocsSearchResults,
} from '../../api';
import type * as l10n from '@vscode/l10n';
import { said, type Assistant } from '../../assistant/core/assistant';
import { english } from '../../common/l10n';
import type { DocsHit, DocsSearcher } from './staleDocs';

// The two ways the stale-docs check searches the docs (issue 32): the service's search endpoint
// (credit-free, beyond the interface, so it may not be there), and the assistant, asked a
// question that names the old form, whose sources (and what its search showed of them) are the
// hits. chooseSearcher() tries the endpoint and, the first time the service says it does not
// offer it, falls back to the assistant for the rest of the session, and says so once.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** The part of SearchClient a searcher needs. */
export interface SearchLike {
  search(req: DocsSearchRequest, opts: { signal?: AbortSignal }): Promise<DocsSearchResults>;
}

/** Hits asked of the endpoint per search: a page mentioning a name rarely ranks below this. */
const PAGE_SIZE = 20;

/** The search endpoint, through the client (its hits already checked and bounded by src/api). */
export function searchEndpointSearcher(client: SearchLike, opts: { filter?: DocsSearchFilter; pageSize?: number } = {}): DocsSearcher {
  return {
    via: 'search',
    async search(query, { signal }) {
      const { hits } = await client.search({ query, pageSize: opts.pageSize ?? PAGE_SIZE, filter: opts.filter }, { signal });
      return hits.map((h): DocsHit => (h.title === undefined ? { path: h.path, content: h.content } : { path: h.path, title: h.title, content: h.content }));
    },
  };
}

const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? boundText(v, max) : undefined);

/**
 * An answer's hits: each result of its search tool (its link, title and what it showed of the
 * page), then each source not already named (no text). Links are the service's: staleSearch
 * keeps only those that name a page of a site. At most MAX_SEARCH_HITS.
 */
export function hitsOfAnswer(message: AssembledMessage): DocsHit[] {
  const hits: DocsHit[] = [];
  const named = new Set<string>();
  const add = (path: string, title: string | undefined, content: string): void => {
    if (hits.length >= MAX_SEARCH_HITS) return;
    named.add(path);
    hits.push(title ? { path, title, content } : { path, content });
  };
  for (const part of message.parts) {
    if (part.type !== 'tool') continue;
    for (const r of toolResults(part).slice(0, MAX_SEARCH_HITS)) {
      const o = r as Record<string, unknown> | null;
      const url = text(o?.url, 2048);
      if (url === undefined) continue;
      add(url, text(o?.title, 300), text(o?.snippet, MAX_HIT_CONTENT_CHARS) ?? text(o?.content, MAX_HIT_CONTENT_CHARS) ?? '');
    }
  }
  for (const s of sourcesOf(message)) if (s.url !== undefined && !named.has(s.url)) add(s.url, s.title, '');
  return hits;
}

/** The assistant, through the one Assistant every surface asks with (never a request of its own): a new thread per question. */
export function assistantSearcher(assistant: Pick<Assistant, 'ask'>): DocsSearcher {
  return {
    via: 'assistant',
    async search(query, { signal }) {
      const question = { messages: [said('stale-docs', 'user', `Which pages of the documentation mention ${query}?`)] };
      for await (const ev of assistant.ask(question, { selections: [] }, undefined, signal)) {
        if (ev.type === 'done') return hitsOfAnswer(ev.message);
        if (ev.type === 'error') throw ev.error;
      }
      throw new ServiceError({ reason: { code: 'unexpected' }, detail: 'the assistant ended without an answer' });
    },
  };
}

/** What the check says when it used the assistant's sources instead of the search endpoint. */
export function fallbackNote(t: Translate = english): string {
  const l10n = { t };
  return l10n.t('Search is not offered by this service: the assistant’s sources were used.');
}

export interface SearcherChoice {
  /** The search endpoint's searcher; undefined when there is no client for it. */
  endpoint?: DocsSearcher;
  assistant: DocsSearcher;
  /** Called once, the first time the endpoint is not offered, with the note to show. */
  noteFallback?: (note: string, error: ServiceError) => void;
  t?: Translate;
}

/** A searcher whose `via` says which one it uses now; `fellBack` once the endpoint said it is not offered. */
export interface ChosenSearcher extends DocsSearcher {
  readonly fellBack: boolean;
}

/** The search endpoint, falling back to the assistant on `notOffered`: once, remembered for as long as this searcher lives (the session). */
export function chooseSearcher(choice: SearcherChoice): ChosenSearcher {
  let fellBack = choice.endpoint === undefined;
  return {
    get via() {
      return fellBack ? choice.assistant.via : choice.endpoint!.via;
    },
    get fellBack() {
      return fellBack;
    },
    async search(query, opts) {
      if (!fellBack) {
        try {
          return await choice.endpoint!.search(query, opts);
        } catch (e) {
          if (!(e instanceof ServiceError) || e.reason.code !== 'notOffered') throw e;
          fellBack = true;
          choice.noteFallback?.(fallbackNote(choice.t), e);
        }
      }
      return choice.assistant.search(query, opts);
    },
  };
}

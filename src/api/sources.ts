import { MAX_SOURCES } from './limits';
import type { AssembledMessage, AssembledToolCall } from './types';

// Where an answer's sources and searches are read from the assembled message, for every surface
// that shows them (the chat view, VS Code's Chat view, the #docs tool). The links come from a
// model that reads pages anyone may edit, so only safe ones survive this.

/**
 * `raw` as an http(s) URL to open outside VS Code, or undefined. Anything else (`command:`,
 * `file:`, `javascript:`, `vscode:`) is refused, and so are links with a user name or password
 * in them: `https://docs.example.com@evil.example` reads as the docs but goes elsewhere.
 */
export function safeExternalUrl(raw: string): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username !== '' || url.password !== '' || url.hostname === '') return undefined;
  return url.href;
}

/** A source as shown: a checked link with its title, or a title alone when the link was not safe. */
export type Source = { url: string; title: string } | { url?: undefined; title: string };

/** The query a search tool call was given, if it has one. */
export function toolQuery(t: AssembledToolCall): string | undefined {
  const input = t.input as { query?: unknown } | undefined;
  return input && typeof input.query === 'string' ? input.query : undefined;
}

interface ToolResult {
  url?: unknown;
  title?: unknown;
}

/** The results of a search tool call: its output as a list, or its `results`. */
export function toolResults(t: AssembledToolCall): ToolResult[] {
  const out = t.output as { results?: unknown } | unknown[] | undefined;
  if (Array.isArray(out)) return out as ToolResult[];
  if (out && typeof out === 'object' && Array.isArray((out as { results?: unknown }).results)) return (out as { results: ToolResult[] }).results;
  return [];
}

/** Search results read for sources, over all the tool calls of an answer. */
const MAX_RESULTS_READ = 200;

/** Checked links, so that the same link read again costs a lookup, not a URL parse. */
const checkedLinks = new Map<string, string | undefined>();
function checkedLink(raw: string): string | undefined {
  const known = checkedLinks.get(raw);
  if (known !== undefined || checkedLinks.has(raw)) return known;
  if (checkedLinks.size >= 1000) checkedLinks.clear();
  const url = safeExternalUrl(raw);
  checkedLinks.set(raw, url);
  return url;
}

/**
 * Sources from `source-url` chunks and from the search tool's results, once each. A source with
 * an unsafe link keeps its title, as plain text; without a title there is nothing left to show.
 * What it reads is bounded: at most MAX_SOURCES sources, from at most MAX_RESULTS_READ results.
 */
export function sourcesOf(message: AssembledMessage): Source[] {
  const seen = new Set<string>();
  const out: Source[] = [];
  const add = (rawUrl: string | undefined, title: string | undefined) => {
    const url = rawUrl === undefined ? undefined : checkedLink(rawUrl);
    const key = url ?? (title ? `title:${title}` : '');
    if (!key || seen.has(key)) return;
    seen.add(key);
    out.push(url ? { url, title: title || url } : { title: title! });
  };
  for (const s of message.sources) {
    if (out.length >= MAX_SOURCES) return out;
    add(s.url, s.title ?? s.filename);
  }
  let budget = MAX_RESULTS_READ;
  for (const p of message.parts) {
    if (p.type !== 'tool') continue;
    for (const r of toolResults(p)) {
      if (out.length >= MAX_SOURCES || budget-- <= 0) return out;
      add(typeof r?.url === 'string' ? r.url : undefined, typeof r?.title === 'string' ? r.title : undefined);
    }
  }
  return out;
}

import type { Hit } from './retrieval';
import { plainText } from './retrieval';

// The answer, put together from the passages the search found. There is no language model here,
// and the answer says so: it quotes the documentation, attributed, and links the pages.

export interface ContextNote {
  type: string;
  path?: string;
}

export interface AnswerInput {
  /** The question as the user typed it, without the emulator's magic words. */
  question: string;
  /** The earlier question this one was read together with, when it looked like a follow-up. */
  followUpOf?: string;
  context: ContextNote[];
  hits: Hit[];
  /** Where the docs pages are served: `${baseUrl}/docs/<slug>`. */
  baseUrl: string;
}

export interface SearchResult {
  title: string;
  url: string;
  snippet: string;
}

export interface SourceLink {
  sourceId: string;
  url: string;
  title: string;
}

export interface Answer {
  markdown: string;
  results: SearchResult[];
  sources: SourceLink[];
}

/** Passages quoted in full; the rest of the hits only show up as links. */
const QUOTED_PASSAGES = 3;
/** A passage scoring below this share of the best one is linked, not quoted: it is likely off topic. */
const QUOTE_MIN_RELATIVE_SCORE = 0.5;
const PASSAGE_MAX_CHARS = 1400;

export function pageUrl(baseUrl: string, slug: string, anchor = ''): string {
  return `${baseUrl}/docs/${slug}${anchor ? `#${anchor}` : ''}`;
}

/** One hit as the search tool reports it; the MCP server's `search` tool uses the same shape. */
export function searchResult({ passage }: Hit, baseUrl: string): SearchResult {
  return {
    title: passage.heading === passage.page.title ? passage.page.title : `${passage.page.title} › ${passage.heading}`,
    url: pageUrl(baseUrl, passage.page.slug, passage.anchor),
    snippet: plainText(passage.body),
  };
}

export function composeAnswer(input: AnswerInput): Answer {
  const { hits, baseUrl } = input;
  const results = hits.map((hit) => searchResult(hit, baseUrl));
  const pages = [...new Map(hits.map(({ passage }) => [passage.page.slug, passage.page])).values()];
  const sources = pages.map((p, i) => ({ sourceId: `src-${i + 1}`, url: pageUrl(baseUrl, p.slug), title: p.title }));

  const out: string[] = [];
  const about = quote(input.question);
  const intro = input.followUpOf
    ? `Here is what the documentation says about ${about} (read together with your earlier question, ${quote(input.followUpOf)}):`
    : `Here is what the documentation says about ${about}:`;
  for (const c of input.context) {
    const what = c.type === 'code' ? 'code' : 'text';
    out.push(
      c.path ? `You selected ${what} from \`${c.path}\`; its words were part of the search.` : `You selected some ${what}; its words were part of the search.`,
    );
  }

  if (hits.length === 0) {
    out.unshift(`I found nothing in the documentation about ${about}. Try other words, or a wider filter.`);
    out.push(`_Answered by the local service emulator, which quotes the documentation instead of writing answers._`);
    return { markdown: out.join('\n\n'), results, sources };
  }

  out.unshift(intro);
  const best = hits[0]!.score;
  hits.slice(0, QUOTED_PASSAGES).forEach(({ passage, score }, i) => {
    if (i > 0 && score < best * QUOTE_MIN_RELATIVE_SCORE) return;
    const title = results[i]!.title;
    out.push(`**${title}**`);
    out.push(absoluteLinks(excerpt(passage.body, PASSAGE_MAX_CHARS), baseUrl));
    out.push(`— from [${title}](${results[i]!.url})`);
  });
  out.push(`See also: ${sources.map((s) => `[${s.title}](${s.url})`).join(', ')}.`);
  out.push(`_Quoted from the documentation by the local service emulator; no language model wrote this._`);
  return { markdown: out.join('\n\n'), results, sources };
}

/** Site-relative links (`/docs/…`) made absolute, as they would not resolve inside a chat. */
function absoluteLinks(markdown: string, baseUrl: string): string {
  return markdown.replace(/\]\((\/[^)\s]*)\)/g, (_m, path: string) => `](${baseUrl}${path})`);
}

function quote(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return `"${one.length > 120 ? `${one.slice(0, 119)}…` : one}"`;
}

/**
 * The passage cut at a paragraph break near `max` characters, never inside a code block, so
 * the quoted markdown stays well formed.
 */
export function excerpt(markdown: string, max: number): string {
  if (markdown.length <= max) return markdown;
  const kept: string[] = [];
  let size = 0;
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (!inFence && line.trim() === '' && size >= max) return `${kept.join('\n').trimEnd()}\n\n…`;
    kept.push(line);
    size += line.length + 1;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
  }
  return kept.join('\n');
}

/** The answer in pieces of a few words, as a model would stream it; joined, they are the answer. */
export function toDeltas(text: string, wordsPerDelta = 3): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += wordsPerDelta) pieces.push(words.slice(i, i + wordsPerDelta).join(''));
  const tail = text.slice(pieces.join('').length);
  if (tail && pieces.length > 0) pieces[pieces.length - 1] += tail;
  else if (tail) pieces.push(tail);
  return pieces;
}

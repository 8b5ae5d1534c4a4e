import { readSite } from './siteFiles';

// The assistant's documentation search: markdown pages split into passages at their headings,
// ranked with BM25. Real enough that a question finds the page a person would open, so answers
// in the demo and in tests make sense without a language model.

export interface DocPage {
  slug: string;
  title: string;
  description?: string;
  version?: string;
  language: string;
  groups: string[];
  /** The page's markdown without its front matter. */
  markdown: string;
}

export interface Passage {
  page: DocPage;
  /** The section heading; the page title for the text before the first section. */
  heading: string;
  /** Fragment id of the heading on the page, '' for the top. */
  anchor: string;
  /** The section's markdown without its heading line. */
  body: string;
  terms: Map<string, number>;
  length: number;
}

export interface SearchFilter {
  version?: string;
  language?: string;
  groups?: string[];
}

export interface SearchQuery {
  /** Terms of the question. */
  terms: string[];
  /**
   * Terms of what the user selected. They count once each and at half weight, so that a long
   * selection steers the search without drowning the question.
   */
  contextTerms?: string[];
  limit: number;
  filter?: SearchFilter | null;
  currentPath?: string;
}

export interface Hit {
  passage: Passage;
  score: number;
}

// ---------------------------------------------------------------------------
// Text to terms

const STOPWORDS = new Set(
  (
    'a an and are as at be but by can do does for from has have how i if in into is it its me my no not of on or ' +
    'our so that the their them then there these they this those to us was we what when where which who why will ' +
    'with you your yours about also any all more most some such than too very would should could may might must ' +
    'am been being did doing had having he her here him his she were again once only own same just don'
  ).split(' '),
);

/**
 * A light suffix stripper, enough to make "webhooks"/"webhook", "configure"/"configuration",
 * "retries"/"retry" meet. The stem keeps at least three letters.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  for (const suffix of ['ations', 'ation', 'ments', 'ment', 'ings', 'ing', 'ers', 'er', 'ed', 'es', 's', 'e']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      if (suffix === 's' && word.endsWith('ss')) return word;
      return word.slice(0, -suffix.length);
    }
  }
  return word;
}

/** Version numbers ("2.3.0") stay whole: split at the dots they would be too short to search for. */
const TOKEN = /\p{N}+(?:\.\p{N}+)+|[\p{L}\p{N}]+/gu;

export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const [raw] of text.toLowerCase().normalize('NFKC').matchAll(TOKEN)) {
    if (raw.length < 2 || STOPWORDS.has(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

/** The fragment id a heading gets on the rendered page (GitHub style). */
export function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');
}

// ---------------------------------------------------------------------------
// Pages and passages

/** The small subset of YAML front matter the pages use: `key: value` and `key: [a, b]`. */
function parseFrontMatter(text: string): { meta: Record<string, string | string[]>; body: string } {
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, string | string[]> = {};
  for (const line of m[1]!.split(/\r?\n/)) {
    const kv = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line);
    if (!kv) continue;
    const value = kv[2]!.trim();
    const list = /^\[(.*)\]$/.exec(value);
    meta[kv[1]!] = list
      ? list[1]!
          .split(',')
          .map((s) => unquote(s.trim()))
          .filter(Boolean)
      : unquote(value);
  }
  return { meta, body: text.slice(m[0].length) };
}

function unquote(s: string): string {
  return /^(['"]).*\1$/.test(s) ? s.slice(1, -1) : s;
}

export function parsePage(slug: string, text: string): DocPage {
  const { meta, body } = parseFrontMatter(text);
  const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
  const h1 = /^#\s+(.+)$/m.exec(body)?.[1]?.trim();
  const page: DocPage = {
    slug,
    title: str(meta.title) ?? h1 ?? slug,
    language: str(meta.language) ?? 'en',
    groups: Array.isArray(meta.groups) ? meta.groups : str(meta.groups) ? [meta.groups as string] : [],
    markdown: body,
  };
  const description = str(meta.description);
  const version = str(meta.version);
  if (description) page.description = description;
  if (version) page.version = version;
  return page;
}

/** Sections at `##` and `###` headings; the text before the first one belongs to the page title. */
export function splitPassages(page: DocPage): Passage[] {
  const passages: Passage[] = [];
  let heading = page.title;
  let anchor = '';
  let lines: string[] = [];
  let fence: string | undefined;
  const flush = (): void => {
    const body = lines.join('\n').trim();
    if (body !== '') passages.push(makePassage(page, heading, anchor, body));
    lines = [];
  };
  for (const line of page.markdown.split(/\r?\n/)) {
    const f = /^\s*(```+|~~~+)/.exec(line);
    if (f) {
      if (fence === undefined) fence = f[1]!;
      else if (line.trim().startsWith(fence)) fence = undefined;
    }
    const h = fence === undefined && !f ? /^(#{1,3})\s+(.+?)\s*#*\s*$/.exec(line) : null;
    if (h && h[1]!.length === 1) continue;
    if (h) {
      flush();
      heading = h[2]!;
      anchor = anchorOf(heading);
      continue;
    }
    lines.push(line);
  }
  flush();
  return passages;
}

function makePassage(page: DocPage, heading: string, anchor: string, body: string): Passage {
  // Headings and titles say what a section is about, so their words count twice.
  const words = [...tokenize(heading), ...tokenize(heading), ...tokenize(page.title), ...tokenize(body)];
  const terms = new Map<string, number>();
  for (const w of words) terms.set(w, (terms.get(w) ?? 0) + 1);
  return { page, heading, anchor, body, terms, length: words.length };
}

/** Plain text of some markdown, for the search tool's snippets. */
export function plainText(markdown: string, max = 200): string {
  const prose = flatten(markdown.replace(/```[^\n]*\n([\s\S]*?)```/g, ' '));
  // A section that is only a code block still deserves a snippet: its code, without the fences.
  const text = prose !== '' ? prose : flatten(markdown.replace(/^\s*(```|~~~).*$/gm, ' '));
  return text.length <= max ? text : `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

function flatten(markdown: string): string {
  return markdown
    .replace(/^\s*\|?[-:| ]+\|?\s*$/gm, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*(#{1,6}|>)\s*/gm, '')
    .replace(/[`*|]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

// ---------------------------------------------------------------------------
// The index

const K1 = 1.2;
const B = 0.75;
/** How much a passage gains from being on the page the user is viewing. */
const CURRENT_PAGE_BOOST = 1.5;
const CONTEXT_TERM_WEIGHT = 0.5;
/** The site's main language; pages in others rank lower unless a filter asks for their language. */
const SITE_LANGUAGE = 'en';
/**
 * A real docs search is scoped to the reader's locale. Without a language filter a translated page
 * still turns up, but below the pages in the site's language, so a question in English does not
 * get the German page first just because it shares a command name.
 */
const OTHER_LANGUAGE_FACTOR = 0.5;
/** Likewise for versions: without a version filter, pages of older versions rank below current ones. */
const OLDER_VERSION_FACTOR = 0.5;

export class DocsIndex {
  readonly pages: DocPage[];
  readonly passages: Passage[];
  private readonly docFreq = new Map<string, number>();
  private readonly avgLength: number;
  /** The newest version any page names, e.g. "v2"; undefined when no page names one. */
  private readonly currentVersion: string | undefined;

  constructor(pages: DocPage[]) {
    this.pages = pages;
    this.passages = pages.flatMap(splitPassages);
    for (const p of this.passages) for (const t of p.terms.keys()) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
    this.avgLength = this.passages.reduce((n, p) => n + p.length, 0) / Math.max(1, this.passages.length);
    const versions = pages.map((p) => p.version).filter((v): v is string => v !== undefined);
    this.currentVersion = versions.sort((a, b) => a.localeCompare(b, 'en', { numeric: true })).pop();
  }

  /** The pages a docs site's navigation names (siteFiles.ts), in file name order: equal scores rank as they always did. */
  static load(dir: string): DocsIndex {
    const site = readSite(dir);
    const text = new Map(site.files.map((f) => [f.path, f.text]));
    const pages = [...site.pages].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    return new DocsIndex(pages.map((p) => parsePage(p.slug, text.get(p.file)!)));
  }

  page(slug: string): DocPage | undefined {
    return this.pages.find((p) => p.slug === slug);
  }

  /** The page a `currentPath` names: `/docs/<slug>`, a URL, or a file path ending in the slug. */
  pageForPath(path: string | undefined): DocPage | undefined {
    if (!path) return undefined;
    const last = path
      .replace(/[?#].*$/, '')
      .replace(/[\\/]+$/, '')
      .split(/[\\/]/)
      .pop()
      ?.replace(/\.(mdx?|html?)$/i, '')
      .toLowerCase();
    return last ? this.page(last) : undefined;
  }

  search(query: SearchQuery): Hit[] {
    const qtf = new Map<string, number>();
    for (const t of query.terms) qtf.set(t, (qtf.get(t) ?? 0) + 1);
    for (const t of new Set(query.contextTerms ?? [])) qtf.set(t, (qtf.get(t) ?? 0) + CONTEXT_TERM_WEIGHT);
    const boosted = this.pageForPath(query.currentPath);
    const n = this.passages.length;
    const hits: Hit[] = [];
    for (const passage of this.passages) {
      if (!matchesFilter(passage.page, query.filter)) continue;
      let score = 0;
      for (const [term, weight] of qtf) {
        const tf = passage.terms.get(term);
        if (!tf) continue;
        const df = this.docFreq.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += weight * idf * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * passage.length) / this.avgLength)));
      }
      if (score <= 0) continue;
      if (boosted && passage.page === boosted) score *= CURRENT_PAGE_BOOST;
      if (!query.filter?.language && passage.page.language.toLowerCase() !== SITE_LANGUAGE) score *= OTHER_LANGUAGE_FACTOR;
      if (!query.filter?.version && passage.page.version !== undefined && passage.page.version !== this.currentVersion) score *= OLDER_VERSION_FACTOR;
      hits.push({ passage, score });
    }
    hits.sort((a, b) => b.score - a.score);
    return hits.slice(0, Math.max(0, query.limit));
  }
}

/**
 * A filter narrows the search. `version`: pages of that version, and pages that do not name one
 * (they hold for every version). `language`: pages in it (a page without one is English).
 * `groups`: pages tagged with at least one of them.
 */
export function matchesFilter(page: DocPage, filter: SearchFilter | null | undefined): boolean {
  if (!filter) return true;
  if (filter.version !== undefined && page.version !== undefined && page.version !== filter.version) return false;
  if (filter.language !== undefined && page.language.toLowerCase() !== filter.language.toLowerCase()) return false;
  if (filter.groups !== undefined && filter.groups.length > 0 && !filter.groups.some((g) => page.groups.includes(g))) return false;
  return true;
}

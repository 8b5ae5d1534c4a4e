import { safeExternalUrl } from '../../api';

// A docs site's pages as files in the workspace, with no I/O. The site's `docs.json` (older sites:
// `mint.json`) names each page by its path without extension in its navigation (`"quickstart"`,
// `"api/auth"`), and that page is the `.mdx` or `.md` file at that path beside it (notes.md, "Docs
// repository layout"). The service names pages as paths on the site or as URLs (`/quickstart`,
// `https://docs.example.com/quickstart#step-2`): sitePath normalizes both, and DocsSiteMap finds
// the file among those that exist, which the VS Code wiring lists (src/host/vscode). The JSON is
// the workspace's and the paths are the service's: neither is trusted, so both are bounded, and a
// path that could leave the site's folder (`..`, a backslash, an encoded slash) maps to nothing.

/** The largest docs.json read: real ones are tens of KB. */
export const MAX_SITE_FILE_CHARS = 2 * 1024 * 1024;
/** How deep the navigation is walked: tabs, dropdowns and groups nest a handful of levels. */
export const MAX_NAVIGATION_DEPTH = 32;
/** The most pages kept from one navigation. */
export const MAX_NAVIGATION_PAGES = 10_000;
/** The longest page path or URL considered. */
export const MAX_PAGE_PATH_CHARS = 2048;

// eslint-disable-next-line no-control-regex -- control and bidi characters are exactly what is refused.
const ODD_CHARS = /[\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\\:*?"<>|]/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** A site's path: `/quickstart`, `/api/auth`, `/` for the home page; undefined for anything odd. */
export function sitePath(raw: string): string | undefined {
  let text = raw.trim();
  if (!text || text.length > MAX_PAGE_PATH_CHARS || text.startsWith('//')) return undefined;
  if (SCHEME.test(text)) {
    // A URL on the docs site: http(s) only, no user name or password (src/api's one rule), its path alone.
    const href = safeExternalUrl(text);
    if (href === undefined) return undefined;
    text = new URL(href).pathname;
  } else text = text.replace(/[?#].*$/s, '');
  const segments: string[] = [];
  for (const part of text.split('/')) {
    if (part === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(part);
    } catch {
      return undefined;
    }
    if (segment === '.' || segment === '..' || segment.includes('/') || ODD_CHARS.test(segment)) return undefined;
    segments.push(segment);
  }
  // An empty segment inside the path (`a//b`) was skipped above; one only at the ends is a slash to drop.
  if (/[^/]\/{2,}[^/]/.test(text)) return undefined;
  return `/${segments.join('/')}`;
}

/**
 * A page the service names, as a path of the docs site served at `siteUrl` (docsAssistant.docsSiteUrl,
 * `https://example.com/docs`). A path is already the site's (sitePath). A URL is a page only on the
 * site's origin and under its path, which is dropped (`https://example.com/docs/cli#x` is `/cli`),
 * because docs.json names pages from there; a URL anywhere else, or with no site set, is none.
 */
export function sitePathOn(raw: string, siteUrl: string): string | undefined {
  if (!SCHEME.test(raw.trim())) return sitePath(raw);
  const site = safeExternalUrl(siteUrl.trim());
  const href = safeExternalUrl(raw.trim());
  if (site === undefined || href === undefined || new URL(site).origin !== new URL(href).origin) return undefined;
  const prefix = sitePath(new URL(site).pathname);
  const path = sitePath(href);
  if (prefix === undefined || path === undefined) return undefined;
  if (prefix === '/') return path;
  if (path === prefix) return '/';
  return path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
}

/** The files a page may be, in the order they are preferred, relative to the site's folder. */
export function pageCandidates(page: string): string[] {
  const path = sitePath(page);
  if (path === undefined) return [];
  if (path === '/') return ['index.mdx', 'index.md'];
  const p = path.slice(1);
  return [`${p}.mdx`, `${p}.md`, `${p}/index.mdx`, `${p}/index.md`];
}

/**
 * The page paths a docs.json or mint.json names, in order, or undefined when the text is not
 * such a file. Pages are the strings of every `pages` array (whatever nests them: tabs, anchors,
 * dropdowns, versions, languages, groups) and a group's `root`; what could leave the site is left out.
 */
export function navigationPages(text: string): string[] | undefined {
  if (text.length > MAX_SITE_FILE_CHARS) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(json) || !('navigation' in json) || (typeof json.navigation !== 'object' && !Array.isArray(json.navigation))) return undefined;
  const pages: string[] = [];
  const seen = new Set<string>();
  const add = (value: unknown): void => {
    if (typeof value !== 'string' || pages.length >= MAX_NAVIGATION_PAGES) return;
    const path = sitePath(value);
    if (path === undefined || seen.has(path)) return;
    seen.add(path);
    pages.push(path === '/' ? 'index' : path.slice(1));
  };
  const walk = (node: unknown, depth: number): void => {
    if (depth > MAX_NAVIGATION_DEPTH || pages.length >= MAX_NAVIGATION_PAGES || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'root') add(value);
      else if (key === 'pages' && Array.isArray(value))
        for (const item of value) {
          if (typeof item === 'string') add(item);
          else walk(item, depth + 1);
        }
      else walk(value, depth + 1);
    }
  };
  walk(json.navigation, 0);
  return pages;
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** Where a page's file is: a workspace folder (as a URI string) and the path in it. */
export interface SiteFile {
  folder: string;
  /** Relative to the folder, `/`-separated. */
  path: string;
}

/** One docs site in the workspace: the folder, where its docs.json is in it, and its page files that exist. */
export interface DocsSite {
  /** The workspace folder, as vscode.Uri.toString() writes it. */
  folder: string;
  /** The docs.json's folder relative to the workspace folder, `/`-separated: `''` at the root, `docs`. */
  base: string;
  /** The `.mdx`/`.md` files that exist, relative to `base`: `quickstart.mdx`, `api/auth.md`. */
  files: ReadonlySet<string>;
}

/** Page paths to files, over every docs site of the workspace: the first site with the file wins. */
export class DocsSiteMap {
  private readonly known = new Map<string, SiteFile | null>();

  constructor(private readonly sites: readonly DocsSite[]) {}

  get size(): number {
    return this.sites.length;
  }

  /** The file of the page (a path or a URL on the site), or undefined when none exists or the path is odd. */
  fileFor(page: string): SiteFile | undefined {
    const cached = this.known.get(page);
    if (cached !== undefined) return cached ?? undefined;
    const found = this.find(page);
    // Bounded: the service names at most a few thousand pages per read, and the map is rebuilt when the sites change.
    if (this.known.size < 50_000) this.known.set(page, found ?? null);
    return found;
  }

  private find(page: string): SiteFile | undefined {
    const candidates = pageCandidates(page);
    for (const site of this.sites)
      for (const file of candidates) if (site.files.has(file)) return { folder: site.folder, path: site.base ? `${site.base}/${file}` : file };
    return undefined;
  }
}

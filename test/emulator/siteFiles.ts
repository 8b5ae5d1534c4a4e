import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

// A docs site on disk, laid out as notes.md "Docs repository layout" says: a docs.json at the root
// whose navigation names pages by path without extension, each a .mdx or .md file at that path.
// The assistant answers from these pages and the emulator's docs repository is made of these files,
// so both read the site the same way. A folder without docs.json (a test's own pages) is read as
// every .md/.mdx file in it.

export interface SiteFile {
  /** Relative to the site's root, with `/`. */
  path: string;
  text: string;
}

export interface SitePage {
  /** The page path as the navigation names it: `webhooks`, `api/auth`. */
  slug: string;
  /** Its file: `webhooks.md`, `api/auth.mdx`. */
  file: string;
}

export interface Site {
  files: SiteFile[];
  /** In the navigation's order (file name order without docs.json). */
  pages: SitePage[];
}

/** The docs site the emulator serves and its repository starts with. */
export const DEFAULT_SITE_DIR = join(__dirname, '..', 'fixtures', 'docs-site');

/** `a/b-c.md`: segments that start with a letter or digit, so never `..`, an option or an absolute path. */
const SAFE_PATH = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function isSafePath(path: string): boolean {
  return path.length <= 300 && SAFE_PATH.test(path);
}

/** Every string in any `pages` array of the navigation, at any depth (groups, tabs, anchors…). */
export function navigationPages(config: unknown): string[] {
  const found: string[] = [];
  const walk = (node: unknown, inPages: boolean): void => {
    if (typeof node === 'string') {
      if (inPages) found.push(node);
    } else if (Array.isArray(node)) {
      for (const item of node) walk(item, inPages);
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) walk(value, key === 'pages');
    }
  };
  walk((config as { navigation?: unknown } | null)?.navigation, false);
  return [...new Set(found)];
}

function listFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.')) return [];
    const full = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(root, full) : [relative(root, full).split(sep).join('/')];
  });
}

export function readSite(dir: string): Site {
  const files = listFiles(dir)
    .sort()
    .map((path) => ({ path, text: readFileSync(join(dir, path), 'utf8') }));
  const config = join(dir, 'docs.json');
  if (!existsSync(config)) {
    const pages = files.filter((f) => /\.mdx?$/i.test(f.path)).map((f) => ({ slug: f.path.replace(/\.mdx?$/i, ''), file: f.path }));
    return { files, pages };
  }
  const known = new Set(files.map((f) => f.path));
  const pages = navigationPages(JSON.parse(readFileSync(config, 'utf8'))).map((slug) => {
    if (!isSafePath(slug)) throw new Error(`docs.json names a page path that is not one: ${JSON.stringify(slug)}`);
    const file = [`${slug}.mdx`, `${slug}.md`].find((f) => known.has(f));
    if (!file) throw new Error(`docs.json names "${slug}", but there is no ${slug}.mdx or ${slug}.md in ${dir}`);
    return { slug, file };
  });
  return { files, pages };
}

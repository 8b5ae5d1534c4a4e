import * as vscode from 'vscode';
import { Emitter } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { navigationPages, pageCandidates, type DocsSite, type SiteFile } from '../core/docsSiteMap';

// Where the docs sites of this workspace are: each `docs.json` (or, for older sites, `mint.json`)
// near the top of a workspace folder, and the `.md`/`.mdx` files its navigation names that exist.
// The pure part, reading the navigation and mapping a page to one of these files, is the core's
// (src/host/core/docsSiteMap.ts); this is only the finding and reading, bounded, through
// vscode.workspace.fs and findFiles (so it works in the browser's extension host too), and
// watching. A workspace is untrusted: a config past MAX_CONFIG_BYTES is not read, nor one deep
// in a tree, nor anything under node_modules.

/** The most bytes of a docs.json read; a real one is a few KB. */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** How deep below a workspace folder a docs.json is looked for (`docs/docs.json` is 1). */
const MAX_CONFIG_DEPTH = 3;
/** The most configs, and the most page files, looked at. */
const MAX_CONFIGS = 20;
const MAX_PAGE_FILES = 5000;
/** Changes on disk come in bursts (a checkout); one rescan after they settle. */
const RESCAN_DELAY_MS = 500;

const CONFIG_GLOB = '**/{docs.json,mint.json}';
const EXCLUDE_GLOB = '**/{node_modules,.git}/**';

export class DocsSiteFiles extends Disposable {
  private current: readonly DocsSite[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private scanning: Promise<void> | undefined;
  private readonly changed = this._register(new Emitter<void>());
  /** The sites were read again. */
  readonly onDidChange = this.changed.event;

  constructor() {
    super();
    const watcher = this._register(vscode.workspace.createFileSystemWatcher('**/{docs.json,mint.json,*.md,*.mdx}'));
    const later = () => this.rescanLater();
    this._register(watcher.onDidCreate(later));
    this._register(watcher.onDidDelete(later));
    // A page's text changing changes no mapping; only the config's does.
    this._register(watcher.onDidChange((uri) => /\/(docs|mint)\.json$/.test(uri.path) && later()));
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(later));
    this._register({ dispose: () => clearTimeout(this.timer) });
  }

  /** The sites as last read (none before the first scan() is done). */
  get sites(): readonly DocsSite[] {
    return this.current;
  }

  /** Reads the sites (once at a time); resolves when they are read. */
  scan(): Promise<void> {
    this.scanning ??= this.read().finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  private rescanLater(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.scan(), RESCAN_DELAY_MS);
  }

  private async read(): Promise<void> {
    const sites: DocsSite[] = [];
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const configs = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, CONFIG_GLOB), EXCLUDE_GLOB, MAX_CONFIGS);
      const base = folder.uri.path.replace(/\/?$/, '/');
      // The nearest first: a site at the root wins over an example deeper in.
      const near = configs
        .map((uri) => ({ uri, rel: uri.path.slice(base.length) }))
        .filter((c) => c.rel.split('/').length <= MAX_CONFIG_DEPTH + 1)
        .sort((a, b) => a.rel.split('/').length - b.rel.split('/').length || a.rel.localeCompare(b.rel));
      const roots = new Set<string>();
      for (const { uri, rel } of near) {
        const root = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : '';
        // docs.json and mint.json side by side: docs.json (the newer) is sorted first.
        if (roots.has(root)) continue;
        const config = await readBounded(uri);
        const pages = config === undefined ? undefined : navigationPages(config);
        if (!pages) continue;
        roots.add(root);
        const exist = await pageFiles(folder, root);
        const named = new Set(pages.flatMap((page) => pageCandidates(page).filter((f) => exist.has(f))));
        sites.push({ folder: folder.uri.toString(), base: root, files: named });
      }
    }
    this.current = sites;
    this.changed.fire();
  }
}

/** The file's text, or undefined when it is too big or cannot be read. */
async function readBounded(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > MAX_CONFIG_BYTES) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    return bytes.byteLength > MAX_CONFIG_BYTES ? undefined : new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

/** The `.md`/`.mdx` files under `root`, relative to it. */
async function pageFiles(folder: vscode.WorkspaceFolder, root: string): Promise<Set<string>> {
  const pattern = new vscode.RelativePattern(root ? vscode.Uri.joinPath(folder.uri, root) : folder.uri, '**/*.{md,mdx}');
  const found = await vscode.workspace.findFiles(pattern, EXCLUDE_GLOB, MAX_PAGE_FILES);
  const base = `${folder.uri.path.replace(/\/?$/, '/')}${root ? `${root}/` : ''}`;
  return new Set(found.filter((u) => u.path.startsWith(base)).map((u) => u.path.slice(base.length)));
}

/**
 * The workspace file of a page's site file (Docs Health's pages, Docs to Update's), or undefined
 * when its folder is not one of this workspace's or its path could leave it.
 */
export function siteFileUri(file: SiteFile): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === file.folder);
  const segments = file.path.split('/');
  if (!folder || file.path.length > 2048 || segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) return undefined;
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

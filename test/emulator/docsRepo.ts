import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { git } from './git';
import { DEFAULT_SITE_DIR, isSafePath, readSite, type SitePage } from './siteFiles';

export { cloneDocsWorkspace } from './docsClone';

// The docs site as the bare Git repository the service's agent works on: main holds the site, and
// each agent job commits on its own branch (agentWork.ts). Everything is written with git's own
// plumbing (fast-import, update-ref), so no working tree is ever needed, and every name that
// reaches git is checked first: a branch or path from a request can never become an option.

/** What a job's `source.repository` says; a workspace clone reaches the bare repository by `insteadOf`. */
export const DOCS_REPOSITORY = 'https://github.com/acme/acme-docs';
export const DEFAULT_BRANCH = 'main';
/** main's one commit has fixed dates, so it is the same commit at every start and a clone made before still fits. */
const SITE_COMMIT_TIME = 1767225600;
const SITE_AUTHOR = 'Acme Docs Team <docs@acme-relay.dev>';
const AGENT_AUTHOR = 'Docs Agent <docs-agent@acme-relay.dev>';

export interface FileChange {
  /** Relative to the repository's root, with `/`. */
  path: string;
  text: string;
}

export interface DocsRepo {
  /** The bare repository on disk. */
  readonly bareDir: string;
  readonly repository: string;
  readonly defaultBranch: string;
  /** The pages docs.json names on main, in its navigation's order. */
  readonly pages: readonly SitePage[];
  /** A file as a branch has it; undefined for a branch or file that is not there, or a name that is not one. */
  readFile(branch: string, path: string): Promise<string | undefined>;
  /** The commit a branch points at; undefined when there is no such branch. */
  head(branch: string): Promise<string | undefined>;
  /** A new branch at main's commit; refuses a name git would not take, or one that exists. */
  createBranch(branch: string): Promise<void>;
  /** One commit on a branch (made from main when missing) that writes the files; its id. */
  commit(branch: string, message: string, changes: readonly FileChange[]): Promise<string>;
}

/** A branch name git takes (git check-ref-format's rules, narrowed to what the emulator makes). */
export function isBranchName(name: string): boolean {
  return isSafePath(name) && name.length <= 200 && !/\.\.|\.lock(?:\/|$)|[./]$/.test(name);
}

const fastImportData = (text: string): string => `data ${Buffer.byteLength(text, 'utf8')}\n${text}\n`;

/** The bare repository `acme-docs.git` in `dir` (made if missing), main holding the site at `siteDir`. */
export async function createDocsRepository(dir: string, siteDir: string = DEFAULT_SITE_DIR): Promise<DocsRepo> {
  const site = readSite(siteDir);
  const bareDir = join(dir, 'acme-docs.git');
  await mkdir(dir, { recursive: true });
  await git(dir, ['init', '--quiet', '--bare', `--initial-branch=${DEFAULT_BRANCH}`, bareDir]);
  const repo = new BareDocsRepo(bareDir, site.pages);
  await repo.fastImport(DEFAULT_BRANCH, undefined, 'The Acme Relay docs site', site.files, { who: SITE_AUTHOR, at: SITE_COMMIT_TIME });
  return repo;
}

class BareDocsRepo implements DocsRepo {
  readonly repository = DOCS_REPOSITORY;
  readonly defaultBranch = DEFAULT_BRANCH;
  /** Writes go one at a time: two commits racing for one branch would lose one. */
  private writes: Promise<unknown> = Promise.resolve();

  constructor(
    readonly bareDir: string,
    readonly pages: readonly SitePage[],
  ) {}

  async readFile(branch: string, path: string): Promise<string | undefined> {
    if (!isBranchName(branch) || !isSafePath(path)) return undefined;
    return git(this.bareDir, ['cat-file', 'blob', `refs/heads/${branch}:${path}`]).catch(() => undefined);
  }

  async head(branch: string): Promise<string | undefined> {
    if (!isBranchName(branch)) return undefined;
    const out = await git(this.bareDir, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]).catch(() => '');
    return out.trim() || undefined;
  }

  createBranch(branch: string): Promise<void> {
    return this.serially(async () => {
      if (!isBranchName(branch)) throw new Error(`Not a branch name: ${JSON.stringify(branch)}`);
      const base = await this.head(DEFAULT_BRANCH);
      // The empty old value makes git refuse a branch that exists already.
      await git(this.bareDir, ['update-ref', `refs/heads/${branch}`, base!, '']);
    });
  }

  commit(branch: string, message: string, changes: readonly FileChange[]): Promise<string> {
    return this.serially(async () => {
      if (!isBranchName(branch)) throw new Error(`Not a branch name: ${JSON.stringify(branch)}`);
      const bad = changes.find((c) => !isSafePath(c.path));
      if (bad) throw new Error(`Not a file path: ${JSON.stringify(bad.path)}`);
      const parent = (await this.head(branch)) ?? (await this.head(DEFAULT_BRANCH));
      await this.fastImport(branch, parent, message, changes, { who: AGENT_AUTHOR, at: Math.floor(Date.now() / 1000) });
      return (await this.head(branch))!;
    });
  }

  /** One commit through `git fast-import`: a single process however many files it writes. */
  async fastImport(branch: string, parent: string | undefined, message: string, files: readonly FileChange[], by: { who: string; at: number }): Promise<void> {
    // Every `data` block ends in its own newline: a blank line would end the commit early.
    const stream =
      `commit refs/heads/${branch}\nauthor ${by.who} ${by.at} +0000\ncommitter ${by.who} ${by.at} +0000\n${fastImportData(message)}` +
      (parent ? `from ${parent}\n` : '') +
      files.map((f) => `M 100644 inline ${f.path}\n${fastImportData(f.text)}`).join('') +
      'done\n';
    await git(this.bareDir, ['fast-import', '--quiet', '--done', '--date-format=raw'], stream);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.writes.then(work, work);
    this.writes = next.catch(() => undefined);
    return next;
  }
}

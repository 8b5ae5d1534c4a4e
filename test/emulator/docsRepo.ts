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
  /**
   * The same commit, made on top of `parent` (default: the branch) without moving the branch: the
   * agent makes its commit while the job runs, and only moves the branch at the job's outcome.
   */
  makeCommit(branch: string, message: string, changes: readonly FileChange[], parent?: string): Promise<string>;
  /** Points a branch at a commit (one `git update-ref`, quick enough for the request that settles a job). */
  moveBranch(branch: string, commit: string): Promise<void>;
  /** A file as a commit has it; undefined when it is not there, or for an id or path that is not one. */
  readFileAt(commit: string, path: string): Promise<string | undefined>;
  /** Refuses writes from now on and waits for the one under way, so the folder can be removed. */
  close(): Promise<void>;
}

/** A branch name git takes (git check-ref-format's rules, narrowed to what the emulator makes). */
export function isBranchName(name: string): boolean {
  return isSafePath(name) && name.length <= 200 && !/\.\.|\.lock(?:\/|$)|[./]$/.test(name);
}

const COMMIT_ID = /^[0-9a-f]{40}$/;

const fastImportData = (text: string): string => `data ${Buffer.byteLength(text, 'utf8')}\n${text}\n`;

/** The bare repository `acme-docs.git` in `dir` (made if missing), main holding the site at `siteDir`. */
export async function createDocsRepository(dir: string, siteDir: string = DEFAULT_SITE_DIR): Promise<DocsRepo> {
  const site = readSite(siteDir);
  const bareDir = join(dir, 'acme-docs.git');
  await mkdir(dir, { recursive: true });
  await git(dir, ['init', '--quiet', '--bare', `--initial-branch=${DEFAULT_BRANCH}`, bareDir]);
  const repo = new BareDocsRepo(bareDir, site.pages);
  await repo.fastImport(`refs/heads/${DEFAULT_BRANCH}`, undefined, 'The Acme Relay docs site', site.files, { who: SITE_AUTHOR, at: SITE_COMMIT_TIME });
  return repo;
}

class BareDocsRepo implements DocsRepo {
  readonly repository = DOCS_REPOSITORY;
  readonly defaultBranch = DEFAULT_BRANCH;
  /** Writes go one at a time: two commits racing for one branch would lose one. */
  private writes: Promise<unknown> = Promise.resolve();
  private closed = false;

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

  makeCommit(branch: string, message: string, changes: readonly FileChange[], parent?: string): Promise<string> {
    return this.serially(async () => {
      if (!isBranchName(branch)) throw new Error(`Not a branch name: ${JSON.stringify(branch)}`);
      if (parent !== undefined && !COMMIT_ID.test(parent)) throw new Error(`Not a commit id: ${JSON.stringify(parent)}`);
      const bad = changes.find((c) => !isSafePath(c.path));
      if (bad) throw new Error(`Not a file path: ${JSON.stringify(bad.path)}`);
      const base = parent ?? (await this.head(branch)) ?? (await this.head(DEFAULT_BRANCH));
      // Made on a ref of the emulator's own, outside refs/heads (a clone never fetches it), so the branch does not move yet.
      const made = `refs/emulator/made/${branch}`;
      await this.fastImport(made, base, message, changes, { who: AGENT_AUTHOR, at: Math.floor(Date.now() / 1000) });
      return (await git(this.bareDir, ['rev-parse', '--verify', `${made}^{commit}`])).trim();
    });
  }

  async moveBranch(branch: string, commit: string): Promise<void> {
    if (!isBranchName(branch)) throw new Error(`Not a branch name: ${JSON.stringify(branch)}`);
    if (!COMMIT_ID.test(commit)) throw new Error(`Not a commit id: ${JSON.stringify(commit)}`);
    await git(this.bareDir, ['update-ref', `refs/heads/${branch}`, commit]);
  }

  async commit(branch: string, message: string, changes: readonly FileChange[]): Promise<string> {
    const made = await this.makeCommit(branch, message, changes);
    await this.moveBranch(branch, made);
    return made;
  }

  async readFileAt(commit: string, path: string): Promise<string | undefined> {
    if (!COMMIT_ID.test(commit) || !isSafePath(path)) return undefined;
    return git(this.bareDir, ['cat-file', 'blob', `${commit}:${path}`]).catch(() => undefined);
  }

  /** One commit through `git fast-import`: a single process however many files it writes. */
  async fastImport(ref: string, parent: string | undefined, message: string, files: readonly FileChange[], by: { who: string; at: number }): Promise<void> {
    // Every `data` block ends in its own newline: a blank line would end the commit early.
    const stream =
      `commit ${ref}\nauthor ${by.who} ${by.at} +0000\ncommitter ${by.who} ${by.at} +0000\n${fastImportData(message)}` +
      (parent ? `from ${parent}\n` : '') +
      files.map((f) => `M 100644 inline ${f.path}\n${fastImportData(f.text)}`).join('') +
      'done\n';
    // --force: a commit made again for the same branch (a follow-up) replaces the one before on the scratch ref.
    await git(this.bareDir, ['fast-import', '--quiet', '--force', '--done', '--date-format=raw'], stream);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.writes;
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    // A commit still queued when the emulator closes is dropped: nobody can read it any more.
    const run = (): Promise<T> => (this.closed ? Promise.reject(new Error('The docs repository is closed.')) : work());
    const next = this.writes.then(run, run);
    this.writes = next.catch(() => undefined);
    return next;
  }
}

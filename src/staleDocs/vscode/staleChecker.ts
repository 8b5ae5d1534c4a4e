import * as vscode from 'vscode';
import { abortedError, ServiceError } from '../../api';
import { Emitter } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import { loadGitApi, type GitApi, type GitRepository } from '../../host/vscode/gitApi';
import type { Log } from '../../host/vscode/log';
import type { DocsSearcher, Extraction, StaleCheck } from '../core/staleDocs';
import { chooseTarget, type ChangeTarget } from './changeSource';
import { NoBaseError, readPatch } from './patchReader';
import type { ReadPage } from '../core/staleSearch';

// Check Docs for My Changes, from the click to the result: which change (changeSource.ts), its
// patch through the Git extension (patchReader.ts), the extractor (core), the search (core, paced
// and bounded there), all inside one cancellable withProgress. The result (or why there is none)
// is kept here for the tree and the view's words; a new check clears it as it starts (the view
// never shows an old result's pages under a running check), and one still running is stopped first.
// A check the service stopped part-way keeps the pages it found and says why (core's `failed`).

/** What a check uses of the cores and the service; the feature's index binds them. */
export interface CheckParts {
  extract(patch: string): Extraction;
  /** The session's searcher (the search endpoint, or the assistant when it is not offered), or what is not set up. */
  searcher(): Promise<DocsSearcher | ServiceError>;
  /** A page's full text: the workspace file, else the page endpoint when offered. */
  readPage: ReadPage;
  find(
    items: Extraction['items'],
    searcher: DocsSearcher,
    opts: {
      signal: AbortSignal;
      readPage: ReadPage;
      progress: (done: number, total: number) => void;
      pageProgress: (done: number, total: number) => void;
    },
  ): Promise<StaleCheck>;
}

/** What the view shows: nothing yet, a check running, why there is nothing, or the result. */
export type CheckState = 'idle' | 'running' | 'noGit' | 'noRepository' | 'noChange' | 'noItems' | 'noBase' | 'notConfigured' | 'error' | 'empty' | 'ready';

export interface CheckResult {
  check: StaleCheck;
  extraction: Extraction;
  repository: GitRepository;
  target: ChangeTarget;
  /** The patch was larger than was read. */
  patchCut: boolean;
  /** What the change is, for the draft's title and label: the repository and the scope. */
  title: string;
}

export class StaleChecker extends Disposable {
  private running: AbortController | undefined;
  private current: CheckResult | undefined;
  private stateNow: CheckState = 'idle';
  private readonly changed = this._register(new Emitter<void>());
  /** The state or the result changed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly parts: CheckParts,
    private readonly log: Log,
    private readonly git: () => Promise<GitApi | undefined> = loadGitApi,
  ) {
    super();
    this._register({ dispose: () => this.running?.abort() });
  }

  get state(): CheckState {
    return this.stateNow;
  }

  get result(): CheckResult | undefined {
    return this.current;
  }

  /** Runs a check on what the argument names (a Source Control menu's), or on what the user picks. Throws a ServiceError the guard shows. */
  async check(arg?: unknown): Promise<void> {
    const api = await this.git();
    if (!api) return this.finish('noGit');
    if (api.repositories.length === 0) return this.finish('noRepository');
    const target = await chooseTarget(api, arg);
    if (!target) return;
    // The service first: nothing is read from Git when there is nowhere to search.
    const searcher = await this.parts.searcher();
    if (searcher instanceof ServiceError) {
      // A check already running keeps its state and will set its own result; the guard still says why.
      if (!this.running) this.finish('notConfigured');
      throw searcher;
    }
    this.running?.abort();
    const stop = new AbortController();
    this.running = stop;
    this.current = undefined;
    this.set('running');
    try {
      await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Checking the docs for your changes'), cancellable: true },
        async (progress, token) => {
          token.onCancellationRequested(() => stop.abort());
          await this.run(target, searcher, stop.signal, progress);
        },
      );
    } catch (e) {
      if (this.running === stop) this.finish(e instanceof NoBaseError ? 'noBase' : stop.signal.aborted ? this.resultState() : 'error');
      if (e instanceof NoBaseError) return;
      throw e;
    } finally {
      if (this.running === stop) this.running = undefined;
    }
  }

  private async run(
    target: ChangeTarget,
    searcher: DocsSearcher,
    signal: AbortSignal,
    progress: vscode.Progress<{ message?: string; increment?: number }>,
  ): Promise<void> {
    const started = Date.now();
    progress.report({ message: vscode.l10n.t('Reading the change…') });
    const patch = await readPatch(target, signal);
    if (signal.aborted) throw abortedError();
    if (!patch.text.trim()) return this.finish('noChange');
    const extraction = this.parts.extract(patch.text);
    if (extraction.items.length === 0) {
      this.log.info(`Check Docs for My Changes: ${extraction.files} files changed, nothing the docs could describe.`);
      return this.finish('noItems');
    }
    let reported = 0;
    const check = await this.parts.find(extraction.items, searcher, {
      signal,
      readPage: this.parts.readPage,
      progress: (done, total) => {
        const increment = total > 0 ? ((done - reported) / total) * 100 : 0;
        reported = done;
        progress.report({ message: vscode.l10n.t('Searching the docs ({0} of {1})…', done, total), increment });
      },
      pageProgress: (done, total) => progress.report({ message: vscode.l10n.t('Reading page {0} of {1}…', done, total) }),
    });
    if (signal.aborted) throw abortedError();
    if (check.failed) this.log.warn(`Check Docs for My Changes: the search stopped at search ${check.requests}: ${check.failed.message}`);
    // Nothing found before the service failed: that is the error, not "nothing stale".
    if (check.failed && check.pages.length === 0) throw check.failed;
    const title = titleOf(target);
    this.current = { check, extraction, repository: target.repository, target, patchCut: patch.cut, title };
    this.log.info(
      `Check Docs for My Changes: ${extraction.items.length} changes, ${check.requests} searches via ${check.via}${check.cut ? ' (cut)' : ''}, ` +
        `${check.pageReads ?? 0} page reads, ${check.pages.length} stale pages, ${Date.now() - started} ms.`,
    );
    this.finish(this.resultState());
  }

  private resultState(): CheckState {
    return !this.current ? 'idle' : this.current.check.pages.length > 0 ? 'ready' : 'empty';
  }

  private finish(state: CheckState): void {
    // A finished check's outcome replaces the last result; only a result keeps its pages.
    if (state !== 'ready' && state !== 'empty') this.current = undefined;
    this.set(state);
  }

  private set(state: CheckState): void {
    this.stateNow = state;
    this.changed.fire();
  }
}

/** `relay (staged and unstaged changes)`, `relay/cli.ts`, `relay (this branch)`. */
function titleOf(target: ChangeTarget): string {
  const repo = target.repository.rootUri.path.split('/').filter(Boolean).pop() ?? '';
  if (target.file) return `${repo}/${target.file}`;
  return target.scope === 'local' ? vscode.l10n.t('{0} (staged and unstaged changes)', repo) : vscode.l10n.t('{0} (this branch)', repo);
}

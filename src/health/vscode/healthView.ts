import * as vscode from 'vscode';
import { FEEDBACK_STATUSES, type FeedbackStatus } from '../../api';
import { Disposable } from '../../common/lifecycle';
import { describeForUser } from '../../host/core/errorWords';
import type { Log } from '../../host/vscode/log';
import type { ReaderSignals, SignalKind } from '../core/readerSignals';
import { HealthTreeProvider, type HealthElement } from './healthTree';
import type { PageJobsView } from './healthItems';

// The Docs Health view: its tree, when it fetches, and what it says when there is nothing to
// show. It fetches only while it is visible: once when it shows, then at most every 10 minutes
// (the store's cache decides; Refresh forces one), and a fetch still running when it is hidden
// is stopped. Progress shows on the view itself. Why it is empty is said by the view's welcome
// (package.json viewsWelcome, keyed on `docsAssistant.healthState`); a read the service does not
// offer is said once, quietly, in the view's message, and the rest shows.

export const HEALTH_VIEW_ID = 'docsAssistant.healthView';
/** While the view is visible, a refresh this often; the store fetches only once its snapshot is this old. */
export const REFRESH_EVERY_MS = 10 * 60 * 1000;

/** What the view's welcome keys on. */
export type HealthState = 'idle' | 'loading' | 'error' | 'notOffered' | 'empty' | 'ready';

export class HealthView extends Disposable {
  readonly tree: HealthTreeProvider;
  readonly view: vscode.TreeView<HealthElement>;
  private timer: ReturnType<typeof setInterval> | undefined;
  private shown: AbortController | undefined;
  private saidNotOffered = '';
  private loggedAt: string | undefined;

  constructor(
    private readonly signals: ReaderSignals,
    jobs: PageJobsView & { readonly onDidChange: vscode.Event<void> },
    private readonly log: Log,
  ) {
    super();
    this.tree = this._register(new HealthTreeProvider(signals, jobs));
    this.view = this._register(vscode.window.createTreeView(HEALTH_VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true }));
    this._register(this.view.onDidChangeVisibility((e) => (e.visible ? this.start() : this.stop())));
    // A view already on screen when the extension starts may never say it became visible: its first draw does.
    this._register(this.tree.onDidAskForRoot(() => this.timer === undefined && this.start()));
    this._register(signals.onDidChange(() => this.logOutcome()));
    this._register(
      signals.onDidChange(() => {
        this.tree.refresh();
        this.update();
      }),
    );
    this._register(jobs.onDidChange(() => this.tree.refresh()));
    this._register({ dispose: () => this.stop() });
    this.update();
    if (this.view.visible) this.start();
  }

  /** Fetches now if the view is visible (or `force`, when the user asked), with progress on the view. */
  async fetch(force = false): Promise<void> {
    if (!force && !this.view.visible && this.timer === undefined) return;
    // One signal per time the view is shown: hiding it stops what runs. A second fetch while one
    // runs joins it (the store runs one per project and filter), so it must not abort the first.
    this.shown ??= new AbortController();
    const signal = this.shown.signal;
    await vscode.window.withProgress({ location: { viewId: HEALTH_VIEW_ID } }, () => this.signals.refresh({ force, signal }));
  }

  private start(): void {
    this.log.info('Docs Health is visible: reading reader signals (at most every 10 minutes).');
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.fetch(), REFRESH_EVERY_MS);
    void this.fetch();
  }

  /** Hidden: nothing is fetched, and a fetch under way stops. */
  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.shown?.abort();
    this.shown = undefined;
  }

  /** What a fetch found, in the log: counts and the error's terse line (never a key: the log redacts them, and errors carry none). */
  private logOutcome(): void {
    const { snapshot, busy, lastError } = this.signals;
    if (busy) return;
    if (lastError) this.log.warn(`Docs Health could not read reader signals: ${lastError.message}`);
    else if (snapshot && snapshot.fetchedAt !== this.loggedAt)
      this.log.info(
        `Docs Health read ${snapshot.pages.length} pages, ${snapshot.unanswered.length} unanswered questions, ${snapshot.searches.length} searches.`,
      );
    this.loggedAt = snapshot?.fetchedAt;
  }

  private update(): void {
    const { snapshot, lastError, busy, filter } = this.signals;
    const state = healthState(this.signals);
    void vscode.commands.executeCommand('setContext', 'docsAssistant.healthState', state);
    this.view.description = vscode.l10n.t('Last {0} days · {1}', filter.days, statusList(filter.statuses));
    const notOffered = snapshot?.notOffered ?? [];
    // Not configured: the view's welcome says what to set, with its button.
    if (lastError && !busy && lastError.reason.code !== 'notConfigured') {
      this.view.message = vscode.l10n.t('Could not read what readers said: {0}', describeForUser(lastError, vscode.l10n.t).message);
    } else if (notOffered.length > 0 && state !== 'notOffered') {
      this.view.message = vscode.l10n.t('Not offered by this service or plan, so not shown: {0}.', notOffered.map(kindWords).join(', '));
    } else {
      this.view.message = undefined;
    }
    // Said once in the log too, per set of reads not offered: the view's message is the note.
    const said = notOffered.join(',');
    if (said && said !== this.saidNotOffered) this.log.info(`Reader analytics not offered here: ${said}`);
    this.saidNotOffered = said;
  }
}

export function healthState(s: Pick<ReaderSignals, 'snapshot' | 'busy' | 'lastError'>): HealthState {
  const snap = s.snapshot;
  if (!snap) return s.busy ? 'loading' : s.lastError ? 'error' : 'idle';
  if (snap.notOffered.length === 3) return 'notOffered';
  return snap.pages.length + snap.unanswered.length + snap.clarifying.length + snap.searches.length === 0 ? 'empty' : 'ready';
}

/** A feedback status as the filter names it, in FEEDBACK_STATUSES' order. */
export function statusName(s: FeedbackStatus): string {
  const names = [vscode.l10n.t('Pending'), vscode.l10n.t('In progress'), vscode.l10n.t('Resolved'), vscode.l10n.t('Dismissed')];
  return names[FEEDBACK_STATUSES.indexOf(s)] ?? s;
}

function statusList(statuses: readonly FeedbackStatus[]): string {
  return FEEDBACK_STATUSES.filter((s) => statuses.includes(s))
    .map(statusName)
    .join(', ');
}

function kindWords(k: SignalKind): string {
  return k === 'feedback' ? vscode.l10n.t('feedback') : k === 'assistant' ? vscode.l10n.t('assistant questions') : vscode.l10n.t('searches');
}

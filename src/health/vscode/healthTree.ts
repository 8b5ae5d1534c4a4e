import * as vscode from 'vscode';
import type { AssistantConversationRecord, FeedbackEntry, SearchRecord } from '../../api';
import { Emitter } from '../../common/event';
import type { HealthSnapshot, PageSignals, ReaderSignals } from '../core/readerSignals';
import { groupItem, pageItem, questionItem, entryItem, searchItem, jobItem, type GroupId, type PageJobsView } from './healthItems';

// The Docs Health tree: the snapshot the store holds (src/health/core), never fetched from here.
// Four groups: pages ranked by what needs attention (each with its comments, code-snippet
// feedback, unanswered questions and the jobs started from it), every unanswered question, the
// clarifying turns, and searches with low click-through. A group the service does not offer is
// left out. Elements are made once per snapshot and kept, so reveal() finds a page again, and
// the commands trust only elements this tree made (anyone can run a command with any argument).

export type HealthElement =
  | { kind: 'group'; group: GroupId }
  | { kind: 'page'; signals: PageSignals }
  | { kind: 'entry'; entry: FeedbackEntry; snippet: boolean; parent: HealthElement }
  | { kind: 'question'; record: AssistantConversationRecord; parent: HealthElement }
  | { kind: 'search'; record: SearchRecord; parent: HealthElement }
  | { kind: 'job'; jobId: string; parent: HealthElement };

export class HealthTreeProvider implements vscode.TreeDataProvider<HealthElement>, vscode.Disposable {
  private readonly changed = new Emitter<HealthElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly rootAsked = new Emitter<void>();
  /** VS Code asked for the top rows: the view is being drawn, so it is visible (its `visible` may not say so yet). */
  readonly onDidAskForRoot = this.rootAsked.event;
  private readonly groups = new Map<GroupId, HealthElement>();
  private pages = new Map<string, HealthElement>();
  /** Every element handed out for the snapshot on screen: the only ones a command acts on. */
  private made = new WeakSet<HealthElement>();
  private shown: HealthSnapshot | undefined;

  constructor(
    private readonly signals: ReaderSignals,
    private readonly jobs: PageJobsView,
  ) {
    for (const group of ['pages', 'unanswered', 'clarifying', 'searches'] as const) this.groups.set(group, this.keep({ kind: 'group', group }));
  }

  /** Draws the tree again (a new snapshot, or a job's news); a new snapshot gets new elements. */
  refresh(): void {
    this.changed.fire(undefined);
  }

  /** The element for `page` in the snapshot on screen, as reveal() wants it. */
  pageElement(page: string): HealthElement | undefined {
    this.sync();
    return this.pages.get(page);
  }

  /** Whether `e` is an element this tree made for the snapshot on screen. */
  owns(e: unknown): e is HealthElement {
    return typeof e === 'object' && e !== null && this.made.has(e as HealthElement);
  }

  /** The page an element is about: itself, or the page it sits under. */
  pageOf(e: HealthElement): PageSignals | undefined {
    for (let at: HealthElement | undefined = e; at; at = this.getParent(at)) if (at.kind === 'page') return at.signals;
    return undefined;
  }

  /** The page a question is under, or whose unanswered questions hold it (one picked from the Unanswered group). */
  pageAsking(record: AssistantConversationRecord): PageSignals | undefined {
    return this.shown?.pages.find((p) => p.unanswered.some((r) => r === record || r.id === record.id));
  }

  getChildren(element?: HealthElement): HealthElement[] {
    if (!element) this.rootAsked.fire();
    const snapshot = this.sync();
    if (!snapshot) return [];
    if (!element) return this.topLevel(snapshot);
    return this.childrenOf(element, snapshot).map((c) => this.keep(c));
  }

  getParent(element: HealthElement): HealthElement | undefined {
    if (element.kind === 'group') return undefined;
    if (element.kind === 'page') return this.groups.get('pages');
    return element.parent;
  }

  getTreeItem(element: HealthElement): vscode.TreeItem {
    const snapshot = this.shown;
    switch (element.kind) {
      case 'group':
        return groupItem(element.group, snapshot);
      case 'page':
        return pageItem(element.signals, this.jobs);
      case 'entry':
        return entryItem(element.entry, element.snippet, this.pageOf(element)?.page ?? '');
      case 'question': {
        const clarifying = element.parent.kind === 'group' && element.parent.group === 'clarifying';
        return questionItem(element.record, clarifying, this.pageAsking(element.record) !== undefined);
      }
      case 'search':
        return searchItem(element.record);
      case 'job':
        return jobItem(element.jobId, this.jobs);
    }
  }

  dispose(): void {
    this.changed.dispose();
    this.rootAsked.dispose();
  }

  /** Forgets the elements of an older snapshot. */
  private sync(): HealthSnapshot | undefined {
    const snapshot = this.signals.snapshot;
    if (snapshot !== this.shown) {
      this.shown = snapshot;
      this.pages = new Map();
      this.made = new WeakSet([...this.groups.values()]);
      for (const signals of snapshot?.pages ?? []) this.pages.set(signals.page, this.keep({ kind: 'page', signals }));
    }
    return snapshot;
  }

  private topLevel(s: HealthSnapshot): HealthElement[] {
    const out: GroupId[] = [];
    if (!s.notOffered.includes('feedback') || s.pages.length > 0) out.push('pages');
    if (!s.notOffered.includes('assistant')) out.push('unanswered', 'clarifying');
    if (!s.notOffered.includes('searches')) out.push('searches');
    // Nothing to show at all: the view's welcome says why (not offered, or no signals).
    if (s.pages.length + s.unanswered.length + s.clarifying.length + s.searches.length === 0) return [];
    return out.map((g) => this.groups.get(g)!);
  }

  private childrenOf(e: HealthElement, s: HealthSnapshot): HealthElement[] {
    if (e.kind === 'group') {
      switch (e.group) {
        case 'pages':
          return s.pages.map((p) => this.pages.get(p.page)!);
        case 'unanswered':
          return s.unanswered.map((record) => ({ kind: 'question', record, parent: e }));
        case 'clarifying':
          return s.clarifying.map((record) => ({ kind: 'question', record, parent: e }));
        case 'searches':
          return s.searches.map((record) => ({ kind: 'search', record, parent: e }));
      }
    }
    if (e.kind !== 'page') return [];
    const p = e.signals;
    return [
      ...this.jobs.jobsFor(p.page).map((jobId): HealthElement => ({ kind: 'job', jobId, parent: e })),
      ...p.comments.map((entry): HealthElement => ({ kind: 'entry', entry, snippet: false, parent: e })),
      ...p.snippets.map((entry): HealthElement => ({ kind: 'entry', entry, snippet: true, parent: e })),
      ...p.unanswered.map((record): HealthElement => ({ kind: 'question', record, parent: e })),
    ];
  }

  private keep(e: HealthElement): HealthElement {
    this.made.add(e);
    return e;
  }
}

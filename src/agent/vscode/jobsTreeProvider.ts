import * as vscode from 'vscode';
import { Emitter } from '../../common/event';
import type { JobRecord } from '../core/jobStore';
import { presentJob, type RowCommand } from '../core/jobPresentation';
import { presentChildren, type ChildView } from '../core/timelinePresentation';

// Maps the plain presentation (jobPresentation.ts) onto tree items. Elements are small objects
// keyed by job id, so reveal() can find a job again after the list changes.

/** What another part of the feature adds to a job's row (its preview): words after the description, a tooltip line, a context flag. */
export interface RowExtras {
  description?: string;
  tooltipMarkdown?: string;
  contextFlag?: string;
}

export type JobsTreeElement = { kind: 'job'; jobId: string } | { kind: 'child'; jobId: string; child: ChildView };

export class JobsTreeProvider implements vscode.TreeDataProvider<JobsTreeElement>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new Emitter<JobsTreeElement | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;
  private readonly elements = new Map<string, JobsTreeElement>();

  /** Set by the preview wiring (previewFeature.ts); nothing by default. */
  rowExtras: (record: JobRecord) => RowExtras | undefined = () => undefined;

  constructor(private readonly records: () => readonly JobRecord[]) {}

  refresh(): void {
    this._onDidChangeTreeData.fire(undefined);
  }

  /** The same object for the same job, as TreeView.reveal expects. */
  elementFor(jobId: string): JobsTreeElement {
    let el = this.elements.get(jobId);
    if (!el) {
      el = { kind: 'job', jobId };
      this.elements.set(jobId, el);
    }
    return el;
  }

  getChildren(element?: JobsTreeElement): JobsTreeElement[] {
    if (!element) return this.records().map((r) => this.elementFor(r.job.id));
    if (element.kind !== 'job') return [];
    const record = this.find(element.jobId);
    if (!record) return [];
    return presentChildren(record, Date.now(), vscode.l10n.t, localTime).map((child) => ({ kind: 'child', jobId: element.jobId, child }));
  }

  getParent(element: JobsTreeElement): JobsTreeElement | undefined {
    return element.kind === 'child' ? this.elementFor(element.jobId) : undefined;
  }

  getTreeItem(element: JobsTreeElement): vscode.TreeItem {
    const record = this.find(element.jobId);
    if (element.kind === 'child') return childItem(element.jobId, element.child);
    if (!record) return new vscode.TreeItem(vscode.l10n.t('(removed)'));
    const view = presentJob(record, Date.now(), vscode.l10n.t);
    // Every job has a timeline. It opens by itself for news of the last day (jobPresentation.ts);
    // VS Code keeps what the user chose after that (the item has an id).
    const item = new vscode.TreeItem(view.label, view.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
    item.id = `job:${record.job.id}`;
    const extra = this.rowExtras(record) ?? {};
    const more = (text: string, sep: string, added: string | undefined): string => (added ? `${text}${sep}${added}` : text);
    item.description = more(view.description, ' · ', extra.description);
    item.iconPath = new vscode.ThemeIcon(view.iconId, view.iconColor ? new vscode.ThemeColor(view.iconColor) : undefined);
    item.contextValue = more(view.contextValue, ' ', extra.contextFlag);
    const tooltip = new vscode.MarkdownString(more(view.tooltipMarkdown, '\n\n', extra.tooltipMarkdown), true);
    tooltip.isTrusted = false;
    item.tooltip = tooltip;
    // Set, so that a screen reader hears the label and status rather than the tooltip.
    item.accessibilityInformation = { label: more(view.accessibilityLabel, ', ', extra.description) };
    // The job's own row passes itself, so Show Job knows it runs from the row (actions.ts).
    item.command = rowCommand(view.command, this.elementFor(record.job.id));
    return item;
  }

  private find(jobId: string): JobRecord | undefined {
    return this.records().find((r) => r.job.id === jobId);
  }

  dispose(): void {
    this._onDidChangeTreeData.dispose();
  }
}

/** Enter on a row: the command names the job, never a URL (actions.ts opens only what the store holds). */
function rowCommand(command: RowCommand, arg: string | JobsTreeElement): vscode.Command {
  return { command: command.id, title: command.title, arguments: [arg] };
}

function childItem(jobId: string, child: ChildView): vscode.TreeItem {
  const item = new vscode.TreeItem(child.label, vscode.TreeItemCollapsibleState.None);
  item.iconPath = new vscode.ThemeIcon(child.iconId);
  item.contextValue = child.contextValue;
  item.description = child.description;
  // Plain text: the prompt and the follow-ups are the user's words, never markdown to render.
  item.tooltip = child.tooltip;
  // Without it VS Code reads a string tooltip as the row's name ("Open https://…").
  item.accessibilityInformation = { label: child.accessibilityLabel };
  if (child.command) item.command = rowCommand(child.command, jobId);
  return item;
}

/** The time of an entry in the display language, for its tooltip. */
function localTime(iso: string): string {
  return timeFormat().format(new Date(iso));
}

let shownTimes: { language: string; format: Intl.DateTimeFormat } | undefined;

/**
 * One formatter per display language: Date.toLocaleString makes a new one on every call, which
 * was 80 µs a timeline entry, most of filling a view of 1,000 jobs (bench/jobs.ts).
 */
function timeFormat(): Intl.DateTimeFormat {
  const language = vscode.env.language;
  if (shownTimes?.language !== language) {
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' });
    } catch {
      // A display language the runtime's Intl does not know: its default.
      format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
    }
    shownTimes = { language, format };
  }
  return shownTimes.format;
}

import * as vscode from 'vscode';
import { Emitter } from '../../common/event';
import type { ChangedItem, StaleLine, StalePage } from '../core/staleDocs';
import type { CheckResult, StaleChecker } from './staleChecker';
import { changeItem, lineItem, pageItem } from './staleItems';

// Docs to Update: the last check's pages that still say an old form, most stale first; under each
// page the lines that say it; under each line the code change that made it stale. Elements are
// made once per result and kept, and the commands act only on elements this tree made (anyone can
// run a command with any argument).

export type StaleElement =
  | { kind: 'page'; page: StalePage }
  | { kind: 'line'; line: StaleLine; parent: StaleElement & { kind: 'page' } }
  | { kind: 'change'; item: ChangedItem; parent: StaleElement & { kind: 'line' } };

export interface PageLinks {
  /** The workspace file of a page, when the docs live here. */
  fileOf(page: string): vscode.Uri | undefined;
}

export class StaleTreeProvider implements vscode.TreeDataProvider<StaleElement>, vscode.Disposable {
  private readonly changed = new Emitter<StaleElement | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private shown: CheckResult | undefined;
  private pages: StaleElement[] = [];
  private children = new WeakMap<StaleElement, StaleElement[]>();
  private made = new WeakSet<StaleElement>();

  constructor(
    private readonly checker: StaleChecker,
    private readonly links: PageLinks,
  ) {}

  refresh(): void {
    this.changed.fire(undefined);
  }

  /** Whether `e` is an element this tree made for the result on screen. */
  owns(e: unknown): e is StaleElement {
    return typeof e === 'object' && e !== null && this.made.has(e as StaleElement);
  }

  /** The page rows of the result on screen. */
  pageElements(): (StaleElement & { kind: 'page' })[] {
    this.sync();
    return this.pages as (StaleElement & { kind: 'page' })[];
  }

  getChildren(element?: StaleElement): StaleElement[] {
    const result = this.sync();
    if (!result) return [];
    if (!element) return this.pages;
    let kids = this.children.get(element);
    if (!kids) {
      kids = this.childrenOf(element, result);
      for (const k of kids) this.made.add(k);
      this.children.set(element, kids);
    }
    return kids;
  }

  getParent(element: StaleElement): StaleElement | undefined {
    return element.kind === 'page' ? undefined : element.parent;
  }

  getTreeItem(element: StaleElement): vscode.TreeItem {
    switch (element.kind) {
      case 'page':
        return pageItem(element.page, this.links.fileOf(element.page.path));
      case 'line':
        return lineItem(element.line, element.parent.page, this.links.fileOf(element.parent.page.path));
      case 'change':
        return changeItem(element.item, this.shown?.repository.rootUri);
    }
  }

  dispose(): void {
    this.changed.dispose();
  }

  private childrenOf(element: StaleElement, result: CheckResult): StaleElement[] {
    if (element.kind === 'page') return element.page.lines.map((line) => ({ kind: 'line', line, parent: element }));
    if (element.kind === 'line') {
      const byId = new Map(result.check.items.map((i) => [i.id, i]));
      return element.line.itemIds.flatMap((id) => {
        const item = byId.get(id);
        return item ? [{ kind: 'change' as const, item, parent: element }] : [];
      });
    }
    return [];
  }

  private sync(): CheckResult | undefined {
    const result = this.checker.result;
    if (result !== this.shown) {
      this.shown = result;
      this.children = new WeakMap();
      this.pages = (result?.check.pages ?? []).map((page) => ({ kind: 'page', page }));
      this.made = new WeakSet(this.pages);
    }
    return result;
  }
}

import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import { checkSummary } from '../core/staleWords';
import type { CheckState, StaleChecker } from './staleChecker';
import { StaleTreeProvider, type PageLinks, type StaleElement } from './staleTree';

// The Docs to Update view: the tree, and what it says when there is nothing to list. Why it is
// empty (no check yet, no Git, no change, nothing stale…) is said by the view's welcome
// (package.json viewsWelcome, keyed on `docsAssistant.staleDocsState`); above a result, its
// message says how many pages for how many changes, and that the assistant's sources were used
// when the service offers no search.

export const STALE_VIEW_ID = 'docsAssistant.staleDocsView';

export class StaleView extends Disposable {
  readonly tree: StaleTreeProvider;
  readonly view: vscode.TreeView<StaleElement>;

  constructor(
    private readonly checker: StaleChecker,
    links: PageLinks,
  ) {
    super();
    this.tree = this._register(new StaleTreeProvider(checker, links));
    this.view = this._register(vscode.window.createTreeView(STALE_VIEW_ID, { treeDataProvider: this.tree, showCollapseAll: true }));
    this._register(
      checker.onDidChange(() => {
        this.tree.refresh();
        this.update();
      }),
    );
    this.update();
  }

  private update(): void {
    const state: CheckState = this.checker.state;
    void vscode.commands.executeCommand('setContext', 'docsAssistant.staleDocsState', state);
    const result = this.checker.result;
    const parts: string[] = [];
    if (result && (state === 'ready' || state === 'empty')) {
      parts.push(checkSummary(result.check, vscode.l10n.t));
      if (result.patchCut) parts.push(vscode.l10n.t('The change was larger than was read; only its first part was checked.'));
      if (result.extraction.dropped > 0) parts.push(vscode.l10n.t('{0} less important changes were left out.', result.extraction.dropped));
    }
    this.view.message = parts.length ? parts.join(' ') : undefined;
    this.view.description = result && state === 'ready' ? result.title : undefined;
  }
}

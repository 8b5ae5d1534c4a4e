import * as vscode from 'vscode';
import { Emitter } from '../../common/event';
import { Disposable } from '../../common/lifecycle';
import type { PageSignals, ReaderSignals } from '../core/readerSignals';
import { lensTitle, pageCounts, snippetLensTitle } from '../core/signalsWords';
import { snippetLine } from '../core/snippetPlace';
import { pageFileOf } from './pageFiles';

// The hint at the top of a docs file with reader signals: "👎 7 · 👍 12 · 3 comments · 2
// unanswered questions (last 30 days)", one click away from the page in Docs Health; and the
// code-snippet feedback on the line of the code block it is about, when that block is in the
// file (else it counts on the page's hint). It answers from the store's last snapshot (a map
// lookup, ReaderSignals.forFile) and the document's own text: no I/O, no fetch, nothing awaited.
// The title is plain text (VS Code does not render a CodeLens title as Markdown) holding only
// numbers and our words (src/health/core/signalsWords.ts); its command is ours, with the page as argument.

export const SHOW_PAGE_COMMAND = 'docsAssistant.health.showPage';

/** Docs pages: Markdown and MDX files on disk. */
export const DOCS_SELECTOR: vscode.DocumentSelector = [
  { scheme: 'file', pattern: '**/*.{md,mdx}' },
  { scheme: 'vscode-vfs', pattern: '**/*.{md,mdx}' },
];

export class HealthLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly changed = this._register(new Emitter<void>());
  readonly onDidChangeCodeLenses = this.changed.event;
  /** How many snippets sit on each code block's line, per document version: the text is scanned once per change, not once per lens request. */
  private readonly places = new WeakMap<vscode.TextDocument, { version: number; page: PageSignals; lines: Map<number, number> }>();

  constructor(private readonly signals: ReaderSignals) {
    super();
    this._register(signals.onDidChange(() => this.changed.fire()));
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const file = pageFileOf(document.uri);
    const page = file && this.signals.forFile(file);
    const snapshot = this.signals.snapshot;
    if (!page || !snapshot) return [];
    const lines = this.snippetLines(document, page);
    const placed = [...lines.values()].reduce((a, b) => a + b, 0);
    const days = snapshot.filter.days;
    const title = lensTitle(pageCounts(page, placed), days, vscode.l10n.t);
    const show = (line: number, text: string) =>
      new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
        title: text,
        tooltip: vscode.l10n.t('Show this page in Docs Health'),
        command: SHOW_PAGE_COMMAND,
        arguments: [page.page],
      });
    const lenses = [...lines].map(([line, count]) => show(line, snippetLensTitle(count, days, vscode.l10n.t)));
    return title ? [show(0, title), ...lenses] : lenses;
  }

  private snippetLines(document: vscode.TextDocument, page: PageSignals): Map<number, number> {
    if (page.snippets.length === 0) return new Map();
    const known = this.places.get(document);
    if (known && known.version === document.version && known.page === page) return known.lines;
    const text = document.getText();
    const lines = new Map<number, number>();
    for (const e of page.snippets) {
      const line = e.code === undefined ? undefined : snippetLine(text, e.code);
      if (line !== undefined) lines.set(line, (lines.get(line) ?? 0) + 1);
    }
    this.places.set(document, { version: document.version, page, lines });
    return lines;
  }
}

import type * as l10n from '@vscode/l10n';
import { sourcesOf, type AssembledMessage } from '../../api';
import type { AnswerChange } from '../../assistant/core/answer';
import type { AnswerPartView, SourceView } from '../../common/protocol';
import { mdLine } from '../../common/markdown/escape';
import { SafeMarkdownStream } from '../../common/markdown/streamWriter';

// The assistant's answer, relayed into VS Code's Chat view as ask() reports it (AnswerChange):
// its text as markdown deltas, a progress line while the service searches, and each source once
// as a reference. The Chat view renders Markdown itself, images included, so the answer goes
// through the one safe writer (src/common/markdown/streamWriter.ts): it is read as CommonMark
// reads it, and written again with images as links and HTML as text, so nothing loads until the
// user clicks. The search query in the progress line is text, never a link. Free of vscode: the
// participant hands it a sink, the tests a recording one.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** Where the relay writes: the ChatResponseStream in the extension. */
export interface ResponseSink {
  markdown(text: string): void;
  progress(text: string): void;
  reference(url: string, title: string): void;
}

/** Characters of the answer's text kept for a Fix This draft. */
const TEXT_KEPT = 8000;

export class AnswerRelay {
  private readonly shownSources = new Set<string>();
  /** The searches (by part) whose query was said, and those said to have started. */
  private readonly searched = new Set<number>();
  private readonly searching = new Set<number>();
  /** Characters of each text part written so far. */
  private readonly written = new Map<number, number>();
  /** The part whose text was shown last, to separate the next text part from it. */
  private lastTextPart: number | undefined;
  private wroteText = false;
  /** The answer's text as it came (before any escaping), kept up to TEXT_KEPT characters for /fix. */
  private raw = '';
  private readonly markdown: SafeMarkdownStream;

  constructor(
    private readonly sink: ResponseSink,
    private readonly t: Translate,
  ) {
    this.markdown = new SafeMarkdownStream((md) => sink.markdown(md));
  }

  /** The answer's text so far, up to TEXT_KEPT characters (a Fix This draft quotes less). */
  get text(): string {
    return this.raw;
  }

  /** Whether any text of the answer has been shown. */
  get hasText(): boolean {
    return this.wroteText;
  }

  onChange(change: AnswerChange): void {
    switch (change.type) {
      case 'text':
        // Reasoning is the model's own notes: not shown in the Chat view.
        if (change.kind === 'text') this.textOf(change.part, change.delta);
        break;
      case 'part':
        this.partChanged(change.part, change.value);
        break;
      case 'sources':
        this.showSources(change.sources);
        break;
      case 'notices':
        break;
    }
  }

  /** The answer ended: writes what was held back, and any source not shown yet. */
  finish(message: AssembledMessage | undefined): void {
    this.markdown.end();
    if (message) this.showSources(sourcesOf(message));
  }

  private partChanged(i: number, part: AnswerPartView): void {
    if (part.kind === 'text') {
      // A text part began (or arrived whole): what it has that was not written yet.
      this.textOf(i, part.text.slice(this.written.get(i) ?? 0));
    } else if (part.kind === 'tool') {
      if (part.query !== undefined && !this.searched.has(i)) {
        this.searched.add(i);
        this.searching.add(i);
        this.sink.progress(this.t('Searching the docs for “{0}”…', mdLine(part.query.length > 80 ? `${part.query.slice(0, 80)}…` : part.query)));
      } else if (!this.searching.has(i)) {
        this.searching.add(i);
        this.sink.progress(this.t('Searching the docs…'));
      }
    }
  }

  private showSources(sources: readonly SourceView[]): void {
    for (const s of sources) {
      if (s.url === undefined || this.shownSources.has(s.url)) continue;
      this.shownSources.add(s.url);
      this.sink.reference(s.url, s.title);
    }
  }

  /** Text of part `i`: a blank line first when another text part was shown last. */
  private textOf(i: number, text: string): void {
    if (this.lastTextPart !== undefined && this.lastTextPart !== i) this.write('\n\n');
    this.lastTextPart = i;
    this.written.set(i, (this.written.get(i) ?? 0) + text.length);
    this.write(text);
  }

  /** Writes `text` through the safe writer, and keeps the first TEXT_KEPT characters for /fix. */
  private write(text: string): void {
    if (text.length === 0) return;
    this.wroteText = true;
    if (this.raw.length < TEXT_KEPT) this.raw += text.slice(0, TEXT_KEPT - this.raw.length);
    this.markdown.push(text);
  }
}

import type * as l10n from '@vscode/l10n';
import { sourcesOf, toolQuery } from '../../api/sources';
import type { AssembledMessage, AssistantStreamEvent } from '../../api/types';
import { mdLine } from '../../common/markdown/escape';
import { SafeMarkdownStream } from '../../common/markdown/streamWriter';

// The assistant's answer, relayed into VS Code's Chat view as it streams: its text as markdown
// deltas, a progress line while the service searches, and each source once as a reference. The
// Chat view renders Markdown itself, images included, so the answer goes through the one safe
// writer (src/common/markdown/streamWriter.ts): it is read as CommonMark reads it, and written
// again with images as links and HTML as text, so nothing loads until the user clicks. The search
// query in the progress line is text, never a link. Free of vscode: the participant hands it a
// sink, the tests a recording one.

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
  private readonly searched = new Set<string>();
  /** The part whose text was shown last, to separate the next text part from it. */
  private lastTextPart: string | undefined;
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

  onEvent(ev: AssistantStreamEvent): void {
    if (ev.type !== 'chunk') return;
    const c = ev.chunk;
    switch (c.type) {
      case 'text-start':
        if (this.lastTextPart !== undefined && this.lastTextPart !== c.id) this.write('\n\n');
        this.lastTextPart = c.id;
        break;
      case 'text-delta':
        if (this.lastTextPart !== undefined && this.lastTextPart !== c.id) this.write('\n\n');
        this.lastTextPart = c.id;
        this.write(c.delta);
        break;
      case 'tool-input-start':
        this.sink.progress(this.t('Searching the docs…'));
        break;
      case 'tool-input-available':
      case 'tool-output-available':
      case 'source-url':
        this.progressAndSources(ev.message);
        break;
      default:
        break;
    }
  }

  /** The answer ended: writes what was held back, and any source not shown yet. */
  finish(message: AssembledMessage | undefined): void {
    this.markdown.end();
    if (message) this.showSources(message);
  }

  private progressAndSources(message: AssembledMessage): void {
    for (const p of message.parts) {
      if (p.type !== 'tool') continue;
      const query = toolQuery(p);
      if (query === undefined || this.searched.has(p.toolCallId)) continue;
      this.searched.add(p.toolCallId);
      this.sink.progress(this.t('Searching the docs for “{0}”…', mdLine(query.length > 80 ? `${query.slice(0, 80)}…` : query)));
    }
    this.showSources(message);
  }

  private showSources(message: AssembledMessage): void {
    for (const s of sourcesOf(message)) {
      if (s.url === undefined || this.shownSources.has(s.url)) continue;
      this.shownSources.add(s.url);
      this.sink.reference(s.url, s.title);
    }
  }

  /** Writes `text` through the safe writer, and keeps the first TEXT_KEPT characters for /fix. */
  private write(text: string): void {
    if (text.length === 0) return;
    this.wroteText = true;
    if (this.raw.length < TEXT_KEPT) this.raw += text.slice(0, TEXT_KEPT - this.raw.length);
    this.markdown.push(text);
  }
}

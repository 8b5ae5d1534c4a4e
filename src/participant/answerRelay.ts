import type * as l10n from '@vscode/l10n';
import { sourcesOf, toolQuery } from '../api/sources';
import type { AssembledMessage, AssistantStreamEvent } from '../api/types';

// The assistant's answer, relayed into VS Code's Chat view as it streams: its text as markdown
// deltas, a progress line while the service searches, and each source once as a reference. The
// Chat view renders the markdown itself (untrusted: no command links, no HTML), so what is left to
// this relay is what that renderer would still do on its own: an image in the answer becomes a
// link, so nothing loads from the network until the user clicks. Every chunk costs time linear in
// its own size. Free of vscode: the participant hands it a sink, the tests a recording one.

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

/** A fence opener or closer at the start of a line: up to three spaces, then ``` or ~~~. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export class AnswerRelay {
  private readonly shownSources = new Set<string>();
  private readonly searched = new Set<string>();
  /** The part whose text was shown last, to separate the next text part from it. */
  private lastTextPart: string | undefined;
  private wroteText = false;
  /** The answer's text as it came (before any escaping), kept up to TEXT_KEPT characters for /fix. */
  private raw = '';
  /** A `!` held back at the end of a delta: with a `[` next, it starts an image. */
  private heldBang = false;
  /** The current line so far, only while it could still open or close a fence (a few characters). */
  private lineHead = '';
  private atLineStart = true;
  private fence: string | undefined;

  constructor(
    private readonly sink: ResponseSink,
    private readonly t: Translate,
  ) {}

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
    if (this.heldBang) {
      this.heldBang = false;
      this.sink.markdown('!');
    }
    if (message) this.showSources(message);
  }

  private progressAndSources(message: AssembledMessage): void {
    for (const p of message.parts) {
      if (p.type !== 'tool') continue;
      const query = toolQuery(p);
      if (query === undefined || this.searched.has(p.toolCallId)) continue;
      this.searched.add(p.toolCallId);
      this.sink.progress(this.t('Searching the docs for “{0}”…', query.length > 80 ? `${query.slice(0, 80)}…` : query));
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

  /** Writes `text`, turning `![` outside fenced code into `\![` (a link, not an image). */
  private write(text: string): void {
    if (text.length === 0) return;
    this.wroteText = true;
    if (this.raw.length < TEXT_KEPT) this.raw += text.slice(0, TEXT_KEPT - this.raw.length);
    // A `!` held back from the last delta is an image's start when this one begins with `[`.
    let out = this.heldBang ? (text[0] === '[' && this.fence === undefined ? '\\!' : '!') : '';
    this.heldBang = false;
    for (let i = 0; i < text.length; i++) {
      const ch = text[i]!;
      this.trackLine(ch);
      if (ch === '!' && this.fence === undefined) {
        if (i === text.length - 1) {
          this.heldBang = true;
          break;
        }
        if (text[i + 1] === '[') {
          out += '\\!';
          continue;
        }
      }
      out += ch;
    }
    if (out.length > 0) this.sink.markdown(out);
  }

  /** Follows fenced code blocks line by line; only a line's first few characters are kept. */
  private trackLine(ch: string): void {
    if (ch === '\n') {
      const m = FENCE.exec(this.lineHead);
      if (m) this.toggleFence(m[1]!);
      this.lineHead = '';
      this.atLineStart = true;
      return;
    }
    if (this.atLineStart && this.lineHead.length < 8) this.lineHead += ch;
    else this.atLineStart = false;
  }

  private toggleFence(marker: string): void {
    if (this.fence === undefined) this.fence = marker;
    else if (marker[0] === this.fence[0] && marker.length >= this.fence.length) this.fence = undefined;
  }
}

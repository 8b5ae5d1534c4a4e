import type * as l10n from '@vscode/l10n';
import { MAX_SOURCES, createEmptyMessage, type AssembledMessage, type UIMessageChunk } from '../../api';
import { answerChanges, noticesOf, partsOf, sourcesOf, type Answer, type AnswerChange } from './answer';

// The one answer to a question while it streams: updated in place, chunk by chunk, and what each
// chunk changed said as AnswerChanges. A text delta puts the reducer's own text into the one part
// it grew (no copy of the other parts, no new answer) and the change is the delta itself; a chunk
// that touches no part or source changes at most the notices, which are worded again only when
// what they say changed. Anything else is read again from the message and compared. So the work
// per chunk stays the same at any answer length.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/**
 * Chunks that changed nothing the answer shows: metadata, step marks, custom data and files, a tool
 * call's raw input as it streams (once the call has its part), and a source the reducer did not
 * take (past MAX_SOURCES).
 */
function leavesAnswerAlone(answer: Answer, message: AssembledMessage, chunk: UIMessageChunk): boolean {
  switch (chunk.type) {
    case 'start':
    case 'start-step':
    case 'finish-step':
    case 'message-metadata':
    case 'file':
      return true;
    case 'tool-input-delta':
      return message.parts.length === answer.parts.length;
    case 'source-url':
    case 'source-document':
      // Not taken: the sources are full, and the last one is another.
      return message.sources.length >= MAX_SOURCES && message.sources[message.sources.length - 1]!.sourceId !== chunk.sourceId;
    default:
      return chunk.type.startsWith('data-');
  }
}

/** What the notices are read from (noticesOf): while it stays the same, so do they. */
type NoticeFacts = Pick<AssembledMessage, 'skippedChunks' | 'aborted' | 'abortReason' | 'cutOff'> & { errors: number };

function noticeFacts(message: AssembledMessage): NoticeFacts {
  const { skippedChunks, aborted, abortReason, cutOff } = message;
  return { skippedChunks, errors: message.errors.length, aborted, abortReason, cutOff };
}

/** Compared field by field: this runs for every chunk. */
function sameFacts(a: NoticeFacts, message: AssembledMessage): boolean {
  return (
    a.skippedChunks === message.skippedChunks &&
    a.errors === message.errors.length &&
    a.aborted === message.aborted &&
    a.abortReason === message.abortReason &&
    a.cutOff === message.cutOff
  );
}

export class LiveAnswer {
  /** The answer: this object, updated in place for as long as the question streams. */
  readonly answer: Answer = { parts: [], sources: [], notices: [] };
  private noticesReadFrom = noticeFacts(createEmptyMessage());

  constructor(private readonly t: Translate) {}

  /** Brings the answer up to date with `message`, which `chunk` just changed, and says what changed. */
  update(message: AssembledMessage, chunk: UIMessageChunk): AnswerChange[] {
    if (leavesAnswerAlone(this.answer, message, chunk)) return this.withNotices(message, []);
    const delta = this.delta(message, chunk);
    if (delta) return this.withNotices(message, [delta]);
    const after: Answer = { parts: partsOf(message), sources: sourcesOf(message), notices: noticesOf(message, this.t) };
    const changes = answerChanges(this.answer, after);
    this.answer.parts = after.parts;
    this.answer.sources = after.sources;
    this.answer.notices = after.notices;
    this.noticesReadFrom = noticeFacts(message);
    return changes;
  }

  /**
   * A text or reasoning delta to a part the answer has: that part takes the reducer's text, and the
   * change is the delta. Undefined when the chunk did anything else (opened a part, say).
   */
  private delta(message: AssembledMessage, chunk: UIMessageChunk): AnswerChange | undefined {
    const parts = this.answer.parts;
    if ((chunk.type !== 'text-delta' && chunk.type !== 'reasoning-delta') || message.parts.length !== parts.length) return undefined;
    const kind = chunk.type === 'text-delta' ? 'text' : 'reasoning';
    let i = message.parts.length - 1;
    while (
      i >= 0 &&
      !(message.parts[i]!.type === kind && (message.parts[i] as { id: string }).id === chunk.id && !(message.parts[i] as { done: boolean }).done)
    )
      i--;
    const part = message.parts[i];
    const old = parts[i];
    // The reducer only ever appends the delta, so the lengths tell whether that is all that changed.
    if (!part || part.type === 'tool' || !old || old.kind !== kind || part.text.length !== old.text.length + chunk.delta.length) return undefined;
    parts[i] = { ...old, text: part.text };
    return { type: 'text', part: i, kind, delta: chunk.delta };
  }

  /** `changes`, plus the notices when what they say changed (chunks skipped since the last one). */
  private withNotices(message: AssembledMessage, changes: AnswerChange[]): AnswerChange[] {
    if (sameFacts(this.noticesReadFrom, message)) return changes;
    this.noticesReadFrom = noticeFacts(message);
    const notices = noticesOf(message, this.t);
    const old = this.answer.notices;
    if (notices.length === old.length && notices.every((n, k) => n === old[k])) return changes;
    this.answer.notices = notices;
    return [...changes, { type: 'notices', notices }];
  }
}

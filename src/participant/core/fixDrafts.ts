import type { ContextChip } from '../../common/protocol';
import { fixPrompt, type FixSource } from '../../common/fixPrompt';
import { newId } from '../../common/ids';
import type { JobLaunch } from '../../common/jobs';
import { MAX_INSTRUCTION_CHARS } from './fixDocsTool';
import { lastExchange } from './history';
import { sessionOf } from './session';

// The drafts behind the Chat view's Fix This in the Docs buttons and /fix. A button's arguments
// live in VS Code's chat history, which the user may export, so the button carries only an id;
// the draft (question, selections, answer) stays here, in memory, for the newest answers. After a
// reload, /fix still works from the history's text.

/** Answers whose Fix This button still works in this window. */
const MAX_DRAFTS = 50;

export class FixDrafts {
  private readonly drafts = new Map<string, FixSource>();
  private readonly bySession = new Map<string, string>();

  /** Keeps the draft of an answer, and returns the id its button carries. */
  add(source: FixSource, session?: string): string {
    const id = newId();
    this.drafts.set(id, { question: source.question, context: [...source.context], answer: source.answer });
    if (session) this.bySession.set(session, id);
    while (this.drafts.size > MAX_DRAFTS) this.drafts.delete(this.drafts.keys().next().value!);
    return id;
  }

  /** The job a button's draft id stands for, or undefined when it is no longer kept. */
  launchFor(id: unknown): JobLaunch | undefined {
    const source = typeof id === 'string' ? this.drafts.get(id) : undefined;
    return source && { draft: fixPrompt(source), label: source.question };
  }

  /**
   * `/fix`: the newest answer of the session, with its selections when this window still has
   * them, else from the history's text. What the user typed after /fix goes in as their note.
   */
  fromHistory(history: readonly unknown[], participant: string, note: string): JobLaunch | undefined {
    const exchange = lastExchange(history, participant);
    if (!exchange) return undefined;
    const kept = this.drafts.get(this.bySession.get(sessionOf(history, participant) ?? '') ?? '');
    const context: readonly ContextChip[] = kept && kept.question === exchange.question ? kept.context : [];
    const withNote = (draft: string) => (note.trim() ? `${draft}\n\nThe reader adds: ${note.trim()}` : draft);
    let draft = withNote(fixPrompt({ question: exchange.question, context, answer: exchange.answer }));
    // It goes to the agent through #fixDocs, which takes at most MAX_INSTRUCTION_CHARS: long
    // selections are left out first (the agent can read the files), the question and answer stay.
    if (draft.length > MAX_INSTRUCTION_CHARS && context.length)
      draft = withNote(fixPrompt({ question: exchange.question, context: [], answer: exchange.answer }));
    return { draft, label: exchange.question };
  }
}

import { chipLabel } from './chips';
import { mdFenced, mdLine } from './markdown/escape';
import type { ContextChip } from './protocol';

// The draft an agent job starts from when a reader found an answer wanting: the question, what
// they had selected, the answer, and what to do. The chat view's "Fix This in the Docs" and the
// Chat view's @docs /fix both build it here; the user reviews it before anything is sent. It goes
// to the agent, not to the user, so it stays in English like the agent's other prompts. Nothing
// quoted in it can write a line of its own: the question and the file names are one line of
// text, and the selection and the answer are each in a fence that nothing inside can close, so
// an answer cannot add an `Instruction:` of its own (the draft is also read as Markdown, on GitHub).

/** Characters of the answer the draft quotes; the agent can ask the docs for the rest. */
export const ANSWER_MAX_CHARS = 4000;

export interface FixSource {
  question: string;
  context: readonly ContextChip[];
  answer: string;
}

export function fixPrompt(s: FixSource): string {
  const lines = [`A reader asked the documentation: "${mdLine(s.question)}"`];
  for (const c of s.context)
    lines.push(
      '',
      `They had selected ${c.type === 'code' ? 'code' : 'text'} from ${mdLine(chipLabel(c))}:`,
      mdFenced(c.value, c.type === 'code' ? (c.languageId ?? '') : ''),
    );
  const answer = s.answer.trim();
  if (answer)
    lines.push('', 'The assistant answered:', mdFenced(answer.length > ANSWER_MAX_CHARS ? `${answer.slice(0, ANSWER_MAX_CHARS)}…` : answer, 'markdown'));
  lines.push('', 'Instruction: Fix the documentation so that it answers this question correctly and clearly.');
  return lines.join('\n');
}

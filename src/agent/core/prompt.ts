import { mdFenced, mdLine } from '../../common/markdown/escape';
import type { Selection } from '../../common/selection';

// The prompt the agent gets. With a selection, it names the file, the lines and the text, so the
// agent knows exactly which passage of the docs the writer means.

export function buildAgentPrompt(instruction: string, selection?: Selection): string {
  const what = instruction.trim();
  if (!selection || selection.text.trim() === '') return what;
  const lines = selection.startLine === selection.endLine ? `line ${selection.startLine}` : `lines ${selection.startLine}-${selection.endLine}`;
  return [`File: ${mdLine(selection.path)} (${lines})`, '', mdFenced(selection.text, selection.languageId ?? ''), '', `Instruction: ${what}`].join('\n');
}

/** True when a prompt has something the agent can act on. */
export function isBlankPrompt(prompt: string | undefined): boolean {
  return prompt === undefined || prompt.trim().length === 0;
}

// The prompt the agent gets. With a selection, it names the file, the lines and the text, so the
// agent knows exactly which passage of the docs the writer means.

export interface PromptSelection {
  /** Workspace-relative path. */
  path: string;
  /** 1-based, inclusive. */
  startLine: number;
  endLine: number;
  text: string;
  languageId?: string;
}

/** A fence longer than any backtick run inside the text, so the selection cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

export function buildAgentPrompt(instruction: string, selection?: PromptSelection): string {
  const what = instruction.trim();
  if (!selection || selection.text.trim() === '') return what;
  const lines = selection.startLine === selection.endLine ? `line ${selection.startLine}` : `lines ${selection.startLine}-${selection.endLine}`;
  const fence = fenceFor(selection.text);
  return [
    `File: ${selection.path} (${lines})`,
    '',
    `${fence}${selection.languageId ?? ''}`,
    selection.text,
    fence,
    '',
    `Instruction: ${what}`,
  ].join('\n');
}

/** True when a prompt has something the agent can act on. */
export function isBlankPrompt(prompt: string | undefined): boolean {
  return prompt === undefined || prompt.trim().length === 0;
}

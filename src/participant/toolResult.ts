import { messageText } from '../api/reducer';
import { sourcesOf } from '../api/sources';
import type { AssembledMessage } from '../api/types';

// What #docs hands the model: the answer and its sources as one text, capped. A tool result goes
// into a model's context window, and the answer comes from pages anyone may edit, so it is bounded
// like everything else the extension receives. Free of vscode, so the bound is tested in Node.

/** Characters of a result: the answer first, then as many sources as fit. */
export const MAX_TOOL_RESULT_CHARS = 12_000;
export const MAX_QUERY_CHARS = 2_000;
const MAX_SOURCES_LISTED = 20;

/** The answer and its sources as one text of at most MAX_TOOL_RESULT_CHARS. */
export function resultText(message: AssembledMessage, site: string): string {
  const sources = sourcesOf(message)
    .filter((s) => s.url !== undefined)
    .slice(0, MAX_SOURCES_LISTED)
    .map((s) => `- ${s.title.slice(0, 400).replace(/\s+/g, ' ').slice(0, 200)}: ${s.url}`);
  const tail = sources.length ? `\n\nSources (${site}):\n${sources.join('\n')}` : '';
  let answer = messageText(message).trim() || '(The documentation assistant gave no answer.)';
  const room = MAX_TOOL_RESULT_CHARS - Math.min(tail.length, MAX_TOOL_RESULT_CHARS / 2);
  if (answer.length > room) answer = `${answer.slice(0, room - 1)}…`;
  return (answer + tail).slice(0, MAX_TOOL_RESULT_CHARS);
}

import type * as l10n from '@vscode/l10n';
import type { AgentDelegation, DelegationRequest } from '../../common/delegation';
import { mdFenced } from '../../common/markdown/escape';
import { visibleText } from '../../common/markdown/plainText';

// `#fixDocs`, below VS Code: what the tool accepts from a model (or from @docs /fix), and what the
// user is shown before anything goes to the docs agent. The input is a model's text, so it is
// checked and bounded here, never trusted: strings only, sizes capped, line numbers whole and in
// order. Line breaks become \n and the characters a reader cannot see (controls, bidi overrides)
// are taken out before the prompt is built, so the confirmation, which shows the prompt in a
// fence it cannot close, shows every character that is sent. Refusals are said to the model in
// English (like #docs's, toolResult.ts): it reads them, and may try again with a fixed input.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** The tool's name in package.json's languageModelTools (`#fixDocs` is its toolReferenceName). */
export const FIX_DOCS_TOOL = 'docs-assistant_fixDocs';

/** Long enough for @docs /fix's draft (a question, its answer of at most 4,000 characters, a selection). */
export const MAX_INSTRUCTION_CHARS = 30_000;
/** The default longest selection a question carries (docsAssistant.chat.maxSelectionChars). */
export const MAX_PASSAGE_CHARS = 20_000;
export const MAX_PATH_CHARS = 300;
export const MAX_TITLE_CHARS = 200;
const MAX_LINE = 10_000_000;

/** What a call may hand over: `instruction`, optionally a passage (`file`, `startLine`, `endLine`, `passage`) and a `title`. */
export type CheckedInput = { request: DelegationRequest; title?: string } | { problem: string };

/** Text as it is shown and sent: \n line breaks, nothing invisible. */
function clean(text: string): string {
  return visibleText(text.replace(/\r\n?|\u2028|\u2029/g, '\n'));
}

const isLine = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= MAX_LINE;

function checkPassage(o: Record<string, unknown>): DelegationRequest['passage'] | string {
  const text = typeof o.passage === 'string' ? clean(o.passage) : '';
  const path = typeof o.file === 'string' ? clean(o.file).trim() : '';
  if (!text.trim()) return 'A passage needs its text as `passage`.';
  if (text.length > MAX_PASSAGE_CHARS) return `The passage is ${text.length} characters long; at most ${MAX_PASSAGE_CHARS} are sent. Quote less of it.`;
  if (!path || path.includes('\n') || path.length > MAX_PATH_CHARS)
    return `A passage needs its file as \`file\`: one line, at most ${MAX_PATH_CHARS} characters.`;
  if (!isLine(o.startLine)) return 'A passage needs `startLine`, its first line (a whole number from 1).';
  const endLine = o.endLine === undefined ? o.startLine + text.split('\n').length - 1 : o.endLine;
  if (!isLine(endLine) || endLine < o.startLine) return '`endLine` must be a whole number, not before `startLine`.';
  return { path, startLine: o.startLine, endLine, text };
}

/** The tool's input, checked: what to build the prompt from, or what is wrong with it (for the model). */
export function checkInput(input: unknown): CheckedInput {
  const o = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  const instruction = typeof o.instruction === 'string' ? clean(o.instruction).trim() : '';
  if (!instruction) return { problem: 'The instruction is empty: pass what the docs agent should change as `instruction`.' };
  if (instruction.length > MAX_INSTRUCTION_CHARS)
    return { problem: `The instruction is ${instruction.length} characters long; at most ${MAX_INSTRUCTION_CHARS} are sent. Shorten it.` };
  let passage: DelegationRequest['passage'];
  if (o.passage !== undefined || o.file !== undefined) {
    const checked = checkPassage(o);
    if (typeof checked === 'string') return { problem: checked };
    passage = checked;
  }
  const title = typeof o.title === 'string' ? clean(o.title).split('\n')[0]!.trim().slice(0, MAX_TITLE_CHARS) : '';
  return { request: passage ? { instruction, passage } : { instruction }, ...(title ? { title } : {}) };
}

/** The confirmation's message, as Markdown: what happens, then the prompt, verbatim, in a fence nothing in it can close. */
export function confirmationMarkdown(prompt: string, t: Translate): string {
  const l10n = { t };
  return [
    l10n.t(
      'The docs agent gets exactly this prompt. It works on the docs repository and opens a pull request when it changes something; the job is listed in Agent Jobs.',
    ),
    '',
    mdFenced(prompt, 'text'),
  ].join('\n');
}

/** What the model reads once the job started. */
export function startedText(jobId: string): string {
  return `Started docs agent job ${jobId} with the prompt the user confirmed. It is listed in the Agent Jobs view, where its pull request link appears when the agent finishes. Do not start it again.`;
}

/** What the model reads when nothing was sent; the user has already been told why. */
export const NOT_SENT_TEXT =
  'Nothing was sent to the docs agent: it is not set up here, the hourly limit was reached, or the service refused the job. The user has been told which. Do not retry on your own.';

/** Jobs a window remembers by the prompt that started them, for @docs /fix to name the job it started. */
const MAX_REMEMBERED = 20;

/**
 * The tool's two steps, without VS Code: prepare() gives the confirmation VS Code shows before the
 * call, invoke() sends, and both build the prompt from the same input with the same pure builder
 * (AgentDelegation.promptFor), so what the user allowed is what the agent gets.
 */
export class FixDocsFlow {
  private readonly started = new Map<string, string>();

  constructor(private readonly delegation: AgentDelegation) {}

  private build(input: unknown): { prompt: string; title?: string } | { problem: string } {
    const checked = checkInput(input);
    return 'problem' in checked ? checked : { prompt: this.delegation.promptFor(checked.request), title: checked.title };
  }

  /** The confirmation's Markdown, or undefined when nothing would be sent (invoke says why). */
  confirmation(input: unknown, t: Translate): string | undefined {
    const built = this.build(input);
    return 'prompt' in built ? confirmationMarkdown(built.prompt, t) : undefined;
  }

  /** Sends the prompt the confirmation showed; resolves with what the model reads. */
  async invoke(input: unknown, signal?: AbortSignal): Promise<string> {
    const built = this.build(input);
    if ('problem' in built) return built.problem;
    const started = await this.delegation.start(built.prompt, built.title, signal);
    if (!started) return NOT_SENT_TEXT;
    this.started.delete(built.prompt);
    this.started.set(built.prompt, started.jobId);
    while (this.started.size > MAX_REMEMBERED) this.started.delete(this.started.keys().next().value!);
    return startedText(started.jobId);
  }

  /** The job this window started for `input`, if any (@docs /fix names it after its tool call). */
  jobFor(input: unknown): string | undefined {
    const built = this.build(input);
    return 'prompt' in built ? this.started.get(built.prompt) : undefined;
  }
}

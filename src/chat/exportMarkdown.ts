import type * as l10n from '@vscode/l10n';
import { safeExternalUrl } from '../api/sources';
import { chipLabel } from '../common/chips';
import { fenced } from '../common/fence';
import { english } from '../common/l10n';
import type { AnswerView, ContextChip, TurnView } from '../common/protocol';

// A conversation, or one answer, as Markdown: what "Export Conversation as Markdown…" writes and
// what an answer's Copy puts on the clipboard. Only what the user saw: the questions, the context
// attached to them, the answers' text and their http(s) sources. Never the thread's id or key.
//
// Nothing from the service or the workspace may change the document's structure: a selection is
// fenced by a fence longer than any backtick run in it, an answer that leaves a code block open
// has it closed, and a source title (or the conversation's title) cannot close its link text.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** What an export reads of a conversation: its title and turns. */
export interface ExportableConversation {
  title: string;
  turns: readonly TurnView[];
}

/** Text safe inside `[…]`: backslashes and brackets escaped, on one line. */
export function escapeLinkText(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/** Text safe as a heading's or a paragraph's inline text: no link, no HTML tag, one line. */
function escapeInline(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\[\]<>]/g, (c) => `\\${c}`);
}

/** A link destination that ends where it should: parentheses and spaces percent-encoded. */
function linkTarget(url: string): string {
  return url.replace(/[()\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/**
 * `md` with a code fence it left open closed at the end (CommonMark: up to three spaces, then three
 * or more backticks or tildes; closed by at least as many of the same). Otherwise as it was.
 */
export function closeOpenFence(md: string): string {
  let open: { ch: string; len: number } | undefined;
  for (const line of md.split('\n')) {
    const m = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!m) continue;
    const run = m[1]!;
    const rest = m[2]!;
    if (!open) {
      // A backtick fence's info string holds no backtick (then it is inline code, not a fence).
      if (run[0] === '`' && rest.includes('`')) continue;
      open = { ch: run[0]!, len: run.length };
    } else if (run[0] === open.ch && run.length >= open.len && rest.trim() === '') {
      open = undefined;
    }
  }
  return open ? `${md}\n${open.ch.repeat(open.len)}` : md;
}

/** An answer's text parts, then what became of it (stopped, failed), then its http(s) sources. */
export function answerMarkdown(answer: AnswerView, t: Translate = english): string {
  const l10n = { t };
  const blocks: string[] = [];
  const text = answer.parts
    .flatMap((p) => (p.kind === 'text' && p.text.trim() ? [p.text] : []))
    .join('\n\n')
    .trimEnd();
  if (text) blocks.push(closeOpenFence(text));
  if (answer.status === 'stopped') blocks.push(`_${l10n.t('Stopped before the answer was complete.')}_`);
  if (answer.status === 'error' && answer.error) blocks.push(`_${l10n.t('Error: {0}', escapeInline(answer.error.message))}_`);
  const links = answer.sources.flatMap((s) => {
    const url = s.url === undefined ? undefined : safeExternalUrl(s.url);
    return url ? [`- [${escapeLinkText(s.title.trim() || url)}](${linkTarget(url)})`] : [];
  });
  if (links.length) blocks.push(l10n.t('Sources:'), links.join('\n'));
  return blocks.join('\n\n');
}

/** The language of a fence's info string, when it is a plain language id (nothing else goes there). */
const fenceLanguage = (chip: ContextChip): string =>
  chip.type === 'code' && chip.languageId && /^[\w+#.-]{1,40}$/.test(chip.languageId) ? chip.languageId : '';

function turnMarkdown(turn: TurnView, t: Translate): string {
  const l10n = { t };
  const blocks = [`## ${l10n.t('Question')}`, turn.question.trim()];
  for (const chip of turn.context) blocks.push(escapeInline(chipLabel(chip)), fenced(chip.value, fenceLanguage(chip)));
  blocks.push(`## ${l10n.t('Answer')}`);
  const answer = answerMarkdown(turn.answer, t);
  if (answer) blocks.push(answer);
  return blocks.join('\n\n');
}

/** The whole conversation: `# title`, then each question with its context and its answer. */
export function conversationMarkdown(conversation: ExportableConversation, t: Translate = english): string {
  const blocks = [`# ${escapeInline(conversation.title)}`, ...conversation.turns.map((turn) => turnMarkdown(turn, t))];
  return `${blocks.join('\n\n')}\n`;
}

/** A file name for the exported conversation: its title in lower-case words joined by dashes. */
export function exportFileName(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return `${words || 'conversation'}.md`;
}

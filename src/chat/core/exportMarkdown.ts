import type * as l10n from '@vscode/l10n';
import { safeExternalUrl } from '../../api';
import { chipLabel } from '../../common/chips';
import { mdFenced, mdLine, mdLink } from '../../common/markdown/escape';
import { safeMarkdown } from '../../common/markdown/writer';
import { english } from '../../common/l10n';
import type { AnswerView, ContextChip, TurnView } from '../../common/protocol';

// A conversation, or one answer, as Markdown: what "Export Conversation as Markdown…" writes and
// what an answer's Copy puts on the clipboard. Only what the user saw: the questions, the context
// attached to them, the answers' text and their http(s) sources. Never the thread's id or key.
//
// Nothing from the service or the workspace may change the document's structure, or load
// anything when the document is opened in the Markdown preview: every piece of it is written by
// the one safe Markdown writer (src/common/markdown): the answers and questions read as Markdown
// and written again (raw HTML as text, images as links), titles and labels as plain text, a
// selection in a fence it cannot close.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

/** What an export reads of a conversation: its title and turns. */
export interface ExportableConversation {
  title: string;
  turns: readonly TurnView[];
}

/** An answer's text parts, then what became of it (stopped, failed), then its http(s) sources. */
export function answerMarkdown(answer: AnswerView, t: Translate = english): string {
  const l10n = { t };
  const blocks: string[] = [];
  const text = answer.parts
    .flatMap((p) => (p.kind === 'text' && p.text.trim() ? [p.text] : []))
    .join('\n\n')
    .trimEnd();
  const written = text ? safeMarkdown(text) : '';
  if (written) blocks.push(written);
  if (answer.status === 'stopped') blocks.push(`_${mdLine(l10n.t('Stopped before the answer was complete.'))}_`);
  if (answer.status === 'error' && answer.error) blocks.push(`_${mdLine(l10n.t('Error: {0}', answer.error.message))}_`);
  const links = answer.sources.flatMap((s) => {
    const url = s.url === undefined ? undefined : safeExternalUrl(s.url);
    return url ? [`- ${mdLink(mdLine(s.title) || mdLine(url), url)}`] : [];
  });
  if (links.length) blocks.push(mdLine(l10n.t('Sources:')), links.join('\n'));
  return blocks.join('\n\n');
}

/** A code chip's language names its fence (mdFenced keeps only a plain language id). */
const fenceLanguage = (chip: ContextChip): string => (chip.type === 'code' ? (chip.languageId ?? '') : '');

function turnMarkdown(turn: TurnView, t: Translate): string {
  const l10n = { t };
  const blocks = [`## ${mdLine(l10n.t('Question'))}`, safeMarkdown(turn.question) || mdLine(turn.question)];
  for (const chip of turn.context) blocks.push(mdLine(chipLabel(chip)), mdFenced(chip.value, fenceLanguage(chip)));
  blocks.push(`## ${mdLine(l10n.t('Answer'))}`);
  const answer = answerMarkdown(turn.answer, t);
  if (answer) blocks.push(answer);
  return blocks.join('\n\n');
}

/** The whole conversation: `# title`, then each question with its context and its answer. */
export function conversationMarkdown(conversation: ExportableConversation, t: Translate = english): string {
  const blocks = [`# ${mdLine(conversation.title)}`, ...conversation.turns.map((turn) => turnMarkdown(turn, t))];
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

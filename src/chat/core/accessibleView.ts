import type * as l10n from '@vscode/l10n';
import { safeExternalUrl } from '../../api';
import { english } from '../../common/l10n';
import { plainText, visibleText } from '../../common/markdown/plainText';
import type { TurnView } from '../../common/protocol';

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

// An answer in the Accessible View (the answer's "Accessible View" button, and Alt+F2 in the chat):
// a read-only plaintext document a screen reader reads line by line and a user copies from. The
// question, the answer's text without Markdown's marks, its code blocks fenced with the code as it
// came, what became of it (stopped, failed), and its sources with their addresses. Nothing of it
// is trusted: a plaintext editor renders nothing, and plainText (src/common/markdown) removes what
// could mislead a reader; only http(s) addresses are shown as addresses.

const oneLine = (text: string): string => visibleText(text).replace(/\s+/g, ' ').trim();

/** The document's text for `turn`. */
export function accessibleViewText(turn: TurnView, t: Translate = english): string {
  const l10n = { t };
  const { answer } = turn;
  const blocks = [l10n.t('Question: {0}', oneLine(turn.question))];
  const text = answer.parts
    .flatMap((p) => (p.kind === 'text' && p.text.trim() ? [plainText(p.text)] : []))
    .filter(Boolean)
    .join('\n\n');
  blocks.push(text || l10n.t('(No answer text.)'));
  if (answer.status === 'waiting' || answer.status === 'streaming')
    blocks.push(l10n.t('The answer is still arriving; open the Accessible View again for the rest.'));
  if (answer.status === 'stopped') blocks.push(l10n.t('Stopped before the answer was complete.'));
  if (answer.status === 'error' && answer.error) blocks.push(l10n.t('Error: {0}', oneLine(answer.error.message)));
  if (answer.sources.length) {
    const lines = answer.sources.map((s) => {
      const url = s.url === undefined ? undefined : safeExternalUrl(s.url);
      const title = oneLine(s.title);
      return url ? `- ${title || url}: ${url}` : `- ${title}`;
    });
    blocks.push([l10n.t('Sources:'), ...lines].join('\n'));
  }
  return `${blocks.join('\n\n')}\n`;
}

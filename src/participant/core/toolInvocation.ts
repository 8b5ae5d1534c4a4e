import type * as l10n from '@vscode/l10n';
import { mdCodeSpan, mdLine } from '../../common/markdown/escape';

// What the user sees when #docs runs: the docs site it asks, and the query that will leave the
// machine (issue 27). The query is a model's text, so it is shown as text, through the one safe
// writer (src/common/markdown/escape.ts): in a code span it cannot become a link, an image or
// markup in the Chat view's progress line; a line break shows as ↵, so it is the exact query. Free of
// vscode, so it is rendered with marked (VS Code's Markdown engine) in Node.

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

export const MAX_QUERY_CHARS = 2_000;

/** The query as it is sent: the `query` the tool was given, trimmed and cut to MAX_QUERY_CHARS; '' when there is none. */
export function queryToSend(input: unknown): string {
  const query = (input as { query?: unknown } | undefined)?.query;
  return typeof query === 'string' ? query.trim().slice(0, MAX_QUERY_CHARS) : '';
}

/** The invocation message, as Markdown: the site as plain text, the query in a code span. */
export function invocationMarkdown(site: string, query: string, t: Translate): string {
  const l10n = { t };
  return l10n.t('Asking {0}: {1}', mdLine(site), mdCodeSpan(query, '↵'));
}

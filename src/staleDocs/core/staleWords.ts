import type * as l10n from '@vscode/l10n';
import { safeExternalUrl } from '../../api';
import { visibleLine } from '../../common/markdown/plainText';
import { english } from '../../common/l10n';
import { describeForUser } from '../../host/core/errorWords';
import { fallbackNote } from './docsSearchers';
import type { ChangedItem, DiffPlace, StaleCheck, StalePage } from './staleDocs';

/** vscode.l10n.t, or `english` (src/common/l10n.ts) in tests. */
type Translate = (message: string, ...args: l10n.L10nReplacement[]) => string;

// What the Docs to Update tree says, with no VS Code: every form, path and line in it came from a
// diff or the service, so each is one line of plain text (a tree row renders no Markdown), cut
// short, without the characters that hide or reorder text. Our own words go through `t`.

/** The longest row label, and the longest line of a page shown. */
export const ROW_MAX_CHARS = 160;
export const TOOLTIP_MAX_CHARS = 1000;

/** `text` as one visible line of at most `max` characters. */
export function rowText(text: string, max = ROW_MAX_CHARS): string {
  return visibleLine(text, max);
}

/** `--dlq → --dead-letter-queue`, `--delay (removed)`. */
export function changeLabel(item: ChangedItem, t: Translate = english): string {
  const l10n = { t };
  const from = rowText(item.oldForm, 70);
  if (item.how === 'removed' || item.newForm === undefined) return l10n.t('{0} (removed)', from);
  return `${from} → ${rowText(item.newForm, 70)}`;
}

/** `src/cli.ts:12`. */
export function placeLabel(place: DiffPlace): string {
  return `${rowText(place.file, 120)}:${place.line}`;
}

/** Where the item is in the diff: its new line when it has one, else its old one. */
export function placeOf(item: ChangedItem): DiffPlace | undefined {
  return item.new ?? item.old;
}

/** A page's label: its path as the service names it. */
export function pageLabel(page: StalePage): string {
  return rowText(page.path, 120);
}

/** `2 changes · 3 lines`. */
export function pageDescription(page: StalePage, t: Translate = english): string {
  const l10n = { t };
  const changes = page.staleItemIds.length === 1 ? l10n.t('1 change') : l10n.t('{0} changes', page.staleItemIds.length);
  const lines = page.lines.length === 1 ? l10n.t('1 line') : l10n.t('{0} lines', page.lines.length);
  return `${changes} · ${lines}`;
}

/** What the view says above the tree after a check: how many pages, how many changes, and how they were found. */
export function checkSummary(check: StaleCheck, t: Translate = english): string {
  const l10n = { t };
  const pages = check.pages.length === 1 ? l10n.t('1 page to update') : l10n.t('{0} pages to update', check.pages.length);
  const items = check.items.length === 1 ? l10n.t('1 code change') : l10n.t('{0} code changes', check.items.length);
  const parts = [l10n.t('{0} for {1}.', pages, items)];
  if (check.via === 'assistant') parts.push(fallbackNote(t));
  // A check the service stopped lists what it found; the error is said in the words used everywhere.
  if (check.failed)
    parts.push(
      l10n.t('The search stopped at search {0}: {1} The pages it found until then are listed.', check.requests, describeForUser(check.failed, t).message),
    );
  else if (check.cut) parts.push(l10n.t('Only the first {0} searches were made.', check.requests));
  return parts.join(' ');
}

/**
 * The page's address on the docs site (`docsSiteUrl` + its path), only when both make an http(s)
 * address without user info (src/api's one rule); a page the service names by URL keeps it, same rule.
 */
export function pageUrl(page: string, docsSiteUrl: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(page)) return safeExternalUrl(page);
  const base = safeExternalUrl(docsSiteUrl);
  if (!base || !page.startsWith('/') || page.startsWith('//')) return undefined;
  return safeExternalUrl(`${base.replace(/\/+$/, '')}${page}`);
}

import * as vscode from 'vscode';
import type { ChangedItem, StaleLine, StalePage } from '../core/staleDocs';
import { changeLabel, pageDescription, pageLabel, placeLabel, placeOf, rowText, TOOLTIP_MAX_CHARS } from '../core/staleWords';

// Docs to Update's rows. Every form, path and line in them came from a diff or the service: shown
// as plain text (a label, a description, a string tooltip, which VS Code renders as no Markdown),
// one line, cut short, without the characters that hide or reorder text (core/staleWords.ts). A
// row opens a workspace file (at its line) or, for a page that is not here, its address on the
// docs site through the view's own command, which checks it first.

export const OPEN_PAGE_COMMAND = 'docsAssistant.staleDocs.openPage';

const KIND_ICONS: Record<ChangedItem['kind'], string> = {
  symbol: 'symbol-method',
  configKey: 'settings',
  flag: 'symbol-key',
  command: 'terminal',
  envVar: 'symbol-variable',
  route: 'globe',
  errorMessage: 'error',
};

/** Opens `uri` at a 1-based line. */
function openAt(uri: vscode.Uri, line: number): vscode.Command {
  const at = new vscode.Range(Math.max(0, line - 1), 0, Math.max(0, line - 1), 0);
  return { command: 'vscode.open', title: vscode.l10n.t('Open'), arguments: [uri, { selection: at, preview: true }] };
}

export function pageItem(page: StalePage, file: vscode.Uri | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(pageLabel(page), vscode.TreeItemCollapsibleState.Expanded);
  item.id = `stale:${page.path}`;
  item.description = pageDescription(page, vscode.l10n.t);
  item.iconPath = new vscode.ThemeIcon(file ? 'file' : 'link-external');
  item.contextValue = 'stalePage';
  item.tooltip = [
    vscode.l10n.t('Page: {0}', rowText(page.path, TOOLTIP_MAX_CHARS)),
    file ? vscode.l10n.t('File: {0}', vscode.workspace.asRelativePath(file, true)) : vscode.l10n.t('Not in this workspace: opens on the docs site.'),
  ].join('\n');
  const first = page.lines[0]?.line ?? 1;
  // A page that is not here opens through the view's command, which checks the address first.
  item.command = file ? openAt(file, first) : { command: OPEN_PAGE_COMMAND, title: vscode.l10n.t('Open Page'), arguments: [page.path] };
  item.accessibilityInformation = { label: `${pageLabel(page)} · ${item.description}` };
  return item;
}

export function lineItem(line: StaleLine, page: StalePage, file: vscode.Uri | undefined): vscode.TreeItem {
  const text = rowText(line.text) || vscode.l10n.t('(empty line)');
  const item = new vscode.TreeItem(text, vscode.TreeItemCollapsibleState.Collapsed);
  item.description = vscode.l10n.t('line {0}', line.line);
  item.tooltip = rowText(line.text, TOOLTIP_MAX_CHARS);
  item.iconPath = new vscode.ThemeIcon('warning');
  item.contextValue = 'staleLine';
  item.command = file ? openAt(file, line.line) : { command: OPEN_PAGE_COMMAND, title: vscode.l10n.t('Open Page'), arguments: [page.path] };
  item.accessibilityInformation = { label: `${text} · ${item.description}` };
  return item;
}

/** The code change under a line; `root`: the repository it was read from (its file opens at the diff's line). */
export function changeItem(change: ChangedItem, root: vscode.Uri | undefined): vscode.TreeItem {
  const item = new vscode.TreeItem(changeLabel(change, vscode.l10n.t), vscode.TreeItemCollapsibleState.None);
  const place = placeOf(change);
  item.description = place ? placeLabel(place) : undefined;
  item.tooltip = [changeLabel(change, vscode.l10n.t), place ? placeLabel(place) : ''].filter(Boolean).join('\n');
  item.iconPath = new vscode.ThemeIcon(KIND_ICONS[change.kind] ?? 'diff');
  item.contextValue = 'staleChange';
  const uri = root && place && fileIn(root, place.file);
  // A removed item's file may be gone; its new side's line is where the change is.
  if (uri) item.command = openAt(uri, place.line);
  item.accessibilityInformation = { label: [item.label as string, item.description].filter(Boolean).join(' · ') };
  return item;
}

/** `file` (repository-relative, from the diff) inside `root`, or undefined when it could leave it. */
function fileIn(root: vscode.Uri, file: string): vscode.Uri | undefined {
  const segments = file.split('/');
  if (file.length > 4096 || segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) return undefined;
  return vscode.Uri.joinPath(root, ...segments);
}

import * as vscode from 'vscode';
import { siteFileUri } from '../../host/vscode/docsSiteFiles';
import type { PageFile } from '../core/readerSignals';

// Between a docs page's file as the signals name it (a workspace folder's URI and a relative
// path) and the document VS Code has open. A file is opened only inside a folder of this
// workspace, by a relative path that cannot climb out of it.

/** The workspace file of `file` (the host's rule, shared with Docs to Update). */
export const fileUri: (file: PageFile) => vscode.Uri | undefined = siteFileUri;

/** What the signals call this document's file: its folder and its path in it; undefined outside every folder. */
export function pageFileOf(uri: vscode.Uri): PageFile | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return undefined;
  const base = folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`;
  if (!uri.path.startsWith(base)) return undefined;
  return { folder: folder.uri.toString(), path: uri.path.slice(base.length) };
}

import * as vscode from 'vscode';
import type { PageFile } from '../core/readerSignals';

// Between a docs page's file as the signals name it (a workspace folder's URI and a relative
// path) and the document VS Code has open. A file is opened only inside a folder of this
// workspace, by a relative path that cannot climb out of it.

/** The workspace file of `file`, or undefined when its folder is not one of this workspace's or its path could leave it. */
export function fileUri(file: PageFile): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.toString() === file.folder);
  const segments = file.path.split('/');
  if (!folder || file.path.length > 2048 || segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('\\'))) return undefined;
  return vscode.Uri.joinPath(folder.uri, ...segments);
}

/** What the signals call this document's file: its folder and its path in it; undefined outside every folder. */
export function pageFileOf(uri: vscode.Uri): PageFile | undefined {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) return undefined;
  const base = folder.uri.path.endsWith('/') ? folder.uri.path : `${folder.uri.path}/`;
  if (!uri.path.startsWith(base)) return undefined;
  return { folder: folder.uri.toString(), path: uri.path.slice(base.length) };
}

import * as vscode from 'vscode';
import { DocsSiteMap } from '../../host/core/docsSiteMap';
import { siteFileUri, type DocsSiteFiles } from '../../host/vscode/docsSiteFiles';
import type { ReadPage } from '../core/staleSearch';

// A stale page's full text, for its lines: the workspace file when the docs live here (the
// docs.json mapping, src/host), else what the service's page endpoint gives (when it offers one),
// else nothing (the search's own passages are used). A file is read bounded, and only inside a
// folder of this workspace by a path that cannot climb out of it.

/** The largest page file read (the page endpoint's own bound). */
export const MAX_PAGE_FILE_BYTES = 2 * 1024 * 1024;

export class PageReader {
  private scanned: Promise<void> | undefined;

  constructor(private readonly sites: DocsSiteFiles) {}

  /** The workspace's docs sites are looked for once, when a check first needs them (the watcher keeps them after). */
  ready(): Promise<void> {
    this.scanned ??= this.sites.scan();
    return this.scanned;
  }

  /** The workspace file of a page the service names, when the docs live here. */
  fileOf(page: string): vscode.Uri | undefined {
    const file = new DocsSiteMap(this.sites.sites).fileFor(page);
    return file && siteFileUri(file);
  }

  /** readPage for the search: the file, else `endpoint` (the page endpoint, when offered). */
  reader(endpoint?: ReadPage): ReadPage {
    return async (path, signal, raw) => {
      await this.ready();
      const uri = this.fileOf(path);
      if (uri) {
        const text = await readBounded(uri);
        if (text !== undefined) return text;
      }
      return endpoint?.(raw ?? path, signal);
    };
  }
}

async function readBounded(uri: vscode.Uri): Promise<string | undefined> {
  try {
    if ((await vscode.workspace.fs.stat(uri)).size > MAX_PAGE_FILE_BYTES) return undefined;
    const bytes = await vscode.workspace.fs.readFile(uri);
    return bytes.byteLength > MAX_PAGE_FILE_BYTES ? undefined : new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

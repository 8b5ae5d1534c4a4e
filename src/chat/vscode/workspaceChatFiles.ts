import * as vscode from 'vscode';
import type { ChatFiles } from '../core/chatFiles';

// The chat's conversation folder (core/chatFiles.ts) through vscode.workspace.fs, which works in
// the desktop and the browser extension host alike. The folder is created on the first write.

const isNotFound = (err: unknown): boolean => err instanceof vscode.FileSystemError && err.code === 'FileNotFound';

export class WorkspaceChatFiles implements ChatFiles {
  private made: Promise<void> | undefined;

  constructor(private readonly folder: vscode.Uri) {}

  async read(name: string): Promise<string | undefined> {
    try {
      return new TextDecoder().decode(await vscode.workspace.fs.readFile(this.uri(name)));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  async write(name: string, text: string): Promise<void> {
    // Once per window; tried again after a failure.
    this.made ??= Promise.resolve(vscode.workspace.fs.createDirectory(this.folder)).catch((err: unknown) => {
      this.made = undefined;
      throw err;
    });
    await this.made;
    await vscode.workspace.fs.writeFile(this.uri(name), new TextEncoder().encode(text));
  }

  async rename(from: string, to: string): Promise<void> {
    await vscode.workspace.fs.rename(this.uri(from), this.uri(to), { overwrite: true });
  }

  async delete(name: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.uri(name), { useTrash: false });
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }

  async list(): Promise<string[]> {
    try {
      const entries = await vscode.workspace.fs.readDirectory(this.folder);
      return entries.filter(([, type]) => type === vscode.FileType.File).map(([name]) => name);
    } catch (err) {
      if (isNotFound(err)) return [];
      throw err;
    }
  }

  private uri(name: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, name);
  }
}

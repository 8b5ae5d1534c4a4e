import type { ChatFiles } from '../../src/chat/core/chatFiles';

/**
 * The chat's storage folder in memory, as vscode.workspace.fs behaves (a missing file reads as
 * undefined here, the wiring's contract), with a record of every operation and faults to inject:
 * a write that stops half way (the window closed mid-write) and a write that fails outright.
 */
export class MemoryChatFiles implements ChatFiles {
  readonly files = new Map<string, string>();
  readonly ops: string[] = [];
  /** The next write to a name this accepts leaves half its text and throws. */
  tearNextWrite: ((name: string) => boolean) | undefined;
  /** Every write to a name this accepts throws, writing nothing. */
  failWrites: ((name: string) => boolean) | undefined;

  async read(name: string): Promise<string | undefined> {
    await Promise.resolve();
    this.ops.push(`read ${name}`);
    return this.files.get(name);
  }
  async write(name: string, text: string): Promise<void> {
    await Promise.resolve();
    this.ops.push(`write ${name}`);
    if (this.failWrites?.(name)) throw new Error(`disk full: ${name}`);
    if (this.tearNextWrite?.(name)) {
      this.tearNextWrite = undefined;
      this.files.set(name, text.slice(0, Math.floor(text.length / 2)));
      throw new Error(`window closed while writing ${name}`);
    }
    this.files.set(name, text);
  }
  async rename(from: string, to: string): Promise<void> {
    await Promise.resolve();
    this.ops.push(`rename ${from} ${to}`);
    const text = this.files.get(from);
    if (text === undefined) throw new Error(`no such file: ${from}`);
    this.files.delete(from);
    this.files.set(to, text);
  }
  async delete(name: string): Promise<void> {
    await Promise.resolve();
    this.ops.push(`delete ${name}`);
    this.files.delete(name);
  }
  async list(): Promise<string[]> {
    await Promise.resolve();
    return [...this.files.keys()];
  }
}

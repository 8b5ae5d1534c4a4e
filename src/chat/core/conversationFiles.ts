import type { ChatFiles } from './chatFiles';
import { restored } from './mementoLayout';
import type { StoredConversation } from './storedChats';

// One file per conversation, `<id>.json`, written whole and atomically: the text goes to
// `<id>.json.tmp` first and is then renamed over the file, so a window closed mid-write leaves the
// previous version, never half of one. Writes of one conversation run one at a time, and only the
// newest text waiting is written (an answer streaming faster than the disk skips the versions in
// between). A delete supersedes any write still waiting, so a deleted conversation stays deleted.

const SUFFIX = '.json';
const TMP = '.tmp';
/** A file that could not be read is set aside under this name, kept for the user, never read again. */
const DAMAGED = '.damaged';
/** Ids are made by src/common/ids.ts; a name that is not one of them is not the store's. */
const ID = /^[A-Za-z0-9_-]{1,100}$/;

export const isConversationId = (id: string): boolean => ID.test(id);
const fileOf = (id: string): string => `${id}${SUFFIX}`;

export type ReadResult = { kind: 'ok'; conversation: StoredConversation; size: number } | { kind: 'missing' } | { kind: 'damaged' };

/** The files found in the folder: conversations by id, and leftovers of writes that never finished. */
export interface Listing {
  ids: string[];
  leftovers: string[];
}

export class ConversationFiles {
  /** Per conversation, what it should become next: its text, or null for deleted. */
  private readonly wanted = new Map<string, string | null>();
  private readonly running = new Map<string, Promise<void>>();

  constructor(
    private readonly files: ChatFiles,
    /** A write or delete that failed: the store keeps going with what it has in memory. */
    private readonly failed: (what: string, err: unknown) => void,
  ) {}

  /** Writes the conversation (see the top of the file) and returns its size; `settled` waits for it. */
  save(c: StoredConversation): number {
    const text = JSON.stringify(c);
    void this.schedule(c.id, text);
    return text.length;
  }

  remove(id: string): Promise<void> {
    return this.schedule(id, null);
  }

  /** Deletes every file of the store: conversations, leftovers and set-aside damaged files. */
  async removeAll(): Promise<void> {
    for (const id of this.wanted.keys()) this.wanted.set(id, null);
    await this.settled();
    for (const name of await this.files.list()) {
      if (name.endsWith(SUFFIX) || name.endsWith(SUFFIX + TMP)) await this.files.delete(name).catch((err: unknown) => this.failed('delete', err));
    }
  }

  /** Passes a failure the store met on its own to the same place as the files' (the log). */
  report(what: string, err: unknown): void {
    this.failed(what, err);
  }

  /** Every write and delete asked for so far, done. */
  async settled(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()]);
  }

  async read(id: string): Promise<ReadResult> {
    if (!isConversationId(id)) return { kind: 'missing' };
    await this.running.get(id);
    let text: string | undefined;
    try {
      text = await this.files.read(fileOf(id));
    } catch {
      return { kind: 'damaged' };
    }
    if (text === undefined) return { kind: 'missing' };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { kind: 'damaged' };
    }
    const conversation = restored(value);
    if (!conversation || conversation.id !== id) return { kind: 'damaged' };
    return { kind: 'ok', conversation, size: text.length };
  }

  /** Keeps a file that could not be read out of the way, for the user to look at; never read again. */
  async setAside(id: string): Promise<void> {
    if (!isConversationId(id)) return;
    try {
      await this.files.rename(fileOf(id), `${id}${DAMAGED}${SUFFIX}`);
    } catch (err) {
      this.failed('set aside', err);
    }
  }

  /** What the folder holds; undefined (and reported) when it cannot be listed. */
  async list(): Promise<Listing | undefined> {
    const ids: string[] = [];
    const leftovers: string[] = [];
    let names: string[];
    try {
      names = await this.files.list();
    } catch (err) {
      this.failed('list', err);
      return undefined;
    }
    for (const name of names) {
      if (name.endsWith(SUFFIX + TMP)) leftovers.push(name);
      else if (name.endsWith(SUFFIX) && !name.endsWith(DAMAGED + SUFFIX) && isConversationId(name.slice(0, -SUFFIX.length)))
        ids.push(name.slice(0, -SUFFIX.length));
    }
    return { ids, leftovers };
  }

  /**
   * The conversations of `ids` that `known` does not name (their index entry was never written, or
   * was lost), read back; and the ones that could not be read.
   */
  async readUnknown(
    ids: readonly string[],
    known: ReadonlySet<string>,
  ): Promise<{ found: { conversation: StoredConversation; size: number }[]; damaged: string[] }> {
    const found = [];
    const damaged = [];
    for (const id of ids) {
      if (known.has(id)) continue;
      const r = await this.read(id);
      if (r.kind === 'ok') found.push(r);
      else if (r.kind === 'damaged') damaged.push(id);
    }
    return { found, damaged };
  }

  /** Deletes the half-written temporary files a closed window left behind. */
  async sweep(leftovers: readonly string[]): Promise<void> {
    for (const name of leftovers) {
      const id = name.slice(0, -(SUFFIX + TMP).length);
      if (this.running.has(id)) continue;
      await this.files.delete(name).catch((err: unknown) => this.failed('delete', err));
    }
  }

  private schedule(id: string, text: string | null): Promise<void> {
    if (!isConversationId(id)) return Promise.resolve();
    this.wanted.set(id, text);
    let run = this.running.get(id);
    if (!run) {
      run = this.drain(id);
      this.running.set(id, run);
    }
    return run;
  }

  private async drain(id: string): Promise<void> {
    // Never settles before the caller has stored it in `running` (see schedule).
    await Promise.resolve();
    try {
      while (this.wanted.has(id)) {
        const text = this.wanted.get(id)!;
        this.wanted.delete(id);
        await this.apply(id, text);
      }
    } finally {
      this.running.delete(id);
    }
  }

  /** Writes the conversation now, atomically; throws when it could not be (the migration stops there). */
  async put(c: StoredConversation): Promise<void> {
    if (!isConversationId(c.id)) throw new Error('Not a conversation id.');
    await this.running.get(c.id);
    await this.writeFile(c.id, JSON.stringify(c));
  }

  private async writeFile(id: string, text: string): Promise<void> {
    await this.files.write(fileOf(id) + TMP, text);
    await this.files.rename(fileOf(id) + TMP, fileOf(id));
  }

  private async apply(id: string, text: string | null): Promise<void> {
    try {
      if (text === null) {
        await this.files.delete(fileOf(id));
        await this.files.delete(fileOf(id) + TMP);
      } else {
        await this.writeFile(id, text);
      }
    } catch (err) {
      this.failed(text === null ? 'delete' : 'write', err);
    }
  }
}

// The page's requests that wait for the host's reply, by id. Kept apart from rpc.ts (which
// talks to VS Code and the window) so that what happens to a request that is answered, refused
// or never answered is plain code, tested in Node with a clock the test moves.

/** The host's reply: its payload, or what went wrong. */
export type Reply = { ok: true; payload: unknown } | { ok: false; error: string };

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class PendingRequests {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  /** A new request's id, and the promise of its reply. */
  start(): { id: number; reply: Promise<unknown> } {
    const id = this.nextId++;
    const reply = new Promise<unknown>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    return { id, reply };
  }

  /** The host's reply to `id` settles its request, once; a reply to no waiting request is ignored. */
  settle(id: number, reply: Reply): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    if (reply.ok) w.resolve(reply.payload);
    else w.reject(new Error(reply.error));
  }

  /** How many requests wait for their reply. */
  get size(): number {
    return this.waiting.size;
  }
}

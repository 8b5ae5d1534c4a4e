// The page's requests that wait for the host's reply, by id. Kept apart from rpc.ts (which
// talks to VS Code and the window) so that what happens to a request that is answered, refused
// or never answered is plain code, tested in Node with a clock the test moves.
//
// A request waits at most its bound (REQUEST_TIMEOUT_MS in src/common/requestBounds.ts), then fails
// with a message the page shows, and its entry is gone: a reply that comes later finds nothing
// and changes nothing. A request without a bound waits on the user; the host answers it when
// they are done, and if the host goes away the page goes with it.

/** The host's reply: its payload, or what went wrong. */
export type Reply = { ok: true; payload: unknown } | { ok: false; error: string };

/** The window's timers; a test's clock in Node. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The host did not answer within the request's bound; asking again may work. */
export class NoReply extends Error {}

/** What the user reads of a failed request: the host's reason, or that it did not answer in time. */
export function reasonOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

interface Waiting {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: unknown;
}

export class PendingRequests {
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor(
    private readonly timers: Timers,
    /** What the user reads when the host did not answer in time (in the display language). */
    private readonly gaveUp: () => string,
  ) {}

  /** A new request's id, and the promise of its reply: it fails after `boundMs` without one (never, for null). */
  start(boundMs: number | null): { id: number; reply: Promise<unknown> } {
    const id = this.nextId++;
    const reply = new Promise<unknown>((resolve, reject) => {
      const timer = boundMs === null ? undefined : this.timers.setTimeout(() => this.giveUp(id), boundMs);
      this.waiting.set(id, { resolve, reject, timer });
    });
    return { id, reply };
  }

  /** The host's reply to `id` settles its request, once; a reply to no waiting request (late, or made up) is ignored. */
  settle(id: number, reply: Reply): void {
    const w = this.take(id);
    if (reply.ok) w?.resolve(reply.payload);
    else w?.reject(new Error(reply.error));
  }

  private giveUp(id: number): void {
    this.take(id)?.reject(new NoReply(this.gaveUp()));
  }

  /** The request `id` leaves the table, with its timer; undefined when it is not there (any more). */
  private take(id: number): Waiting | undefined {
    const w = this.waiting.get(id);
    if (!w) return undefined;
    this.waiting.delete(id);
    if (w.timer !== undefined) this.timers.clearTimeout(w.timer);
    return w;
  }

  /** How many requests wait for their reply. */
  get size(): number {
    return this.waiting.size;
  }
}

import type { HostNotificationName, HostNotifications, NotifyEnvelope } from '../../common/protocol';

// What the host tells one chat page, held until the page can take it. The host sends nothing
// before the page's `ready` (its script may not listen yet), and the reply to `ready` is a
// snapshot of everything. So, until that snapshot is taken, a snapshot or a patch is dropped: the
// snapshot will have it, and sent after it a patch would be applied twice (doubled text). What
// no snapshot carries (focusInput: the cursor, a command's question) is held, and so is anything
// sent after the snapshot was taken but before the reply went out. Held messages follow the
// reply, in the order they were sent.

/**
 * At most this many held. Before the snapshot only messages no snapshot carries are held, one
 * per name (POLICY), so it is a handful; after it, only what comes in the moment before the reply
 * goes out. Past the bound the oldest go, and the log says how many: the page's next snapshot
 * (any structural change) puts it right.
 */
export const MAX_HELD = 64;

type Held = { [N in HostNotificationName]: NotifyEnvelope<N> }[HostNotificationName];

interface Policy<N extends HostNotificationName> {
  /** A snapshot has it: moot until the one answering `ready` is taken. */
  inSnapshot: boolean;
  /** Held messages this one makes moot, by name. */
  replaces?: HostNotificationName[];
  /** Two held of this name become one. */
  merge?: (earlier: HostNotifications[N], later: HostNotifications[N]) => HostNotifications[N];
}

/** One policy per notification, so a new notification does not compile without one. */
const POLICY: { [N in HostNotificationName]: Policy<N> } = {
  snapshot: { inSnapshot: true, replaces: ['snapshot', 'patch'] },
  patch: { inSnapshot: true },
  // Focus once; the latest text, else the earlier one's (a plain focus does not clear it).
  focusInput: { inSnapshot: false, merge: (earlier, later) => (later.text === undefined ? earlier : later) },
};

/** loading: before `ready`'s snapshot; answering: after it, before the reply went out; open: the page listens. */
type Phase = 'loading' | 'answering' | 'open';

export class PageOutbox {
  private phase: Phase = 'loading';
  private held: Held[] = [];
  private dropped = 0;

  constructor(
    private readonly post: (message: Held) => void,
    private readonly warn: (line: string) => void,
  ) {}

  notify<N extends HostNotificationName>(name: N, payload: HostNotifications[N]): void {
    const message = { kind: 'notify', name, payload } as NotifyEnvelope<N> as Held;
    if (this.phase === 'open') this.post(message);
    else if (!(this.phase === 'loading' && POLICY[name].inSnapshot)) this.hold(message);
  }

  /** The page (re)loads, or its `ready` failed: nothing goes out until a `ready` succeeds. */
  reload(): void {
    this.phase = 'loading';
    this.held = this.held.filter((m) => !POLICY[m.name].inSnapshot);
  }

  /** The snapshot answering `ready` was just taken: held state is in it, what comes now is not. */
  snapshotTaken(): void {
    if (this.phase === 'open') return;
    this.reload();
    this.phase = 'answering';
  }

  /** The reply to `ready` went out: what was held follows, in order. */
  open(): void {
    const held = this.held;
    this.held = [];
    this.phase = 'open';
    if (this.dropped) this.warn(`The chat page was not ready: ${this.dropped} of the oldest messages held for it were dropped.`);
    this.dropped = 0;
    for (const m of held) this.post(m);
  }

  private hold(message: Held): void {
    const policy = POLICY[message.name] as Policy<HostNotificationName>;
    const earlier = policy.merge && this.held.find((m) => m.name === message.name);
    if (earlier) message = { ...message, payload: policy.merge!(earlier.payload, message.payload) } as Held;
    const moot = new Set<HostNotificationName>([...(policy.replaces ?? []), ...(policy.merge ? [message.name] : [])]);
    this.held = this.held.filter((m) => !moot.has(m.name));
    this.held.push(message);
    if (this.held.length > MAX_HELD) {
      this.dropped += this.held.length - MAX_HELD;
      this.held.splice(0, this.held.length - MAX_HELD);
    }
  }
}
